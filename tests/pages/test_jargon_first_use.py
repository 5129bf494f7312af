"""Jargon explained where it is first met (issue 26, item 4): on the pages a non-developer reaches, every
word of the issue's list that the screen shows has its plain-words line (content/ui/plain_words.yaml,
"**word**: ...") on that screen, at or before the first text that uses it. The words and their forms are
written here from the issue, not read from the page's own list."""

from __future__ import annotations

import re

import pytest

from latency.teaching import lesson
from tests.conftest import run_page
from tests.pages.test_hostile_urls import rendered_strings

# word as the screens write it -> the head its plain-words line starts with
JARGON = {
    "ko": {"토큰": "**토큰**", "가중치": "**가중치**", "메모리 대역폭": "**메모리 대역폭", "연산 성능": "**연산 성능**",
           "배치": "**배치", "리전": "**리전**", "INT8": "**INT8", "INT4": "**INT4"},
    "en": {"token": "**token**", "weights": "**weights**", "memory bandwidth": "**memory bandwidth", "compute": "**compute",
           "batch": "**batch", "region": "**region**", "INT8": "**int8", "INT4": "**int4"},
}


def _uses(text: str, word: str, lang: str) -> bool:
    if lang == "ko" and not word.isascii():
        return word in text
    return re.search(rf"(?<![A-Za-z0-9_-]){re.escape(word)}(s|es)?(?![A-Za-z0-9_-])", text, re.IGNORECASE) is not None


def _shown(at) -> list[str]:
    """The texts a reader sees, in page order (no JSON configs, icons, URLs or widget ids)."""
    return [t for t in rendered_strings(at)
            if not t.startswith(("{", ":material/", "<script")) and not ("=" in t and " " not in t) and len(t) > 1]


def undefined_at_first_use(at, lang: str, skip_first: int = 0) -> list[str]:
    texts = _shown(at)[skip_first:]
    out = []
    for word, head in JARGON[lang].items():
        first = next((i for i, t in enumerate(texts) if _uses(t, word, lang)), None)
        if first is None:
            continue
        defined = next((i for i, t in enumerate(texts) if head.lower() in t.lower()), None)
        if defined is None or defined > first:
            out.append(f"{word}: first used in {texts[first][:90]!r}, defined {'nowhere' if defined is None else 'later'}")
    return out




@pytest.mark.parametrize("step", range(1, 9))
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_every_lesson_step_defines_its_jargon_before_it_is_met(lang, step):
    at = run_page("lesson", lang, {"step": str(step)})
    assert not at.exception
    assert undefined_at_first_use(at, lang) == []


@pytest.mark.parametrize("page, query", [("", {}), ("learn", {}), ("learn", {"term": "batch-inference"}),
                                         ("learn", {"term": "model-compression"}), ("estimator", {}), ("tradeoffs", {})])
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_glossary_entries_and_explorer_define_their_jargon_before_it_is_met(lang, page, query):
    at = run_page(page, lang, query)
    assert not at.exception
    title = 1 if page == "learn" else 0  # a term entry's own title is its subject, explained by the page itself
    texts = _shown(at)
    skip = texts.index(at.title[0].value) + title if title else 0
    assert undefined_at_first_use(at, lang, skip) == []


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_lessons_chips_carry_a_plain_class(lang):
    """'Apple M4 Max' or 'B200' means nothing to a newcomer: on the hardware step every chip says what kind it
    is (the classes written here from the issue)."""
    at = run_page("lesson", lang, {"step": "5"})
    assert not at.exception
    (slider,) = [w for w in at.select_slider]
    # the catalog's device classes (issue 31 item 4: where the device runs, with a source)
    classes = {"ko": ("노트북", "데스크톱", "데이터센터"), "en": ("laptop", "desktop", "data centre")}[lang]
    assert all(any(c in o for c in classes) for o in slider.options), slider.options
    assert all(any(c in o for o in slider.options) for c in classes)


@pytest.mark.parametrize("page", ["estimator", "tradeoffs"])
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_explorer_word_list_holds_every_word_its_page_shows(lang, page):
    """The explorer pages list their words up front (ui/plain_words.py); every plain-words entry whose word
    the opened page shows (latency/language/jargon.py over the rendered texts) is on that list."""
    from latency.language import i18n
    from ui import plain_words

    at = run_page(page, lang)
    assert not at.exception
    listed = {"estimator": plain_words.ESTIMATOR_TERMS, "tradeoffs": plain_words.TRADEOFF_TERMS}[page]
    used = plain_words.met(i18n.strings("plain_words", lang), _shown(at))
    assert [t for t in used if t not in listed] == []
