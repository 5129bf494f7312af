"""Learn page (URL `learn?term=<id>`): one glossary entry (content/terms/<id>.<lang>.yaml) as a learning path.

The entry's text as written and in its order: title, definition and 30-second summary, links into the
tools, the details in tabs, then the "you might also wonder" questions, which jump to the sections below
them. Under a claim the estimator finds misleading, one short note in plain words with a link to the
set-up; every check, with its set-ups and figures (computed now, latency/teaching/claims.py), in one fold
at the end. `?term=` picks the entry and stays in the URL, so a language switch or a trip to another
page keeps it.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from latency.estimation import catalog as catalog_mod, estimator
from latency.teaching import claims, content
from latency.language.errors import ContentError
from latency.language.i18n import md
from latency.estimation.scenario import clip_raw
from ui import shell, term_claims, term_sections as sec

s = shell.page_strings("learn")
lang = shell.current_lang()
shell.drop_unknown_url_keys(("term",))


@st.cache_data(show_spinner=False, max_entries=32)
def load_term(term_id: str, lang: str, terms_dir: str, signature: str) -> content.Term:
    # signature (file names and mtimes) is part of the key, so an edited file is reloaded
    return content.load_term(term_id, lang, Path(terms_dir))


@st.cache_data(show_spinner=False, max_entries=32)
def check_claims(term_id: str, lang: str, terms_dir: str, signature: str, params_mtime: int) -> dict:
    # params_mtime: a recalibration (new fitted_params.json) recomputes every verdict
    return claims.run_term(content.load_term(term_id, lang, Path(terms_dir)), catalog_mod.load_catalog())


terms_dir = content.TERMS_DIR
signature = content.files_signature()
available = [t for t in content.term_ids(terms_dir) if content.has_term(t, lang, terms_dir)]

# --- which term: ?term=, else the one this session last read, else the default; a bad value is named
raw_term = st.query_params.get("term") or st.session_state.get("learn_term") or content.DEFAULT_TERM
term_id = raw_term if raw_term in available else content.DEFAULT_TERM
if raw_term != term_id:
    missing_lang = raw_term in content.term_ids(terms_dir)
    st.warning(s("term_missing_lang" if missing_lang else "unknown_term", value=md(clip_raw(raw_term))))
st.session_state["learn_term"] = term_id
if st.query_params.get("term") != term_id:
    st.query_params["term"] = term_id

try:
    term = load_term(term_id, lang, str(terms_dir), signature)
    catalog = catalog_mod.load_catalog()
except ContentError as err:
    shell.show_content_error(err)
    st.stop()
try:
    results = check_claims(term_id, lang, str(terms_dir), signature, estimator.PARAMS_PATH.stat().st_mtime_ns)
except (ContentError, ValueError) as err:  # a check the estimator rejects: say which, keep the entry
    st.error(s("check_error", problem=md(err)))
    results = {}
cl = sec.Claims(s, catalog, lang, results, term)

# --- 1. what it is, in thirty seconds, and where to try it ---------------------------------------
sec.header(term, shell.strings("plain_words"), s, term_claims.fold_texts(s, catalog, lang, term, results))
sec.summary(s, term, cl)
sec.tools(s, term, lang)

# --- 2. the details, one tab each ----------------------------------------------------------------
st.header(s("deeper"), anchor="deeper")
u, ex, cmp, why = term.understand, term.examples, term.comparison, term.why_it_matters
tab_understand, tab_examples, tab_table, tab_why = st.tabs([md(u.heading), md(ex.heading), md(cmp.heading), md(why.heading)])
with tab_understand:
    sec.understand(s, u, cl)
with tab_examples:
    sec.examples(s, ex, cl)
with tab_table:
    sec.comparison(s, cmp, cl)
with tab_why:
    sec.why(s, why)

# --- 3. questions that jump to the sections below ------------------------------------------------
sec.questions(term)
sec.uses(s, term.uses, cl)
sec.role_tips(s, term.role_tips)
sec.misconceptions(s, term.misconceptions, cl)
sec.phrases(s, term.phrases, cl)
sec.term_links(s, "related", term.related, lang, available)
sec.term_links(s, "read_next", term.read_next, lang, available)

# --- 4. what the calculator checked: set-ups, specs and figures, folded ---------------------------
term_claims.fold(s, catalog, lang, term, results)
