"""latency.exploring.tradeoffs: every number the trade-off page shows, checked against latency.estimate."""

from __future__ import annotations

import csv
import io
import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from latency.teaching import content
from latency import estimate
from latency.estimation import places, scenario, sizing
from latency.exploring import tradeoffs as T
from latency.charts import tradeoffs as C
from latency.estimation.catalog import load_catalog

CAT = load_catalog()
STOPS = places.load_stops()


def fmt_ratio(r: float) -> str:
    """A plain formatter for the summary sentence (the page's own lives in ui/tradeoff_inputs.py)."""
    return f"{r:.1f}" if r < 10 else f"{r:,.0f}"
PRICES = T.catalog_prices(CAT)
CASES = content.use_case_budgets("ko")  # the budgets are the same numbers in every language


def case_scenario(case, **kw) -> T.Scenario:
    return T.Scenario(budget_s=case.budget_s, measure=case.measure, **kw)


def page_model(s: T.Scenario, size: float, precision: str | None = None):
    """The model the estimator page builds for a size (the catalog's where the size is one)."""
    return sizing.sized_model(CAT, size, s.arch, CAT.precisions[precision or s.precision_id].bytes_per_param).model


def oracle(s: T.Scenario, **changed):
    """`latency.estimate` called directly with every input of the scenario (the expected values)."""
    v = dict(size=s.model_size_b, hardware=s.hardware_id, precision=s.precision_id, users=s.concurrency,
             prompt=s.prompt_tokens, output=s.output_tokens, distance=s.distance_km, devices=None)
    v.update(changed)
    return estimate(page_model(s, v["size"], v["precision"]), CAT.hardware[v["hardware"]].hardware,
                    prompt_tokens=v["prompt"] + s.document_tokens, output_tokens=v["output"], batch=1,
                    distance_km=v["distance"], access=s.access, connection=s.connection, concurrent_users=v["users"],
                    context_tokens=s.context_tokens, arrival=s.arrival, devices=v["devices"])


def cell_estimate(s: T.Scenario, size: float, hid: str, batch: int, distance_km: float | None = None):
    model = page_model(s, size)
    return estimate(model, CAT.hardware[hid].hardware, s.prompt_tokens, s.output_tokens, batch=batch,
                    distance_km=s.distance_km if distance_km is None else distance_km, concurrent_users=batch,
                    arrival=s.arrival)  # a plan's b users on one server, arriving as the page's users do


# --------------------------------------------------------------------------------------------
# Budget maps
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_every_map_cell_is_the_estimator_at_the_cells_plan(case):
    s = case_scenario(case, concurrency=40)
    grid = T.size_hardware_grid(s, CAT, PRICES)
    p = grid.plan
    key = T.MEASURE_KEY[s.measure]
    for i, size in enumerate(grid.rows):
        for j, hid in enumerate(grid.cols):
            e = cell_estimate(s, size, hid, int(p.batch[i, j]))
            assert bool(p.fits[i, j]) == (e.fits and p.max_batch[i, j] >= 1)
            if not p.fits[i, j]:
                assert math.isnan(grid.ratio[i, j])
                continue
            assert p.latency_s[i, j] == pytest.approx(getattr(e, key), rel=1e-9)
            assert p.devices[i, j] == e.devices_needed
            assert bool(p.meets[i, j]) == (getattr(e, key) <= s.budget_s)
            assert grid.ratio[i, j] == pytest.approx(getattr(e, key) / s.budget_s, rel=1e-9)
            assert p.replicas[i, j] == math.ceil(s.concurrency / p.batch[i, j])


@pytest.mark.parametrize("arch", ["moe", "looped"])
def test_other_architectures_scale_like_the_sweep(arch):
    s = T.Scenario(arch=arch, model_size_b=235.0, concurrency=16, budget_s=5.0)
    grid = T.size_hardware_grid(s, CAT, PRICES, ["h100-sxm", "mi300x"])
    p = grid.plan
    assert T.scenario_model(s, CAT).arch == arch
    for i, size in enumerate(grid.rows):
        for j, hid in enumerate(grid.cols):
            if p.fits[i, j]:
                e = cell_estimate(s, size, hid, int(p.batch[i, j]))
                assert p.total_s[i, j] == pytest.approx(e.total_s, rel=1e-9)


def test_each_cell_uses_the_largest_batch_that_still_meets_the_budget():
    """The map asked 25 servers of 2 users where 3 a server meet (PM re-check 2026-12-05): every whole number
    below 16 a server is tried, then steps of 2^(1/8)."""
    s = T.Scenario(model_size_b=8.03, budget_s=5.0, measure="total", concurrency=1000)
    grid = T.size_hardware_grid(s, CAT, PRICES)
    p = grid.plan
    checked = small = 0
    for i, size in enumerate(grid.rows):
        for j, hid in enumerate(grid.cols):
            if not p.meets[i, j]:
                continue
            b = int(p.batch[i, j])
            cap = min(s.concurrency, int(p.max_batch[i, j]))
            if b < cap:  # one more user a server misses the budget (below 16 a server; 2^(1/8) more above)
                nxt = min(b + 1 if b < 16 else math.ceil(b * 2 ** (1 / 8)) + 1, cap)
                assert cell_estimate(s, size, hid, nxt).total_s > s.budget_s, (size, hid, b)
                checked += 1
                small += b < 16 and b & (b - 1) != 0  # no power of two
    assert checked > 0 and small > 0  # some cells hold a user count that is no power of two


def test_max_batch_is_what_memory_holds_on_every_engine():
    """The burst chart's knee (all users at once) is the estimator's own KV-cache capacity on every device,
    llama.cpp's parallel slots included: the estimate runs that many together (`running_batch`), so a chart
    that served local runners one at a time gave another figure than the headline (steady use: below)."""
    s = T.Scenario(model_size_b=70.6, concurrency=10, arrival="burst")
    kinds = set()
    for hid, entry in CAT.hardware.items():
        curve = T.concurrency_curve(replace(s, hardware_id=hid), CAT)
        if not curve.fits:
            continue
        # what memory holds is the estimator's own KV-cache capacity, as the engine spends memory (decision 5)
        model = T.scenario_model(s, CAT)
        one = estimate(model, entry.hardware, s.prompt_tokens, s.output_tokens, distance_km=s.distance_km)
        assert curve.max_batch == one.max_concurrent_requests, hid
        assert one.devices_needed == curve.devices
        kinds.add(one.engine)
    assert {"optimized", "llama.cpp"} <= kinds, kinds


def test_steady_curve_knee_is_where_running_requests_stop_growing_and_the_wait_climbs_after():
    """Steady use (issue 24): up to the knee every user runs; past it the server's request rate X is
    fixed, so by Little's law each extra user adds 1 / X seconds to the first token's wait."""
    s = T.Scenario(model_size_b=70.6, concurrency=10, prompt_tokens=5000, output_tokens=500)
    curve = T.concurrency_curve(s, CAT)
    model = T.scenario_model(s, CAT)
    hw = CAT.hardware[s.hardware_id].hardware
    kw = dict(distance_km=s.distance_km, devices=curve.devices)
    many = estimate(model, hw, s.prompt_tokens, s.output_tokens, concurrent_users=10 * curve.max_batch, **kw)
    assert curve.max_batch == many.running_batch > 1
    at = estimate(model, hw, s.prompt_tokens, s.output_tokens, concurrent_users=curve.max_batch, **kw)
    past = estimate(model, hw, s.prompt_tokens, s.output_tokens, concurrent_users=curve.max_batch + 10, **kw)
    x = at.server_tokens_per_s / s.output_tokens
    assert past.ttft_s - at.ttft_s == pytest.approx(10 / x, rel=0.02)
    below = estimate(model, hw, s.prompt_tokens, s.output_tokens, concurrent_users=curve.max_batch // 2, **kw)
    assert at.ttft_s - below.ttft_s < 10 / x  # slow rise below the knee, a cliff after it
    i = int(np.searchsorted(curve.users, curve.max_batch))
    assert curve.throughput_tokens_per_s[i] == pytest.approx(at.server_tokens_per_s, rel=1e-6)


def test_cost_follows_servers_devices_price_and_service_time():
    s = T.Scenario(model_size_b=8.03, concurrency=25, budget_s=3.0)
    grid = T.size_hardware_grid(s, CAT, PRICES)
    i = grid.rows.index(8.03)
    for j, hid in enumerate(grid.cols):
        p = grid.plan
        if not p.fits[i, j]:
            continue
        e = cell_estimate(s, 8.03, hid, int(p.batch[i, j]))
        service = e.breakdown["prefill"] + e.breakdown["decode"]
        want = p.replicas[i, j] * p.devices[i, j] * PRICES[hid] * service / (3600 * s.concurrency)
        assert p.cost_per_answer[i, j] == pytest.approx(want, rel=1e-9)
        assert p.cost_per_1m_tokens[i, j] == pytest.approx(want / s.output_tokens * 1e6, rel=1e-9)


def test_cheapest_marks_are_the_cheapest_cells_that_meet_the_budget_and_follow_prices():
    s = T.Scenario(model_size_b=70.6, budget_s=10.0, measure="total", concurrency=50)
    grid = T.size_hardware_grid(s, CAT, PRICES)
    p = grid.plan
    ok = p.meets & np.isfinite(p.cost_per_answer)
    # "meets" counts only what meets across its range (issue 31 item 3): the range's high end within the budget
    safe = np.zeros(ok.shape, dtype=bool)
    for i, j in zip(*np.nonzero(ok)):
        e = cell_estimate(s, grid.rows[i], grid.cols[j], int(p.batch[i, j]))
        safe[i, j] = e.ranges["total_s"][1] <= s.budget_s
    assert grid.cheapest is not None and safe[grid.cheapest]
    assert p.cost_per_answer[grid.cheapest] == pytest.approx(np.min(p.cost_per_answer[safe]))
    if grid.borderline is not None:  # cheaper, meets at its estimate only
        assert ok[grid.borderline] and not safe[grid.borderline]
        assert p.cost_per_answer[grid.borderline] == pytest.approx(np.min(p.cost_per_answer[ok]))
    else:
        assert np.min(p.cost_per_answer[ok]) == pytest.approx(np.min(p.cost_per_answer[safe]))
    i = grid.rows.index(70.6)
    if grid.row_cheapest is None:
        assert not safe[i].any()
    else:
        assert grid.row_cheapest[0] == i
        assert p.cost_per_answer[grid.row_cheapest] == pytest.approx(np.min(p.cost_per_answer[i][safe[i]]))
    # Making the cheapest device 100x dearer moves the mark to another device.
    hid = grid.cols[grid.cheapest[1]]
    prices, notices = T.resolve_prices(CAT, {hid: str(PRICES[hid] * 100)})
    assert not notices
    again = T.size_hardware_grid(s, CAT, prices)
    assert again.cheapest is not None and again.cols[again.cheapest[1]] != hid


def test_no_cheapest_mark_when_nothing_meets_the_budget():
    s = T.Scenario(budget_s=0.05, measure="total", output_tokens=4096)
    grid = T.size_hardware_grid(s, CAT, PRICES)
    assert not grid.plan.meets.any()
    assert grid.cheapest is None and grid.row_cheapest is None


def test_distance_map_adds_only_network_time_and_marks_the_current_cell():
    s = T.Scenario(budget_s=1.0, measure="ttft", concurrency=1)
    grid = T.size_distance_grid(s, CAT, PRICES, STOPS)
    assert grid.rows[grid.current[0]] == s.model_size_b and grid.cols[grid.current[1]] == s.distance_km
    assert {st.km for st in STOPS} <= set(grid.cols)
    i = grid.rows.index(s.model_size_b)
    lat = grid.plan.latency_s[i]
    assert np.all(np.diff(lat) >= -1e-12)  # farther never faster
    for j, km in enumerate(grid.cols):
        e = cell_estimate(s, s.model_size_b, s.hardware_id, int(grid.plan.batch[i, j]), distance_km=km)
        assert lat[j] == pytest.approx(e.ttft_s, rel=1e-9)


def test_grid_axes_are_slider_steps_and_lean():
    steps = sizing.size_steps(CAT)
    for size in (0.5, 8.03, 39.8, 2000.0):
        rows = T.size_rows(CAT, size)
        assert size in rows and set(rows) <= set(steps) and len(rows) <= 15
    cols = T.distance_cols(STOPS, 4672.0)
    assert set(cols) <= set(places.distance_steps(STOPS)) and len(cols) <= 15


# --------------------------------------------------------------------------------------------
# Concurrency
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("hid", ["h100-sxm", "l4"])
def test_concurrency_curve_trades_per_user_speed_for_throughput_then_queues(hid):
    s = T.Scenario(hardware_id=hid, concurrency=30)
    c = T.concurrency_curve(s, CAT, model=page_model(s, s.model_size_b))  # as the page passes it
    assert c.fits and c.max_batch > 1
    inside = c.users <= c.max_batch
    assert np.all(np.diff(c.per_user_tokens_per_s[inside]) <= 1e-9)
    assert np.all(np.diff(c.throughput_tokens_per_s[inside]) >= -1e-9)
    assert np.all(c.throughput_tokens_per_s <= c.peak_throughput * (1 + 1e-9))
    k = int(np.searchsorted(c.users, c.plateau_users))
    assert c.throughput_tokens_per_s[k] >= T.PLATEAU_SHARE * c.peak_throughput
    assert c.plateau_users <= c.max_batch
    beyond = c.users > c.max_batch
    assert beyond.any(), "the x range reaches past the point where queueing starts"
    assert np.all(np.diff(c.ttft_s[beyond]) > 0)
    # The current point is the estimator at that load, as the headline computes it (the estimator decides
    # how many of the 30 run together)
    e = oracle(s, users=30)
    assert c.current["ttft_s"] == pytest.approx(e.ttft_s, rel=1e-9)
    assert c.current["per_user_tokens_per_s"] == pytest.approx(e.decode_tokens_per_s, rel=1e-9)
    more = T.concurrency_curve(replace(s, concurrency=300), CAT, model=page_model(s, s.model_size_b))
    assert more.current["per_user_tokens_per_s"] < c.current["per_user_tokens_per_s"]


def test_concurrency_curve_when_the_model_does_not_fit():
    c = T.concurrency_curve(T.Scenario(model_size_b=2000.0, hardware_id="apple-a17-pro"), CAT)
    assert not c.fits and c.users.size == 0


# --------------------------------------------------------------------------------------------
# Pareto front
# --------------------------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(hs.lists(hs.tuples(hs.floats(0.001, 1000), hs.floats(0.01, 100)), min_size=1, max_size=20))
def test_pareto_front_is_exactly_the_undominated_points(points):
    cost = [c for c, _ in points]
    lat = [t for _, t in points]
    front = T.pareto_front(cost, lat)
    dominated = lambda i: any(  # noqa: E731
        (cost[j] <= cost[i] and lat[j] <= lat[i]) and (cost[j] < cost[i] or lat[j] < lat[i]) for j in range(len(points)))
    for i in range(len(points)):
        if i in front:
            assert not dominated(i)
        elif not dominated(i):  # an exact duplicate of a front point
            assert any(cost[j] == cost[i] and lat[j] == lat[i] for j in front)
    assert [cost[i] for i in front] == sorted(cost[i] for i in front)


def test_pareto_front_ignores_missing_values():
    assert T.pareto_front([1.0, math.nan, 2.0], [2.0, 0.1, 1.0]) == [0, 2]


# --------------------------------------------------------------------------------------------
# Memory and precision
# --------------------------------------------------------------------------------------------

def test_precision_rows_are_the_estimator_for_each_catalog_precision():
    s = T.Scenario(model_size_b=70.6, hardware_id="h100-sxm", concurrency=4, document_tokens=3000, context_tokens=2000)
    rows = T.precision_rows(s, CAT)
    assert {r.precision_id for r in rows} == set(CAT.precisions)
    assert [r.bytes_per_param for r in rows] == sorted((r.bytes_per_param for r in rows), reverse=True)
    for r in rows:  # the scenario with only its precision changed: the same users, document, conversation
        e = oracle(s, precision=r.precision_id)
        assert (r.memory_gb, r.devices_needed, r.fits) == (pytest.approx(e.memory_gb), e.devices_needed, e.fits)
        assert r.tokens_per_s == pytest.approx(e.decode_tokens_per_s)
    fp16 = next(r for r in rows if r.precision_id == "fp16")
    q4 = next(r for r in rows if r.precision_id == "q4_k_m")
    assert q4.memory_vs_fp16 < 0.5 and fp16.memory_vs_fp16 == 1
    # 70B in FP16 is split over several H100s (so it is fast); INT4 fits on fewer: it buys devices, not speed.
    assert fp16.devices_needed > q4.devices_needed
    assert T.differing_devices(rows)  # the page then names the GPU counts beside the table
    small = {r.precision_id: r for r in T.precision_rows(replace(s, model_size_b=8.03), CAT)}
    assert small["q4_k_m"].speed_vs_fp16 > 1 and small["q4_k_m"].devices_needed == small["fp16"].devices_needed
    assert not T.differing_devices(list(small.values()))
    # A device count the user fixed holds for every row
    fixed = T.precision_rows(replace(s, devices=4), CAT)
    assert {r.devices_needed for r in fixed if r.fits} == {4}


def test_memory_grows_with_context_and_bytes():
    s = T.Scenario(model_size_b=8.03, concurrency=8, document_tokens=1500)
    mem = T.memory_by_context(s, CAT)
    held = mem["held"]
    request = s.prompt_tokens + s.document_tokens + s.output_tokens
    assert held[0] == request and mem["current"] == request  # no earlier turns: the request itself
    assert set(T.CONTEXT_STEPS) - set(held) == {c for c in T.CONTEXT_STEPS if c < request}
    for series in mem["series"].values():
        assert len(series) == len(held) and np.all(np.diff(series) > 0)
    order = sorted(CAT.precisions, key=lambda p: -CAT.precisions[p].bytes_per_param)
    assert list(mem["series"]) == order
    assert mem["series"]["fp16"][0] > mem["series"]["q4_k_m"][0]
    # The scenario's own point is the estimate's memory (the headline's)
    for pid, series in mem["series"].items():
        assert series[list(held).index(mem["current"])] == pytest.approx(oracle(s, precision=pid).memory_gb)


# --------------------------------------------------------------------------------------------
# What matters most
# --------------------------------------------------------------------------------------------

NAMES = {f: f.upper() for f in T.FACTORS}
TEMPLATES = dict(ratio="{top}>{bottom} x{ratio}", only="only {top}; not {bottom}", none="none")


def test_tornado_notches_are_direct_estimates_ranked_by_effect():
    s = T.Scenario(model_size_b=8.03, concurrency=8, budget_s=2.0, measure="total")
    t = T.tornado(s, CAT, STOPS)
    assert {n.factor for n in t.notches} == set(T.FACTORS)
    effects = [t.effect(n) for n in t.notches]
    assert effects == sorted(effects, reverse=True)
    assert t.base_s == pytest.approx(oracle(s).total_s)  # the headline's own figure
    out = next(n for n in t.notches if n.factor == "output")
    assert (out.low_value, out.high_value) == (128, 512)
    assert out.high_s == pytest.approx(oracle(s, output=512).total_s)
    size = next(n for n in t.notches if n.factor == "model_size")
    rows = T.size_rows(CAT, s.model_size_b)
    k = rows.index(s.model_size_b)
    assert (size.low_value, size.high_value) == (rows[k - 1], rows[k + 1])
    dist = next(n for n in t.notches if n.factor == "distance")
    assert dist.high_s > t.base_s > dist.low_s
    # The sentence names the biggest and the smallest effect with their ratio.
    top, bottom = t.notches[0], t.notches[-1]
    text = T.tornado_summary(t, NAMES, TEMPLATES, fmt_ratio)
    ratio = t.effect(top) / t.effect(bottom)
    assert text == (f"{top.factor.upper()}>{bottom.factor.upper()} x{fmt_ratio(ratio)}" if ratio <= 100
                    else f"only {top.factor.upper()}; not {bottom.factor.upper()}")  # past 100 the ratio is not said


def test_tornado_users_double_on_the_same_servers():
    s = T.Scenario(model_size_b=8.03, concurrency=10)
    t = T.tornado(s, CAT, STOPS)
    users = next(n for n in t.notches if n.factor == "concurrency")
    assert (users.low_value, users.high_value) == (5, 20)
    assert users.high_s == pytest.approx(oracle(s, users=20).total_s)
    # the device notch stays inside the page's device filter
    cloud = T.map_hardware(CAT, "cloud", s.hardware_id)
    hw = next(n for n in T.tornado(s, CAT, STOPS, cloud).notches if n.factor == "hardware")
    assert {hw.low_value, hw.high_value} - {None} <= set(cloud)


def test_a_notch_moving_latency_far_the_same_way_both_sides_ranks_above_a_small_swing():
    """Effect is the larger change from now, as each bar is drawn from now: a size down and up both moving 100 s to
    about 0.4 s outranks an answer length that moves it by 0.05 s either way (PM re-check 2026-12-05: the spread of
    the first, 0.05 s, had ranked it last and 'hardly changing the latency')."""
    t = T.Tornado(base_s=100.0, measure="ttft", notches=[T.Notch("model_size", 51, 100, 0.347, 0.398),
                                                         T.Notch("output", 128, 512, 99.95, 100.05)])
    assert t.effect(t.notches[0]) == pytest.approx(100.0 - 0.347)
    assert t.effect(t.notches[1]) == pytest.approx(0.05)
    assert T.tornado_summary(t, NAMES, TEMPLATES, fmt_ratio) == "only MODEL_SIZE; not OUTPUT"


def test_tornado_summary_templates_for_edge_cases():
    t = T.Tornado(base_s=1.0, measure="total", notches=[T.Notch("output", 1, 2, 0.5, 2.0),
                                                          T.Notch("distance", 0, 10, 1.0, 1.0)])
    assert T.tornado_summary(t, NAMES, TEMPLATES, fmt_ratio) == "only OUTPUT; not DISTANCE"
    # a ratio past 100 is not said (PM trial: "about 6,018x"); at 100 it still is
    t = T.Tornado(base_s=1.0, measure="total", notches=[T.Notch("output", 1, 2, 1.0, 171.0),
                                                        T.Notch("distance", 0, 10, 1.0, 1.0 + 170.0 / 6018)])
    assert T.tornado_summary(t, NAMES, TEMPLATES, fmt_ratio) == "only OUTPUT; not DISTANCE"
    t = T.Tornado(base_s=1.0, measure="total", notches=[T.Notch("output", 1, 2, 1.0, 101.0),
                                                        T.Notch("distance", 0, 10, 1.0, 2.0)])
    assert T.tornado_summary(t, NAMES, TEMPLATES, fmt_ratio) == f"OUTPUT>DISTANCE x{fmt_ratio(100.0)}"
    t = T.Tornado(base_s=math.nan, measure="total", notches=[T.Notch("output", None, None, None, None)])
    assert T.tornado_summary(t, NAMES, TEMPLATES, fmt_ratio) == "none"


# --------------------------------------------------------------------------------------------
# Prices
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("raw,value,reason", [
    ("2.5", 2.5, None), ("$3", 3.0, None), (" 1,000 ", 1000.0, None), (4, 4.0, None),
    ("", None, "empty"), (None, None, "empty"), (float("nan"), None, "empty"), ("abc", None, "not_a_number"),
    ("inf", None, "not_a_number"), ("-1", None, "negative"), ("0", None, "zero"), ("1000.5", None, "too_high"),
])
def test_parse_price(raw, value, reason):
    assert T.parse_price(raw) == (value, reason)


def test_bad_price_edits_fall_back_to_the_catalog_and_are_named():
    edits = {"h100-sxm": "-2", "l4": "abc", "b200": "", "mi300x": "1.25", "not-a-device": "3"}
    prices, notices = T.resolve_prices(CAT, edits)
    assert prices["h100-sxm"] == CAT.hardware["h100-sxm"].price_usd_per_hour
    assert prices["l4"] == CAT.hardware["l4"].price_usd_per_hour
    assert prices["mi300x"] == 1.25
    assert {(n.device_id, n.reason, n.fallback) for n in notices} == {
        ("h100-sxm", "negative", CAT.hardware["h100-sxm"].price_usd_per_hour),
        ("l4", "not_a_number", CAT.hardware["l4"].price_usd_per_hour),
        ("b200", "empty", CAT.hardware["b200"].price_usd_per_hour)}


def test_every_catalog_device_has_a_dated_sourced_price():
    for hid, e in CAT.hardware.items():
        assert e.price_usd_per_hour and e.price_source and e.price_date and e.price_basis, hid


# --------------------------------------------------------------------------------------------
# Export
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("case", CASES[:2] + CASES[-1:], ids=lambda c: c.id)
def test_export_rows_are_latency_estimate_values(case):
    s = case_scenario(case, concurrency=20, precision_id="q4_k_m")
    grid = T.size_hardware_grid(s, CAT, PRICES, scenario.ordered_hardware(CAT))
    rows = T.export_rows(s, CAT, PRICES, grid)
    assert len(rows) == len(grid.rows) * len(grid.cols)
    est_keys = list(cell_estimate(s, 8.03, "h100-sxm", 1).as_dict())
    assert list(rows[0]) == list(T.EXPORT_LEAD) + est_keys
    for row in rows:
        e = cell_estimate(s, row["model_size_b"], row["hardware_id"], row["batch_per_server"])
        assert {k: row[k] for k in est_keys} == e.as_dict()
        i, j = grid.rows.index(row["model_size_b"]), grid.cols.index(row["hardware_id"])
        assert row["meets_budget"] == bool(grid.plan.meets[i, j])
        assert row["price_usd_per_hour"] == PRICES[row["hardware_id"]]
        assert row["measure"] == case.measure and row["budget_s"] == case.budget_s


def test_export_csv_rounds_to_four_significant_digits():
    s = T.Scenario(concurrency=5)
    grid = T.size_hardware_grid(s, CAT, PRICES, ["h100-sxm", "rtx-4090"])
    rows = T.export_rows(s, CAT, PRICES, grid)
    data = T.export_csv(rows)
    assert data.startswith("\ufeff".encode())  # BOM: spreadsheets read Korean names correctly
    back = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
    assert len(back) == len(rows) and list(back[0]) == list(rows[0])
    for row, got in zip(rows, back):
        for k in ("ttft_s", "total_s", "memory_gb", "throughput_tokens_per_s", "cost_usd_per_1k_answers"):
            if row[k] is None:
                assert got[k] == ""
                continue
            assert float(got[k]) == pytest.approx(row[k], rel=5e-4)  # rounded to 4 significant digits
            digits = got[k].replace(".", "").replace("-", "").lstrip("0").rstrip("0")
            assert len(digits) <= 4 and "e" not in got[k], (k, got[k])  # no float noise like 0.30000000000000004
        assert got["hardware"] == row["hardware"] and got["fits"] == str(row["fits"])


# --------------------------------------------------------------------------------------------
# Input validation and formats
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kw", [dict(measure="speed"), dict(budget_s=0.0), dict(budget_s=math.nan),
                                dict(concurrency=0), dict(output_tokens=2.5), dict(distance_km=-1.0)])
def test_scenario_rejects_nonsense_with_the_field_name(kw):
    with pytest.raises(ValueError, match=next(iter(kw))):
        T.Scenario(**kw)


def test_number_formats():
    assert [T.fmt_num(x) for x in (0.012345, 1.2345, 1234.6, 0.0, math.nan)] == ["0.0123", "1.23", "1,235", "0", "–"]
    assert [T.fmt_usd(x) for x in (0.0042, 0.5, 12.345, 1234.0, math.inf)] == ["$0.0042", "$0.50", "$12.35", "$1,234", "–"]


def test_the_map_does_not_depend_on_which_device_is_current_but_marks_it():
    """The map's columns are cached across current devices (tradeoffs._plan_column): picking another
    device gives the same cells, computed here by plan_grid directly, with the mark moved."""
    catalog = load_catalog()
    a = T.Scenario(hardware_id="h100-sxm")
    b = replace(a, hardware_id="a100-80gb-sxm" if "a100-80gb-sxm" in catalog.hardware else next(iter(catalog.hardware)))
    prices = T.catalog_prices(catalog)
    hids = [a.hardware_id, b.hardware_id]
    ga, gb = (T.size_hardware_grid(s, catalog, prices, hids) for s in (a, b))
    for j, h in enumerate(hids):  # each row with the model the estimator page builds for its size
        direct = [float(T.plan_grid(page_model(a, size), catalog.hardware[h].hardware, a, prices.get(h)).latency_s)
                  for size in ga.rows]
        np.testing.assert_allclose(ga.plan.latency_s[:, j], direct)
        np.testing.assert_allclose(gb.plan.latency_s[:, j], direct)
    assert ga.current[1] == 0 and gb.current[1] == 1


def test_every_map_cell_answers_the_hover_with_its_own_text_grey_ones_included():
    """The map on top answers the hover on every cell (plotly hovers a heatmap's empty cells too):
    its texts must cover the cells that do not fit; the grey layer under it only colours."""
    from latency.charts import tradeoffs as CT

    ratio = np.array([[0.5, np.nan], [2.0, 8.0]])
    hover = [["a fits", "b does not fit"], ["c fits", "d fits"]]
    spec = CT.budget_heatmap_spec(ratio, x_labels=["x1", "x2"], y_labels=["y1", "y2"], hover=hover, marks=[],
                                  names=dict(x_title="x", colorbar="ratio", nofit="no fit"))
    top = next(t for t in spec["data"] if "colorbar" in t)
    assert np.asarray(top["customdata"]).tolist() == hover and "%{customdata}" in top["hovertemplate"]
    grey = [t for t in spec["data"] if t is not top and t["type"] == "heatmap"]
    assert len(grey) == 1 and grey[0]["hoverinfo"] == "skip"
    assert spec["data"].index(grey[0]) < spec["data"].index(top), "the grey layer is drawn under the map"


def test_the_budget_map_never_slants_its_size_labels():
    """14 model sizes stand 14 px apart on a phone, where plotly's automatic 30-degree slant ran
    the labels into each other (CI, tradeoffs-phone-ko): level or upright only, and with many
    columns a font small enough for upright labels 14 px apart."""
    from latency.charts import tradeoffs as CT

    def xaxis(cols: int) -> dict:
        spec = CT.budget_heatmap_spec(np.ones((2, cols)), x_labels=[f"{i}B" for i in range(cols)], y_labels=["a", "b"],
                                      hover=[["h"] * cols] * 2, marks=[], names=dict(x_title="x", colorbar="r", nofit="n"))
        return spec["layout"]["xaxis"]

    for cols in (5, 14):
        assert set(xaxis(cols)["autotickangles"]) <= {0, 90}
    assert xaxis(14)["tickfont"]["size"] <= 11


@pytest.mark.parametrize("which", ["hardware", "distance"])
def test_a_map_cell_is_marked_meeting_only_when_its_whole_range_meets_the_budget(which):
    """PM trial item 6: the map's ✓ follows the headline's and the estimator's rule (the slow end of the cell's
    range within the budget); a cell under the budget only at its estimate is borderline (△), as the estimator
    calls 30B on an H100 at a 0.2 s first-token budget. Expected marks from latency.estimate per cell."""
    s = T.Scenario(budget_s=0.2, measure="ttft")
    grid = (T.size_hardware_grid(s, CAT, PRICES) if which == "hardware"
            else T.size_distance_grid(s, CAT, PRICES, STOPS))
    p = grid.plan
    spec = C.budget_heatmap_spec(grid.ratio.T, x_labels=[str(r) for r in grid.rows], y_labels=[str(c) for c in grid.cols],
                                 hover=np.full(grid.ratio.T.shape, ""), marks=[], names=dict(x_title="", colorbar="", nofit=""),
                                 safe=grid.safe.T)
    drawn = np.asarray(spec["data"][-1]["text"], dtype=object).T
    seen = set()
    for i, j in np.ndindex(p.latency_s.shape):
        if not p.fits[i, j]:
            assert drawn[i, j] == ""
            continue
        hid, dist = (grid.cols[j], None) if which == "hardware" else (s.hardware_id, float(grid.cols[j]))
        e = cell_estimate(s, grid.rows[i], hid, int(p.batch[i, j]), dist)
        low_end_ok, high_ok = e.ttft_s <= s.budget_s, e.ranges["ttft_s"][1] <= s.budget_s
        want = C.CELL_MEETS if high_ok else (C.CELL_BORDERLINE if low_end_ok else C.CELL_MISSES)
        assert drawn[i, j] == want, (grid.rows[i], grid.cols[j], e.ttft_s, e.ranges["ttft_s"])
        seen.add(want)
    assert {C.CELL_BORDERLINE, C.CELL_MISSES} <= seen, "the scenario shows borderline cells"
    if which == "hardware":
        assert C.CELL_MEETS in seen
        at = (grid.rows.index(30.0), grid.cols.index("h100-sxm"))
        assert drawn[at] == C.CELL_BORDERLINE  # the trial's "✓ 0.19 s (1x the budget)"
