"""One figure per question (issue 31 item 1): every page helper that shows a time, a speed, a memory figure
or a cost for a set-up gives, to the display's rounding, what `latency.estimate` gives for that set-up
called directly, over at least 200 set-ups (the presets and random ones drawn over the whole input space).

Helpers swept (the pages that call them):
- estimator: `scenario.evaluate` (headline, verdict, timeline), `tradeoffs.headline` (cost, server line),
  `answers.judge` (the largest-model and other-hardware answers: devices and cost), `scenario.device_sweep`
  (its bar for the chosen device), `scenario.context_sweep`, `scenario.distance_sweep` (the swept set-ups);
- trade-off page: `tradeoffs.headline`, `concurrency_curve` (the current point), `precision_rows` (the
  current precision's row), `memory_by_context` (the current point), `tornado` (its base), the budget map,
  the cost chart and the export at the current cell (each as the map prices it, inputs named on the page:
  as many devices as the model needs, its usual engine, b conversations per server run together);
- other areas' helpers on main: the lesson's steps (`lesson.Scenario.run`, `lesson.cost_per_1k`), the quiz's
  computed answers (`quiz.evaluate`) and the term-entry checks (`claims.run_check`), on their own set-ups.
Not swept: room reveals (they show the quiz's computed answers, swept above, and no figure of their own);
the size chart's curve, which is drawn through the architecture's scaled family (the current point on it
is the headline's, checked here).

Expected values come from `latency.estimate` called directly (and costs by hand from its stages), never
from the helper a page calls.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from latency import estimate
from latency.estimation import places, scenario, sizing
from latency.estimation.catalog import load_catalog
from latency.exploring import answers as A
from latency.exploring import tradeoffs as T
from latency.exploring.explorer import load as load_explorer
from latency.exploring.stages import page_stages
from latency.language import formats
from latency.teaching import content

CAT = load_catalog()
STOPS = places.load_stops()
CASES = {u.id: u for u in content.use_case_budgets("en")}
DEFAULT = scenario.defaults(STOPS, CASES)
PRICES = T.catalog_prices(CAT)
F = formats.get("en")
RANDOM_SETUPS = 200


def shown_s(x: float) -> str:
    return F.seconds(x)


def shown_tps(x: float) -> str:
    return formats.number(x, 3)


def shown_gb(x: float) -> str:
    return F.gb(x)


def shown_usd(x: float) -> str:
    return F.usd(x) if x == x else "none"


def random_setup(rng: random.Random) -> dict:
    """A set-up drawn over the whole input space, as the pages' widgets and a URL can set it."""
    case = rng.choice(list(CASES.values()))
    v = dict(DEFAULT)
    v.update(
        model_size_b=rng.choice(sizing.size_steps(CAT)), hardware=rng.choice(list(CAT.hardware)),
        devices=scenario.DEVICES_AUTO if rng.random() < 0.7 else rng.choice(scenario.DEVICE_COUNTS),
        distance_km=rng.choice(places.distance_steps(STOPS)), arch=rng.choice(scenario.ARCHITECTURES),
        precision=rng.choice(list(CAT.precisions)),
        prompt_tokens=int(round(10 ** rng.uniform(0.5, 4.3))),
        document_tokens=0 if rng.random() < 0.6 else int(round(10 ** rng.uniform(2, 4.8))),
        output_tokens=int(round(10 ** rng.uniform(0, 3.6))),
        context_tokens=0 if rng.random() < 0.6 else int(round(10 ** rng.uniform(2, 4.5))),
        concurrency=1 if rng.random() < 0.4 else int(round(10 ** rng.uniform(0.3, 3))),
        arrival=rng.choice(scenario.ARRIVALS), access=rng.choice(scenario.ACCESS_NETWORKS),
        connection=rng.choice(scenario.CONNECTIONS),
        engine=scenario.ENGINE_AUTO if rng.random() < 0.8 else rng.choice(scenario.ENGINE_CHOICES),
        use_case=case.id, budget_s=float(case.budget_s), measure=case.measure)
    return v


def presets() -> list[dict]:
    return [dict(p.values) for p in load_explorer("en").presets]


def setups() -> list[dict]:
    rng = random.Random(31)
    return presets() + [random_setup(rng) for _ in range(RANDOM_SETUPS)]


def oracle(v: dict, **changed):
    """`latency.estimate` called directly with every input of the set-up (the expected values)."""
    v = {**v, **changed}
    model = sizing.sized_model(CAT, float(v["model_size_b"]), v["arch"], CAT.precisions[v["precision"]].bytes_per_param).model
    hw = CAT.hardware[v["hardware"]].hardware
    return estimate(model, hw, prompt_tokens=int(v["prompt_tokens"]) + int(v["document_tokens"]),
                    output_tokens=int(v["output_tokens"]), batch=v.get("_batch", 1), distance_km=float(v["distance_km"]),
                    engine=None if v["engine"] == scenario.ENGINE_AUTO else v["engine"], access=v["access"],
                    connection=v["connection"], concurrent_users=v.get("_users", int(v["concurrency"])),
                    context_tokens=int(v["context_tokens"]),
                    devices=None if v["devices"] == scenario.DEVICES_AUTO else int(v["devices"]),
                    arrival=v.get("_arrival", v["arrival"]))


def cost_1k_by_hand(v: dict, e) -> float:
    """Devices x price/h x the seconds a request keeps the server busy (prefill + decode) / (3600 x the
    requests it serves together) x 1,000."""
    price = CAT.hardware[v["hardware"]].price_usd_per_hour
    if price is None or not e.fits:
        return math.nan
    return e.devices_needed * price * (e.breakdown["prefill"] + e.breakdown["decode"]) / (3600 * e.running_batch) * 1000


MEASURES = {  # a term check's measure: how it is shown, and what it reads from an estimate (the explorer pages' meaning)
    "ttft": (shown_s, lambda e: e.ttft_s), "total": (shown_s, lambda e: e.total_s),
    "tokens_per_s": (shown_tps, lambda e: e.decode_tokens_per_s),
    "server_tokens_per_s": (shown_tps, lambda e: e.server_tokens_per_s),
    "memory_gb": (shown_gb, lambda e: e.memory_gb), "devices": (str, lambda e: float(e.devices_needed)),
}


class Compare:
    """Collects every pair of figures that disagree beyond the display's rounding."""

    def __init__(self) -> None:
        self.bad: list[str] = []
        self.pairs = 0

    def __call__(self, where: str, shown, a: float, b: float) -> None:
        self.pairs += 1
        if shown(a) != shown(b):
            self.bad.append(f"{where}: {shown(a)} vs {shown(b)}")


def _evaluates(v: dict):
    try:
        return oracle(v)
    except ValueError:  # a combination the estimator rejects (an engine that does not run there)
        with pytest.raises(ValueError):
            scenario.evaluate(CAT, v)
        return None


def test_every_explorer_helper_gives_the_estimate_of_its_set_up():
    same = Compare()
    checked = one_server = 0
    for n, v in enumerate(setups()):
        e = _evaluates(v)
        if e is None:
            continue
        checked += 1
        tag = f"set-up {n} ({v['model_size_b']}B {v['arch']} {v['precision']} on {v['devices']} {v['hardware']}, " \
              f"{v['concurrency']} users {v['arrival']}, engine {v['engine']})"
        key = "ttft_s" if v["measure"] == "ttft" else "total_s"
        # The estimator's headline, verdict and timeline
        _, entry, est = scenario.evaluate(CAT, v)
        assert est.fits == e.fits, tag
        for name in ("ttft_s", "total_s"):
            same(f"{tag} estimator {name}", shown_s, getattr(est, name), getattr(e, name))
        same(f"{tag} estimator speed", shown_tps, est.decode_tokens_per_s, e.decode_tokens_per_s)
        same(f"{tag} estimator memory", shown_gb, est.memory_gb, e.memory_gb)
        assert est.devices_needed == e.devices_needed, tag
        stages = page_stages(est, entry.kind)  # the timeline's stages sum to the whole answer
        same(f"{tag} timeline", shown_s, sum(stages.values()), e.total_s)
        # The trade-off page's headline and the estimator's cost and server line
        head = T.headline(CAT, v, PRICES)
        same(f"{tag} headline latency", shown_s, head.latency_s, getattr(e, key))
        same(f"{tag} headline speed", shown_tps, head.per_user_tokens_per_s, e.decode_tokens_per_s)
        same(f"{tag} headline server", shown_tps, head.server_tokens_per_s, e.server_tokens_per_s)
        same(f"{tag} headline cost", shown_usd, head.cost_per_1k_answers, cost_1k_by_hand(v, e))
        assert head.devices == e.devices_needed, tag
        if not e.fits:
            continue
        # The answers' own figures (the largest model, other hardware): devices and cost of that set-up
        found = A.judge(CAT, v, v["measure"], v["budget_s"])
        if found is not None:
            assert found.devices == e.devices_needed, tag
            same(f"{tag} answer cost", shown_usd, found.cost_per_1k_answers, cost_1k_by_hand(v, e))
        # The estimator's devices chart: the chosen device's bar
        bar = next(b for h, b in scenario.device_sweep(CAT, v, scenario.evaluate(CAT, v)[0]) if h.id == v["hardware"])
        same(f"{tag} devices chart", shown_s, bar.total_s, e.total_s)
        sized = scenario.evaluate(CAT, v)[0]
        # The context and distance charts: the swept set-ups (the current one and a grid point)
        ctx = scenario.context_sweep(CAT, v, sized, contexts=(v["context_tokens"], 8192))
        same(f"{tag} context chart now", shown_tps, ctx["tps"][0], e.decode_tokens_per_s)
        e8k = oracle(v, context_tokens=8192)
        if e8k.fits:
            same(f"{tag} context chart 8k", shown_tps, ctx["tps"][1], e8k.decode_tokens_per_s)
        dist = scenario.distance_sweep(CAT, v, sized, n=5)
        k = 2
        same(f"{tag} distance chart", shown_s, dist["ttft"][k], oracle(v, distance_km=float(dist["distances"][k])).ttft_s)
        # The trade-off page's tabs
        s = T.scenario_of(v)
        curve = T.concurrency_curve(s, CAT, model=sized.model, devices=head.devices)
        if curve.fits:
            now = curve.current
            same(f"{tag} users tab ttft", shown_s, now["ttft_s"], e.ttft_s)
            same(f"{tag} users tab speed", shown_tps, now["per_user_tokens_per_s"], e.decode_tokens_per_s)
            same(f"{tag} users tab server", shown_tps, now["throughput_tokens_per_s"], e.server_tokens_per_s)
        row = next(r for r in T.precision_rows(s, CAT) if r.precision_id == v["precision"])
        same(f"{tag} precision row memory", shown_gb, row.memory_gb, e.memory_gb)
        same(f"{tag} precision row ttft", shown_s, row.ttft_s, e.ttft_s)
        same(f"{tag} precision row speed", shown_tps, row.tokens_per_s, e.decode_tokens_per_s)
        mem = T.memory_by_context(s, CAT)
        at = list(mem["held"]).index(mem["current"])
        same(f"{tag} memory chart", shown_gb, mem["series"][v["precision"]][at], e.memory_gb)
        same(f"{tag} what matters most", shown_s, T.tornado(s, CAT, STOPS).base_s, getattr(e, key))
        # The map, the cost chart and the export at the current cell: as the map prices it (named on the page)
        grid = T.size_hardware_grid(s, CAT, PRICES, [v["hardware"]], sizes=[v["model_size_b"]])
        p = grid.plan
        if p.fits[0, 0]:
            b = int(p.batch[0, 0])
            # b of the users on each server, arriving as the page's users do (steady use or a burst)
            cell = oracle(v, devices=scenario.DEVICES_AUTO, engine=scenario.ENGINE_AUTO, _batch=b, _users=b)
            same(f"{tag} map cell", shown_s, p.latency_s[0, 0], getattr(cell, key))
            auto = v["devices"] == scenario.DEVICES_AUTO and v["engine"] == scenario.ENGINE_AUTO
            if auto and int(p.replicas[0, 0]) == 1:  # one server for everyone: the headline's own set-up
                one_server += 1
                same(f"{tag} map cell = headline (one server)", shown_s, p.latency_s[0, 0], head.latency_s)
                assert bool(p.meets[0, 0]) == head.meets, tag
            (export,) = T.export_rows(s, CAT, PRICES, grid)
            same(f"{tag} export", shown_s, export[key], getattr(cell, key))
            same(f"{tag} export memory", shown_gb, export["memory_gb"], cell.memory_gb)
    assert checked >= 200, checked
    assert one_server >= 50, one_server  # the sweep reaches many users on one server, in both patterns
    assert same.pairs > 3000
    assert not same.bad, f"{len(same.bad)} of {same.pairs} pairs disagree:\n" + "\n".join(same.bad[:40])


def test_the_lesson_quiz_and_term_checks_give_the_estimate_of_their_set_ups():
    """Other areas' helpers on main, swept over their own set-ups (every lesson step, every quiz question's
    set-ups, every term-entry check): each figure is the estimate of the set-up its link opens."""
    from latency.teaching import claims, lesson as L, quiz as Q

    same = Compare()
    les = L.load_lesson(CAT, STOPS)
    scs = [st.scenario for st in les.steps] + [les.finish]
    for q in Q.load_quiz(CAT, STOPS, les):
        scs += [o.scenario for o in q.options if getattr(o, "scenario", None) is not None]
        if getattr(q, "scenario", None) is not None:
            scs.append(q.scenario)
    assert len(scs) >= 10
    for sc in scs:
        query = sc.estimator_query(CAT)
        values = {**DEFAULT, **scenario.parse_query(query, scenario.specs(CAT, DEFAULT, list(CASES)))[0]}
        e = oracle(values)
        got = sc.run(CAT)
        same(f"lesson {sc} ttft", shown_s, got.ttft_s, e.ttft_s)
        same(f"lesson {sc} total", shown_s, got.total_s, e.total_s)
        if hasattr(L, "cost_per_1k"):  # main's own lesson cost (wip-learn shows tradeoffs.headline's, swept above)
            cost = L.cost_per_1k(CAT, sc, got)
            if cost is not None:
                same(f"lesson {sc} cost", shown_usd, cost, cost_1k_by_hand(values, e))
    terms = 0
    for term_id in content.term_ids() if hasattr(content, "term_ids") else [content.DEFAULT_TERM]:
        term = content.load_term(term_id, "en")
        for _where, obj, check in term.checks():
            if check.scenarios == claims.REPRESENTATIVE:
                continue
            result = claims.run_check(check, CAT)
            shown, read = MEASURES[check.measure]
            for o in result.outcomes:
                terms += 1
                same(f"term {term_id} check {check.id}", shown, o.value, read(oracle(dict(o.values))))
                if o.other_values is not None:
                    same(f"term {term_id} check {check.id} (versus)", shown, o.other, read(oracle(dict(o.other_values))))
    assert terms >= 5, terms
    assert not same.bad, f"{len(same.bad)} of {same.pairs} pairs disagree:\n" + "\n".join(same.bad[:40])
