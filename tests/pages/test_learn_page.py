"""The Learn page in AppTest: every term × language renders every section; bad input is named, never fatal."""

from __future__ import annotations

import re
import shutil
from dataclasses import fields, is_dataclass
from pathlib import Path

import pytest
import yaml

from latency.teaching import content
from latency.estimation.scenario import url_value
from latency.language.i18n import LANGS
from tests.conftest import all_text, run_page

HANGUL = re.compile(r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]")
TERM_LANGS = [(t, lang) for t in content.term_ids() for lang in LANGS]
NOT_SHOWN = {"id", "lang", "file", "measure", "kind", "target", "url", "term", "seed", "source", "row", "scenarios",
             "versus", "expect", "page", "query", "see",  # data, not prose
             "note", "better"}  # the app's note: only under a claim the calculator finds misleading (test_entry_checks.py)


def unescape(text: str) -> str:
    return re.sub(r"\\([\\`*_{}\[\]<>#|~$&])", r"\1", text).replace("\u2060", "")


def page_text(at) -> str:
    """Everything the main area shows: all_text plus tab/expander labels, tables, links, widget options."""
    parts = [all_text(at)]
    parts += [t.label for t in at.tabs] + [e.label for e in at.expander] + [p.value for p in at.page_link]
    for table in at.table:
        df = table.value
        parts += [str(v) for v in [*df.columns, *df.index, *df.to_numpy().ravel()]]
    for widget in at.main.get("button_group"):
        parts += [widget.label, *widget.options]
    return unescape("\n".join(parts))


def shown_strings(obj) -> list[str]:
    """Every prose string of a term (ids, links and enum values are data, not shown as text)."""
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, tuple):
        return [s for item in obj for s in shown_strings(item)]
    if is_dataclass(obj):
        return [s for f in fields(obj) if f.name not in NOT_SHOWN for s in shown_strings(getattr(obj, f.name))]
    return []


@pytest.mark.parametrize("term_id,lang", TERM_LANGS)
def test_every_section_of_every_term_is_shown(term_id, lang):
    at = run_page("learn", lang, {"term": term_id})
    assert not at.exception, at.exception
    assert not at.error and not at.warning, [e.value for e in [*at.error, *at.warning]]
    term = content.load_term(term_id, lang)
    text = page_text(at)
    assert unescape(at.title[0].value) == term.title
    missing_headings = [h for h in term.headings().values() if h not in text]
    assert not missing_headings
    shown_tip = next((t for t in term.role_tips.items if t.id == "pm"), term.role_tips.items[0])
    other_tips = {t.tip for t in term.role_tips.items if t is not shown_tip}  # only the chosen role's tip is on screen
    # a cell with "{value}" shows the calculator's figure there (test_entry_checks.py): its own words must be on the page
    missing = [s for s in shown_strings(term) if not all(part in text for part in s.split("{value}"))
               and s not in other_tips]
    assert not missing, f"not on the page: {missing}"
    cards = [unescape(m.value) for m in at.markdown]  # one card per class, its name in bold (no four-column table on a phone)
    assert not at.table and all(f"**{c.name}**" in cards for c in term.comparison.classes)
    if lang != "ko":
        assert not HANGUL.findall(text), sorted(set(HANGUL.findall(text)))


@pytest.mark.parametrize("lang", LANGS)
def test_budgets_are_shown_as_metrics_in_the_current_language(lang):
    at = run_page("learn", lang)
    unit = {"ko": "{}초", "en": "{} s"}.get(lang, "{}")
    values = [m.value for m in at.metric]
    term = content.load_term(content.DEFAULT_TERM, lang)
    expected = [unit.format(f"{v:g}") for e in term.examples.items for v in (e.budget_s, e.abandon_s) if v is not None]
    assert sorted(values) == sorted(expected)


@pytest.mark.parametrize("term_id,lang", TERM_LANGS)
def test_the_pm_role_is_offered_first_and_shown_by_default(term_id, lang):
    """The app's readers are product managers: their tip shows without a click (issue 26, item 6)."""
    at = run_page("learn", lang, {"term": term_id})
    term = content.load_term(term_id, lang)
    pm = next(t for t in term.role_tips.items if t.id == "pm")
    picker = at.segmented_control(key="learn_role")
    assert unescape(picker.options[0]) == pm.role and picker.value == "pm"
    assert _tips_shown(at, term) == [pm.tip]


@pytest.mark.parametrize("lang", LANGS)
def test_role_tips_follow_the_chosen_role(lang):
    at = run_page("learn", lang)
    term = content.load_term(content.DEFAULT_TERM, lang)
    first = next(t for t in term.role_tips.items if t.id == "pm")
    for tip in [*[t for t in term.role_tips.items if t is not first], first]:
        at.segmented_control(key="learn_role").set_value(tip.id).run()
        assert not at.exception
        assert unescape(at.title[0].value) == term.title  # still this language after the rerun
        assert _tips_shown(at, term) == [tip.tip]


def _tips_shown(at, term) -> list[str]:
    """The role tips on the page (the chosen role's alone)."""
    shown = [unescape(m.value) for m in at.markdown]
    return [t.tip for t in term.role_tips.items if t.tip in shown]


@pytest.mark.parametrize("lang", LANGS)
def test_unknown_term_is_named_and_falls_back(lang):
    at = run_page("learn", lang, {"term": "[click](https://example.com)"})
    assert not at.exception
    (warning,) = at.warning
    assert r"\[click\]" in warning.value and "](" not in warning.value.replace(r"\]", "")  # shown, not a link
    assert unescape(at.title[0].value) == content.load_term(content.DEFAULT_TERM, lang).title


@pytest.fixture
def terms(tmp_path, monkeypatch) -> Path:
    """The page reads a private copy of content/terms."""
    for file in content.TERMS_DIR.glob("*.yaml"):
        shutil.copy(file, tmp_path / file.name)
    monkeypatch.setattr(content, "TERMS_DIR", tmp_path)
    return tmp_path


@pytest.mark.parametrize("broken", LANGS)
def test_broken_file_shows_a_named_error_here_only(terms, broken):
    file = terms / f"inference-latency.{broken}.yaml"
    file.write_text(file.read_text(encoding="utf-8").replace('heading: "', "heading: no #", 1), encoding="utf-8")
    at = run_page("learn", broken)
    assert not at.exception
    (error,) = at.error
    assert file.name in error.value and "summary.heading" in error.value and "true/false" in error.value
    for lang in LANGS:
        if lang != broken:
            other = run_page("learn", lang)
            assert not other.exception and not other.error
            assert unescape(other.title[0].value) == content.load_term(content.DEFAULT_TERM, lang).title
    assert not run_page("estimator", broken).exception


def test_related_terms_link_to_entries_that_exist(terms):
    for file in terms.glob("response-speed.*.yaml"):  # one related term without an entry: shown as text
        file.unlink()
    for lang in LANGS:
        target = terms / f"serving-optimization.{lang}.yaml"
        data = yaml.safe_load((terms / f"inference-latency.{lang}.yaml").read_text(encoding="utf-8"))
        data["title"] = {"ko": "서빙 최적화", "en": "Serving optimization"}.get(lang, "serving optimization")
        target.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    lang = "en"
    at = run_page("learn", lang)
    # one line each, "**name** — what it is", the whole line the link
    links = {unescape(p.label).split(" — ")[0].strip("*"): p.proto.query_string for p in at.page_link if "term=" in p.proto.query_string}
    term = content.load_term(content.DEFAULT_TERM, lang, terms)
    available = set(content.term_ids(terms)) - {"response-speed"}
    by_name = {l.name: l.term for l in (*term.related.items, *term.read_next.items) if l.term in available}
    assert "Serving optimization" in by_name and set(links) == set(by_name)
    assert all(q == f"term={by_name[name]}&lang={lang}" for name, q in links.items())
    missing = next(l.name for l in term.related.items if l.term == "response-speed")
    assert f"**{missing}** — " in "\n".join(m.value for m in at.markdown)  # no entry: name and description
    at = run_page("learn", lang, {"term": "serving-optimization"})
    assert not at.warning and at.title[0].value == "Serving optimization"


@pytest.mark.parametrize("lang", LANGS)
def test_try_it_links_to_the_estimator_in_the_same_language(lang):
    at = run_page("learn", lang)  # the default entry has no `tools`: one plain link to the estimator
    (link,) = [p for p in at.page_link if p.proto.page == "estimator" and p.proto.query_string == f"lang={lang}"]
    assert link.label == {"ko": "직접 해 보기: 지연 시간 계산기", "en": "Try it: latency estimator"}[lang]


@pytest.mark.parametrize("term_id,lang", [(t, l) for t, l in TERM_LANGS if content.load_term(t, "ko").tools])
def test_tools_open_the_right_page_on_their_scenario(term_id, lang):
    at = run_page("learn", lang, {"term": term_id})
    shown = {p.label: (p.proto.page, p.proto.query_string) for p in at.page_link}
    for tool in content.load_term(term_id, lang).tools.items:
        page, query = shown[unescape(tool.label)] if unescape(tool.label) in shown else shown[tool.label]
        assert page == tool.page
        assert query == "&".join(f"{k}={url_value(v)}" for k, v in (*tool.query, ("lang", lang)))


def test_term_missing_in_this_language_is_named_and_falls_back(terms):
    """A term with only some of its language files: the others say so and show the default entry."""
    shutil.copy(terms / f"inference-latency.{LANGS[0]}.yaml", terms / f"made-up-term.{LANGS[0]}.yaml")
    for lang in LANGS[1:]:
        at = run_page("learn", lang, {"term": "made-up-term"})
        assert not at.exception and not at.error
        (warning,) = at.warning
        assert "made-up-term" in warning.value
        assert unescape(at.title[0].value) == content.load_term(content.DEFAULT_TERM, lang).title


def test_one_markdown_escape_serves_every_page():
    """`latency.language.i18n.md` makes any text literal in markdown (the inverse of `unescape` above), and the
    pages use that one function instead of keeping copies of it."""
    from latency.language.i18n import md

    nasty = r"*bold* _it_ `code` [link](x) <b> #h |t| ~s~ {x} $5 back\slash 2.0"
    assert unescape(md(nasty)) == nasty
    assert md(42) == "42" and md("plain text (ok).") == "plain text (ok)."
    assert not re.search(r"(?<!\\)[*_`\[\]<>#|~${}]", md(nasty).replace("\\\\", ""))
    pages_dir = Path(__file__).resolve().parents[2] / "pages"
    pages = [*pages_dir.glob("*.py"), *pages_dir.glob("_views/*.py")]
    assert pages
    for page in pages:
        source = page.read_text(encoding="utf-8")
        assert "def md(" not in source and "_MD_SPECIAL" not in source, page


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_no_symbol_glyph_starts_a_heading(lang):
    """Issue 23 item 5: a literal "▶" in a heading was read out as part of its name."""
    at = run_page("learn", lang, {"term": "inference-latency"})
    headings = [h.value for h in (*at.header, *at.subheader, *at.title)]
    assert headings and not [h for h in headings if "▶" in h or "►" in h]
