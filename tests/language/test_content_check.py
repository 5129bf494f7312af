"""`python -m latency.content check` finds every missing UI key and unknown placeholder (issue 15,
item 5), and the app shows a named message for one instead of a traceback, the rest still working.

The keys come from the code itself (the static scan's own list of lookups), so a key the code starts
using is covered the moment it is added.
"""

from __future__ import annotations

import shutil

import pytest
import streamlit as st
import yaml

from latency.teaching import content
from latency.language import content_check, i18n
from latency.language.errors import ContentError
from tests.conftest import run_page


def scanned_keys() -> list[tuple[str, str]]:
    """(area, key) of every exact lookup whose area the scan knows, one per key."""
    out = set()
    for path in content_check.code_files():
        mod = content_check._scan(path)
        for lk in mod.lookups:
            area = mod.tables.get(lk.accessor)
            if area and area != content_check.ANY:
                out.update((area, k) for k in lk.keys or [])
        out.update(("common", k) for _, k in mod.nav_keys)
    return sorted(out)


KEYS = scanned_keys()


@pytest.fixture
def ui_copy(tmp_path):
    d = tmp_path / "ui"
    shutil.copytree(i18n.UI_DIR, d)
    return d


def edit(ui_dir, area, change):
    file = ui_dir / f"{area}.yaml"
    data = yaml.safe_load(file.read_text(encoding="utf-8"))
    change(data)
    file.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")


def test_the_content_as_it_is_has_no_problems():
    assert content_check.check_ui() == []
    assert content.main(["check"]) == 0


def test_the_scan_sees_the_pages_and_sections():
    areas = {a for a, _ in KEYS}
    assert {"common", "learn", "how", "estimator", "tradeoffs", "lesson", "measure", "logs", "glossary"} <= areas
    assert len(KEYS) > 60


@pytest.mark.parametrize("area,key", [("estimator", "stage_line"), ("estimator", "context_caption")])
def test_a_key_asked_for_only_in_a_section_module_is_named(ui_copy, area, key):
    """Sections in ui/ get the page's strings as an argument: a key only they ask for is still checked
    (named against the files of the pages that call the section)."""
    edit(ui_copy, area, lambda d: d.pop(key))
    problems = [(e.file, e.path, e.problem) for e in content_check.check_ui(ui_dir=ui_copy)]
    assert any(f"content/ui/{area}.yaml" in f and p == key and "missing key" in why for f, p, why in problems), problems


@pytest.mark.parametrize("area,key", KEYS[:: max(1, len(KEYS) // 12)])  # a dozen keys across the areas
def test_a_deleted_key_is_named(ui_copy, area, key):
    edit(ui_copy, area, lambda d: d.pop(key))
    problems = [(e.file, e.path, e.problem) for e in content_check.check_ui(ui_dir=ui_copy)]
    assert any(f == f"content/ui/{area}.yaml" and p == key and "missing key" in why for f, p, why in problems), problems


def test_a_key_asked_for_with_an_f_string_prefix(ui_copy):
    """pages/estimator.py asks for s(f"tab_{t}"): deleting every tab_* key is found."""
    edit(ui_copy, "estimator", lambda d: [d.pop(k) for k in list(d) if k.startswith("tab_")])
    problems = content_check.check_ui(ui_dir=ui_copy)
    assert any(e.file == "content/ui/estimator.yaml" and "tab_" in e.path for e in problems), problems


def test_a_key_asked_for_by_a_section_in_ui(ui_copy):
    """ui/estimate_view.py takes `s` from its page: its keys are checked against the page's areas."""
    used = {k for lk in content_check._scan(content_check.PROJECT_DIR / "ui" / "estimate_view.py").lookups for k in lk.keys or []}
    key = sorted(used & set(yaml.safe_load((ui_copy / "estimator.yaml").read_text(encoding="utf-8"))))[0]
    edit(ui_copy, "estimator", lambda d: d.pop(key))
    assert any(e.path == key for e in content_check.check_ui(ui_dir=ui_copy))


def test_an_unknown_placeholder_is_named(ui_copy):
    edit(ui_copy, "common", lambda d: d["bad_lang_notice"].update(ko=d["bad_lang_notice"]["ko"] + " {extra}",
                                                                  en=d["bad_lang_notice"]["en"] + " {extra}"))
    problems = [str(e) for e in content_check.check_ui(ui_dir=ui_copy)]
    assert any("content/ui/common.yaml: bad_lang_notice.ko: unknown placeholder {extra}" in p for p in problems), problems
    assert any("bad_lang_notice.en" in p for p in problems)


def test_strings_raise_a_named_content_error():
    s = i18n.Strings("estimator", "en", {"a": "x {n}"})
    with pytest.raises(ContentError) as err:
        s("gone")
    assert (err.value.file, err.value.path) == ("content/ui/estimator.yaml", "gone") and "missing key" in err.value.problem
    with pytest.raises(ContentError) as err:
        s("a", m=1)
    assert err.value.path == "a.en" and "unknown placeholder {n}" in err.value.problem
    assert s("a") == "x {n}"  # no arguments: the raw template, as before


def test_safe_strings_show_a_stand_in():
    seen = []
    s = i18n.Strings("common", "ko", {"a": "{x}와 {y}"}, on_error=seen.append)
    assert s("gone") == "⟨gone⟩" and s("a", x="가") == "가와 {y}"
    assert [e.path for e in seen] == ["gone", "a.ko"]


def test_content_error_never_shows_a_server_path(tmp_path):
    err = ContentError(i18n.UI_DIR / "common.yaml", "k", "p")
    assert err.shown_file == "content/ui/common.yaml" and str(err) == "content/ui/common.yaml: k: p"
    assert ContentError(tmp_path / "x.yaml", "", "p").shown_file == "x.yaml"


@pytest.fixture
def drop_key(monkeypatch):
    """Serve a UI area without one key, as if it had been deleted from the file."""
    original = i18n.load_area

    def apply(area: str, key: str) -> None:
        def load_area(name, ui_dir=i18n.UI_DIR):
            table = original(name, ui_dir)
            return {k: v for k, v in table.items() if not (name == area and k == key)}
        monkeypatch.setattr(i18n, "load_area", load_area)
        st.cache_data.clear()
        st.cache_resource.clear()  # the lesson, quiz and strings tables (cache_resource: shared, not copied)

    yield apply
    st.cache_data.clear()
    st.cache_resource.clear()  # the lesson, quiz and strings tables (cache_resource: shared, not copied)


def test_app_names_a_missing_page_key_and_keeps_working(drop_key, lang):
    drop_key("estimator", "title")
    at = run_page("estimator", lang=lang)
    assert not at.exception
    errors = [e.value.replace("\\", "") for e in at.error]  # the message escapes Markdown
    assert any("content/ui/estimator.yaml" in e and "title" in e for e in errors), errors
    assert not any("/work/" in e or "/tmp/" in e for e in errors)
    assert len(at.metric) >= 3  # the headline numbers are still there


def test_app_names_a_missing_shared_key_on_every_page(drop_key):
    drop_key("common", "lang_label")
    at = run_page("learn", lang="en")
    assert not at.exception
    text = " ".join(e.value for e in at.error).replace("\\", "")  # the message escapes Markdown
    assert "content/ui/common.yaml" in text and "lang_label" in text and "every page" in text
    assert at.title  # the page itself is shown


@pytest.mark.parametrize("file,lang,expected", [
    ("content/ui/common.yaml", "en", "every page"),
    ("content/ui/estimator.yaml", "en", "Latency estimator"),
    ("content/terms/inference-latency.en.yaml", "en", "(in English)"),
    ("content/terms/inference-latency.ko.yaml", "ko", "(한국어)"),
    ("content/places.yaml", "ko", "지연 시간 계산기"),
])
def test_error_names_the_pages_it_affects(file, lang, expected):
    """A broken file's message lists the pages that read it (latency.language.errors.READERS), in the reader's
    language; a per-language term file names its language: it does not claim the others still work."""
    from ui import shell

    err = ContentError(content_check.PROJECT_DIR / file, "x", "y")
    text = shell._affected(err, i18n.strings("common", lang))
    assert expected in text
    if "terms" in file:  # the entry feeds the glossary, the how page and the explorers of its language
        titles = i18n.strings("common", lang)
        assert all(titles(p.nav_key) in text for p in shell.PAGES if p.url_path in ("learn", "how-it-works", "estimator", "tradeoffs"))
