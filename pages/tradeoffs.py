"""Trade-off explorer: is the scenario within its latency budget, and what does moving each input
cost? The headline is the estimator page's scenario (all users on one server); the tabs show the
budget maps (the cheapest fleet per model size and device), one server under more and more users,
cost against latency over the catalog, memory by precision, what matters most, and the CSV export.

Load -> inputs (ui/tradeoff_inputs.py, the shared scenario state in ui/state.py) -> compute
(latency.exploring.tradeoffs, cached) -> sections (ui/tradeoff_sections.py). Only the open tab computes; inputs
to sections are one st.fragment, so a slider move reruns only them.
"""

from __future__ import annotations

import streamlit as st

from latency.teaching import content
from latency.estimation import places, scenario, sizing
from latency.exploring import tradeoffs as T
from latency.estimation.catalog import load_catalog
from latency.language.errors import ContentError
from latency.language.i18n import md
from ui import plain_words, scenario_inputs, shell, state
from ui import tradeoff_inputs as inputs
from ui import tradeoff_sections as sections

s = shell.page_strings("tradeoffs")
lang = shell.current_lang()


@st.cache_data(show_spinner=False, max_entries=8)
def load_data(lang: str, signature: str):
    """Catalogs, named distance stops and the entry's use-case budgets (pure data, per language)."""
    return load_catalog(), places.load_stops(), {u.id: u for u in content.use_case_budgets(lang)}


@st.cache_data(show_spinner=False, max_entries=32)
def compute_headline(values: tuple, prices: tuple, signature: str) -> T.Headline:
    return T.headline(load_catalog(), dict(values), dict(prices))


@st.cache_data(show_spinner=False, max_entries=64)
def compute_tab(tab: str, sc: T.Scenario, prices: tuple, scope: str, devices: int, signature: str,
                _stops: tuple) -> dict:
    # _stops is not hashed (leading underscore): the content signature already keys it
    return T.tab_data(tab, sc, load_catalog(), _stops, dict(prices), scope, devices)


# 1. load
try:
    signature = content.files_signature()
    catalog, stops, cases = load_data(lang, signature)
except ContentError as err:
    shell.show_content_error(err)
    st.stop()
default = scenario.defaults(stops, cases, page="tradeoffs")  # opens on a real boundary (scenario.PAGE_DEFAULTS)
specs = scenario.specs(catalog, default, list(cases))
steps = dict(model_size_b=sizing.size_steps(catalog), distance_km=places.distance_steps(stops))
state.restore(inputs.KEYS, specs, default, {**steps, **scenario.OPTION_STEPS}, known=(state.VIEW,),  # one link, one set-up
              implied=lambda from_url: scenario.implied_by_use_case(from_url, cases),
              exact={"distance_km": scenario_inputs.place_pair_km()})  # the launch check's places, as it gave them
view = state.requested_view(T.TABS)  # a glossary link may ask for a tab
if view:
    st.session_state["tr_tab"] = s(f"tab_{view}")
fmt = inputs.Formats(s, shell.strings("scenario"), catalog, stops, cases, lang)

# 2. inputs (the page top; the interactive part below is one fragment)
st.title(s("title"))
st.caption(s("intro"))
plain_words.show(shell.strings("plain_words"), plain_words.TRADEOFF_TERMS)


@st.fragment
def interactive() -> None:
    """Everything a user changes, and what it changes: one st.fragment, so a slider move reruns only
    this (not app.py and the page's loading), as on the estimator page."""
    state.hold(inputs.KEYS)  # a fragment rerun sends every input's value again (ui/state.py `hold`)
    inputs.show_notices(fmt, st.session_state.get(state.NOTICES, []), specs)
    values = inputs.show(fmt, steps, specs)
    state.mirror(inputs.KEYS, known=inputs.OTHER_KEYS + (state.VIEW,))
    prices = tuple(sorted(inputs.prices(fmt).items()))

    # 3. compute: the headline always, each tab only when open
    try:
        sc = T.scenario_of(values)
        head = compute_headline(tuple(sorted(values.items())), prices, signature)
    except (ValueError, KeyError) as err:  # an input combination the estimator rejects: say which, keep the page
        st.error(s("compute_error", problem=md(err)))
        return
    case = cases.get(values["use_case"])
    abandon = case.abandon_s if case and (case.budget_s, case.measure) == (sc.budget_s, sc.measure) else None

    # 4. sections
    sections.headline(fmt, sc, head, abandon)
    tab_args = (prices, values["device_scope"], head.devices, signature, stops)
    for name, tab in zip(T.TABS, st.tabs([s(f"tab_{t}") for t in T.TABS], key="tr_tab", on_change="rerun")):
        with tab:  # only the open tab computes; the first counts as open until the browser says which is
            if tab.open or (tab.open is None and name == T.TABS[0]):
                sections.show_tab(name, fmt, sc, head, compute_tab(name, sc, *tab_args))


interactive()
