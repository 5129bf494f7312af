"""The sections of a glossary entry (pages/learn.py), one plain function each, data in as arguments.

The entry's text, as written and in its order. Under a claim the estimator finds misleading, one short
note in the app's voice (ui/term_claims.note); everything the calculator checked is folded at the end
(ui/term_claims.fold). Every `source:` of the entry is shown as a "Source" link beside the text it backs.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import streamlit as st

from latency.teaching import claims, content
from latency.estimation import scenario
from latency.estimation.catalog import Catalog
from latency.language import jargon
from latency.language.i18n import Strings, md
from ui import plain_words, style, term_claims

TOOL_PAGES = {"estimator": "pages/estimator.py", "tradeoffs": "pages/tradeoffs.py", "how-it-works": "pages/how-it-works.py"}
TOOL_ICONS = {"estimator": ":material/timer:", "tradeoffs": ":material/balance:", "how-it-works": ":material/functions:"}


class Claims:
    """What every section needs to add the app's note under a misleading claim: strings, catalog, language
    and the results of the entry's checks (latency/teaching/claims.py)."""

    def __init__(self, s: Strings, catalog: Catalog, lang: str, results: Mapping[str, claims.ClaimResult],
                 term: content.Term | None = None):
        self.s, self.catalog, self.lang, self.results = s, catalog, lang, results
        # where each check sits, in words ("쉽게 이해하기 · 구체적 메커니즘"): a later mention of an idea points there
        self.places = {c.id: term_claims.place(s, term, where, obj, c) for where, obj, c in term.checks()} if term else {}

    def note(self, checks: Sequence[Any], better: str | None = None) -> bool:
        """The one plain-words note under a claim the estimator finds misleading (ui/term_claims.note); where
        the idea was explained under an earlier claim (`see:`), a one-line pointer to it instead."""
        return term_claims.note(self.s, self.lang, self.results, checks, better, self.places)


SOURCE_COUNT = "learn_source_links"  # the source links drawn so far in this run (`header` resets it)


def source(s: Strings, url: str | None) -> None:
    if url:
        n = st.session_state[SOURCE_COUNT] = st.session_state.get(SOURCE_COUNT, 0) + 1  # a key per link of this run
        with st.container(key=f"{style.TAP_LINKS_KEY}source_{n}"):  # a 44 px tap target on a phone (ui/style.py)
            st.markdown(f":material/link: [{s('source_link')}]({url})")


def seconds(s: Strings, value: float) -> str:
    return s("seconds", value=f"{value:g}")


def header(term: content.Term, pw: Strings, s: Strings | None = None, more: Sequence[str] = ()) -> None:
    """Title, original name, then the entry's technical words in plain words (ui/plain_words.py, every text
    of the entry below and the page's own labels beside them), then its definition: a word is explained
    before the reader first meets it."""
    st.session_state[SOURCE_COUNT] = 0
    st.title(md(term.title), anchor="top")
    if term.original:
        st.caption(md(term.original))
    labels = [s("use_budget_badge", value=""), s("budget_label"), s("abandon_label"), s("fold_heading")] if s else []
    plain_words.show_met(pw, [*jargon.strings_of(term), *labels, *more])  # more: the fold's own sentences
    st.markdown(md(term.definition))


def summary(s: Strings, term: content.Term, cl: Claims) -> None:
    with st.container(border=True):
        st.header(md(term.summary.heading), anchor="summary")  # no icon in a heading: see block()
        st.markdown(md(term.summary.text))
        st.markdown(f"**→ {md(term.summary.takeaway)}**")
        source(s, term.summary.source)
    cl.note(term.summary.checks)


def tools(s: Strings, term: content.Term, lang: str) -> None:
    """Links into the tools on a fitting scenario (the entry's `tools`), else the estimator's default."""
    if term.tools is None:
        st.page_link("pages/estimator.py", label=s("try_estimator"), icon=":material/calculate:", query_params={"lang": lang})
        return
    st.header(md(term.tools.heading), anchor="tools")
    for cols_start in range(0, len(term.tools.items), 2):
        for col, tool in zip(st.columns(2), term.tools.items[cols_start:cols_start + 2]):
            with col.container(border=True):
                st.page_link(TOOL_PAGES[tool.page], label=md(tool.label), icon=TOOL_ICONS[tool.page],
                             query_params={**{k: scenario.url_value(v) for k, v in tool.query}, "lang": lang})
                st.caption(md(tool.text))


def block(s: Strings, b: content.TextBlock, cl: Claims) -> None:
    # No icon in the heading: Streamlit draws a Markdown icon as role="img" named "<icon name> icon" in
    # English, so the heading read "restaurant icon 비유로 이해하기" to a screen reader (issue 23).
    st.subheader(md(b.heading), anchor=False)
    st.markdown(md(b.text))
    source(s, b.source)
    cl.note(b.checks)


def understand(s: Strings, u: content.Understand, cl: Claims) -> None:
    st.subheader(md(u.question), anchor=False)
    st.markdown(md(u.answer))
    block(s, u.analogy, cl)
    block(s, u.mechanism, cl)


def example_card(s: Strings, example: content.Example, cl: Claims) -> None:
    st.markdown(f"**{md(example.title)}**")
    st.markdown(md(example.text))
    source(s, example.source)
    if example.budget_s is None:
        pass  # the entry gives no figure for this example: nothing to add
    elif example.abandon_s is None:
        st.metric(s("budget_label"), seconds(s, example.budget_s))
    else:
        left, right = st.columns(2)
        left.metric(s("budget_label"), seconds(s, example.budget_s))
        right.metric(s("abandon_label"), seconds(s, example.abandon_s))
    if example.measure:
        st.caption(s(f"measure_{example.measure}"))
    cl.note(example.checks)


def examples(s: Strings, ex: content.Section, cl: Claims) -> None:
    for start in range(0, len(ex.items), 2):  # one row per pair, so a phone stacks them in order
        for col, example in zip(st.columns(2), ex.items[start:start + 2]):
            with col.container(border=True):
                example_card(s, example, cl)


def comparison(s: Strings, cmp: content.Comparison, cl: Claims) -> None:
    """One card per class, its four rows as lines (side by side on a wide screen, stacked on a phone: a four-column
    table at 390 px broke "Phi-4-reasoning-vision" over three lines); a cell the estimator finds misleading gets
    its note in the card, under the cell it is about."""
    rows = cmp.rows
    cells = ("size", "latency", "hardware", "deployment")  # a cell may carry the calculator's figure ({value})
    for col, c in zip(st.columns(len(cmp.classes)), cmp.classes):
        with col.container(border=True):
            st.markdown(f"**{md(c.name)}**")
            for row in cells:
                st.markdown(f"{md(getattr(rows, row))}: **{term_claims.cell(s, c, row, cl.results)}**")
                cl.note([k for k in c.checks if k.row == row])
    if cmp.table_note:
        st.caption(md(cmp.table_note))
    source(s, cmp.source)


def why(s: Strings, section: content.Section) -> None:
    st.markdown("\n".join(f"- {md(point)}" for point in section.items))
    source(s, section.source)


def questions(term: content.Term) -> None:
    st.header(md(term.questions.heading), anchor="questions")  # no glyph: "▶" was read out as part of the heading
    # one paragraph of links, "·" between them: a list took a line and its spacing each (issue 34: six screens)
    with st.container(key=f"{style.TAP_LINKS_KEY}questions"):  # each link a 44 px tap target on a phone (ui/style.py)
        st.markdown(" · ".join(f"[{md(q.label)}](#{q.target.replace('_', '-')})" for q in term.questions.items))


def section_heading(name: str, heading: str) -> None:
    st.subheader(md(heading), anchor=name.replace("_", "-"), divider="gray")


def uses(s: Strings, section: content.Section, cl: Claims) -> None:
    section_heading("uses", section.heading)
    with st.container(gap="small"):
        for use in section.items:
            line = f"**{md(use.name)}** — {md(use.text)}"
            if use.url:
                line += f" · [{s('source_link')}]({use.url})"
            if use.budget_s is not None:  # the use's target beside its words, a badge in the same paragraph
                line += f"  \n:blue-badge[:material/timer: {md(s('use_budget_badge', value=seconds(s, use.budget_s)))}]"
            st.markdown(line)
            cl.note(use.checks, use.better)


FIRST_ROLE = "pm"  # the app's readers are mostly product managers: their tip shows first (the entry's order stays)


def role_order(ids: list[str]) -> list[str]:
    """The roles as the picker offers them: the PM first where the entry has one, the rest in entry order."""
    return sorted(ids, key=lambda rid: rid != FIRST_ROLE)


def role_tips(s: Strings, section: content.Section) -> None:
    section_heading("role_tips", section.heading)
    roles = {tip.id: tip for tip in section.items}
    options = role_order(list(roles))
    if st.session_state.get("learn_role") not in roles:  # e.g. after switching to a term with other roles
        st.session_state["learn_role"] = options[0]
    role = st.segmented_control(s("role_label"), options=options, format_func=lambda rid: md(roles[rid].role),
                                key="learn_role", required=True)
    with st.container(border=True):  # the entry's tip, not the app's note (those are the blue boxes)
        st.markdown(md(roles[role].tip))
        source(s, roles[role].source)


def misconceptions(s: Strings, mis: content.Misconceptions, cl: Claims) -> None:
    section_heading("misconceptions", mis.heading)
    for item in mis.items:  # noqa: B007  # the myth and the entry's own answer in one box, the app's note (if any) under it
        with st.container(border=True):
            st.markdown(f":red[:material/close:] **{md(mis.myth_label)}**: {md(item.myth)}  \n"
                        f":green[:material/check:] **{md(mis.fact_label)}**: {md(item.fact)}")
            source(s, item.source)
        cl.note(item.checks)


def phrases(s: Strings, section: content.Section, cl: Claims) -> None:
    section_heading("phrases", section.heading)
    for phrase in section.items:
        with st.container(border=True, gap="small"):
            line = f":material/forum: {md(phrase.text)}"
            if phrase.figure is not None:  # the figure the phrase names, a badge in the same paragraph
                line += f"  \n:gray-badge[{md(s('figure_badge', label=phrase.figure.label, value=seconds(s, phrase.figure.value_s)))}]"
            st.markdown(line)
            source(s, phrase.source)
            cl.note(phrase.checks, phrase.better)  # the corrected phrasing beside the phrase, in its box


def term_links(s: Strings, name: str, section: content.Section, lang: str, available: Sequence[str]) -> None:
    """A link to the entry where one exists in this language, else the name and description."""
    section_heading(name, section.heading)
    with st.container(gap="small"):
        for link in section.items:  # one line each: the name and what it is, the whole line the link
            if link.term and link.term in available:
                st.page_link("pages/learn.py", label=f"**{md(link.name)}** — {md(link.text)}", icon=":material/menu_book:",
                             query_params={"term": link.term, "lang": lang})
            else:
                st.markdown(f"**{md(link.name)}** — {md(link.text)}")
