"""How the estimate works: the four stages, their formulas and constants, the calibration errors,
whether the glossary's comparison table holds, and the known limits.

Thin by design: every number comes from latency.explain (which reads the code, fitted_params.json,
calibration_report.json, the catalogs and estimate()); every word from content/ui/how.yaml.
Order: the idea and one typical request first; the details in tabs and expanders below.
"""

from __future__ import annotations

import re

import pandas as pd
import streamlit as st

from latency import calibrate, content, estimator, explain, network
from latency.catalog import load_catalog
from latency.errors import ContentError
from latency.i18n import md
from pages._common import current_lang, page_strings, show_content_error

s = page_strings("how")
lang = current_lang()


def m(key: str, **fmt) -> str:
    """A string for a Markdown element: the template's own '~' (Korean ranges) escaped so that two of
    them do not strike the text through; values are escaped by md() where they come from data."""
    text = s[key].replace("~", "\\~")
    return text.format(**fmt) if fmt else text
f, fs = explain.fmt, explain.fmt_s


def sec(x: float) -> str:
    return s("sec", v=fs(x))


def ms(x_s: float) -> str:
    return s("ms", v=f(x_s * 1e3))


def table(df: pd.DataFrame, **kwargs) -> None:
    """A scrollable, sortable table (long tables)."""
    st.dataframe(df, hide_index=True, width="stretch", **kwargs)


def text_table(rows: list[dict]) -> None:
    """A static table whose text wraps (short tables with long cells). st.table renders Markdown, so
    every cell is escaped."""
    st.table(pd.DataFrame([{md(k): md(v) for k, v in row.items()} for row in rows]), hide_index=True)


def pct(x: float) -> str:
    return s("pct", v=f"{x:.1f}")


params = estimator.load_params()
try:
    catalog = load_catalog()
except ContentError as err:
    catalog = None
    catalog_error = err


def model_label(sc: explain.Scenario) -> tuple[str, str, str]:
    return (catalog.models[sc.model].label(lang), catalog.precisions[sc.precision].label(lang),
            catalog.hardware[sc.hardware].label(lang))


# --- 1. the idea, and one typical request ----------------------------------------------------
st.title(s("title"), anchor="top")
st.markdown(m("intro"))
for formula in explain.formulas(params)["total"]:
    st.latex(formula)

typical = None
if catalog is not None:
    _, typical = explain.run_scenario(explain.TYPICAL, catalog)
    name, precision, hardware = model_label(explain.TYPICAL)
    st.subheader(s("typical_heading"), anchor="typical")
    stage_labels = {k: s(f"stage_{k}") for k in explain.STAGES}
    st.plotly_chart(explain.breakdown_figure(typical.breakdown, stage_labels, s("row_first"), s("row_total"), sec,
                                             s("axis_sec")),
                    config=explain.CONFIG, key="how_chart_breakdown")
    caption = s("typical_caption", model=md(name), precision=md(precision), hardware=md(hardware),
                km=f(explain.CLOUD_KM), prompt=explain.PROMPT_TOKENS, output=explain.OUTPUT_TOKENS,
                ttft=sec(typical.ttft_s), total=sec(typical.total_s),
                decode_pct=f"{100 * typical.breakdown['decode'] / typical.total_s:.0f}")
    if typical.breakdown["queue"] == 0:
        caption += " " + s("typical_idle")
    st.caption(caption.replace("~", "\\~"))
else:
    show_content_error(catalog_error)
st.page_link("pages/estimator.py", label=s("try_estimator"), icon=":material/calculate:", query_params={"lang": lang})

# --- 2. stage by stage -----------------------------------------------------------------------
st.header(s("stages_heading"), anchor="stages")
st.caption(m("stages_intro"))
formulas = explain.formulas(params)
constants = explain.stage_constants(params)
fractions = explain.fitted_fractions(params)


def constants_table(stage: str) -> None:
    rows = []
    for c in constants[stage]:
        value = c.value * 100 if c.unit == "pct" else c.value
        rows.append({s("col_constant"): s(f"const_{c.id}"), s("col_value"): s(f"unit_{c.unit}", v=f(value)),
                     s("col_origin"): s(f"origin_{c.origin}"), s("col_source"): s(f"src_{c.id}")})
    text_table(rows)


def fractions_table(key: str, caption_key: str) -> None:
    st.caption(m(caption_key))
    rows = []
    for fr in fractions:
        fitted = fr.calibrated and (key == "compute_frac" or fr.bw_fitted)
        status = "status_fitted" if fitted else ("status_default" if not fr.calibrated else "status_prior")
        rows.append({s("col_engine"): s(f"engine_{fr.engine}"), s("col_kind"): s(f"kind_{fr.kind}"),
                     s("col_share"): s("unit_pct", v=f(100 * getattr(fr, key))), s("col_status"): s(status)})
    text_table(rows)


def formulas_of(stage: str, legend: str) -> None:
    """The stage's formulas, then the legend of their symbols (subscripts like N_a kept literal)."""
    for formula in formulas[stage]:
        st.latex(formula)
    st.caption(legend.replace("_", "\\_"))


tab_net, tab_queue, tab_prefill, tab_decode = st.tabs([s(f"tab_{k}") for k in explain.STAGES])

with tab_net:
    st.subheader(":material/local_shipping: " + s("network_heading"), anchor="network")
    cold, warm = network.SETUP_ROUND_TRIPS["cold"], network.SETUP_ROUND_TRIPS["warm"]
    st.markdown(m("network_plain", fibre=f(network.FIBRE_KM_PER_MS), cold=cold))
    formulas_of("network", s("network_legend", cold=cold, warm=warm))
    ex = explain.network_example(explain.CLOUD_KM, params)
    st.info(m("network_example", km=f(explain.CLOUD_KM), warm=ms(ex["warm"]), cold=ms(ex["cold"]), zero=ms(ex["zero"])),
            icon=":material/calculate:")
    with st.expander(s("constants_expander"), icon=":material/menu_book:"):
        constants_table("network")

with tab_queue:
    st.subheader(":material/hourglass_top: " + s("queue_heading"), anchor="queue")
    st.markdown(m("queue_plain"))
    formulas_of("queue", s("queue_legend"))
    items = ", ".join(s("queue_item", u=f"{100 * u:.0f}", m=f(mult)) for u, mult in explain.queue_multipliers())
    st.info(m("queue_example", items=items), icon=":material/calculate:")
    with st.expander(s("constants_expander"), icon=":material/menu_book:"):
        st.caption(m("queue_no_constants"))

scores = params.get("meta", {}).get("combine_scores_pct", {})
with tab_prefill:
    st.subheader(":material/skillet: " + s("prefill_heading"), anchor="prefill")
    flops = next(c.value for c in constants["prefill"] if c.id == "flops_per_param")
    st.markdown(m("prefill_plain", flops=f(flops)))
    formulas_of("prefill", s("prefill_legend"))
    if "sum" in scores and "max" in scores:
        st.markdown(m(f"combine_{params.get('combine', 'max')}", sum=f"{scores['sum']:.1f}", max=f"{scores['max']:.1f}"))
    if typical is not None:
        name, precision, hardware = model_label(explain.TYPICAL)
        st.info(m("prefill_example", model=md(name), precision=md(precision), hardware=md(hardware),
                  devices=typical.devices_needed, prompt=explain.PROMPT_TOKENS, t=ms(typical.breakdown["prefill"]),
                  rate=f(typical.prefill_tokens_per_s), bound=s(f"bound_{typical.bottleneck['prefill']}")),
                icon=":material/calculate:")
    with st.expander(s("constants_expander"), icon=":material/menu_book:"):
        constants_table("prefill")
        fractions_table("compute_frac", "fractions_compute")

with tab_decode:
    st.subheader(":material/room_service: " + s("decode_heading"), anchor="decode")
    st.markdown(m("decode_plain"))
    formulas_of("decode", s("decode_legend"))
    if typical is not None:
        st.info(m("decode_example", tpot=ms(typical.tpot_s), rate=f(typical.decode_tokens_per_s, 2),
                  output=explain.OUTPUT_TOKENS, t=sec(typical.breakdown["decode"]),
                  bound=s(f"bound_{typical.bottleneck['decode']}")), icon=":material/calculate:")
    st.markdown(f"**{s('memory_heading')}**")
    st.markdown(m("memory_plain", overhead=f(100 * estimator.RUNTIME_OVERHEAD_FRACTION)))
    st.markdown(m("loop_note"))
    with st.expander(s("constants_expander"), icon=":material/menu_book:"):
        constants_table("decode")
        fractions_table("bw_frac", "fractions_bw")

# --- 3. calibration --------------------------------------------------------------------------
st.header(s("calib_heading"), anchor="calibration")
try:
    report = explain.load_report()
except ContentError as err:
    report = None
    show_content_error(err)

if report is not None:
    rows = report["compute_rows"]
    routes = report["rtt_routes"]
    st.markdown(m("calib_intro", rows=len(rows), devices=len(explain.devices_in(report)), routes=len(routes)))
    medians = explain.median_errors(report)
    group_keys = {"decode": "group_decode", "prefill/TTFT": "group_prefill_ttft", "RTT": "group_rtt"}
    text_table([{s("col_group"): s(group_keys[g]), s("col_in_sample"): pct(medians["in_sample"][g]),
                 s("col_loo"): pct(medians["leave_one_device_out"][g]),
                 s("col_target"): s("target_pct", v=f(explain.ERROR_TARGETS_PCT[g]))}
                for g in explain.ERROR_GROUPS])
    st.caption(m("calib_source"))

    def value(target: str, v: float) -> str:
        return sec(v) if target == "ttft" else s("tok_s", v=f(v))

    worst = explain.worst_loo(report)
    st.markdown(m("worst_text", device=md(worst["device"]), model=md(worst["model"]), precision=md(worst["precision"]),
                  target=s(f"measure_{worst['target']}_value"), pred=value(worst["target"], worst["predicted_loo"]),
                  meas=value(worst["target"], worst["measured"]),
                  err=f"{explain.error_pct(worst['predicted_loo'], worst['measured']):+.0f}"))

    st.subheader(s("bands_heading"), anchor="bands")
    bands = params["bands"]
    uncalibrated = [k for k in estimator.KINDS if k not in params["engines"]["llama.cpp"]["kinds"]
                    and k not in params["engines"]["optimized"]["kinds"]]
    st.markdown(m("bands_text", p_lo=calibrate.BAND_PERCENTILES[0], p_hi=calibrate.BAND_PERCENTILES[1],
                  net_lo=f"{bands['network'][0]:.2f}", net_hi=f"{bands['network'][1]:.2f}",
                  pre_lo=f"{bands['prefill'][0]:.2f}", pre_hi=f"{bands['prefill'][1]:.2f}",
                  dec_lo=f"{bands['decode'][0]:.2f}", dec_hi=f"{bands['decode'][1]:.2f}",
                  kinds=", ".join(s(f"kind_{k}") for k in uncalibrated)))

    with st.expander(s("rows_expander", n=len(rows)), icon=":material/table:"):
        table(pd.DataFrame([{
            s("col_measure"): s(f"measure_{r['target']}"), s("col_device"): r["device"], s("col_model"): r["model"],
            s("col_precision"): r["precision"], s("col_engine"): s(f"engine_{r['engine']}"),
            s("col_tokens"): int(r["tokens"]), s("col_measured"): r["measured"],
            s("col_predicted"): r["predicted"], s("col_err"): round(explain.error_pct(r["predicted"], r["measured"]), 1),
            s("col_predicted_loo"): r["predicted_loo"],
            s("col_err_loo"): round(explain.error_pct(r["predicted_loo"], r["measured"]), 1),
        } for r in rows]), column_config={s("col_measured"): st.column_config.NumberColumn(format="%.4g"),
                                          s("col_predicted"): st.column_config.NumberColumn(format="%.4g"),
                                          s("col_predicted_loo"): st.column_config.NumberColumn(format="%.4g")},
              key="how_rows")
        excluded = report.get("excluded", [])
        if excluded:
            st.caption(m("excluded_text", items="; ".join(
                s("excluded_item", device=md(x["device"]), model=md(x["model"]), precision=md(x["precision"]),
                  value=f(x["measured"], 5), line=x["line"]) for x in excluded)))

    with st.expander(s("routes_expander", n=len(routes)), icon=":material/public:"):
        table(pd.DataFrame([{
            s("col_route"): f"{r['from']} – {r['to']}", s("col_km"): round(r["distance_km"]),
            s("col_rtt_measured"): r["measured_ms"], s("col_rtt_predicted"): round(r["predicted_ms"], 1),
            s("col_err"): round(explain.error_pct(r["predicted_ms"], r["measured_ms"]), 1),
            s("col_rtt_predicted_loo"): round(r["predicted_loo_ms"], 1),
            s("col_err_loo"): round(explain.error_pct(r["predicted_loo_ms"], r["measured_ms"]), 1),
        } for r in routes]), key="how_routes")
        metro = report.get("rtt_same_metro", [])
        if metro:
            st.caption(m("same_metro_text", fixed=f(params["network"]["fixed_ms"], 4), n=len(metro), items="; ".join(
                s("same_metro_item", a=md(m["from"]), b=md(m["to"]), v=f(m["measured_ms"])) for m in metro)))

# --- 4. does the glossary's comparison table hold? -------------------------------------------
st.header(s("claims_heading"), anchor="claims")
try:
    classes = content.comparison_classes(lang)
except ContentError as err:
    classes = None
    show_content_error(err)

if classes is not None and catalog is not None:
    st.markdown(m("claims_intro", prompt=explain.PROMPT_TOKENS, output=explain.OUTPUT_TOKENS, km=f(explain.CLOUD_KM)))
    checks = explain.check_classes(classes, catalog)
    by_id = {c.id: c for c in classes}
    hover = {}
    for check in checks:
        for j, r in enumerate(check.results):
            name, precision, hardware = model_label(r.scenario)
            hover[(check.class_id, j)] = f"{name} · {precision} · {hardware} ×{r.devices}"
    st.plotly_chart(explain.claims_figure(
        checks, {c.id: c.short_name for c in classes},
        {"ttft": s("legend_ttft"), "total": s("legend_total", output=explain.OUTPUT_TOKENS), "stated": s("legend_stated")},
        hover, sec, s("axis_sec")), config=explain.CONFIG, key="how_chart_claims")
    st.caption(m("claims_chart_caption"))

    badge_color = {"holds": "green", "first_token": "orange", "no": "red"}
    badge_icon = {"holds": ":material/check_circle:", "first_token": ":material/timelapse:", "no": ":material/cancel:"}
    for check in checks:
        c = by_id[check.class_id]
        lo, hi = check.stated
        with st.container(border=True):
            st.subheader(md(c.name), anchor=f"claim-{check.class_id}")
            st.caption(m("class_stated", wording=md(c.latency), lo=f(lo), hi=f(hi)))
            st.badge(s(f"verdict_badge_{check.verdict}"), icon=badge_icon[check.verdict], color=badge_color[check.verdict])
            t_lo, t_hi = check.span("ttft")
            a_lo, a_hi = check.span("total")
            st.markdown(m(f"verdict_{check.verdict}", n=check.n, ttft_in=check.ttft_in, total_in=check.total_in,
                          ttft_lo=fs(t_lo), ttft_hi=fs(t_hi), total_lo=fs(a_lo), total_hi=fs(a_hi)))
            within = [r.tokens_within_max for r in check.results if r.tokens_within_max is not None]
            if within:
                st.markdown(m("within_text", hi=f(hi), lo_tokens=f"{min(within):,}", hi_tokens=f"{max(within):,}"))
            with st.expander(s("setups_expander", n=check.n), icon=":material/table:"):
                data = []
                for r in check.results:
                    name, precision, hardware = model_label(r.scenario)
                    data.append({
                        s("col_setup"): s("setup_name", model=name, precision=precision.split(" (")[0]),
                        s("col_hardware"): s("hardware_count", name=hardware, n=r.devices),
                        s("col_ttft"): s("value_range", v=fs(r.ttft_s), lo=fs(r.ttft_range[0]), hi=fs(r.ttft_range[1])),
                        s("col_ttft_in"): r.ttft_in,
                        s("col_total"): s("value_range", v=fs(r.total_s), lo=fs(r.total_range[0]), hi=fs(r.total_range[1])),
                        s("col_total_in"): r.total_in,
                        s("col_where"): s("where_local") if r.scenario.local else s("where_cloud", km=f(explain.CLOUD_KM)),
                        s("col_rate"): round(r.decode_tokens_per_s),
                        s("col_within", hi=f(hi)): r.tokens_within_max,
                    })
                table(pd.DataFrame(data), key=f"how_setups_{check.class_id}", column_config={
                    s("col_ttft_in"): st.column_config.CheckboxColumn(), s("col_total_in"): st.column_config.CheckboxColumn()})
                names = sorted({model_label(r.scenario)[2] for r in check.results if not r.calibrated})
                if names:
                    st.caption(m("uncalibrated_note", names=", ".join(md(n) for n in names)))
    st.caption(m("claims_rule", majority=f"{100 * explain.MAJORITY:.0f}"))
    st.page_link("pages/learn.py", label=s("see_table"), icon=":material/menu_book:", query_params={"lang": lang})
elif catalog is None:
    show_content_error(catalog_error)

# --- 5. known limits -------------------------------------------------------------------------
st.header(s("limits_heading"), anchor="limits")
st.markdown(m("limits_intro"))
limit_keys = sorted((k for k in s.table if re.fullmatch(r"limit_\d+", k)), key=lambda k: int(k.split("_")[1]))
st.markdown("\n".join(f"- {m(k)}" for k in limit_keys))
st.caption(m("limits_docs"))
