"""The launch check's inputs that change an estimate (a cached shared prompt part, speculative decoding)
are not shown on the explorer pages: when a link or the launch check turns them on, both pages name
them beside their inputs, in the reader's language (issue 31 item 1, issue 33 item 4)."""

from __future__ import annotations

import pytest

from latency.language import i18n
from tests.conftest import all_text, run_page

ON = {"prefix_cache": "on", "prefix_share": "0.5", "spec_tokens": "3", "spec_accept": "0.7"}


@pytest.mark.parametrize("page", ["estimator", "tradeoffs"])
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_launch_inputs_in_force_are_named(page, lang):
    names = i18n.strings("scenario", lang)
    at = run_page(page, lang, ON)
    assert not at.exception
    text = all_text(at)
    # the words of each item, from the content file, filled as a reader sees them ("50%", "3", "70%")
    assert names("unseen_prefix_cache", share="50%") in text
    assert names("unseen_spec", k=3, accept="70%") in text


@pytest.mark.parametrize("page", ["estimator", "tradeoffs"])
def test_nothing_is_named_when_they_are_off(page):
    names = i18n.strings("scenario", "en")
    text = all_text(run_page(page, "en", {"prefix_cache": "off", "prefix_share": "0.5", "spec_tokens": "0"}))
    assert names("unseen_spec", k=3, accept="70%").split(":")[0] not in text
    assert names("unseen_prefix_cache", share="50%").split(":")[0] not in text
