"""Sections of the "Your logs" page (pages/logs.py): the file picker, the error message, the scenario
picker, the summary, the distributions and the view over time. Plain functions taking their data."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from latency.charts import logs as C
from latency.teaching import content
from latency.language import formats
from latency.estimation import places, sizing
from latency.estimation import scenario as SC
from latency.measured import logs as L
from latency.estimation.catalog import load_catalog
from latency.language.i18n import Strings, md
from latency.measured.log_samples import SAMPLES, SAMPLES_DIR
from ui import charts, shell, state, style

SAMPLE_KEY = "lg_sample"
UPLOAD_GEN = "lg_upload_gen"
FMT_CHOICES = ("auto",) + L.FORMATS
LIMIT_TEXT = f"{L.MAX_BYTES / 1048576:g} MB"
PROMPT = SC.NumberParam(512, 1, SC.PROMPT_MAX, integer=True)
BUDGET = SC.NumberParam(10.0, 0.01, 3600.0)   # seconds: 10 ms to an hour
SCALE = {"ttft_s": 1.0, "tpot_s": 1e3, "e2e_s": 1.0}  # shown in s, ms, s


@st.cache_data(show_spinner=False, max_entries=4)
def load_data(signature: str):
    """Catalogs and named distances (pure data; signature = the content files and their mtimes)."""
    return load_catalog(), places.load_stops()


def data_signature() -> str:
    return content.files_signature()


@st.cache_data(show_spinner=False, max_entries=8)
def read_log(data: bytes, fmt: str | None) -> tuple[pd.DataFrame, str]:
    return L.read_latency_log_with_format(data, fmt)


def fmt_s(s: Strings, v: float) -> str:
    return formats.get(s.lang).seconds(v)


def fmt_log_s(s: Strings, v: float) -> str:
    """A time read from the reader's own log: three significant digits (newcomer re-check 2026-12-05: p90 "10 s" beside
    "88% finished within 10 s", p95 and p99 both "12 s"). The estimator's figures keep the app's own rounding (`fmt_s`),
    as every other page prints them."""
    return formats.get(s.lang).unit("seconds", formats.number(v, 3)) if math.isfinite(v) else "–"


def fmt_value(s: Strings, col: str, v: float, log: bool = True) -> str:
    """Seconds, or milliseconds for the time per output token (how vLLM and llama.cpp report it)."""
    if not math.isfinite(v):
        return "–"
    return formats.get(s.lang).ms(v * 1e3) if col == "tpot_s" else (fmt_log_s(s, v) if log else fmt_s(s, v))


def _clear_sample() -> None:
    st.session_state.pop(SAMPLE_KEY, None)


def _use_sample() -> None:
    """Show the chosen sample; a new uploader key empties the uploader, so the sample is what is read."""
    st.session_state[SAMPLE_KEY] = st.session_state["lg_sample_fmt"]
    st.session_state[UPLOAD_GEN] = st.session_state.get(UPLOAD_GEN, 0) + 1


def pick_source(s: Strings) -> dict:
    """The uploader, the format choice and the sample button -> {name, data, fmt} ({} when none)."""
    upload = st.file_uploader(s("upload_label"), key=f"lg_upload_{st.session_state.get(UPLOAD_GEN, 0)}",
                              on_change=_clear_sample,
                              help=s("upload_help", limit=LIMIT_TEXT))
    # stacks when narrow (ui/style.py): at 1024 px beside the sidebar the button's label was cut
    c1, c2, c3 = st.container(key=style.STACK_KEY + "logs").columns([2, 2, 1], vertical_alignment="bottom")
    fmt = c1.selectbox(s("fmt_label"), FMT_CHOICES, key="lg_fmt", format_func=lambda f: s(f"fmt_{f}"),
                       help=s("fmt_help"))
    c2.selectbox(s("sample_label"), L.FORMATS, key="lg_sample_fmt", format_func=lambda f: s(f"fmt_{f}"))
    c3.button(s("sample_button"), key="lg_sample_button", on_click=_use_sample, icon=":material/science:")
    chosen = None if fmt == "auto" else fmt
    if upload is not None:
        return dict(name=upload.name, data=upload.getvalue(), fmt=chosen)
    sample = st.session_state.get(SAMPLE_KEY)
    if sample in SAMPLES:
        st.caption(s("sample_caption"))
        return dict(name=SAMPLES[sample], data=(SAMPLES_DIR / SAMPLES[sample]).read_bytes(), fmt=chosen or sample)
    return {}


def show_formats(s: Strings, expanded: bool) -> None:
    with st.expander(s("formats_header"), expanded=expanded):
        st.markdown(s["formats_body"])


def show_error(s: Strings, err: L.LogError) -> None:
    """What is wrong and where (line, field, value), in the page's language; values escaped."""
    reason = s(f"err_{err.code}", limit=LIMIT_TEXT) if err.code == "too_large" else (
        s(f"err_{err.code}", accepted=md(err.field or ""), found=md(", ".join(err.found)))
        if err.code == "missing_column" else s(f"err_{err.code}"))
    where = []
    if err.line:
        where.append(s("err_where_line", line=f"{err.line:,}"))
    if err.field and err.code != "missing_column":
        where.append(s("err_where_field", field=md(err.field)))
    if err.value is not None and err.code not in ("too_large", "missing_column"):  # missing_column: every name, above
        where.append(s("err_where_value", value=md(err.value)))
    text = f"**{s('err_title')}** {reason}"
    if where:
        text += "\n\n" + s("err_where", where=" · ".join(where))
    st.error(text, icon=":material/error:")


LINKED_KEYS = ("model_size_b", "precision", "hardware", "distance_km", "prompt_tokens", "output_tokens")
"""What the launch check link carries: the boxes this page shows; the launch check's own inputs fill the rest."""
LOG_SCENARIO_KEYS = ("lg_size", "lg_precision", "lg_hardware", "lg_distance", "lg_prompt", "lg_output")
"""The logs page's scenario boxes (`scenario_controls`), held on each fragment rerun."""


def scenario_controls(s: Strings, catalog, stops, lang: str, df: pd.DataFrame) -> dict:
    """Model size, hardware, precision, distance, prompt and answer tokens -> the estimator's values."""
    st.header(s("scenario_header"))
    st.caption(s("scenario_help"))
    sizes = sizing.size_steps(catalog)
    out = df["output_tokens"].dropna()
    default_out = int(min(max(out.median(), 1), SC.OUTPUT_MAX)) if len(out) else 256
    c1, c2, c3 = st.columns(3)
    values = dict(SC.DEFAULTS)
    hardware = SC.ordered_hardware(catalog)
    by_km = {stop.km: stop for stop in stops}
    # Defaults through st.session_state, not value=/index=, so that `state.hold` can re-send every box's value on a
    # fragment rerun (the estimator's held arrow key lost the other boxes' values under load; ui/state.py `hold`)
    for key, default in (("lg_size", sizing.snap(SC.DEFAULTS["model_size_b"], sizes)),
                         ("lg_precision", next(iter(catalog.precisions))), ("lg_hardware", SC.DEFAULTS["hardware"]),
                         ("lg_distance", next(iter(by_km)))):
        st.session_state.setdefault(key, default)
    state.hold(LOG_SCENARIO_KEYS)
    values["model_size_b"] = c1.select_slider(s("size_label"), options=sizes, key="lg_size",
                                              format_func=formats.get(lang).size_b)
    values["precision"] = c1.selectbox(s("precision_label"), list(catalog.precisions), key="lg_precision",
                                       format_func=lambda p: catalog.precisions[p].label(lang))
    values["hardware"] = c2.selectbox(s("hardware_label"), hardware, key="lg_hardware",
                                      format_func=lambda h: catalog.hardware[h].label(lang))
    values["distance_km"] = c2.selectbox(s("distance_label"), list(by_km), key="lg_distance",
                                         format_func=lambda km: s("distance_option", name=by_km[km].label[lang],
                                                                  km=formats.get(lang).km(km)))
    values["prompt_tokens"] = state.bounded_number_input(s("prompt_label"), "lg_prompt", PROMPT, where=c3, step=128)
    values["output_tokens"] = state.bounded_number_input(
        s("output_label"), "lg_output", SC.NumberParam(default_out, 1, SC.OUTPUT_MAX, integer=True), where=c3, step=32,
        help=s("output_help"))
    for text in state.box_notice_texts(shell.strings("scenario"), ("lg_prompt", "lg_output")):
        st.warning(text, icon=":material/edit_note:")
    return values


GAP_SAID = 2.0
"""A log's median first token this many times the estimate's (or less than its inverse) gets a sentence on what the
estimate does not know (`estimate_gap`): past 2x the estimate's own range (about 80% of measurements within it,
docs/estimator.md) no longer explains the difference."""


def estimate_for(s: Strings, catalog, values: dict, lang: str):
    """The estimator's figure for the chosen scenario (None with a message when it cannot)."""
    try:
        _, entry, est = SC.evaluate(catalog, values)
    except ValueError as err:
        st.warning(s("estimate_error", problem=md(err)))
        return None
    scenario = " · ".join([formats.get(lang).size_b(values["model_size_b"]), entry.label(lang),
                           catalog.precisions[values["precision"]].label(lang)])
    st.info(s("estimate_text", scenario=md(scenario), ttft=fmt_s(s, est.ttft_s), tpot=fmt_value(s, "tpot_s", est.tpot_s, log=False),
              total=fmt_s(s, est.total_s)), icon=":material/calculate:")
    return est


FEW_REQUESTS = 20
"""Fewer requests than this and p95 lies between the two slowest (numpy's linear interpolation: rank 0.95 x (n - 1)
> n - 2 once n < 21), p99 too: the page says so."""


def read_notes(s: Strings, df: pd.DataFrame) -> list[str]:
    """What the reader left out or found suspicious (latency.measured.logs: UNREADABLE_KEY, MS_SUSPECT_KEY), said."""
    f = formats.get(s.lang)
    out = []
    bad = df.attrs.get(L.UNREADABLE_KEY)
    if bad:
        out.append(s("note_unreadable", count=f.count(bad["count"], "values"), line=f"{bad['line']:,}", field=md(bad["field"]),
                     value=md(bad["value"] or "")))
    for column, median in df.attrs.get(L.MS_SUSPECT_KEY, []):
        stem = column[:-2] if column.lower().endswith("_s") else column
        out.append(s("note_seconds_like_ms", column=md(column), median=f"{median:,.0f}", ms=md(f"{stem}_ms")))
    return out


def summary(s: Strings, summ: dict, budget: float) -> None:
    st.header(s("summary_header"))
    cols = st.columns(4)
    cols[0].metric(s("metric_count"), f"{summ['count']:,}")
    within = summ["within_budget"]
    if within is None or not math.isfinite(within):
        cols[1].metric(s("metric_within", budget=fmt_s(s, budget)), "–", help=s("metric_within_none"))
    else:
        cols[1].metric(s("metric_within", budget=fmt_s(s, budget)), formats.get(s.lang).percent(within))
    for col, key in zip(cols[2:], ("ttft_s", "e2e_s")):
        col.metric(s("metric_p", metric=s(f"name_{key}"), p=95), fmt_value(s, key, summ[f"{key}_p95"]))
    f = formats.get(s.lang)
    if within is not None and math.isfinite(within):  # counts, which add up (a trial read "9.5% ... the other 90%")
        n, total, bad = summ["within_count"], summ["within_total"], summ["e2e_s_unreadable"]
        st.caption(s("within_caption_unreadable" if bad else "within_caption", n=f"{n:,}", total=f.count(total, "requests"),
                     share=f.percent(within), miss=f"{total - n:,}", bad=f"{bad:,}"))
    counted = [(key, summ[f"{key}_n"]) for key in L.LATENCY_COLUMNS if 0 < summ[f"{key}_n"] < summ["count"]]
    if counted:  # blank cells were dropped without a word (newcomer trial 2026-12-05)
        st.caption(s("note_counts", counts=", ".join(s("note_count_item", name=s(f"name_{key}"), n=f"{n:,}",
                                                        total=f"{summ['count']:,}") for key, n in counted)))
    if summ.get("tpot_s_worked_out"):  # a figure the log had no column for (newcomer re-check 2026-12-05)
        st.caption(s("note_tpot_worked_out", n=f"{summ['tpot_s_worked_out']:,}"))
    fewest = min((summ[f"{key}_n"] for key in L.LATENCY_COLUMNS if summ[f"{key}_n"]), default=0)
    if 0 < fewest < FEW_REQUESTS:
        st.warning(s("note_few_requests", n=f.count(fewest, "requests")), icon=":material/info:")


def reading(s: Strings, summ: dict) -> None:
    """What the figures say and what to try, in plain words: the first token's spread (p50 against p95), how the
    typical whole answer splits between the first token and writing the rest, the larger part's levers, and where
    a queue at busy moments shows (newcomer trial 2026-12-05: figures with no "so what")."""
    f = formats.get(s.lang)
    ttft50, ttft95, e2e50 = summ["ttft_s_p50"], summ["ttft_s_p95"], summ["e2e_s_p50"]
    lines = []
    if math.isfinite(ttft50) and math.isfinite(ttft95) and ttft50 > 0 and summ["ttft_s_n"] >= FEW_REQUESTS:
        lines.append(s("reading_tail", p50=fmt_log_s(s, ttft50), p95=fmt_log_s(s, ttft95), ratio=f.ratio(ttft95 / ttft50)))
    if math.isfinite(ttft50) and math.isfinite(e2e50) and e2e50 >= ttft50:
        rest = e2e50 - ttft50
        lines.append(s("reading_split", total=fmt_log_s(s, e2e50), ttft=fmt_log_s(s, ttft50), rest=fmt_log_s(s, rest)))
        lines.append(s("reading_decode" if rest > ttft50 else "reading_first"))
    if not lines:
        return
    st.subheader(s("reading_header"), anchor=False)
    st.markdown("\n".join(f"- {line}" for line in lines + [s("reading_busy")]))


def _estimate_triple(est, key: str):
    if est is None:
        return None
    name = {"ttft_s": "ttft_s", "tpot_s": "tpot_s", "e2e_s": "total_s"}[key]
    low, high = est.ranges[name]
    k = SCALE[key]
    return getattr(est, name) * k, low * k, high * k


def distributions(s: Strings, df: pd.DataFrame, summ: dict, est, budget: float) -> None:
    """One tab per latency: the ECDF with percentiles, the estimate and (end to end) the budget."""
    keys = list(L.LATENCY_COLUMNS)
    tabs = st.tabs([s(f"name_{k}") for k in keys])
    names = dict(y_title=s("axis_share"), requests=s("legend_requests"), estimate=s("legend_estimate"),
                 estimate_range=s("legend_estimate_range"), budget=s("legend_budget"),
                 within_budget=s("legend_within_budget"), percentile=s["percentile_mark"])
    for tab, key in zip(tabs, keys):
        with tab:
            if summ[f"{key}_n"] == 0:
                st.info(s("no_values", metric=s(f"name_{key}")))
                continue
            k = SCALE[key]
            fig = C.ecdf_figure(df[key].to_numpy() * k, names=dict(names, x_title=s(f"axis_{key}")),
                                percentiles={p: summ[f"{key}_p{p}"] * k for p in L.PERCENTILES},
                                estimate=_estimate_triple(est, key), budget=budget if key == "e2e_s" else None)
            # no table under it: its key numbers (p50/p95/p99 and the estimate) are the table below, and
            # every other point is a request of the reader's own file (issue 23 item 3)
            charts.show(fig, key=f"lg_ecdf_{key}", table=False)
    st.caption(s("ecdf_caption"))
    st.markdown(f"**{s('table_header')}**")
    rows = {s("col_stat"): [f"p{p}" for p in L.PERCENTILES] + [s("row_estimate")]}
    for key in keys:
        triple = _estimate_triple(est, key)
        rows[s(f"name_{key}")] = [fmt_value(s, key, summ[f"{key}_p{p}"]) for p in L.PERCENTILES] + [
            fmt_value(s, key, triple[0] / SCALE[key], log=False) if triple else "–"]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


def gap_note(s: Strings, summ: dict, est, df: pd.DataFrame | None = None) -> str:
    """A sentence when the log's median first token and the estimate's are GAP_SAID apart or more; else "" (also when
    the log's seconds look like milliseconds: the gap is then the unit's, already said, not the set-up's)."""
    log = summ.get("ttft_s_p50", math.nan)
    if df is not None and df.attrs.get(L.MS_SUSPECT_KEY):
        return ""
    if est is None or not math.isfinite(log) or not est.ttft_s > 0 or log <= 0:
        return ""
    ratio = log / est.ttft_s
    if 1.0 / GAP_SAID < ratio < GAP_SAID:
        return ""
    return s("estimate_gap", log=fmt_log_s(s, log), ratio=formats.get(s.lang).ratio(ratio))


@st.fragment
def compare_and_draw(s: Strings, catalog, stops, lang: str, df: pd.DataFrame, summ: dict, budget: float) -> None:
    """The scenario picker and everything drawn with its estimate: reruns alone when a scenario input
    changes (the file is not read or summarised again)."""
    values = scenario_controls(s, catalog, stops, lang, df)
    est = estimate_for(s, catalog, values, lang)
    if gap := gap_note(s, summ, est, df):
        st.caption(gap)
    if est is not None:  # the set-up the boxes above picked, not the launch check's own defaults
        st.page_link("pages/launch.py", label=s("launch_link"), icon=":material/rocket_launch:",
                     query_params={**SC.to_query(values, LINKED_KEYS), "lang": lang})
    distributions(s, df, summ, est, budget)
    over_time(s, df, est, budget)


def over_time(s: Strings, df: pd.DataFrame, est, budget: float) -> None:
    st.header(s("time_header"))
    if df["timestamp"].isna().all():
        st.caption(s("no_timestamps"))
        return
    have = [k for k in L.LATENCY_COLUMNS if df[k].notna().any()]
    key = st.segmented_control(s("time_metric"), have, default=have[-1], key="lg_time_metric", required=True,
                               format_func=lambda k: s(f"name_{k}")) or have[-1]
    rows = df[df["timestamp"].notna() & df[key].notna()].sort_values("timestamp")
    triple = _estimate_triple(est, key)
    fig = C.over_time_figure(rows["timestamp"], rows[key].to_numpy() * SCALE[key],
                             names=dict(x_title=s("axis_time"), y_title=s(f"axis_{key}"), requests=s("legend_requests"),
                                        estimate=s("legend_estimate"), budget=s("legend_budget")),
                             estimate=triple[0] if triple else None, budget=budget if key == "e2e_s" else None)
    charts.show(fig, key="lg_time_chart", table=False)  # one point per request of the reader's own file; the estimate and budget are in the summary

