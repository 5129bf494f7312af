"""The scenario: the one set of inputs that describes a request (model, hardware, distance, load,
budget), shared by every page. Pure Python, never imports streamlit.

- `KEYS` / `defaults()` / `specs()`: the one key set (URL key = widget key), one default for every
  page, and how each URL value is validated (`parse_query` -> values + `Notice`s naming the bad ones).
- `to_query` / `url_value`: the URL form of a scenario.
- `evaluate(catalog, values)`: the scenario's model, hardware and `latency.estimate`.
- `size_sweep`, `distance_sweep`, `device_sweep`: the same scenario with one input swept.
The Streamlit side (widgets, session memory, URL mirror) is `ui/state.py`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from latency.estimation.catalog import DEVICE_CLASSES, Catalog
from latency.estimation.estimator import (
    ACCESS_NETWORKS, ARCHITECTURES, ARRIVALS, CONNECTIONS, DEFAULT_ENGINE, ENGINES, KINDS, estimate,
    estimate_sweep,
)
from latency.estimation.places import DEFAULT_STOP, DISTANCE_MAX_KM, DistanceStop, load_places
from latency.estimation.sizing import SIZE_MAX_B, SIZE_MIN_B, SizedModel, sized_model, sweep_model

ENGINE_AUTO = "auto"
ENGINE_CHOICES = (ENGINE_AUTO,) + ENGINES
DEVICES_AUTO = "auto"
DEVICES_MAX = 64         # the estimator's largest deployment (datacenter_gpu max_devices: 8 nodes of 8)
DEVICE_COUNTS = (1, 2, 4, 8, 16, 32, 64)  # the GPU-count drop-downs' whole numbers (powers of two, as servers come)


def device_options(current: Any = DEVICES_AUTO) -> tuple[Any, ...]:
    """The GPU-count drop-down's options: auto, the usual counts, and the current count when a link set
    another whole number (3 GPUs), so the box can show it."""
    counts = set(DEVICE_COUNTS) | ({int(current)} if current != DEVICES_AUTO and current is not None else set())
    return (DEVICES_AUTO,) + tuple(sorted(counts))
CONCURRENCY_MAX = 1000
PROMPT_MAX = 131072      # 128k-token context (Llama 3.1 configs: max_position_embeddings 131072)
DOCUMENT_MAX = 131072    # a pasted document, read with the question: the same 128k context window
OUTPUT_MAX = 32768
CONTEXT_MAX = 131072     # earlier turns already in the KV cache, same 128k context window
BUDGET_MIN_S, BUDGET_MAX_S = 0.05, 600.0
MEASURES = ("ttft", "total")
DEVICE_SCOPES = ("cloud", "all")

# --- the launch check's own inputs (issue 33; pages/launch.py): one block, kept at the END of KEYS -----------
LAUNCH_KEYS = ("requests_per_day", "monthly_budget_usd", "min_model_b", "users_place", "server_place",
               "prefix_share", "prefix_cache", "spec_tokens", "spec_accept")
"""requests_per_day: answers a day (the monthly cost); monthly_budget_usd: a monthly cost limit (0 = none);
min_model_b: the smallest model the PM accepts (the app does not measure quality); users_place /
server_place: named places (content/places.yaml) whose distance becomes distance_km ("custom": the
distance is set on its own); prefix_share: the share of the prompt read (question + document) that is
the same for every request; prefix_cache "on": that share is served from the KV cache (prefix caching);
spec_tokens: draft tokens proposed per step by speculative decoding (0 = off); spec_accept: the chance
each drafted token is accepted. Only prefix_cache/prefix_share and spec_tokens/spec_accept change the
estimate (`evaluate`); the rest are the launch check's own."""

LAUNCH_ESTIMATE_KEYS = ("prefix_cache", "prefix_share", "spec_tokens", "spec_accept")
"""The launch check's inputs that change the estimate (`evaluate`): a page that does not show them names
them beside its figures when they are not the default (COORDINATION.md decision 3)."""

KEYS = ("model_size_b", "hardware", "devices", "distance_km", "arch", "precision", "prompt_tokens", "document_tokens",
        "output_tokens", "context_tokens", "concurrency", "arrival", "access", "connection", "engine", "use_case", "budget_s", "measure",
        "device_scope") + LAUNCH_KEYS
"""Every scenario input, by its URL key (= its widget key on every page)."""

PLACE_CUSTOM = "custom"          # server_place when the distance is set on its own (a link from another page)
REQUESTS_PER_DAY_MAX = 10**9
MONTHLY_BUDGET_MAX_USD = 10**8
PREFIX_CACHE = ("off", "on")
PREFIX_SHARES = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95)  # below 1: the question itself is new
SPEC_TOKEN_CHOICES = (0, 2, 3, 4, 5, 6, 8)
SPEC_ACCEPTS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95)
OPTION_STEPS = dict(prefix_share=PREFIX_SHARES, spec_tokens=SPEC_TOKEN_CHOICES, spec_accept=SPEC_ACCEPTS)
"""The values the launch check's drop-downs offer for the shared prompt part and speculative decoding, which
the estimator and the trade-off page take unseen: each page's range is theirs (`specs`) and a link's value
between them is snapped to one (`ui.state.restore` steps), so one link gives one set-up on every page (a link's
prefix_share=90 once read 99% on the estimator and 95% on the launch check)."""
LAUNCH_DEFAULTS = dict(requests_per_day=10000, monthly_budget_usd=0.0, min_model_b=SIZE_MIN_B, users_place="seoul",
                       server_place="tokyo", prefix_share=0.0, prefix_cache="off", spec_tokens=0, spec_accept=0.7)
"""The launch check's defaults: 10,000 answers a day (an example figure, stated beside the cost), no cost
limit, no smallest model, users in Seoul and the server in Tokyo (the default distance stop, Seoul->Tokyo),
no shared prompt and no caching, no speculative decoding; its acceptance rate when turned on 0.7, inside the
0.5-0.9 that Leviathan et al. 2023 (Table 3) and Chen et al. 2023 measured for well-matched draft models."""

DEFAULTS = dict(model_size_b=8.03, hardware="h100-sxm", devices=DEVICES_AUTO, distance_km=None, arch="dense",
                precision="fp16", prompt_tokens=512, document_tokens=0, output_tokens=256, context_tokens=0, concurrency=1,
                arrival="steady", access="wired", connection="warm", engine=ENGINE_AUTO, use_case="support_chatbot", budget_s=None,
                measure=None, device_scope="cloud") | LAUNCH_DEFAULTS
"""Default scenario for every page: Llama 3.1 8B in FP16 on an H100 (as many as it needs), served from
Tokyo to one wired user in Seoul (distance_km None = the Seoul->Tokyo stop), 512 prompt and 256
output tokens (the estimator's defaults), no earlier conversation, users in steady use (each sends
again when the answer arrives; "burst": all at once), judged against the support chatbot's budget (budget_s / measure None = the use case's own)."""


def launch_inputs_in_force(values: Mapping[str, Any]) -> dict[str, Any]:
    """The launch check's inputs that change this set-up's estimate (`LAUNCH_ESTIMATE_KEYS`) and are
    switched on: "prefix_cache" -> the share of the prompt read from the KV cache; "spec_tokens" ->
    (draft tokens per step, acceptance rate). A page that does not show these inputs names them
    beside its figures (issue 31 item 1, issue 33 item 4); empty when none is in force."""
    out: dict[str, Any] = {}
    share = float(values.get("prefix_share", 0.0) or 0.0)
    if values.get("prefix_cache", "off") == "on" and share > 0:
        out["prefix_cache"] = share
    k = int(values.get("spec_tokens", 0) or 0)
    if k > 0:
        out["spec_tokens"] = (k, float(values.get("spec_accept", 0.0) or 0.0))
    return out


def implied_by_use_case(from_url: Mapping[str, Any], use_cases: Mapping[str, Any]) -> dict[str, Any]:
    """What a use case given in the URL brings with it: its own target time and the moment it
    applies to, unless the URL sets them itself (`?use_case=code_autocomplete` alone means 0.2 s to
    the first token, as picking it from the list does). `use_cases` maps id -> anything with
    `budget_s` and `measure`."""
    case = use_cases.get(from_url.get("use_case"))
    if case is None or "budget_s" in from_url or "measure" in from_url:
        return {}
    return dict(budget_s=float(case.budget_s), measure=case.measure)


PAGE_DEFAULTS = {"tradeoffs": dict(use_case="code_autocomplete")}
"""Where a page opens on another default than the shared one, and why. The trade-off page opened with
no URL must show a real boundary (issue 31 item 4): against the support chatbot's 1 s to the first token
every set-up of one user that fits meets it (97 cells meet, none miss), so its map, cost chart and export
had nothing to trade; against the 0.2 s code autocompletion (launch question 9) the same default set-up
meets it while larger models and slower devices miss. The saved scenario still carries over between pages."""


def defaults(stops: Sequence[DistanceStop], use_cases: Mapping[str, Any], page: str | None = None) -> dict[str, Any]:
    """The default scenario with the distance of the default stop and the default use case's budget
    (`page`: that page's own defaults, PAGE_DEFAULTS). `use_cases` maps id -> anything with `budget_s` and `measure`."""
    out = dict(DEFAULTS) | PAGE_DEFAULTS.get(page, {})
    out["distance_km"] = next(s.km for s in stops if s.id == DEFAULT_STOP)
    if out["use_case"] not in use_cases:
        out["use_case"] = next(iter(use_cases))
    case = use_cases[out["use_case"]]
    out["budget_s"], out["measure"] = float(case.budget_s), case.measure
    return out


def specs(catalog: Catalog, default: Mapping[str, Any], use_case_ids: Sequence[str],
          place_ids: Sequence[str] | None = None) -> dict[str, "Param"]:
    """How each URL key is validated (`parse_query`)."""
    return dict(
        model_size_b=NumberParam(default["model_size_b"], SIZE_MIN_B, SIZE_MAX_B),
        hardware=ChoiceParam(default["hardware"], tuple(catalog.hardware)),
        devices=DevicesParam(default["devices"], 1, DEVICES_MAX),
        distance_km=NumberParam(default["distance_km"], 0.0, DISTANCE_MAX_KM),
        arch=ChoiceParam(default["arch"], ARCHITECTURES),
        precision=ChoiceParam(default["precision"], tuple(catalog.precisions)),
        prompt_tokens=NumberParam(default["prompt_tokens"], 1, PROMPT_MAX, integer=True),
        document_tokens=NumberParam(default.get("document_tokens", 0), 0, DOCUMENT_MAX, integer=True),
        output_tokens=NumberParam(default["output_tokens"], 1, OUTPUT_MAX, integer=True),
        context_tokens=NumberParam(default["context_tokens"], 0, CONTEXT_MAX, integer=True),
        concurrency=NumberParam(default["concurrency"], 1, CONCURRENCY_MAX, integer=True),
        arrival=ChoiceParam(default.get("arrival", "steady"), ARRIVALS),
        access=ChoiceParam(default["access"], ACCESS_NETWORKS),
        connection=ChoiceParam(default["connection"], CONNECTIONS),
        engine=ChoiceParam(default["engine"], ENGINE_CHOICES),
        use_case=ChoiceParam(default["use_case"], tuple(use_case_ids)),
        budget_s=NumberParam(default["budget_s"], BUDGET_MIN_S, BUDGET_MAX_S),
        measure=ChoiceParam(default["measure"], MEASURES),
        device_scope=ChoiceParam(default["device_scope"], DEVICE_SCOPES),
        **launch_specs(default, place_ids),
    )


def launch_specs(default: Mapping[str, Any], place_ids: Sequence[str] | None = None) -> dict[str, "Param"]:
    """How the launch check's own URL keys (`LAUNCH_KEYS`) are validated; place ids from content/places.yaml."""
    d = {**LAUNCH_DEFAULTS, **{k: v for k, v in default.items() if k in LAUNCH_KEYS}}
    if place_ids is None:
        place_ids = [p.id for p in load_places()]
    places = tuple(place_ids)
    return dict(
        requests_per_day=NumberParam(d["requests_per_day"], 0, REQUESTS_PER_DAY_MAX, integer=True),
        monthly_budget_usd=NumberParam(d["monthly_budget_usd"], 0, MONTHLY_BUDGET_MAX_USD),
        min_model_b=NumberParam(d["min_model_b"], SIZE_MIN_B, SIZE_MAX_B),
        users_place=ChoiceParam(d["users_place"], places),
        server_place=ChoiceParam(d["server_place"], places + (PLACE_CUSTOM,)),
        prefix_share=NumberParam(d["prefix_share"], min(PREFIX_SHARES), max(PREFIX_SHARES)),
        prefix_cache=ChoiceParam(d["prefix_cache"], PREFIX_CACHE),
        spec_tokens=NumberParam(d["spec_tokens"], min(SPEC_TOKEN_CHOICES), max(SPEC_TOKEN_CHOICES), integer=True),
        spec_accept=NumberParam(d["spec_accept"], min(SPEC_ACCEPTS), max(SPEC_ACCEPTS)),
    )


def url_value(value: Any) -> str:
    """A value as it goes into the URL: numbers without trailing zeros."""
    if isinstance(value, float) and math.isfinite(value):
        return str(int(value)) if value == int(value) else f"{value:g}"
    return str(value)


def to_query(values: Mapping[str, Any], keys: Iterable[str] = KEYS) -> dict[str, str]:
    """The URL form of a scenario (only the keys given)."""
    return {key: url_value(values[key]) for key in keys if key in values}


# --------------------------------------------------------------------------------------------
# Parsing URL values
# --------------------------------------------------------------------------------------------

MAX_RAW_CHARS = 40  # longer URL values are cut in notices, so a notice cannot become a wall of text

REASONS = ("out_of_range", "not_a_number", "not_whole", "unknown_choice", "empty", "repeated", "unknown_key", "snapped",
           "typed")
"""Why a URL value (or, for "typed", a number typed into a box) was not taken as it was; each has a
`notice_<reason>` text in content/ui/scenario.yaml."""


@dataclass(frozen=True)
class Notice:
    """One URL value that was not taken as given. `used` is the value in force instead (None for an
    unknown key, which is dropped)."""

    key: str
    raw: str
    reason: str
    used: Any


@dataclass(frozen=True)
class NumberParam:
    default: float
    min_value: float
    max_value: float
    integer: bool = False

    def parse(self, raw: str) -> tuple[Any, str | None]:
        try:
            value = float(raw)
        except ValueError:
            return self.default, "not_a_number"
        if not math.isfinite(value):
            return self.default, "not_a_number"
        if self.integer and value != int(value) and self.min_value <= value <= self.max_value:
            return self.default, "not_whole"
        if not self.min_value <= value <= self.max_value:
            # Clamped to the nearest allowed value and named (issue 31 item 4: 100,000 users fell back to
            # the default 1, where the reader meant "as many as allowed", the 1,000 cap).
            clamped = min(max(value, self.min_value), self.max_value)
            return (int(clamped) if self.integer else float(clamped)), "out_of_range"
        return (int(value) if self.integer else value), None


@dataclass(frozen=True)
class ChoiceParam:
    default: str
    choices: Sequence[str]

    def parse(self, raw: str) -> tuple[Any, str | None]:
        return (raw, None) if raw in self.choices else (self.default, "unknown_choice")


@dataclass(frozen=True)
class DevicesParam:
    """"auto" (the fewest devices that hold the model) or a whole number of devices."""

    default: Any
    min_value: int
    max_value: int

    def parse(self, raw: str) -> tuple[Any, str | None]:
        if raw == DEVICES_AUTO:
            return raw, None
        return NumberParam(self.default, self.min_value, self.max_value, integer=True).parse(raw)


Param = NumberParam | ChoiceParam | DevicesParam


def clamp_typed(key: str, value: float, spec: "NumberParam") -> tuple[float, Notice | None]:
    """A number typed into a box, kept inside the spec's range: the value in force and, when it had
    to change, a notice naming what was typed and what is used instead."""
    if spec.min_value <= value <= spec.max_value:
        return value, None
    used = min(max(value, spec.min_value), spec.max_value)
    used = int(used) if spec.integer else float(used)
    return used, Notice(key=key, raw=clip_raw(url_value(float(value))), reason="typed", used=used)


def clip_raw(raw: str) -> str:
    """A URL value as it may appear in a notice: short, printable (the page escapes it as text)."""
    text = "".join(ch for ch in raw if ch.isprintable())
    return text if len(text) <= MAX_RAW_CHARS else text[: MAX_RAW_CHARS - 1] + "…"


def parse_query(query: Mapping[str, str | Sequence[str]], specs: Mapping[str, Param],
                known: Iterable[str] = ()) -> tuple[dict[str, Any], list[Notice]]:
    """Values for the keys of `specs` that the URL gives, and a notice for each value not taken as given.

    A repeated key takes its last value (notice "repeated"); an empty value, a value that does not
    parse or is out of range take the default (notices); a key that is neither in `specs` nor in
    `known` (keys other parts of the app read, e.g. lang) is dropped (notice "unknown_key").
    Keys missing from the URL are not in the result: the caller keeps what it had.
    """
    values: dict[str, Any] = {}
    notices: list[Notice] = []
    known = set(known)
    for key, raw in query.items():
        raws = [str(r) for r in raw] if isinstance(raw, (list, tuple)) else [str(raw)]
        if key not in specs:
            if key not in known:
                notices.append(Notice(key=clip_raw(key), raw=clip_raw(raws[-1] if raws else ""), reason="unknown_key", used=None))
            continue
        spec = specs[key]
        text = raws[-1].strip() if raws else ""
        if not text:
            values[key] = spec.default
            notices.append(Notice(key=key, raw="", reason="empty", used=spec.default))
            continue
        value, reason = spec.parse(text)
        values[key] = value
        if reason:
            notices.append(Notice(key=key, raw=clip_raw(text), reason=reason, used=value))
        elif len(raws) > 1:
            notices.append(Notice(key=key, raw=clip_raw(" & ".join(raws)), reason="repeated", used=value))
    return values, notices


# --------------------------------------------------------------------------------------------
# From a scenario to estimates
# --------------------------------------------------------------------------------------------

def serving_inputs(engine: str, default_engine: str, concurrency: int, arrival: str = "steady") -> dict[str, Any]:
    """Estimator keyword arguments for `concurrency` simultaneous users (yours included) on ONE server.

    arrival "steady": they use the service steadily (each sends again when the answer arrives);
    "burst": they all send in the same instant (a room pressing enter together).

    The estimator decides who runs together (`latency.estimation.estimator.running_batch`): an optimized
    serving engine (vLLM, TensorRT-LLM) batches requests continuously and llama.cpp's server runs
    parallel slots, as many as the KV cache holds beside the weights; the rest wait for a slot.
    The device count is the one the model needs (or the user's), never raised to fit more users.
    """
    return dict(engine=None if engine == ENGINE_AUTO else engine, batch=1, concurrent_users=concurrency,
                arrival=arrival)


SIZE_SWEEP_POINTS = 121      # sizes on the size chart, log-spaced from SIZE_MIN_B to SIZE_MAX_B
DISTANCE_SWEEP_POINTS = 81   # distances on the distance chart, 0 to DISTANCE_MAX_KM


def estimate_kwargs(hw_kind: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """The estimator's keyword inputs for a scenario on hardware of `hw_kind`, all but the model, the
    hardware and the distance: what `evaluate` and every sweep here pass, so a page that sweeps one
    input with these gives, at the scenario's own value, the scenario's figure (issue 31 item 1)."""
    return _common_kwargs(hw_kind, values)


def _common_kwargs(hw_kind: str, values: Mapping[str, Any]) -> dict[str, Any]:
    kw = serving_inputs(values["engine"], DEFAULT_ENGINE[hw_kind], int(values["concurrency"]),
                        values.get("arrival", "steady"))
    kw.update(prompt_tokens=prompt_read_tokens(values), output_tokens=int(values["output_tokens"]),
              access=values["access"], connection=values["connection"], devices=fixed_devices(values),
              context_tokens=int(values.get("context_tokens", 0)) + cached_prompt_tokens(values))
    if int(values.get("spec_tokens", 0) or 0) > 0:  # speculative decoding on (estimator: Leviathan et al. 2023)
        kw.update(spec_tokens=int(values["spec_tokens"]), spec_accept=float(values.get("spec_accept", 0.0) or 0.0))
    return kw


def cached_prompt_tokens(values: Mapping[str, Any]) -> int:
    """Tokens of the prompt (question + document) served from the KV cache: with prefix caching on
    (`prefix_cache` "on"), the share that is the same for every request (`prefix_share`) was prefilled
    once and is reused, so it is read like earlier turns (`context_tokens`: attended to, no prefill);
    vLLM's automatic prefix caching, SGLang's RadixAttention (Zheng et al. 2024). At least one token
    stays new. 0 with caching off (the default)."""
    if values.get("prefix_cache", "off") != "on":
        return 0
    read = int(values["prompt_tokens"]) + int(values.get("document_tokens", 0) or 0)
    return max(0, min(int(round(float(values.get("prefix_share", 0.0) or 0.0) * read)), read - 1))


def prompt_read_tokens(values: Mapping[str, Any]) -> int:
    """Tokens the server reads (prefills) for this request: the user's question (`prompt_tokens`) plus
    a pasted document (`document_tokens`, 0 when none). Both are new to the server, so both cost prefill;
    earlier turns of the conversation (`context_tokens`) are already in its KV cache and do not, nor
    does a cached shared part of the prompt (`cached_prompt_tokens`, 0 unless prefix caching is on)."""
    return int(values["prompt_tokens"]) + int(values.get("document_tokens", 0) or 0) - cached_prompt_tokens(values)


def bytes_per_param(catalog: Catalog, values: Mapping[str, Any]) -> float:
    return catalog.precisions[values["precision"]].bytes_per_param


def fixed_devices(values: Mapping[str, Any]) -> int | None:
    """The device count the user fixed, or None for "auto" (the fewest that hold the model)."""
    d = values.get("devices", DEVICES_AUTO)
    return None if d == DEVICES_AUTO else int(d)


def evaluate(catalog: Catalog, values: Mapping[str, Any]):
    """(SizedModel, HardwareEntry, Estimate) for one scenario."""
    sized = sized_model(catalog, float(values["model_size_b"]), values["arch"], bytes_per_param(catalog, values))
    entry = catalog.hardware[values["hardware"]]
    est = estimate(sized.model, entry.hardware, distance_km=float(values["distance_km"]),
                   **_common_kwargs(entry.kind, values))
    return sized, entry, est


def size_sweep(catalog: Catalog, values: Mapping[str, Any], n: int = SIZE_SWEEP_POINTS) -> dict[str, Any]:
    """TTFT, total and fits over model sizes on the chosen hardware and distance (one vectorised call)."""
    sizes = np.geomspace(SIZE_MIN_B, SIZE_MAX_B, n)
    model = sweep_model(catalog, float(values["model_size_b"]), values["arch"], bytes_per_param(catalog, values))
    entry = catalog.hardware[values["hardware"]]
    out = estimate_sweep(model, entry.hardware, params_b=sizes, distance_km=float(values["distance_km"]),
                         **_common_kwargs(entry.kind, values))
    return dict(sizes=sizes, ttft=out["ttft_s"], total=out["total_s"], fits=out["fits"] > 0.5,
                devices=out["devices_needed"])


def device_changes(sizes, devices, fits) -> list[tuple[float, int, int]]:
    """Where the automatic device count steps up along a size sweep: [(size_b, before, after)]."""
    out = []
    for i in range(1, len(sizes)):
        if fits[i] and fits[i - 1] and devices[i] != devices[i - 1]:
            out.append((float(sizes[i]), int(devices[i - 1]), int(devices[i])))
    return out


def distance_sweep(catalog: Catalog, values: Mapping[str, Any], sized: SizedModel, n: int = DISTANCE_SWEEP_POINTS) -> dict[str, Any]:
    """TTFT and its network stage over distances 0 to 20,000 km for the current model and hardware."""
    d = np.linspace(0.0, DISTANCE_MAX_KM, n)
    entry = catalog.hardware[values["hardware"]]
    out = estimate_sweep(sized.model, entry.hardware, distance_km=d, **_common_kwargs(entry.kind, values))
    return dict(distances=d, ttft=out["ttft_s"], network=out["network"])


CONTEXT_SWEEP_TOKENS = (0, 1024, 2048, 4096, 8192, 16384, 24576, 32768, 49152, 65536, 81920, 98304, 114688, 131072)
"""Conversation lengths on the conversation chart: 0 to the 128k-token context window."""


def context_sweep(catalog: Catalog, values: Mapping[str, Any], sized: SizedModel,
                  contexts: Sequence[float] = CONTEXT_SWEEP_TOKENS) -> dict[str, Any]:
    """Per-user token speed, time to first token and memory as the conversation already in the KV cache
    grows (`contexts`: its lengths in tokens), every other input the scenario's."""
    ctx = np.asarray(contexts, dtype=float)
    entry = catalog.hardware[values["hardware"]]
    kw = _common_kwargs(entry.kind, values)
    kw.pop("context_tokens")
    out = estimate_sweep(sized.model, entry.hardware, distance_km=float(values["distance_km"]), context_tokens=ctx, **kw)
    return dict(context=ctx, tps=out["decode_tokens_per_s"], ttft=out["ttft_s"], fits=out["fits"] > 0.5,
                memory=out["memory_gb"])


def device_sweep(catalog: Catalog, values: Mapping[str, Any], sized: SizedModel):
    """[(HardwareEntry, Estimate)] for the current model on every catalog device: the chosen device as the
    scenario has it (its device count and engine, so its bar is the headline), every other one with as many
    of it as the model needs and its usual engine (the chart's caption says so)."""
    out = []
    for entry in catalog.hardware.values():
        mine = entry.id == values["hardware"]
        kw = _common_kwargs(entry.kind, values if mine else {**values, "devices": DEVICES_AUTO, "engine": ENGINE_AUTO})
        est = estimate(sized.model, entry.hardware, distance_km=float(values["distance_km"]), **kw)
        out.append((entry, est))
    return out


def ordered_hardware(catalog: Catalog) -> list[str]:
    """Hardware ids grouped by where they run, as the drop-downs name it (DEVICE_CLASSES: data centre, workstation,
    desktop, laptop, phone), then by kind (the estimator's KINDS order), catalog order within. Grouped by kind alone,
    a two-socket EPYC "데이터센터" server sat among the laptops (newcomer try, 390 px), while the help says the list is
    grouped. Entries built in code without a class come last."""
    classes = list(DEVICE_CLASSES)
    return sorted(catalog.hardware, key=lambda h: (
        classes.index(catalog.hardware[h].device_class) if catalog.hardware[h].device_class in classes else len(classes),
        KINDS.index(catalog.hardware[h].kind), list(catalog.hardware).index(h)))
