"""The trade-off page's "cheapest set-up" lines mark a device the calibration never measured as
extrapolated (issue 31: "an AMD GPU with no word that its figures are extrapolated"), and say that the
app does not measure quality when the cheapest set-up is a smaller model than the one chosen (issue 33:
"a 0.5B model with no word on what so small a model can do"). Expected values from the calibration
files themselves (../shared/calibration/hardware.csv), not from the page's helper."""

from __future__ import annotations

import csv

import pytest

from latency.estimation.catalog import load_catalog
from latency.estimation.estimator import calibration_dir
from latency.language import i18n
from tests.conftest import all_text, run_page

CATALOG = load_catalog()


def measured_names() -> list[str]:
    with open(calibration_dir() / "hardware.csv", encoding="utf-8") as f:
        return [row["hardware"].lower() for row in csv.DictReader(f)]


def never_measured(label: str) -> bool:
    core = label.split(" (")[0].lower()
    return not any(core in name or name.split(" (")[0] in core for name in measured_names())


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_cheapest_lines_mark_unmeasured_devices_and_name_quality(lang):
    s = i18n.strings("tradeoffs", lang)
    text = all_text(run_page("tradeoffs", lang, {"model_size_b": "8.03"}))
    lines = [ln for ln in text.splitlines() if ln.startswith("**") and ("1,000" in ln)]
    shown = [e for e in CATALOG.hardware.values() if any(e.label(lang) in ln for ln in lines)]
    assert shown, lines
    for entry in shown:
        note = s("cheapest_extrapolated", hardware=entry.label(lang))
        assert (note in text) == never_measured(entry.label("en")), (entry.id, note)
    assert any(never_measured(e.label("en")) for e in shown)  # the default map's cheapest includes one (MI300X, L4)
    assert s("cheapest_quality") in text  # the cheapest overall is a 0.5B model, smaller than the chosen 8B
