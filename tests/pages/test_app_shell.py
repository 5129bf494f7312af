"""The shared shell: UI string files, the language switch and ?lang=, reloading edited content."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

from latency.teaching import content
from latency.language import i18n
from latency.language.errors import ContentError
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
    # in every language: a reader who asked for another cannot be assumed to read Korean (PM try: lang=xx)
    for code in i18n.LANGS:
        said = i18n.strings("common", code)("bad_lang_notice", value=r"\<b\>fr\</b\>")
        assert any(said in w.value for w in at.warning), code
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
    assert content.files_signature(tmp_path) == before, "the same files give the same key"
    later = time.time() + 5
    os.utime(f, (later, later))
    edited = content.files_signature(tmp_path)
    assert edited != before
    (nested / "b.yaml").write_text("b: 1\n")
    assert content.files_signature(tmp_path) != edited, "a new file changes the key"
    (nested / "b.txt").write_text("not content\n")
    (nested / "b.yaml").unlink()
    assert content.files_signature(tmp_path) == edited, "only YAML files count"


@pytest.mark.parametrize("url, base, expected", [
    ("http://127.0.0.1:8501/no-such-page", "", "no-such-page"),
    ("http://127.0.0.1:8501/no-such-page/", "", "no-such-page"),
    ("http://127.0.0.1:8501/%ED%95%9C", "", "한"),
    ("https://example.org/tools/latency/nope", "tools/latency", "nope"),
    ("http://127.0.0.1:8501/", "", None),                      # the start page
    ("http://127.0.0.1:8501/estimator", "", None),             # one of the app's pages
    ("https://example.org/tools/latency", "/tools/latency/", None),
    ("http://127.0.0.1:8501/a/b", "", None),                   # nested: Streamlit cannot register it
    (None, "", None),                                          # no browser URL (AppTest)
])
def test_unknown_path_names_only_paths_that_are_none_of_the_pages(url, base, expected):
    from ui.shell import unknown_path

    assert unknown_path(url, base) == expected


NOT_FOUND_ENTRY = """
import streamlit as st
from ui import shell
st.session_state.setdefault("lang", "{lang}")
pages = [st.Page(p.file, url_path=p.url_path, default=p is shell.DEFAULT_PAGE) for p in shell.PAGES]
page = st.navigation(pages + [st.Page(shell.NOT_FOUND_FILE, url_path="no-page")], position="hidden")
st.session_state[shell.ENTRY_MARK] = True
page.run()
"""


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_not_found_page_quotes_the_path_and_links_every_page_in_the_readers_language(lang):
    """pages/not_found.py in AppTest. app.py registers it only for a browser URL (st.context.url,
    which AppTest lacks), so a stand-in entry beside app.py (page paths are relative to the entry)
    registers it with the app's pages and opens it: the title and notice in `lang`, the path as
    plain text (Markdown escaped), a link to every page, no error."""
    from streamlit.testing.v1 import AppTest

    from ui import shell

    entry = Path(APP).parent / f"_test_not_found_entry_{lang}.py"
    entry.write_text(NOT_FOUND_ENTRY.format(lang=lang), encoding="utf-8")
    try:
        at = AppTest.from_file(str(entry), default_timeout=30)
        at.session_state[shell.UNKNOWN_PATH_KEY] = "*no*-page"
        at.run()
        at.switch_page(shell.NOT_FOUND_FILE).run()
    finally:
        entry.unlink()
    s = i18n.strings("common", lang)
    assert not at.exception, at.exception
    assert at.title[0].value == s("not_found_title")
    assert at.warning[0].value == s("not_found_text", path=i18n.md("*no*-page"))
    assert len(at.get("page_link")) == len(PAGES)


@pytest.mark.parametrize("script", ["app.py"] + sorted(p.name for p in (Path(__file__).resolve().parents[2] / "pages").glob("*.py")))
def test_no_script_relies_on_streamlit_magic(script):
    """.streamlit/config.toml turns magic off (runner.magicEnabled = false): a bare expression or name
    on its own line (other than a call or a docstring) would silently show nothing. None may exist."""
    import ast

    root = Path(__file__).resolve().parents[2]
    path = root / script if script == "app.py" else root / "pages" / script
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bare = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Expr)
            and not isinstance(node.value, (ast.Call, ast.Await, ast.Yield, ast.YieldFrom))
            and not (isinstance(node.value, ast.Constant) and isinstance(node.value.value, str))]
    assert not bare, f"{script}: lines {bare} would need Streamlit's magic"
    config = (root / ".streamlit" / "config.toml").read_text(encoding="utf-8")
    assert re.search(r"^magicEnabled\s*=\s*false", config, re.M)


def test_a_running_server_does_not_reimport_code_replaced_under_it():
    """Newcomer trial 2026-12-05: a .py file changed under a running server (a deploy's pull, an edit), and
    Streamlit's file watcher re-imported it while a live room's projector ran: the audience saw Streamlit's
    error page. The server runs the code it started with (server.fileWatcherType = "none")."""
    import tomllib

    root = Path(__file__).resolve().parents[2]
    config = tomllib.loads((root / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["server"]["fileWatcherType"] == "none"
