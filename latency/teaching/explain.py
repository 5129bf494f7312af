"""What the "How the estimate works" page shows, computed from the code and its data (pure Python).

Nothing here is typed in by hand: every constant is read from the module that uses it
(`latency.estimation.network`, `latency.estimation.estimator`, `latency.estimation.calibrate`), every fitted value from
`latency/estimation/fitted_params.json`, every calibration error from `latency/estimation/calibration_report.json`
(written by `python -m latency.calibrate`, so the page works without ../shared/calibration/), and
every claim check from `estimate()` on catalog models and hardware. The page only adds words from
`content/ui/how.yaml`.

* `stage_constants(params)`: the constants of each stage with their value, unit and origin
  (cited / fitted / prior / assumption); the page looks up their names and sources by id.
* `formulas(params)`: the stage formulas as LaTeX, with the constants the code uses filled in.
* `load_report()`, `median_errors(report)`, `worst_loo(report)`: the calibration error table.
* `check_classes(classes, catalog)`: does the glossary's comparison table hold? For each class,
  representative catalog set-ups (`SCENARIOS`), their TTFT and whole-answer time, and a computed
  verdict (`verdict()`): "holds", "first_token" (holds only for the first token) or "no".
* `breakdown_figure`, `claims_figure`: two small plotly figures in the shared style.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from latency.estimation import calibrate, engines, estimator, network
from latency.charts.style import BUDGET_FILL, STAGE_COLORS, base_layout
from latency.charts import style as chart_style
from latency.language.errors import ContentError

REPORT_PATH = calibrate.REPORT_PATH
STAGES = estimator.STAGES
# The medians the calibration reports, in its own group names, and the limits (issue 3).
ERROR_GROUPS = ("decode", "prefill/TTFT", "RTT")
ERROR_TARGETS_PCT = {"decode": 20.0, "prefill/TTFT": 40.0, "RTT": 20.0}


def fmt(x: float, digits: int = 3) -> str:
    """A value with `digits` significant digits, thousands separated: 0.0273, 1.12, 59.4, 1,040."""
    if not math.isfinite(x):
        return "–"
    if x == 0:
        return "0"
    if abs(x) >= 10 ** digits:
        return f"{x:,.0f}"
    text = f"{x:.{digits}g}"
    if "e" in text:
        return f"{x:.{digits}f}".rstrip("0").rstrip(".")
    return text


def fmt_s(x: float) -> str:
    """Seconds for sentences and tables: two significant digits below 10 s, whole seconds above."""
    if not math.isfinite(x):
        return "–"
    if x < 0.01:
        return f"{x:.1g}"
    return f"{x:.2g}" if x < 10 else f"{x:,.0f}"


# --------------------------------------------------------------------------------------------
# Constants by stage
# --------------------------------------------------------------------------------------------

ORIGINS = ("cited", "fitted", "prior", "assumption")


@dataclass(frozen=True)
class Constant:
    """One number the estimator uses. id: key of its name (const_<id>) and source (src_<id>) in
    content/ui/how.yaml. unit: key of its unit template (unit_<unit>). origin: one of ORIGINS."""

    id: str
    value: float
    unit: str
    origin: str


def stage_constants(params: Mapping[str, Any] | None = None) -> dict[str, list[Constant]]:
    """The constants of each stage, read from the code and from fitted_params.json."""
    p = params or estimator.load_params()
    net = p["network"]
    acc = network.ACCESS_RTT_MS
    llama, opt = p["engines"]["llama.cpp"], p["engines"]["optimized"]
    dc = estimator.KIND_DEFAULTS["datacenter_gpu"]
    flops_per_param = estimator.prefill_flops(1.0, 1.0, 1.0, 1.0, 0.0, 0.0) / 1e9  # 2 x N x tokens
    gpu = llama["kinds"].get("desktop_gpu", {})  # the discrete-GPU curve (shared with datacenter_gpu)
    compute_cap = ([Constant("compute_cap_llama", gpu["compute_cap_tflops"], "tflops", "fitted")]
                   if "compute_cap_tflops" in gpu else [])
    bw_cap = ([Constant("bw_cap_llama", gpu["bw_cap_gbs"], "gbs", "fitted"),
               Constant("saturation_sharpness", estimator.SATURATION_SHARPNESS, "plain", "assumption")]
              if "bw_cap_gbs" in gpu else [])
    return {
        "network": [
            Constant("fibre_speed", network.FIBRE_KM_PER_MS, "km_per_ms", "cited"),
            Constant("fixed_ms", net["fixed_ms"], "ms", "fitted"),
            Constant("route_inflation", net["route_inflation"], "x", "fitted"),
            Constant("access_fibre", acc["fibre"], "ms", "cited"),
            Constant("access_cable", acc["cable"], "ms", "cited"),
            Constant("access_dsl", acc["dsl"], "ms", "cited"),
            Constant("access_wifi", acc["wifi"], "ms", "cited"),
            Constant("access_lte", acc["lte"], "ms", "cited"),
            Constant("access_5g", acc["5g"], "ms", "assumption"),
            Constant("setup_cold", network.SETUP_ROUND_TRIPS["cold"], "round_trips", "cited"),
        ],
        "queue": [  # a burst through a serving engine's API waits for its front end (estimator.front_end_wait_s)
            Constant("front_end_token", engines.ENGINE_PROFILES["vllm"].front_end_s_per_token * 1e6, "us", "cited"),
        ],
        "prefill": [
            Constant("flops_per_param", flops_per_param, "flops", "cited"),
            Constant("params_per_layer", estimator.PARAMS_PER_LAYER_D2, "plain", "cited"),
            Constant("aspect_ratio", estimator.ASPECT_RATIO, "plain", "cited"),
            Constant("lowp_speedup", dc["lowp_speedup"], "x", "cited"),
            Constant("fp8_achieved", dc["lowp_speedup"] * estimator.LOWP_ACHIEVED_SHARE, "x", "cited"),
            Constant("quant_compute_eff", llama["quant_compute_eff"], "pct", "fitted"),
            Constant("pass_overhead_llama", llama["pass_overhead_s"] * 1e3, "ms", "fitted"),
            Constant("pass_overhead_optimized", opt["pass_overhead_s"] * 1e3, "ms", "fitted"),
            Constant("request_overhead_vllm", opt.get("request_overhead_s", 0.0) * 1e3, "ms", "fitted"),
            Constant("request_overhead_trtllm", engines.ENGINE_PROFILES["tensorrt-llm"].request_overhead_s * 1e3, "ms",
                     "assumption"),
            *compute_cap,
        ],
        "decode": [
            Constant("quant_bw_eff", llama["quant_bw_eff"], "pct", "fitted"),
            *bw_cap,
            Constant("optimized_bw_frac", opt["kinds"]["datacenter_gpu"]["bw_frac"], "pct",
                     "prior" if opt["kinds"]["datacenter_gpu"]["bw_frac"] == calibrate.OPTIMIZED_BW_FRAC else "fitted"),
            Constant("kv_read_eff", llama["kv_read_eff"], "pct", "fitted"),
            *([Constant("kv_cap_optimized", opt["kv_cap_gbs"], "gbs", "prior")] if "kv_cap_gbs" in opt else []),
            Constant("default_kv_dim", estimator.DEFAULT_KV_DIM, "plain", "cited"),
            Constant("kv_bytes", estimator.Model("x", 1.0).kv_bytes, "bytes", "cited"),
            Constant("memory_fraction_vllm", engines.ENGINE_PROFILES["vllm"].memory_fraction, "pct", "cited"),
            Constant("memory_fraction_trtllm", engines.ENGINE_PROFILES["tensorrt-llm"].memory_fraction, "pct", "cited"),
            Constant("memory_fraction_sglang", engines.ENGINE_PROFILES["sglang"].memory_fraction, "pct", "cited"),
            Constant("runtime_memory", engines.RUNTIME_GIB, "gib", "cited"),
            Constant("weight_only_int4", engines.WEIGHT_ONLY_INT4_BW_EFF, "pct", "assumption"),
            Constant("weight_only_int8", engines.WEIGHT_ONLY_INT8_BW_EFF, "pct", "assumption"),
            Constant("node_size", estimator.NODE_SIZE, "plain", "cited"),
            Constant("internode_gbs", estimator.INTERNODE_GBS, "gbs", "cited"),
            Constant("internode_latency", estimator.INTERNODE_LATENCY_S * 1e6, "us", "assumption"),
        ],
    }


@dataclass(frozen=True)
class Fraction:
    """Achieved share of peak bandwidth and compute for one (engine, hardware kind)."""

    engine: str
    kind: str  # a hardware kind, or "default" (kinds without data: geometric mean of the fitted ones)
    bw_frac: float
    compute_frac: float
    bw_fitted: bool  # False where the value is a prior (optimized engines: no decode rows)
    calibrated: bool


def fitted_fractions(params: Mapping[str, Any] | None = None) -> list[Fraction]:
    p = params or estimator.load_params()
    out = []
    for engine, e in p["engines"].items():
        for kind, v in e["kinds"].items():
            out.append(Fraction(engine=engine, kind=kind, bw_frac=v["bw_frac"], compute_frac=v["compute_frac"],
                                bw_fitted=not (engine == "optimized" and v["bw_frac"] == calibrate.OPTIMIZED_BW_FRAC),
                                calibrated=kind != "default" and estimator.engine_params(p, engine, kind)["calibrated"]))
    return out


def network_example(distance_km: float, params: Mapping[str, Any] | None = None, access: str = "wired") -> dict[str, float]:
    """The network stage (seconds) at `distance_km` on a warm and a cold connection, and at 0 km."""
    p = (params or estimator.load_params())["network"]
    acc = network.access_rtt_s(access)

    def stage(d: float, connection: str) -> float:
        return float(network.network_s(d, acc, network.SETUP_ROUND_TRIPS[connection], p["fixed_ms"],
                                       p["route_inflation"], 1.0 if d > 0 else 0.0))

    return {"warm": stage(distance_km, "warm"), "cold": stage(distance_km, "cold"), "zero": stage(0.0, "warm")}


def queue_multipliers(utilizations: Sequence[float] = (0.5, 0.8, 0.9)) -> list[tuple[float, float]]:
    """(utilisation, mean wait in units of the request's own service time), from estimator.queue_s."""
    return [(u, float(estimator.queue_s(1.0, u, 1.0, 1.0))) for u in utilizations]


# --------------------------------------------------------------------------------------------
# Formulas (LaTeX; symbols only, the legends are in content/ui/how.yaml)
# --------------------------------------------------------------------------------------------

def _combine(a: str, b: str, combine: str) -> str:
    return f"{a} + {b}" if combine == "sum" else rf"\max\!\left({a},\ {b}\right)"


def formulas(params: Mapping[str, Any] | None = None) -> dict[str, list[str]]:
    """LaTeX per section ("total" and each stage), one short equation per line so a phone shows it
    whole. The compute/memory combination ("sum" or "max") comes from the fitted parameters and
    the numeric constants from the code."""
    p = params or estimator.load_params()
    comb = p.get("combine", "max")
    c_fibre = fmt(network.FIBRE_KM_PER_MS)
    bound = _combine("T_c", "T_m", comb)
    k = fmt(estimator.SATURATION_SHARPNESS)
    return {
        "total": [
            r"T_{\mathrm{total}} = T_{\mathrm{net}} + T_{\mathrm{queue}} + T_{\mathrm{prefill}} + T_{\mathrm{decode}}",
            r"\mathrm{TTFT} = T_{\mathrm{net}} + T_{\mathrm{queue}} + T_{\mathrm{prefill}}",
            r"T_{\mathrm{decode}} = (n_{\mathrm{out}} - 1)\, t_{\mathrm{token}}",
        ],
        "network": [
            r"T_{\mathrm{net}} = (k + 1)\,\left(\mathrm{RTT}_{\mathrm{access}} + \mathrm{RTT}_{\mathrm{backbone}}\right)",
            rf"\mathrm{{RTT}}_{{\mathrm{{backbone}}}} = f + \dfrac{{2\,d\,\alpha}}{{{c_fibre}\ \mathrm{{km/ms}}}}",
        ],
        "queue": [
            r"T_{\mathrm{queue}} = \dfrac{\rho}{1 - \rho}\,S \;+\; \max(N - B,\ 0)\,\dfrac{S}{B}",
        ],
        "prefill": [
            rf"T_{{\mathrm{{prefill}}}} = t_0 + {bound} + t_{{\mathrm{{pass}}}} + T_{{\mathrm{{comm}}}}",
            r"F = \ell\,B\,\left(2\,N_a\,P + 2\,n_L\,P^2\,d_a\right)",
            r"T_c = \dfrac{F}{n\,\Pi\,s\,\eta_c}",
            r"T_m = \dfrac{\ell\,W}{n\,\beta\,\eta_b}",
            rf"\eta_c = \eta_{{c0}}\,\left(1 + \left(\eta_{{c0}}\,\Pi / \Pi_{{\mathrm{{sat}}}}\right)^{{{k}}}\right)^{{-1/{k}}}",
        ],
        "decode": [
            rf"t_{{\mathrm{{token}}}} = {bound} + t_{{\mathrm{{pass}}}} + T_{{\mathrm{{comm}}}}",
            r"F_{\mathrm{tok}} = \ell\,B\,\left(2\,N_a + 4\,n_L\,\bar c\,d_a\right)",
            r"\bar c = P + \dfrac{n_{\mathrm{out}} - 1}{2}",
            r"T_c = \dfrac{F_{\mathrm{tok}}}{n\,\Pi\,s\,\eta_c}",
            r"T_m = \dfrac{\ell\,W + K(\bar c)}{n\,\beta\,\eta_b}",
            rf"\eta_b = \eta_{{b0}}\,\left(1 + \left(\eta_{{b0}}\,\beta / \beta_{{\mathrm{{sat}}}}\right)^{{{k}}}\right)^{{-1/{k}}}",
            r"K(c) = 2\,n_L\,d_{kv}\,b_{kv}\,c\,B",
            r"M = W + n\,O_{\mathrm{eng}} + K_{\mathrm{all}}",
        ],
    }


# --------------------------------------------------------------------------------------------
# Calibration report
# --------------------------------------------------------------------------------------------

_ROW_FIELDS = {"target": str, "device": str, "model": str, "precision": str, "engine": str, "kind": str,
               "tokens": (int, float), "measured": (int, float), "predicted": (int, float),
               "predicted_loo": (int, float)}
_ROUTE_FIELDS = {"from": str, "to": str, "distance_km": (int, float), "measured_ms": (int, float),
                 "predicted_ms": (int, float), "predicted_loo_ms": (int, float)}
TARGETS = ("decode", "prefill", "ttft")


def _check_items(file: Path, data: dict, key: str, spec: dict) -> None:
    items = data.get(key)
    if not isinstance(items, list) or not items:
        raise ContentError(file, key, "expected a non-empty list")
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise ContentError(file, f"{key}[{i}]", "expected a mapping")
        for name, kind in spec.items():
            v = item.get(name)
            if isinstance(v, bool) or not isinstance(v, kind):
                raise ContentError(file, f"{key}[{i}].{name}", f"expected {getattr(kind, '__name__', 'a number')}, found {v!r}")
            if kind is not str and not (math.isfinite(v) and v > 0):
                raise ContentError(file, f"{key}[{i}].{name}", f"expected a positive number, found {v!r}")
        if key == "compute_rows" and item["target"] not in TARGETS:
            raise ContentError(file, f"{key}[{i}].target", f"expected one of {', '.join(TARGETS)}, found {item['target']!r}")


@lru_cache(maxsize=4)
def _load_report(path: str, mtime_ns: int) -> dict:
    file = Path(path)
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ContentError(file, "", "file is missing; run python -m latency.calibrate") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ContentError(file, "", f"not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ContentError(file, "", "expected a JSON object")
    _check_items(file, data, "compute_rows", _ROW_FIELDS)
    _check_items(file, data, "rtt_routes", _ROUTE_FIELDS)
    for key in ("rtt_same_metro", "excluded"):
        if not isinstance(data.get(key, []), list):
            raise ContentError(file, key, "expected a list")
    return data


def load_report(path: Path | None = None) -> dict:
    """latency/estimation/calibration_report.json, validated; a missing or broken file raises ContentError."""
    file = Path(path or REPORT_PATH)
    mtime = file.stat().st_mtime_ns if file.exists() else 0
    return _load_report(str(file), mtime)


def error_pct(predicted: float, measured: float) -> float:
    """Signed error of a prediction, percent of the measured value (as the calibration prints it)."""
    return 100.0 * (predicted - measured) / measured


def median_errors(report: Mapping[str, Any]) -> dict[str, dict[str, float]]:
    """Median |error| per group, in-sample and leave-one-device-out (leave-one-route-out for RTT),
    recomputed from the report's rows."""
    out: dict[str, dict[str, float]] = {"in_sample": {}, "leave_one_device_out": {}}
    rows = report["compute_rows"]
    groups = {"decode": ("decode",), "prefill/TTFT": ("prefill", "ttft")}
    for group, targets in groups.items():
        sel = [r for r in rows if r["target"] in targets]
        out["in_sample"][group] = float(np.median([abs(error_pct(r["predicted"], r["measured"])) for r in sel]))
        out["leave_one_device_out"][group] = float(np.median([abs(error_pct(r["predicted_loo"], r["measured"])) for r in sel]))
    routes = report["rtt_routes"]
    out["in_sample"]["RTT"] = float(np.median([abs(error_pct(r["predicted_ms"], r["measured_ms"])) for r in routes]))
    out["leave_one_device_out"]["RTT"] = float(np.median([abs(error_pct(r["predicted_loo_ms"], r["measured_ms"])) for r in routes]))
    return out


def worst_loo(report: Mapping[str, Any]) -> dict:
    """The compute row with the largest leave-one-device-out |error| (where to distrust the model)."""
    return max(report["compute_rows"], key=lambda r: abs(error_pct(r["predicted_loo"], r["measured"])))


def devices_in(report: Mapping[str, Any]) -> list[str]:
    return sorted({r["device"] for r in report["compute_rows"]})


# --------------------------------------------------------------------------------------------
# Does the glossary's comparison table hold?
# --------------------------------------------------------------------------------------------

PROMPT_TOKENS = 512
OUTPUT_TOKENS = 256
CLOUD_KM = 1000.0
"""Cloud set-ups: the server 1,000 km away over fibre on a reused connection (the estimator's
defaults for access and connection); local set-ups run on the device itself, no network."""
MAJORITY = 0.5
"""A class's stated range holds for a measure when at least this share of its set-ups land in it."""

VERDICTS = ("holds", "first_token", "no")


@dataclass(frozen=True)
class Scenario:
    """A representative set-up for one class of the table: catalog ids and where it runs."""

    class_id: str
    model: str  # content/models.yaml id
    precision: str  # content/precisions.yaml id
    hardware: str  # content/hardware.yaml id
    local: bool  # True: on the device (no network); False: cloud, CLOUD_KM away


# The classes' own examples and sizes (the table names GPT-4/5, Phi-4-reasoning-vision and
# IQuest-Coder-Loop), on the hardware its "hardware needs" row names: high-end servers for the
# large class, ordinary GPUs / local machines (down to a laptop and a phone) for the lightweight one,
# mid-range to high-end for the loop model. The same set-ups as docs/estimator.md; they are NOT
# chosen to land inside the stated ranges.
SCENARIOS: tuple[Scenario, ...] = (
    Scenario("large", "gpt-4-class", "fp8", "h100-sxm", False),
    Scenario("large", "llama-3.1-70b", "fp16", "h100-sxm", False),
    Scenario("large", "llama-3.1-405b", "fp8", "h100-sxm", False),
    Scenario("large", "llama-3.1-70b", "q4_k_m", "apple-m2-ultra", True),
    Scenario("lightweight", "llama-3.1-8b", "fp16", "h100-sxm", False),
    Scenario("lightweight", "phi-4-reasoning-vision-15b", "fp16", "h100-sxm", False),
    Scenario("lightweight", "phi-4-reasoning-vision-15b", "q4_k_m", "rtx-4090", True),
    Scenario("lightweight", "phi-4-reasoning-vision-15b", "q4_k_m", "apple-m4-max", True),
    Scenario("lightweight", "llama-3.1-8b", "q4_k_m", "laptop-rtx-4060", True),
    Scenario("lightweight", "llama-3.1-8b", "q4_k_m", "apple-a17-pro", True),
    Scenario("loop", "iquest-coder-v1-40b-loop", "fp16", "h100-sxm", False),
    Scenario("loop", "iquest-coder-v1-40b-loop", "fp8", "h100-sxm", False),
    Scenario("loop", "iquest-coder-v1-40b-loop", "q4_k_m", "rtx-4090", True),
    Scenario("loop", "iquest-coder-v1-40b-loop", "q4_k_m", "apple-m2-ultra", True),
)

# The "typical request" the page's breakdown chart shows: a lightweight open model on one
# datacenter GPU in the cloud.
TYPICAL = Scenario("typical", "llama-3.1-8b", "fp16", "h100-sxm", False)


@dataclass(frozen=True)
class ScenarioResult:
    scenario: Scenario
    ttft_s: float
    ttft_range: tuple[float, float]
    total_s: float
    total_range: tuple[float, float]
    tpot_s: float
    decode_tokens_per_s: float
    devices: int
    fits: bool
    calibrated: bool
    ttft_in: bool  # the TTFT lies inside the class's stated range
    total_in: bool  # the whole-answer time lies inside it
    tokens_within_max: int | None  # answer length (tokens) that still ends within the stated maximum


@dataclass(frozen=True)
class ClassCheck:
    class_id: str
    stated: tuple[float, float]  # seconds, the entry's numeric reading of its wording
    results: tuple[ScenarioResult, ...]
    verdict: str  # one of VERDICTS

    @property
    def n(self) -> int:
        return len(self.results)

    @property
    def ttft_in(self) -> int:
        return sum(r.ttft_in for r in self.results)

    @property
    def total_in(self) -> int:
        return sum(r.total_in for r in self.results)

    def span(self, measure: str) -> tuple[float, float]:
        values = [getattr(r, f"{measure}_s") for r in self.results]
        return min(values), max(values)


def inside(value: float, stated: tuple[float, float]) -> bool:
    lo, hi = stated
    return lo <= value <= hi


def verdict(stated: tuple[float, float], ttfts: Sequence[float], totals: Sequence[float],
            majority: float = MAJORITY) -> str:
    """"holds" when at least `majority` of the whole-answer times lie in the stated range;
    otherwise "first_token" when at least `majority` of the first-token times do; else "no"."""
    if not ttfts or len(ttfts) != len(totals):
        raise ValueError("verdict needs one TTFT and one total per set-up (and at least one set-up)")
    share = lambda values: sum(inside(v, stated) for v in values) / len(values)  # noqa: E731
    if share(totals) >= majority:
        return "holds"
    if share(ttfts) >= majority:
        return "first_token"
    return "no"


def scenario_model(s: Scenario, catalog):
    return catalog.models[s.model].model_at(catalog.precisions[s.precision])


def scenario_kwargs(s: Scenario) -> dict[str, Any]:
    if s.local:
        return dict(distance_km=0.0, access="none")
    return dict(distance_km=CLOUD_KM, access="wired", connection="warm")


def run_scenario(s: Scenario, catalog, stated: tuple[float, float] = (0.0, math.inf),
                 estimate_fn: Callable[..., estimator.Estimate] | None = None,
                 params: Mapping[str, Any] | None = None) -> tuple[ScenarioResult, estimator.Estimate]:
    fn = estimate_fn or estimator.estimate
    e = fn(scenario_model(s, catalog), catalog.hardware[s.hardware].hardware, prompt_tokens=PROMPT_TOKENS,
           output_tokens=OUTPUT_TOKENS, params=params, **scenario_kwargs(s))
    hi = stated[1]
    # the first token ends at ttft, token n at ttft + (n - 1) x tpot (1e-9: float division noise)
    within = None if not math.isfinite(hi) else (0 if e.ttft_s > hi else 1 + math.floor((hi - e.ttft_s) / e.tpot_s + 1e-9))
    result = ScenarioResult(
        scenario=s, ttft_s=e.ttft_s, ttft_range=tuple(e.ranges["ttft_s"]), total_s=e.total_s,
        total_range=tuple(e.ranges["total_s"]), tpot_s=e.tpot_s, decode_tokens_per_s=e.decode_tokens_per_s,
        devices=e.devices_needed, fits=e.fits, calibrated=e.calibrated, ttft_in=inside(e.ttft_s, stated),
        total_in=inside(e.total_s, stated), tokens_within_max=within)
    return result, e


def check_classes(classes: Sequence[Any], catalog, scenarios: Sequence[Scenario] = SCENARIOS,
                  estimate_fn: Callable[..., estimator.Estimate] | None = None,
                  params: Mapping[str, Any] | None = None) -> list[ClassCheck]:
    """One ClassCheck per class (objects with .id and .latency_s.min/.max, e.g.
    latency.teaching.content.comparison_classes(lang)), in the classes' order. A class without set-ups
    is a programming error (ValueError)."""
    out = []
    for c in classes:
        stated = (float(c.latency_s.min), float(c.latency_s.max))
        mine = [s for s in scenarios if s.class_id == c.id]
        if not mine:
            raise ValueError(f"no representative set-up for comparison class {c.id!r}")
        results = tuple(run_scenario(s, catalog, stated, estimate_fn, params)[0] for s in mine)
        out.append(ClassCheck(class_id=c.id, stated=stated, results=results,
                              verdict=verdict(stated, [r.ttft_s for r in results], [r.total_s for r in results])))
    return out


# --------------------------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------------------------

"""plotly config: no mode bar (its tooltips are English only), charts follow the column width."""


LABEL_MIN_SHARE = 0.12
"""A stacked segment gets its value written inside only when it is at least this share of its bar."""


def breakdown_figure(breakdown: Mapping[str, float], stage_labels: Mapping[str, str], row_first: str,
                     row_total: str, value_label: Callable[[float], str], axis_suffix: str = " s") -> go.Figure:
    """Two stacked bars of one request: until the first token (network, queue, prefill) and the
    whole answer (all four stages), each on its own time axis so the short stages stay visible.
    Stages that take no time are left out; every value is in the hover text."""
    fig = make_subplots(rows=2, cols=1, vertical_spacing=0.4, subplot_titles=(row_first, row_total))
    rows = {1: ("network", "queue", "prefill"), 2: STAGES}
    for row, stages in rows.items():
        row_total_s = sum(float(breakdown[k]) for k in stages)
        for stage in stages:
            v = float(breakdown[stage])
            if v <= 0:
                continue
            fig.add_trace(go.Bar(
                x=[v], y=[""], orientation="h", name=stage_labels[stage], legendgroup=stage,
                showlegend=row == 1 or stage == "decode", marker_color=STAGE_COLORS[stage],
                text=[value_label(v) if v >= LABEL_MIN_SHARE * row_total_s else ""], textposition="inside",
                insidetextanchor="middle", textangle=0,
                hovertemplate=f"{stage_labels[stage]}: {value_label(v)}<extra></extra>"), row=row, col=1)
    fig.update_layout(barmode="stack", bargap=0.25)
    fig.update_xaxes(ticksuffix=axis_suffix, rangemode="tozero")
    fig.update_yaxes(showticklabels=False)
    base_layout(fig, height=280)  # room between the rows: the top row's tick labels clear the lower title on a phone
    fig.update_layout(margin=dict(l=10, r=10, t=60, b=10), legend=dict(y=1.25))
    return fig


def claims_figure(checks: Sequence[ClassCheck], class_names: Mapping[str, str], labels: Mapping[str, str],
                  hover: Mapping[tuple[str, int], str], value_label: Callable[[float], str],
                  axis_suffix: str = " s") -> go.Figure:
    """Per class (one row each): the stated range as a band, each set-up's TTFT and whole-answer time
    as points, on a log time axis. labels: "ttft", "total", "stated" legend names; hover:
    (class id, set-up index) -> set-up description."""
    fig = go.Figure()
    values = [v for c in checks for r in c.results for v in (r.ttft_s, r.total_s)]
    x_lo = 10 ** math.floor(math.log10(max(min(values), 1e-3)))
    x_hi = 10 ** math.ceil(math.log10(max(max(values), max(c.stated[1] for c in checks))))
    n = len(checks)
    for i, c in enumerate(checks):
        y = n - 1 - i  # first class on top
        lo, hi = max(c.stated[0], x_lo), min(c.stated[1], x_hi)
        fig.add_shape(type="rect", x0=lo, x1=hi, y0=y - 0.4, y1=y + 0.4, xref="x", yref="y",
                      fillcolor=BUDGET_FILL, line=dict(color=STAGE_COLORS["decode"], width=1, dash="dot"), layer="below")
    for key, offset, color, symbol in (("ttft", 0.14, STAGE_COLORS["prefill"], "circle"),
                                       ("total", -0.14, STAGE_COLORS["decode"], "diamond")):
        xs, ys, texts = [], [], []
        for i, c in enumerate(checks):
            for j, r in enumerate(c.results):
                xs.append(getattr(r, f"{key}_s"))
                ys.append(n - 1 - i + offset)
                texts.append(f"{hover[(c.class_id, j)]}<br>{labels[key]}: {value_label(getattr(r, f'{key}_s'))}")
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="markers", name=labels[key], text=texts,
                                 hovertemplate="%{text}<extra></extra>",
                                 marker=dict(color=color, symbol=symbol, size=10, line=dict(color="white", width=1))))
    # a legend entry for the band
    fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=labels["stated"],
                             marker=dict(symbol="square", size=12, color=BUDGET_FILL,
                                         line=dict(color=STAGE_COLORS["decode"], width=1))))
    # dtick=1: a label per decade only; plotly's in-between digits ("2", "3", ... at 9 px) were too small to read
    fig.update_xaxes(type="log", range=[math.log10(x_lo), math.log10(x_hi)], ticksuffix=axis_suffix, showgrid=True, dtick=1)
    fig.update_yaxes(tickvals=list(range(n)), ticktext=[class_names[c.class_id] for c in reversed(checks)],
                     range=[-0.6, n - 0.4], showgrid=False, zeroline=False)
    base_layout(fig, height=110 + 70 * n)
    return fig


__all__ = [
    "Constant", "Fraction", "Scenario", "ScenarioResult", "ClassCheck", "SCENARIOS", "TYPICAL", "VERDICTS",
    "PROMPT_TOKENS", "OUTPUT_TOKENS", "CLOUD_KM", "MAJORITY", "ORIGINS", "ERROR_GROUPS", "ERROR_TARGETS_PCT",
    "stage_constants", "fitted_fractions", "network_example", "queue_multipliers", "formulas", "load_report", "median_errors",
    "worst_loo", "devices_in", "error_pct", "verdict", "inside", "run_scenario", "check_classes",
    "breakdown_figure", "claims_figure", "fmt", "fmt_s",
]
