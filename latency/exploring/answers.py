"""Direct answers to the two questions a PM brings to the estimator (pure Python, never streamlit):

* the largest model that meets the target on this hardware and precision (`largest_model`), over
  the size slider's own steps, so the answer is a value the slider can take and a link can open;
* the hardware with the least memory in all (devices x memory per device) that runs this model
  within the target (`smallest_hardware`).

Each candidate is one `latency.estimation.scenario.evaluate` of the scenario with that one input
changed (about 0.3 ms each: 90 sizes or 18 devices per rerun)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from latency.estimation import scenario
from latency.estimation.catalog import Catalog

MEASURE_KEY = {"ttft": "ttft_s", "total": "total_s"}


def meets(catalog: Catalog, values: Mapping[str, Any], measure: str, budget_s: float) -> bool:
    """The scenario fits and its time for `measure` is within `budget_s` (a combination the
    estimator rejects, e.g. an engine that does not run on that device, does not)."""
    try:
        _, _, est = scenario.evaluate(catalog, values)
    except ValueError:
        return False
    return bool(est.fits) and getattr(est, MEASURE_KEY[measure]) <= budget_s


def largest_model(catalog: Catalog, values: Mapping[str, Any], sizes: Sequence[float], measure: str,
                  budget_s: float) -> float | None:
    """The largest of `sizes` (billions of parameters) that meets the target with every other input
    as it is; None when not even the smallest does."""
    for size in sorted(sizes, reverse=True):
        if meets(catalog, {**values, "model_size_b": size}, measure, budget_s):
            return float(size)
    return None


def smallest_hardware(catalog: Catalog, values: Mapping[str, Any], measure: str, budget_s: float) -> str | None:
    """The hardware id, of those that run this model within the target (as many devices as it
    needs), with the least memory in all; None when none does."""
    found = []
    for i, (hid, entry) in enumerate(catalog.hardware.items()):
        trial = {**values, "hardware": hid, "devices": scenario.DEVICES_AUTO}
        if meets(catalog, trial, measure, budget_s):
            _, _, est = scenario.evaluate(catalog, trial)
            found.append((est.devices_needed * entry.hardware.memory_gb, i, hid))
    return min(found)[2] if found else None
