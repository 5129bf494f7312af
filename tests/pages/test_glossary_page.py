"""The glossary start page (`/`) in AppTest: a broken term file is named on every visit, unknown URL
keys are named and dropped, the page leads into the lesson and the estimator."""

from __future__ import annotations

import pickle
import shutil
from pathlib import Path

import pytest

from latency.language.errors import ContentError
from latency.teaching import content, glossary
from tests.conftest import DEFAULT_PAGE, run_page


@pytest.fixture
def terms(tmp_path, monkeypatch) -> Path:
    """The pages read a private copy of content/terms."""
    for file in content.TERMS_DIR.glob("*.yaml"):
        shutil.copy(file, tmp_path / file.name)
    monkeypatch.setattr(content, "TERMS_DIR", tmp_path)
    return tmp_path


def test_a_content_error_survives_a_pickle_round_trip():
    # st.cache_data pickles what a cached function returns; the glossary index carries errors
    err = ContentError("content/terms/x.ko.yaml", "summary.heading", "expected text")
    back = pickle.loads(pickle.dumps(err))
    assert (back.file, back.path, back.problem, str(back)) == (err.file, err.path, err.problem, str(err))


def test_the_index_problems_are_plain_data(terms):
    file = terms / "inference-latency.ko.yaml"
    file.write_text("title: [\n", encoding="utf-8")
    _, problems = glossary.index(terms, ("ko", "en"))
    assert problems and all(isinstance(p, ContentError) for p in problems)
    assert [str(p) for p in pickle.loads(pickle.dumps(problems))] == [str(p) for p in problems]


@pytest.mark.parametrize("broken", ["ko", "en"])
def test_a_broken_term_file_is_named_on_every_visit(terms, broken):
    file = terms / f"inference-latency.{broken}.yaml"
    file.write_text(file.read_text(encoding="utf-8").replace('heading: "', "heading: no #", 1), encoding="utf-8")
    for visit in (1, 2):  # the second visit reads the index from st.cache_data
        at = run_page(DEFAULT_PAGE, broken)
        assert not at.exception, (visit, at.exception)
        assert any(file.name in e.value and "summary.heading" in e.value for e in at.error), (visit, [e.value for e in at.error])


@pytest.mark.parametrize("page", [DEFAULT_PAGE, "learn"])
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_an_unknown_url_key_is_named_and_dropped(page, lang):
    at = run_page(page, lang, {"foo": "bar"})
    assert not at.exception
    assert any("foo" in w.value and "bar" in w.value for w in at.warning), [w.value for w in at.warning]
    assert "foo" not in at.query_params
    assert at.query_params["lang"] == [lang] or at.query_params["lang"] == lang


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_start_page_leads_into_the_lesson_and_the_estimator(lang):
    at = run_page(DEFAULT_PAGE, lang)
    assert not at.exception
    pages = [link.proto.page for link in at.get("page_link")]
    assert pages[:2] == ["lesson", "estimator"], pages  # before the list of terms
    terms = [link for link in at.get("page_link") if link.proto.page == "learn"]
    assert len(terms) == len(glossary.index(content.TERMS_DIR, ("ko", "en"))[0])
