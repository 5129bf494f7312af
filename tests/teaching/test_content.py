"""Term entries: the real files are complete and faithful; every kind of broken file gets a specific message."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from dataclasses import fields, is_dataclass
from pathlib import Path

import pytest
import yaml

from latency.teaching import content
from latency.teaching.content import ContentError, load_term
from latency.language.i18n import LANGS

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT.parent / "shared" / "seed" / "inference-latency.ko.txt"
HANGUL = re.compile(r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]")
TERM_LANGS = [(t, lang) for t in content.term_ids() for lang in LANGS]


def strings(obj) -> list[str]:
    """Every text value inside a loaded term."""
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, tuple):
        return [s for item in obj for s in strings(item)]
    if is_dataclass(obj):
        return [s for f in fields(obj) if f.name != "file" for s in strings(getattr(obj, f.name))]
    return []


# --------------------------------------------------------------------------- the real content
def test_real_content_has_no_problems():
    assert content.check() == []


@pytest.mark.parametrize("term_id,lang", TERM_LANGS)
def test_every_term_loads_in_every_language(term_id, lang):
    term = load_term(term_id, lang)
    assert term.id == term_id and term.lang == lang
    assert all(term.headings().values())


def _source_fragments(text: str) -> list[str]:
    """The source cut at its structural marks (bullets, table cells, label colons, arrows, sentence ends)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    out = []
    for line in lines[1:]:  # line 0 is "<english term><korean term>", checked separately
        if set(line) <= set("|-"):
            continue
        line = re.sub(r"\s*\((https?://[^)]+)\)", "", line)
        for cell in line.strip("|").split("|"):
            for piece in re.split(r" -> | → | — | - |(?<=[.?!])\s+|: ", cell):
                piece = piece.strip().lstrip("-▶").replace("❌", "").replace("✅", "").strip()
                if piece:
                    out.append(piece)
    return out


@pytest.mark.skipif(not SEED.exists(), reason=f"source text not found at {SEED}")
def test_korean_keeps_every_sentence_of_the_source_verbatim():
    ko = load_term(content.DEFAULT_TERM, "ko")
    corpus = "\n".join(strings(ko))
    source = SEED.read_text(encoding="utf-8")
    assert source.splitlines()[0].strip() == ko.original + ko.title
    missing = [frag for frag in _source_fragments(source) if frag not in corpus]
    assert not missing, f"source text not found verbatim in the ko entry: {missing}"
    for url in re.findall(r"\((https?://[^)]+)\)", source):
        assert url in {u.url for u in ko.uses.items}


@pytest.mark.parametrize("term_id", content.term_ids())
def test_english_entries_have_no_hangul(term_id):
    hangul = [s for s in strings(load_term(term_id, "en")) if HANGUL.search(s)]
    assert not hangul


@pytest.mark.parametrize("term_id,lang", TERM_LANGS)
def test_every_budget_number_is_stated_in_its_own_text(term_id, lang):
    """Numbers are data, but each must come from the sentence it belongs to (no invented figures)."""
    term = load_term(term_id, lang)

    def stated(value: float, text: str) -> bool:
        return re.search(rf"(?<![\d.]){re.escape(f'{value:g}')}(?![\d.])", text) is not None

    for e in term.examples.items:
        for value in (e.budget_s, e.abandon_s):
            assert value is None or stated(value, e.text), (e.id, value)
    for u in term.uses.items:
        assert u.budget_s is None or stated(u.budget_s, u.text), (u.id, u.budget_s)
    for p in term.phrases.items:
        assert p.figure is None or stated(p.figure.value_s, p.text), (p.id, p.figure)
    for c in term.comparison.classes:
        assert stated(c.size_b.min, c.size) and stated(c.size_b.max, c.size), c.id


@pytest.mark.parametrize("lang", LANGS)
def test_inference_latency_numbers_match_the_source(lang):
    term = load_term("inference-latency", lang)
    ex = {e.id: (e.budget_s, e.abandon_s, e.measure) for e in term.examples.items}
    assert ex == {
        "code_autocomplete": (0.2, None, "ttft"), "live_captions": (1, None, "ttft"),
        "exam_grading": (None, None, None), "support_chatbot": (1, 5, "ttft"),
    }
    assert {p.id: p.figure.value_s for p in term.phrases.items if p.figure} == {"target_1s": 1, "measured_3s": 3, "sla_2s": 2}
    assert len(term.uses.items) == 4 and len(term.why_it_matters.items) == 4 and len(term.role_tips.items) == 4
    assert len(term.misconceptions.items) == 3 and len(term.phrases.items) == 5
    assert len(term.related.items) == 5 and len(term.read_next.items) == 3 and len(term.questions.items) == 6


@pytest.mark.parametrize("lang", LANGS)
def test_use_case_budgets(lang):
    cases = content.use_case_budgets(lang)
    assert [(c.id, c.budget_s, c.abandon_s, c.measure) for c in cases] == [
        ("code_autocomplete", 0.2, None, "ttft"), ("live_captions", 1, None, "ttft"),
        ("support_chatbot", 1, 5, "ttft"), ("copilot", 0.5, None, "ttft"), ("sla_2s", 2, None, "total"),
    ]
    assert all(c.label and (lang != "en" or not HANGUL.search(c.label)) for c in cases)


@pytest.mark.parametrize("lang", LANGS)
def test_comparison_classes_have_numeric_ranges(lang):
    classes = {c.id: c for c in content.comparison_classes(lang)}
    assert {k: (c.size_b.min, c.size_b.max, c.latency_s.min, c.latency_s.max) for k, c in classes.items()} == {
        "large": (40, 175, 2, 60), "lightweight": (7, 15, 0, 1), "loop": (40, 40, 1, 2),
    }
    assert classes["lightweight"].latency_s.contains(0.5) and not classes["large"].latency_s.contains(1)


# --------------------------------------------------------------------------- broken files
@pytest.fixture
def terms(tmp_path) -> Path:
    """A private copy of content/terms to break."""
    for file in content.TERMS_DIR.glob("*.yaml"):
        shutil.copy(file, tmp_path / file.name)
    return tmp_path


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def change(path: Path, fn) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    fn(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def error_of(terms: Path, lang: str = "en", term_id: str = "inference-latency") -> ContentError:
    with pytest.raises(ContentError) as info:
        load_term(term_id, lang, terms)
    return info.value


def test_bad_yaml_syntax_names_line_and_column(terms):
    edit(terms / "inference-latency.en.yaml", 'title: "Inference latency"', 'title: "Inference latency')
    err = error_of(terms)
    assert err.file.endswith("inference-latency.en.yaml")
    assert re.fullmatch(r"line \d+, column \d+", err.path)
    assert err.problem.startswith("invalid YAML:")


def test_wrong_type(terms):
    change(terms / "inference-latency.en.yaml", lambda d: d.update(examples="four examples"))
    err = error_of(terms)
    assert err.path == "examples"
    assert "expected a mapping with keys ['heading', 'items', 'source'], found text 'four examples'" in err.problem
    assert "(line " in err.problem


def test_number_where_a_number_of_seconds_is_expected(terms):
    edit(terms / "inference-latency.en.yaml", "budget_s: 0.2", 'budget_s: "0.2 s"')
    err = error_of(terms)
    assert err.path == "examples.items[0].budget_s"
    assert "expected a number, found text '0.2 s' (write the number alone, without a unit)" in err.problem


def test_missing_section(terms):
    change(terms / "inference-latency.en.yaml", lambda d: d.pop("uses"))
    err = error_of(terms)
    assert (err.path, err.problem) == ("(top level)", "missing section 'uses'")


def test_missing_key_inside_an_item(terms):
    change(terms / "inference-latency.ko.yaml", lambda d: d["role_tips"]["items"][1].pop("tip"))
    err = error_of(terms, "ko")
    assert err.path == "role_tips.items[1]" and err.problem.startswith("missing key 'tip'")


def test_unknown_language(terms):
    shutil.copy(terms / "inference-latency.en.yaml", terms / "inference-latency.fr.yaml")
    problems = [e for e in content.check(terms) if e.file.endswith(".fr.yaml")]
    assert [e.problem for e in problems] == ["unknown language 'fr'; supported: ko, en"]
    assert "unknown language 'fr'" in str(error_of(terms, "fr"))
    assert content.term_ids(terms) == content.term_ids()  # the .fr file adds no term


def test_empty_list(terms):
    change(terms / "inference-latency.en.yaml", lambda d: d["examples"].update(items=[]))
    err = error_of(terms)
    assert (err.path, err.problem.split(" (line")[0]) == ("examples.items", "the list is empty; at least one item is needed")


@pytest.mark.parametrize("word", ["no", "yes", "on", "off"])
def test_yaml_boolean_trap(terms, word):
    edit(terms / "inference-latency.en.yaml", 'heading: "Why it matters"', f"heading: {word}")
    err = error_of(terms)
    assert err.path == "why_it_matters.heading"
    assert f"YAML reads an unquoted {word} as true/false; put the text in quotes: \"{word}\"" in err.problem
    assert re.search(r"\(line \d+\)$", err.problem)


def test_yaml_number_trap(terms):
    edit(terms / "inference-latency.en.yaml", 'title: "Inference latency"', "title: 1.0")
    err = error_of(terms)
    assert err.path == "title"
    assert 'expected text, found the number 1.0: YAML reads an unquoted 1.0 as a number; put the text in quotes: "1.0"' in err.problem


def test_unknown_key_suggests_the_right_one(terms):
    edit(terms / "inference-latency.en.yaml", '      title: "Real-time code autocompletion"', '      titel: "Real-time code autocompletion"')
    err = error_of(terms)
    assert err.path == "examples.items[0].titel"
    assert err.problem.startswith("unknown key 'titel'; did you mean 'title'?")


def test_duplicate_key(terms):
    edit(terms / "inference-latency.ko.yaml", 'title: "추론 지연 시간"\n', 'title: "추론 지연 시간"\ntitle: "다른 제목"\n')
    err = error_of(terms, "ko")
    assert err.path == "title" and re.fullmatch(r"key 'title' appears twice \(lines \d+ and \d+\)", err.problem)


def test_duplicate_ids(terms):
    change(terms / "inference-latency.en.yaml", lambda d: d["examples"]["items"][1].update(id="code_autocomplete"))
    err = error_of(terms)
    assert err.path == "examples.items[1].id" and "duplicate id 'code_autocomplete' (also used by item [0])" in err.problem


def test_budget_needs_a_measure(terms):
    change(terms / "inference-latency.en.yaml", lambda d: d["examples"]["items"][0].update(measure=None))
    err = error_of(terms)
    assert err.path == "examples.items[0].measure"
    assert "budget_s is set, so measure is required: one of ['ttft', 'total']" in err.problem


def test_abandonment_before_the_budget(terms):
    change(terms / "inference-latency.en.yaml", lambda d: d["examples"]["items"][3].update(abandon_s=0.5))
    err = error_of(terms)
    assert err.path == "examples.items[3].abandon_s" and "abandon_s (0.5) is smaller than budget_s (1)" in err.problem


def test_bad_range(terms):
    change(terms / "inference-latency.en.yaml", lambda d: d["comparison"]["classes"][0]["latency_s"].update(min=90))
    err = error_of(terms)
    assert err.path == "comparison.classes[0].latency_s.min" and "min (90) is larger than max (60)" in err.problem


def test_bad_url_and_jump_target(terms):
    change(terms / "inference-latency.ko.yaml", lambda d: (d["uses"]["items"][0].update(url="javascript:alert(1)"),
                                                          d["questions"]["items"][0].update(target="nowhere")))
    problems = {e.path: e.problem for e in content.check(terms) if e.file.endswith(".ko.yaml")}
    assert "is not a valid web address" in problems["uses.items[0].url"]
    assert "expected one of ['uses', 'role_tips', 'misconceptions', 'phrases', 'related', 'read_next'], found text 'nowhere'" \
        in problems["questions.items[0].target"]


def test_empty_file_and_wrong_top_level(terms):
    (terms / "inference-latency.en.yaml").write_text("# nothing yet\n", encoding="utf-8")
    assert error_of(terms).problem == "the file is empty"
    (terms / "inference-latency.en.yaml").write_text("- title\n", encoding="utf-8")
    assert error_of(terms).problem.startswith("expected a mapping of sections (title, original, seed, definition")


def test_languages_must_share_structure(terms):
    en = terms / "inference-latency.en.yaml"
    change(en, lambda d: d["examples"]["items"].pop())
    err = error_of(terms)
    assert err.path == "examples.items"
    assert err.problem.startswith("3 items here but 4 in the ko file (inference-latency.ko.yaml)")


def test_languages_must_share_ids_and_numbers(terms):
    def edits(d):
        d["examples"]["items"][1]["id"] = "captions"
        d["uses"]["items"][3]["budget_s"] = 0.3
    change(terms / "inference-latency.en.yaml", edits)
    problems = {e.path: e.problem for e in content.check(terms)}
    assert problems["examples.items[1].id"].startswith("'captions' here but 'live_captions' in the ko file")
    assert problems["uses.items[3].budget_s"].startswith("0.3 here but 0.5 in the ko file")
    with pytest.raises(ContentError, match=r"and 1 more problem in this file"):
        load_term("inference-latency", "en", terms)


def test_file_names_and_gaps_are_reported(terms):
    (terms / "inference-latency.en.yaml").unlink()
    (terms / "notes.yaml").write_text("a: b\n", encoding="utf-8")
    problems = [(Path(e.file).name, e.problem) for e in content.check(terms)]
    assert ("inference-latency.en.yaml", "file is missing: 'inference-latency' has no en entry") in problems
    assert ("notes.yaml", "file name must be <term-id>.<lang>.yaml, e.g. inference-latency.ko.yaml") in problems
    assert error_of(terms).problem == "file is missing: there is no en entry for 'inference-latency'"


@pytest.mark.parametrize("broken", LANGS)
def test_a_broken_language_never_breaks_another(terms, broken):
    (terms / f"inference-latency.{broken}.yaml").write_text("title: [unclosed\n", encoding="utf-8")
    assert error_of(terms, broken).problem.startswith("invalid YAML")
    for lang in LANGS:
        if lang != broken:
            assert load_term("inference-latency", lang, terms).lang == lang


def test_a_new_term_is_just_two_more_files(terms):
    new = "made-up-term"  # not a real entry, so the test holds whichever terms exist

    def as_new_term(d, lang):
        d.update(title=f"Made-up term {lang}")
        for section in ("related", "read_next"):  # no links: the real entries do not link back to it
            for item in d[section]["items"]:
                item["term"] = None

    for lang in LANGS:
        change_to = terms / f"{new}.{lang}.yaml"
        shutil.copy(terms / f"inference-latency.{lang}.yaml", change_to)
        change(change_to, lambda d: as_new_term(d, lang))
    assert content.term_ids(terms) == sorted([*content.term_ids(), new])
    assert content.check(terms) == []
    assert load_term(new, "en", terms).title == "Made-up term en"
    assert content.has_term(new, "ko", terms) and not content.has_term(new, "fr", terms)
    assert not content.has_term("../secrets", "ko", terms)


# --------------------------------------------------------------------------- the author's command
def test_check_command_prints_every_problem_and_fails(terms, capsys):
    change(terms / "inference-latency.en.yaml", lambda d: (d.pop("uses"), d.update(title=False)))
    assert content.main(["check", str(terms)]) == 1
    out = capsys.readouterr()
    assert "inference-latency.en.yaml: (top level): missing section 'uses'" in out.out
    assert "inference-latency.en.yaml: title: expected text, found the boolean false" in out.out
    assert "2 problems found." in out.err
    assert content.main(["chek"]) == 2


def test_check_command_runs_as_a_module():
    done = subprocess.run([sys.executable, "-m", "latency.content", "check"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("OK:")


# --------------------------------------------------------------------------- every term (issue 13 item 4)
HTTPS = re.compile(r"^https://[a-z0-9.-]+\.[a-z]{2,}(/\S*)?$", re.IGNORECASE)
PAGES_DIR = ROOT / "pages"


def link_values(term, names: tuple[str, ...]) -> list[str]:
    """Every value of the named fields anywhere in a term (sources, urls)."""
    out = []

    def walk(obj):
        if is_dataclass(obj):
            for f in fields(obj):
                v = getattr(obj, f.name)
                if f.name in names and isinstance(v, str):
                    out.append(v)
                walk(v)
        elif isinstance(obj, tuple):
            for v in obj:
                walk(v)

    walk(term)
    return out


@pytest.mark.parametrize("term_id", content.term_ids())
def test_every_term_has_every_section_in_every_language(term_id):
    reference = load_term(term_id, LANGS[0]).headings()
    for lang in LANGS:
        assert content.has_term(term_id, lang), f"{term_id} has no {lang} file"
        term = load_term(term_id, lang)
        assert term.headings().keys() == reference.keys() and all(term.headings().values())
        assert {t.id for t in term.role_tips.items} == {t.id for t in load_term(content.DEFAULT_TERM, lang).role_tips.items}
        for name in ("examples", "why_it_matters", "uses", "role_tips", "misconceptions", "phrases", "related", "read_next"):
            assert getattr(term, name).items, f"{term_id}.{lang}: {name} is empty"


@pytest.mark.parametrize("term_id", content.term_ids())
def test_no_korean_on_english_screens(term_id):
    for lang in LANGS:
        if lang != "ko":
            hangul = [s for s in strings(load_term(term_id, lang)) if HANGUL.search(s)]
            assert not hangul, hangul


@pytest.mark.parametrize("term_id,lang", TERM_LANGS)
def test_every_internal_link_resolves(term_id, lang):
    term = load_term(term_id, lang)
    known = content.term_ids()
    for link in (*term.related.items, *term.read_next.items):
        assert link.term is None or link.term in known, f"{link.name} -> {link.term}"
    for tool in term.tools.items if term.tools else ():
        assert (PAGES_DIR / f"{tool.page}.py").is_file(), tool.page
    for link in term.related.items:  # both ways: the linked entry lists this one in its related terms
        if link.term in known and link.term != term_id:
            back = {l.term for l in load_term(link.term, lang).related.items}
            assert term_id in back, f"{link.term} does not link back to {term_id}"


@pytest.mark.parametrize("term_id,lang", TERM_LANGS)
def test_every_source_link_is_a_well_formed_https_address(term_id, lang):
    term = load_term(term_id, lang)
    for url in link_values(term, ("source", "url")):
        assert HTTPS.match(url), url


@pytest.mark.parametrize("term_id", [t for t in content.term_ids() if load_term(t, "ko").seed is None])
def test_new_entries_source_or_check_every_number(term_id):
    for lang in LANGS:
        assert content.cross_problems(load_term(term_id, lang), content.term_ids()) == []
    assert load_term(term_id, "ko").checks(), "an entry with no claim checked by the estimator"


# --------------------------------------------------------------------------- claim checks, sources, tools: named errors
def add_check(terms: Path, check: str, lang: str = "ko") -> ContentError:
    """Add a check to the third example (exam grading: no checks yet) and return the error it causes."""
    file = terms / f"inference-latency.{lang}.yaml"
    edit(file, "    - id: support_chatbot\n", f"      checks:\n        - {check}\n    - id: support_chatbot\n")
    return error_of(terms, lang)


@pytest.mark.parametrize("check,where,problem", [
    ("{id: a, measure: ttft, scenarios: [{modle_size_b: 8.03}], bound: {max: 1}}",
     "examples.items[2].checks[0].scenarios[0].modle_size_b", "did you mean 'model_size_b'?"),
    ("{id: a, measure: ttft, scenarios: [{model_size_b: 9}], bound: {max: 1}}",
     "examples.items[2].checks[0].scenarios[0].model_size_b", "not a slider step"),
    ("{id: a, measure: ttft, scenarios: [{hardware: h1000}], bound: {max: 1}}",
     "examples.items[2].checks[0].scenarios[0].hardware", "'h1000' is not accepted"),
    ("{id: a, measure: ttft, scenarios: [{distance_km: 1234}], bound: {max: 1}}",
     "examples.items[2].checks[0].scenarios[0].distance_km", "not a distance step"),
    ("{id: a, measure: speed, scenarios: [{}], bound: {max: 1}}", "examples.items[2].checks[0].measure", "expected one of"),
    ("{id: a, measure: ttft, scenarios: [{concurrency: 2}], bound: {max: 1}, versus: {concurrency: 1}, expect: lower}",
     "examples.items[2].checks[0]", "exactly one relation"),
    ("{id: a, measure: ttft, scenarios: [{concurrency: 2}], versus: {concurrency: 1}}",
     "examples.items[2].checks[0].expect", "versus and expect go together"),
    ("{id: a, row: latency, measure: ttft, scenarios: [{concurrency: 2}], bound: {max: 1}}",
     "examples.items[2].checks[0].row", "only for checks on comparison.classes"),
    ("{id: a, measure: total, scenarios: representative}",
     "examples.items[2].checks[0].scenarios", "only for comparison classes"),
    ("{id: a, measure: ttft, scenarios: [{concurrency: 2}], bound: {min: 2, max: 1}}",
     "examples.items[2].checks[0].bound.min", "larger than max"),
])
def test_a_broken_check_is_named(terms, check, where, problem):
    err = add_check(terms, check)
    assert err.path == where and problem in err.problem, err


def test_a_check_missing_in_one_language_is_reported_there(terms):
    edit(terms / "inference-latency.ko.yaml", "    - id: support_chatbot\n",
         "      checks:\n        - {id: a, measure: ttft, scenarios: [{concurrency: 2}], bound: {max: 1}}\n    - id: support_chatbot\n")
    err = error_of(terms, "en")
    assert err.path == "examples.items[2].checks" and "in the ko file" in err.problem


def test_a_source_must_be_https(terms):
    edit(terms / "inference-latency.ko.yaml", "      measure: ttft\n", '      measure: ttft\n      source: "http://example.com/x"\n')
    err = error_of(terms, "ko")
    assert err.path == "examples.items[0].source" and "https://" in err.problem


def test_a_number_without_source_and_links_one_way_are_reported(terms):
    for lang in LANGS:
        change(terms / f"batch-inference.{lang}.yaml", lambda d: (d["examples"]["items"][0].pop("source"),
                                                                  d["related"]["items"].pop(0)))
    problems = [(Path(e.file).name, e.path, e.problem) for e in content.check(terms)]
    assert ("batch-inference.ko.yaml", "examples.items[0]",
            "states a number but has no source: add source: https://… or a claim check") in problems
    assert any(f == "batch-inference.ko.yaml" and p == "related.items" and "'inference-latency' links here" in msg
               for f, p, msg in problems)


def test_korean_on_an_english_page_is_reported(terms):
    change(terms / "batch-inference.en.yaml", lambda d: d["summary"].update(takeaway="배치 is the key."))
    problems = [(Path(e.file).name, e.path) for e in content.check(terms)]
    assert ("batch-inference.en.yaml", "summary.takeaway") in problems


def test_a_tool_view_must_exist_on_its_page(terms):
    edit(terms / "batch-inference.ko.yaml", "concurrency: 32, view: concurrency}", "concurrency: 32, view: timeline}")
    err = error_of(terms, "ko", "batch-inference")
    assert err.path == "tools.items[0].query.view" and "not a view of the tradeoffs page" in err.problem
