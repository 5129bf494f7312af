"""latency.exploring.launch and .levers: every figure of the launch check against `latency.estimate`
called directly (the expected values are worked out here from the estimator's own outputs and the
documented formulas, never through scenario.evaluate or the launch module), and the properties the
check relies on (the wait never falls as users are added, so a bisection over users is sound)."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from latency import estimate
from latency.estimation import places, scenario, sizing
from latency.estimation.catalog import load_catalog
from latency.exploring import explorer, launch, levers
from latency.language import formats

CAT = load_catalog()
DATA = explorer.load("en")
PLACES = places.load_places()
DEFAULT = dict(DATA.default)
DEVICE_CHOICES = [d for d in DATA.device_choices if d != scenario.DEVICES_AUTO]
PRICED = [h for h, e in CAT.hardware.items() if e.price_usd_per_hour is not None]


def direct(values: dict, users: int | None = None):
    """latency.estimate of a set-up, its inputs worked out here from the scenario values."""
    bpp = CAT.precisions[values["precision"]].bytes_per_param
    model = sizing.sized_model(CAT, float(values["model_size_b"]), values["arch"], bpp).model
    hw = CAT.hardware[values["hardware"]].hardware
    read = int(values["prompt_tokens"]) + int(values["document_tokens"])
    cached = 0
    if values.get("prefix_cache") == "on":
        cached = min(int(round(values["prefix_share"] * read)), read - 1)
    kw = {}
    if int(values.get("spec_tokens", 0) or 0):
        kw = dict(spec_tokens=int(values["spec_tokens"]), spec_accept=float(values["spec_accept"]))
    return estimate(model, hw, prompt_tokens=read - cached, output_tokens=int(values["output_tokens"]),
                    distance_km=float(values["distance_km"]), engine=None if values["engine"] == "auto" else values["engine"],
                    access=values["access"], connection=values["connection"],
                    concurrent_users=int(values["concurrency"] if users is None else users),
                    context_tokens=int(values["context_tokens"]) + cached, arrival=values["arrival"],
                    devices=None if values["devices"] == "auto" else int(values["devices"]), **kw)


def within(est, values) -> bool:
    """The pass rule worked out here: the target's figure's range, as printed, at most the target."""
    key = "ttft_s" if values["measure"] == "ttft" else "total_s"
    return est.fits and formats.seconds_value(est.ranges[key][1]) <= values["budget_s"]


def p95_high(values: dict, users: int | None = None) -> float:
    """The high end of the target's figure for 95% of users, worked out here from latency.estimate: the
    first token's mean delay from other users (first token less one user's) stretched to its 95th
    percentile (x ln 20 in steady use, x 1.9 in a burst on a serving engine), the range scaled alike; the
    whole answer gets the same added delay at the range's top."""
    e, alone = direct(values, users), direct(values, users=1)
    n = int(values["concurrency"] if users is None else users)
    delay = max(e.ttft_s - alone.ttft_s, 0.0)
    if n <= 1 or delay <= 0 or (values["arrival"] == "burst" and e.engine != "optimized"):
        factor = 1.0
    else:
        factor = math.log(20) if values["arrival"] == "steady" else 1.9
    p95 = e.ttft_s + (factor - 1.0) * delay
    hi = e.ranges["ttft_s"][1]
    p_hi = hi * p95 / e.ttft_s
    return p_hi if values["measure"] == "ttft" else e.ranges["total_s"][1] + (p_hi - hi)


def passes_rule(values: dict, users: int | None = None) -> bool:
    """The page's pass rule, worked out here: the 95%-of-users figure's range, as printed, within the target
    (and the typical figure's range: implied, but checked too)."""
    e = direct(values, users)
    return within(e, values) and formats.seconds_value(p95_high(values, users)) <= values["budget_s"]


def random_setups(n: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        users, server = rng.choice(PLACES), rng.choice(PLACES)
        v = dict(DEFAULT, model_size_b=rng.choice([s for s in DATA.sizes if s <= 200]), hardware=rng.choice(PRICED),
                 precision=rng.choice(list(CAT.precisions)), arch=rng.choice(["dense", "dense", "moe"]),
                 devices=rng.choice(["auto", "auto", 1, 2, 4, 8]), concurrency=rng.choice([1, 1, 4, 16, 50, 200]),
                 arrival=rng.choice(["steady", "steady", "burst"]), prompt_tokens=rng.choice([64, 512, 5000]),
                 document_tokens=rng.choice([0, 0, 8000, 60000]), output_tokens=rng.choice([16, 256, 1000]),
                 context_tokens=rng.choice([0, 0, 4096]), budget_s=rng.choice([0.2, 0.5, 1.0, 3.0, 30.0]),
                 measure=rng.choice(["ttft", "total"]), connection=rng.choice(["warm", "cold"]),
                 users_place=users.id, server_place=server.id, distance_km=places.place_distance_km(users, server),
                 requests_per_day=rng.choice([0, 1000, 100000, 5_000_000]), monthly_budget_usd=rng.choice([0, 0, 5000]),
                 prefix_share=rng.choice([0.0, 0.5, 0.9]), prefix_cache=rng.choice(["off", "on"]),
                 spec_tokens=rng.choice([0, 0, 0, 4]), spec_accept=rng.choice([0.6, 0.8]))
        try:
            direct(v)
        except ValueError:
            continue  # a combination the estimator refuses (an engine that does not run there)
        out.append(v)
    return out


SETUPS = random_setups(60, seed=33) + [dict(p.values) for p in DATA.presets]


@pytest.mark.parametrize("i", range(len(SETUPS)))
def test_every_figure_is_the_estimators(i):
    v = SETUPS[i]
    c = launch.check(CAT, v, search_users=False)
    e = direct(v)
    assert c.fits == e.fits
    assert c.ttft_s == pytest.approx(e.ttft_s, rel=1e-12)
    assert c.total_s == pytest.approx(e.total_s, rel=1e-12)
    assert c.tps_user == pytest.approx(e.decode_tokens_per_s, rel=1e-12)
    assert c.ttft_range == pytest.approx(e.ranges["ttft_s"], rel=1e-12)
    assert c.devices_per_server == e.devices_needed
    assert c.calibrated == e.calibrated
    # the 95th percentile: the typical wait with the wait for others stretched to its 95th percentile
    alone = direct(v, users=1)
    wait = max(e.ttft_s - alone.ttft_s, 0.0)
    users = int(v["concurrency"])
    if users <= 1 or wait <= 0 or (v["arrival"] == "burst" and e.engine != "optimized"):
        factor = 1.0
    else:
        factor = math.log(20) if v["arrival"] == "steady" else 1.9
    assert c.p95_ttft_s == pytest.approx(e.ttft_s + (factor - 1.0) * wait, rel=1e-9, abs=1e-12)
    assert c.p95_ttft_s >= c.ttft_s
    # pass or fail: the typical figure's verdict, and the pass rule on the 95%-of-users figure
    assert (c.verdict is not None and c.verdict.kind == "within") == within(e, v)
    if e.fits:
        assert (c.kind == "pass") == passes_rule(v)
        assert c.kind != "pass" or formats.seconds_value(p95_high(v)) <= v["budget_s"]
        assert c.p95_value_range[1] == pytest.approx(p95_high(v), rel=1e-9)
    # which stage dominates the target's span
    span = ("network", "queue", "prefill") if v["measure"] == "ttft" else ("network", "queue", "prefill", "decode")
    assert e.breakdown[c.dominant] == max(e.breakdown[k] for k in span)
    # cost: devices x price per hour x busy seconds per answer / (3,600 x answers served together)
    price = CAT.hardware[v["hardware"]].price_usd_per_hour
    if e.fits:
        service = e.breakdown["prefill"] + e.breakdown["decode"]
        per_answer = e.devices_needed * price * service / (3600.0 * e.running_batch)
        assert c.cost_per_1k == pytest.approx(1000 * per_answer, rel=1e-9)
        per_day = 86400.0 * e.running_batch / service
        traffic = math.ceil(v["requests_per_day"] / per_day)
        assert c.servers_for_traffic == traffic
        if c.servers is not None:
            # as entered: one server of the devices entered, or as many as the day's requests need
            assert c.monthly_usd == pytest.approx(max(traffic, 1) * e.devices_needed * price * 730.0, rel=1e-12)
            if c.servers_for_users is None:
                assert math.isnan(c.monthly_to_pass_usd)
            else:
                assert c.monthly_to_pass_usd == pytest.approx(c.servers * e.devices_needed * price * 730.0, rel=1e-12)
            assert c.busy_monthly_usd == pytest.approx(per_answer * v["requests_per_day"] * 365 / 12, rel=1e-9)
            if v["monthly_budget_usd"]:
                assert c.over_budget == (c.monthly_usd > v["monthly_budget_usd"])
    else:
        assert math.isnan(c.cost_per_1k) and math.isnan(c.monthly_usd)


@pytest.mark.parametrize("i", range(0, len(SETUPS), 4))
def test_most_users_within_the_target_is_the_edge_of_passing(i):
    """At the answer the set-up passes and one user more it does not (worked out with latency.estimate)."""
    v = SETUPS[i]
    c = launch.check(CAT, v)
    if not c.fits:
        assert c.max_users is None
        return
    n = c.max_users
    if n == 0:
        assert not passes_rule(v, users=1)
        assert c.servers_for_users is None and c.servers == max(c.servers_for_traffic, 1)
        return
    assert passes_rule(v, users=n)
    if c.max_users_capped:
        assert n == scenario.CONCURRENCY_MAX
    else:
        assert not passes_rule(v, users=n + 1)
    assert c.servers_for_users == math.ceil(int(v["concurrency"]) / n)
    assert c.devices_total == max(c.servers_for_users, c.servers_for_traffic, 1) * c.devices_per_server
    assert c.max_users_typical >= n


def test_the_sixty_thousand_token_contract_is_read_in_prefill():
    """Issue 33: a 60,000-token contract typed as a document costs prefill (it read 0.18 s as earlier conversation)."""
    v = dict(DEFAULT, document_tokens=60000)
    c = launch.check(CAT, v)
    as_context = launch.check(CAT, dict(DEFAULT, context_tokens=60000))
    assert c.ttft_s > 10 * as_context.ttft_s
    assert c.dominant == "prefill"


def test_the_wait_never_falls_user_by_user_where_prefill_steps_take_over():
    """Every user count from 1 to 40 of the set-up where the steady-use fixed point used to swing
    (a 12B INT4 model on an H100 with 5,000-token prompts: 7 users got a 366 ms time between tokens
    and 9 users 49 ms, latency.estimation.serving.ITERATIONS), and the whole answer with them."""
    (v,) = [v for v in SETUPS if v.get("model_size_b") == 12.0 and v.get("precision") == "int4_awq"
            and v.get("hardware") == "h100-sxm" and v.get("prompt_tokens") == 5000 and v.get("arrival") == "steady"]
    runs = [direct(v, users=n) for n in range(1, 41)]
    assert all(e.fits for e in runs)
    for lo, hi in zip(runs, runs[1:]):
        assert hi.ttft_s >= lo.ttft_s * (1 - 1e-9) and hi.total_s >= lo.total_s * (1 - 1e-9)


@settings(max_examples=40, deadline=None)
@given(i=hs.integers(0, len(SETUPS) - 1), a=hs.integers(1, 400), b=hs.integers(1, 400))
def test_the_wait_never_falls_as_users_are_added(i, a, b):
    """What the bisection over users relies on: more users at once never give an earlier first token
    or an earlier whole answer (same set-up, latency.estimate)."""
    lo, hi = sorted((a, b))
    v = SETUPS[i]
    e_lo, e_hi = direct(v, users=lo), direct(v, users=hi)
    if not (e_lo.fits and e_hi.fits):
        return
    assert e_hi.ttft_s >= e_lo.ttft_s * (1 - 1e-9)
    assert e_hi.total_s >= e_lo.total_s * (1 - 1e-9)


@settings(max_examples=30, deadline=None)
@given(i=hs.integers(0, len(SETUPS) - 1), share=hs.sampled_from([0.1, 0.5, 0.9, 0.99]))
def test_caching_the_shared_part_never_lengthens_the_prefill(i, share):
    """What caching does: less to read, so with one user (or a burst) the prefill stage and the first token
    never grow. In steady use by many users the estimator's steady state couples each user's prefill to
    everyone's pace (cached prompts finish sooner, so each user asks more often and steps carry more
    prompts), and a small cached share can come out up to a few per cent slower, most where users also
    wait for a KV-cache slot (about 2% in a 50-user case on an A100; reported to EST): allowed here, 3%."""
    v = dict(SETUPS[i], prefix_share=share)
    on, off = launch.check(CAT, dict(v, prefix_cache="on"), False), launch.check(CAT, dict(v, prefix_cache="off"), False)
    if on.fits and off.fits:
        steady_many = int(v["concurrency"]) > 1 and v["arrival"] == "steady"
        slack = 1.03 if steady_many else 1 + 1e-9
        assert on.est.breakdown["prefill"] <= off.est.breakdown["prefill"] * slack
        if not steady_many:
            assert on.ttft_s <= off.ttft_s * slack
        assert on.cached_tokens == min(round(share * (v["prompt_tokens"] + v["document_tokens"])),
                                       v["prompt_tokens"] + v["document_tokens"] - 1)


def test_a_burst_spreads_evenly_and_steady_use_like_an_exponential():
    v = dict(DEFAULT, model_size_b=70.6, precision="fp8", concurrency=50, prompt_tokens=5000)
    steady, burst = launch.check(CAT, v, False), launch.check(CAT, dict(v, arrival="burst"), False)
    assert (steady.p95_rule, burst.p95_rule) == ("exponential", "uniform")
    assert steady.p95_ttft_s == pytest.approx(steady.ttft_s + (math.log(20) - 1) * steady.wait_others_s)
    assert burst.p95_ttft_s == pytest.approx(burst.ttft_s + 0.9 * burst.wait_others_s)


def test_difference_in_words_numbers():
    """B against A: seconds sooner and the monthly cost ratio (hand-checked: 2 H100s against 1)."""
    a = launch.check(CAT, DEFAULT)
    b = launch.check(CAT, dict(DEFAULT, devices=2))
    d = launch.difference(a, b)
    assert d.time_delta_s == pytest.approx(b.ttft_s - a.ttft_s)
    assert d.cost_ratio == pytest.approx(2.0)   # one server of 2 devices against one of 1, kept on
    assert launch.differing_keys(DEFAULT, dict(DEFAULT, devices=2)) == ["devices"]


# --------------------------------------------------------------------------------------------
# What to change
# --------------------------------------------------------------------------------------------

FAILING = [
    dict(DEFAULT, model_size_b=70.6, devices=2, precision="fp8", concurrency=50, prompt_tokens=5000),   # issue 33's 50 users
    dict(DEFAULT, document_tokens=60000),                                                                  # the contract
    dict(DEFAULT, budget_s=0.2, measure="ttft", use_case="code_autocomplete", users_place="seoul",
         server_place="san_francisco", distance_km=9029.0),                                                # autocomplete from US West
    dict(DEFAULT, measure="total", budget_s=2.0, output_tokens=1000, connection="cold", prefix_share=0.8, prompt_tokens=4000),
]


@pytest.mark.parametrize("i", range(len(FAILING)))
def test_every_suggestion_passes_by_the_estimator_and_they_are_ranked_by_cost(i):
    v = FAILING[i]
    assert not launch.check(CAT, v, False).passes
    found, tried = levers.suggest(CAT, v, DATA.sizes, PLACES, DEVICE_CHOICES)
    assert found, [(t.lever, t.reason) for t in tried]
    costs = [s.check.monthly_usd if math.isfinite(s.check.monthly_usd) else math.inf for s in found]
    assert costs == sorted(costs)
    assert {s.lever for s in found} | {t.lever for t in tried} == set(levers.LEVERS)
    for s in found:
        assert within(direct(dict(s.values)), s.values), s.lever
        assert set(s.changed) <= {"devices", "hardware", "precision", "model_size_b", "arch", "server_place", "distance_km",
                                  "output_tokens", "connection", "prefix_cache", "spec_tokens", "measure"}
        assert float(s.values["model_size_b"]) >= float(v["min_model_b"])
    for t in tried:
        if t.best is not None and t.reason == "not_enough":
            assert not passes_rule(dict(t.best.values))   # the page's rule: the 95%-of-users figure's range


def test_no_suggested_model_is_smaller_than_the_pms_minimum():
    v = dict(FAILING[1], min_model_b=4.7)
    found, tried = levers.suggest(CAT, v, DATA.sizes, PLACES, DEVICE_CHOICES)
    assert all(float(s.values["model_size_b"]) >= 4.7 for s in found)
    smaller = [s for s in found if s.lever == "smaller_model"] + [t.best for t in tried if t.lever == "smaller_model" and t.best]
    assert all(float(s.values["model_size_b"]) >= 4.7 for s in smaller)


def test_the_smaller_model_lever_offers_the_largest_that_passes():
    v = FAILING[1]
    found, _ = levers.suggest(CAT, v, DATA.sizes, PLACES, DEVICE_CHOICES)
    (sug,) = [s for s in found if s.lever == "smaller_model"]
    bigger = [s for s in DATA.sizes if sug.values["model_size_b"] < s < v["model_size_b"]]
    assert all(not within(direct(dict(v, model_size_b=s)), v) for s in bigger)


PM_200 = dict(DEFAULT, model_size_b=70.6, concurrency=200, measure="ttft", budget_s=2.0, users_place="seoul",
              server_place="san_francisco", distance_km=9029.0)
"""PM try 2026-12-05: a 70B model for 200 users at once, first word within 2 s, devices on 'auto'."""


def test_on_auto_devices_a_lower_precision_keeps_the_count_auto_came_to():
    """'auto' takes the fewest devices that hold the weights; FP8's smaller weights fit on fewer, which queue the
    200 users. The lever tries the count the FP16 set-up came to as well, so FP8 on the same devices, which
    passes at the same price, is offered (the PM was told 'not enough; at best INT4')."""
    v = PM_200
    assert v["devices"] == scenario.DEVICES_AUTO and not passes_rule(v)
    n = int(direct(v).devices_needed)
    assert passes_rule(dict(v, precision="fp8", devices=n))
    found, _ = levers.suggest(CAT, v, DATA.sizes, PLACES, DEVICE_CHOICES)
    (sug,) = [s for s in found if s.lever == "precision"]
    assert sug.values["precision"] == "fp8" and passes_rule(dict(sug.values))
    price = CAT.hardware[v["hardware"]].price_usd_per_hour
    assert sug.check.monthly_usd == pytest.approx(price * n * 8760 / 12)


def test_the_device_lever_offers_the_cheapest_device_and_count_that_passes():
    """Every priced cloud device at every count it takes, judged here by the estimator and priced by hand (the
    hourly price x devices x 730 h); the lever's suggestion is the cheapest of those that pass (the PM found two
    MI300X passing for less than the H200 the lever offered)."""
    v = PM_200
    passing = []
    for h, e in CAT.hardware.items():
        if h == v["hardware"] or e.price_usd_per_hour is None or e.price_basis != "cloud_on_demand":
            continue
        for n in DEVICE_CHOICES:
            if n <= e.hardware.resolved("max_devices") and passes_rule(dict(v, hardware=h, devices=n)):
                passing.append((e.price_usd_per_hour * n * 8760 / 12, h, n))
    cheapest = min(passing)
    found, _ = levers.suggest(CAT, v, DATA.sizes, PLACES, DEVICE_CHOICES)
    (sug,) = [s for s in found if s.lever == "hardware"]
    assert sug.check.monthly_usd == pytest.approx(cheapest[0]), (cheapest, sug.values["hardware"], sug.values["devices"])
    assert passes_rule(dict(sug.values))


def test_a_passing_set_up_gets_only_cheaper_set_ups():
    v = dict(DEFAULT)
    base = launch.check(CAT, v, False)
    assert base.passes
    found, _ = levers.suggest(CAT, v, DATA.sizes, PLACES, DEVICE_CHOICES)
    assert all(s.check.monthly_usd < base.monthly_usd for s in found)


def test_speculative_decoding_helps_a_quiet_server_more_than_a_busy_one():
    """The speculative lever through the launch check: with one user the whole answer comes sooner, and the
    gain shrinks as the server fills (the loss at high load, Leviathan et al. 2023; vLLM's blog measured
    1.4x slower at high QPS); every figure is latency.estimate's with the lever's inputs. Where it makes a
    set-up pass it is offered, else it is listed with its best figure."""
    quiet = dict(DEFAULT, model_size_b=70.6, precision="fp8", measure="total", budget_s=3.0)
    gains = []
    for users in (1, 64, 256):
        v = dict(quiet, concurrency=users)
        off, on = launch.check(CAT, v, False), launch.check(CAT, dict(v, spec_tokens=levers.SPEC_TOKENS_ON), False)
        assert on.total_s == pytest.approx(direct(dict(v, spec_tokens=levers.SPEC_TOKENS_ON)).total_s, rel=1e-12)
        gains.append(off.total_s / on.total_s)
    assert gains[0] > 1.2
    assert gains[0] > max(gains[1], gains[2])  # a quiet server gains most
    found, tried = levers.suggest(CAT, quiet, DATA.sizes, PLACES, DEVICE_CHOICES)
    spec = [s for s in found if s.lever == "speculative"] + [t.best for t in tried if t.lever == "speculative" and t.best]
    assert spec and spec[0].values["spec_tokens"] == levers.SPEC_TOKENS_ON


def test_streaming_judges_the_first_token_and_caching_needs_a_share():
    v = FAILING[3]
    found, tried = levers.suggest(CAT, v, DATA.sizes, PLACES, DEVICE_CHOICES)
    by = {s.lever: s for s in found} | {t.lever: t for t in tried}
    stream = by["streaming"]
    values = stream.values if isinstance(stream, levers.Suggestion) else stream.best.values
    assert values["measure"] == "ttft"
    cache = by["prefix_cache"]
    cache_values = cache.values if isinstance(cache, levers.Suggestion) else cache.best.values
    assert cache_values["prefix_cache"] == "on"
    assert by["connection"].values["connection"] == "warm" if isinstance(by["connection"], levers.Suggestion) else True
    _, tried0 = levers.suggest(CAT, dict(v, prefix_share=0.0), DATA.sizes, PLACES, DEVICE_CHOICES)
    assert ("prefix_cache", "no_share") in {(t.lever, t.reason) for t in tried0}


def test_two_changes_together_pass_by_the_estimator_where_no_single_one_does():
    # 0.36 s: at 0.5 s eight B200s alone pass since the all-reduce runs at its measured rate (round 4,
    # fifteenth pass), at 0.4 s since the sixteenth's refit (vLLM's request overhead 66 -> 57 ms), and
    # this test needs a set-up that no single change rescues.
    v = dict(DEFAULT, document_tokens=60000, budget_s=0.36, min_model_b=3.0)
    found, _ = levers.suggest(CAT, v, DATA.sizes, PLACES, DEVICE_CHOICES)
    assert not found
    two = levers.pairs(CAT, v, DATA.sizes, PLACES, DEVICE_CHOICES)
    assert two
    costs = [s.check.monthly_usd for s in two]
    assert costs == sorted(costs)
    for s in two:
        a, b = s.lever.split("+")
        assert a != b and a in levers.LEVERS and b in levers.LEVERS
        assert within(direct(dict(s.values)), s.values), s.lever
        assert float(s.values["model_size_b"]) >= 3.0


def test_a_lever_that_meets_the_time_but_not_the_cost_limit_says_so():
    v = dict(DEFAULT, model_size_b=70.6, devices=2, precision="fp8", concurrency=50, prompt_tokens=5000,
             monthly_budget_usd=3000)
    found, tried = levers.suggest(CAT, v, DATA.sizes, PLACES, DEVICE_CHOICES)
    over = [t for t in tried if t.reason == "over_budget"]
    assert over
    for t in over:
        assert t.best.check.kind == "pass" and t.best.check.monthly_usd > 3000


def test_devices_without_published_measurements_are_told_apart():
    """The calibration measured these devices (its report's rows); the AMD MI300X, H200, L4 and L40S are
    estimated from the fit of their kind, so the launch check marks them extrapolated (issue 33: 'an AMD
    GPU with no word that its figures are extrapolated')."""
    from latency.teaching.explain import load_report
    measured = launch.measured_hardware(CAT)
    assert {"h100-sxm", "a100-sxm-80gb", "rtx-4090", "apple-m2-ultra", "b200"} <= measured
    assert not {"mi300x", "h200-sxm", "l4", "l40s", "apple-a17-pro"} & measured
    report_devices = {r["device"] for r in load_report()["compute_rows"]}
    assert any("H100" in d for d in report_devices) and not any("MI300" in d for d in report_devices)


def test_quantization_offers_the_formats_of_the_set_ups_own_engine():
    """A vLLM server (H100) is offered FP8 / INT8 / AWQ, never a llama.cpp GGUF file; a llama.cpp set-up the reverse."""
    served = levers.candidates(CAT, dict(DEFAULT), DATA.sizes, PLACES, DEVICE_CHOICES)["precision"]
    assert {"fp8", "int4_awq"} <= {v["precision"] for v in served}
    assert not {v["precision"] for v in served} & set(levers.LLAMA_CPP_FORMATS)
    local = levers.candidates(CAT, dict(DEFAULT, hardware="rtx-4090", model_size_b=8.03), DATA.sizes, PLACES, DEVICE_CHOICES)["precision"]
    assert {v["precision"] for v in local} <= {"q8_0", "q4_k_m"} and local


def test_fp4_is_offered_only_where_the_device_computes_in_fp4():
    """PM try: an H100 set-up was told to switch to "NVFP4 (..., for Blackwell chips such as the B200)" and kept
    the H100. On a device without FP4 tensor cores (catalog: no fp4_speedup) INT4 is the 4-bit offer; on a B200
    NVFP4 is offered too."""
    assert CAT.hardware["h100-sxm"].hardware.fp4_speedup is None and CAT.hardware["b200"].hardware.fp4_speedup
    on = {h: {v["precision"] for v in levers.candidates(CAT, dict(DEFAULT, hardware=h), DATA.sizes, PLACES,
                                                         DEVICE_CHOICES)["precision"]} for h in ("h100-sxm", "b200")}
    assert "nvfp4" not in on["h100-sxm"] and "int4_awq" in on["h100-sxm"]
    assert "nvfp4" in on["b200"]


def busy_setup() -> dict:
    """A busy server in steady use whose typical first token's range is within 1 s and whose 95% figure's
    range is past it, found here with latency.estimate (the number of users where that holds moves with
    each refit of the estimator, so it is searched for, not written down)."""
    for n in range(100, 1001):  # every count: after a refit the window can be one user wide (165 in round 4's sixth pass)
        v = dict(DEFAULT, concurrency=n, document_tokens=2000)
        if within(direct(v), v) and not passes_rule(v):
            return v
    raise AssertionError("no busy set-up between 100 and 1,000 users is borderline by the 95% rule alone")


def test_a_busy_server_whose_95_percent_figure_misses_the_target_does_not_pass():
    """PM trial item 3: many users at once in steady use, the typical first token's range within 1 s, the 95%
    figure's range past it (worked out here from latency.estimate): borderline, not a pass; and the most
    users that pass is where the 95% figure's range is within (fewer than that many)."""
    v = busy_setup()
    n = v["concurrency"]
    c = launch.check(CAT, v)
    assert c.kind == "borderline" and not c.passes and c.verdict.kind == "within"
    assert c.max_users < n and passes_rule(v, users=c.max_users) and not passes_rule(v, users=c.max_users + 1)
    assert c.servers_for_users == math.ceil(n / c.max_users)


def test_decode_only_levers_are_not_offered_against_a_first_token_target():
    """PM trial item 9: shorter answers and speculative decoding change only what comes after the first token (of a
    lone user: with others waiting, shorter answers are tried, below)."""
    ttft = levers.candidates(CAT, dict(DEFAULT, measure="ttft"), DATA.sizes, PLACES, DEVICE_CHOICES)
    total = levers.candidates(CAT, dict(DEFAULT, measure="total"), DATA.sizes, PLACES, DEVICE_CHOICES)
    assert ttft["shorter_answers"] == ttft["speculative"] == "first_token"
    assert isinstance(total["shorter_answers"], list) and isinstance(total["speculative"], list)
    assert all(o["output_tokens"] < DEFAULT["output_tokens"] for o in total["shorter_answers"])


def test_with_other_users_shorter_answers_are_tried_against_a_first_token_target():
    """A shorter answer frees its place in the server sooner, so with 200 users the others' first tokens wait less
    (PM try 2026-12-05): the lever is tried, and its figure is latency.estimate's. With one user it is not."""
    assert DEFAULT["concurrency"] == 1
    options = levers.candidates(CAT, PM_200, DATA.sizes, PLACES, DEVICE_CHOICES)["shorter_answers"]
    assert isinstance(options, list) and all(o["output_tokens"] < PM_200["output_tokens"] for o in options)
    shortest = min(options, key=lambda o: o["output_tokens"])
    assert direct(shortest).ttft_s < direct(PM_200).ttft_s  # the mechanism: fewer tokens ahead, less wait
    found, tried = levers.suggest(CAT, PM_200, DATA.sizes, PLACES, DEVICE_CHOICES)
    assert "shorter_answers" in {s.lever for s in found} | {t.lever for t in tried if t.reason != "first_token"}
