"""One vocabulary (content/vocabulary.yaml, latency/language/vocabulary.py): every idea has one name per
language, and `python -m latency.content check` refuses a refused synonym anywhere in the app's own
text, the entry's quoted source text aside (issue 26, item 3)."""

from __future__ import annotations

import shutil

import pytest

from latency.language import vocabulary
from latency.language.errors import PROJECT_DIR
from latency.language.i18n import LANGS
from latency.teaching import content

NAMES = vocabulary.load()


def test_every_idea_has_one_name_in_every_language():
    ideas = {n.idea for n in NAMES}
    assert {"ttft", "total"} <= ideas
    for idea in ideas:
        assert sorted(n.lang for n in NAMES if n.idea == idea) == sorted(LANGS), idea


@pytest.mark.parametrize("name", NAMES, ids=[f"{n.idea}-{n.lang}" for n in NAMES])
def test_the_app_uses_no_refused_word(name):
    found = [e for e in vocabulary.problems() if f"'{name.idea}'" in e.problem and e.file.endswith(f".{name.lang}.yaml") or
             (f"'{name.idea}'" in e.problem and f"{name.lang}" in e.path)]
    assert not found, [str(e) for e in found]


@pytest.fixture
def root(tmp_path):
    shutil.copytree(PROJECT_DIR / "content", tmp_path / "content")
    return tmp_path


@pytest.mark.parametrize("name", [n for n in NAMES if n.refuse], ids=[f"{n.idea}-{n.lang}" for n in NAMES if n.refuse])
def test_a_refused_word_in_a_ui_string_is_named(root, name):
    file = root / "content" / "ui" / "glossary.yaml"
    file.write_text(file.read_text(encoding="utf-8") + f'planted:\n  {name.lang}: "x {name.refuse[0]} y"\n'
                    + "".join(f'  {o}: "x"\n' for o in LANGS if o != name.lang), encoding="utf-8")
    (err,) = vocabulary.problems(root)
    assert err.path == f"planted.{name.lang}" and name.use in err.problem and name.refuse[0] in err.problem


def test_the_quoted_source_text_keeps_its_words_and_translations_do_not(root):
    ko = root / "content" / "terms" / f"{content.DEFAULT_TERM}.ko.yaml"
    ko.write_text(ko.read_text(encoding="utf-8").replace('title: "', 'title: "첫 응답 ', 1), encoding="utf-8")
    assert vocabulary.problems(root) == []  # the Korean entry is the seed text, quoted as it is
    en = root / "content" / "terms" / "batch-inference.ko.yaml"
    en.write_text(en.read_text(encoding="utf-8").replace('title: "', 'title: "첫 응답 ', 1), encoding="utf-8")
    (err,) = vocabulary.problems(root)
    assert err.file.endswith("batch-inference.ko.yaml") and err.path == "title"


def test_the_check_command_reports_it(root, monkeypatch, capsys):
    """`python -m latency.content check` (latency.teaching.content.main) prints the vocabulary's problems and fails."""
    file = root / "content" / "lesson.yaml"
    file.write_text(file.read_text(encoding="utf-8").replace('en: "', 'en: "full answer ', 1), encoding="utf-8")
    real = vocabulary.problems
    monkeypatch.setattr(vocabulary, "problems", lambda: real(root))
    assert content.main(["check"]) == 1
    assert "'full answer' names the idea 'total'" in capsys.readouterr().out


@pytest.mark.parametrize("idea, lang, word", [
    ("ttft", "ko", "첫 글자"),      # issue 26 item 3: a learner met 첫 토큰 / 첫 응답 / 첫 글자 for one idea
    ("ttft", "en", "first word"),   # also catches "first words"
    ("total", "en", "total time"),
    ("total", "ko", "답 전체"),     # the translated entries' own form of 답변 전체
])
def test_the_other_names_for_first_token_and_whole_answer_are_refused(root, idea, lang, word):
    """Written from the issue's list of synonyms, not from the vocabulary file: each must be refused in a
    translated term entry, and the entry's quoted source text (the Korean inference-latency file) keeps its words."""
    assert any(n.idea == idea and n.lang == lang and word in n.refuse for n in NAMES)
    term = root / "content" / "terms" / f"batch-inference.{lang}.yaml"
    term.write_text(term.read_text(encoding="utf-8").replace('title: "', f'title: "{word}s ', 1), encoding="utf-8")
    (err,) = vocabulary.problems(root)
    assert err.file.endswith(f"batch-inference.{lang}.yaml") and f"'{idea}'" in err.problem


@pytest.mark.parametrize("text, plain", [
    ("버스는 여러 사람을 한 번에 태운다.", ["버스는 여러 사람을 한 번에 태운다."]),
    ("배치 추론이 바로 버스다. AI도 같다.", ["배치 추론이 바로 버스다.", "AI도 같다."]),
    ("요리한 시간이 아니다.", ["요리한 시간이 아니다."]),
    ("기다림이 덜 느껴진다(Nielsen Norman Group).", ["기다림이 덜 느껴진다(Nielsen Norman Group)."]),
    ("메모리가 정한다", ["메모리가 정한다"]),                 # a list item without a full stop
    ("버스입니다. 줄어듭니다! 따로 관리합시다.", []),        # 합니다체 and its 청유형
    ("요청 수를 정합니다\n- 토큰 하나당 시간", []),
    ("'첫 토큰 1초, 답변 완료 10초'처럼 두 숫자로 정하면 오해가 줄어듭니다.", []),
])
def test_a_sentence_in_handa_style_is_found(text, plain):
    from latency.language.korean import plain_style_sentences

    assert plain_style_sentences(text) == plain


def test_the_app_speaks_one_korean_style_and_a_plain_style_sentence_is_named(root):
    """The 30-second summary was in 한다체 and the body in 합니다체 (issue 26, item 3): the check names any
    한다체 sentence of the app's own; a myth (a belief as people say it) and the quoted source text keep theirs."""
    assert [e for e in vocabulary.problems() if "한다체" in e.problem] == []
    term = root / "content" / "terms" / "batch-inference.ko.yaml"
    text = term.read_text(encoding="utf-8")
    assert "태웁니다." in text
    term.write_text(text.replace("태웁니다.", "태운다.", 1), encoding="utf-8")
    (err,) = vocabulary.problems(root)
    assert err.path == "summary.text" and "한다체" in err.problem
    term.write_text(text, encoding="utf-8")
    myth = root / "content" / "lesson.yaml"
    assert "해결된다." in myth.read_text(encoding="utf-8")  # a myth, quoted as people say it
    seed = root / "content" / "terms" / f"{content.DEFAULT_TERM}.ko.yaml"
    seed.write_text(seed.read_text(encoding="utf-8").replace('title: "', 'title: "이것이 지연 시간이다. ', 1), encoding="utf-8")
    assert vocabulary.problems(root) == []
