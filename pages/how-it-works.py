"""How the estimate works, for a non-developer first: the four stages of one request in plain words
with a worked example each, how close the model comes to published measurements, whether the
glossary's comparison table holds, and the known limits. Formulas, constants, fitted parameters and
command lines are folded into "for developers" expanders (ui/how_sections.py).
"""

from __future__ import annotations

import streamlit as st

from latency.teaching import content, explain
from latency.estimation import estimator
from latency.estimation.catalog import load_catalog
from latency.language.errors import ContentError
from ui import how_sections as how
from ui import plain_words, shell

# --- 1. load ---------------------------------------------------------------------------------
s = shell.page_strings("how")
lang = shell.current_lang()
params = estimator.load_params()
try:
    catalog, catalog_error = load_catalog(), None
except ContentError as err:
    catalog, catalog_error = None, err
try:
    report, report_error = explain.load_report(), None
except ContentError as err:
    report, report_error = None, err
try:
    classes, classes_error = content.comparison_classes(lang), None
except ContentError as err:
    classes, classes_error = None, err

# --- 2. compute (no inputs: the page explains one typical request) ----------------------------
typical = explain.run_scenario(explain.TYPICAL, catalog)[1] if catalog is not None else None
checks = explain.check_classes(classes, catalog) if classes is not None and catalog is not None else None

# --- 3. sections -----------------------------------------------------------------------------
st.title(s("title"), anchor="top")
plain_words.show(shell.strings("plain_words"), plain_words.HOW_TERMS)  # every word the page shows, before it is met
how.intro(s, params)
if typical is not None:
    how.typical_request(s, catalog, typical, lang)
else:
    shell.show_content_error(catalog_error)
st.page_link("pages/estimator.py", label=s("try_estimator"), icon=":material/calculate:", query_params={"lang": lang})

st.header(s("stages_heading"), anchor="stages")
st.caption(how.m(s, "stages_intro"))
tab_net, tab_queue, tab_prefill, tab_decode = st.tabs([s(f"tab_{k}") for k in explain.STAGES])
with tab_net:
    how.network_tab(s, params)
with tab_queue:
    how.queue_tab(s, params)
with tab_prefill:
    how.prefill_tab(s, params, catalog, typical, lang)
with tab_decode:
    how.decode_tab(s, params, typical)

st.header(s("calib_heading"), anchor="calibration")
if report is not None:
    how.calibration(s, params, report)
else:
    shell.show_content_error(report_error)

st.header(s("ruc_heading"), anchor="ranges-users-context")
how.ranges_users_context(s, report or {})

st.header(s("claims_heading"), anchor="claims")
if checks is not None:
    how.claims_chart(s, checks, classes, catalog, lang)
    by_id = {c.id: c for c in classes}
    for check in checks:
        how.claim_card(s, check, by_id[check.class_id], catalog, lang)
    st.caption(how.m(s, "claims_rule", majority=f"{100 * explain.MAJORITY:.0f}"))
    st.page_link("pages/learn.py", label=s("see_table"), icon=":material/menu_book:", query_params={"lang": lang})
else:
    shell.show_content_error(classes_error or catalog_error)

st.header(s("limits_heading"), anchor="limits")
how.limits(s)
