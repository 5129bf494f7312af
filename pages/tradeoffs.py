"""Trade-off explorer: budget maps, concurrency, cost, memory, what matters most, CSV export.

Thin by design: every number comes from latency.tradeoffs (plans, grids, curves, tornado, export),
built on latency.estimate / estimate_sweep and the catalogs; figures from latency.charts_tradeoffs;
every string from content/ui/tradeoffs.yaml. This file only wires widgets to them and renders.

State: widget keys shared with the estimator page use the same URL names (model_size_b, hardware,
distance_km, arch, precision, prompt_tokens, output_tokens, concurrency, use_case) and the same
validation (latency.inputs.url_specs); this page adds budget_s, measure and device_scope. A widget
without state takes its value from the URL through latency.scenario.parse_query (bad values ->
default + a notice naming the parameter), else from the last values this session used; after every
run the values are written back to the URL. Page-only state is prefixed tr_.
"""

from __future__ import annotations

import dataclasses
import math
import re

import numpy as np
import pandas as pd
import streamlit as st

from latency import charts_tradeoffs as C
from latency import content, inputs
from latency import tradeoffs as T
from latency.catalog import load_catalog
from latency.errors import ContentError
from latency.estimator import STAGES, estimate
from latency.i18n import md
from latency.scenario import ChoiceParam, NumberParam, parse_query
from pages._common import current_lang, page_strings, show_content_error, url_notices

@st.cache_data(show_spinner=False)
def load_data(lang: str, signature: tuple):
    """Catalogs, named distance stops and the entry's use-case budgets (pure data, per language)."""
    return load_catalog(), inputs.load_stops(), content.use_case_budgets(lang)


s = page_strings("tradeoffs")
lang = current_lang()
try:
    SIGNATURE = content.files_signature()
    catalog, stops, use_cases = load_data(lang, SIGNATURE)
except ContentError as err:
    show_content_error(err)
    st.stop()

CASES = {u.id: u for u in use_cases}
CUSTOM = "custom"
SIZES = inputs.size_steps(catalog)
DISTANCES = inputs.distance_steps(stops)
STOP_AT = {stop.km: stop for stop in stops}
HW_ORDER = inputs.ordered_hardware(catalog)
CLOUD = [h for h in HW_ORDER if catalog.hardware[h].price_basis == "cloud_on_demand"]
SCOPES = ("cloud", "all")
DEFAULTS = inputs.default_values(stops, list(CASES))
DEFAULTS.update(use_case="sla_2s" if "sla_2s" in CASES else DEFAULTS["use_case"], concurrency=10)
DEFAULT_CASE = CASES[DEFAULTS["use_case"]]
BUDGET_MIN, BUDGET_MAX = 0.05, 600.0
SHARED_KEYS = ("model_size_b", "hardware", "distance_km", "arch", "precision", "prompt_tokens", "output_tokens",
               "concurrency")
OWN_KEYS = ("budget_s", "measure", "device_scope")
WIDGET_KEYS = SHARED_KEYS + OWN_KEYS + ("tr_use_case",)
URL_KEYS = SHARED_KEYS + OWN_KEYS + ("use_case",)
_shared_specs = inputs.url_specs(catalog, DEFAULTS, list(CASES))
SPECS = {k: _shared_specs[k] for k in SHARED_KEYS + ("use_case",)}
SPECS.update(
    budget_s=NumberParam(DEFAULT_CASE.budget_s, BUDGET_MIN, BUDGET_MAX),
    measure=ChoiceParam(DEFAULT_CASE.measure, T.MEASURES),
    device_scope=ChoiceParam("cloud", SCOPES),
)


# --- formats ---------------------------------------------------------------------------------------
def fmt_s(x: float) -> str:
    return s("unit_s", v=inputs.fmt_number(x))


def fmt_size(v: float) -> str:
    return s("unit_size", v=inputs.fmt_size_b(v))


def fmt_km(v: float) -> str:
    return s("unit_km", v=f"{v:,.0f}")


def fmt_distance(v: float) -> str:
    stop = STOP_AT.get(v)
    return s("dist_named", name=stop.short[lang], km=fmt_km(v)) if stop else fmt_km(v)


def fmt_users(n: float) -> str:
    return s("unit_users", n=f"{n:,.0f}")


def fmt_tps(v: float) -> str:
    return s("unit_tps", v=inputs.fmt_number(v))


def fmt_gb(v: float) -> str:
    return s("unit_gb", v=inputs.fmt_number(v))


def fmt_ratio(r: float) -> str:
    return s("unit_ratio", v=inputs.fmt_ratio(r))


def fmt_tokens(n: float) -> str:
    return s("unit_tokens", n=f"{n:,.0f}")


def hw_name(hid: str) -> str:
    return catalog.hardware[hid].label(lang)


def precision_short(pid: str) -> str:
    return catalog.precisions[pid].label(lang).split(" (")[0]


def measure_short(m: str) -> str:
    return s(f"measure_{m}_short")


def cap(text: str) -> str:
    """Sentence case for a string that may start with a lower-case word (English axis titles)."""
    return text[:1].upper() + text[1:]


def fmt_case(cid: str) -> str:
    if cid == CUSTOM:
        return s("use_case_custom")
    u = CASES[cid]
    return s("use_case_option", label=u.label, measure=measure_short(u.measure), budget=fmt_s(u.budget_s))


def show_value(key: str, value) -> str:
    """A parameter value as a notice shows it (names rather than ids)."""
    shown = {
        "model_size_b": fmt_size, "distance_km": fmt_distance, "budget_s": fmt_s, "hardware": hw_name,
        "precision": lambda v: catalog.precisions[v].label(lang), "arch": lambda v: s(f"arch_{v}"),
        "measure": lambda v: s(f"measure_{v}"), "device_scope": lambda v: s(f"scope_{v}"), "use_case": fmt_case,
        "concurrency": fmt_users, "prompt_tokens": fmt_tokens, "output_tokens": fmt_tokens,
    }.get(key)
    return md(shown(value) if shown else value)


# --- state: URL on a widget's first appearance, then the widgets; notices for bad URL values -------
def init_state() -> None:
    missing = [k for k in WIDGET_KEYS if k not in st.session_state]
    if not missing:
        return
    query = {k: st.query_params.get_all(k) for k in URL_KEYS if st.query_params.get_all(k)}
    values, notices = parse_query(query, SPECS)
    saved = st.session_state.get("tr_saved") or {}
    shared = st.session_state.get("est_saved") or {}
    messages = url_notices(s, notices, SPECS, show_value)
    for key, steps in (("model_size_b", SIZES), ("distance_km", DISTANCES)):
        snapped = inputs.snap(float(values[key]), steps, log=key == "model_size_b")
        if snapped != values[key]:
            messages.append(s("notice_snapped", param=key, raw=md(query.get(key, [""])[-1][:40]),
                              value=show_value(key, snapped)))
        values[key] = snapped
    bad = {n.key for n in notices}

    def given(key: str) -> bool:
        return key in query and key not in bad

    # The budget: from the URL (a use case sets it unless budget_s / measure say otherwise), else as
    # this session last had it, else from the use case the estimator page last used, else the default.
    url_case = CASES[values["use_case"]] if given("use_case") else None
    if url_case or given("budget_s") or given("measure"):
        base = url_case or DEFAULT_CASE
        budget = values["budget_s"] if given("budget_s") else base.budget_s
        measure = values["measure"] if given("measure") else base.measure
    elif "budget_s" in saved:
        budget, measure = saved["budget_s"], saved["measure"]
    else:
        base = CASES.get(shared.get("use_case"), DEFAULT_CASE)
        budget, measure = base.budget_s, base.measure
    same = [u for u in ([url_case] if url_case else []) + list(CASES.values()) if (u.budget_s, u.measure) == (budget, measure)]
    budget_group = dict(budget_s=budget, measure=measure, tr_use_case=same[0].id if same else CUSTOM)
    for key in missing:
        if key in budget_group:
            st.session_state[key] = budget_group[key]
        elif key in query:
            st.session_state[key] = values[key]
        else:
            st.session_state[key] = saved.get(key, shared.get(key, values[key]))
    if messages:
        st.session_state["tr_notices"] = messages


def touched() -> None:
    """Any input changed by hand: the URL notices have done their job."""
    st.session_state.pop("tr_notices", None)


def on_case() -> None:
    case = CASES.get(st.session_state["tr_use_case"])
    if case is not None:
        st.session_state["budget_s"] = case.budget_s
        st.session_state["measure"] = case.measure
    touched()


def on_budget() -> None:
    case = CASES.get(st.session_state["tr_use_case"])
    if case is not None and (case.budget_s, case.measure) != (st.session_state["budget_s"], st.session_state["measure"]):
        st.session_state["tr_use_case"] = CUSTOM
    touched()


def values_now() -> dict:
    return {k: st.session_state[k] for k in WIDGET_KEYS}


def mirror_url(values: dict) -> None:
    for key in SHARED_KEYS + OWN_KEYS:
        text = inputs.url_value(key, values[key])
        if st.query_params.get(key) != text:
            st.query_params[key] = text
    case = values["tr_use_case"]
    if case == CUSTOM:
        if "use_case" in st.query_params:
            del st.query_params["use_case"]
    elif st.query_params.get("use_case") != case:
        st.query_params["use_case"] = case
    st.session_state["tr_saved"] = dict(values)


# --- computations (cached: pure functions of the scenario and the prices) ----------------------------
def scenario_of(values: dict) -> T.Scenario:
    return T.Scenario(model_size_b=float(values["model_size_b"]), hardware_id=values["hardware"],
                      distance_km=float(values["distance_km"]), precision_id=values["precision"], arch=values["arch"],
                      prompt_tokens=int(values["prompt_tokens"]), output_tokens=int(values["output_tokens"]),
                      concurrency=int(values["concurrency"]), budget_s=float(values["budget_s"]),
                      measure=values["measure"])


def map_hardware(scope: str, current: str) -> list[str]:
    ids = HW_ORDER if scope == "all" else CLOUD
    return ids if current in ids else ids + [current]


@st.cache_data(show_spinner=False, max_entries=48)
def compute(fields: tuple, prices_items: tuple, scope: str, signature: tuple) -> dict:
    # signature (content files and mtimes) is part of the key: an edited catalog is recomputed
    sc = T.Scenario(*fields)
    prices = dict(prices_items)
    grid = T.size_hardware_grid(sc, catalog, prices, map_hardware(scope, sc.hardware_id))
    i, j = grid.current
    cur = T.summarize(grid, i, j, prices)
    devices = T.size_hardware_grid(sc, catalog, prices, HW_ORDER, sizes=[sc.model_size_b])
    model = T.scenario_model(sc, catalog)
    est = estimate(model, catalog.hardware[sc.hardware_id].hardware, sc.prompt_tokens, sc.output_tokens,
                   batch=cur.batch, distance_km=sc.distance_km, concurrent_users=cur.batch)
    out = dict(grid=grid, cur=cur, devices=devices, est=est,
               dist=T.size_distance_grid(sc, catalog, prices, stops),
               curve=T.concurrency_curve(sc, catalog),
               precisions=T.precision_rows(sc, catalog, batch=cur.batch),
               memory=T.memory_by_context(sc, catalog, batch=cur.batch),
               tornado=T.tornado(sc, catalog, stops, cur.batch, cur.replicas) if cur.fits else None)
    rows = T.export_rows(sc, catalog, prices, grid)
    out.update(export=rows, csv=T.export_csv(rows))
    return out


# --- widgets -------------------------------------------------------------------------------------------
def controls() -> None:
    st.subheader(s("controls_header"))
    c1, c2, c3 = st.columns(3)
    with c1:
        st.selectbox(s("use_case_label"), list(CASES) + [CUSTOM], key="tr_use_case", format_func=fmt_case,
                     on_change=on_case, help=s("use_case_help"))
        st.number_input(s("budget_label"), min_value=BUDGET_MIN, max_value=BUDGET_MAX, step=0.1, format="%.2f",
                        key="budget_s", on_change=on_budget, help=s("budget_help"))
        st.segmented_control(s("measure_label"), list(T.MEASURES), key="measure", required=True,
                             format_func=lambda m: s(f"measure_{m}"), on_change=on_budget)
    with c2:
        st.select_slider(s("size_label"), options=SIZES, key="model_size_b", format_func=fmt_size, on_change=touched)
        st.selectbox(s("hardware_label"), HW_ORDER, key="hardware", format_func=hw_name, on_change=touched)
        st.select_slider(s("distance_label"), options=DISTANCES, key="distance_km", format_func=fmt_distance,
                         help=s("distance_help"), on_change=touched)
    with c3:
        st.number_input(s("concurrency_label"), min_value=1, max_value=inputs.CONCURRENCY_MAX, step=1,
                        key="concurrency", help=s("concurrency_help", max=f"{inputs.CONCURRENCY_MAX:,}"),
                        on_change=touched)
        st.segmented_control(s("scope_label"), list(SCOPES), key="device_scope", required=True,
                             format_func=lambda v: s(f"scope_{v}"), on_change=touched)
        with st.expander(s("advanced")):
            st.segmented_control(s("arch_label"), list(inputs.ARCHITECTURES), key="arch", required=True,
                                 format_func=lambda a: s(f"arch_{a}"), on_change=touched)
            st.selectbox(s("precision_label"), list(catalog.precisions), key="precision",
                         format_func=lambda p: catalog.precisions[p].label(lang), on_change=touched)
            st.number_input(s("prompt_label"), min_value=1, max_value=inputs.PROMPT_MAX, step=128,
                            key="prompt_tokens", on_change=touched)
            st.number_input(s("output_label"), min_value=1, max_value=inputs.OUTPUT_MAX, step=32,
                            key="output_tokens", on_change=touched)


def _first_url(text: str | None) -> str:
    found = re.search(r"https?://[^\s()]+", text or "")
    return found.group(0) if found else ""


def price_editor() -> tuple[dict, int]:
    """The editable price table (in an expander); returns the prices in force and how many edits are used."""
    box = st.expander(s("prices_header"), icon=":material/edit:")
    box.caption(s("prices_caption"))
    original = {h: ("" if catalog.hardware[h].price_usd_per_hour is None else f"{catalog.hardware[h].price_usd_per_hour:g}")
                for h in HW_ORDER}
    col = {k: s(f"col_{k}") for k in ("device", "price", "basis", "date", "source")}
    frame = pd.DataFrame({
        col["device"]: [hw_name(h) for h in HW_ORDER],
        col["price"]: [original[h] for h in HW_ORDER],
        col["basis"]: [s(f"basis_{catalog.hardware[h].price_basis}") if catalog.hardware[h].price_basis else ""
                       for h in HW_ORDER],
        col["date"]: [catalog.hardware[h].price_date or "" for h in HW_ORDER],
        # Only the link: the catalog's notes next to it are in English.
        col["source"]: [_first_url(catalog.hardware[h].price_source) for h in HW_ORDER],
    }, index=HW_ORDER)
    edited = box.data_editor(
        frame, key="tr_prices", hide_index=True, num_rows="fixed", width="stretch",
        disabled=[col["device"], col["basis"], col["date"], col["source"]],
        column_config={
            col["price"]: st.column_config.TextColumn(required=False),
            col["source"]: st.column_config.LinkColumn(display_text=r"https?://(?:www\.)?([^/]+)"),
        })
    unlinked = [hw_name(h) for h in HW_ORDER if catalog.hardware[h].price_source and not _first_url(catalog.hardware[h].price_source)]
    if unlinked:
        box.caption(s("prices_no_link", names=md(", ".join(unlinked))))
    changes = {h: edited.at[h, col["price"]] for h in HW_ORDER if edited.at[h, col["price"]] != original[h]}
    prices, notices = T.resolve_prices(catalog, changes)
    for n in notices:
        box.warning(s("price_notice", device=md(hw_name(n.device_id)), raw=md(n.raw),
                     reason=s(f"price_reason_{n.reason}"),
                     fallback=T.fmt_usd(n.fallback) if n.fallback is not None else s("no_price")))
    used = len(changes) - len(notices)
    if used:
        box.caption(s("prices_edited", n=used))
    return prices, used


# --- sections ------------------------------------------------------------------------------------------
def summary(sc: T.Scenario, r: dict) -> None:
    cur: T.PlanSummary = r["cur"]
    est = r["est"]
    hw = catalog.hardware[sc.hardware_id]
    scenario = s("scenario_text", size=fmt_size(sc.model_size_b), hardware=md(hw.label(lang)),
                 distance=fmt_distance(sc.distance_km), users=fmt_users(sc.concurrency))
    measure = measure_short(sc.measure)
    if not cur.fits:
        st.error(s("verdict_nofit", scenario=scenario, hardware=md(hw.label(lang)),
                   max=int(hw.hardware.resolved("max_devices"))))
    else:
        fmt = dict(scenario=scenario, measure=measure, latency=fmt_s(cur.latency_s), budget=fmt_s(sc.budget_s),
                   ratio=fmt_ratio(cur.latency_s / sc.budget_s))
        text = s("verdict_meets" if cur.meets else "verdict_misses", **fmt)
        lo, hi = est.ranges[T.MEASURE_KEY[sc.measure]]
        if lo <= sc.budget_s < hi:
            text += " " + s("verdict_uncertain", low=fmt_s(lo), high=fmt_s(hi))
        case = CASES.get(st.session_state.get("tr_use_case"))
        if case is not None and case.abandon_s is not None and cur.latency_s >= case.abandon_s:
            text += " " + s("verdict_abandon", abandon=fmt_s(case.abandon_s))
        (st.success if cur.meets else st.error)(text)
        st.caption(s("plan_text", servers=f"{cur.replicas:,}", devices=cur.devices, batch=f"{cur.batch:,}",
                     max_batch=f"{cur.max_batch:,}"))
        key = T.MEASURE_KEY[sc.measure]
        lo, hi = est.ranges[key]
        m = st.columns(5)
        m[0].metric(s("metric_latency", measure=measure), fmt_s(cur.latency_s),
                    delta=s("metric_range", low=fmt_s(lo), high=fmt_s(hi)), delta_color="off", delta_arrow="off")
        m[1].metric(s("metric_speed"), fmt_tps(cur.tokens_per_s))
        m[2].metric(s("metric_devices"), s("metric_devices_value", n=f"{cur.replicas * cur.devices:,}"))
        m[3].metric(s("metric_cost_1k"), T.fmt_usd(cur.cost_per_1k_answers),
                    delta=s("metric_hourly", cost=T.fmt_usd(cur.servers_cost_per_hour)), delta_color="off",
                    delta_arrow="off")
        m[4].metric(s("metric_cost_1m"), T.fmt_usd(cur.cost_per_1m_tokens))
        stage = max(STAGES, key=lambda k: est.breakdown[k])
        share = est.breakdown[stage] / max(est.total_s if sc.measure == "total" else est.ttft_s, 1e-12)
        if sc.measure == "ttft" and stage == "decode":
            stage = max(("network", "queue", "prefill"), key=lambda k: est.breakdown[k])
            share = est.breakdown[stage] / max(est.ttft_s, 1e-12)
        st.markdown(s("limits_text", stage=s(f"stage_{stage}"), share=f"{100 * min(share, 1):.0f}%",
                      bound=s(f"bound_{est.bottleneck['decode']}")))
    grid: T.Grid = r["grid"]
    if grid.cheapest is None:
        st.markdown(s("cheapest_none"))
    else:
        c = T.summarize(grid, *grid.cheapest)
        st.markdown(s("cheapest_overall", size=fmt_size(c.model_size_b), hardware=md(hw_name(c.hardware_id)),
                      cost=T.fmt_usd(c.cost_per_1k_answers), servers=f"{c.replicas:,}", devices=c.devices))
    if grid.row_cheapest is None:
        st.markdown(s("cheapest_row_none", size=fmt_size(sc.model_size_b)))
    else:
        c = T.summarize(grid, *grid.row_cheapest)
        st.markdown(s("cheapest_row", size=fmt_size(c.model_size_b), hardware=md(hw_name(c.hardware_id)),
                      cost=T.fmt_usd(c.cost_per_1k_answers), measure=measure, latency=fmt_s(c.latency_s)))
    st.caption(s("share_hint"))


def cell_hover(grid: T.Grid, sc: T.Scenario, where) -> np.ndarray:
    """Hover text per cell (rows = sizes, cols = grid columns); `where(j)` names column j."""
    p = grid.plan
    out = np.empty(p.latency_s.shape, dtype=object)
    measure = measure_short(sc.measure)
    for i, size in enumerate(grid.rows):
        for j in range(len(grid.cols)):
            if not p.fits[i, j]:
                hw_id = grid.cols[j] if isinstance(grid.cols[j], str) else sc.hardware_id
                out[i, j] = s("hover_nofit", size=fmt_size(size), where=where(j),
                              max=int(catalog.hardware[hw_id].hardware.resolved("max_devices")))
                continue
            cost = p.cost_per_answer[i, j] * 1000
            out[i, j] = s("hover_cell", size=fmt_size(size), where=where(j), measure=measure,
                          latency=fmt_s(p.latency_s[i, j]), ratio=fmt_ratio(p.latency_s[i, j] / sc.budget_s),
                          servers=f"{int(p.replicas[i, j]):,}", devices=int(p.devices[i, j]),
                          batch=f"{int(p.batch[i, j]):,}", cost=T.fmt_usd(cost) if math.isfinite(cost) else s("no_price"))
    return out


def marks(grid: T.Grid) -> list[C.Mark]:
    out = []
    for cell, symbol, name, color in ((grid.current, "square-open", s("mark_current"), "#111827"),
                                      (grid.row_cheapest, "diamond", s("mark_row"), "#7c3aed"),
                                      (grid.cheapest, "star", s("mark_cheapest"), "#f59e0b")):
        if cell is not None:
            out.append(C.Mark(row=cell[1], col=cell[0], symbol=symbol, name=name, color=color))  # transposed
    return out


def budget_map(sc: T.Scenario, r: dict) -> None:
    st.caption(s("map_caption", users=fmt_users(sc.concurrency)))
    measure = measure_short(sc.measure)
    names = dict(x_title=s("axis_size"), colorbar=s("colorbar"), nofit=s("nofit"))  # y axis: named by the heading
    grid: T.Grid = r["grid"]
    st.markdown(f"**{s('map_hw_title', measure=measure, distance=fmt_distance(sc.distance_km))}**")
    hover = cell_hover(grid, sc, lambda j: hw_name(grid.cols[j]))
    fig = C.budget_heatmap(grid.ratio.T, x_labels=[fmt_size(v) for v in grid.rows],
                           y_labels=[C.short_label(hw_name(h)) for h in grid.cols], hover=hover.T,
                           marks=marks(grid), names=names)
    st.plotly_chart(fig, config=C.CONFIG, key="tr_chart_map_hw")

    dist: T.Grid = r["dist"]
    st.markdown(f"**{s('map_dist_title', measure=measure, hardware=md(hw_name(sc.hardware_id)))}**")
    hover = cell_hover(dist, sc, lambda j: fmt_distance(dist.cols[j]))
    fig = C.budget_heatmap(dist.ratio.T, x_labels=[fmt_size(v) for v in dist.rows],
                           y_labels=[fmt_distance(v) for v in dist.cols], hover=hover.T,
                           marks=[m for m in marks(dist) if m.symbol != "diamond"],
                           names=names)
    st.plotly_chart(fig, config=C.CONFIG, key="tr_chart_map_dist")
    st.caption(s("map_dist_note"))


def concurrency_section(sc: T.Scenario, r: dict) -> None:
    curve: T.ConcurrencyCurve = r["curve"]
    st.markdown(f"**{s('conc_title')}**")
    st.caption(s("conc_caption"))
    if not curve.fits:
        st.warning(s("conc_nofit", hardware=md(hw_name(sc.hardware_id))))
        return
    now = curve.current
    m = st.columns(4)
    m[0].metric(s("conc_metric_max"), f"{curve.max_batch:,}")
    m[1].metric(s("conc_metric_plateau"), fmt_users(curve.plateau_users))
    m[2].metric(s("conc_metric_speed"), fmt_tps(now["per_user_tokens_per_s"]))
    m[3].metric(s("conc_metric_thr"), fmt_tps(now["throughput_tokens_per_s"]),
                delta=s("conc_metric_wait") + " " + fmt_s(now["queue_s"]), delta_color="off", delta_arrow="off")
    latencies = [(cap(s("conc_latency", measure=measure_short("ttft"))), curve.ttft_s)]
    if sc.measure == "total":
        latencies.append((cap(s("conc_latency", measure=measure_short("total"))), curve.total_s))
    cur_lat = now["ttft_s"] if sc.measure == "ttft" else now["total_s"]
    names = dict(x_title=s("axis_users"), per_user=s("conc_per_user"), throughput=s("conc_throughput"),
                 y_speed=s("axis_speed"), y_throughput=s("axis_throughput"), y_latency=s("axis_seconds"), budget=s("budget_line", budget=fmt_s(sc.budget_s)),
                 plateau=s("conc_plateau_line"), queue=s("conc_queue_line"), current=s("current_point"))
    fig = C.concurrency_figure(curve.users, curve.per_user_tokens_per_s, curve.throughput_tokens_per_s, latencies,
                               budget_s=sc.budget_s, current_users=now["users"], current_latency_s=cur_lat,
                               queue_from=float(curve.max_batch), plateau_at=float(curve.plateau_users),
                               names=names, fmt_s=fmt_s, fmt_n=lambda v: f"{v:,.0f}")
    st.plotly_chart(fig, config=C.CONFIG, key="tr_chart_concurrency")
    st.caption(s("conc_text", devices=curve.devices, max_batch=f"{curve.max_batch:,}",
                 plateau=fmt_users(curve.plateau_users)))


def cost_section(sc: T.Scenario, r: dict) -> None:
    devices: T.Grid = r["devices"]
    p = devices.plan
    st.caption(s("cost_caption", users=fmt_users(sc.concurrency)))
    st.markdown(f"**{s('pareto_title', size=fmt_size(sc.model_size_b))}**")
    ids = list(devices.cols)
    ok = p.fits[0]
    cost = p.cost_per_answer[0] * 1000
    lat = p.latency_s[0]
    use = [k for k in range(len(ids)) if ok[k] and math.isfinite(cost[k])]
    measure = measure_short(sc.measure)
    hover = [s("hover_point", hardware=hw_name(ids[k]), measure=measure, latency=fmt_s(lat[k]),
               cost=T.fmt_usd(cost[k]), cost_m=T.fmt_usd(p.cost_per_1m_tokens[0][k]),
               servers=f"{int(p.replicas[0][k]):,}", devices=int(p.devices[0][k]), batch=f"{int(p.batch[0][k]):,}")
             for k in use]
    front_local = T.pareto_front(cost[use], lat[use])
    current = use.index(ids.index(sc.hardware_id)) if ids.index(sc.hardware_id) in use else None
    names = dict(x_title=s("axis_cost"), y_title=cap(s("axis_latency_s", measure=measure)), meets=s("meets"),
                 misses=s("misses"), front=s("front"), budget=s("budget_line", budget=fmt_s(sc.budget_s)),
                 current=s("mark_current"))
    fig = C.pareto_figure([C.short_label(hw_name(ids[k]), 16) for k in use], cost[use], lat[use], p.meets[0][use],
                          front_local, hover=hover, current=current, budget_s=sc.budget_s, names=names, fmt_s=fmt_s,
                          fmt_usd=T.fmt_usd)
    st.plotly_chart(fig, config=C.CONFIG, key="tr_chart_pareto")
    st.caption(s("pareto_caption"))
    left = [hw_name(ids[k]) for k in range(len(ids)) if not ok[k]]
    if left:
        st.caption(s("pareto_excluded", names=md(", ".join(left))))


def memory_section(sc: T.Scenario, r: dict) -> None:
    cur: T.PlanSummary = r["cur"]
    batch = max(cur.batch, 1)
    hw = catalog.hardware[sc.hardware_id]
    st.markdown(f"**{s('mem_title', size=fmt_size(sc.model_size_b), batch=f'{batch:,}')}**")
    st.caption(s("mem_caption", hardware=md(hw.label(lang))))
    series = r["memory"]
    labels = {pid: precision_short(pid) for pid in series}
    names = dict(x_title=s("axis_context"), y_title=s("axis_memory"), current=s("mem_current"), hover=s("mem_hover"))
    fig = C.memory_figure(T.CONTEXT_STEPS, series, labels=labels, device_gb=hw.hardware.memory_gb,
                          device_label=s("mem_device_line", hardware=C.short_label(hw.label(lang)),
                                         gb=fmt_gb(hw.hardware.memory_gb)),
                          current_context=sc.prompt_tokens + sc.output_tokens, names=names, fmt_gb=fmt_gb)
    st.plotly_chart(fig, config=C.CONFIG, key="tr_chart_memory")
    st.markdown(f"**{s('mem_table_title', context=fmt_tokens(sc.prompt_tokens + sc.output_tokens))}**")
    rows = r["precisions"]
    table = pd.DataFrame({
        s("col_precision"): [precision_short(x.precision_id) for x in rows],
        s("col_memory"): [fmt_gb(x.memory_gb) for x in rows],
        s("col_devices"): [f"{x.devices_needed:,}" if x.fits else s("nofit_cell") for x in rows],
        s("col_ttft"): [fmt_s(x.ttft_s) if x.fits else "–" for x in rows],
        s("col_speed"): [fmt_tps(x.tokens_per_s) if x.fits else "–" for x in rows],
        s("col_mem_vs"): [f"{100 * x.memory_vs_fp16:.0f}%" for x in rows],
        s("col_speed_vs"): [fmt_ratio(x.speed_vs_fp16) if x.fits else "–" for x in rows],
        s("col_quality"): [catalog.precisions[x.precision_id].quality.get(lang, "") for x in rows],
        s("col_quality_source"): [catalog.precisions[x.precision_id].quality_source or "" for x in rows],
    })
    st.dataframe(table, hide_index=True, width="stretch",
                 column_config={s("col_quality_source"): st.column_config.LinkColumn(
                     s("col_quality_source"), display_text=s("link_text"))})
    st.markdown(s("quant_text"))


def notch_text(factor: str, value) -> str:
    if factor == "model_size":
        return fmt_size(value)
    if factor == "hardware":
        return C.short_label(hw_name(value), 18)
    if factor == "precision":
        return precision_short(value)
    if factor == "distance":
        return fmt_km(value)
    if factor in ("prompt", "output"):
        return fmt_tokens(value)
    return fmt_users(value)


def tornado_section(sc: T.Scenario, r: dict) -> None:
    measure = measure_short(sc.measure)
    st.markdown(f"**{s('tor_title', measure=measure)}**")
    t: T.Tornado | None = r["tornado"]
    names = {f: s(f"factor_{f}") for f in T.FACTORS}
    templates = dict(ratio=s("tor_summary_ratio"), only=s("tor_summary_only"), none=s("tor_summary_none"))
    if t is None or not math.isfinite(t.base_s):
        st.warning(templates["none"])
        return
    st.info(T.tornado_summary(t, names, templates, fmt_ratio), icon=":material/target:")
    bars = [C.Bar(name=cap(names[n.factor]), low_s=n.low_s, high_s=n.high_s,
                  low_text=notch_text(n.factor, n.low_value) if n.low_value is not None else "",
                  high_text=notch_text(n.factor, n.high_value) if n.high_value is not None else "")
            for n in t.notches]
    fig = C.tornado_figure(bars, base_s=t.base_s, fmt_s=fmt_s,
                           names=dict(x_title=cap(s("tor_axis", measure=measure)), low=s("tor_low"), high=s("tor_high"),
                                      base=s("tor_base", latency=fmt_s(t.base_s))))
    st.plotly_chart(fig, config=C.CONFIG, key="tr_chart_tornado")
    st.caption(s("tor_caption"))


def export_section(sc: T.Scenario, r: dict) -> None:
    rows = r["export"]
    st.caption(s("export_caption", rows=f"{len(rows):,}"))
    st.download_button(s("export_button"), data=r["csv"], file_name="tradeoffs.csv", mime="text/csv",
                       key="tr_download", icon=":material/download:", on_click="ignore")
    st.markdown(f"**{s('export_preview', size=fmt_size(sc.model_size_b))}**")
    mine = [row for row in rows if row["model_size_b"] == sc.model_size_b]
    yes_no = lambda v: s("yes") if v else s("no")  # noqa: E731
    num = lambda v, f: f(v) if v is not None and math.isfinite(v) else "–"  # noqa: E731
    preview = pd.DataFrame({
        s("col_device"): [hw_name(r["hardware_id"]) for r in mine],
        s("col_fits"): [yes_no(r["fits"]) for r in mine],
        s("col_servers"): [f"{r['servers']:,}" if r["servers"] else "–" for r in mine],
        s("col_batch"): [f"{r['batch_per_server']:,}" for r in mine],
        s("col_ttft"): [fmt_s(r["ttft_s"]) if r["fits"] else "–" for r in mine],
        s("col_total"): [fmt_s(r["total_s"]) if r["fits"] else "–" for r in mine],
        s("col_memory"): [fmt_gb(r["memory_gb"]) for r in mine],
        s("col_meets"): [yes_no(r["meets_budget"]) for r in mine],
        s("metric_cost_1k"): [num(r["cost_usd_per_1k_answers"], T.fmt_usd) for r in mine],
    })
    st.dataframe(preview, hide_index=True, width="stretch")


# --- page ----------------------------------------------------------------------------------------------
st.title(s("title"))
st.caption(s("intro"))
init_state()


@st.fragment
def explorer() -> None:
    for message in st.session_state.get("tr_notices", []):
        st.warning(message)
    controls()
    values = values_now()
    mirror_url(values)
    sc = scenario_of(values)
    top = st.container()
    tabs = st.tabs([s("tab_map"), s("tab_concurrency"), s("tab_cost"), s("tab_memory"), s("tab_tornado"),
                    s("tab_export")])
    with tabs[2]:
        cost_area = st.container()
        prices, _ = price_editor()
    try:
        r = compute(dataclasses.astuple(sc), tuple(sorted(prices.items())), values["device_scope"], SIGNATURE)
    except ValueError as err:  # an input combination the estimator rejects: say which, keep the page alive
        top.error(s("compute_error", problem=md(err)))
        return
    with top:
        summary(sc, r)
    with tabs[0]:
        budget_map(sc, r)
    with tabs[1]:
        concurrency_section(sc, r)
    with cost_area:
        cost_section(sc, r)
    with tabs[3]:
        memory_section(sc, r)
    with tabs[4]:
        tornado_section(sc, r)
    with tabs[5]:
        export_section(sc, r)


explorer()
