"""Claim checks: does a sentence of a glossary entry hold, according to the estimator? (pure Python)

An entry marks each claim the estimator can test with a ``checks:`` list (content/README.md,
"Claim checks"). This module runs each check at run time through the same path the estimator page
uses for its URL (``latency.estimation.scenario.evaluate``: URL values → model, hardware, serving → ``estimate``),
so a recalibration changes the verdicts by itself, and a link built from a check's scenario opens the
estimator on exactly the numbers the verdict quotes.

* ``run_check(check, catalog, klass=None) -> ClaimResult``: one check; ``klass`` is the comparison
  class a ``row`` check sits on (its ``latency_s`` is the bound of ``scenarios: representative``,
  which reuses ``latency.teaching.explain.check_classes`` so the How page and the glossary never disagree).
* ``run_term(term, catalog) -> dict[check id, ClaimResult]``.
* ``VERDICTS``: "holds", "conditional" (holds under conditions), "fails" (does not hold).
* ``link_values(values) -> dict[str, str]``: a scenario as the estimator's URL query.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

from latency.teaching import explain
from latency.estimation import places, scenario as scenario_mod
from latency.teaching import content as content_mod
from latency.estimation.catalog import Catalog
from latency.teaching.content import REPRESENTATIVE, Check, ComparisonClass, Term

VERDICTS = ("holds", "conditional", "fails")
# A scenario's own outcome: the claim is true there ("holds"), true for the first token only
# ("first_token", explain.verdict's word for a whole answer that ends outside the range), or not ("no").
OUTCOMES = explain.VERDICTS


def measure_value(est: Any, measure: str) -> float:
    """The number a check's measure reads from an Estimate (per user unless it says server; the server
    figure over whole requests, first-token wait included, the figure the explorer pages print)."""
    return {
        "ttft": lambda: est.ttft_s,
        "total": lambda: est.total_s,
        "tokens_per_s": lambda: est.decode_tokens_per_s,
        "server_tokens_per_s": lambda: est.server_tokens_per_s,  # whole requests, as the explorer pages show it (issue 31)
        "memory_gb": lambda: est.memory_gb,
        "devices": lambda: float(est.devices_needed),
    }[measure]()


@dataclass(frozen=True)
class Outcome:
    """One scenario of a check: its full URL values, the value, and the compared value (versus)."""

    values: Mapping[str, Any]
    value: float
    ttft_s: float
    other_values: Mapping[str, Any] | None
    other: float | None
    outcome: str  # one of OUTCOMES


@dataclass(frozen=True)
class ClaimResult:
    check: Check
    verdict: str  # one of VERDICTS
    outcomes: tuple[Outcome, ...]
    bound: tuple[float | None, float | None] | None  # the stated range, where the relation is a bound

    @property
    def shown(self) -> Outcome:
        """The scenario a link should open: the first where the claim fails if it does not hold, else
        the first where it holds."""
        want = "holds" if self.verdict == "holds" else ("no" if self.verdict == "fails" else "holds")
        return next((o for o in self.outcomes if o.outcome == want), self.outcomes[0])

    @property
    def counter(self) -> Outcome | None:
        """For "holds under conditions": the first scenario where it does not fully hold."""
        if self.verdict != "conditional":
            return None
        return next((o for o in self.outcomes if o.outcome != "holds"), None)


@lru_cache(maxsize=4)
def _defaults(places_mtime_ns: int) -> tuple[tuple[str, Any], ...]:
    cases = {u.id: u for u in content_mod.use_case_budgets("en")}
    return tuple(scenario_mod.defaults(places.load_stops(), cases).items())


def full_values(catalog: Catalog, scenario: Mapping[str, Any]) -> dict[str, Any]:
    """The estimator's default scenario with these URL keys changed."""
    values = dict(_defaults(places.PLACES_FILE.stat().st_mtime_ns))
    values.update(scenario)
    return values


def _estimate(catalog: Catalog, values: Mapping[str, Any]):
    return scenario_mod.evaluate(catalog, values)[2]


def aggregate(outcomes: list[str]) -> str:
    """Every scenario holds → "holds"; none holds even for the first token → "fails"; else "conditional"."""
    if all(o == "holds" for o in outcomes):
        return "holds"
    if all(o == "no" for o in outcomes):
        return "fails"
    return "conditional"


def _representative(check: Check, catalog: Catalog, klass: ComparisonClass) -> ClaimResult:
    """The How page's representative set-ups of a comparison class (latency.teaching.explain.SCENARIOS, the
    same list and the same rule: the whole answer in the stated range, else the first token only, else no),
    each run through the one scenario evaluation (`scenario.evaluate`), so a figure here is the estimator's
    for the same inputs."""
    stated = (float(klass.latency_s.min), float(klass.latency_s.max))
    outcomes = []
    for sc in (x for x in explain.SCENARIOS if x.class_id == klass.id):
        model = catalog.models[sc.model].model
        values = full_values(catalog, dict(
            model_size_b=model.params_b, arch=model.architecture or "dense", precision=sc.precision, hardware=sc.hardware,
            prompt_tokens=explain.PROMPT_TOKENS, output_tokens=explain.OUTPUT_TOKENS,
            # a cloud set-up at the calculator's default distance (Seoul to Tokyo), as every other check and the
            # calculator itself: at explain.CLOUD_KM (1,000 km) the fold named one comparison at 1,000 km and the
            # next at 1,149 km (learner trial, issue 31)
            **({"distance_km": 0.0, "access": "none"} if sc.local else {})))
        est = _estimate(catalog, values)
        own = explain.verdict(stated, [est.ttft_s], [est.total_s], majority=1.0)
        outcomes.append(Outcome(values, est.total_s, est.ttft_s, None, None, own))
    if not outcomes:
        raise ValueError(f"no representative set-up for comparison class {klass.id!r}")
    whole = explain.verdict(stated, [o.ttft_s for o in outcomes], [o.value for o in outcomes])  # the How page's rule
    verdict = {"holds": "holds", "first_token": "conditional", "no": "fails"}[whole]
    return ClaimResult(check, verdict, tuple(outcomes), stated)


def run_check(check: Check, catalog: Catalog, klass: ComparisonClass | None = None) -> ClaimResult:
    if check.scenarios == REPRESENTATIVE:
        if klass is None:
            raise ValueError(f"check {check.id!r}: '{REPRESENTATIVE}' needs the comparison class it sits on")
        return _representative(check, catalog, klass)
    outcomes = []
    for scenario in check.scenarios:
        values = full_values(catalog, dict(scenario))
        est = _estimate(catalog, values)
        value = measure_value(est, check.measure)
        if check.bound is not None:
            lo, hi = check.bound.min, check.bound.max
            stated = (-math.inf if lo is None else lo, math.inf if hi is None else hi)
            if check.measure == "total":  # the How page's rule: total in range, else first token only, else no
                own = explain.verdict(stated, [est.ttft_s], [est.total_s], majority=1.0)
            else:
                own = "holds" if explain.inside(value, stated) else "no"
            outcomes.append(Outcome(values, value, est.ttft_s, None, None, own))
        else:
            other_values = {**values, **dict(check.versus or ())}
            other = measure_value(_estimate(catalog, other_values), check.measure)
            ok = value < other if check.expect == "lower" else value > other
            outcomes.append(Outcome(values, value, est.ttft_s, other_values, other, "holds" if ok else "no"))
    bound = (check.bound.min, check.bound.max) if check.bound is not None else None
    return ClaimResult(check, aggregate([o.outcome for o in outcomes]), tuple(outcomes), bound)


def run_term(term: Term, catalog: Catalog) -> dict[str, ClaimResult]:
    """Every check of an entry, by check id."""
    out = {}
    for _where, obj, check in term.checks():
        out[check.id] = run_check(check, catalog, obj if isinstance(obj, ComparisonClass) else None)
    return out


def model_label(catalog: Catalog, values: Mapping[str, Any], lang: str) -> str | None:
    """The catalog's name of the set-up's model ("Llama 3.1 8B"), the name the lesson, the start page's race and
    the calculator print; None where no catalog model has this size and kind (a size typed in by hand)."""
    size, arch = float(values["model_size_b"]), values.get("arch", "dense")
    return next((m.label(lang) for m in catalog.models.values()
                 if m.model.params_b == size and (m.model.architecture or "dense") == arch), None)


def link_values(values: Mapping[str, Any], keys: tuple[str, ...] = scenario_mod.KEYS) -> dict[str, str]:
    """A scenario as the estimator's URL query (every key, so the page shows exactly this set-up)."""
    return {k: scenario_mod.url_value(values[k]) for k in keys
            if k in values and k not in ("use_case", "budget_s", "measure", "device_scope")}


__all__ = ["REPRESENTATIVE", "VERDICTS", "OUTCOMES", "Outcome", "ClaimResult", "measure_value", "full_values", "aggregate",
           "run_check", "run_term", "model_label", "link_values"]
