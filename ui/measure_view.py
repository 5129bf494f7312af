"""Sections of the "Measure here" page (pages/measure.py): the inputs, one measurement at a time per
server process (a lock), the progress bar, and the result beside the estimator's prediction."""

from __future__ import annotations

import datetime as dt
import functools
import threading
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from latency.charts import logs as C
from latency.estimation import estimator
from latency.language import formats
from latency.measured import measure as M
from latency.language.i18n import Strings, md
from latency.estimation.scenario import NumberParam
from ui import charts, shell, state

RESULT_KEY = "ms_result"
START_KEY = "ms_start_requested"  # set by the start button's callback, taken by the run that measures
SLOW_OVER_FLOOR = 2.0  # a time per token over twice the reading-alone floor gets the "busy server" sentence
CALLS_PER_LAYER = 50   # numpy operations per layer in one decode step (latency.measured.measure.Decoder.layer), counted roughly
WAIT_S = M.TIME_CAP_S + 15  # a second visitor waits this long for the first one's measurement


@dataclass(frozen=True)
class Result:
    measurement: M.Measurement
    comparison: M.Comparison | None
    hardware: str   # the processor as the page shows it (its language)
    csv: str


@st.cache_resource(show_spinner=False)
def measurement_lock() -> threading.Lock:
    """One lock per server process: one measurement at a time (they would slow each other down)."""
    return threading.Lock()


def num(x: float) -> str:
    return formats.number(x, 3)


def fmt_params(s: Strings, n: int) -> str:
    return s("unit_params_b", v=f"{n / 1e9:.2f}") if n >= 1e9 * 0.95 else s("unit_params_m", v=f"{n / 1e6:,.0f}")


def fmt_ms(s: Strings, x_s: float) -> str:
    return formats.get(s.lang).ms(x_s * 1e3)


def fmt_gb(s: Strings, gb: float) -> str:
    return formats.get(s.lang).gb(gb)


PROMPT = NumberParam(default=64, min_value=M.PROMPT_RANGE[0], max_value=M.PROMPT_RANGE[1], integer=True)
OUTPUT = NumberParam(default=16, min_value=M.OUTPUT_RANGE[0], max_value=M.OUTPUT_RANGE[1], integer=True)


def _request_start(labels: dict[str, str]) -> None:
    """Start button: the typed lengths kept inside their ranges (a form allows no on_change), then start."""
    state.keep_in_range("ms_prompt", labels["ms_prompt"], PROMPT)
    state.keep_in_range("ms_output", labels["ms_output"], OUTPUT)
    st.session_state[START_KEY] = True


def controls(s: Strings, sizes: list[M.DecoderConfig], free_gb: float) -> dict:
    """Size, prompt and answer lengths in a form (changing them does not interrupt a running measurement)."""
    by_id = {c.id: c for c in sizes}
    # Enter in a box does not start a run (logs/measure trial: typing a length and pressing Enter started 20 s of work)
    with st.form("ms_form", border=True, enter_to_submit=False):
        size = st.selectbox(s("size_label"), list(by_id), key="ms_size",
                            format_func=lambda i: s("size_option", params=fmt_params(s, by_id[i].params),
                                                    gb=fmt_gb(s, by_id[i].memory_gb())),
                            help=s("size_help", free=fmt_gb(s, free_gb), limit=fmt_gb(s, M.memory_limit_gb(free_gb))))
        c1, c2 = st.columns(2)
        labels = {"ms_prompt": s("prompt_label"), "ms_output": s("output_label")}
        state.bounded_number_input(labels["ms_prompt"], "ms_prompt", PROMPT, where=c1, in_form=True, step=8)
        state.bounded_number_input(labels["ms_output"], "ms_output", OUTPUT, where=c2, in_form=True, step=4)
        st.form_submit_button(s("start_button"), type="primary", icon=":material/play_arrow:", key="ms_start",
                              on_click=_request_start, args=(labels,))
    for text in state.box_notice_texts(shell.strings("scenario"), ("ms_prompt", "ms_output")):
        st.warning(text, icon=":material/edit_note:")
    prompt, output = st.session_state["ms_prompt"], st.session_state["ms_output"]
    st.caption(s("limits_caption", cap=f"{M.TIME_CAP_S:g}", prompt_lo=PROMPT.min_value, prompt_hi=PROMPT.max_value,
                 output_lo=OUTPUT.min_value, output_hi=OUTPUT.max_value))  # the ranges before a box clamps a value
    return dict(config=by_id[size], prompt=int(prompt), output=int(output),
                start=bool(st.session_state.pop(START_KEY, False)))


def _progress(bar, s: Strings, fraction: float, stage: str) -> None:
    bar.progress(fraction, text=s(f"stage_{stage}"))


def run_measurement(s: Strings, choice: dict, *, clock, free_gb: float) -> Result | None:
    """Wait for the server's lock (saying so), then measure with a progress bar. None when it could not."""
    need, limit = choice["config"].memory_gb(), M.memory_limit_gb(M.available_memory_gb())
    if need > limit:  # free memory fell since the page listed the sizes
        st.warning(s("memory_now_short", need=fmt_gb(s, need), limit=fmt_gb(s, limit)))
        return None
    lock = measurement_lock()
    notice = st.empty()
    if not lock.acquire(blocking=False):
        notice.info(s("busy_waiting"), icon=":material/hourglass_top:")
        if not lock.acquire(timeout=WAIT_S):
            notice.warning(s("busy_gave_up"), icon=":material/hourglass_disabled:")
            return None
    try:
        notice.empty()
        bar = st.progress(0.0, text=s("stage_probe"))
        m = M.run(choice["config"], choice["prompt"], choice["output"], clock=clock,
                  progress=functools.partial(_progress, bar, s))
        bar.progress(1.0, text=s("stage_done"))
    except (MemoryError, ValueError) as err:
        st.error(s("run_error", problem=md(err)))
        return None
    finally:
        lock.release()
    name, cores = M.cpu_name(), M.cpu_cores()
    comparison = M.compare(m, free_gb) if m.complete else None
    when = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d")
    row = M.csv_row(m, when=when, hardware=f"{name} ({cores} cores)")
    return Result(m, comparison, s("machine", name=name, cores=cores), M.csv_text(row))


def show_result(s: Strings, r: Result) -> None:
    m, cmp = r.measurement, r.comparison
    st.header(s("result_header"))
    st.caption(s("result_scenario", params=fmt_params(s, m.config.params), prompt=m.prompt_tokens,
                 output=m.output_tokens, hardware=md(r.hardware)))
    # what this measures and what a service's own log holds besides (newcomer re-check 2026-12-05: "no network"
    # was only in the downloaded file, and nothing led from here to the logs page)
    with st.container(horizontal=True, vertical_alignment="center", gap="small", key="ms_scope"):
        st.caption(s("result_scope"))
        st.page_link("pages/logs.py", label=shell.strings("common")("nav_logs"), icon=":material/monitoring:",
                     query_params={"lang": s.lang})
    if m.stopped in ("load", "prefill"):
        st.warning(s("stopped_early", cap=f"{M.TIME_CAP_S:g}", stage=s(f"stage_{m.stopped}")))
    elif m.stopped == "decode":
        st.warning(s("stopped_decode", cap=f"{M.TIME_CAP_S:g}", asked=m.output_tokens_asked, done=m.output_tokens))
    if cmp is None:
        details(s, r)
        return
    est = cmp.estimate
    c1, c2, c3 = st.columns(3)
    c1.metric(s("metric_ttft"), fmt_ms(s, m.ttft_s), s("metric_predicted", v=fmt_ms(s, est.ttft_s)), delta_color="off", delta_arrow="off")
    c2.metric(s("metric_tpot"), fmt_ms(s, m.tpot_s), s("metric_predicted", v=fmt_ms(s, est.tpot_s)), delta_color="off", delta_arrow="off")
    c3.metric(s("metric_tps"), formats.get(s.lang).tps(m.decode_tok_s),
              s("metric_predicted", v=formats.get(s.lang).tps(est.decode_tokens_per_s)), delta_color="off", delta_arrow="off")
    rows = [("metric_ttft", m.ttft_s, est.ttft_s, est.ranges["ttft_s"], cmp.ttft_ratio),
            ("metric_tpot", m.tpot_s, est.tpot_s, est.ranges["tpot_s"], cmp.tpot_ratio)]
    table = pd.DataFrame({
        s("col_metric"): [s(k) for k, *_ in rows],
        s("col_measured"): [fmt_ms(s, v) for _, v, *_ in rows],
        s("col_predicted"): [fmt_ms(s, p) for _, _, p, *_ in rows],
        s("col_range"): [formats.get(s.lang).range(lo * 1e3, hi * 1e3, "ms") for *_, (lo, hi), _ in rows],
        s("col_ratio"): [formats.get(s.lang).ratio(q) for *_, q in rows],
    })
    st.table(table.set_index(s("col_metric")))  # wraps at 390 px, where a data grid cut "32.5–70.7 ms" at its edge
    for key, *_, ratio in rows:
        st.markdown(s(f"verdict_{M.Comparison.verdict(ratio)}", metric=s(key), ratio=formats.get(s.lang).ratio(ratio)))
    fig = C.compare_figure([s("metric_ttft"), s("metric_tpot")], [m.ttft_s * 1e3, m.tpot_s * 1e3],
                           [est.ttft_s * 1e3, est.tpot_s * 1e3], fmt=formats.get(s.lang).ms,
                           names=dict(measured=s("chart_measured"), predicted=s("chart_predicted"), y_title=s("chart_y")))
    charts.show(fig, key="ms_chart", table=False)  # its four numbers are the table above it
    why(s, m, cmp, r.hardware)
    st.download_button(s("download_button"), data=r.csv, file_name=f"measurement-{m.config.size_name.lower()}.csv", mime="text/csv",
                       key="ms_download", icon=":material/download:", on_click="ignore")
    st.caption(s("download_caption"))
    details(s, r)


def short_verdict(cmp: M.Comparison) -> str | None:
    """The two figures' verdicts as one: slower if either is slower, else faster if either is faster, else agree
    if one agrees (None when neither was measured)."""
    verdicts = {M.Comparison.verdict(q) for q in (cmp.ttft_ratio, cmp.tpot_ratio)}
    return next((v for v in ("slower", "faster", "agree") if v in verdicts), None)


def why(s: Strings, m: M.Measurement, cmp: M.Comparison, hardware: str) -> None:
    st.markdown(f"**{s('why_header')}**")
    f = formats.get(s.lang)
    # the takeaway first, in plain words; the arithmetic after it (learner trial 2026-12-06: "written for engineers;
    # the plain point, a small shared CPU server, is buried")
    if verdict := short_verdict(cmp):
        st.markdown(s(f"why_short_{verdict}", hardware=md(hardware), ttft_ratio=f.ratio(cmp.ttft_ratio),
                      tpot_ratio=f.ratio(cmp.tpot_ratio)))
    bw, gflops = formats.get(s.lang).unit("gbs", num(m.probe.bandwidth_gbs)), s("unit_gflops", v=num(m.probe.matmul_gflops))
    st.markdown(s("why_decode", weights=fmt_gb(s, m.config.weights_gb), bw=bw, floor=fmt_ms(s, cmp.decode_floor_s),
                  tpot=fmt_ms(s, m.tpot_s)))
    st.markdown(s("why_prefill", prompt=m.prompt_tokens, gflop=num(2 * m.config.params * m.prompt_tokens / 1e9),
                  gflops=gflops, floor=fmt_ms(s, cmp.prefill_floor_s), ttft=fmt_ms(s, m.ttft_s)))
    prefill_parts(s, m, cmp)
    ep = estimator.engine_params(estimator.load_params(), cmp.estimate.engine, "cpu")
    if m.tpot_s > SLOW_OVER_FLOOR * cmp.decode_floor_s:
        st.markdown(s("why_slow", ratio=formats.get(s.lang).ratio(m.tpot_s / cmp.decode_floor_s),
                      calls=f"{m.config.layers * CALLS_PER_LAYER:,}"))
    st.markdown(s("why_estimator", bw=bw, gflops=gflops, bw_frac=f"{ep['bw_frac']:.2f}",
                  overhead=fmt_ms(s, ep["pass_overhead_s"])))


def prefill_parts(s: Strings, m: M.Measurement, cmp: M.Comparison) -> None:
    """Where the time to first token went (M.PARTS, timed in the same run), and what the estimator counts of it."""
    parts = m.prefill_parts_s
    if not parts or not m.ttft_s > 0:
        return
    f = formats.get(s.lang)
    st.markdown(f"**{s('parts_header')}**")
    # a table, not a data grid: its long part names wrap (a 768 px grid cut them mid-word, newcomer trial 2026-12-05)
    st.table(pd.DataFrame({s("col_part"): [md(s(f"part_{p}")) for p in M.PARTS],
                           s("col_time"): [fmt_ms(s, parts[p]) for p in M.PARTS],
                           s("col_share"): [f.percent(parts[p] / m.ttft_s) for p in M.PARTS]}), hide_index=True)
    st.markdown(s("why_parts", mm=fmt_ms(s, parts["matmul"]), share=f.percent(parts["matmul"] / m.ttft_s),
                  here=s("unit_gflops", v=num(cmp.matmul_gflops)), probe=s("unit_gflops", v=num(m.probe.matmul_gflops)),
                  prompt=m.prompt_tokens, elem=fmt_ms(s, parts["elementwise"]),
                  layer=num(m.config.layer_matmul_flops(m.prompt_tokens) / 1e9),
                  gflop=num(2 * m.config.params * m.prompt_tokens / 1e9)))
    verdict = M.Comparison.verdict(cmp.matmul_ratio)
    if verdict != "unknown":
        st.markdown(s(f"parts_{verdict}", ratio=f.ratio(cmp.matmul_ratio)))


def details(s: Strings, r: Result) -> None:
    m = r.measurement
    c = m.config
    with st.expander(s("details_header")):
        rows = [
            (s("detail_machine"), r.hardware),
            (s("detail_software"), M.software()),
            (s("detail_bw"), formats.get(s.lang).unit("gbs", num(m.probe.bandwidth_gbs))),
            (s("detail_gflops"), s("unit_gflops", v=num(m.probe.matmul_gflops))),
            (s("detail_probe_time"), formats.get(s.lang).seconds(m.probe.seconds)),
            (s("detail_shape"), s("detail_shape_value", layers=c.layers, hidden=f"{c.hidden:,}", heads=c.heads,
                                  vocab=f"{c.vocab:,}")),
            (s("detail_load"), formats.get(s.lang).seconds(m.load_s)),
            (s("detail_steps"), f"{len(m.step_s):,}"),
        ]
        st.table(pd.DataFrame([(md(a), md(b)) for a, b in rows], columns=[s("detail_item"), s("detail_value")]),
                 hide_index=True)  # wraps its long labels (`prefill_parts`)
