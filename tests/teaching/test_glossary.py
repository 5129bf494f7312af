"""The glossary start page (URL /) and `?term=` links: every term listed, searchable in either language."""

from __future__ import annotations

import pytest

from latency.teaching import content, glossary
from latency.language.i18n import LANGS
from tests.conftest import run_page

TERMS = content.term_ids()


def titles(term_id: str) -> dict[str, str]:
    return {lang: content.load_term(term_id, lang).title for lang in LANGS if content.has_term(term_id, lang)}


def listed(at) -> dict[str, str]:
    """label -> query string of every entry link on the page."""
    return {p.label: p.proto.query_string for p in at.page_link if "term=" in p.proto.query_string}


def test_search_folds_case_spaces_and_hyphens_and_reads_every_language():
    entries, problems = glossary.index(content.TERMS_DIR, LANGS)
    assert not problems and [e.id for e in entries][0] == content.DEFAULT_TERM and {e.id for e in entries} == set(TERMS)
    assert [e.id for e in glossary.search(entries, "배치")] == ["batch-inference"]
    assert [e.id for e in glossary.search(entries, "  Memory-FOOT ")] == ["memory-footprint"]
    assert [e.id for e in glossary.search(entries, "메모리풋프린트")] == ["memory-footprint"]
    assert len(glossary.search(entries, "")) == len(entries) and glossary.search(entries, "zzzz") == []
    assert glossary.one_line("첫 문장입니다. 둘째 문장.") == "첫 문장입니다."


@pytest.mark.parametrize("lang", LANGS)
def test_start_page_lists_every_term_with_its_summary(lang):
    at = run_page("", lang)
    assert not at.exception and not at.error
    links = listed(at)
    for term_id in TERMS:
        term = content.load_term(term_id, lang)
        assert links[term.title] == f"term={term_id}&lang={lang}"
        assert glossary.one_line(term.definition) in [m.value.replace("\\", "") for m in at.markdown]


@pytest.mark.parametrize("lang,query,found", [
    ("en", "배치", "batch-inference"),      # the Korean name finds it on the English page
    ("ko", "memory", "memory-footprint"),   # and the English name on the Korean page
    ("ko", "batch inference", "batch-inference"),
])
def test_search_by_korean_or_english_name(lang, query, found):
    at = run_page("", lang)
    at.text_input(key="glossary_query").set_value(query).run()
    assert not at.exception
    assert list(listed(at).values()) == [f"term={found}&lang={lang}"]


def test_no_match_says_so_in_the_current_language():
    at = run_page("", "en")
    at.text_input(key="glossary_query").set_value("[x](https://e.com)").run()
    assert not listed(at) and len(at.info) == 1 and "No term matches" in at.info[0].value
    assert "](" not in at.info[0].value.replace(r"\]", "")  # the query is shown as text, never a link


@pytest.mark.parametrize("term_id", TERMS)
def test_term_survives_a_language_switch(term_id):
    at = run_page("learn", "ko", {"term": term_id})
    assert at.title[0].value.replace("\\", "") == titles(term_id)["ko"]
    at.segmented_control(key="lang_switch").set_value("en").run()
    assert not at.exception and not at.warning
    assert at.title[0].value.replace("\\", "") == titles(term_id)["en"]
    assert str(at.query_params["term"]).strip("[]'") == term_id and str(at.query_params["lang"]).strip("[]'") == "en"


def test_learn_path_works_without_a_term():
    at = run_page("learn", "en")
    assert not at.exception and not at.warning
    assert at.title[0].value == content.load_term(content.DEFAULT_TERM, "en").title
    assert str(at.query_params["term"]).strip("[]'") == content.DEFAULT_TERM  # written back, so a language switch keeps it
