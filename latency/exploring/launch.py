"""The launch check (issue 33): one set-up judged the way a launch review asks, every figure from the
one scenario evaluation (`latency.estimation.scenario.evaluate`). Pure Python, never streamlit.

    c = check(catalog, values)      # values: the scenario (scenario.KEYS), as the page shows them

What a `Check` holds and where each figure comes from:

* first-token wait, typical: `Estimate.ttft_s` of the set-up; its range `Estimate.ranges["ttft_s"]`
  (the calibration's errors: meant to hold ~80% of measurements, wider where `Estimate.calibrated`
  is False: the device kind and engine had no calibration rows, "extrapolated").
* first-token wait at the 95th percentile of users (`p95_ttft`): the typical wait plus the spread of
  the part of it that is waiting for other users. That part is the set-up's first-token wait minus
  the same set-up's with one user (both `evaluate`); the estimator gives its mean. How it spreads
  over users depends on how they arrive:
  - steady use (people sending at moments of their own): waiting times in a queue fed by many
    independent users spread like an exponential distribution (Kingman 1961, "The single server
    queue in heavy traffic", the G/G/1 wait's heavy-traffic limit; exact for the M/M/c queue's wait
    given one waits), whose 95th percentile is ln(20) = 3.0 times its mean (`P95_EXPONENTIAL`);
  - a burst (everyone at once): the k-th of N prompts waits for k prompts (the serving engine's
    first-come first-served prefill, latency.estimation.estimator.FIRST_TOKEN_AFTER_WHOLE_BATCH), so the
    waits are spread evenly from none to twice the mean: the 95th percentile is 1.9 times the mean
    (`P95_UNIFORM`); llama.cpp prefills the batch together, so there every user waits the same;
  - one user: no one to wait for; network jitter is not modelled, so the 95th percentile is the typical wait.
  Its range is the typical figure's range scaled to it (the same relative errors).
* speed per user (`decode_tokens_per_s`), whole answer (`total_s`), the stages (`breakdown`).
* pass or fail (`PASS_RULE`): the set-up passes only when the target's figure for 95% of users is within
  the target even at its range's high end (as printed); that also puts the typical figure's whole range
  within it. Fails when the typical figure itself is over (`latency.exploring.verdict.verdict`, as the
  estimator page judges it); borderline in between (the typical range straddles the target, or the typical
  user is within and the slowest 5% are not). The 95% figure of the whole answer is the whole answer plus
  the same extra wait as the first token's (`p95_value_s`).
* the margin (`margin_s`): the target less the figure, both as printed (`formats.seconds_value`), so
  "2 s, target 1 s" is "1 s over", never "0.99 s over".
* the most users at once within the target (`max_users`): the largest number of users, up to the
  input's cap (scenario.CONCURRENCY_MAX), for which `evaluate` with that many users still passes;
  found by bisection over users (the wait never falls as users are added: tested as a property).
  `max_users_typical`: the same for the typical figure alone; between the two the set-up is borderline.
* devices needed: devices per server (`Estimate.devices_needed`) times the servers the stated users
  and traffic need: users at once / the most one server keeps within the target, and requests a day /
  the answers one server gives a day at this load (86,400 s x answers served together / seconds
  each takes, the same rate the cost per answer uses). Where no number of servers keeps even one user
  within the target, the servers the traffic needs (the set-up as stated; `servers_for_users` None).
* cost per 1,000 answers: `latency.exploring.tradeoffs.headline`, the figure the estimator and the trade-off
  page show (devices x price per hour x busy seconds / (3,600 x answers served together)); per month:
  the servers needed, kept on for the month (730 h = 8,760 h / 12), at the catalog's price, and beside it
  what the stated answers would cost if only the busy time were paid (cost per answer x answers).
  Two monthly figures, never mixed: `monthly_usd` is the set-up AS ENTERED (one server of the devices
  entered, or as many as the day's requests need: `servers_entered`), which the cost limit, the
  side-by-side view and the levers compare; `monthly_to_pass_usd` is what meeting the target for every
  user at once would take: the cheapest plan the app knows (`cheapest_plan`: every device count per server
  the device allows, scenario.DEVICE_COUNTS up to its max_devices, each with the servers the users at once and
  the day's requests need; `plan_per_server` x `plan_servers`; nan where none would do).
  `monthly_to_pass_entered_usd` keeps the devices per server entered (`servers` of them).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping

from latency.estimation import scenario
from latency.estimation.catalog import Catalog
from latency.estimation.estimator import STAGES
from latency.exploring import tradeoffs
from latency.exploring.verdict import Verdict, verdict
from latency.language import formats

HOURS_PER_MONTH = 8760.0 / 12.0
"""Hours in an average month (365 days x 24 h / 12 = 730): a server kept on for a month."""
DAYS_PER_MONTH = 365.0 / 12.0
SECONDS_PER_DAY = 86400.0
P95_EXPONENTIAL = math.log(20.0)
"""95th percentile of an exponential distribution over its mean: -ln(1 - 0.95) = ln 20 = 3.0."""
P95_UNIFORM = 1.9
"""95th percentile of a uniform distribution on [0, 2m] over its mean m: 0.95 x 2 = 1.9."""
PASS_RULE = "p95"
"""The pass rule (module docstring): judged on the 95%-of-users figure's range, not the typical figure's alone."""
ATTENTION_LIMIT_S = 10.0
"""Past this wait for a whole answer people's attention drifts (Nielsen Norman Group, "Response Times: The 3
Important Limits", https://www.nngroup.com/articles/response-times-3-important-limits/; the same source as the
response-speed term page). A check judged on the first token names a whole answer longer than this (`long_answer`)."""
MEASURE_KEY = {"ttft": "ttft_s", "total": "total_s"}
MEASURED_STAGES = {"ttft": ("network", "queue", "prefill"), "total": STAGES}


@dataclass(frozen=True)
class Check:
    """One set-up's launch check. Times in seconds, money in US dollars (nan where there is no price
    or the model does not fit). `users_searched` False: `max_users` was not searched (a lever's
    candidate), and servers for users assume one server when the set-up passes."""

    values: Mapping[str, Any]
    est: Any                                # latency.Estimate of `values`
    entry: Any                              # the HardwareEntry
    sized: Any                              # the SizedModel
    fits: bool
    measure: str
    budget_s: float
    value_s: float                          # the target's figure (first token or whole answer)
    value_range: tuple[float, float]
    verdict: Verdict | None                 # None when the model does not fit
    margin_s: float                         # target - value, both as printed (negative: over by that much)
    ttft_s: float
    ttft_range: tuple[float, float]
    alone_ttft_s: float                     # the same set-up with one user
    wait_others_s: float                    # ttft_s - alone_ttft_s: waiting for other users (mean)
    p95_rule: str                           # "exponential" | "uniform" | "alone"
    p95_ttft_s: float
    p95_range: tuple[float, float]
    p95_value_s: float                      # the target's figure for 95% of users (first token or whole answer)
    p95_value_range: tuple[float, float]
    p95_within: bool                        # p95_value_range's high end, as printed, within the target
    tps_user: float
    tps_range: tuple[float, float]
    total_s: float
    total_range: tuple[float, float]
    dominant: str                           # the stage that takes most of the target's span
    dominant_share: float
    max_users: int | None                   # most users at once within the target across its range (None: not searched)
    max_users_capped: bool                  # max_users is the input's cap: it may serve more
    max_users_typical: int | None           # most users at once whose typical figure is within (borderline beyond max_users)
    devices_per_server: int
    servers_for_users: int | None           # None: no number of servers meets the target
    servers_for_users_typical: int | None   # the same for the typical figure alone (borderline beyond servers_for_users)
    servers_for_traffic: int
    servers: int | None                     # None only when the model does not fit
    devices_total: int | None
    answers_per_server_day: float
    price_usd_per_hour: float | None
    cost_per_1k: float
    monthly_usd: float                      # the set-up as entered: servers_entered kept on for a month
    servers_entered: int                    # one server, or as many as the day's requests need
    devices_entered: int | None
    monthly_to_pass_usd: float              # the cheapest plan (`plan_*`) kept on; nan: no plan meets the target
    monthly_to_pass_entered_usd: float      # `servers` of the devices per server entered kept on; nan: no number does
    busy_share: float                       # share of the servers' time the stated traffic keeps busy
    busy_monthly_usd: float                 # the stated answers at the cost per answer (busy time only)
    over_budget: bool
    calibrated: bool
    cached_tokens: int
    users_searched: bool = True
    plan_per_server: int | None = None      # the cheapest plan that meets the target: devices per server ...
    plan_servers: int | None = None         # ... and servers (None: none meets it, or not searched)
    plan_max_users: int | None = None       # the most users at once one server of the plan keeps within the target
    service_s: float = math.nan             # one request's time in the engine at this load (prefill + decode)
    in_progress: float = math.nan           # requests in the engines at any moment on average, by the day's requests
    extra: dict = field(default_factory=dict)

    @property
    def users_too_few(self) -> bool:
        """The day's requests keep more requests in progress at once than the users at once entered can have
        (`in_progress`, Little's law): the two inputs disagree (PM try: 50,000 a day with 1 user at once
        bought five servers of one user each without a word)."""
        return math.isfinite(self.in_progress) and self.in_progress > float(self.values["concurrency"]) * (1 + 1e-9)

    @property
    def cost_per_1k_entered(self) -> float:
        """The set-up as entered, kept on all month (`monthly_usd`), over a month's answers at the day's requests,
        per 1,000 answers; nan without a price or requests. `cost_per_1k` is the never-idle figure the other pages
        show (PM try: $0.29 per 1,000 on the tile against $8,731 a month; which to budget?)."""
        requests = float(self.values.get("requests_per_day", 0) or 0)
        if requests <= 0 or not math.isfinite(self.monthly_usd):
            return math.nan
        return self.monthly_usd / (requests * DAYS_PER_MONTH) * 1000.0

    @property
    def plan_devices(self) -> int | None:
        return None if self.plan_servers is None else self.plan_servers * self.plan_per_server

    @property
    def passes(self) -> bool:
        """Meets the target (PASS_RULE) and is within the monthly cost limit (if one is set)."""
        return self.kind == "pass" and not self.over_budget

    @property
    def kind(self) -> str:
        """"pass", "borderline", "fail" (the target), "no_fit"; a cost over the limit is `over_budget`."""
        if self.verdict is None:
            return "no_fit"
        if self.verdict.kind == "over":
            return "fail"
        return "pass" if self.verdict.kind == "within" and self.p95_within else "borderline"


def target_verdict(est, measure: str, budget_s: float) -> Verdict | None:
    """The estimator page's verdict of a set-up against its target (display rounding as printed)."""
    if not est.fits:
        return None
    key = MEASURE_KEY[measure]
    lo, hi = est.ranges[key]
    return verdict(getattr(est, key), lo, hi, budget_s, shown=formats.seconds_value)


def p95_figures(values: Mapping[str, Any], est, alone_ttft_s: float) -> dict[str, Any]:
    """The 95%-of-users figures of one estimate: the first token's (and its range: the typical range
    scaled to it) and the target's figure's (the whole answer gets the same extra wait), and whether that
    one's range, as printed, is within the target."""
    wait = max(float(est.ttft_s) - alone_ttft_s, 0.0)
    rule = p95_rule(values, est, wait)
    p95 = p95_ttft(float(est.ttft_s), wait, rule)
    lo, hi = est.ranges["ttft_s"]
    scale = p95 / est.ttft_s if est.ttft_s > 0 else 1.0
    p_lo, p_hi = lo * scale, hi * scale
    if values["measure"] == "ttft":
        value, rng = p95, (p_lo, p_hi)
    else:
        t_lo, t_hi = est.ranges["total_s"]
        value, rng = float(est.total_s) + (p95 - float(est.ttft_s)), (t_lo + (p_lo - lo), t_hi + (p_hi - hi))
    ok = bool(est.fits) and formats.seconds_value(rng[1]) <= float(values["budget_s"])
    return dict(wait=wait, rule=rule, p95=p95, range=(p_lo, p_hi), value=value, value_range=rng, within=ok)


def _passes_at(catalog: Catalog, values: Mapping[str, Any], users: int, safe: bool, alone_ttft_s: float | None) -> bool:
    try:
        _, _, est = scenario.evaluate(catalog, {**values, "concurrency": int(users)})
    except ValueError:
        return False
    v = target_verdict(est, values["measure"], float(values["budget_s"]))
    if v is None:
        return False
    if safe:
        alone = float(est.ttft_s) if alone_ttft_s is None else alone_ttft_s
        return v.kind == "within" and p95_figures({**values, "concurrency": int(users)}, est, alone)["within"]
    return getattr(est, MEASURE_KEY[values["measure"]]) <= float(values["budget_s"])


def max_users(catalog: Catalog, values: Mapping[str, Any], safe: bool = True) -> tuple[int, bool]:
    """(the most users at once the set-up keeps within its target, whether that is the input's cap).

    safe: the pass rule (PASS_RULE: the 95%-of-users figure's range within); False: the typical figure
    within. 0 when not even one user is. Bisection over 1..CONCURRENCY_MAX with `evaluate`."""
    cap = scenario.CONCURRENCY_MAX
    try:
        alone = float(scenario.evaluate(catalog, {**values, "concurrency": 1})[2].ttft_s)
    except ValueError:
        return 0, False
    if not _passes_at(catalog, values, 1, safe, alone):
        return 0, False
    if _passes_at(catalog, values, cap, safe, alone):
        return cap, True
    lo, hi = 1, cap  # passes at lo, fails at hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _passes_at(catalog, values, mid, safe, alone):
            lo = mid
        else:
            hi = mid
    return lo, False


def p95_rule(values: Mapping[str, Any], est, wait_others_s: float) -> str:
    """How waiting for other users spreads over users (see the module docstring)."""
    if int(values["concurrency"]) <= 1 or wait_others_s <= 0:
        return "alone"
    if values.get("arrival", "steady") == "burst":
        return "uniform" if est.engine == "optimized" else "alone"
    return "exponential"


def p95_ttft(ttft_s: float, wait_others_s: float, rule: str) -> float:
    """First-token wait of the 95th-percentile user: the typical wait with its waiting-for-others part
    stretched from its mean to its 95th percentile."""
    factor = {"exponential": P95_EXPONENTIAL, "uniform": P95_UNIFORM, "alone": 1.0}[rule]
    return ttft_s + (factor - 1.0) * max(wait_others_s, 0.0)


def dominant_stage(breakdown: Mapping[str, float], measure: str) -> tuple[str, float]:
    """The stage that takes the largest share of the target's span (first token: network, queue,
    prefill; whole answer: all four), and that share."""
    stages = MEASURED_STAGES[measure]
    span = sum(breakdown[k] for k in stages)
    key = max(stages, key=lambda k: breakdown[k])
    return key, (breakdown[key] / span if span > 0 else 0.0)


@dataclass(frozen=True)
class Plan:
    """Servers of `per_server` devices that keep `users` at once within the target (the pass rule) and serve
    the day's requests; `monthly_usd` nan where the device has no price."""

    per_server: int
    servers: int
    most_users: int
    monthly_usd: float


def servers_for_requests(values: Mapping[str, Any], est, batch: int) -> int:
    """Servers the day's requests need: requests / (86,400 s x answers served together / seconds each)."""
    service = est.breakdown["prefill"] + est.breakdown["decode"]
    per_day = SECONDS_PER_DAY * batch / service if est.fits and service > 0 else 0.0
    requests = int(values.get("requests_per_day", 0) or 0)
    return math.ceil(requests / per_day) if per_day > 0 else 0


def cheapest_plan(catalog: Catalog, values: Mapping[str, Any]) -> Plan | None:
    """The cheapest way this app knows to meet the target for the stated users and traffic: every device
    count per server the device allows (scenario.DEVICE_COUNTS up to its max_devices) that holds the model,
    each with as many servers as the users at once (`max_users` per server) and the day's requests need;
    the lowest monthly cost (servers x devices x price x 730 h), then the fewest devices. None: no count
    meets the target for even one user."""
    entry = catalog.hardware[values["hardware"]]
    most_allowed = int(entry.hardware.resolved("max_devices"))
    price = entry.price_usd_per_hour
    users = int(values["concurrency"])
    best: tuple | None = None
    for n in scenario.DEVICE_COUNTS:
        if n > most_allowed:
            break
        v = {**values, "devices": n}
        try:
            est = scenario.evaluate(catalog, v)[2]
        except ValueError:
            continue
        if not est.fits:
            continue
        most, _ = max_users(catalog, v)
        if most < 1:
            continue
        servers = max(math.ceil(users / most), servers_for_requests(v, est, int(est.running_batch)), 1)
        monthly = servers * n * price * HOURS_PER_MONTH if price is not None else math.nan
        key = (monthly if price is not None else 0.0, servers * n, servers)
        if best is None or key < best[0]:
            best = (key, Plan(n, servers, most, monthly))
    return None if best is None else best[1]


def check(catalog: Catalog, values: Mapping[str, Any], search_users: bool = True) -> Check:
    """The launch check of one set-up (every figure from `scenario.evaluate`; see the module docstring)."""
    values = dict(values)
    sized, entry, est = scenario.evaluate(catalog, values)
    measure, budget = values["measure"], float(values["budget_s"])
    users = int(values["concurrency"])
    if users > 1:
        _, _, alone = scenario.evaluate(catalog, {**values, "concurrency": 1})
        alone_ttft = float(alone.ttft_s)
    else:
        alone_ttft = float(est.ttft_s)
    p = p95_figures(values, est, alone_ttft)
    wait_others, rule, p95 = p["wait"], p["rule"], p["p95"]
    lo, hi = est.ranges["ttft_s"]
    v = target_verdict(est, measure, budget)
    key = MEASURE_KEY[measure]
    value = float(getattr(est, key))
    dom, share = dominant_stage(est.breakdown, measure)

    if search_users and est.fits:
        most, capped = max_users(catalog, values)
        typical, _ = max_users(catalog, values, safe=False)
    else:
        most, capped, typical = None, False, None
    per_server = int(est.devices_needed)
    if most is not None:
        servers_users = math.ceil(users / most) if most >= 1 else None
    else:  # not searched: one server when it passes
        servers_users = 1 if v is not None and v.kind == "within" and p["within"] else None
    servers_typical = math.ceil(users / typical) if typical else None

    head = tradeoffs.headline(catalog, values, tradeoffs.catalog_prices(catalog))
    service = est.breakdown["prefill"] + est.breakdown["decode"]
    per_day = SECONDS_PER_DAY * head.batch / service if est.fits and service > 0 else 0.0
    requests = int(values.get("requests_per_day", 0) or 0)
    servers_traffic = math.ceil(requests / per_day) if per_day > 0 else 0
    # Servers: as many as the users at once need within the target and the day's requests need; where no
    # number of servers keeps the users within it, the set-up as stated (enough servers for the traffic)
    # is what the monthly cost counts, and `servers_for_users` None says the target is out of reach.
    servers = max(servers_users or 1, servers_traffic, 1) if est.fits else None
    devices_total = servers * per_server if servers is not None else None
    servers_entered = max(servers_traffic, 1)
    devices_entered = servers_entered * per_server if est.fits else None
    price = entry.price_usd_per_hour
    priced = price is not None and est.fits
    cost_1k = float(head.cost_per_1k_answers) if priced else math.nan
    monthly = devices_entered * price * HOURS_PER_MONTH if priced else math.nan
    to_pass = (devices_total * price * HOURS_PER_MONTH if priced and servers_users is not None else math.nan)
    plan = cheapest_plan(catalog, values) if search_users and est.fits else None
    busy = requests / (servers_entered * per_day) if est.fits and per_day > 0 else math.nan
    # Little's law: requests a second x the seconds each spends in the engine (its prefill and decode)
    in_progress = requests / SECONDS_PER_DAY * service if est.fits and service > 0 else math.nan
    busy_monthly = cost_1k / 1000.0 * requests * DAYS_PER_MONTH if math.isfinite(cost_1k) else math.nan
    limit = float(values.get("monthly_budget_usd", 0) or 0)
    over = limit > 0 and (not math.isfinite(monthly) or monthly > limit)
    return Check(
        values=values, est=est, entry=entry, sized=sized, fits=bool(est.fits), measure=measure, budget_s=budget,
        value_s=value, value_range=tuple(est.ranges[key]), verdict=v,
        margin_s=formats.seconds_value(budget) - formats.seconds_value(value),
        ttft_s=float(est.ttft_s), ttft_range=(lo, hi), alone_ttft_s=alone_ttft, wait_others_s=wait_others,
        p95_rule=rule, p95_ttft_s=p95, p95_range=p["range"], p95_value_s=p["value"], p95_value_range=p["value_range"],
        p95_within=p["within"],
        tps_user=float(est.decode_tokens_per_s), tps_range=tuple(est.ranges["decode_tokens_per_s"]),
        total_s=float(est.total_s), total_range=tuple(est.ranges["total_s"]), dominant=dom, dominant_share=share,
        max_users=most, max_users_capped=capped, max_users_typical=typical, devices_per_server=per_server, servers_for_users=servers_users,
        servers_for_users_typical=servers_typical,
        servers_for_traffic=servers_traffic, servers=servers, devices_total=devices_total,
        answers_per_server_day=per_day, price_usd_per_hour=price, cost_per_1k=cost_1k, monthly_usd=monthly,
        servers_entered=servers_entered, devices_entered=devices_entered,
        monthly_to_pass_usd=plan.monthly_usd if plan is not None else (to_pass if not search_users else math.nan),
        monthly_to_pass_entered_usd=to_pass,
        plan_per_server=plan.per_server if plan else None, plan_servers=plan.servers if plan else None,
        plan_max_users=plan.most_users if plan else None,
        busy_share=busy, busy_monthly_usd=busy_monthly, service_s=service, in_progress=in_progress, over_budget=over, calibrated=bool(est.calibrated),
        cached_tokens=scenario.cached_prompt_tokens(values), users_searched=search_users)


# --------------------------------------------------------------------------------------------
# Two set-ups side by side
# --------------------------------------------------------------------------------------------

COMPARED_KEYS = tuple(k for k in scenario.KEYS if k not in ("use_case", "device_scope", "distance_km"))
"""The inputs the side-by-side view lists (the distance follows the two places; a custom distance is
listed under the server region)."""


def long_answer(c: Check) -> bool:
    """Whether a check judged on the first token has a whole answer past the attention limit
    (ATTENTION_LIMIT_S): a pass on the first token says nothing of it, and a product that shows the answer only
    once it is finished makes its users wait that long (PM trial 2026-12-05: an 18 s whole answer, no word of it)."""
    return c.fits and c.measure == "ttft" and math.isfinite(c.total_s) and c.total_s > ATTENTION_LIMIT_S


def differing_keys(a: Mapping[str, Any], b: Mapping[str, Any], keys=COMPARED_KEYS) -> list[str]:
    """The inputs whose values differ between two set-ups (distance included when the places are custom)."""
    out = [k for k in keys if a.get(k) != b.get(k)]
    if a.get("distance_km") != b.get("distance_km") and "server_place" not in out and "users_place" not in out:
        out.append("distance_km")
    return out


@dataclass(frozen=True)
class Difference:
    """B against A: time (the target's figure, A's measure) in seconds (negative: B is sooner) and
    monthly cost as a ratio, both set-ups as entered (`monthly_usd`; nan where either has no cost)."""

    measure: str
    time_delta_s: float
    cost_ratio: float
    cost_per_1k_ratio: float


def difference(a: Check, b: Check) -> Difference:
    key = MEASURE_KEY[a.measure]
    ta, tb = getattr(a.est, key), getattr(b.est, key)
    ratio = b.monthly_usd / a.monthly_usd if a.monthly_usd > 0 else math.nan
    ratio_1k = b.cost_per_1k / a.cost_per_1k if a.cost_per_1k > 0 else math.nan
    return Difference(a.measure, float(tb - ta) if a.fits and b.fits else math.nan, ratio, ratio_1k)


# --------------------------------------------------------------------------------------------
# Which devices the calibration measured
# --------------------------------------------------------------------------------------------

def _core(name: str) -> str:
    """A device name without its bracketed details, spaces and case ("NVIDIA H100 SXM 80GB" -> "nvidiah100sxm80gb")."""
    return name.split(" (")[0].replace(" ", "").lower()


def measured_hardware(catalog: Catalog, report: Mapping[str, Any] | None = None) -> frozenset[str]:
    """Catalog hardware ids with published measurements of that very device in the calibration
    (latency/estimation/calibration_report.json: its compute and serving rows' devices), matched by name
    (the catalog's "NVIDIA H100 SXM" is the calibration's "NVIDIA H100 SXM 80GB"). A device outside it is
    estimated from the fit of its kind: the launch check marks its figures "extrapolated" even where
    `Estimate.calibrated` (its kind and engine had rows) is True, as for the AMD MI300X."""
    if report is None:
        from latency.teaching.explain import load_report
        report = load_report()
    names = {_core(r["device"]) for key in ("compute_rows", "serving_rows") for r in report.get(key, []) if r.get("device")}
    out = set()
    for hid, entry in catalog.hardware.items():
        mine = _core(entry.label("en"))
        if any(n.startswith(mine) or mine.startswith(n) for n in names):
            out.add(hid)
    return frozenset(out)
