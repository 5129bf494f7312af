"""Learn page: one glossary entry (content/terms/<term>.<lang>.yaml) as a learning path.

Order: title, definition and 30-second summary first; then the details in tabs; then the
"you might also wonder" questions, which jump to the sections below them. `?term=` picks the entry.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

from latency import content
from latency.errors import ContentError
from latency.i18n import md
from latency.scenario import clip_raw
from pages._common import current_lang, page_strings, show_content_error

# Icons are Material Symbols (bundled with Streamlit), not emoji: a browser without an emoji font
# shows emoji as boxes.


@st.cache_data(show_spinner=False)
def _load(term_id: str, lang: str, terms_dir: str, signature: tuple) -> content.Term:
    # signature (file names and mtimes) is part of the key, so an edited file is reloaded
    return content.load_term(term_id, lang, Path(terms_dir))


s = page_strings("learn")
lang = current_lang()
terms_dir = content.TERMS_DIR


def seconds(value: float) -> str:
    return s("seconds", value=f"{value:g}")


# --- which term: ?term=, else the default; a bad value is named and replaced ---------------------
term_id = content.DEFAULT_TERM
raw_term = st.query_params.get("term")
if raw_term and raw_term != term_id:
    if content.has_term(raw_term, lang, terms_dir):
        term_id = raw_term
    elif raw_term in content.term_ids(terms_dir):
        st.warning(s("term_missing_lang", value=md(clip_raw(raw_term))))
    else:
        st.warning(s("unknown_term", value=md(clip_raw(raw_term))))

try:
    term = _load(term_id, lang, str(terms_dir), content.files_signature(terms_dir))
except ContentError as err:
    show_content_error(err)
    st.stop()

# --- 1. what it is, in thirty seconds ------------------------------------------------------------
st.title(md(term.title), anchor="top")
if term.original:
    st.caption(md(term.original))
st.markdown(md(term.definition))
with st.container(border=True):
    st.subheader(":material/timer: " + md(term.summary.heading), anchor="summary")
    st.markdown(md(term.summary.text))
    st.markdown(f"**→ {md(term.summary.takeaway)}**")
st.page_link("pages/estimator.py", label=s("try_estimator"), icon=":material/calculate:", query_params={"lang": lang})

# --- 2. the details, one tab each --------------------------------------------------------------
st.header(s("deeper"), anchor="deeper")
u, ex, cmp, why = term.understand, term.examples, term.comparison, term.why_it_matters
tab_understand, tab_examples, tab_table, tab_why = st.tabs(
    [md(u.heading), md(ex.heading), md(cmp.heading), md(why.heading)]
)

with tab_understand:
    st.subheader(md(u.question), anchor=False)
    st.markdown(md(u.answer))
    st.subheader(":material/restaurant: " + md(u.analogy.heading), anchor=False)
    st.markdown(md(u.analogy.text))
    st.subheader(":material/settings: " + md(u.mechanism.heading), anchor=False)
    st.markdown(md(u.mechanism.text))

with tab_examples:
    for start in range(0, len(ex.items), 2):  # one row per pair, so a phone stacks them in order
        for col, example in zip(st.columns(2), ex.items[start:start + 2]):
            with col.container(border=True):
                st.markdown(f"**{md(example.title)}**")
                st.markdown(md(example.text))
                if example.budget_s is None:
                    st.caption(s("no_figure"))
                    continue
                if example.abandon_s is None:
                    st.metric(s("budget_label"), seconds(example.budget_s))
                else:
                    left, right = st.columns(2)
                    left.metric(s("budget_label"), seconds(example.budget_s))
                    right.metric(s("abandon_label"), seconds(example.abandon_s))
                st.caption(s(f"measure_{example.measure}"))

with tab_table:
    rows = cmp.rows
    table = pd.DataFrame(
        {md(c.name): [md(c.size), md(c.latency), md(c.hardware), md(c.deployment)] for c in cmp.classes},
        index=[md(rows.size), md(rows.latency), md(rows.hardware), md(rows.deployment)],
    )
    st.table(table)
    with st.expander(md(cmp.numbers_heading)):
        st.caption(md(cmp.numbers_note))
        numbers = pd.DataFrame(
            {md(c.short_name): [s("range", min=f"{c.size_b.min:g}", max=f"{c.size_b.max:g}"),
                                s("range", min=f"{c.latency_s.min:g}", max=f"{c.latency_s.max:g}")]
             for c in cmp.classes},
            index=[s("numbers_size"), s("numbers_latency")],
        )
        st.table(numbers)

with tab_why:
    st.markdown("\n".join(f"- {md(point)}" for point in why.items))

# --- 3. questions that jump to the sections below ----------------------------------------------
st.header("▶ " + md(term.questions.heading), anchor="questions")
st.markdown("\n".join(f"- [{md(q.label)}](#{q.target.replace('_', '-')})" for q in term.questions.items))


def section_heading(name: str, heading: str) -> None:
    st.subheader(md(heading), anchor=name.replace("_", "-"), divider="gray")


section_heading("uses", term.uses.heading)
for use in term.uses.items:
    line = f"**{md(use.name)}** — {md(use.text)}"
    if use.url:
        line += f" · [{s('source_link')}]({use.url})"
    st.markdown(line)
    if use.budget_s is not None:
        st.badge(md(s("use_budget_badge", value=seconds(use.budget_s))), icon=":material/timer:", color="blue")

section_heading("role_tips", term.role_tips.heading)
roles = {tip.id: tip for tip in term.role_tips.items}
if st.session_state.get("learn_role") not in roles:  # e.g. after switching to a term with other roles
    st.session_state["learn_role"] = next(iter(roles))
role = st.segmented_control(
    s("role_label"), options=list(roles), format_func=lambda rid: md(roles[rid].role), key="learn_role", required=True
)
st.info(md(roles[role].tip), icon=":material/lightbulb:")

section_heading("misconceptions", term.misconceptions.heading)
mis = term.misconceptions
for item in mis.items:
    myth_col, fact_col = st.columns(2)
    with myth_col.container(border=True):
        st.markdown(f":red[:material/close:] **{md(mis.myth_label)}**  \n{md(item.myth)}")
    with fact_col.container(border=True):
        st.markdown(f":green[:material/check:] **{md(mis.fact_label)}**  \n{md(item.fact)}")

section_heading("phrases", term.phrases.heading)
for phrase in term.phrases.items:
    with st.container(border=True):
        st.markdown(f":material/forum: {md(phrase.text)}")
        if phrase.figure is not None:
            st.badge(md(s("figure_badge", label=phrase.figure.label, value=seconds(phrase.figure.value_s))),
                     color="gray")


def term_links(links: tuple[content.TermLink, ...]) -> None:
    """A link to the entry's page where one exists in this language, else the name and description."""
    for link in links:
        if link.term and content.has_term(link.term, lang, terms_dir):
            st.page_link("pages/learn.py", label=md(link.name), icon=":material/menu_book:",
                         query_params={"term": link.term, "lang": lang})
            st.caption(md(link.text))
        else:
            st.markdown(f"**{md(link.name)}** — {md(link.text)}")


section_heading("related", term.related.heading)
term_links(term.related.items)
section_heading("read_next", term.read_next.heading)
term_links(term.read_next.items)
