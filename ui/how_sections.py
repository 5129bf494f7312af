"""Sections of the "How the estimate works" page: plain functions that take their data as arguments.

Every section speaks to a non-developer first (a plain explanation, one worked example); formulas,
constants, fitted parameters, file names and command lines sit in "for developers" expanders.
Every number comes from latency.teaching.explain (the code, fitted_params.json, calibration_report.json,
the catalogs and estimate()); every word from content/ui/how.yaml.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

import pandas as pd
import streamlit as st

from latency.estimation import calibrate, engines, estimator, network
from latency.teaching import explain
from latency.language.i18n import Strings, md
from ui import charts, scenario_inputs, style

f, fs = explain.fmt, explain.fmt_s


_TILDE = re.compile(r"(?<!\\)~")  # a '~' not already escaped (md() escapes the values' own)


# --- small helpers ---------------------------------------------------------------------------
def m(s: Strings, key: str, **fmt: Any) -> str:
    """A string for a Markdown element: the template's own '~' (Korean ranges) escaped so that two of
    them do not strike the text through; values are escaped by md() where they come from data."""
    return _TILDE.sub(r"\\~", s(key, **fmt) if fmt else s[key])


def sec(s: Strings, x: float) -> str:
    return s("sec", v=fs(x))


def ms(s: Strings, x_s: float) -> str:
    return s("ms", v=f(x_s * 1e3))


def pct(s: Strings, x: float) -> str:
    return s("pct", v=f"{x:.1f}")


def table(df: pd.DataFrame, **kwargs: Any) -> None:
    """A scrollable, sortable table (long tables)."""
    st.dataframe(df, hide_index=True, width="stretch", **kwargs)


def text_table(rows: list[dict], break_last: str | None = None) -> None:
    """A static table whose text wraps; st.table renders Markdown, so every cell is escaped. `break_last`
    (a key unique on the page): the last column breaks its long tokens, so the table fits a phone
    (`style.BREAK_LAST_KEY`)."""
    with st.container(key=f"{style.BREAK_LAST_KEY}{break_last}" if break_last else None):
        st.table(pd.DataFrame([{md(k): md(v) for k, v in row.items()} for row in rows]), hide_index=True)


def labels_of(catalog, sc: explain.Scenario, lang: str) -> tuple[str, str, str]:
    """Model, precision and device names; the device with its plain class ("Apple M4 Max (laptop chip: ...)"),
    as the explorer pages name it (issue 26 item 4)."""
    return (catalog.models[sc.model].label(lang), catalog.precisions[sc.precision].label(lang),
            scenario_inputs.hardware_option(catalog, lang, sc.hardware))


def for_developers(s: Strings):
    """The expander that keeps formulas, constants, files and commands out of a newcomer's way."""
    return st.expander(s("dev_expander"), icon=":material/code:")


# --- 1. the idea and one typical request -----------------------------------------------------
def intro(s: Strings, params: Mapping[str, Any]) -> None:
    st.markdown(m(s, "intro"))
    with for_developers(s):
        for formula in explain.formulas(params)["total"]:
            st.latex(formula)
        st.caption(m(s, "dev_sources"))


def typical_request(s: Strings, catalog, typical, lang: str) -> None:
    name, precision, hardware = labels_of(catalog, explain.TYPICAL, lang)
    st.header(s("typical_heading"), anchor="typical")
    stage_labels = {k: s(f"stage_{k}") for k in explain.STAGES}
    charts.show(explain.breakdown_figure(typical.breakdown, stage_labels, s("row_first"), s("row_total"),
                                         lambda x: sec(s, x), s("axis_sec")), key="how_chart_breakdown", name=s("typical_heading"))
    caption = s("typical_caption", model=md(name), precision=md(precision), hardware=md(hardware),
                km=f(explain.CLOUD_KM), prompt=explain.PROMPT_TOKENS, output=explain.OUTPUT_TOKENS,
                ttft=sec(s, typical.ttft_s), total=sec(s, typical.total_s),
                decode_pct=f"{100 * typical.breakdown['decode'] / typical.total_s:.0f}")
    if typical.breakdown["queue"] == 0:
        caption += " " + s("typical_idle")
    st.caption(caption.replace("~", "\\~"))


# --- 2. stage by stage -----------------------------------------------------------------------
def constants_table(s: Strings, constants: list) -> None:
    rows = []
    for c in constants:
        value = c.value * 100 if c.unit == "pct" else c.value
        rows.append({s("col_constant"): s(f"const_{c.id}"), s("col_value"): s(f"unit_{c.unit}", v=f(value)),
                     s("col_origin"): s(f"origin_{c.origin}"), s("col_source"): s(f"src_{c.id}")})
    text_table(rows, break_last=constants[0].id if constants else None)  # the sources' long names


def fractions_table(s: Strings, fractions: list, key: str, caption_key: str) -> None:
    st.caption(m(s, caption_key))
    rows = []
    for fr in fractions:
        fitted = fr.calibrated and (key == "compute_frac" or fr.bw_fitted)
        status = "status_fitted" if fitted else ("status_default" if not fr.calibrated else "status_prior")
        rows.append({s("col_engine"): s(f"engine_{fr.engine}"), s("col_kind"): s(f"kind_{fr.kind}"),
                     s("col_share"): s("unit_pct", v=f(100 * getattr(fr, key))), s("col_status"): s(status)})
    text_table(rows, break_last=key)  # four columns of English words are wider than a phone


def formulas_of(formulas: list[str], legend: str) -> None:
    """A stage's formulas, then the legend of their symbols (subscripts like N_a kept literal)."""
    for formula in formulas:
        st.latex(formula)
    st.caption(legend.replace("_", "\\_"))


def network_tab(s: Strings, params: Mapping[str, Any]) -> None:
    st.subheader(s("network_heading"), anchor="network")
    cold, warm = network.SETUP_ROUND_TRIPS["cold"], network.SETUP_ROUND_TRIPS["warm"]
    st.markdown(m(s, "network_simple", fibre=f(network.FIBRE_KM_PER_MS), cold=cold))
    ex = explain.network_example(explain.CLOUD_KM, params)
    st.info(m(s, "network_example", km=f(explain.CLOUD_KM), warm=ms(s, ex["warm"]), cold=ms(s, ex["cold"]),
              zero=ms(s, ex["zero"])), icon=":material/calculate:")
    with for_developers(s):
        st.markdown(m(s, "network_plain", fibre=f(network.FIBRE_KM_PER_MS), cold=cold))
        formulas_of(explain.formulas(params)["network"], s("network_legend", cold=cold, warm=warm))
        constants_table(s, explain.stage_constants(params)["network"])


def queue_tab(s: Strings, params: Mapping[str, Any]) -> None:
    st.subheader(s("queue_heading"), anchor="queue")
    t0 = sec(s, params["engines"]["optimized"]["request_overhead_s"])
    st.markdown(m(s, "queue_simple", t0=t0))
    items = ", ".join(s("queue_item", u=f"{100 * u:.0f}", m=f(mult)) for u, mult in explain.queue_multipliers())
    st.markdown(m(s, "queue_arrival_plain"))
    with for_developers(s):  # utilisation, service time S, slots B: the model's own words
        st.markdown(m(s, "queue_plain", t0=t0))
        st.info(m(s, "queue_example", items=items), icon=":material/calculate:")
        formulas_of(explain.formulas(params)["queue"], s("queue_legend"))
        st.caption(m(s, "queue_arrival_formulas"))
        constants_table(s, explain.stage_constants(params)["queue"])
        st.caption(m(s, "queue_no_constants", t0=t0))


def prefill_tab(s: Strings, params: Mapping[str, Any], catalog, typical, lang: str) -> None:
    st.subheader(s("prefill_heading"), anchor="prefill")
    constants = explain.stage_constants(params)["prefill"]
    flops = next(c.value for c in constants if c.id == "flops_per_param")
    st.markdown(m(s, "prefill_simple"))
    if typical is not None:
        name, precision, hardware = labels_of(catalog, explain.TYPICAL, lang)
        st.info(m(s, "prefill_example", model=md(name), precision=md(precision), hardware=md(hardware),
                  devices=typical.devices_needed, prompt=explain.PROMPT_TOKENS, t=ms(s, typical.breakdown["prefill"]),
                  rate=f(typical.prefill_tokens_per_s), bound=s(f"bound_{typical.bottleneck['prefill']}")),
                icon=":material/calculate:")
    with for_developers(s):
        st.markdown(m(s, "prefill_plain", flops=f(flops)))
        formulas_of(explain.formulas(params)["prefill"], s("prefill_legend"))
        scores = params.get("meta", {}).get("combine_scores_pct", {})
        if "sum" in scores and "max" in scores:
            st.markdown(m(s, f"combine_{params.get('combine', 'max')}", sum=f"{scores['sum']:.1f}",
                          max=f"{scores['max']:.1f}"))
        constants_table(s, constants)
        fractions_table(s, explain.fitted_fractions(params), "compute_frac", "fractions_compute")


def decode_tab(s: Strings, params: Mapping[str, Any], typical) -> None:
    st.subheader(s("decode_heading"), anchor="decode")
    st.markdown(m(s, "decode_simple"))
    if typical is not None:
        st.info(m(s, "decode_example", tpot=ms(s, typical.tpot_s), rate=f(typical.decode_tokens_per_s, 2),
                  output=explain.OUTPUT_TOKENS, t=sec(s, typical.breakdown["decode"]),
                  bound=s(f"bound_{typical.bottleneck['decode']}")), icon=":material/calculate:")
    st.markdown(f"**{s('memory_heading')}**")
    st.markdown(m(s, "memory_simple", overhead=f(100 * (1 - engines.ENGINE_PROFILES["vllm"].memory_fraction))))
    st.markdown(m(s, "loop_simple"))
    with for_developers(s):  # batches, KV cache, tensor parallel and all-reduces: the model's own words
        st.markdown(m(s, "decode_plain"))
        st.markdown(m(s, "memory_plain", overhead=f(100 * (1 - engines.ENGINE_PROFILES["vllm"].memory_fraction))))
        st.markdown(m(s, "loop_note"))
        formulas_of(explain.formulas(params)["decode"], s("decode_legend"))
        constants_table(s, explain.stage_constants(params)["decode"])
        fractions_table(s, explain.fitted_fractions(params), "bw_frac", "fractions_bw")


# --- 3. calibration --------------------------------------------------------------------------
def calibration(s: Strings, params: Mapping[str, Any], report: Mapping[str, Any]) -> None:
    """How close the model comes to published measurements. Reads the report generically: a group,
    a column or a table the report does not carry is left out rather than failing."""
    rows, routes = report.get("compute_rows", []), report.get("rtt_routes", [])
    st.markdown(m(s, "calib_intro", rows=len(rows), devices=len(explain.devices_in(report)), routes=len(routes)))
    medians = explain.median_errors(report)
    group_keys = {"decode": "group_decode", "prefill/TTFT": "group_prefill_ttft", "RTT": "group_rtt"}
    text_table([{s("col_group"): s(group_keys[g]), s("col_in_sample"): pct(s, medians["in_sample"][g]),
                 s("col_loo"): pct(s, medians["leave_one_device_out"][g]),
                 s("col_target"): s("target_pct", v=f(explain.ERROR_TARGETS_PCT[g]))}
                for g in explain.ERROR_GROUPS if g in medians["in_sample"]])
    st.caption(m(s, "calib_source"))
    if rows:
        worst = explain.worst_loo(report)
        value = (lambda v: sec(s, v)) if worst["target"] == "ttft" else (lambda v: s("tok_s", v=f(v)))
        st.markdown(m(s, "worst_text", device=md(worst["device"]), model=md(worst["model"]),
                      precision=md(worst["precision"]), target=s(f"measure_{worst['target']}_value"),
                      pred=value(worst["predicted_loo"]), meas=value(worst["measured"]),
                      err=f"{explain.error_pct(worst['predicted_loo'], worst['measured']):+.0f}"))
    bands(s, params)
    with for_developers(s):
        st.caption(m(s, "calib_reproduce"))
        measurement_rows(s, report, rows)
        route_rows(s, params, report, routes)


def bands(s: Strings, params: Mapping[str, Any]) -> None:
    st.subheader(s("bands_heading"), anchor="bands")
    b = params["bands"]
    uncalibrated = [k for k in estimator.KINDS if k not in params["engines"]["llama.cpp"]["kinds"]
                    and k not in params["engines"]["optimized"]["kinds"]]
    st.markdown(m(s, "bands_text", p_lo=calibrate.BAND_PERCENTILES[0], p_hi=calibrate.BAND_PERCENTILES[1],
                  net_lo=f"{b['network'][0]:.2f}", net_hi=f"{b['network'][1]:.2f}",
                  pre_lo=f"{b['prefill'][0]:.2f}", pre_hi=f"{b['prefill'][1]:.2f}",
                  dec_lo=f"{b['decode'][0]:.2f}", dec_hi=f"{b['decode'][1]:.2f}",
                  kinds=", ".join(s(f"kind_{k}") for k in uncalibrated)))


def measurement_rows(s: Strings, report: Mapping[str, Any], rows: list) -> None:
    st.markdown(f"**{s('rows_expander', n=len(rows))}**")
    number = st.column_config.NumberColumn(format="%.4g")
    table(pd.DataFrame([{
        s("col_measure"): s(f"measure_{r['target']}"), s("col_device"): r["device"], s("col_model"): r["model"],
        s("col_precision"): r["precision"], s("col_engine"): s(f"engine_{r['engine']}"),
        s("col_tokens"): int(r["tokens"]), s("col_measured"): r["measured"], s("col_predicted"): r["predicted"],
        s("col_err"): round(explain.error_pct(r["predicted"], r["measured"]), 1),
        s("col_predicted_loo"): r["predicted_loo"],
        s("col_err_loo"): round(explain.error_pct(r["predicted_loo"], r["measured"]), 1),
    } for r in rows]), key="how_rows", column_config={
        s("col_measured"): number, s("col_predicted"): number, s("col_predicted_loo"): number})
    excluded = report.get("excluded", [])
    if excluded:
        # one line per reason, its values after it (older reports: SUSPECT values of measurements.csv only)
        by_reason: dict[str, list[str]] = {}
        for x in excluded:
            reason = x.get("reason", "suspect")
            by_reason.setdefault(reason, []).append(s(
                f"excluded_item_{reason}", device=md(x["device"]), model=md(x["model"]), precision=md(x["precision"]),
                value=f(x["measured"], 5), line=x["line"], file=x.get("file", "measurements.csv"),
                users=x.get("concurrency", "")))
        st.caption("\n".join([s("excluded_text")] + [f"- {s(f'excluded_reason_{r}')}: {'; '.join(items)}"
                                                      for r, items in by_reason.items()]))


def route_rows(s: Strings, params: Mapping[str, Any], report: Mapping[str, Any], routes: list) -> None:
    st.markdown(f"**{s('routes_expander', n=len(routes))}**")
    table(pd.DataFrame([{
        s("col_route"): f"{r['from']} – {r['to']}", s("col_km"): round(r["distance_km"]),
        s("col_rtt_measured"): r["measured_ms"], s("col_rtt_predicted"): round(r["predicted_ms"], 1),
        s("col_err"): round(explain.error_pct(r["predicted_ms"], r["measured_ms"]), 1),
        s("col_rtt_predicted_loo"): round(r["predicted_loo_ms"], 1),
        s("col_err_loo"): round(explain.error_pct(r["predicted_loo_ms"], r["measured_ms"]), 1),
    } for r in routes]), key="how_routes")
    metro = report.get("rtt_same_metro", [])
    if metro:
        st.caption(m(s, "same_metro_text", fixed=f(params["network"]["fixed_ms"], 4), n=len(metro), items="; ".join(
            s("same_metro_item", a=md(x["from"]), b=md(x["to"]), v=f(x["measured_ms"])) for x in metro)))


# --- 4. does the glossary's comparison table hold? -------------------------------------------
BADGE_COLOR = {"holds": "green", "first_token": "orange", "no": "red"}
BADGE_ICON = {"holds": ":material/check_circle:", "first_token": ":material/timelapse:", "no": ":material/cancel:"}


def claims_chart(s: Strings, checks: list, classes: list, catalog, lang: str) -> None:
    st.markdown(m(s, "claims_intro", prompt=explain.PROMPT_TOKENS, output=explain.OUTPUT_TOKENS, km=f(explain.CLOUD_KM)))
    hover = {}
    for check in checks:
        for j, r in enumerate(check.results):
            name, precision, hardware = labels_of(catalog, r.scenario, lang)
            hover[(check.class_id, j)] = f"{name} · {precision} · {hardware} ×{r.devices}"
    legend = {"ttft": s("legend_ttft"), "total": s("legend_total", output=explain.OUTPUT_TOKENS),
              "stated": s("legend_stated")}
    charts.show(explain.claims_figure(checks, {c.id: c.short_name for c in classes}, legend, hover,
                                      lambda x: sec(s, x), s("axis_sec")), key="how_chart_claims", name=s("claims_heading"))
    st.caption(m(s, "claims_chart_caption"))


def claim_card(s: Strings, check, c, catalog, lang: str) -> None:
    """One class of the glossary's table: what it states, the verdict, the set-ups behind it."""
    lo, hi = check.stated
    with st.container(border=True):
        st.subheader(md(c.name), anchor=f"claim-{check.class_id}")
        st.caption(m(s, "class_stated", wording=md(c.latency), lo=f(lo), hi=f(hi)))
        st.badge(s(f"verdict_badge_{check.verdict}"), icon=BADGE_ICON[check.verdict], color=BADGE_COLOR[check.verdict])
        t_lo, t_hi = check.span("ttft")
        a_lo, a_hi = check.span("total")
        st.markdown(m(s, f"verdict_{check.verdict}", n=check.n, ttft_in=check.ttft_in, total_in=check.total_in,
                      ttft_lo=fs(t_lo), ttft_hi=fs(t_hi), total_lo=fs(a_lo), total_hi=fs(a_hi)))
        within = [r.tokens_within_max for r in check.results if r.tokens_within_max is not None]
        if within:
            st.markdown(m(s, "within_text", hi=f(hi), lo_tokens=f"{min(within):,}", hi_tokens=f"{max(within):,}"))
        with st.expander(s("setups_expander", n=check.n), icon=":material/table:"):
            setups_table(s, check, hi, catalog, lang)


def setups_table(s: Strings, check, hi: float, catalog, lang: str) -> None:
    data = []
    for r in check.results:
        name, precision, hardware = labels_of(catalog, r.scenario, lang)
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
    names = sorted({labels_of(catalog, r.scenario, lang)[2] for r in check.results if not r.calibrated})
    if names:
        st.caption(m(s, "uncalibrated_note", names=", ".join(md(n) for n in names)))


# --- 5. known limits -------------------------------------------------------------------------
def limits(s: Strings) -> None:
    st.markdown(m(s, "limits_intro"))
    keys = sorted((k for k in s.table if re.fullmatch(r"limit_\d+", k)), key=lambda k: int(k.split("_")[1]))
    st.markdown("\n".join(f"- {m(s, k)}" for k in keys))
    with for_developers(s):
        st.caption(m(s, "limits_docs"))


RANGE_GROUPS = ("decode_calibrated", "decode_uncalibrated", "prefill_calibrated", "prefill_uncalibrated", "serving_decode",
                "serving_ttft_evaluated", "serving_throughput_evaluated")


def ranges_users_context(s: Strings, report: Mapping[str, Any]) -> None:
    """Issue 12 in plain words first (what a range means, many users on one server, long
    conversations); the formulas and the coverage and per-series error tables folded below."""
    st.markdown(m(s, "ruc_plain"))
    with st.expander(s("ruc_dev_heading"), icon=":material/code:"):
        st.markdown(m(s, "ruc_formulas"))
        cover = report.get("coverage_pct", {})
        rows = [{s("col_range"): s(f"range_{g}"), s("col_band"): s("band", lo=f"{cover[g]['band'][0]:.2f}", hi=f"{cover[g]['band'][1]:.2f}"),
                 s("col_median"): pct(s, cover[g]["median_abs_error_pct"]), s("col_coverage"): pct(s, cover[g]["coverage_pct"]),
                 s("col_coverage_refit"): pct(s, cover[g]["coverage_loo_pct"]) if "coverage_loo_pct" in cover[g] else "–",
                 s("col_rows"): str(cover[g]["rows"])} for g in RANGE_GROUPS if g in cover]
        if rows:
            text_table(rows)
            refits = [cover[g]["coverage_loo_pct"] for g in RANGE_GROUPS if "coverage_loo_pct" in cover.get(g, {})]
            if refits:  # an older report without the stricter check: the table alone
                st.caption(m(s, "ruc_coverage_note", lo=f"{min(refits):.0f}", hi=f"{max(refits):.0f}"))
        series = report.get("series_errors", [])
        if series:
            table(pd.DataFrame([{s("col_series"): r["series"], s("col_target_kind"): r["target"],
                                 s("col_series_in_sample"): round(r["in_sample_pct"], 1),
                                 s("col_series_loo"): round(r["leave_one_device_out_pct"], 1) if r.get("leave_one_device_out_pct") is not None else None,
                                 s("col_rows"): r["rows"]} for r in series]))
            st.caption(m(s, "ruc_series_note"))
