"""What the explorer pages load once per language: catalogs, distance stops, the entry's budgets and
table classes, presets, slider steps and the shared default scenario. Pure; pages cache it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from latency.teaching import content, feel
from latency.estimation import scenario
from latency.estimation.catalog import Catalog, load_catalog
from latency.estimation.places import DistanceStop, distance_steps, load_stops
from latency.exploring.presets import Preset, load_presets
from latency.estimation.sizing import size_steps


@dataclass(frozen=True)
class ExplorerData:
    catalog: Catalog
    stops: tuple[DistanceStop, ...]
    stop_at: Mapping[float, DistanceStop]
    use_cases: Mapping[str, Any]          # id -> content.UseCase (budget_s, measure, abandon_s, label)
    classes: Mapping[str, Any]            # comparison-table class id -> content.ComparisonClass
    examples: Mapping[str, Any]           # example id -> the entry's example
    observed_s: tuple[float, ...]         # the entry's measured figures (meeting phrases)
    presets: tuple[Preset, ...]
    samples: Mapping[str, feel.Sample]
    sizes: tuple[float, ...]
    distances: tuple[float, ...]
    hw_order: tuple[str, ...]
    device_choices: tuple[Any, ...]
    default: Mapping[str, Any]
    specs: Mapping[str, Any]


def load(lang: str) -> ExplorerData:
    """Everything the explorer pages need in `lang`; ContentError names a broken file."""
    catalog = load_catalog()
    stops = load_stops()
    use_cases = {u.id: u for u in content.use_case_budgets(lang)}
    term = content.load_term(content.DEFAULT_TERM, lang)
    examples = {e.id: e for e in term.examples.items}
    classes = {c.id: c for c in content.comparison_classes(lang)}
    observed = tuple(p.figure.value_s for p in term.phrases.items if p.figure is not None and p.figure.kind == "observed")
    default = scenario.defaults(stops, use_cases)
    presets = load_presets(catalog, stops, use_cases, list(classes), list(examples))
    return ExplorerData(
        catalog=catalog, stops=stops, stop_at={s.km: s for s in stops}, use_cases=use_cases, classes=classes,
        examples=examples, observed_s=observed, presets=presets, samples=feel.load_samples(),
        sizes=size_steps(catalog), distances=distance_steps(stops), hw_order=tuple(scenario.ordered_hardware(catalog)),
        device_choices=(scenario.DEVICES_AUTO,) + (1, 2, 4, 8, 16, 32, 64), default=default,
        specs=scenario.specs(catalog, default, list(use_cases)))
