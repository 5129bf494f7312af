"""Trade-off computations for the trade-off explorer page (pure Python; never imports streamlit).

Everything here is a plain function of a `Scenario`, the catalogs (`latency.estimation.catalog`) and the
hourly prices, built on `latency.estimate` / `latency.estimate_sweep`; nothing is hard-coded
except the grid axes below. The page only wires widgets to these functions and draws figures.

Serving model used throughout ("a plan"): N concurrent users are served by R identical servers
("replicas") of n devices each. n is the fewest devices that hold the model (the estimator's
`devices_needed` at batch 1). One server can hold at most `max_batch` conversations at once: the
memory left after weights and runtime overhead, divided by one conversation's KV cache; hardware
whose default engine is a local runner (llama.cpp on desktop GPUs, Macs, CPUs, phones) answers one
at a time, as on the estimator page. Each server runs `batch` conversations together (continuous
batching), so

    replicas = ceil(N / batch)                         nobody waits in line
    cost per answer = replicas x n x price/h x S / (3600 x N)
    cost per 1M output tokens = cost per answer / output tokens x 1e6

where S = prefill + decode time of one answer at that batch (every user has one request in
flight, so the fleet finishes N answers every S seconds). Larger batches are cheaper per answer
but slower per user; the budget map picks, per cell, the largest batch (of 1, 2, 4, ... and N
itself, up to max_batch) whose latency still meets the budget ("the cheapest way to serve N users
within the budget"), or batch 1 when even that misses. The concurrency section shows the other side: one server, more and more users, until it
is full and requests queue (the estimator's queue stage).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np

from latency.estimation.estimator import Hardware, Model, estimate, estimate_sweep, load_params
from latency.estimation import sizing
from latency.estimation import scenario as scenario_mod
from latency.estimation.places import DISTANCE_MAX_KM, DistanceStop
from latency.estimation.catalog import Catalog
from latency.estimation.constants import MAX_DISTANCE_KM
from latency.estimation.estimator import DEFAULT_ENGINE
from latency.exploring.stages import sweep_wait_s


def _engine(s: "Scenario", hw: Hardware) -> str:
    """The serving engine the scenario runs on this hardware."""
    return DEFAULT_ENGINE[hw.kind] if s.engine == scenario_mod.ENGINE_AUTO else s.engine

# ------------------------------------------------------------------------------------------
# Grid axes (kept lean: at most ~15 x 17 cells, so a rerun stays fast)
# ------------------------------------------------------------------------------------------

MAP_SIZES_B: tuple[float, ...] = (0.5, 1.0, 3.0, 8.0, 15.0, 30.0, 40.0, 70.0, 100.0, 235.0, 405.0, 671.0,
                                  1000.0, 2000.0)
"""Model sizes (billions of parameters) of the budget maps, snapped to the estimator page's
slider steps (`latency.estimation.sizing.size_steps`: a 1-1.5-2-3-5-7 grid merged with the catalog sizes), so
a map row is always a value the size slider can take (8 -> 8.03 Llama 3.1 8B, 40 -> 39.8 ...)."""

MAP_EXTRA_KM: tuple[float, ...] = (100.0, 500.0, 2000.0, 12000.0, 16000.0, 20000.0)
"""Distances (km) of the size x distance map besides the estimator's named stops
(content/places.yaml: same building, same city, Seoul->Tokyo/Singapore/US West/Europe)."""

CONTEXT_STEPS: tuple[int, ...] = (1024, 4096, 16384, 32768, 131072)
"""Context lengths (prompt + answer tokens) of the memory chart: 1k to 128k (Llama 3.1's window)."""

BATCH_CANDIDATES: tuple[int, ...] = tuple(range(1, 16)) + tuple(sorted({int(round(16 * 2 ** (k / 8))) for k in range(81)}))
"""Users per server tried by the plan search, plus the user count itself: every whole number below 16, then
steps of 2^(1/8) (9%) up to 16,384. Powers of two alone asked 25 servers of 2 users where 3 a server meet, and
the users tab and the launch check said 17 servers (PM re-check 2026-12-05)."""

MEASURES = ("ttft", "total")
MEASURE_KEY = {"ttft": "ttft_s", "total": "total_s"}
MAX_PRICE_USD_PER_HOUR = 1000.0
"""Edited prices above this are rejected as absurd: the priciest single device in the catalog
costs about USD 5 per hour, a whole 8-GPU node about USD 40."""


# ------------------------------------------------------------------------------------------
# Inputs
# ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Scenario:
    """One scenario of the page (the same values the URL carries)."""

    model_size_b: float = 8.03
    hardware_id: str = "h100-sxm"
    distance_km: float = 1149.0
    precision_id: str = "fp16"
    arch: str = "dense"
    prompt_tokens: int = 512
    output_tokens: int = 256
    concurrency: int = 10
    budget_s: float = 2.0
    measure: str = "total"
    access: str = "wired"
    connection: str = "warm"
    arrival: str = "steady"    # the users' pattern: steady use or a burst (latency.estimation.estimator.ARRIVALS)
    document_tokens: int = 0   # a pasted document, read with the question (scenario.prompt_read_tokens)
    context_tokens: int = 0    # earlier turns already in the KV cache
    devices: Any = "auto"      # the user's device count, or "auto" (the fewest that hold the model)
    engine: str = "auto"       # the serving engine, or "auto" (the hardware's usual one)

    def __post_init__(self) -> None:
        if self.measure not in MEASURES:
            raise ValueError(f"measure must be one of {MEASURES}, got {self.measure!r}")
        for name in ("model_size_b", "budget_s"):
            v = getattr(self, name)
            if not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0):
                raise ValueError(f"{name} must be a positive finite number, got {v!r}")
        for name in ("prompt_tokens", "output_tokens", "concurrency"):
            v = getattr(self, name)
            if not (isinstance(v, (int, np.integer)) and v >= 1):
                raise ValueError(f"{name} must be a whole number >= 1, got {v!r}")
        if not (math.isfinite(self.distance_km) and 0 <= self.distance_km <= MAX_DISTANCE_KM):
            raise ValueError(f"distance_km must be in [0, {MAX_DISTANCE_KM:g}], got {self.distance_km!r}")


def scenario_model(s: Scenario, catalog: Catalog) -> Model:
    """The shape-free model of the scenario, built like the estimator page's size sweep
    (`latency.estimation.sizing.sweep_model`: dense, or the MoE share / loop count of the closest catalog
    model of that architecture), so every size of a map follows one scaling rule."""
    return sizing.sweep_model(catalog, s.model_size_b, s.arch, catalog.precisions[s.precision_id].bytes_per_param)


def model_at_size(base: Model, size_b: float) -> Model:
    """`base` scaled to `size_b` the way `estimate_sweep(params_b=...)` scales it (MoE: the same
    active share), for `estimate` calls that must match a sweep cell."""
    active = None if base.active_params_b is None else size_b * (base.active_b / base.params_b)
    return replace(base, name=f"{size_b:g}B {base.arch}", params_b=float(size_b), active_params_b=active)


def size_rows(catalog: Catalog, current_b: float) -> tuple[float, ...]:
    """The maps' size axis: MAP_SIZES_B snapped to the slider's steps, plus the current size
    (replacing a step within 6% of it)."""
    steps = sizing.size_steps(catalog)
    grid = {sizing.snap(v, steps) for v in MAP_SIZES_B}
    return sizing.merge_steps(sorted(grid), [float(current_b)], sizing.SIZE_MIN_B, sizing.SIZE_MAX_B)


def distance_cols(stops: Sequence[DistanceStop], current_km: float) -> tuple[float, ...]:
    """The size x distance map's columns: the named stops, MAP_EXTRA_KM and the current distance."""
    named = [st.km for st in stops] + [float(current_km)]
    return sizing.merge_steps(MAP_EXTRA_KM, named, 0.0, DISTANCE_MAX_KM)


def scenario_of(values: Mapping[str, Any]) -> Scenario:
    """The trade-off scenario of the shared scenario values (`latency.estimation.scenario.KEYS`): every
    input the estimate reads, so the tabs compute what `scenario.evaluate` computes (issue 31 item 1)."""
    devices = values.get("devices", scenario_mod.DEVICES_AUTO)
    return Scenario(model_size_b=float(values["model_size_b"]), hardware_id=values["hardware"],
                    distance_km=float(values["distance_km"]), precision_id=values["precision"], arch=values["arch"],
                    prompt_tokens=int(values["prompt_tokens"]), output_tokens=int(values["output_tokens"]),
                    concurrency=int(values["concurrency"]), budget_s=float(values["budget_s"]),
                    measure=values["measure"], access=values.get("access", "wired"),
                    connection=values.get("connection", "warm"), arrival=values.get("arrival", "steady"),
                    document_tokens=int(values.get("document_tokens", 0) or 0),
                    context_tokens=int(values.get("context_tokens", 0) or 0),
                    devices=devices if devices == scenario_mod.DEVICES_AUTO else int(devices),
                    engine=values.get("engine", scenario_mod.ENGINE_AUTO))


def values_of(s: Scenario) -> dict[str, Any]:
    """The shared scenario values of a trade-off scenario (the inverse of `scenario_of`)."""
    return dict(model_size_b=s.model_size_b, hardware=s.hardware_id, devices=s.devices, distance_km=s.distance_km,
                arch=s.arch, precision=s.precision_id, prompt_tokens=s.prompt_tokens, document_tokens=s.document_tokens,
                output_tokens=s.output_tokens, context_tokens=s.context_tokens, concurrency=s.concurrency,
                arrival=s.arrival, access=s.access, connection=s.connection, engine=s.engine, budget_s=s.budget_s,
                measure=s.measure)


def evaluate(s: Scenario, catalog: Catalog, **changed):
    """`latency.estimation.scenario.evaluate` of the scenario with `changed` inputs (shared value keys):
    (SizedModel, HardwareEntry, Estimate); a combination the estimator rejects raises ValueError."""
    return scenario_mod.evaluate(catalog, {**values_of(s), **changed})


def fleet(s: Scenario) -> Scenario:
    """The scenario as the budget maps, the cost chart and the export price it: each device with as many
    of it as the model needs and its usual serving engine (a device count or an engine chosen for one
    device means nothing for another); the pages name this beside those figures."""
    return replace(s, devices=scenario_mod.DEVICES_AUTO, engine=scenario_mod.ENGINE_AUTO)


def row_model(s: Scenario, catalog: Catalog, size_b: float) -> Model:
    """The model a map row of `size_b` stands for, as the estimator page builds it (`sizing.sized_model`:
    the catalog model where the size is one, else the architecture scaled), so a row the size slider can
    open gives the figure the estimator gives there."""
    return sizing.sized_model(catalog, float(size_b), s.arch, catalog.precisions[s.precision_id].bytes_per_param).model


_OWN: dict[tuple, tuple] = {}
OWN_CACHE_MAX = 256


def own_models(s: Scenario, catalog: Catalog, sizes: Sequence[float]) -> tuple:
    """Per row: the catalog model of that size (when it differs from the scaled one), else None. Memoised
    (bounded) on what it reads, the architecture, precision, current size and rows: a trade-off rerun
    asks for it three times with the same, and it was a quarter of the map's time."""
    key = (id(catalog), s.arch, s.precision_id, float(s.model_size_b), tuple(float(v) for v in sizes))  # the page's
    # catalog is load_catalog()'s own object (pages/tradeoffs.py compute_tab), so its identity keys it
    hit = _OWN.get(key)
    if hit is None:
        base = scenario_model(s, catalog)
        hit = tuple(None if _same_shape(m, model_at_size(base, size)) else m
                    for size in sizes for m in [row_model(s, catalog, size)])
        if len(_OWN) >= OWN_CACHE_MAX:
            _OWN.clear()
        _OWN[key] = hit
    return hit


def _same_shape(a: Model, b: Model) -> bool:
    """Two models the estimator computes alike (names aside)."""
    return (replace(a, name="", active_params_b=None) == replace(b, name="", active_params_b=None)
            and math.isclose(a.active_b, b.active_b, rel_tol=1e-9))


# ------------------------------------------------------------------------------------------
# The headline: N users on ONE server, as on the estimator page and in the Concurrency tab
# ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Headline:
    """The scenario as the estimator page computes it (`latency.estimation.scenario.evaluate`): all N users
    share one server of `devices` devices. Per-user figures (latency, tokens/s) and whole-server
    figures (throughput, devices, cost) are kept apart by name."""

    estimate: Any              # latency.Estimate
    model: Model
    users: int
    batch: int                 # conversations the server runs together (the rest queue)
    devices: int               # devices in the one server
    fits: bool
    latency_s: float           # per user, for the scenario's measure
    meets: bool
    per_user_tokens_per_s: float
    server_tokens_per_s: float
    server_cost_per_hour: float       # nan without a price
    cost_per_1k_answers: float        # nan without a price or a fit
    cost_per_1m_tokens: float


def server_rate(est, arrival: str) -> float:
    """The server's tokens per second as the page shows it, in either pattern: its output tokens per
    second over whole requests, reading the question included (what serving benchmarks call output
    throughput). It was, for a burst, all streams during decode (running_batch / tpot), a second figure
    under the same name; now the page names the streaming speed per user beside it (`speeds`)."""
    return float(est.server_tokens_per_s)


def other_arrival(catalog: Catalog, values: Mapping[str, Any]):
    """The same set-up with the users' other pattern (steady use <-> all at once), for the sentence that
    says why a burst streams faster (`burst_faster`); None for one user (the two are the same)."""
    if int(values["concurrency"]) <= 1:
        return None
    flip = "burst" if values.get("arrival", "steady") == "steady" else "steady"
    try:
        return scenario_mod.evaluate(catalog, {**values, "arrival": flip})[2]
    except ValueError:
        return None


def burst_faster(est, other, arrival: str) -> tuple[float, float] | None:
    """(burst, steady) per-user streaming speeds when a burst of the same users streams each answer
    faster than steady use (steady use reads every new question between other users' answer tokens),
    else None."""
    if other is None or not (est.fits and other.fits):
        return None
    burst, steady = (est, other) if arrival == "burst" else (other, est)
    if burst.decode_tokens_per_s > steady.decode_tokens_per_s * 1.01:
        return float(burst.decode_tokens_per_s), float(steady.decode_tokens_per_s)
    return None


def headline(catalog: Catalog, values: Mapping[str, Any], prices: Mapping[str, float | None]) -> Headline:
    """One server for all `concurrency` users (the estimator page's scenario, `evaluate`).

    Cost: the server answers `batch` requests every S = prefill + decode seconds, so
    cost per answer = devices x price/h x S / (3600 x batch)."""
    sized, entry, est = scenario_mod.evaluate(catalog, values)
    users = int(values["concurrency"])
    batch = int(est.running_batch)  # answers the server works on together (the rest wait for a slot)
    devices = int(est.devices_needed)
    latency = float(getattr(est, MEASURE_KEY[values["measure"]]))
    price = prices.get(entry.id)
    hourly = devices * price if price is not None else math.nan
    service = est.breakdown["prefill"] + est.breakdown["decode"]
    per_answer = hourly * service / (3600.0 * batch) if est.fits else math.nan
    return Headline(estimate=est, model=sized.model, users=users, batch=batch, devices=devices, fits=bool(est.fits),
                    latency_s=latency, meets=bool(est.fits) and latency <= float(values["budget_s"]),
                    per_user_tokens_per_s=float(est.decode_tokens_per_s),
                    server_tokens_per_s=server_rate(est, values.get("arrival", "steady")), server_cost_per_hour=hourly,
                    cost_per_1k_answers=per_answer * 1000, cost_per_1m_tokens=per_answer / int(values["output_tokens"]) * 1e6)


# ------------------------------------------------------------------------------------------
# The page's tabs: each computes only when it is open
# ------------------------------------------------------------------------------------------

TABS = ("map", "concurrency", "cost", "memory", "tornado", "export")
SCOPES = ("cloud", "all")


def map_hardware(catalog: Catalog, scope: str, current: str) -> list[str]:
    """The budget map's devices: cloud-priced ones (scope "cloud") or all, plus the current one."""
    order = scenario_mod.ordered_hardware(catalog)
    ids = order if scope == "all" else [h for h in order if catalog.hardware[h].price_basis == "cloud_on_demand"]
    return ids if current in ids else ids + [current]


def tab_data(tab: str, s: Scenario, catalog: Catalog, stops: Sequence[DistanceStop],
             prices: Mapping[str, float | None], scope: str, devices: int) -> dict[str, Any]:
    """What one tab shows. devices: the headline's one server (`headline`); scope: the page's device
    filter, which every chart of the page follows."""
    if tab == "map":
        return dict(grid=size_hardware_grid(s, catalog, prices, map_hardware(catalog, scope, s.hardware_id)),
                    dist=size_distance_grid(s, catalog, prices, stops))
    if tab == "concurrency":
        model = sizing.sized_model(catalog, s.model_size_b, s.arch, catalog.precisions[s.precision_id].bytes_per_param).model
        return dict(curve=concurrency_curve(s, catalog, model=model, devices=devices))
    if tab == "cost":  # the devices the page's filter chose, as on the map (issue 31 item 4)
        return dict(devices=size_hardware_grid(s, catalog, prices, map_hardware(catalog, scope, s.hardware_id),
                                               sizes=[s.model_size_b]))
    if tab == "memory":
        return dict(precisions=precision_rows(s, catalog), memory=memory_by_context(s, catalog))
    if tab == "tornado":
        return dict(tornado=tornado(s, catalog, stops, map_hardware(catalog, scope, s.hardware_id)))
    if tab == "export":
        rows = export_rows(s, catalog, prices, size_hardware_grid(s, catalog, prices,
                                                                  map_hardware(catalog, scope, s.hardware_id)))
        return dict(rows=rows, csv=export_csv(rows))
    raise ValueError(f"tab must be one of {TABS}, got {tab!r}")


# ------------------------------------------------------------------------------------------
# Prices (editable on the page)
# ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PriceNotice:
    """An edited price that could not be used. reason: empty | not_a_number | negative | zero | too_high."""

    device_id: str
    raw: str
    reason: str
    fallback: float | None


def catalog_prices(catalog: Catalog) -> dict[str, float | None]:
    return {hid: e.price_usd_per_hour for hid, e in catalog.hardware.items()}


def parse_price(raw: Any) -> tuple[float | None, str | None]:
    """(price, None) for a usable hourly price, else (None, reason)."""
    if raw is None or (isinstance(raw, float) and math.isnan(raw)) or str(raw).strip() == "":
        return None, "empty"
    text = str(raw).strip().replace(",", "").removeprefix("$").removeprefix("US$").strip()
    try:
        value = float(text)
    except ValueError:
        return None, "not_a_number"
    if not math.isfinite(value):
        return None, "not_a_number"
    if value < 0:
        return None, "negative"
    if value == 0:
        return None, "zero"
    if value > MAX_PRICE_USD_PER_HOUR:
        return None, "too_high"
    return value, None


def resolve_prices(catalog: Catalog, edited: Mapping[str, Any]) -> tuple[dict[str, float | None], list[PriceNotice]]:
    """Catalog prices with the user's edits applied; each unusable edit falls back to the
    catalog value and yields a notice naming the device."""
    prices = catalog_prices(catalog)
    notices = []
    for hid, raw in edited.items():
        if hid not in prices:
            continue
        value, reason = parse_price(raw)
        if reason:
            notices.append(PriceNotice(hid, _clip(str(raw)), reason, prices[hid]))
        else:
            prices[hid] = value
    return prices, notices


def _clip(text: str, n: int = 30) -> str:
    text = "".join(ch for ch in text if ch.isprintable())
    return text if len(text) <= n else text[: n - 1] + "…"


# ------------------------------------------------------------------------------------------
# Plans: how many servers, how many conversations each, at what latency and cost
# ------------------------------------------------------------------------------------------

def _sweep(model: Model, hw: Hardware, s: Scenario, **arrays) -> dict[str, np.ndarray]:
    """`estimate_sweep` with every input of the scenario as `scenario.evaluate` passes it
    (`scenario.estimate_kwargs`: the question and a pasted document read together, earlier turns, users,
    their pattern, the network, the engine, the device count), `arrays` replacing some."""
    kw = scenario_mod.estimate_kwargs(hw.kind, values_of(s))
    kw["distance_km"] = s.distance_km
    kw.update(arrays)
    return estimate_sweep(model, hw, **kw)


def _capacity(model: Model, hw: Hardware, s: Scenario, params_b, distance_km, devices: int | None = None) -> dict[str, np.ndarray]:
    """Devices per server and the most conversations one server holds: the memory left after
    weights and runtime overhead over one conversation's KV cache (the estimator's memory model), on
    every engine: llama.cpp's server runs parallel slots too, as the estimate runs them (`running_batch`).
    It was 1 on hardware without a data-centre serving engine, so the map planned 50 servers for 50 users
    of an RTX 4090 whose one server the headline shows meeting the budget."""
    one = _sweep(model, hw, s, params_b=params_b, distance_km=distance_km, batch=1.0, concurrent_users=1.0, devices=devices,
                 arrival="burst")
    n = one["devices_needed"]
    max_batch = one["max_concurrent_requests"]  # the estimator's KV-cache capacity, as the engine spends memory
    fits = (one["fits"] > 0.5) & (max_batch >= 1)
    return dict(devices=n, max_batch=np.where(fits, np.maximum(max_batch, 1.0), 0.0), fits=fits)


@dataclass(frozen=True)
class Plan:
    """Arrays of one grid (all the same shape): the chosen serving plan per cell."""

    latency_s: np.ndarray   # for the scenario's measure
    ttft_s: np.ndarray
    total_s: np.ndarray
    tpot_s: np.ndarray
    batch: np.ndarray       # conversations per server
    replicas: np.ndarray    # servers
    devices: np.ndarray     # devices per server
    max_batch: np.ndarray
    fits: np.ndarray        # bool
    meets: np.ndarray       # bool: fits and latency <= budget
    cost_per_answer: np.ndarray      # USD; nan without a price or when it does not fit
    cost_per_1m_tokens: np.ndarray   # USD per 1M output tokens


def plan_grid(model: Model, hw: Hardware, s: Scenario, price: float | None, *, params_b=None,
              distance_km=None) -> Plan:
    """The cheapest plan that meets the budget for every (params_b, distance_km) cell, vectorised.

    params_b / distance_km: arrays (broadcast together) or None for the scenario's value.
    """
    pb = np.asarray(model.params_b if params_b is None else params_b, dtype=float)
    dk = np.asarray(s.distance_km if distance_km is None else distance_km, dtype=float)
    pb, dk = np.broadcast_arrays(pb, dk)
    cap = _capacity(model, hw, s, pb, dk)
    users = float(s.concurrency)
    limit = np.minimum(users, np.maximum(cap["max_batch"], 1.0))
    cands = np.asarray(sorted(set(BATCH_CANDIDATES) | {int(users)}), dtype=float)
    batch = np.minimum(cands, limit[..., None])                       # shape (..., C)
    # A plan is `b` of the users on each server, arriving as the users do (the page's pattern: steady use
    # or a burst), so a plan of one server for everyone is the headline's own estimate (PM trial item 2:
    # the map planned lock-step bursts under a steady banner and marked its current cell △ where the
    # banner said it meets). Cost: b answers every service time (prefill + decode) per server, in either
    # pattern (steady use: Little's law, b = X x service with no think time).
    r = _sweep(model, hw, s, params_b=pb[..., None], distance_km=dk[..., None], batch=batch,
               concurrent_users=batch, arrival=s.arrival, devices=None)
    lat = r[MEASURE_KEY[s.measure]]
    ok = (lat <= s.budget_s) & cap["fits"][..., None]
    pick = np.argmax(np.where(ok, batch, -1.0), axis=-1)              # largest batch that meets; else 1
    take = lambda a: np.take_along_axis(a, pick[..., None], axis=-1)[..., 0]  # noqa: E731
    b = take(batch)
    service = take(r["prefill"] + r["decode"])
    replicas = np.ceil(users / b)
    n = cap["devices"]
    fits = cap["fits"]
    if price is None:
        cost = np.full(b.shape, np.nan)
    else:
        cost = np.where(fits, replicas * n * price * service / (3600.0 * users), np.nan)
    lat_c = take(lat)
    return Plan(latency_s=lat_c, ttft_s=take(r["ttft_s"]), total_s=take(r["total_s"]), tpot_s=take(r["tpot_s"]),
                batch=b, replicas=replicas, devices=n, max_batch=cap["max_batch"], fits=fits,
                meets=fits & (lat_c <= s.budget_s), cost_per_answer=cost,
                cost_per_1m_tokens=cost / s.output_tokens * 1e6)


@dataclass(frozen=True)
class Grid:
    """A budget map: rows x cols of plans, with the marked cells."""

    rows: tuple                # row keys (model sizes)
    cols: tuple                # column keys (hardware ids or distances)
    plan: Plan                 # arrays of shape (len(rows), len(cols))
    ratio: np.ndarray          # latency / budget (nan where it does not fit)
    cheapest: tuple[int, int] | None        # cheapest cell that meets the budget across its range (safe)
    row_cheapest: tuple[int, int] | None    # the same in the current size's row
    current: tuple[int, int] | None
    borderline: tuple[int, int] | None = None      # a cheaper cell that meets only at its estimate (its range
    row_borderline: tuple[int, int] | None = None  # reaches past the budget), named beside the safe one
    safe: np.ndarray | None = None  # bool per cell: meets the budget even at the slow end of its range (the ✓ cells)
    high: np.ndarray | None = None  # the slow end of a cell's range where it was needed to tell (nan elsewhere)


def _cheapest(plan: Plan, mask: np.ndarray | None = None) -> tuple[int, int] | None:
    ok = plan.meets & np.isfinite(plan.cost_per_answer)
    if mask is not None:
        ok = ok & mask
    if not ok.any():
        return None
    # Cheapest; ties (equal cost) go to the lower latency.
    cost = np.where(ok, plan.cost_per_answer, np.inf)
    best = np.min(cost)
    tie = ok & np.isclose(cost, best, rtol=1e-9, atol=0)
    lat = np.where(tie, plan.latency_s, np.inf)
    i, j = np.unravel_index(int(np.argmin(lat)), lat.shape)
    return int(i), int(j)


def _stack(plans: Sequence[Plan]) -> Plan:
    """Column plans (each shape (R,)) -> one plan of shape (R, C)."""
    return Plan(**{f: np.stack([getattr(p, f) for p in plans], axis=1) for f in Plan.__dataclass_fields__})


def _grid(rows, cols, plan: Plan, s: Scenario, cur: tuple[int, int] | None) -> Grid:
    ratio = np.where(plan.fits, plan.latency_s / s.budget_s, np.nan)
    row_mask = None
    if cur is not None:
        row_mask = np.zeros(ratio.shape, dtype=bool)
        row_mask[cur[0], :] = True
    return Grid(rows=tuple(rows), cols=tuple(cols), plan=plan, ratio=ratio, cheapest=_cheapest(plan),
                row_cheapest=_cheapest(plan, row_mask) if row_mask is not None else None, current=cur)


def range_high(s: Scenario, catalog: Catalog, size_b: float, hardware_id: str, batch: int,
               distance_km: float | None = None) -> float:
    """The high end of a plan cell's range for the scenario's measure (`latency.estimate` with the cell's
    model, device and users per server in the page's pattern, as the export computes it). Memoised (bounded): the marks and the
    page's sentences ask for the same cells."""
    key = (id(catalog), s, float(size_b), hardware_id, int(batch), None if distance_km is None else float(distance_km))
    if key not in _HIGH:
        if len(_HIGH) >= OWN_CACHE_MAX * 4:
            _HIGH.clear()
        _HIGH[key] = _range_high(s, catalog, size_b, hardware_id, batch, distance_km)
    return _HIGH[key]


_HIGH: dict[tuple, float] = {}


def _range_high(s: Scenario, catalog: Catalog, size_b: float, hardware_id: str, batch: int,
                distance_km: float | None) -> float:
    entry = catalog.hardware[hardware_id]
    kw = {**scenario_mod.estimate_kwargs(entry.kind, values_of(s)), "batch": int(batch), "concurrent_users": int(batch)}
    e = estimate(row_model(s, catalog, size_b), entry.hardware,
                 distance_km=s.distance_km if distance_km is None else float(distance_km), **kw)
    return float(e.ranges[MEASURE_KEY[s.measure]][1])


@functools.cache
def widest_band() -> float:
    """The largest factor any stage's range puts on its time (latency.estimation.estimator's bands:
    calibrated, uncalibrated and serving; fitted_params.json): a range's slow end is at most this times
    the estimate, so a cell this far under the budget meets it across its range without computing it."""
    params = load_params()
    highs = [hi for group in ("bands", "bands_uncalibrated", "bands_serving")
             for _, hi in (params.get(group) or {}).values()]
    return max(highs + [1.0])


def safe_cells(grid: Grid, s: Scenario, catalog: Catalog, by_distance: bool) -> tuple[np.ndarray, np.ndarray]:
    """(safe, high): which cells meet the budget even at the slow end of their range, the same rule as the
    headline and the estimator's verdict (PM trial item 6: a map cell read "✓ 0.19 s (1x the budget)" where
    the estimator said "borderline, its range reaches 0.24 s"); and that slow end for the cells where it
    was needed to tell (nan elsewhere). Cells far enough under the budget (`widest_band`) need no estimate."""
    p = grid.plan
    safe = p.meets & (p.latency_s * widest_band() <= s.budget_s)
    high = np.full(p.latency_s.shape, np.nan)
    for i, j in zip(*np.nonzero(p.meets & ~safe)):
        hid, dist = (s.hardware_id, grid.cols[j]) if by_distance else (grid.cols[j], None)
        high[i, j] = range_high(s, catalog, grid.rows[i], hid, p.batch[i, j], dist)
        safe[i, j] = high[i, j] <= s.budget_s
    return safe, high


def _safe_marks(grid: Grid, s: Scenario, catalog: Catalog, by_distance: bool) -> Grid:
    """The grid with its cheapest marks counting as meeting only what meets the budget across its range
    (issue 31 item 3: a 27B "borderline 0.19 s, range 0.14-0.25 s" was offered where 15B meets safely);
    a cheaper cell that meets only at its estimate is kept as `borderline`, to be named beside it."""
    p = grid.plan
    ok = p.meets & np.isfinite(p.cost_per_answer)
    safe_mask, high = safe_cells(grid, s, catalog, by_distance)

    def marks(mask) -> tuple:
        cells = sorted(zip(*np.nonzero(ok & mask)), key=lambda ij: (p.cost_per_answer[ij], p.latency_s[ij]))
        safe = next(((int(i), int(j)) for i, j in cells if safe_mask[i, j]), None)
        first = (int(cells[0][0]), int(cells[0][1])) if cells else None
        return safe, (first if first != safe else None)

    everywhere = np.ones(ok.shape, dtype=bool)
    cheapest, borderline = marks(everywhere)
    row, row_borderline = None, None
    if grid.current is not None:
        in_row = np.zeros(ok.shape, dtype=bool)
        in_row[grid.current[0], :] = True
        row, row_borderline = marks(in_row)
    return replace(grid, cheapest=cheapest, borderline=borderline, row_cheapest=row, row_borderline=row_borderline,
                   safe=safe_mask, high=high)


def size_hardware_grid(s: Scenario, catalog: Catalog, prices: Mapping[str, float | None],
                       hardware_ids: Sequence[str] | None = None, sizes: Sequence[float] | None = None) -> Grid:
    """Budget map model size x hardware at the scenario's distance, load and precision.

    hardware_ids: the columns (default: the whole catalog); sizes: the rows (default: the map's
    size axis, `size_rows`). The current cell is marked when both its size and device are present."""
    hids = tuple(hardware_ids or catalog.hardware)
    sizes = tuple(float(v) for v in (sizes if sizes is not None else size_rows(catalog, s.model_size_b)))
    s = fleet(s)
    model = scenario_model(s, catalog)
    own = own_models(s, catalog, sizes)
    # A column does not depend on which device or size is the current one (plan_grid reads neither),
    # so picking another device or size reuses the other columns (_plan_column).
    key = replace(s, hardware_id="", model_size_b=1.0)
    plans = [_plan_column(model, catalog.hardware[h].hardware, key, prices.get(h), sizes, own) for h in hids]
    here = float(s.model_size_b) in sizes and s.hardware_id in hids
    cur = (sizes.index(float(s.model_size_b)), hids.index(s.hardware_id)) if here else None
    return _safe_marks(_grid(sizes, hids, _stack(plans), s, cur), s, catalog, by_distance=False)


def _rows_plan(model: Model, hw: Hardware, s: Scenario, price: float | None, sizes: Sequence[float],
               own: Sequence[Model | None], distance_km=None) -> Plan:
    """plan_grid over the rows `sizes` (times `distance_km`, when given, as columns): the scaled model in
    one vectorised sweep, then each row that is a catalog model (`own`) with that model's own shape, as
    the estimator page computes it."""
    pb = np.asarray(sizes, dtype=float)
    plan = plan_grid(model, hw, s, price, params_b=pb if distance_km is None else pb[:, None], distance_km=distance_km)
    if not any(m is not None for m in own):
        return plan
    arrays = {f: np.array(getattr(plan, f), copy=True) for f in Plan.__dataclass_fields__}
    for i, m in enumerate(own):
        if m is None:
            continue
        row = plan_grid(m, hw, s, price, params_b=np.asarray([m.params_b]) if distance_km is not None else None,
                        distance_km=distance_km)
        for f, a in arrays.items():
            a[i] = np.asarray(getattr(row, f)).reshape(a[i].shape)
    return Plan(**arrays)


@functools.lru_cache(maxsize=1024)
def _plan_column(model: Model, hw: Hardware, s: Scenario, price: float | None, sizes: tuple[float, ...],
                 own: tuple = ()) -> Plan:
    """The plans over `sizes` for one device (`_rows_plan`), cached (bounded; the plans' arrays are never
    written to). Profiled on a live server: the budget map's 17 columns were a quarter of a trade-off
    rerun's CPU, recomputed when only the current device changed."""
    plan = _rows_plan(model, hw, s, price, sizes, own or (None,) * len(sizes))
    for value in vars(plan).values():  # shared by every session: read-only, so nothing can change it
        if isinstance(value, np.ndarray):
            value.flags.writeable = False
    return plan


@functools.lru_cache(maxsize=256)
def _plan_distances(model: Model, hw: Hardware, s: Scenario, price: float | None, sizes: tuple[float, ...],
                    own: tuple, dists: tuple[float, ...]) -> Plan:
    """The size x distance map's plans (`_rows_plan`), cached like `_plan_column` (read-only arrays)."""
    plan = _rows_plan(model, hw, s, price, sizes, own, distance_km=np.asarray(dists, dtype=float))
    for value in vars(plan).values():
        if isinstance(value, np.ndarray):
            value.flags.writeable = False
    return plan


def size_distance_grid(s: Scenario, catalog: Catalog, prices: Mapping[str, float | None],
                       stops: Sequence[DistanceStop]) -> Grid:
    """Budget map model size x distance on the scenario's hardware."""
    sizes = size_rows(catalog, s.model_size_b)
    dists = distance_cols(stops, s.distance_km)
    s = fleet(s)
    model = scenario_model(s, catalog)
    hw = catalog.hardware[s.hardware_id].hardware
    key = replace(s, hardware_id="", model_size_b=1.0, distance_km=0.0)  # what the plans read besides the axes
    plan = _plan_distances(model, hw, key, prices.get(s.hardware_id), tuple(sizes), own_models(s, catalog, sizes),
                           tuple(float(d) for d in dists))
    cur = (sizes.index(float(s.model_size_b)), dists.index(float(s.distance_km)))
    return _safe_marks(_grid(sizes, dists, plan, s, cur), s, catalog, by_distance=True)


@dataclass(frozen=True)
class PlanSummary:
    """The plan of one scenario, as plain numbers (for metrics and sentences)."""

    hardware_id: str
    model_size_b: float
    latency_s: float
    ttft_s: float
    total_s: float
    tokens_per_s: float
    batch: int
    replicas: int
    devices: int
    max_batch: int
    fits: bool
    meets: bool
    cost_per_answer: float
    cost_per_1k_answers: float
    cost_per_1m_tokens: float
    servers_cost_per_hour: float


def summarize(grid: Grid, i: int, j: int, prices: Mapping[str, float | None] | None = None,
              hardware_id: str | None = None) -> PlanSummary:
    p = grid.plan
    hid = hardware_id if hardware_id is not None else str(grid.cols[j])
    price = (prices or {}).get(hid)
    hourly = float(p.replicas[i, j] * p.devices[i, j] * price) if price is not None and p.fits[i, j] else math.nan
    return PlanSummary(
        hardware_id=hid, model_size_b=float(grid.rows[i]), latency_s=float(p.latency_s[i, j]),
        ttft_s=float(p.ttft_s[i, j]), total_s=float(p.total_s[i, j]), tokens_per_s=float(1.0 / p.tpot_s[i, j]),
        batch=int(p.batch[i, j]), replicas=int(p.replicas[i, j]), devices=int(p.devices[i, j]),
        max_batch=int(p.max_batch[i, j]), fits=bool(p.fits[i, j]), meets=bool(p.meets[i, j]),
        cost_per_answer=float(p.cost_per_answer[i, j]), cost_per_1k_answers=float(p.cost_per_answer[i, j] * 1000),
        cost_per_1m_tokens=float(p.cost_per_1m_tokens[i, j]), servers_cost_per_hour=hourly)


# ------------------------------------------------------------------------------------------
# Concurrency: one server, more and more users
# ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ConcurrencyCurve:
    users: np.ndarray
    batch: np.ndarray
    ttft_s: np.ndarray            # includes waiting in line beyond max_batch
    total_s: np.ndarray
    per_user_tokens_per_s: np.ndarray
    throughput_tokens_per_s: np.ndarray
    devices: int
    max_batch: int                # queueing starts beyond this many users
    plateau_users: int            # throughput reaches PLATEAU_SHARE of its peak here
    peak_throughput: float
    fits: bool
    current: dict[str, float] = field(default_factory=dict)  # values at the scenario's concurrency


CURVE_MAX_USERS = 40000
"""The users chart's last point: past every engine's cap on running requests (vLLM's max_num_seqs 1,024,
llama.cpp's slots), so the chart always shows the knee and the wait past it."""

PLATEAU_SHARE = 0.9
"""The server "saturates" where adding users adds less than 10% more throughput: the first user
count whose total throughput reaches 90% of the server's peak (at its memory-limited batch)."""


def concurrency_curve(s: Scenario, catalog: Catalog, points: int = 48, model: Model | None = None,
                      devices: int | None = None) -> ConcurrencyCurve:
    """Per-user speed, TTFT and total throughput of ONE server versus concurrent users.

    Up to `max_batch` users share the batch (per-user speed falls, total throughput rises);
    beyond it requests wait for a slot (the estimator's queue stage). model / devices: the
    headline's model and server size (`headline`), so the tab's current point is the headline;
    default the map's scaled model and the fewest devices that hold it."""
    model = model or scenario_model(s, catalog)
    hw = catalog.hardware[s.hardware_id].hardware
    cap = _capacity(model, hw, s, np.asarray(model.params_b), np.asarray(s.distance_km), devices)
    fits = bool(cap["fits"])
    max_batch = int(cap["max_batch"]) if fits else 0
    devices = int(cap["devices"])
    if not fits:
        empty = np.array([])
        return ConcurrencyCurve(empty, empty, empty, empty, empty, empty, devices, 0, 0, 0.0, False)
    if s.arrival == "steady":
        return _steady_curve(s, model, hw, devices, max_batch, points)
    # Peak throughput and the plateau, searched on a dense log grid up to max_batch (at most the chart's
    # last user count: a small model on a large memory holds a million conversations).
    probe = np.unique(np.round(np.geomspace(1, min(max_batch, CURVE_MAX_USERS), 96)))
    rp = _sweep(model, hw, s, batch=probe, concurrent_users=probe, devices=devices)
    thr = rp["server_tokens_per_s"]
    peak = float(thr.max())
    plateau = int(probe[np.argmax(thr >= PLATEAU_SHARE * peak)])
    top = max(2 * s.concurrency, 2 * min(max_batch, 20000), 2 * plateau, 16)
    top = min(top, CURVE_MAX_USERS)
    users = np.unique(np.concatenate([np.round(np.geomspace(1, top, points)),
                                      [s.concurrency, min(max_batch, top), plateau]]))
    batch = np.minimum(users, max_batch)
    r = _sweep(model, hw, s, batch=batch, concurrent_users=users, devices=devices)
    k = int(np.searchsorted(users, s.concurrency))
    current = dict(users=float(users[k]), batch=float(batch[k]), ttft_s=float(r["ttft_s"][k]),
                   total_s=float(r["total_s"][k]), queue_s=sweep_wait_s(r, k, _engine(s, hw), hw.kind),
                   per_user_tokens_per_s=float(r["decode_tokens_per_s"][k]),
                   throughput_tokens_per_s=float(r["server_tokens_per_s"][k]))
    return ConcurrencyCurve(users=users, batch=batch, ttft_s=r["ttft_s"], total_s=r["total_s"],
                            per_user_tokens_per_s=r["decode_tokens_per_s"],
                            throughput_tokens_per_s=r["server_tokens_per_s"], devices=devices,
                            max_batch=max_batch, plateau_users=plateau, peak_throughput=peak, fits=True,
                            current=current)


def _steady_curve(s: Scenario, model: Model, hw: Hardware, devices: int, kv_batch: int, points: int) -> ConcurrencyCurve:
    """The users chart in steady use (each user sends again when the answer arrives): the knee is
    where the running requests reach the engine's cap (the KV cache beside the weights, or the
    engine's own limit on running requests); beyond it every extra user waits outside, so the
    first token's wait climbs steeply while per-user speed and the server's output level off.
    Throughput here is the server's output tokens per second (all users' answers)."""
    top = min(max(2 * s.concurrency, 16), CURVE_MAX_USERS)
    first = _sweep(model, hw, s, concurrent_users=np.array([float(CURVE_MAX_USERS)]), devices=devices)  # far past any cap
    knee = int(max(1.0, float(first["running_batch"][-1])))
    top = min(max(top, 3 * knee), CURVE_MAX_USERS)
    users = np.unique(np.concatenate([np.round(np.geomspace(1, top, points)),
                                      [s.concurrency, min(knee, top), min(knee + 1, top)]]))
    r = _sweep(model, hw, s, concurrent_users=users, devices=devices)
    thr = r["server_tokens_per_s"]
    peak = float(thr.max())
    plateau = int(users[np.argmax(thr >= PLATEAU_SHARE * peak)])
    k = int(np.searchsorted(users, s.concurrency))
    batch = np.minimum(users, knee)
    current = dict(users=float(users[k]), batch=float(batch[k]), ttft_s=float(r["ttft_s"][k]),
                   total_s=float(r["total_s"][k]), queue_s=sweep_wait_s(r, k, _engine(s, hw), hw.kind),
                   per_user_tokens_per_s=float(r["decode_tokens_per_s"][k]),
                   throughput_tokens_per_s=float(thr[k]))
    return ConcurrencyCurve(users=users, batch=batch, ttft_s=r["ttft_s"], total_s=r["total_s"],
                            per_user_tokens_per_s=r["decode_tokens_per_s"], throughput_tokens_per_s=thr,
                            devices=devices, max_batch=knee, plateau_users=plateau, peak_throughput=peak, fits=True,
                            current=current)


# ------------------------------------------------------------------------------------------
# Cost: latency versus cost over the catalog, Pareto front
# ------------------------------------------------------------------------------------------

def pareto_front(cost: Sequence[float], latency: Sequence[float]) -> list[int]:
    """Indices of the points no other point beats on both cost and latency (lower is better),
    ordered by cost. Points with a nan or inf are ignored."""
    c = np.asarray(cost, dtype=float)
    lt = np.asarray(latency, dtype=float)
    idx = [i for i in np.lexsort((lt, c)) if np.isfinite(c[i]) and np.isfinite(lt[i])]
    front, best = [], math.inf
    for i in idx:
        if lt[i] < best:
            front.append(int(i))
            best = lt[i]
    return front


# ------------------------------------------------------------------------------------------
# Memory and lightweighting
# ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PrecisionRow:
    precision_id: str
    bytes_per_param: float
    memory_gb: float
    weights_gb: float
    kv_cache_gb: float
    devices_needed: int
    fits: bool
    ttft_s: float
    tokens_per_s: float
    memory_vs_fp16: float   # memory / FP16 memory
    speed_vs_fp16: float    # tokens per second / FP16 tokens per second


def precision_rows(s: Scenario, catalog: Catalog) -> list[PrecisionRow]:
    """Every catalog precision, heaviest first: the scenario with only its precision changed
    (`scenario.evaluate`: the same users, prompt, document, network, engine and device count, so the
    current precision's row is the headline). With "auto" devices each precision gets as many as it
    needs: the page says so where the counts differ (`differing_devices`)."""
    out = []
    for p in sorted(catalog.precisions.values(), key=lambda p: -p.bytes_per_param):
        try:
            _, _, e = evaluate(s, catalog, precision=p.id)
        except ValueError:
            continue
        out.append((p, e))
    ref = next((e for p, e in out if p.id == "fp16"), out[0][1])
    return [PrecisionRow(p.id, p.bytes_per_param, e.memory_gb, e.weights_gb, e.kv_cache_gb, e.devices_needed,
                         e.fits, e.ttft_s, e.decode_tokens_per_s, e.memory_gb / ref.memory_gb,
                         e.decode_tokens_per_s / ref.decode_tokens_per_s) for p, e in out]


def differing_devices(rows: Sequence[PrecisionRow]) -> bool:
    """Whether the rows that fit run on different device counts (a comparison the table must name)."""
    return len({r.devices_needed for r in rows if r.fits}) > 1


def memory_by_context(s: Scenario, catalog: Catalog, contexts: Sequence[int] = CONTEXT_STEPS) -> dict[str, Any]:
    """Memory (GB) for every catalog precision (heaviest first) against the tokens each conversation
    holds (earlier turns + question + document + answer), every other input the scenario's
    (`scenario.context_sweep`: the users, and so the requests running together, included). `held`: the
    x values, the context steps at or above this request's own tokens, and the scenario's own point;
    `current`: that point (the headline's memory at the current precision)."""
    request = scenario_mod.prompt_read_tokens(values_of(s)) + s.output_tokens
    now = request + s.context_tokens
    held = np.asarray(sorted({float(c) for c in contexts if c >= request} | {float(now)}))
    values = values_of(s)
    out: dict[str, Any] = {}
    for p in sorted(catalog.precisions.values(), key=lambda p: -p.bytes_per_param):
        sized = sizing.sized_model(catalog, s.model_size_b, s.arch, p.bytes_per_param)
        try:
            r = scenario_mod.context_sweep(catalog, {**values, "precision": p.id}, sized, contexts=held - request)
        except ValueError:
            continue
        out[p.id] = r["memory"]
    return dict(held=held, current=float(now), series=out)


# ------------------------------------------------------------------------------------------
# What matters most: one notch per input
# ------------------------------------------------------------------------------------------

FACTORS = ("model_size", "hardware", "precision", "distance", "prompt", "output", "concurrency")


@dataclass(frozen=True)
class Notch:
    factor: str
    low_value: Any          # the input one notch down (None at the edge or when it does not fit)
    high_value: Any
    low_s: float | None     # latency with that input; None where there is no such notch
    high_s: float | None

    @property
    def spread_s(self) -> float:
        vals = [v for v in (self.low_s, self.high_s) if v is not None]
        return (max(vals) - min(vals)) if len(vals) == 2 else 0.0


@dataclass(frozen=True)
class Tornado:
    base_s: float
    measure: str
    notches: list[Notch]     # largest effect first

    def effect(self, n: Notch) -> float:
        """How far one notch moves latency from now: the larger of its two changes, as the chart draws each bar from
        the current time. Not the spread between the two notches: where both moved the same way (70B on 'auto' for
        200 users: 100 s now, 0.35 s and 0.40 s a size down and up, each taking other devices) the spread, 0.05 s,
        ranked the input last and the summary said it "hardly changes the latency" (PM re-check 2026-12-05)."""
        vals = [v for v in (n.low_s, n.high_s) if v is not None]
        if not vals:
            return 0.0
        if not math.isfinite(self.base_s):
            return max(vals) - min(vals)
        return max(abs(v - self.base_s) for v in vals)


def _neighbours(seq: Sequence, value, key: Callable = lambda x: x) -> tuple[Any, Any]:
    """The items just below and just above `value` in `seq` (sorted by key)."""
    items = sorted(seq, key=key)
    v = key(value) if not isinstance(value, (int, float)) else value
    lower = [x for x in items if key(x) < v]
    higher = [x for x in items if key(x) > v]
    return (lower[-1] if lower else None), (higher[0] if higher else None)


def tornado(s: Scenario, catalog: Catalog, stops: Sequence[DistanceStop],
            hardware_ids: Sequence[str] | None = None) -> Tornado:
    """Move each input one notch down and up, all else as it is, and rank the inputs by how much the
    scenario's latency moves. Each notch is `scenario.evaluate` of the scenario with that one input
    changed (the headline's own evaluation, so the base is the headline's figure).

    Notches: the next model size and distance on the map's ladders, the next device by memory
    bandwidth among `hardware_ids` (the page's device filter; default the catalog; as many of it as the
    model needs), the next catalog precision by bytes per parameter, half / double the question and the
    answer, half / double the users on the same server."""
    key = MEASURE_KEY[s.measure]
    hw_entry = catalog.hardware[s.hardware_id]

    def lat(**changed) -> float | None:
        try:
            _, _, e = evaluate(s, catalog, **changed)
        except ValueError:
            return None
        return float(getattr(e, key)) if e.fits else None

    base = lat()
    notches = []
    lo, hi = _neighbours(size_rows(catalog, s.model_size_b), s.model_size_b)
    notches.append(_notch("model_size", lo, hi, lambda v: lat(model_size_b=v)))
    by_bw = lambda e: e.hardware.mem_bandwidth_gbs  # noqa: E731
    pool = [catalog.hardware[h] for h in (hardware_ids or catalog.hardware) if h != s.hardware_id]
    lo, hi = _neighbours(pool, hw_entry, key=by_bw)
    notches.append(_notch("hardware", lo and lo.id, hi and hi.id,
                          lambda v: lat(hardware=v, devices=scenario_mod.DEVICES_AUTO)))
    cur_p = catalog.precisions[s.precision_id]
    lo, hi = _neighbours([p for p in catalog.precisions.values() if p.bytes_per_param != cur_p.bytes_per_param],
                         cur_p, key=lambda p: p.bytes_per_param)
    notches.append(_notch("precision", lo and lo.id, hi and hi.id, lambda v: lat(precision=v)))
    lo, hi = _neighbours(distance_cols(stops, s.distance_km), s.distance_km)
    notches.append(_notch("distance", lo, hi, lambda v: lat(distance_km=v)))
    notches.append(_notch("prompt", max(1, s.prompt_tokens // 2) if s.prompt_tokens > 1 else None,
                          min(s.prompt_tokens * 2, scenario_mod.PROMPT_MAX), lambda v: lat(prompt_tokens=v)))
    notches.append(_notch("output", max(1, s.output_tokens // 2) if s.output_tokens > 1 else None,
                          min(s.output_tokens * 2, scenario_mod.OUTPUT_MAX), lambda v: lat(output_tokens=v)))
    notches.append(_notch("concurrency", s.concurrency // 2 if s.concurrency > 1 else None, s.concurrency * 2,
                          lambda u: lat(concurrency=u)))
    t = Tornado(base_s=base if base is not None else math.nan, measure=s.measure, notches=notches)
    notches.sort(key=lambda n: -t.effect(n))
    return t


def _notch(factor: str, low, high, fn: Callable[[Any], float | None]) -> Notch:
    low_s = fn(low) if low is not None else None
    high_s = fn(high) if high is not None else None
    return Notch(factor, low if low_s is not None else None, high if high_s is not None else None, low_s, high_s)


RATIO_SAID_MAX = 100.0
"""Past this the ratio is not said: the smaller effect is under 1% of the larger, and "hardware matters about
6,018x more than precision" (PM trial 2026-12-05: an A100 notch queueing 200 users to 170 s against 0.03 s)
reads as noise. The sentence then says the smaller input hardly changes the latency."""


def tornado_summary(t: Tornado, names: Mapping[str, str], templates: Mapping[str, str],
                    fmt_ratio: Callable[[float], str]) -> str:
    """One plain-language sentence from content templates:

    templates["ratio"]: "... {top} ... {bottom} ... {ratio} ..." (top matters ratio x more);
    templates["only"]: "... {top} ... {bottom} ..." (bottom's effect under 1/RATIO_SAID_MAX of top's: hardly any);
    templates["none"]: no input moves the latency (e.g. nothing fits)."""
    effects = [(n.factor, t.effect(n)) for n in t.notches]
    effects = [(f, e) for f, e in effects if math.isfinite(e)]
    if not effects or effects[0][1] <= 0:
        return templates["none"]
    top, top_e = effects[0]
    bottom, bottom_e = effects[-1]
    if bottom_e * RATIO_SAID_MAX < top_e:
        return templates["only"].format(top=names[top], bottom=names[bottom])
    return templates["ratio"].format(top=names[top], bottom=names[bottom], ratio=fmt_ratio(top_e / bottom_e))


# ------------------------------------------------------------------------------------------
# Export
# ------------------------------------------------------------------------------------------

EXPORT_LEAD = ("model_size_b", "precision", "bytes_per_param", "hardware_id", "users", "batch_per_server",
               "servers", "devices_per_server", "budget_s", "measure", "meets_budget", "price_usd_per_hour",
               "price_basis", "price_source", "price_date", "cost_usd_per_1k_answers", "cost_usd_per_1m_output_tokens")


def export_rows(s: Scenario, catalog: Catalog, prices: Mapping[str, float | None], grid: Grid) -> list[dict[str, Any]]:
    """One row per budget-map cell (model size x hardware): the plan's batch and server count
    from the map, and every latency, memory and range figure straight from `latency.estimate`
    (Estimate.as_dict()) for that cell's model (`row_model`), device and batch, with every other input
    as the map computes it (`fleet`)."""
    rows = []
    p = grid.plan
    s = fleet(s)
    base = scenario_model(s, catalog)
    own = own_models(s, catalog, grid.rows)
    for i, size in enumerate(grid.rows):
        model = own[i] or model_at_size(base, size)
        for j, hid in enumerate(grid.cols):
            entry = catalog.hardware[hid]
            b = int(p.batch[i, j])
            kw = {**scenario_mod.estimate_kwargs(entry.kind, values_of(s)),
                  "batch": b, "concurrent_users": b}  # the plan's users per server, in the page's pattern
            e = estimate(model, entry.hardware, distance_km=s.distance_km, **kw)
            price = prices.get(hid)
            fits = bool(p.fits[i, j])
            lead = dict(model_size_b=float(size), precision=s.precision_id, bytes_per_param=model.bytes_per_param,
                        hardware_id=hid, users=s.concurrency, batch_per_server=b,
                        servers=int(p.replicas[i, j]) if fits else None,
                        devices_per_server=int(p.devices[i, j]), budget_s=s.budget_s, measure=s.measure,
                        meets_budget=bool(p.meets[i, j]), price_usd_per_hour=price,
                        price_basis=entry.price_basis, price_source=entry.price_source, price_date=entry.price_date,
                        cost_usd_per_1k_answers=_num(p.cost_per_answer[i, j] * 1000),
                        cost_usd_per_1m_output_tokens=_num(p.cost_per_1m_tokens[i, j]))
            rows.append({**lead, **e.as_dict()})
    return rows


def _num(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


EXPORT_DIGITS = 4
"""Significant digits of every number in the CSV: the estimator's figures are model estimates
(ranges of tens of percent), so more digits would only suggest a precision they do not have."""


def _cell(v: Any) -> Any:
    """A CSV cell: empty for None, numbers to EXPORT_DIGITS significant digits (no float noise)."""
    if v is None:
        return ""
    if isinstance(v, (float, np.floating)):
        if not math.isfinite(v):
            return ""
        return np.format_float_positional(float(v), precision=EXPORT_DIGITS, unique=True, fractional=False, trim="-")
    return v


def export_csv(rows: Iterable[Mapping[str, Any]]) -> bytes:
    """CSV bytes (UTF-8 with BOM so spreadsheet apps read Korean device names correctly), numbers
    rounded to EXPORT_DIGITS significant digits."""
    import csv
    import io

    rows = list(rows)
    buf = io.StringIO()
    if rows:
        w = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow({k: _cell(v) for k, v in r.items()})
    return buf.getvalue().encode("utf-8-sig")


# ------------------------------------------------------------------------------------------
# Number formatting shared by the page and the charts (language-neutral digits)
# ------------------------------------------------------------------------------------------

def fmt_num(x: float, digits: int = 3) -> str:
    """A number with `digits` significant digits and thousands separators: 0.0123, 1.23, 1,230."""
    if x is None or not math.isfinite(x):
        return "–"
    if x == 0:
        return "0"
    mag = math.floor(math.log10(abs(x)))
    decimals = max(0, digits - 1 - mag)
    return f"{round(x, decimals):,.{decimals}f}"


def fmt_usd(x: float) -> str:
    """US$ with 2 significant digits below 1 cent, else cents: $0.0042, $1.23, $1,234."""
    if x is None or not math.isfinite(x):
        return "–"
    if abs(x) >= 100:
        return f"${x:,.0f}"
    if abs(x) >= 0.1:
        return f"${x:,.2f}"
    return "$" + fmt_num(x, 2)
