"""The trade-off page's sections: the headline (N users on one server, as on the estimator page) and
one function per tab. Each takes its data as arguments; figures come from latency.charts.tradeoffs."""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd
import streamlit as st

from latency.charts import tradeoffs as C
from latency.charts.style import INK, STAGE_COLORS, TOTAL
from latency.exploring import launch
from latency.exploring import tradeoffs as T
from latency.exploring.stages import page_stages, stage_shares
from latency.estimation.estimator import devices_for_memory
from latency.language.formats import seconds_each
from latency.language.formats import seconds_value
from latency.exploring import verdict as V
from latency.language.i18n import md
from ui import charts
from ui.shell import strings as shell_strings
from ui.tradeoff_inputs import Formats, cap


# --- headline: per user, then the whole server -----------------------------------------------------
def headline(fmt: Formats, sc: T.Scenario, head: T.Headline, abandon_s: float | None) -> None:
    s = fmt.s
    est = head.estimate
    hw = fmt.catalog.hardware[sc.hardware_id]
    shown_devices = head.devices if head.fits or sc.devices == "auto" else int(sc.devices)  # the headline states its set-up
    scenario = s("scenario_text", size=fmt.size(sc.model_size_b), hardware=md(hw.label(fmt.lang)),
                 devices=fmt.f.count(shown_devices, "devices"), distance=fmt.distance(sc.distance_km),
                 users=fmt.users(sc.concurrency))
    measure = fmt.measure_short(sc.measure)
    if not head.fits:  # what it would need, as the estimator page says it (issue 31 item 2)
        need = int(getattr(est, "min_devices", 0) or devices_for_memory(est.memory_gb, hw.hardware.memory_gb))
        if sc.devices != "auto" and need <= int(hw.hardware.resolved("max_devices")):
            st.error(s("verdict_nofit_chosen", scenario=scenario, hardware=md(hw.label(fmt.lang)), chosen=int(sc.devices),
                       capacity=fmt.gb(int(sc.devices) * hw.hardware.memory_gb), memory=fmt.gb(est.memory_gb), need=need))
        else:
            st.error(s("verdict_nofit", scenario=scenario, hardware=md(hw.label(fmt.lang)),
                       max=int(hw.hardware.resolved("max_devices"))))
        return
    lo, hi = est.ranges[T.MEASURE_KEY[sc.measure]]
    # one word per verdict across pages (latency.exploring.verdict, the estimator page's rule): within only
    # when the range as printed is, borderline where it straddles the budget, over when even its low end is
    kind = V.verdict(head.latency_s, lo, hi, sc.budget_s, shown=seconds_value).kind
    text = s({"within": "verdict_meets", "uncertain": "verdict_borderline", "over": "verdict_misses"}[kind],
             scenario=scenario, measure=measure, latency=fmt.sec(head.latency_s), budget=fmt.sec(sc.budget_s),
             ratio=fmt.ratio(head.latency_s / sc.budget_s), low=fmt.sec(lo), high=fmt.sec(hi))
    if abandon_s is not None and head.latency_s >= abandon_s:
        text += " " + s("verdict_abandon", abandon=fmt.sec(abandon_s))
    text += " " + s("verdict_rule")
    {"within": st.success, "uncertain": st.warning, "over": st.error}[kind](text)
    st.caption(s("plan_text_one" if head.users == 1 else "plan_text", users=fmt.users(head.users), devices=f"{head.devices:,}", batch=f"{head.batch:,}"))
    st.markdown(f"**{s('metrics_per_user')}**")
    row = st.container(horizontal=True)
    row.metric(s("metric_latency", measure=measure), fmt.sec(head.latency_s), width="content",
               delta=s("metric_range", low=fmt.sec(lo), high=fmt.sec(hi)), delta_color="off", delta_arrow="off")
    row.metric(s("metric_speed"), fmt.tps(head.per_user_tokens_per_s), width="content")
    st.markdown(f"**{s('metrics_server')}**")
    row = st.container(horizontal=True)
    row.metric(s("metric_devices"), s("metric_devices_value", n=f"{head.devices:,}"), width="content")
    row.metric(s("metric_throughput"), fmt.tps(head.server_tokens_per_s), width="content")
    row.metric(s("metric_cost_1k"), T.fmt_usd(head.cost_per_1k_answers), width="content",
               delta=s("metric_hourly", cost=T.fmt_usd(head.server_cost_per_hour)), delta_color="off", delta_arrow="off")
    row.metric(s("metric_cost_1m"), T.fmt_usd(head.cost_per_1m_tokens), width="content")
    # the two speeds named in words where they differ (issue 31 item 2)
    if head.users <= 1:
        st.caption(s("speeds_one", per_user=fmt.tps(head.per_user_tokens_per_s), whole=fmt.tps(head.server_tokens_per_s)))
    else:
        st.caption(s("speeds_many", per_user=fmt.tps(head.per_user_tokens_per_s), whole=fmt.tps(head.server_tokens_per_s),
                     share=fmt.tps(head.server_tokens_per_s / head.users)))
        faster = T.burst_faster(est, T.other_arrival(fmt.catalog, T.values_of(sc)), sc.arrival)
        if faster is not None:
            st.caption(s("burst_faster", burst=fmt.tps(faster[0]), steady=fmt.tps(faster[1])))
    # the stages as every page names them: with one user no queue (latency.exploring.stages, issue 31 item 2)
    stage, share = stage_shares(page_stages(est, hw.kind), sc.measure)
    st.markdown(s("limits_text", stage=s(f"stage_{stage}"), share=fmt.f.percent(share), bound=limit_advice(s, stage, est)))


def limit_advice(s, stage: str, est) -> str:
    """What helps, for the stage that takes the largest share (PM trial item 9: "prefill (98%)" was followed by
    decode's advice, "more bandwidth or a lower precision"): prefill and decode by what bounds them
    (`Estimate.bottleneck`), the network by distance, the wait by fewer users per server."""
    if stage in ("prefill", "decode"):
        return s(f"bound_{stage}_{est.bottleneck[stage]}")
    return s(f"bound_{stage}")


def seconds_column(fmt: Formats, values: Sequence[float], shown: Sequence[bool]) -> list[str]:
    """A table column of durations with one decimal rule for all its cells (PM trial item 15: "0.030 s" beside
    "0.16 s" in one comparison); "–" where the set-up does not fit."""
    text = iter(seconds_each(fmt.f, [v for v, ok in zip(values, shown) if ok]))
    return [next(text) if ok else "–" for ok in shown]


def quality_notes(fmt: Formats, rows) -> None:
    """What each precision costs in quality, per its source, as a list under the table: a table cell cut the notes
    at 1366 px ("Small loss on large models, larger on sm...", PM trial item 13); here they wrap whole."""
    s, lines = fmt.s, []
    for x in rows:
        p = fmt.catalog.precisions[x.precision_id]
        note = p.quality.get(fmt.lang, "")
        if not note:
            continue
        src = p.quality_source or ""
        link = f" ([{s('link_text')}]({src}))" if src.startswith("https://") else ""
        lines.append(f"- **{md(fmt.precision_short(x.precision_id))}**: {md(note)}{link}")
    if lines:
        st.markdown(f"**{s('col_quality')}**\n\n" + "\n".join(lines))


# --- budget maps (the fleet: as many servers as the budget needs) -----------------------------------
def cell_hover(fmt: Formats, grid: T.Grid, sc: T.Scenario, names: list[str]) -> np.ndarray:
    """Hover text per cell (rows = sizes, cols = grid columns named by `names`)."""
    s, p, f = fmt.s, grid.plan, fmt.f
    out = np.empty(p.latency_s.shape, dtype=object)
    measure, no_price = fmt.measure_short(sc.measure), s("no_price")
    sizes = [fmt.size(size) for size in grid.rows]
    # Plain Python numbers, read once: numpy scalar indexing per cell was a good part of the time.
    fits, latency, cost = p.fits.tolist(), p.latency_s.tolist(), (p.cost_per_answer * 1000).tolist()
    safe = grid.safe if grid.safe is not None else p.meets
    borderline, high = (p.meets & ~safe).tolist(), (grid.high if grid.high is not None else p.latency_s).tolist()
    replicas, devices, batch = p.replicas.tolist(), p.devices.tolist(), p.batch.tolist()
    for i, size in enumerate(sizes):
        for j, where in enumerate(names):
            if not fits[i][j]:
                hw_id = grid.cols[j] if isinstance(grid.cols[j], str) else sc.hardware_id
                out[i, j] = s("hover_nofit", size=size, where=where,
                              max=int(fmt.catalog.hardware[hw_id].hardware.resolved("max_devices")))
                continue
            out[i, j] = s("hover_cell", size=size, where=where, measure=measure,
                          latency=f.seconds(latency[i][j]), ratio=f.ratio(latency[i][j] / sc.budget_s),
                          servers=f"{int(replicas[i][j]):,}", devices=int(devices[i][j]), batch=f"{int(batch[i][j]):,}",
                          cost=T.fmt_usd(cost[i][j]) if math.isfinite(cost[i][j]) else no_price)
            if borderline[i][j]:  # the headline's and the estimator's word for it (PM trial item 6)
                out[i, j] += "<br>" + s("hover_borderline", high=f.seconds(high[i][j]))
    return out


def marks(fmt: Formats, grid: T.Grid) -> list[C.Mark]:
    out = []
    for cell, symbol, name, color in ((grid.current, "square-open", fmt.s("mark_current"), INK),
                                      (grid.row_cheapest, "diamond", fmt.s("mark_row"), TOTAL),
                                      (grid.cheapest, "star", fmt.s("mark_cheapest"), STAGE_COLORS["queue"])):
        if cell is not None:
            out.append(C.Mark(row=cell[1], col=cell[0], symbol=symbol, name=name, color=color))  # transposed
    return out


def plan_words(fmt: Formats, sc: T.Scenario, grid: T.Grid, cell: tuple[int, int]) -> dict[str, str]:
    """A map cell's set-up in words: size, device, servers x devices, cost, time and its range's slow end."""
    c = T.summarize(grid, *cell)
    hid = c.hardware_id if c.hardware_id in fmt.catalog.hardware else sc.hardware_id  # distance map: the columns are km
    dist = None if c.hardware_id in fmt.catalog.hardware else float(grid.cols[cell[1]])
    high = T.range_high(T.fleet(sc), fmt.catalog, c.model_size_b, hid, c.batch, dist)
    return dict(size=fmt.size(c.model_size_b), hardware=md(fmt.hw(hid)), servers=fmt.f.count(c.replicas, "servers"),
                devices=fmt.f.count(c.devices, "devices"),
                cost=T.fmt_usd(c.cost_per_1k_answers), measure=fmt.measure_short(sc.measure), latency=fmt.sec(c.latency_s),
                high=fmt.sec(high))


def cheapest(fmt: Formats, sc: T.Scenario, grid: T.Grid) -> None:
    """The cheapest set-up that meets the budget across its range, with its device count and cost in the same
    sentence, and a cheaper borderline one named as such beside it (issue 31 item 3)."""
    s = fmt.s
    lines = [s("cheapest_none") if grid.cheapest is None else s("cheapest_overall", **plan_words(fmt, sc, grid, grid.cheapest))]
    if grid.borderline is not None:
        lines.append(s("cheapest_borderline", **plan_words(fmt, sc, grid, grid.borderline)))
    if grid.row_cheapest is None:
        lines.append(s("cheapest_row_none", size=fmt.size(sc.model_size_b)))
    else:
        lines.append(s("cheapest_row", **plan_words(fmt, sc, grid, grid.row_cheapest)))
    if grid.row_borderline is not None and grid.row_borderline != grid.borderline:
        lines.append(s("cheapest_borderline", **plan_words(fmt, sc, grid, grid.row_borderline)))
    named = [c for c in (grid.cheapest, grid.borderline, grid.row_cheapest, grid.row_borderline) if c is not None]
    measured = launch.measured_hardware(fmt.catalog)
    guessed = dict.fromkeys(h for h in (T.summarize(grid, *c).hardware_id for c in named)
                            if h in fmt.catalog.hardware and h not in measured)
    lines += [s("cheapest_extrapolated", hardware=md(fmt.hw(h))) for h in guessed]
    if grid.cheapest is not None and T.summarize(grid, *grid.cheapest).model_size_b < sc.model_size_b:
        lines.append(s("cheapest_quality"))
    st.markdown("\n\n".join(lines))


def fleet_note(fmt: Formats, sc: T.Scenario) -> None:
    """Where the user fixed a device count or a server program, say that the fleet figures do not use them
    (`tradeoffs.fleet`: a count or an engine chosen for one device means nothing for another)."""
    chosen = []
    if sc.devices != "auto":
        chosen.append(fmt.names("unseen_item", name=fmt.names("input_devices"), value=fmt.f.count(sc.devices, "devices")))
    if sc.engine != "auto":
        chosen.append(fmt.names("unseen_item", name=fmt.names("input_engine"),
                                value=shell_strings("estimator", fmt.lang)(f"engine_{sc.engine}")))
    if chosen:
        st.caption(fmt.s("fleet_note", chosen=md(", ".join(chosen))))


def order_reason(p: T.Plan, j: int, small: int, big: int) -> str | None:
    """Why the larger of two cells in a device's column meets the target across its range where the smaller
    meets it only at its estimate, from their own plans: "batch" (the smaller packs more conversations a
    server, and a shared server's range is the widest: the wait for the others is the least certain part), or
    "devices" (the larger is spread over more devices, each reading less of the weights, so it is faster);
    None where neither holds, and the page then gives no reason rather than a wrong one (PM re-check
    2026-12-05: with one user the note read "70.6B packs 1 conversations ... several conversations")."""
    if p.batch[small, j] > p.batch[big, j]:
        return "batch"
    if p.devices[big, j] > p.devices[small, j] and p.latency_s[big, j] < p.latency_s[small, j]:
        return "devices"
    return None


def map_order_pair(grid: T.Grid, current: str) -> tuple[int, int, int] | None:
    """(column, smaller row, larger row) where a larger model is ✓ and a smaller one △ in the same device's
    column (the current device first) for a reason the page can name (`order_reason`): the map is not
    monotonic in size there, and the page says why."""
    if grid.safe is None:
        return None
    p = grid.plan
    cols = sorted(range(len(grid.cols)), key=lambda j: grid.cols[j] != current)
    for j in cols:
        border = [i for i in range(len(grid.rows)) if p.meets[i, j] and not grid.safe[i, j]]
        for k in range(len(grid.rows)):
            smaller = [i for i in border if i < k and order_reason(p, j, i, k)]
            if grid.safe[k, j] and smaller:
                return j, max(smaller), k
    return None


def map_order_note(fmt: Formats, sc: T.Scenario, grid: T.Grid) -> str:
    """Why a larger model can be ✓ where a smaller one is △ (PM trial round 2, item 5), from the two cells' own
    plans (`order_reason`)."""
    found = map_order_pair(grid, sc.hardware_id)
    if found is None:
        return ""
    j, i, k = found
    p, f = grid.plan, fmt.f
    def plan(r: int) -> dict:
        return dict(batch=f.count(int(p.batch[r, j]), "conversations"), servers=f.count(int(p.replicas[r, j]), "servers"),
                    devices=f.count(int(p.devices[r, j]), "devices"), latency=fmt.sec(p.latency_s[r, j]))
    small, big = plan(i), plan(k)
    high = grid.high[i, j] if grid.high is not None else float("nan")
    key = "map_order_note" if order_reason(p, j, i, k) == "batch" else "map_order_note_devices"
    return fmt.s(key, hardware=md(fmt.hw(grid.cols[j])), small=fmt.size(grid.rows[i]), big=fmt.size(grid.rows[k]),
                 small_batch=small["batch"], small_servers=small["servers"], small_devices=small["devices"],
                 big_batch=big["batch"], big_servers=big["servers"], big_devices=big["devices"],
                 small_latency=small["latency"], big_latency=big["latency"],
                 high=fmt.sec(high) if high == high else "–", budget=fmt.sec(sc.budget_s))


def budget_maps(fmt: Formats, sc: T.Scenario, data: Mapping[str, Any]) -> None:
    s, measure = fmt.s, fmt.measure_short(sc.measure)
    st.caption(s("map_caption", users=fmt.users(sc.concurrency)))
    fleet_note(fmt, sc)
    names = dict(x_title=s("axis_size"), colorbar=s("colorbar"), nofit=s("nofit"))  # y axis: named by the heading
    grid: T.Grid = data["grid"]
    cheapest(fmt, sc, grid)
    st.markdown(f"**{s('map_hw_title', measure=measure, distance=fmt.distance(sc.distance_km))}**")
    hover = cell_hover(fmt, grid, sc, [fmt.hw(h) for h in grid.cols])
    spec = C.budget_heatmap_spec(grid.ratio.T, x_labels=[fmt.size(v) for v in grid.rows],
                                 y_labels=[C.short_label(fmt.hw(h)) for h in grid.cols], hover=hover.T,
                                 marks=marks(fmt, grid), names=names, safe=None if grid.safe is None else grid.safe.T)
    charts.show_spec(spec, key="tr_chart_map_hw", name=s("table_map_hw"))  # redrawn on every input change: no plotly objects
    note = map_order_note(fmt, sc, grid)
    if note:
        st.caption(note)
    dist: T.Grid = data["dist"]
    st.markdown(f"**{s('map_dist_title', measure=measure, hardware=md(fmt.hw(sc.hardware_id)))}**")
    hover = cell_hover(fmt, dist, sc, [fmt.distance(v) for v in dist.cols])
    spec = C.budget_heatmap_spec(dist.ratio.T, x_labels=[fmt.size(v) for v in dist.rows],
                                 y_labels=[fmt.distance(v) for v in dist.cols], hover=hover.T,
                                 marks=[m for m in marks(fmt, dist) if m.symbol != "diamond"], names=names,
                                 safe=None if dist.safe is None else dist.safe.T)
    charts.show_spec(spec, key="tr_chart_map_dist", name=s("table_map_dist"))
    st.caption(s("map_dist_note"))
    st.caption(s("share_hint"))


# --- concurrency: the headline's one server, more and more users -----------------------------------
def concurrency(fmt: Formats, sc: T.Scenario, data: Mapping[str, Any]) -> None:
    s = fmt.s
    curve: T.ConcurrencyCurve = data["curve"]
    st.markdown(f"**{s('conc_title')}**")
    st.caption(s("conc_caption"))
    if not curve.fits:
        st.warning(s("conc_nofit", hardware=md(fmt.hw(sc.hardware_id))))
        return
    now = curve.current
    row = st.container(horizontal=True)
    row.metric(s("conc_metric_max"), f"{curve.max_batch:,}", width="content")
    row.metric(s("conc_metric_plateau"), fmt.users(curve.plateau_users), width="content")
    row.metric(s("conc_metric_speed"), fmt.tps(now["per_user_tokens_per_s"]), width="content")
    row.metric(s("conc_metric_thr"), fmt.tps(now["throughput_tokens_per_s"]), width="content",
               delta=s("conc_metric_wait") + " " + fmt.sec(now["queue_s"]), delta_color="off", delta_arrow="off")
    latencies = [(cap(s("conc_latency", measure=fmt.measure_short("ttft"))), curve.ttft_s)]
    if sc.measure == "total":
        latencies.append((cap(s("conc_latency", measure=fmt.measure_short("total"))), curve.total_s))
    names = dict(x_title=s("axis_users"), per_user=s("conc_per_user"), throughput=s("conc_throughput"),
                 y_speed=s("axis_speed"), y_throughput=s("axis_throughput"), y_latency=s("axis_seconds"),
                 budget=s("budget_line", budget=fmt.sec(sc.budget_s)), plateau=s("conc_plateau_line"),
                 queue=s("conc_queue_line"), current=s("current_point"))
    fig = C.concurrency_figure(curve.users, curve.per_user_tokens_per_s, curve.throughput_tokens_per_s, latencies,
                               budget_s=sc.budget_s, current_users=now["users"],
                               current_latency_s=now["ttft_s"] if sc.measure == "ttft" else now["total_s"],
                               queue_from=float(curve.max_batch), plateau_at=float(curve.plateau_users),
                               names=names, fmt_s=fmt.sec, fmt_n="{:,.0f}".format)
    charts.show(fig, key="tr_chart_concurrency", name=s("conc_title"))
    if sc.arrival == "steady":
        st.caption(s("conc_text_steady", devices=curve.devices, max_batch=f"{curve.max_batch:,}",
                     plateau=fmt.users(curve.plateau_users)))
        st.caption(s("conc_knee", max_batch=f"{curve.max_batch:,}"))
    else:
        st.caption(s("conc_text", devices=curve.devices, max_batch=f"{curve.max_batch:,}",
                     plateau=fmt.users(curve.plateau_users)))


# --- cost: every device at the current size ---------------------------------------------------------
def cost(fmt: Formats, sc: T.Scenario, data: Mapping[str, Any]) -> None:
    s = fmt.s
    devices: T.Grid = data["devices"]
    p = devices.plan
    st.caption(s("cost_caption_one" if sc.concurrency == 1 else "cost_caption", users=fmt.users(sc.concurrency)))
    fleet_note(fmt, sc)
    st.markdown(f"**{s('pareto_title', size=fmt.size(sc.model_size_b))}**")
    ids = list(devices.cols)
    ok, lat, per_1k = p.fits[0], p.latency_s[0], p.cost_per_answer[0] * 1000
    use = [k for k in range(len(ids)) if ok[k] and math.isfinite(per_1k[k])]
    measure = fmt.measure_short(sc.measure)
    hover = [s("hover_point", hardware=fmt.hw(ids[k]), measure=measure, latency=fmt.sec(lat[k]),
               cost=T.fmt_usd(per_1k[k]), cost_m=T.fmt_usd(p.cost_per_1m_tokens[0][k]),
               servers=f"{int(p.replicas[0][k]):,}", devices=int(p.devices[0][k]), batch=f"{int(p.batch[0][k]):,}")
             for k in use]
    here = ids.index(sc.hardware_id)
    names = dict(x_title=s("axis_cost"), y_title=cap(s("axis_latency_s", measure=measure)), meets=s("meets"),
                 misses=s("misses"), front=s("front"), budget=s("budget_line", budget=fmt.sec(sc.budget_s)),
                 current=s("mark_current"))
    fig, unlabelled = C.pareto_figure([C.short_label(fmt.hw(ids[k]), 16) for k in use], per_1k[use], lat[use],
                                      p.meets[0][use], T.pareto_front(per_1k[use], lat[use]), hover=hover,
                                      current=use.index(here) if here in use else None, budget_s=sc.budget_s,
                                      names=names, fmt_s=fmt.sec, fmt_usd=T.fmt_usd)
    charts.show(fig, key="tr_chart_pareto", name=s("table_pareto"))
    st.caption(s("pareto_caption"))
    if unlabelled:  # crowded points keep their marker and hover; their names and numbers go here
        st.caption(s("pareto_unlabelled", points=md("; ".join(
            s("pareto_point", hardware=fmt.hw(ids[use[k]]), latency=fmt.sec(lat[use[k]]), cost=T.fmt_usd(per_1k[use[k]]))
            for k in unlabelled))))
    left = [fmt.hw(ids[k]) for k in range(len(ids)) if not ok[k]]
    if left:
        st.caption(s("pareto_excluded", names=md(", ".join(left))))


# --- memory and lightweighting ------------------------------------------------------------------------
def memory_notes(fmt: Formats, sc: T.Scenario, rows, device_gb: float) -> list[str]:
    """Why the table does not follow the bits where it does not (PM trial round 2, item 4), from the rows' own
    figures: a format with fewer bits that needs more memory than one with more (a weight-only format keeps the
    KV cache in 16 bits, so with many users' KV it outweighs the weights it saves), and rows whose memory for
    every user at once is over the devices' (some users wait for memory: the wait is in their first token)."""
    s, out = fmt.s, []
    fits = [x for x in rows if x.fits]
    for a in reversed(fits):  # lightest first (INT4 before Q4_K_M): a lighter format that needs more than a heavier one
        heavier = [b for b in fits if b.bytes_per_param > a.bytes_per_param and b.memory_gb < a.memory_gb
                   and b.kv_cache_gb < a.kv_cache_gb]
        if heavier:
            b = min(heavier, key=lambda x: x.memory_gb)
            key = "mem_note_kv_slower" if a.tokens_per_s < b.tokens_per_s else "mem_note_kv"
            out.append(s(key, low=fmt.precision_short(a.precision_id), high=fmt.precision_short(b.precision_id),
                         low_weights=fmt.gb(a.weights_gb), high_weights=fmt.gb(b.weights_gb),
                         low_kv=fmt.gb(a.kv_cache_gb), high_kv=fmt.gb(b.kv_cache_gb), users=fmt.users(sc.concurrency),
                         low_speed=fmt.tps(a.tokens_per_s), high_speed=fmt.tps(b.tokens_per_s)))
            break
    waiting = [x for x in fits if x.memory_gb > x.devices_needed * device_gb]
    if waiting:
        out.append(s("mem_note_wait", precisions=", ".join(fmt.precision_short(x.precision_id) for x in waiting),
                     users=fmt.users(sc.concurrency)))
    return out


def memory(fmt: Formats, sc: T.Scenario, head: T.Headline, data: Mapping[str, Any]) -> None:
    s = fmt.s
    hw = fmt.catalog.hardware[sc.hardware_id]
    st.markdown(f"**{s('mem_title', size=fmt.size(sc.model_size_b), users=fmt.users(sc.concurrency))}**")
    st.caption(s("mem_caption", hardware=md(hw.label(fmt.lang))))
    mem = data["memory"]
    series = mem["series"]
    names = dict(x_title=s("axis_context"), y_title=s("axis_memory"), current=s("mem_current"), hover=s("mem_hover"))
    fig = C.memory_figure(mem["held"], series, labels={pid: fmt.precision_short(pid) for pid in series},
                          device_gb=hw.hardware.memory_gb,
                          device_label=s("mem_device_line", hardware=C.short_label(hw.label(fmt.lang)),
                                         gb=fmt.gb(hw.hardware.memory_gb)),
                          current_context=mem["current"], names=names, fmt_gb=fmt.gb, ticks=T.CONTEXT_STEPS)
    charts.show(fig, key="tr_chart_memory", name=s("table_memory"))
    st.markdown(f"**{s('mem_table_title', context=fmt.tokens(mem['current']))}**")
    rows = data["precisions"]
    table = pd.DataFrame({
        s("col_precision"): [fmt.precision_short(x.precision_id) for x in rows],
        s("col_memory"): [fmt.gb(x.memory_gb) for x in rows],
        s("col_weights"): [fmt.gb(x.weights_gb) for x in rows],
        s("col_kv"): [fmt.gb(x.kv_cache_gb) for x in rows],
        s("col_devices"): [f"{x.devices_needed:,}" if x.fits else s("nofit_cell") for x in rows],
        s("col_ttft"): seconds_column(fmt, [x.ttft_s for x in rows], [x.fits for x in rows]),
        s("col_speed"): [fmt.tps(x.tokens_per_s) if x.fits else "–" for x in rows],
        s("col_mem_vs"): [f"{100 * x.memory_vs_fp16:.0f}%" for x in rows],
        s("col_speed_vs"): [fmt.ratio(x.speed_vs_fp16) if x.fits else "–" for x in rows],
    })
    # What differs between the rows, said above them (issue 31 item 3: "Speed vs FP16: 1x" under "generation
    # gets faster" compared different GPU counts without a word).
    if sc.devices != "auto":
        st.caption(s("mem_rows_fixed", devices=fmt.f.count(sc.devices, "devices"), users=fmt.users(sc.concurrency)))
    elif T.differing_devices(rows):
        counts = ", ".join(f"{fmt.precision_short(x.precision_id)} {fmt.f.count(x.devices_needed, 'devices')}"
                           for x in rows if x.fits)
        st.caption(s("mem_rows_differ", counts=counts, users=fmt.users(sc.concurrency)))
    else:
        st.caption(s("mem_rows_same", users=fmt.users(sc.concurrency)))
    st.dataframe(table, hide_index=True, width="stretch")
    for note in memory_notes(fmt, sc, rows, hw.hardware.memory_gb):
        st.caption(note)
    quality_notes(fmt, rows)
    st.markdown(s("quant_text"))


# --- what matters most --------------------------------------------------------------------------------
def notch_text(fmt: Formats, factor: str, value: Any) -> str:
    if value is None:
        return ""
    shown = {"model_size": fmt.size, "hardware": lambda h: C.short_label(fmt.hw(h), 18), "precision": fmt.precision_short,
             "distance": fmt.km, "prompt": fmt.tokens, "output": fmt.tokens}
    return shown.get(factor, fmt.users)(value)


def tornado(fmt: Formats, sc: T.Scenario, data: Mapping[str, Any]) -> None:
    s, measure = fmt.s, fmt.measure_short(sc.measure)
    st.markdown(f"**{s('tor_title', measure=measure)}**")
    t: T.Tornado = data["tornado"]
    names = {f: s(f"factor_{f}") for f in T.FACTORS}
    templates = dict(ratio=s("tor_summary_ratio"), only=s("tor_summary_only"), none=s("tor_summary_none"))
    if not math.isfinite(t.base_s):
        st.warning(templates["none"])
        return
    st.info(T.tornado_summary(t, names, templates, fmt.ratio), icon=":material/target:")
    bars = [C.Bar(name=cap(names[n.factor]), low_s=n.low_s, high_s=n.high_s,
                  low_text=notch_text(fmt, n.factor, n.low_value), high_text=notch_text(fmt, n.factor, n.high_value))
            for n in t.notches]
    fig = C.tornado_figure(bars, base_s=t.base_s, fmt_s=fmt.sec,
                           names=dict(x_title=cap(s("tor_axis", measure=measure)), low=s("tor_low"), high=s("tor_high"),
                                      base=s("tor_base", latency=fmt.sec(t.base_s))))
    charts.show(fig, key="tr_chart_tornado", name=s("table_tornado"))
    st.caption(s("tor_caption"))


# --- export: the budget map's cells ---------------------------------------------------------------------
def export(fmt: Formats, sc: T.Scenario, data: Mapping[str, Any]) -> None:
    s, rows = fmt.s, data["rows"]
    sizes = len({r["model_size_b"] for r in rows})
    st.caption(s("export_caption", rows=f"{len(rows):,}", sizes=f"{sizes:,}", devices=f"{len(rows) // max(sizes, 1):,}",
                 digits=T.EXPORT_DIGITS))
    st.download_button(s("export_button"), data=data["csv"], file_name="budget-map.csv", mime="text/csv",
                       key="tr_download", icon=":material/download:", on_click="ignore")
    st.markdown(f"**{s('export_preview', size=fmt.size(sc.model_size_b))}**")
    mine = [r for r in rows if r["model_size_b"] == sc.model_size_b]
    yes, no = s("yes"), s("no")
    preview = pd.DataFrame({
        s("col_device"): [fmt.hw(r["hardware_id"]) for r in mine],
        s("col_fits"): [yes if r["fits"] else no for r in mine],
        s("col_servers"): [f"{r['servers']:,}" if r["servers"] else "–" for r in mine],
        s("col_batch"): [f"{r['batch_per_server']:,}" for r in mine],
        s("col_ttft"): seconds_column(fmt, [r["ttft_s"] for r in mine], [r["fits"] for r in mine]),
        s("col_total"): seconds_column(fmt, [r["total_s"] for r in mine], [r["fits"] for r in mine]),
        s("col_memory"): [fmt.gb(r["memory_gb"]) for r in mine],
        s("col_meets"): [yes if r["meets_budget"] else no for r in mine],
        s("metric_cost_1k"): [T.fmt_usd(r["cost_usd_per_1k_answers"]) if r["cost_usd_per_1k_answers"] is not None
                              else "–" for r in mine],
    })
    st.dataframe(preview, hide_index=True, width="stretch")


def show_tab(name: str, fmt: Formats, sc: T.Scenario, head: T.Headline, data: Mapping[str, Any]) -> None:
    """The section of the tab `name` (latency.exploring.tradeoffs.TABS) for its computed `data`."""
    if name == "memory":  # the only section that also reads the headline (its devices and memory)
        memory(fmt, sc, head, data)
    else:
        {"map": budget_maps, "concurrency": concurrency, "cost": cost, "tornado": tornado, "export": export}[name](fmt, sc, data)
