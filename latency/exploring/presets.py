"""Presets (content/presets.yaml): one per comparison-table column and per example of the entry,
each a whole scenario checked against the catalogs and the slider steps. Never imports streamlit."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from latency.estimation import scenario
from latency.estimation.catalog import Catalog
from latency.language.errors import ContentError, read_yaml
from latency.language.i18n import CONTENT_DIR
from latency.estimation.places import DistanceStop, _texts, distance_steps
from latency.estimation.sizing import SIZE_GRID_B, size_steps

PRESETS_FILE = CONTENT_DIR / "presets.yaml"


@dataclass(frozen=True)
class Preset:
    """One click on the page: a whole scenario, and what the entry states for it.

    source: ("comparison", class id) or ("example", example id). values: widget values keyed by
    URL key. label and note per language.
    """

    id: str
    source: tuple[str, str]
    label: Mapping[str, str]
    note: Mapping[str, str]
    values: Mapping[str, Any]


_PRESET_VALUE_KEYS = ("distance_stop",) + scenario.KEYS


def load_presets(catalog: Catalog, stops: Sequence[DistanceStop], use_cases: Mapping[str, Any],
                 comparison_ids: Sequence[str], example_ids: Sequence[str], file: Path = PRESETS_FILE) -> tuple[Preset, ...]:
    """Presets from `content/presets.yaml`, each checked against the catalogs and the steps, so a
    click always sets widgets to values they can show."""
    raw = read_yaml(file)
    if not isinstance(raw, dict) or not isinstance(raw.get("presets"), list) or not raw["presets"]:
        raise ContentError(file, "presets", "expected a non-empty list of presets")
    defaults = scenario.defaults(stops, use_cases)
    specs = scenario.specs(catalog, defaults, list(use_cases))
    sizes = size_steps(catalog)
    stop_km = {s.id: s.km for s in stops}
    out = []
    for i, p in enumerate(raw["presets"]):
        path = f"presets[{i}]"
        if not isinstance(p, dict):
            raise ContentError(file, path, "expected a mapping")
        unknown = set(p) - {"id", "source", "label", "note", *_PRESET_VALUE_KEYS}
        if unknown:
            raise ContentError(file, path, f"unknown field(s) {sorted(unknown)}")
        if not isinstance(p.get("id"), str):
            raise ContentError(file, f"{path}.id", "expected an id")
        src = p.get("source")
        if not (isinstance(src, dict) and len(src) == 1 and next(iter(src)) in ("comparison", "example")):
            raise ContentError(file, f"{path}.source", "expected {comparison: <class id>} or {example: <example id>}")
        kind, ref = next(iter(src.items()))
        known = comparison_ids if kind == "comparison" else example_ids
        if ref not in known:
            raise ContentError(file, f"{path}.source.{kind}", f"unknown id {ref!r}; the entry has {list(known)}")
        values = dict(defaults)
        for key in _PRESET_VALUE_KEYS:
            if key not in p:
                continue
            v = p[key]
            if key == "distance_stop":
                if v not in stop_km:
                    raise ContentError(file, f"{path}.distance_stop", f"unknown stop {v!r}; known: {list(stop_km)}")
                values["distance_km"] = stop_km[v]
                continue
            value, reason = specs[key].parse(str(v))
            if reason:
                raise ContentError(file, f"{path}.{key}", f"{v!r} is not accepted ({reason.replace('_', ' ')})")
            values[key] = value
        if "use_case" in p and "budget_s" not in p:  # a use case brings its own budget
            case = use_cases[values["use_case"]]
            values["budget_s"], values["measure"] = float(case.budget_s), case.measure
        if not any(math.isclose(values["model_size_b"], s, rel_tol=1e-9) for s in sizes):
            raise ContentError(file, f"{path}.model_size_b", f"{values['model_size_b']} is not a slider step; use a catalog size or one of {SIZE_GRID_B}")
        if values["distance_km"] not in distance_steps(stops):
            raise ContentError(file, f"{path}.distance_km", "use distance_stop or a grid distance")
        out.append(Preset(p["id"], (kind, ref), _texts(file, f"{path}.label", p.get("label")),
                          _texts(file, f"{path}.note", p.get("note")), values))
    if len({p.id for p in out}) != len(out):
        raise ContentError(file, "presets", "preset ids must be unique")
    return tuple(out)


