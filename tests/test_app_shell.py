"""The shared shell: UI string files, the language switch and ?lang=, reloading edited content."""

from __future__ import annotations

import os
import re
import time

import pytest

from latency import content, i18n
from latency.errors import ContentError
from tests.conftest import APP, PAGES

HANGUL = "\uac00-\ud7a3"


@pytest.mark.parametrize("area", i18n.ui_areas())
def test_every_ui_file_is_complete_in_every_language(area):
    table = i18n.load_area(area)
    assert table, area
    for key, texts in table.items():
        assert set(texts) == set(i18n.LANGS), key


@pytest.mark.parametrize(
    "text, problem",
    [
        ("a: [", "invalid YAML"),
        ("a: {ko: '가'}\n", "a.en: expected non-empty text, found missing"),
        ("a: {ko: no, en: 'x'}\n", "a.ko: expected non-empty text, found bool False"),
        ("a: {ko: '가', en: 'x', fr: 'y'}\n", "unknown language ['fr']"),
        ("a: {ko: '{n}개', en: '{m} items'}\n", "placeholders ['m'] differ from ko's ['n']"),
        ("- just a list\n", "expected a mapping"),
    ],
)
def test_broken_ui_file_names_file_place_and_problem(tmp_path, text, problem):
    (tmp_path / "x.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as err:
        i18n.load_area("x", tmp_path)
    assert "x.yaml" in str(err.value) and problem in str(err.value)


@pytest.mark.parametrize("raw, expected", [(None, ("ko", True)), ("en", ("en", True)), ("EN ", ("en", True)),
                                           (["ko", "en"], ("en", True)), ("xx", ("ko", False)), ("", ("ko", True))])
def test_resolve_lang(raw, expected):
    assert i18n.resolve_lang(raw) == expected


def _app(query: dict):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(APP, default_timeout=30)
    for key, value in query.items():
        at.query_params[key] = value
    return at.run()


def test_unknown_lang_is_named_and_falls_back_to_korean():
    at = _app({"lang": "<b>fr</b>"})
    assert not at.exception
    # shown as text, never as markup: every Markdown/HTML character arrives backslash-escaped
    assert any(r"\<b\>fr\</b\>" in w.value for w in at.warning)
    assert at.session_state["lang"] == "ko"
    assert at.query_params["lang"] == ["ko"] or at.query_params["lang"] == "ko"


def test_language_switch_changes_titles_and_url():
    at = _app({"lang": "ko"})
    switch = at.sidebar.button_group[0]
    assert switch.value == "ko"
    switch.set_value("en").run()
    assert not at.exception
    assert at.session_state["lang"] == "en"
    assert "en" in str(at.query_params["lang"])
    assert not any(re.search(f"[{HANGUL}]", h.value) for h in at.title), [h.value for h in at.title]


def test_every_registered_page_file_exists():
    from tests.conftest import ROOT

    for path in PAGES.values():
        assert (ROOT / path).is_file(), path


def test_content_signature_sees_edits_in_nested_files(tmp_path):
    nested = tmp_path / "ui"
    nested.mkdir()
    f = nested / "a.yaml"
    f.write_text("a: 1\n")
    before = content.files_signature(tmp_path)
    assert ("ui/a.yaml", f.stat().st_mtime_ns) in before
    later = time.time() + 5
    os.utime(f, (later, later))
    assert content.files_signature(tmp_path) != before
