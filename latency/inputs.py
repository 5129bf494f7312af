"""The estimator page's inputs as pure Python: slider steps, named distances, models built from a
size, presets, the URL specs, and the verdict against a use-case budget. Never imports streamlit.

- Model size: a log-like grid from 0.5 B to 2,000 B merged with the sizes of the catalog models,
  so moving the slider lands on real models (Llama 3.1 8B at 8.03 B, ...). A size that is a
  catalog model of the chosen architecture uses that model's published config; any other size is
  built with the estimator's documented scaling rule (`latency.estimator.model_shape`: Kaplan et
  al. 2020, P = 12 L d^2, d = 128 L), taking the MoE active share or the loop count from the
  closest catalog model of that architecture.
- Distance: named stops whose distances are great-circle distances between city coordinates
  (`content/places.yaml`, haversine with constants.EARTH_RADIUS_KM like shared/calibration/rtt.csv), merged
  with a grid from 0 to 20,000 km.
- Presets: `content/presets.yaml`, one per comparison-table column and per example of the entry.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Mapping, Sequence


from latency.catalog import Catalog, ModelEntry
from latency.constants import EARTH_RADIUS_KM  # mean radius, as rtt.csv uses (source there)
from latency.errors import ContentError, read_yaml
from latency.estimator import ACCESS_NETWORKS, ARCHITECTURES, CONNECTIONS, ENGINES, Model
from latency.i18n import CONTENT_DIR, LANGS
from latency.scenario import ChoiceParam, NumberParam

PLACES_FILE = CONTENT_DIR / "places.yaml"
PRESETS_FILE = CONTENT_DIR / "presets.yaml"


SIZE_MIN_B, SIZE_MAX_B = 0.5, 2000.0
SIZE_GRID_B = (0.5, 0.7, 1, 1.5, 2, 3, 4, 5, 7, 10, 15, 20, 30, 40, 50, 70, 100, 150, 200, 300, 400,
               500, 700, 1000, 1500, 2000)
"""About three steps per doubling-and-a-half: the 1-1.5-2-3-5-7 series of each decade."""

DISTANCE_MAX_KM = 20000.0
DISTANCE_GRID_KM = (0, 5, 10, 50, 100, 200, 300, 500, 750, 1000, 1500, 2000, 2500, 3000, 4000, 5000,
                    6000, 7000, 8000, 10000, 12000, 14000, 16000, 18000, 20000)
MERGE_TOLERANCE = 0.06
"""A grid step within 6% of a named value (catalog size, named stop) is dropped for that value."""

ENGINE_AUTO = "auto"
ENGINE_CHOICES = (ENGINE_AUTO,) + ENGINES
CONCURRENCY_MAX = 1000
PROMPT_MAX = 131072    # 128k-token context (Llama 3.1 configs: max_position_embeddings 131072)
OUTPUT_MAX = 32768


# --------------------------------------------------------------------------------------------
# Steps
# --------------------------------------------------------------------------------------------

def merge_steps(grid: Sequence[float], named: Sequence[float], lo: float, hi: float) -> tuple[float, ...]:
    """The grid plus the named values in [lo, hi]; grid steps too close to a named value go."""
    named = sorted({float(v) for v in named if lo <= v <= hi})

    def near(g: float) -> bool:
        return any(abs(g - v) <= MERGE_TOLERANCE * max(v, 1e-9) for v in named)

    return tuple(sorted({float(g) for g in grid if lo <= g <= hi and not near(g)} | set(named)))


def snap(value: float, steps: Sequence[float], log: bool = True) -> float:
    """The step nearest to `value` (in log distance when `log` and both are positive)."""
    if not steps:
        raise ValueError("no steps to snap to")
    i = bisect.bisect_left(steps, value)
    cands = [steps[j] for j in (i - 1, i) if 0 <= j < len(steps)]

    def dist(s: float) -> float:
        if log and s > 0 and value > 0:
            return abs(math.log(s / value))
        return abs(s - value)

    return min(cands, key=dist)


def size_steps(catalog: Catalog) -> tuple[float, ...]:
    return merge_steps(SIZE_GRID_B, [m.model.params_b for m in catalog.models.values()], SIZE_MIN_B, SIZE_MAX_B)


# --------------------------------------------------------------------------------------------
# Places and distance stops
# --------------------------------------------------------------------------------------------

def great_circle_km(lat1: float, lon1: float, lat2: float, lon2: float, radius_km: float = EARTH_RADIUS_KM) -> float:
    """Haversine great-circle distance between two points given in decimal degrees, km."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * radius_km * math.asin(min(1.0, math.sqrt(h)))


@dataclass(frozen=True)
class DistanceStop:
    id: str
    label: Mapping[str, str]   # full label per language, e.g. "서울→도쿄"
    short: Mapping[str, str]   # for chart labels
    km: float                  # great-circle distance, rounded to whole km


def _texts(file: Path, path: str, value: Any) -> dict[str, str]:
    if not isinstance(value, dict) or any(not isinstance(value.get(l), str) or not value[l].strip() for l in LANGS):
        raise ContentError(file, path, f"expected text in every language {list(LANGS)}, found {value!r}")
    return {l: value[l] for l in LANGS}


def load_stops(file: Path = PLACES_FILE) -> tuple[DistanceStop, ...]:
    """Named distance stops, their distances computed from the places' coordinates."""
    raw = read_yaml(file)
    if not isinstance(raw, dict) or not isinstance(raw.get("places"), dict) or not isinstance(raw.get("stops"), list):
        raise ContentError(file, "", "expected 'places' (a mapping) and 'stops' (a list)")
    places = {}
    for name, p in raw["places"].items():
        if not isinstance(p, dict):
            raise ContentError(file, f"places.{name}", "expected {lat, lon, source}")
        for key, lim in (("lat", 90), ("lon", 180)):
            v = p.get(key)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not -lim <= v <= lim:
                raise ContentError(file, f"places.{name}.{key}", f"expected a number from -{lim} to {lim}, found {v!r}")
        if not isinstance(p.get("source"), str) or not p["source"].strip():
            raise ContentError(file, f"places.{name}.source", "every coordinate needs its source")
        places[name] = (float(p["lat"]), float(p["lon"]))
    stops = []
    for i, s in enumerate(raw["stops"]):
        path = f"stops[{i}]"
        if not isinstance(s, dict) or not isinstance(s.get("id"), str):
            raise ContentError(file, path, "expected a mapping with an id")
        ends = (s.get("from"), s.get("to"))
        if ends == (None, None):
            km = 0.0
        else:
            for key, name in zip(("from", "to"), ends):
                if name not in places:
                    raise ContentError(file, f"{path}.{key}", f"unknown place {name!r}; known: {sorted(places)}")
            km = float(round(great_circle_km(*places[ends[0]], *places[ends[1]])))
        if km > DISTANCE_MAX_KM:
            raise ContentError(file, path, f"{km:.0f} km is beyond the slider's {DISTANCE_MAX_KM:,.0f} km")
        stops.append(DistanceStop(s["id"], _texts(file, f"{path}.label", s.get("label")),
                                  _texts(file, f"{path}.short", s.get("short")), km))
    if len({s.id for s in stops}) != len(stops):
        raise ContentError(file, "stops", "stop ids must be unique")
    return tuple(stops)


def distance_steps(stops: Sequence[DistanceStop]) -> tuple[float, ...]:
    return merge_steps(DISTANCE_GRID_KM, [s.km for s in stops], 0.0, DISTANCE_MAX_KM)


# --------------------------------------------------------------------------------------------
# A model from a size
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class SizedModel:
    """The model the page estimates, and where its shape comes from.

    entry: the catalog model whose published config is used (size and architecture match), else
    None. reference: the catalog model that lent its MoE active share or loop count (scaled
    models of those architectures), else None. `model` has no layer/head fields when scaled, so
    the estimator's scaling rule (model_shape) applies.
    """

    model: Model
    entry: ModelEntry | None
    reference: ModelEntry | None

    @property
    def scaled(self) -> bool:
        return self.entry is None


def closest_of_arch(catalog: Catalog, arch: str, size_b: float) -> ModelEntry | None:
    """The catalog model of architecture `arch` closest in log size to `size_b`."""
    same = [m for m in catalog.models.values() if m.model.arch == arch]
    return min(same, key=lambda m: abs(math.log(m.model.params_b / size_b))) if same else None


def sized_model(catalog: Catalog, size_b: float, arch: str, bytes_per_param: float) -> SizedModel:
    """The model for a slider position: the catalog config if one matches, else a scaled one."""
    if arch not in ARCHITECTURES:
        raise ValueError(f"arch must be one of {ARCHITECTURES}, got {arch!r}")
    for entry in catalog.models.values():
        if entry.model.arch == arch and math.isclose(entry.model.params_b, size_b, rel_tol=1e-6):
            return SizedModel(replace(entry.model, bytes_per_param=bytes_per_param), entry, None)
    ref = closest_of_arch(catalog, arch, size_b) if arch != "dense" else None
    return SizedModel(scaled_model(size_b, arch, bytes_per_param, ref), None, ref)


def scaled_model(size_b: float, arch: str, bytes_per_param: float, reference: ModelEntry | None) -> Model:
    """A model of `size_b` total parameters without a published shape (the estimator scales it).

    MoE: active parameters = size x the reference's active share (Qwen3-235B-A22B: 22/235).
    Looped: the reference's loop count and loop KV window (IQuest-Coder-V1-40B-Loop: 2 loops, 64).
    """
    name = f"{size_b:g}B {arch}"
    if arch == "moe" and reference is not None:
        share = reference.model.active_b / reference.model.params_b
        return Model(name=name, params_b=size_b, bytes_per_param=bytes_per_param,
                     active_params_b=size_b * share, architecture="moe")
    if arch == "looped" and reference is not None:
        return Model(name=name, params_b=size_b, bytes_per_param=bytes_per_param, architecture="looped",
                     loops=reference.model.loops, loop_kv_window=reference.model.loop_kv_window)
    return Model(name=name, params_b=size_b, bytes_per_param=bytes_per_param, architecture="dense")


def sweep_model(catalog: Catalog, size_b: float, arch: str, bytes_per_param: float) -> Model:
    """The shape-free model used for the size sweep (its active share or loops from the catalog
    model of `arch` closest to the current size), so every size on the curve follows one rule."""
    ref = closest_of_arch(catalog, arch, size_b) if arch != "dense" else None
    return scaled_model(size_b, arch, bytes_per_param, ref)


# --------------------------------------------------------------------------------------------
# Serving: how concurrent users map onto the estimator's batch and queue
# --------------------------------------------------------------------------------------------

def serving_inputs(engine: str, default_engine: str, concurrency: int) -> dict[str, Any]:
    """Estimator keyword arguments for `concurrency` simultaneous users (yours included).

    An optimized serving engine (vLLM, TensorRT-LLM, SGLang) batches concurrent requests
    continuously: batch = concurrency, nobody queues, and each user's time per token rises with
    the batch. A local runner (llama.cpp, Ollama) answers one request at a time: batch 1, and the
    others queue ("busy kitchen").
    """
    eng = default_engine if engine == ENGINE_AUTO else engine
    if eng == "optimized":
        return dict(engine=None if engine == ENGINE_AUTO else engine, batch=concurrency, concurrent_users=concurrency)
    return dict(engine=None if engine == ENGINE_AUTO else engine, batch=1, concurrent_users=concurrency)


# --------------------------------------------------------------------------------------------
# URL
# --------------------------------------------------------------------------------------------

URL_KEYS = ("model_size_b", "hardware", "distance_km", "arch", "precision", "prompt_tokens", "output_tokens",
            "concurrency", "access", "connection", "engine", "use_case")

DEFAULTS = dict(model_size_b=8.03, hardware="h100-sxm", distance_km=None, arch="dense", precision="fp16",
                prompt_tokens=512, output_tokens=256, concurrency=1, access="wired", connection="warm",
                engine=ENGINE_AUTO, use_case="support_chatbot")
"""Default scenario: Llama 3.1 8B in FP16 on an H100, served from Tokyo to a wired user in Seoul
(distance_km None = the Seoul→Tokyo stop), one user, 512 prompt and 256 output tokens (the
estimator's defaults), judged against the support chatbot's budget."""
DEFAULT_STOP = "seoul_tokyo"


def default_values(stops: Sequence[DistanceStop], use_case_ids: Sequence[str]) -> dict[str, Any]:
    out = dict(DEFAULTS)
    out["distance_km"] = next(s.km for s in stops if s.id == DEFAULT_STOP)
    if out["use_case"] not in use_case_ids:
        out["use_case"] = use_case_ids[0]
    return out


def url_specs(catalog: Catalog, defaults: Mapping[str, Any], use_case_ids: Sequence[str]) -> dict[str, Any]:
    """How each URL key is validated (latency.scenario.parse_query)."""
    return dict(
        model_size_b=NumberParam(defaults["model_size_b"], SIZE_MIN_B, SIZE_MAX_B),
        hardware=ChoiceParam(defaults["hardware"], tuple(catalog.hardware)),
        distance_km=NumberParam(defaults["distance_km"], 0.0, DISTANCE_MAX_KM),
        arch=ChoiceParam(defaults["arch"], ARCHITECTURES),
        precision=ChoiceParam(defaults["precision"], tuple(catalog.precisions)),
        prompt_tokens=NumberParam(defaults["prompt_tokens"], 1, PROMPT_MAX, integer=True),
        output_tokens=NumberParam(defaults["output_tokens"], 1, OUTPUT_MAX, integer=True),
        concurrency=NumberParam(defaults["concurrency"], 1, CONCURRENCY_MAX, integer=True),
        access=ChoiceParam(defaults["access"], ACCESS_NETWORKS),
        connection=ChoiceParam(defaults["connection"], CONNECTIONS),
        engine=ChoiceParam(defaults["engine"], ENGINE_CHOICES),
        use_case=ChoiceParam(defaults["use_case"], tuple(use_case_ids)),
    )


def url_value(key: str, value: Any) -> str:
    """A widget value as it goes into the URL: numbers without trailing zeros."""
    if isinstance(value, float) and math.isfinite(value):
        return str(int(value)) if value == int(value) else f"{value:g}"
    return str(value)


# --------------------------------------------------------------------------------------------
# Verdict against a budget
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Verdict:
    """How a time compares with a budget.

    kind: "within" (even the high end of the range is inside), "over" (even the low end is
    over), "uncertain" (the range straddles the budget). ratio: value / budget. abandon: the
    value reaches the point where users leave (when the use case states one).
    """

    kind: str
    ratio: float
    abandon: bool


def verdict(value_s: float, low_s: float, high_s: float, budget_s: float, abandon_s: float | None = None) -> Verdict:
    if not budget_s > 0:
        raise ValueError(f"budget_s must be > 0, got {budget_s!r}")
    if high_s <= budget_s:
        kind = "within"
    elif low_s > budget_s:
        kind = "over"
    else:
        kind = "uncertain"
    return Verdict(kind, value_s / budget_s, abandon_s is not None and value_s >= abandon_s)


def fmt_number(x: float) -> str:
    """Seconds (or any positive quantity) with two significant digits below 10: 0.035, 0.82, 2.4, 1, 24, 1,240."""
    if not math.isfinite(x):
        return "–"
    ax = abs(x)
    if ax == 0:
        return "0"
    if ax < 0.001:
        return f"{x:.1g}"
    if ax < 10:
        return f"{x:.2g}"
    return f"{x:,.0f}"


def fmt_size_b(b: float) -> str:
    """A model size in billions of parameters, as the number only: 0.5, 8.03, 70.6, 405, 2,000."""
    return f"{b:,.3g}" if b < 1000 else f"{b:,.0f}"


def fmt_ratio(r: float) -> str:
    """A multiple: 1.3, 4, 12, 1,200."""
    return f"{r:.1f}" if r < 10 else f"{r:,.0f}"


# --------------------------------------------------------------------------------------------
# Presets
# --------------------------------------------------------------------------------------------

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


_PRESET_VALUE_KEYS = ("model_size_b", "arch", "precision", "hardware", "distance_stop", "distance_km",
                      "prompt_tokens", "output_tokens", "concurrency", "access", "connection", "engine", "use_case")


def load_presets(catalog: Catalog, stops: Sequence[DistanceStop], use_case_ids: Sequence[str],
                 comparison_ids: Sequence[str], example_ids: Sequence[str], file: Path = PRESETS_FILE) -> tuple[Preset, ...]:
    """Presets from `content/presets.yaml`, each checked against the catalogs and the steps, so a
    click always sets widgets to values they can show."""
    raw = read_yaml(file)
    if not isinstance(raw, dict) or not isinstance(raw.get("presets"), list) or not raw["presets"]:
        raise ContentError(file, "presets", "expected a non-empty list of presets")
    defaults = default_values(stops, use_case_ids)
    specs = url_specs(catalog, defaults, use_case_ids)
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
        if not any(math.isclose(values["model_size_b"], s, rel_tol=1e-9) for s in sizes):
            raise ContentError(file, f"{path}.model_size_b", f"{values['model_size_b']} is not a slider step; use a catalog size or one of {SIZE_GRID_B}")
        if values["distance_km"] not in distance_steps(stops):
            raise ContentError(file, f"{path}.distance_km", "use distance_stop or a grid distance")
        out.append(Preset(p["id"], (kind, ref), _texts(file, f"{path}.label", p.get("label")),
                          _texts(file, f"{path}.note", p.get("note")), values))
    if len({p.id for p in out}) != len(out):
        raise ContentError(file, "presets", "preset ids must be unique")
    return tuple(out)


# --------------------------------------------------------------------------------------------
# Everything the page shows, from the widget values
# --------------------------------------------------------------------------------------------

SIZE_SWEEP_POINTS = 121      # sizes on the size chart, log-spaced from SIZE_MIN_B to SIZE_MAX_B
DISTANCE_SWEEP_POINTS = 81   # distances on the distance chart, 0 to DISTANCE_MAX_KM


def _common_kwargs(hw_kind: str, values: Mapping[str, Any]) -> dict[str, Any]:
    from latency.estimator import DEFAULT_ENGINE

    kw = serving_inputs(values["engine"], DEFAULT_ENGINE[hw_kind], int(values["concurrency"]))
    kw.update(prompt_tokens=int(values["prompt_tokens"]), output_tokens=int(values["output_tokens"]),
              access=values["access"], connection=values["connection"])
    return kw


def bytes_per_param(catalog: Catalog, values: Mapping[str, Any]) -> float:
    return catalog.precisions[values["precision"]].bytes_per_param


def scenario(catalog: Catalog, values: Mapping[str, Any]):
    """(SizedModel, HardwareEntry, Estimate) for one set of widget values."""
    from latency.estimator import estimate

    sized = sized_model(catalog, float(values["model_size_b"]), values["arch"], bytes_per_param(catalog, values))
    entry = catalog.hardware[values["hardware"]]
    est = estimate(sized.model, entry.hardware, distance_km=float(values["distance_km"]),
                   **_common_kwargs(entry.kind, values))
    return sized, entry, est


def size_sweep(catalog: Catalog, values: Mapping[str, Any], n: int = SIZE_SWEEP_POINTS) -> dict[str, Any]:
    """TTFT, total and fits over model sizes on the chosen hardware and distance (one vectorised call)."""
    import numpy as np

    from latency.estimator import estimate_sweep

    sizes = np.geomspace(SIZE_MIN_B, SIZE_MAX_B, n)
    model = sweep_model(catalog, float(values["model_size_b"]), values["arch"], bytes_per_param(catalog, values))
    entry = catalog.hardware[values["hardware"]]
    out = estimate_sweep(model, entry.hardware, params_b=sizes, distance_km=float(values["distance_km"]),
                         **_common_kwargs(entry.kind, values))
    return dict(sizes=sizes, ttft=out["ttft_s"], total=out["total_s"], fits=out["fits"] > 0.5)


def distance_sweep(catalog: Catalog, values: Mapping[str, Any], sized: SizedModel, n: int = DISTANCE_SWEEP_POINTS) -> dict[str, Any]:
    """TTFT and its network stage over distances 0 to 20,000 km for the current model and hardware."""
    import numpy as np

    from latency.estimator import estimate_sweep

    d = np.linspace(0.0, DISTANCE_MAX_KM, n)
    entry = catalog.hardware[values["hardware"]]
    out = estimate_sweep(sized.model, entry.hardware, distance_km=d, **_common_kwargs(entry.kind, values))
    return dict(distances=d, ttft=out["ttft_s"], network=out["network"])


def device_sweep(catalog: Catalog, values: Mapping[str, Any], sized: SizedModel):
    """[(HardwareEntry, Estimate)] for the current model on every catalog device."""
    from latency.estimator import estimate

    out = []
    for entry in catalog.hardware.values():
        est = estimate(sized.model, entry.hardware, distance_km=float(values["distance_km"]),
                       **_common_kwargs(entry.kind, values))
        out.append((entry, est))
    return out


def ordered_hardware(catalog: Catalog) -> list[str]:
    """Hardware ids grouped by kind (the estimator's KINDS order), catalog order within a kind."""
    from latency.estimator import KINDS

    return sorted(catalog.hardware, key=lambda h: (KINDS.index(catalog.hardware[h].kind), list(catalog.hardware).index(h)))
