"""One definition of the term everywhere (issue 34 item 2): the source entry's own, network included (from the
moment the request is sent until the answer comes back); 응답 속도 relates to it as the source's related-terms
line says ("사용자 체감 대기 시간과 거의 같지만, 네트워크 지연까지 포함할 때 차이가 있다"); the lesson, the
how-it-works page and every entry agree. The test reads each entry's definition sentences: every sentence of
any entry, the lesson, the quiz and the how page that says what inference latency IS."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from latency.language import i18n
from latency.language.i18n import LANGS
from latency.teaching import content

SEED = Path(__file__).resolve().parents[3] / "shared" / "seed" / "inference-latency.ko.txt"
TERM = {"ko": "추론 지연 시간", "en": "inference latency"}
# a sentence says what the term IS when the term is its subject ("추론 지연 시간은 ...", "Inference latency is
# ...") or when it is glossed in brackets ("... 시간(추론 지연 시간)")
DEFINES = {"ko": re.compile(r"추론 지연 시간(은|이란)\s[^.]*시간(입니다|이다|이며|이고|을 의미)|\(추론 지연 시간\)|추론 지연 시간\("),
           "en": re.compile(r"\binference latency (is|means) (the|a) [^.]*\b(time|wait)\b|\(inference latency\)|\binference latency \(", re.I)}
# what the source's definition says, in the sentence's own words: from the request being sent to the answer,
# the network counted in (or the source's definition sentence itself)
SAYS_NETWORK = {"ko": re.compile(r"(요청|질문)을 보낸 순간부터|질문하고 답을 받기까지|네트워크"),
                "en": re.compile(r"from the moment .* (sent|send)|between asking .* and getting|network", re.I)}
# the old second definition (issue 34: "응답 속도 가운데 모델이 계산하는 부분")
ONLY_THE_MODEL = {"ko": re.compile(r"모델이 계산하는 (부분|시간)"), "en": re.compile(r"the model spends computing|part .* the model", re.I)}


def _sentences(text: str) -> list[str]:
    return [x.strip() for x in re.split(r"(?<=[.!?。])\s+|\n+", text) if x.strip()]


def _texts(lang: str) -> list[tuple[str, str]]:
    """(where, text) for every text a reader meets: each entry, the lesson, the quiz, the how page."""
    out = []
    for term_id in content.term_ids():
        raw = yaml.safe_load(content.term_file(term_id, lang).read_text(encoding="utf-8"))
        out += [(f"{term_id}.{lang}", t) for t in _strings(raw)]
    lesson = yaml.safe_load((i18n.CONTENT_DIR / "lesson.yaml").read_text(encoding="utf-8"))
    out += [("lesson", t) for t in _strings(lesson, lang)]
    for q in sorted((i18n.CONTENT_DIR / "quiz").glob("*.yaml")):
        out += [(q.name, t) for t in _strings(yaml.safe_load(q.read_text(encoding="utf-8")), lang)]
    for area in ("how", "lesson", "glossary", "learn"):
        out += [(f"ui/{area}", v) for v in i18n.strings(area, lang).table.values()]
    return [(where, text.replace("**", "")) for where, text in out]  # bold marks are not words


def _strings(value, lang: str | None = None):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        if lang and set(value) <= set(LANGS) and lang in value:
            yield from _strings(value[lang], lang)
            return
        for v in value.values():
            yield from _strings(v, lang)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v, lang)


def test_the_entry_keeps_the_sources_definition_word_for_word():
    source = SEED.read_text(encoding="utf-8").splitlines()[1]
    assert content.load_term("inference-latency", "ko").definition == source


@pytest.mark.parametrize("lang", LANGS)
def test_every_sentence_that_defines_the_term_counts_the_network(lang):
    """A text (a definition, a step's body, a line) that says what the term is: that text counts the network or
    the whole trip from sending to the answer (the source's definition does so in its second sentence)."""
    defining = [(where, text) for where, text in _texts(lang) if any(DEFINES[lang].search(x) for x in _sentences(text))]
    assert len(defining) >= 4, defining  # the entry, 응답 속도, the lesson, the how page at least
    wrong = [(w, x) for w, x in defining if not SAYS_NETWORK[lang].search(x) or ONLY_THE_MODEL[lang].search(x)]
    assert not wrong, wrong
    places = {w.split(".")[0] for w, _ in defining}
    assert {"inference-latency", "response-speed", "lesson", "ui/how"} <= places, places


@pytest.mark.parametrize("lang", LANGS)
def test_no_text_calls_the_term_the_models_computing_time(lang):
    wrong = [(w, x) for w, text in _texts(lang) for x in _sentences(text)
             if TERM[lang].lower() in x.lower() and ONLY_THE_MODEL[lang].search(x)]
    assert not wrong, wrong


@pytest.mark.parametrize("lang", LANGS)
def test_response_speed_relates_to_the_term_as_the_sources_related_line_says(lang):
    """"응답 속도 — 사용자 체감 대기 시간과 거의 같지만, 네트워크 지연까지 포함할 때 차이가 있다": almost the same
    wait; the difference is in counting the network delay."""
    entry = content.load_term("response-speed", lang)
    same, network = {"ko": ("거의 같", "네트워크 지연"), "en": ("almost the same", "network delay")}[lang]
    assert same in entry.definition and network in entry.definition and TERM[lang] in entry.definition.lower()
    source_line = next(x for x in content.load_term("inference-latency", lang).related.items if x.term == "response-speed")
    if lang == "ko":
        assert source_line.text == "사용자 체감 대기 시간과 거의 같지만, 네트워크 지연까지 포함할 때 차이가 있다"
    back = next(x for x in entry.related.items if x.term == "inference-latency")
    assert same in back.text and SAYS_NETWORK[lang].search(back.text), back.text
