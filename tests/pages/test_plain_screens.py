"""Small breakages a first-time reader meets (issue 26, item 6), page by page in every language."""

from __future__ import annotations

import re

import pytest

from latency.language import i18n
from tests.conftest import PAGES, run_page
from tests.pages.test_hostile_urls import rendered_strings

VISIBLE_BACKSLASH = re.compile(r"\\\\")  # Markdown shows an escaped backslash as a literal "\"


@pytest.mark.parametrize("page", [p for p in PAGES if p not in ("measure", "logs")])
@pytest.mark.parametrize("lang", i18n.LANGS)
def test_no_escape_character_shows(page, lang):
    at = run_page(page, lang)
    assert not at.exception
    texts = [t for t in rendered_strings(at) if not t.startswith("{")]  # JSON configs (a table's columns) are no text
    shown = [t for t in texts if VISIBLE_BACKSLASH.search(t)]
    assert not shown, shown[:5]


# A verb that agrees with a plural subject right after a count of one ("1 user share", "1 user keep asking")
PLURAL_AFTER_ONE = re.compile(r"\b1 (user|device|server|token|request)s?\b (share|keep|ask|wait|have|are|use)\b|\b1 (users|devices|tokens|requests)\b")


@pytest.mark.parametrize("view", ["map", "cost"])
def test_one_user_reads_in_the_singular(view):
    at = run_page("tradeoffs", "en", {"concurrency": "1", "view": view})
    assert not at.exception
    wrong = [t for t in rendered_strings(at) if PLURAL_AFTER_ONE.search(t)]
    assert not wrong, wrong[:3]
    assert any("1 user" in t for t in rendered_strings(at))


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_lesson_says_what_a_token_is_where_it_first_says_token(lang):
    """A learner met 'token' on step 1 and found out what it is in quiz question 3."""
    at = run_page("lesson", lang)
    assert not at.exception
    texts = rendered_strings(at)
    word, meaning = {"ko": ("토큰", "낱말 조각"), "en": ("token", "piece of a word")}[lang]
    first = next(t for t in texts if word in t.lower())
    assert meaning in first, first[:200]


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_entrys_fact_stands_as_written_and_the_app_adds_its_note_under_a_rejected_one(lang):
    """Issue 34 item 1: the entry's text stays as written (its own "실제" label on every card); where the
    calculator rejects a fact, one plain-words note under it says what is true and when."""
    from latency.estimation.catalog import load_catalog
    from latency.teaching import claims, content
    from ui import term_claims

    term = content.load_term(content.DEFAULT_TERM, lang)
    results = claims.run_term(term, load_catalog())  # the verdicts straight from latency.estimate
    rejected = [m for m in term.misconceptions.items if any(results[c.id].verdict != "holds" for c in m.checks)]
    agreed = [m for m in term.misconceptions.items if m.checks and all(results[c.id].verdict == "holds" for c in m.checks)]
    assert rejected and agreed
    at = run_page("learn", lang)
    label = term.misconceptions.fact_label
    plain = lambda x: x.replace("\\", "").replace("'", "")  # noqa: E731  (markdown escapes)
    for m in term.misconceptions.items:
        (card,) = [md.value for md in at.markdown if plain(m.fact) in plain(md.value)]
        assert f"**{label}**" in card
    infos = [plain(i.value) for i in at.info]
    captions = [plain(c.value) for c in at.caption]
    pointer = plain(i18n.strings("learn", lang)("note_see", where="")).split("‘")[0].split("“")[0]
    for m in rejected:
        check = term_claims.misleading(results, m.checks).check
        if check.see:  # the idea was explained above: a one-line pointer to it here
            assert [c for c in captions if pointer in c], m.myth
            continue
        assert [i for i in infos if plain(check.note) in i], m.myth
    for m in agreed:
        assert not [i for i in infos if any(c.note and plain(c.note) in i for c in m.checks)], m.myth
