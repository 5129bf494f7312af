"""The estimator page's Streamlit code (pages/estimator.py runs `render()`).

Why a module: a page script is compiled again on every AppTest run (and magic-transformed),
which for a page this size costs more than its charts; an imported module is compiled once.
In the live server both are cached, so this changes the benchmark's noise, not the app.

Latency estimator page: sliders drive live charts, and "Feel it" plays the estimate in real time.

Thin by design: inputs and numbers come from latency.inputs (steps, presets, models from a size,
sweeps), latency.estimator (the estimates), latency.charts (figures) and latency.feel (pacing);
this file only wires widgets to them and renders. Every string is in content/ui/estimator.yaml.

State: the widget keys are the URL keys (latency.inputs.URL_KEYS). When a widget has no state yet
(first visit, or back from another page), its value comes from the URL through
latency.scenario.parse_query (bad values -> default + a notice naming the parameter), else from the
last values this session used; after every run the values are written back to the URL.
The interactive part is one st.fragment, so a slider move reruns only it, not the app shell.
"""

from __future__ import annotations


import pandas  # noqa: F401  st.write_stream's argument check imports pandas on first use (~0.5 s);
# importing it with the page keeps that one-off cost out of the first "Feel it" pause.
import streamlit as st
from streamlit.errors import StreamlitPageNotFoundError

from latency import content, feel, inputs
from latency.catalog import load_catalog
from latency.charts import (
    CONFIG, Budget, DeviceRow, PresetRow, Stop, devices_figure, distance_figure, presets_figure,
    size_figure, timeline_figure,
)
from latency.errors import ContentError
from latency.estimator import STAGES
from latency.i18n import md
from latency.network import ACCESS_RTT_MS
from latency.scenario import parse_query
from pages._common import current_lang, page_strings, show_content_error, url_notices

@st.cache_data(show_spinner=False)
def load_data(lang: str, signature: tuple):
    """signature (content files and mtimes) keys the cache, so an edited file is reloaded.

    Catalogs, named stops, budgets, table classes, presets and samples (pure data, per language)."""
    catalog = load_catalog()
    stops = inputs.load_stops()
    use_cases = content.use_case_budgets(lang)
    classes = content.comparison_classes(lang)
    term = content.load_term(content.DEFAULT_TERM, lang)
    examples = {e.id: e for e in term.examples.items}
    observed = [p.figure.value_s for p in term.phrases.items if p.figure is not None and p.figure.kind == "observed"]
    presets = inputs.load_presets(catalog, stops, [u.id for u in use_cases], [c.id for c in classes], list(examples))
    samples = feel.load_samples()
    return catalog, stops, use_cases, classes, examples, observed, presets, samples


@st.cache_data(show_spinner=False)
def preset_results(lang: str, signature: tuple) -> dict[str, tuple]:
    """Each preset's (ttft, ttft range, total, total range): they do not depend on the widgets."""
    data = load_data(lang, signature)
    catalog, presets = data[0], data[6]
    out = {}
    for p in presets:
        _, _, est = inputs.scenario(catalog, p.values)
        out[p.id] = (est.ttft_s, est.ranges["ttft_s"], est.total_s, est.ranges["total_s"])
    return out


def render() -> None:
    """Draw the whole page for the current language and session."""
    s = page_strings("estimator")
    lang = current_lang()
    signature = content.files_signature()
    try:
        catalog, stops, use_cases, classes, examples, observed, presets, samples = load_data(lang, signature)
    except ContentError as err:
        show_content_error(err)
        st.stop()

    SIZES = inputs.size_steps(catalog)
    DISTANCES = inputs.distance_steps(stops)
    STOP_AT = {stop.km: stop for stop in stops}
    USE_CASES = {u.id: u for u in use_cases}
    DEFAULTS = inputs.default_values(stops, list(USE_CASES))
    SPECS = inputs.url_specs(catalog, DEFAULTS, list(USE_CASES))
    HW_ORDER = inputs.ordered_hardware(catalog)
    CLASSES = {c.id: c for c in classes}
    TABS = ("size", "devices", "distance", "presets_compare")


    def fmt_s(x: float) -> str:
        return s("sec", v=inputs.fmt_number(x))


    def fmt_size(v: float) -> str:
        return s("size_b", v=inputs.fmt_size_b(v))


    def fmt_km(v: float) -> str:
        return s("km", v=f"{v:,.0f}")


    def fmt_distance(v: float) -> str:
        stop = STOP_AT.get(v)
        return s("distance_stop", label=stop.label[lang], km=fmt_km(v)) if stop else fmt_km(v)


    def fmt_hardware(hid: str) -> str:
        entry = catalog.hardware[hid]
        return s("hardware_option", kind=s(f"kind_{entry.kind}"), name=entry.label(lang))


    def fmt_precision(pid: str) -> str:
        p = catalog.precisions[pid]
        return s("precision_option", label=p.label(lang), bytes=f"{p.bytes_per_param:g}")


    def fmt_access(a: str) -> str:
        return s("access_option", name=s(f"access_{a}"), ms=f"{ACCESS_RTT_MS[a]:g}")


    def fmt_use_case(uid: str) -> str:
        u = USE_CASES[uid]
        return s("use_case_option", label=u.label, measure=s(f"measure_{u.measure}"), budget=fmt_s(u.budget_s))


    def show_value(key: str, value) -> str:
        """A parameter value as a notice shows it."""
        if key == "model_size_b":
            return fmt_size(value)
        if key == "distance_km":
            return fmt_distance(value)
        return md(value)


    # --- state: URL on a widget's first appearance, then the widgets; notices for bad URL values ------
    def init_state() -> None:
        missing = [k for k in inputs.URL_KEYS if k not in st.session_state]
        if not missing:
            return
        query = st.query_params.to_dict()
        values, notices = parse_query(query, SPECS)
        saved = st.session_state.get("est_saved", {})
        messages = url_notices(s, [n for n in notices if n.key in missing], SPECS, show_value)
        for key, steps in (("model_size_b", SIZES), ("distance_km", DISTANCES)):
            snapped = inputs.snap(float(values[key]), steps, log=key == "model_size_b")
            if snapped != values[key] and key in missing:
                messages.append(s("notice_snapped", param=key, raw=md(str(query.get(key, ""))[:40]), value=show_value(key, snapped)))
            values[key] = snapped
        for key in missing:
            st.session_state[key] = values[key] if key in query else saved.get(key, values[key])
        if messages:
            st.session_state["est_notices"] = messages


    def touched() -> None:
        """Any input changed by hand: URL notices and the chosen preset have done their job."""
        st.session_state.pop("est_notices", None)
        st.session_state["est_preset"] = None


    def apply_preset() -> None:
        pid = st.session_state.get("est_preset")
        preset = next((p for p in presets if p.id == pid), None)
        if preset is None:  # the chosen pill clicked again: nothing to apply
            return
        for key, value in preset.values.items():
            st.session_state[key] = value
        st.session_state.pop("est_notices", None)


    def values_now() -> dict:
        return {k: st.session_state[k] for k in inputs.URL_KEYS}


    def mirror_url(values: dict) -> None:
        current = st.query_params.to_dict()
        for key, value in values.items():
            text = inputs.url_value(key, value)
            if current.get(key) != text:
                st.query_params[key] = text
        st.session_state["est_saved"] = dict(values)


    # --- sections -------------------------------------------------------------------------------------
    def preset_buttons() -> None:
        labels = {p.id: p.label[lang] for p in presets}
        st.pills(s("presets_heading"), list(labels), format_func=labels.get, key="est_preset",
                 on_change=apply_preset, help=s("presets_help"))
        pid = st.session_state.get("est_preset")
        if pid:
            p = next(p for p in presets if p.id == pid)
            st.caption(s("preset_applied", label=md(p.label[lang]), note=md(p.note[lang])))
            st.caption(preset_claims(p))


    def preset_claims(p) -> str:
        """How the preset's estimate compares with what the entry states for it, one line per measure."""
        ttft, _, total, _ = preset_results(lang, signature)[p.id]
        kind, ref = p.source
        label = md(p.label[lang])
        if kind == "comparison":
            rng = CLASSES[ref].latency_s
            checks = [("ttft", ttft, rng.min, rng.max), ("total", total, rng.min, rng.max)]
        else:
            ex = examples[ref]
            if ex.budget_s is None:
                return s("preset_no_figure", label=label)
            measure = ex.measure or "total"
            checks = [(measure, ttft if measure == "ttft" else total, 0.0, ex.budget_s)]
        out = []
        for measure, value, lo, hi in checks:
            stated = s("within_s", v=inputs.fmt_number(hi)) if lo == 0 else s("span_s", lo=inputs.fmt_number(lo), hi=inputs.fmt_number(hi))
            key = "preset_holds" if lo <= value <= hi else "preset_fails"
            out.append(s(key, claim=s(f"claim_{measure}", value=fmt_s(value)), stated=stated))
        return s("preset_claims", label=label, claims=" · ".join(out))


    def input_widgets() -> None:
        st.select_slider(s("model_size"), options=SIZES, key="model_size_b", format_func=fmt_size,
                         help=s("model_size_help"), on_change=touched)
        st.selectbox(s("hardware"), HW_ORDER, key="hardware", format_func=fmt_hardware,
                     help=s("hardware_help"), on_change=touched)
        st.select_slider(s("distance"), options=DISTANCES, key="distance_km", format_func=fmt_distance,
                         help=s("distance_help"), on_change=touched)
        # Lazy: the advanced widgets run only while the expander is open. Their values live on in
        # the URL and est_saved, and init_state restores them (see there).
        advanced = st.expander(s("advanced"), key="est_advanced", on_change="rerun")
        with advanced:
            if not advanced.open:
                return
            st.segmented_control(s("arch"), list(inputs.ARCHITECTURES), key="arch", required=True,
                                 format_func=lambda a: s(f"arch_{a}"), on_change=touched)
            st.selectbox(s("precision"), list(catalog.precisions), key="precision", format_func=fmt_precision, on_change=touched)
            with st.container(horizontal=True):
                st.number_input(s("prompt_tokens"), min_value=1, max_value=inputs.PROMPT_MAX, step=128, key="prompt_tokens", on_change=touched)
                st.number_input(s("output_tokens"), min_value=1, max_value=inputs.OUTPUT_MAX, step=32, key="output_tokens", on_change=touched)
            st.number_input(s("concurrency"), min_value=1, max_value=inputs.CONCURRENCY_MAX, step=1, key="concurrency",
                            help=s("concurrency_help"), on_change=touched)
            st.selectbox(s("access"), list(inputs.ACCESS_NETWORKS), key="access", format_func=fmt_access, on_change=touched)
            st.segmented_control(s("connection"), list(inputs.CONNECTIONS), key="connection", required=True,
                                 format_func=lambda c: s(f"connection_{c}"), on_change=touched)
            st.selectbox(s("engine"), list(inputs.ENGINE_CHOICES), key="engine", format_func=lambda e: s(f"engine_{e}"), on_change=touched)


    def model_basis(sized: inputs.SizedModel) -> str:
        if sized.entry is not None:
            text = s("basis_catalog", name=md(sized.entry.label(lang)))
            if sized.entry.assumption:
                text += " " + s("basis_assumption", note=md(sized.entry.note.get(lang, "")))
            return text
        text = s("basis_scaled")
        ref = sized.reference
        if ref is not None and sized.model.arch == "moe":
            text += " " + s("basis_moe", name=md(ref.label(lang)), share=f"{100 * ref.model.active_b / ref.model.params_b:.0f}")
        elif ref is not None and sized.model.arch == "looped":
            text += " " + s("basis_looped", name=md(ref.label(lang)), loops=ref.model.loops)
        return text


    def headline(values: dict, sized, hw_entry, est) -> None:
        r = est.ranges
        device = hw_entry.label(lang)
        max_devices = int(hw_entry.hardware.resolved("max_devices"))
        if not est.fits:
            st.error(s("no_fit_error", device=md(device), memory=s("gb", v=inputs.fmt_number(est.memory_gb)), n=max_devices,
                       capacity=s("gb", v=inputs.fmt_number(max_devices * hw_entry.hardware.memory_gb))))
        # A wrapping row: four across on a desktop, two by two on a phone (columns would stack them).
        row = st.container(horizontal=True, gap="small", horizontal_alignment="distribute")
        m1, m2, m3, m4 = (row.container(width=150) for _ in range(4))
        num = inputs.fmt_number
        rng_s = lambda key: s("range_unit", lo=num(r[key][0]), hi=num(r[key][1]), unit=s("unit_s"))  # noqa: E731
        quiet = dict(delta_color="off", delta_arrow="off")
        m1.metric(s("metric_ttft"), fmt_s(est.ttft_s), delta=rng_s("ttft_s"), **quiet)
        m2.metric(s("metric_tps"), num(est.decode_tokens_per_s),
                  delta=s("range", lo=num(r["decode_tokens_per_s"][0]), hi=num(r["decode_tokens_per_s"][1])), **quiet)
        m3.metric(s("metric_total"), fmt_s(est.total_s), delta=rng_s("total_s"), **quiet)
        if not est.fits:
            fit_text, color = s("fits_none", n=max_devices), "inverse"
        elif est.devices_needed == 1:
            fit_text, color = s("fits_one"), "normal"
        else:
            fit_text, color = s("fits_many", n=est.devices_needed), "off"
        gb = lambda v: s("gb", v=num(v))  # noqa: E731
        m4.metric(s("metric_memory"), gb(est.memory_gb), delta=fit_text, delta_color=color, delta_arrow="off",
                  help=s("memory_help", weights=gb(est.weights_gb), kv=gb(est.kv_cache_gb), device=md(device),
                         capacity=gb(hw_entry.hardware.memory_gb)))

        st.selectbox(s("use_case"), list(USE_CASES), key="use_case", format_func=fmt_use_case, on_change=touched)
        u = USE_CASES[values["use_case"]]
        key = "ttft_s" if u.measure == "ttft" else "total_s"
        value = getattr(est, key)
        v = inputs.verdict(value, r[key][0], r[key][1], u.budget_s, u.abandon_s)
        fmt = dict(use_case=md(u.label), budget=fmt_s(u.budget_s), measure=s(f"measure_{u.measure}"), value=fmt_s(value),
                   pct=f"{100 * v.ratio:.0f}", ratio=inputs.fmt_ratio(v.ratio), range=s("range", lo=fmt_s(r[key][0]), hi=fmt_s(r[key][1])))
        text = s(f"verdict_{v.kind}", **fmt)
        if v.abandon and u.abandon_s is not None:
            text += " " + s("verdict_abandon", abandon=fmt_s(u.abandon_s))
        {"within": st.success, "over": st.error, "uncertain": st.warning}[v.kind](text)
        notes = [model_basis(sized)]
        if not est.calibrated:
            notes.append(s("uncalibrated"))
        notes.append(s("provisional"))
        st.caption(" ".join(notes))
        try:
            st.page_link("pages/how-it-works.py", label=s("how_link"), icon=":material/functions:")
        except StreamlitPageNotFoundError:
            pass  # only when this page runs outside app.py's navigation (its own tests and benchmark)


    def timeline_chart(est) -> None:
        st.markdown(f"**{s('timeline_heading')}**")
        stages = [(k, s(f"stage_{k}"), est.breakdown[k]) for k in STAGES]
        fig = timeline_figure(stages, ttft_s=est.ttft_s, ttft_label=s("first_token"), axis_title=s("seconds_axis"), fmt_s=fmt_s)
        st.plotly_chart(fig, config=CONFIG, key="est_chart_timeline")
        st.caption(s("timeline_caption"))


    def bottleneck_text(est) -> str:
        stage = "decode" if est.breakdown["decode"] >= est.breakdown["prefill"] else "prefill"
        return s(f"bn_{est.bottleneck[stage]}", stage=s(f"stage_{stage}"))


    def size_chart(values, est) -> None:
        st.markdown(f"**{s('size_heading')}**")
        sweep = inputs.size_sweep(catalog, values)
        budgets = [Budget(f"{u.label} {fmt_s(u.budget_s)}", u.budget_s, u.id == values["use_case"]) for u in use_cases]
        names = dict(x_title=s("size_x"), y_title=s("size_y"), ttft=s("series_ttft"), total=s("series_total"),
                     current=s("series_current"), no_fit=s("series_no_fit"), size_hover=s("size_hover"))
        fig = size_figure(sweep["sizes"], sweep["ttft"], sweep["total"], sweep["fits"],
                          current_size=float(values["model_size_b"]), current_ttft=est.ttft_s, current_total=est.total_s,
                          ttft_range=est.ranges["ttft_s"], total_range=est.ranges["total_s"], budgets=budgets,
                          bottleneck_text=bottleneck_text(est), names=names, fmt_s=fmt_s)
        st.plotly_chart(fig, config=CONFIG, key="est_chart_size")
        with st.expander(s("how_to_read")):
            st.caption(s("kitchen"))


    def devices_chart(values, sized) -> None:
        st.markdown(f"**{s('devices_heading')}**")
        rows = [DeviceRow(entry.label(lang), e.ttft_s, e.total_s, e.fits, entry.id == values["hardware"])
                for entry, e in inputs.device_sweep(catalog, values, sized)]
        names = dict(x_title=s("size_y"), total=s("series_total"), ttft=s("series_ttft"), no_fit=s("series_no_fit"))
        st.plotly_chart(devices_figure(rows, names=names, fmt_s=fmt_s), config=CONFIG, key="est_chart_devices")
        st.caption(s("devices_caption"))


    def distance_chart(values, sized, est) -> None:
        st.markdown(f"**{s('distance_heading')}**")
        sweep = inputs.distance_sweep(catalog, values, sized)
        import numpy as np

        at = lambda km: float(np.interp(km, sweep["distances"], sweep["ttft"]))  # noqa: E731  (ttft is linear in distance)
        marks = [Stop(stop.short[lang], stop.km, at(stop.km)) for stop in stops]
        names = dict(x_title=s("distance_x"), y_title=s("seconds_axis"), ttft=s("series_ttft"), network=s("series_network"),
                     current=s("series_current"), places=s("series_places"))
        fig = distance_figure(sweep["distances"], sweep["ttft"], sweep["network"], stops=marks,
                              current_km=float(values["distance_km"]), current_ttft=est.ttft_s, names=names, fmt_s=fmt_s)
        st.plotly_chart(fig, config=CONFIG, key="est_chart_distance")
        st.caption(s("distance_caption"))


    def presets_chart() -> None:
        st.markdown(f"**{s('presets_compare_heading')}**")
        results = preset_results(lang, signature)
        rows, notes = [], []
        for p in presets:
            ttft, ttft_r, total, total_r = results[p.id]
            label = p.label[lang]
            kind, ref = p.source
            if kind == "comparison":
                rng = CLASSES[ref].latency_s
                rows.append(PresetRow(s("preset_row", label=label, measure=s("measure_ttft")), ttft, *ttft_r, rng.min, rng.max, "diamond"))
                rows.append(PresetRow(s("preset_row", label=label, measure=s("measure_total")), total, *total_r, rng.min, rng.max))
                continue
            ex = examples[ref]
            measure = ex.measure or "total"
            value, r = (ttft, ttft_r) if measure == "ttft" else (total, total_r)
            stated = (0.0, ex.budget_s) if ex.budget_s is not None else (None, None)
            rows.append(PresetRow(s("preset_row", label=label, measure=s(f"measure_{measure}")), value, *r, *stated,
                                  "diamond" if measure == "ttft" else "circle"))
            if ex.budget_s is None:
                notes.append(s("preset_no_figure", label=md(label)))
        names = dict(x_title=s("size_y"), estimate=s("estimate_label"), stated=s("stated_range"))
        st.plotly_chart(presets_figure(rows, names=names, fmt_s=fmt_s), config=CONFIG, key="est_chart_presets")
        st.caption(" ".join([s("presets_compare_caption")] + notes))


    def feel_section(est) -> None:
        st.subheader(s("feel_heading"))
        st.write(s("feel_intro"))
        sample = samples[lang]
        tokens = feel.split_tokens(sample.answer, sample.chars_per_token)
        tps = lambda v: s("tps", v=inputs.fmt_number(v))  # noqa: E731
        st.caption(s("feel_question", prompt=md(sample.prompt)) + " · " + s("feel_pace", ttft=fmt_s(est.ttft_s), tps=tps(est.decode_tokens_per_s)))
        pace = feel.Pace(est.ttft_s, est.decode_tokens_per_s)
        if st.button(s("feel_button"), key="est_feel", type="primary"):
            play_one(feel.plan(tokens, pace), est.ttft_s)
        st.caption(s("feel_sample_note", n=len(tokens), output=st.session_state["output_tokens"], tokens_note=md(sample.tokens_note)))

        # Lazy like the advanced panel: the race's controls run only while it is open.
        budget_fast = next((u.budget_s for u in use_cases if u.id == "code_autocomplete"), None)
        slow = observed[0] if observed else None
        race = st.expander(s("race_heading", fast=fmt_s(budget_fast or 0), slow=fmt_s(slow or 0)),
                           key="est_race_open", on_change="rerun")
        with race:
            if not race.open:
                return
            options = (["pair"] if budget_fast and slow else []) + [p.id for p in presets]
            labels = {"pair": s("race_pair", fast=fmt_s(budget_fast or 0), slow=fmt_s(slow or 0))}
            labels.update({p.id: s("race_vs_preset", label=p.label[lang]) for p in presets})
            choice = st.selectbox(s("race_choice"), options, key="est_race", format_func=labels.get)
            if choice == "pair":
                st.caption(s("race_pair_note", fast=fmt_s(budget_fast), slow=fmt_s(slow)))
                sides = [(s("race_fast", ttft=fmt_s(budget_fast)), feel.Pace(budget_fast, est.decode_tokens_per_s)),
                         (s("race_slow", ttft=fmt_s(slow)), feel.Pace(slow, est.decode_tokens_per_s))]
            else:
                p = next(p for p in presets if p.id == choice)
                _, _, other = inputs.scenario(catalog, p.values)
                sides = [(s("race_current"), pace), (p.label[lang], feel.Pace(other.ttft_s, other.decode_tokens_per_s))]
            if st.button(s("race_button"), key="est_race_go"):
                play_race(tokens, sides, tps)


    def play_one(plan: feel.Plan, ttft_s: float) -> None:
        limit = fmt_s(plan.limit_s)
        if not plan.schedule:
            st.info(s("feel_too_slow", ttft=fmt_s(ttft_s), limit=limit))
            return
        waiting = st.empty()
        waiting.caption(s("feel_waiting", ttft=fmt_s(ttft_s)))
        t0 = feel.CLOCK()
        first: list[float] = []

        def chunks():
            for chunk in feel.stream(plan):
                if not first:
                    first.append(feel.CLOCK() - t0)
                    waiting.empty()
                yield chunk

        st.write_stream(chunks(), cursor="▌")
        done = s("feel_done", ttft=fmt_s(first[0]), total=fmt_s(feel.CLOCK() - t0))
        if plan.truncated:
            done += " " + s("feel_cut", limit=limit, full=fmt_s(plan.full_s))
        st.caption(done)


    def play_race(tokens, sides, tps) -> None:
        plans = [feel.plan(tokens, pace) for _, pace in sides]
        # A horizontal row rather than st.columns: columns stack on a phone, and then nothing is side by side.
        row = st.container(horizontal=True, gap="medium")
        cols = [row.container(width="stretch") for _ in sides]
        boxes, texts = [], ["" for _ in sides]
        firsts: list[float | None] = [None for _ in sides]
        lasts: list[float | None] = [None for _ in sides]
        for col, (label, pace) in zip(cols, sides):
            with col:
                st.markdown(f"**{md(label)}**")
                st.caption(s("feel_pace", ttft=fmt_s(pace.ttft_s), tps=tps(pace.tokens_per_s)))
                box = st.empty()
                box.caption(s("feel_waiting", ttft=fmt_s(pace.ttft_s)))
                boxes.append(box)
        t0 = feel.CLOCK()
        for frame in feel.play(plans):
            changed = set()
            now = feel.CLOCK() - t0
            for idx, tok in frame:
                texts[idx] += tok
                changed.add(idx)
                lasts[idx] = now
                if firsts[idx] is None:
                    firsts[idx] = now
            for idx in changed:
                boxes[idx].markdown(texts[idx] + "▌")
        for idx, (col, p) in enumerate(zip(cols, plans)):
            if texts[idx]:
                boxes[idx].markdown(texts[idx])
            with col:
                if firsts[idx] is None:
                    st.info(s("feel_too_slow", ttft=fmt_s(p.schedule[0][0] if p.schedule else sides[idx][1].ttft_s), limit=fmt_s(p.limit_s)))
                    continue
                done = s("feel_done", ttft=fmt_s(firsts[idx]), total=fmt_s(lasts[idx]))
                if p.truncated:
                    done += " " + s("feel_cut", limit=fmt_s(p.limit_s), full=fmt_s(p.full_s))
                st.caption(done)


    # --- page -----------------------------------------------------------------------------------------
    init_state()
    st.title(s("title"))
    st.caption(s("intro"))


    @st.fragment
    def interactive() -> None:
        for message in st.session_state.get("est_notices", []):
            st.warning(message)
        # Inputs and numbers on the left, charts on the right: on a desktop the slider and the chart
        # it moves are on screen together; on a phone the columns stack in this order.
        preset_buttons()
        left, right = st.columns([2, 3], gap="large")
        with left:
            input_widgets()
            values = values_now()
            sized, hw_entry, est = inputs.scenario(catalog, values)
            headline(values, sized, hw_entry, est)
        with right:
            # Lazy tabs: only the open tab's chart is computed and sent, so a slider move redraws
            # two charts (the open one and the timeline), not five; a tab shows current values when opened.
            tabs = dict(zip(TABS, st.tabs([s(f"tab_{t}") for t in TABS], key="est_tab", on_change="rerun")))
            with tabs["size"]:
                if tabs["size"].open is not False:
                    size_chart(values, est)
            with tabs["devices"]:
                if tabs["devices"].open:
                    devices_chart(values, sized)
            with tabs["distance"]:
                if tabs["distance"].open:
                    distance_chart(values, sized, est)
            with tabs["presets_compare"]:
                if tabs["presets_compare"].open:
                    presets_chart()
            timeline_chart(est)
        feel_section(est)
        mirror_url(values_now())


    interactive()
