"""The estimate of one scenario: headline numbers, the budget verdict, and the timeline with each
stage's time and share written out (not only on hover)."""

from __future__ import annotations

import streamlit as st

from latency.language.formats import seconds_each
from latency.language import formats
from latency.exploring import verdict as V
from latency.charts.live import timeline_chart, timeline_table
from latency.estimation.estimator import STAGES, devices_for_memory
from latency.estimation.scenario import KEYS, fixed_devices, prompt_read_tokens, to_query
from latency.estimation.scenario import evaluate as scenario_evaluate
from latency.exploring import answers as A
from latency.exploring import tradeoffs
from latency.exploring.stages import handling_s, page_stages

PAGE_QUERY_KEYS = tuple(k for k in KEYS if k not in ("budget_s", "measure", "device_scope"))  # the estimator's URL keys
from latency.language.i18n import Strings, md
from ui import charts, style


def pinned(s: Strings, f, est) -> None:
    """The two times in one line that stays at the bottom of a phone's screen while its reader moves the
    inputs (ui/style.py: sticky at or below PHONE_PX, hidden wider). At 390 px the four figures stand about
    2.5 screens below the sliders, so a slider moved changed nothing the learner could see (learner trial).
    Drawn after the inputs, it takes its own place in the page once scrolled to, just above the figures."""
    with st.container(key=style.PINNED_KEY):
        st.markdown(s("pinned", ttft=f.seconds(est.ttft_s), total=f.seconds(est.total_s)) if est.fits
                    else s("pinned_no_fit"))


def headline(s: Strings, f, est, hw_entry, lang: str, values: dict, catalog=None) -> None:
    """Four numbers (first token, per-user speed, whole answer, memory), ranges explained once; for a
    model that does not fit, what it would need (memory, devices) in place of speed figures it
    could not have."""
    r = est.ranges
    device = hw_entry.label(lang)
    if not est.fits:
        no_fit(s, f, est, hw_entry, device, values, catalog)
        return
    row = st.container(horizontal=True, gap="small", horizontal_alignment="distribute")
    quiet = dict(delta_color="off", delta_arrow="off", width=160)  # each metric its own fixed width: no wrapper blocks
    row.metric(s("metric_ttft"), f.seconds(est.ttft_s), delta=f.range(*r["ttft_s"]), help=s("metric_ttft_help"), **quiet)
    row.metric(s("metric_tps"), formats.number(est.decode_tokens_per_s), delta=f.range(*r["decode_tokens_per_s"], kind="tps"),
              help=s("metric_tps_help"), **quiet)
    row.metric(s("metric_total"), f.seconds(est.total_s), delta=f.range(*r["total_s"]), help=s("metric_total_help"), **quiet)
    fit_text, color, waiting = s("fits_on", devices=f.count(est.devices_needed, "devices")), "off", ""
    users = int(values.get("concurrency", 1) or 1)
    everyone = getattr(est, "devices_for_users", None)  # memory needed is every user's at once (decision 5)
    if everyone and everyone > est.devices_needed and est.memory_gb > est.devices_needed * hw_entry.hardware.memory_gb:
        # a figure above the devices' memory says how many run at once and that the rest wait (PM trial item 7)
        held = f"{min(est.max_concurrent_requests, users):,}"
        fit_text = s("fits_on_waiting_short", users=f.count(users, "users"), held=held)  # a tile's delta does not wrap
        one = min(est.max_concurrent_requests, users) == 1  # "1 of them runs", not "run"
        waiting = s("fits_on_waiting_one" if one else "fits_on_waiting", devices=f.count(est.devices_needed, "devices"), all=f.count(everyone, "devices"),
                    users=f.count(users, "users"), held=held)
    label = s("metric_memory") if users == 1 else s("metric_memory_users", users=f.count(users, "users"))
    row.metric(label, f.gb(est.memory_gb), delta=fit_text, delta_color=color, delta_arrow="off", width=160,
              help=s("memory_help", weights=f.gb(est.weights_gb), kv=f.gb(est.kv_cache_gb), device=md(device),
                     overhead=f.gb(max(0.0, est.memory_gb - est.weights_gb - est.kv_cache_gb)),
                     capacity=f.gb(hw_entry.hardware.memory_gb), users=f.count(users, "users")))
    document = int(values.get("document_tokens", 0) or 0)
    tokens = dict(prompt=f.count(values["prompt_tokens"], "tokens"), prompt_text=f.text_from_tokens(values["prompt_tokens"]),
                  output=f.count(values["output_tokens"], "tokens"), output_text=f.text_from_tokens(values["output_tokens"]))
    if document:  # the pasted document is read with the question: say both (issue 33 item 4)
        read = prompt_read_tokens(values)
        text = s("tokens_as_text_document", document=f.count(document, "tokens"), read=f.count(read, "tokens"),
                 read_text=f.text_from_tokens(read), **{k: v for k, v in tokens.items() if k != "prompt_text"})
    else:
        text = s("tokens_as_text", **tokens)
    st.caption((waiting + " " if waiting else "") + s("range_explained") + " " + text)


INT4_ID = "int4_awq"  # the 4-bit format a no-fit message may suggest (content/precisions.yaml)


def no_fit(s: Strings, f, est, hw_entry, device: str, values: dict, catalog=None) -> None:
    """A model that does not fit: the memory it needs, the devices that would hold it, and what the
    chosen count (or this hardware at most) holds; no speed or time tiles for a set-up that cannot run."""
    hw = hw_entry.hardware
    max_devices = int(hw.resolved("max_devices"))
    need = int(getattr(est, "min_devices", 0) or devices_for_memory(est.memory_gb, hw.memory_gb))  # what it would need
    chosen = fixed_devices(values)
    if chosen is not None and need <= max_devices:
        text = s("no_fit_chosen", device=md(device), memory=f.gb(est.memory_gb), need=f.count(need, "devices"),
                 chosen=f.count(chosen, "devices"), capacity=f.gb(chosen * hw.memory_gb))
    elif max_devices == 1:  # nothing to combine: no "at most 1 of them", no count of phones it would take
        # a 4-bit format as the way out only where it would be one: the same set-up evaluated at INT4
        int4_fits = catalog is not None and scenario_evaluate(catalog, {**values, "precision": INT4_ID})[2].fits
        text = s("no_fit_one" if int4_fits else "no_fit_one_smaller", device=md(device),
                 memory=f.gb(est.memory_gb), capacity=f.gb(hw.memory_gb))
    else:
        text = s("no_fit_max", device=md(device), memory=f.gb(est.memory_gb), need=f.count(need, "devices"),
                 most=f.count(max_devices, "devices"), capacity=f.gb(max_devices * hw.memory_gb))
    st.error(text)
    row = st.container(horizontal=True, gap="small")
    row.metric(s("metric_memory_needed"), f.gb(est.memory_gb), width=200,
               help=s("memory_help", weights=f.gb(est.weights_gb), kv=f.gb(est.kv_cache_gb), device=md(device),
                      overhead=f.gb(max(0.0, est.memory_gb - est.weights_gb - est.kv_cache_gb)),
                      capacity=f.gb(hw.memory_gb), users=f.count(int(values.get("concurrency", 1) or 1), "users")))
    if max_devices > 1:
        row.metric(s("metric_devices_needed"), f.count(need, "devices"), width=200)


def budget_verdict(s: Strings, f, est, case, budget_s: float, measure: str) -> None:
    """Within, over, or too close to call, against the chosen use case's budget."""
    if not est.fits:
        st.info(s("verdict_no_fit"), icon=":material/memory:")
        return
    key = "ttft_s" if measure == "ttft" else "total_s"
    value, (lo, hi) = getattr(est, key), est.ranges[key]
    v = V.verdict(value, lo, hi, budget_s, case.abandon_s if case else None, shown=formats.seconds_value)
    text = s(f"verdict_{v.kind}", use_case=md(case.label if case else s("use_case_custom")), budget=f.seconds(budget_s),
             measure=s(f"measure_{measure}"), value=f.seconds(value), ratio=f.ratio(v.ratio), range=f.range(lo, hi))
    if v.abandon and case is not None and case.abandon_s is not None:
        text += " " + s("verdict_abandon", abandon=f.seconds(case.abandon_s))
    text += " " + s("verdict_rule")
    {"within": st.success, "over": st.error, "uncertain": st.warning}[v.kind](text)


def stage_what(s: Strings, key: str, values: dict, handling: str = "") -> str:
    """What a stage is, in words that follow the scenario: the network line says whether the
    connection is new or reused (or that a local model has none); the server stage says whether
    anyone else is there to wait for."""
    if key == "network":
        if values.get("access") == "none" and float(values.get("distance_km", 0.0) or 0.0) == 0.0:  # no trip at all
            return s("stage_network_what_local")
        return s("stage_network_what_cold" if values.get("connection") == "cold" else "stage_network_what_warm")
    if key == "queue" and int(values.get("concurrency", 1)) <= 1:
        return s("stage_queue_what_alone")
    if key == "prefill":
        return s("stage_prefill_what", handling=handling)
    return s(f"stage_{key}_what")


def timeline(s: Strings, f, est, values: dict, kind: str) -> None:
    """The four stages as a bar and as text: each stage's time with one decimal rule for the list,
    its share of the first token (the question of a chat-like use) beside its share of the whole answer.
    Stages as COORDINATION decision 2 names them (latency.exploring.stages: the queue is only the wait for
    other users, the server's own handling is named inside prefill). Not drawn for a set-up that does not
    fit: the page shows what it would need instead (issue 31 item 2)."""
    if not est.fits:
        return
    st.markdown(f"**{s('timeline_heading')}**")
    split = page_stages(est, kind)
    handling = f.seconds(handling_s(est, kind))
    stages = [(k, s(f"stage_{k}"), split[k]) for k in STAGES]
    spec, rows = timeline_chart(stages, ttft_s=est.ttft_s, ttft_label=s("first_token"), axis_title=s("seconds_axis"), fmt_s=f.seconds,
                                alt=s("timeline_alt", ttft=f.seconds(est.ttft_s), total=f.seconds(est.total_s)))
    charts.show_live(spec, rows, key="est_chart_timeline", alt=s("timeline_heading"))  # redrawn on every slider move
    panel = charts.table_panel("est_chart_timeline", s("timeline_heading"))  # built only while open
    if panel is not None:
        names = dict(stage=s("timeline_col_stage"), start=s("timeline_col_start"), takes=s("timeline_col_takes"),
                     end=s("timeline_col_end"), first_token=s("first_token"))
        charts.show_rows(*timeline_table(stages, ttft_s=est.ttft_s, names=names, fmt_list=lambda xs: [f.seconds(x) for x in xs]), panel)
    total = sum(t for _, _, t in stages) or 1.0
    ttft = sum(t for k, _, t in stages if k != "decode") or 1.0
    times = seconds_each(f, [t for _, _, t in stages])
    lines = [s("stage_line_decode" if k == "decode" else "stage_line", stage=name, time=shown, share=f.percent(t / total),
               ttft_share=f.percent(t / ttft), what=stage_what(s, k, values, handling))
             for (k, name, t), shown in zip(stages, times)]
    st.markdown("\n".join(f"- {line}" for line in lines))
    st.caption(s("timeline_caption"))


def answers(s: Strings, f, catalog, values: dict, sizes, case, lang: str, est=None) -> None:
    """The PM's two questions, answered for the chosen target (latency.exploring.answers), each with its
    device count and cost in the same sentence and a link that opens that set-up here: the largest model
    that meets the target across its range on this hardware and precision (a larger one that meets it
    only at its estimate named as borderline beside it), and, only when this hardware fails, the
    hardware with the least memory that runs this model within it (issue 31 item 3)."""
    if case is None:
        return
    target = s("answer_target", budget=f.seconds(case.budget_s), measure=s(f"measure_{case.measure}"))
    safe, borderline = A.largest_models(catalog, values, sizes, case.measure, case.budget_s)
    hw = catalog.hardware[values["hardware"]].label(lang)
    precision = catalog.precisions[values["precision"]].label(lang)

    def cost(found) -> str:
        c = found.cost_per_1k_answers
        return f.usd(c) if c == c else s("answer_no_price")

    def link(label: str, found, icon: str) -> None:
        st.page_link("pages/estimator.py", icon=icon, label=label,
                     query_params={**to_query(found.values, PAGE_QUERY_KEYS), "lang": lang})

    if safe is None:  # with a borderline size beside it, "not even the smallest" would contradict it (PM trial item 8)
        st.caption(s("answer_no_size_borderline" if borderline is not None else "answer_no_size", target=target,
                     hardware=md(hw), precision=md(precision)))
    else:
        # the slider's largest size meeting it is no "largest model", only the end of the slider (newcomer try:
        # "가장 큰 모델: 2,000B" read as a real model bigger than any in the list)
        every = safe.values["model_size_b"] >= max(sizes)
        link(s("answer_largest_all" if every else "answer_largest", target=target, hardware=md(hw), precision=md(precision),
               size=f.size_b(safe.values["model_size_b"]), devices=f.count(safe.devices, "devices"), cost=cost(safe)),
             safe, ":material/straighten:")
    if borderline is not None:
        key = A.MEASURE_KEY[case.measure]
        link(s("answer_borderline" if safe is not None else "answer_borderline_only", size=f.size_b(borderline.values["model_size_b"]),
               value=f.seconds(getattr(borderline.estimate, key)), high=f.seconds(borderline.high_s(case.measure)),
               devices=f.count(borderline.devices, "devices"), cost=cost(borderline)), borderline, ":material/warning:")
    key = A.MEASURE_KEY[case.measure]
    if est is not None and est.fits and getattr(est, key) <= case.budget_s:
        return  # this hardware meets the target (the page's own estimate): no other hardware to suggest
    other = A.other_hardware(catalog, values, case.measure, case.budget_s)
    if other is None:
        text = s("answer_no_hardware", target=target, size=f.size_b(values["model_size_b"]))
        if int(values.get("concurrency", 1) or 1) > 1:  # the launch check's many servers may meet it (PM trial item 8)
            text += " " + s("answer_more_servers")
        st.caption(text)
    else:
        link(s("answer_smallest", target=target, size=f.size_b(values["model_size_b"]),
               hardware=md(catalog.hardware[other.values["hardware"]].label(lang)),
               devices=f.count(other.devices, "devices"), cost=cost(other)), other, ":material/memory:")


def int4_tradeoff(s: Strings, f, catalog, values: dict, est) -> None:
    """INT4 shrinks the weights, not the arithmetic: where this device computes FP8 faster than
    FP16 and FP8 gives the earlier first token for this scenario (both from latency.estimate), say
    so in one sentence with both figures, so a later first token than FP8 is never left unexplained."""
    if catalog.precisions[values["precision"]].family != "int4" or not est.fits or "fp8" not in catalog.precisions:
        return
    try:
        _, _, fp8 = scenario_evaluate(catalog, {**values, "precision": "fp8"})
    except ValueError:
        return
    if not fp8.fits or fp8.ttft_s >= est.ttft_s:
        return
    st.caption(s("int4_tradeoff", int4_ttft=f.seconds(est.ttft_s), fp8_ttft=f.seconds(fp8.ttft_s),
                 int4_tps=f.tps_per_user(est.decode_tokens_per_s), fp8_tps=f.tps_per_user(fp8.decode_tokens_per_s),
                 int4_gb=f.gb(est.memory_gb), fp8_gb=f.gb(fp8.memory_gb)))


def model_basis(s: Strings, sized, lang: str, calibrated: bool) -> None:
    """Where the model's shape comes from and how sure the estimate is."""
    if sized.entry is not None:
        text = s("basis_catalog", name=md(sized.entry.label(lang)))
        if sized.entry.assumption:
            text += " " + s("basis_assumption", note=md(sized.entry.note.get(lang, "")))
    else:
        text = s("basis_scaled")
        ref = sized.reference
        if ref is not None and sized.model.arch == "moe":
            text += " " + s("basis_moe", name=md(ref.label(lang)), share=f"{100 * ref.model.active_b / ref.model.params_b:.0f}")
        elif ref is not None and sized.model.arch == "looped":
            text += " " + s("basis_looped", name=md(ref.label(lang)), loops=ref.model.loops)
    notes = [text] + ([] if calibrated else [s("uncalibrated")]) + [s("provisional")]
    st.caption(" ".join(notes))


def cost_and_server(s: Strings, f, headline, hw_entry, lang: str, other=None, arrival: str = "steady") -> None:
    """What the answers cost and what the whole server does, labelled as whole-server figures
    (`latency.exploring.tradeoffs.headline`: all users share one server; cost per answer = devices x price/h
    x busy seconds / (3600 x answers served together))."""
    if headline.users > 1 and headline.fits:
        waiting = headline.batch < headline.users
        # both speeds in words (issue 31 item 2): streaming per user, and the whole server over whole requests
        st.caption(s("server_line_waiting" if waiting else "server_line", users=f.count(headline.users, "users"),
                     batch=f.count(headline.batch, "requests") if waiting else "",
                     tps=f.tps_server(headline.server_tokens_per_s), per_user=f.tps_per_user(headline.per_user_tokens_per_s),
                     share=f.tps(headline.server_tokens_per_s / headline.users)))
        faster = tradeoffs.burst_faster(headline.estimate, other, arrival)
        if faster is not None:  # why a burst of N streams faster than steady use of N, beside both figures
            st.caption(s("burst_faster", burst=f.tps(faster[0]), steady=f.tps(faster[1])))
    price = hw_entry.price_usd_per_hour
    if price is None:
        st.caption(s("cost_no_price", device=md(hw_entry.label(lang))))
        return
    if headline.cost_per_1k_answers != headline.cost_per_1k_answers:  # nan: the model does not fit
        st.caption(s("cost_no_fit"))
        return
    basis = s(f"price_basis_{hw_entry.price_basis}")
    st.caption(s("cost_line", cost=f.usd(headline.cost_per_1k_answers), devices=f.count(headline.devices, "devices"),
                 device=md(hw_entry.label(lang)), hourly=f.usd(price), basis=basis, date=md(hw_entry.price_date or "")))
