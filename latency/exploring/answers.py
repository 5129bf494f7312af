"""Direct answers to the two questions a PM brings to the estimator (pure Python, never streamlit):

* the largest model that meets the target on this hardware and precision (`largest_model`), over
  the size slider's own steps, so the answer is a value the slider can take and a link can open;
* the hardware with the least memory in all (devices x memory per device) that runs this model
  within the target (`smallest_hardware`).

Each candidate is one `latency.estimation.scenario.evaluate` of the scenario with that one input
changed (about 0.3 ms each: 90 sizes or 18 devices per rerun)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from latency.estimation import scenario
from latency.estimation.catalog import Catalog
from latency.exploring import tradeoffs

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


# --------------------------------------------------------------------------------------------
# Answers that state their set-up and prefer a safe one (issue 31 item 3)
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Found:
    """One answer's set-up and what it costs: `values` (the scenario that opens it), its estimate, the
    cost per 1,000 answers on its devices (nan without a price), and whether it meets the target across
    its range (`safe`: the range's slow end within it) or only at its estimate (borderline)."""

    values: Mapping[str, Any]
    estimate: Any
    cost_per_1k_answers: float
    safe: bool

    @property
    def devices(self) -> int:
        return int(self.estimate.devices_needed)

    def high_s(self, measure: str) -> float:
        return float(self.estimate.ranges[MEASURE_KEY[measure]][1])


def judge(catalog: Catalog, values: Mapping[str, Any], measure: str, budget_s: float) -> Found | None:
    """The set-up judged against the target: None when it does not fit, is rejected, or misses at its
    estimate; else a `Found` (safe when its range's slow end is within the target too)."""
    try:
        _, _, est = scenario.evaluate(catalog, values)
    except ValueError:
        return None
    key = MEASURE_KEY[measure]
    if not est.fits or getattr(est, key) > budget_s:
        return None
    cost = tradeoffs.headline(catalog, {**values, "measure": measure, "budget_s": budget_s},
                              tradeoffs.catalog_prices(catalog)).cost_per_1k_answers
    return Found(dict(values), est, float(cost), bool(est.ranges[key][1] <= budget_s))


_MEMO: dict[tuple, Any] = {}
MEMO_MAX = 512


def _memo(key: tuple, compute):
    """A bounded, server-wide memo of the answers (plain inputs -> frozen results): the answers do not
    follow the current model size (the largest model) and a page reruns them on every slider move."""
    if key not in _MEMO:
        if len(_MEMO) >= MEMO_MAX:
            _MEMO.clear()
        _MEMO[key] = compute()
    return _MEMO[key]


def catalog_key(catalog: Catalog) -> int:
    """What the answers read of a catalog, as a key: a page's cached catalog arrives as a fresh copy on every
    rerun (st.cache_data), so its identity cannot key a memo."""
    return hash((tuple((h, e.hardware, e.price_usd_per_hour) for h, e in catalog.hardware.items()),
                 tuple((p, e.bytes_per_param) for p, e in catalog.precisions.items()),
                 tuple((m, e.model) for m, e in catalog.models.items())))


def _frozen(values: Mapping[str, Any], leave: tuple[str, ...] = ()) -> tuple:
    return tuple(sorted((k, v) for k, v in values.items() if k not in leave))


def largest_models(catalog: Catalog, values: Mapping[str, Any], sizes: Sequence[float], measure: str,
                   budget_s: float) -> tuple[Found | None, Found | None]:
    """(safe, borderline): the largest of `sizes` that meets the target across its range, every other
    input as it is; and, when a larger size meets it only at its estimate, the largest such one (to be
    named as borderline beside the safe answer, never in its place)."""
    key = ("largest", catalog_key(catalog), _frozen(values, ("model_size_b",)), tuple(sizes), measure, float(budget_s))
    return _memo(key, lambda: _largest_models(catalog, values, sizes, measure, budget_s))


def _largest_models(catalog: Catalog, values: Mapping[str, Any], sizes: Sequence[float], measure: str,
                    budget_s: float) -> tuple[Found | None, Found | None]:
    borderline = None
    for size in sorted(sizes, reverse=True):
        found = judge(catalog, {**values, "model_size_b": float(size)}, measure, budget_s)
        if found is None:
            continue
        if found.safe:
            return found, borderline
        borderline = borderline or found
    return None, borderline


def other_hardware(catalog: Catalog, values: Mapping[str, Any], measure: str, budget_s: float) -> Found | None:
    """Only when the chosen hardware fails the target (does not fit or misses at its estimate): the
    hardware with the least memory in all that runs this model within it across its range, as many of it
    as it needs; None when the chosen one passes or none does."""
    if judge(catalog, values, measure, budget_s) is not None:
        return None
    key = ("other", catalog_key(catalog), _frozen(values, ("hardware", "devices", "engine")), measure, float(budget_s))
    return _memo(key, lambda: _other_hardware(catalog, values, measure, budget_s))


def _other_hardware(catalog: Catalog, values: Mapping[str, Any], measure: str, budget_s: float) -> Found | None:
    found = []
    for i, hid in enumerate(catalog.hardware):
        trial = judge(catalog, {**values, "hardware": hid, "devices": scenario.DEVICES_AUTO, "engine": scenario.ENGINE_AUTO},
                      measure, budget_s)
        if trial is not None and trial.safe:
            found.append((trial.devices * catalog.hardware[hid].hardware.memory_gb, i, trial))
    return min(found, key=lambda x: x[:2])[2] if found else None
