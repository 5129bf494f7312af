"""Latency estimator: sliders for model size, hardware and distance drive the headline numbers,
the timeline and live charts; "Feel it" plays the estimate in real time.

Reads top to bottom: strings and cached data, the scenario from the URL and the saved copy
(ui/state.py), inputs, the estimate, sections. The interactive part is one st.fragment, so a slider
move reruns only it, not the app shell.
"""

import time

import streamlit as st

from latency.teaching import content
from latency.exploring import explorer
from latency.language import formats
from latency.estimation import scenario
from latency.exploring import tradeoffs
from latency.language.errors import ContentError
from ui import estimate_view, estimator_charts, feel_player, plain_words, scenario_inputs, shell, state, style, tradeoff_inputs

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
state.restore(PAGE_KEYS, data.specs, data.default, steps={"model_size_b": data.sizes, "distance_km": data.distances,
                                                          **scenario.OPTION_STEPS},  # the launch check's, unseen here
              known=(state.VIEW,), implied=lambda from_url: scenario.implied_by_use_case(from_url, data.use_cases),
              exact={"distance_km": scenario_inputs.place_pair_km()})  # the launch check's places, as it gave them
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
    state.hold(PAGE_KEYS)  # a fragment rerun sends every input's value again (ui/state.py `hold`)
    for n in st.session_state.get(state.NOTICES, []):
        st.warning(state.notice_text(sc, n, lambda k, v: scenario_inputs.option_text(s, data, f, lang, k, v), data.specs))
    if switched := state.switched_text(sc, lambda k, v: scenario_inputs.option_text(s, data, f, lang, k, v)):
        st.info(switched, icon=":material/swap_horiz:")  # what an answer's "(switch to this set-up)" changed
    results = preset_results(lang, signature)
    scenario_inputs.show_presets(s, data.presets, lang, lambda k: sc(f"input_{k}"),
                                 lambda k, v: labels.get(k, {}).get(v) or scenario_inputs.option_text(s, data, f, lang, k, v),
                                 lambda p: scenario_inputs.claims_text(s, f, p, results[p.id], data, lang))
    left, right = st.container(key=style.STACK_KEY + "estimator").columns([2, 3], gap="large")  # stacks when narrow (ui/style.py)
    with left:
        values = scenario_inputs.show(s, *scenario_inputs.with_distance(s, data, f, lang, labels))
        sized, hw_entry, est = scenario.evaluate(data.catalog, values)
        estimate_view.pinned(s, f, est)  # a phone: the two times stay in view while the inputs move
        estimate_view.headline(s, f, est, hw_entry, lang, values, data.catalog)
        estimate_view.int4_tradeoff(s, f, data.catalog, values, est)
        st.selectbox(s("use_case"), list(data.use_cases), key="use_case", format_func=lambda u: data.use_cases[u].label,
                     on_change=tradeoff_inputs.on_use_case, args=(data.use_cases,))  # its target comes with it, as on the trade-off page
        case = data.use_cases[st.session_state["use_case"]]
        st.caption(s("use_case_target", budget=f.seconds(case.budget_s), measure=s(f"measure_{case.measure}")))  # the box holds the name alone (it cut "...: 1 s to first token")
        if values.get("budget_s") is not None and (values["budget_s"], values.get("measure")) != (case.budget_s, case.measure):
            st.caption(sc("unseen_target", budget=f.seconds(values["budget_s"]), measure=s(f"measure_{values['measure']}")))
        estimate_view.budget_verdict(s, f, est, case, case.budget_s, case.measure)
        if switched:  # again beside the link that was clicked: the page keeps its scroll position (PM try, stop 40)
            st.info(switched, icon=":material/swap_horiz:")
        with st.container(key=f"{style.SENTENCE_LINKS_KEY}answers"):  # links that are sentences: at text weight (newcomer try: "the box is all bold")
            estimate_view.answers(s, f, data.catalog, values, data.sizes, case, lang, est)
        headline = tradeoffs.headline(data.catalog, {**values, "measure": case.measure, "budget_s": case.budget_s},
                                      tradeoffs.catalog_prices(data.catalog))
        estimate_view.cost_and_server(s, f, headline, hw_entry, lang, tradeoffs.other_arrival(data.catalog, values),
                                      values.get("arrival", "steady"))
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
        estimate_view.timeline(s, f, est, values, hw_entry.kind)
    state.mirror(PAGE_KEYS, known=(state.VIEW,))


interactive()

# --- feel it: the estimate as a wait (its own fragment: a slider move does not redraw it) ----------
feel_player.section(s, f, data, lang, sleep=time.sleep, clock=time.monotonic)
