"""Launch check (issue 33): a PM's set-up judged on one screen. The verdict against the target (passing
only when the 95%-of-users figure's range is within it), every input of the set-up in five rows, then the
first token typical and for 95% of users, speed per user, the whole answer, the most users within the
target, the devices and monthly cost to meet it, the cost per 1,000 answers and per month as entered, how
sure the estimate is (on a phone the figures come before the inputs); a Markdown and PNG summary for a
meeting (with B, the difference and what to change); two set-ups side by side; what to change when it fails.

Reads top to bottom: strings and cached data, the scenario (URL, saved copy, default: ui/state.py),
inputs (ui/launch_inputs.py), the launch check (latency.exploring.launch: every figure from
scenario.evaluate), sections (ui/launch_view.py, ui/launch_compare.py, ui/launch_levers.py).
"""

import math

import streamlit as st

from latency.charts import launch_card
from latency.estimation import places as places_mod
from latency.estimation import scenario
from latency.exploring import explorer, launch, levers
from latency.language import formats
from latency.language.errors import ContentError
from latency.language.i18n import Strings
from latency.teaching import content
from ui import launch_compare, launch_export, launch_inputs, launch_levers, launch_view, plain_words, scenario_inputs, shell, state

s = shell.page_strings("launch")
lang = shell.current_lang()
sc = shell.strings("scenario")
est = shell.strings("estimator")


@st.cache_data(show_spinner=False, max_entries=8)
def load(lang: str, signature: str) -> tuple:
    """The explorer's data and the named places (signature keys the cache: an edited file is reloaded)."""
    return explorer.load(lang), places_mod.load_places()


@st.cache_data(show_spinner=False, max_entries=8)
def option_labels(lang: str, signature: str) -> dict[str, dict]:
    return scenario_inputs.all_option_texts(est, load(lang, signature)[0], formats.get(lang), lang)


try:
    signature = content.files_signature()
    data, places = load(lang, signature)
    labels = option_labels(lang, signature)
    f = formats.get(lang)
except ContentError as err:
    shell.show_content_error(err)
    st.stop()

# --- the scenario: URL values the app did not write win, else the saved copy, else the default -----
KEYS = scenario.KEYS
specs = scenario.specs(data.catalog, data.default, list(data.use_cases), [p.id for p in places])


def implied(from_url):
    return scenario.implied_by_use_case(from_url, data.use_cases)


from_link = launch_inputs.url_sets(("users_place", "server_place", "distance_km"))
state.restore(KEYS, specs, data.default, steps=launch_inputs.steps(data), known=(state.VIEW, launch_compare.B_URL),
              implied=implied)
place_notices = launch_inputs.sync_places(places, data.distances, places_win=bool(from_link) and "distance_km" not in from_link)
launch_compare.restore_b(specs, data.default, implied)
view = state.requested_view(("change", "compare"))
if view:
    st.session_state["launch_tab"] = s(f"tab_{view}")

# Notices name each input as this page's sentences do (its `name_*` words: "모델 종류", not the estimator's "모델 구조").
names = Strings(area="scenario", lang=lang, on_error=sc.on_error,
                table={**sc.table, **{k: v for k, v in s.table.items() if k.startswith("input_")},
                       **{f"input_{k[5:]}": v for k, v in s.table.items() if k.startswith("name_")}})
w = launch_view.Words(s, est, f, data, places, labels, lang)

# the word list beside the title: every word the page shows, before it is met, with every input still on a laptop's first screen
with st.container(horizontal=True, vertical_alignment="center", key="launch_title_row"):
    st.title(s("title"), width="content")
    plain_words.show(shell.strings("plain_words"), plain_words.LAUNCH_TERMS)
st.caption(s("intro"))
for n in list(st.session_state.get(state.NOTICES, [])) + place_notices:
    st.warning(state.notice_text(names, n, w.value, specs), icon=":material/link_off:")
if switched := state.switched_text(names, w.value):
    st.info(switched, icon=":material/swap_horiz:")  # what a "what to change" link changed

# The verdict above the inputs: a PM sees pass or fail while changing them. The figures come next in the page's
# order, so a phone shows them before the 25 inputs; from tablet width up the inputs fit on one screen and the
# figures are drawn under them (launch_view.LAYOUT_CSS), the rest of the page after both.
st.html(launch_view.LAYOUT_CSS)
verdict_slot = st.empty()
figures_slot = st.container(key=launch_view.FIGURES_KEY)
st.container(key=launch_view.SETUP_HEADING_KEY).header(s("setup_heading"))  # phone only (LAYOUT_CSS)
values = launch_inputs.show(s, est, data, labels, places, f, lang, specs)


def evaluate(v, search_users=True):
    return launch.check(data.catalog, v, search_users=search_users)


c = evaluate(values)
choices = [d for d in data.device_choices if d != scenario.DEVICES_AUTO]
suggested: list = []  # "what to change", worked out once a run: under the verdict when it fails, and in its tab


def suggestions():
    if not suggested:
        suggested.append(levers.suggest(data.catalog, values, data.sizes, places, choices,
                                        evaluate=lambda v: evaluate(v, search_users=False)))
    return suggested[0]


with verdict_slot.container():
    launch_view.show_verdict(w, c)
    if not c.passes:  # on a phone "What to change" is some 5,000 px below, after the 25 inputs (PM try)
        st.markdown(f"[{s('jump_change')}](#{launch_view.CHANGE_ANCHOR})")
        # the cheapest fix named under the verdict: the figures above are for the device and precision entered, and a
        # PM read "4 H100s, $8,731" as the answer while two MI300X passed for $3,650 (PM re-check 2026-12-05)
        found = suggestions()[0]
        if found and math.isfinite(found[0].check.monthly_usd):
            st.caption(s("cheapest_fix", change=launch_levers.change_text(w, found[0], c),
                         cost=w.money(found[0].check.monthly_usd)))
with figures_slot:
    launch_view.show_figures(w, c, key="launch")
rest = st.container(key=launch_view.REST_KEY)  # everything below the figures (LAYOUT_CSS)
with rest:
    st.header(s("details_heading"))
    st.caption(w.setup(values, c))
    launch_view.show_lines(w, c)

    # --- share and export --------------------------------------------------------------------------
    query = {**scenario.to_query(values), "lang": lang}
    a_query = dict(query)  # set-up A alone (the estimator has no B)
    # B, as kept now: the share link, the exports' "Reopen" link and their B section carry it (a deferred
    # download reads this run's B, not whatever the session holds when the file is fetched)
    b_values = st.session_state.get(launch_compare.B_KEY)
    if b_values is not None:
        query[launch_compare.B_URL] = launch_compare.b_query(b_values)
    link = launch_view.share_link(st.context.url, query)

    def export_extra():
        """B and the difference when a B is set, what to change when the set-up fails (computed on download)."""
        return launch_export.sections(w, c, values, b_values, evaluate, places)

    row = st.container(horizontal=True, vertical_alignment="center")  # wraps on narrow screens
    # the address itself, to copy (PM try: "Link to this check" only reloaded the page, the clipboard stayed empty)
    with row.popover(s("share_link"), icon=":material/link:"):
        st.caption(s("share_link_help"))
        st.code(link, language=None, wrap_lines=True)
    row.download_button(s("export_md"), data=lambda: launch_view.summary_markdown(w, c, link, export_extra()), file_name="launch-check.md",
                           mime="text/markdown", on_click="ignore", icon=":material/description:", key="launch_md")
    row.download_button(s("export_png"), data=lambda: launch_view.summary_png(w, c, link, export_extra()), file_name="launch-check.png",
                           mime="image/png", on_click="ignore", icon=":material/image:", key="launch_png")

    # --- what to change, and two set-ups side by side (only the open tab computes) -------------------
    st.html(f'<div id="{launch_view.CHANGE_ANCHOR}"></div>')  # where the verdict's "what to change" link lands
    tabs = dict(zip(("change", "compare"), st.tabs([s("tab_change"), s("tab_compare")], key="launch_tab", on_change="rerun")))
    with tabs["change"]:
        if tabs["change"].open is not False:
            if switched:  # where the clicked suggestion was: what it changed and the verdict now (PM try, stop 40:
                st.info(switched, icon=":material/swap_horiz:")  # the page kept its scroll position, both were off-screen)
                launch_view.show_verdict(w, c)
            found, tried = suggestions()
            launch_levers.section(w, c, values, found, tried, lang, pairs=lambda: levers.pairs(
                data.catalog, values, data.sizes, places, choices, evaluate=lambda v: evaluate(v, search_users=False)))
    with tabs["compare"]:
        if tabs["compare"].open:
            launch_compare.section(w, c, values, evaluate, specs, data.default, implied, lang,
                                   notice=lambda n: state.notice_text(names, n, w.value, specs))
    st.page_link("pages/estimator.py", label=s("open_estimator"), icon=":material/timer:", query_params=a_query)
    st.page_link("pages/tradeoffs.py", label=s("open_tradeoffs"), icon=":material/balance:", query_params=a_query)
    st.page_link("pages/how-it-works.py", label=est("how_link"), icon=":material/functions:")
state.mirror(KEYS, known=(state.VIEW, launch_compare.B_URL))
launch_compare.mirror_b()
