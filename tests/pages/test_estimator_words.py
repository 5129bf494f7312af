"""One name per idea on the explorer pages (PM trial item 11), checked over every string of their content files.

A "device" (기기, content/vocabulary.yaml) is the chip picked and one of them, counted ("2 devices", "기기 2개"). The
trial met "GPUs", "Devices per server", "Device" and "Hardware" for what seemed one idea, and "the entry" unexplained;
round 2 (item 7) took the launch check's names on the three pages: "Device", "Devices per server", 기기.
"""

from __future__ import annotations

import re

import pytest
import yaml

FILES = ("content/ui/estimator.yaml", "content/ui/tradeoffs.yaml", "content/ui/scenario.yaml")


def strings(lang: str):
    for path in FILES:
        with open(path, encoding="utf-8") as fh:
            table = yaml.safe_load(fh)
        for key, value in table.items():
            if isinstance(value, dict) and isinstance(value.get(lang), str):
                yield path, key, value[lang]


def test_a_counted_chip_is_a_device_never_a_gpu_or_jangchi():
    bad = [(p, k, v) for p, k, v in strings("en") if re.search(r"\bGPUs?\b", v)]
    bad += [(p, k, v) for p, k, v in strings("ko") if "장치" in v or re.search(r"GPU\s*(개수|\{)", v)]
    assert not bad, bad[:5]


def test_the_entry_is_always_the_glossary_entry_in_english():
    bad = [(p, k, v) for p, k, v in strings("en") if re.search(r"\b[Tt]he entry\b", v)]
    assert not bad, bad[:5]


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_animation_is_not_named_like_the_launch_checks_comparison(lang):
    table = dict((k, v) for _, k, v in strings(lang))
    heading = table["race_heading"]
    assert {"ko": "재생", "en": "played"}[lang] in heading, "the estimator's side-by-side says it is a playback"
