"""Latency estimator: sliders for model size, hardware and distance drive the headline numbers,
the timeline and live charts; "Feel it" plays the estimate in real time.

Reads top to bottom: strings and cached data, the scenario from the URL and the saved copy
(ui/state.py), inputs, the estimate, sections. The interactive part is one st.fragment, so a slider
move reruns only it, not the app shell.
"""

import time

import streamlit as st

from latency import content, explorer, feel, formats, scenario
from latency import tradeoffs
from latency.errors import ContentError
from latency.i18n import md
from ui import estimate_view, estimator_charts, feel_player, plain_words, scenario_inputs, shell, state

s = shell.page_strings("estimator")
lang = shell.current_lang()
sc = shell.strings("scenario")


@st.cache_data(show_spinner=False, max_entries=8)
def load(lang: str, signature: str) -> explorer.ExplorerData:
    """signature (content files and mtimes) keys the cache, so an edited file is reloaded."""
    return explorer.load(lang)


@st.cache_data(show_spinner=False, max_entries=8)
def preset_results(lang: str, signature: str) -> dict:
    """Each preset's (ttft, ttft range, total, total range): they do not follow the sliders."""
    data = load(lang, signature)
    return {p.id: (e.ttft_s, e.ranges["ttft_s"], e.total_s, e.ranges["total_s"])
            for p in data.presets for _, _, e in [scenario.evaluate(data.catalog, p.values)]}


try:
    signature = content.files_signature()
    data = load(lang, signature)
    f = formats.get(lang)
except ContentError as err:
    shell.show_content_error(err)
    st.stop()

# --- the scenario: URL values the app did not write win, else the saved copy, else the default ----
PAGE_KEYS = tuple(k for k in scenario.KEYS if k not in ("budget_s", "measure", "device_scope"))
state.restore(PAGE_KEYS, data.specs, data.default, steps={"model_size_b": data.sizes, "distance_km": data.distances},
              known=(state.VIEW,))
view = state.requested_view(estimator_charts.TABS + ("timeline", "feel"))  # a glossary link may ask for one
if view in estimator_charts.TABS:
    st.session_state["est_tab"] = s(f"tab_{view}")
elif view == "feel":
    st.session_state["est_race_open"] = True


@st.cache_data(show_spinner=False, max_entries=8)
def option_labels(lang: str, signature: str) -> dict[str, dict]:
    """Every input option as the page shows it (names, never ids), formatted once per language."""
    return scenario_inputs.all_option_texts(s, load(lang, signature), formats.get(lang), lang)


labels = option_labels(lang, signature)

st.title(s("title"))
st.caption(s("intro"))
plain_words.show(shell.strings("plain_words"), plain_words.ESTIMATOR_TERMS)


@st.fragment
def interactive() -> None:
    for n in st.session_state.get(state.NOTICES, []):
        st.warning(state.notice_text(sc, n, lambda k, v: scenario_inputs.option_text(s, data, f, lang, k, v), data.specs))
    results = preset_results(lang, signature)
    scenario_inputs.show_presets(s, data.presets, lang, lambda k: sc(f"input_{k}"),
                                 lambda k, v: scenario_inputs.option_text(s, data, f, lang, k, v),
                                 lambda p: scenario_inputs.claims_text(s, f, p, results[p.id], data, lang))
    left, right = st.columns([2, 3], gap="large")
    with left:
        values = scenario_inputs.show(s, data, labels)
        sized, hw_entry, est = scenario.evaluate(data.catalog, values)
        estimate_view.headline(s, f, est, hw_entry, lang, values)
        st.selectbox(s("use_case"), list(data.use_cases), key="use_case", format_func=labels["use_case"].get, on_change=state.touched)
        case = data.use_cases[st.session_state["use_case"]]
        estimate_view.budget_verdict(s, f, est, case, case.budget_s, case.measure)
        headline = tradeoffs.headline(data.catalog, {**values, "measure": case.measure, "budget_s": case.budget_s},
                                      tradeoffs.catalog_prices(data.catalog))
        estimate_view.cost_and_server(s, f, headline, hw_entry, lang)
        estimate_view.model_basis(s, sized, lang, est.calibrated)
        st.page_link("pages/how-it-works.py", label=s("how_link"), icon=":material/functions:")
    with right:
        tabs = dict(zip(estimator_charts.TABS, st.tabs([s(f"tab_{t}") for t in estimator_charts.TABS], key="est_tab", on_change="rerun")))
        with tabs["size"]:
            if tabs["size"].open is not False:
                estimator_charts.size_tab(s, f, data, values, est)
        with tabs["devices"]:
            if tabs["devices"].open:
                estimator_charts.devices_tab(s, f, data, values, sized, lang)
        with tabs["distance"]:
            if tabs["distance"].open:
                estimator_charts.distance_tab(s, f, data, values, sized, est, lang)
        with tabs["context"]:
            if tabs["context"].open:
                estimator_charts.context_tab(s, f, data, values, sized, est)
        with tabs["presets_compare"]:
            if tabs["presets_compare"].open:
                estimator_charts.presets_tab(s, f, data, preset_results(lang, signature), lang)
        estimate_view.timeline(s, f, est)

    # --- feel it: the estimate as a wait ---------------------------------------------------------
    st.subheader(s("feel_heading"))
    st.write(s("feel_intro"))
    sample = data.samples[lang]
    tokens = feel.split_tokens(sample.answer, sample.chars_per_token)
    pace = feel.Pace(est.ttft_s, est.decode_tokens_per_s)
    st.caption(s("feel_question", prompt=md(sample.prompt)) + " · "
               + s("feel_pace", ttft=f.seconds(est.ttft_s), tps=f.tps_per_user(est.decode_tokens_per_s)))
    if st.button(s("feel_button"), key="est_feel", type="primary"):
        feel_player.play_one(s, f, feel.plan(tokens, pace), est.ttft_s, sleep=time.sleep, clock=time.monotonic)
    st.caption(s("feel_sample_note", n=len(tokens), output=values["output_tokens"], tokens_note=md(sample.tokens_note)))
    fast = data.use_cases["code_autocomplete"].budget_s if "code_autocomplete" in data.use_cases else None
    slow = data.observed_s[0] if data.observed_s else None
    race = st.expander(s("race_heading", fast=f.seconds(fast or 0), slow=f.seconds(slow or 0)), key="est_race_open", on_change="rerun")
    with race:
        if race.open:
            choices = (["pair"] if fast and slow else []) + [p.id for p in data.presets]
            race_labels = {"pair": s("race_pair", fast=f.seconds(fast or 0), slow=f.seconds(slow or 0))}
            race_labels.update({p.id: s("race_vs_preset", label=p.label[lang]) for p in data.presets})
            choice = st.selectbox(s("race_choice"), choices, key="est_race", format_func=race_labels.get)
            if choice == "pair":
                sides = [(s("race_fast", ttft=f.seconds(fast)), feel.Pace(fast, est.decode_tokens_per_s)),
                         (s("race_slow", ttft=f.seconds(slow)), feel.Pace(slow, est.decode_tokens_per_s))]
            else:
                p = next(p for p in data.presets if p.id == choice)
                _, _, o = scenario.evaluate(data.catalog, p.values)
                sides = [(s("race_current"), pace), (p.label[lang], feel.Pace(o.ttft_s, o.decode_tokens_per_s))]
            if st.button(s("race_button"), key="est_race_go"):
                feel_player.race(s, f, tokens, sides, sleep=time.sleep, clock=time.monotonic)
    state.mirror(PAGE_KEYS, known=(state.VIEW,))


interactive()
