"""Korean particles (조사) chosen by how the word before them is read.

Korean particles come in pairs, one for a word whose last syllable ends in a consonant (받침) and
one for a word that ends in a vowel: 을/를, 은/는, 이/가, 과/와, 으로/로, 이에요/예요 ... A template
cannot know which one a value needs ("5초를" but "8B를", "H100을"), so content authors write the
particle as the placeholder's format spec and the formatter picks the form:

    ko: "{budget:을} 넘으면"      budget="5초"   -> "5초를 넘으면"
    ko: "{speed:은} {tps:으로}"   speed="속도", tps="4.34 토큰" -> "속도는 4.34 토큰으로"

Either form of a pair names it ("{x:을}" and "{x:를}" are the same). In English strings the spec is
ignored, so a template's two languages keep the same placeholders. `format_text` is what
`latency.language.i18n.Strings` calls; `josa(word, "을")` is the underlying choice.

How a value is read decides the particle, not how it is written:
- Hangul: by the last syllable's 받침 (ㄹ counts as "no 받침" for 으로/로: "서울로", "1일로").
- Digits: as read in Sino-Korean: 0 영, 1 일, 2 이, 3 삼, 4 사, 5 오, 6 육, 7 칠, 8 팔, 9 구; trailing
  zeros by their place: 10 십, 100 백, 1,000 천, 10,000 만, 10^8 억, 10^12 조. Decimals by the last digit.
- Units after a number by their Korean reading (`UNIT_READINGS`): "80 GB" 기가바이트, "12 km" 킬로미터,
  "0.2 s" 초, "30%" 퍼센트, "2.2×" 배; "$5" is read "5달러".
- Latin letters: acronyms letter by letter ("SXM" ... 엠, "SLA" ... 에이, "8B" 비); other English
  words by a rough rule for loanwords (ending in l -> ㄹ; m, n, ng, k, c, p, t -> 받침; else none).
- Anything after the word that is not read (closing quotes, brackets, a trailing parenthesis
  "스마트폰 (A17)") is skipped: the particle follows the word outside the parenthesis.
Pure Python, no dependencies.
"""

from __future__ import annotations

import re
import string
from typing import Any, Mapping

# (form after a final consonant, form after a vowel). ㄹ-final words take the vowel form of 으로/로.
PAIRS: tuple[tuple[str, str], ...] = (
    ("을", "를"), ("은", "는"), ("이", "가"), ("과", "와"), ("으로", "로"),
    ("이에요", "예요"), ("이라", "라"), ("이나", "나"), ("이랑", "랑"), ("이면", "면"), ("아", "야"),
)
_PAIR_OF: dict[str, tuple[str, str]] = {form: pair for pair in PAIRS for form in pair}

_HANGUL_FIRST, _HANGUL_LAST = 0xAC00, 0xD7A3
_RIEUL = 8  # index of ㄹ among the 28 final-consonant slots

DIGIT_READINGS = {"0": "영", "1": "일", "2": "이", "3": "삼", "4": "사", "5": "오", "6": "육", "7": "칠", "8": "팔", "9": "구"}
PLACE_READINGS = {1: "십", 2: "백", 3: "천"}
BIG_PLACE_READINGS = {1: "만", 2: "억", 3: "조", 4: "경"}
LETTER_READINGS = {
    "a": "에이", "b": "비", "c": "씨", "d": "디", "e": "이", "f": "에프", "g": "지", "h": "에이치",
    "i": "아이", "j": "제이", "k": "케이", "l": "엘", "m": "엠", "n": "엔", "o": "오", "p": "피",
    "q": "큐", "r": "알", "s": "에스", "t": "티", "u": "유", "v": "브이", "w": "더블유", "x": "엑스",
    "y": "와이", "z": "지",
}
# Units that follow a number, by their Korean reading; the longest match wins.
UNIT_READINGS = {
    "GB": "기가바이트", "TB": "테라바이트", "MB": "메가바이트", "KB": "킬로바이트", "B": "비",
    "GB/s": "기가바이트", "TB/s": "테라바이트",
    "km": "킬로미터", "m": "미터", "km/ms": "킬로미터", "ms": "밀리초", "µs": "마이크로초", "us": "마이크로초",
    "s": "초", "h": "시간", "min": "분", "%": "퍼센트", "×": "배", "x": "배",
    "FLOP": "플롭", "FLOPs": "플롭스", "TFLOP/s": "테라플롭스", "W": "와트", "tok/s": "토큰",
}
_TRAILING_SKIP = " \t\n\"'”’»」』)]}.,!?:;…*_`"
_PAREN_TAIL = re.compile(r"\s*[(\[][^()\[\]]*[)\]]\s*$")
_NUMBER_TAIL = re.compile(r"(\d[\d,]*)(?:\.(\d+))?\s*(\S*)$")
_LATIN_TAIL = re.compile(r"([A-Za-z]+)$")
_DIGITS_END = re.compile(r"(\d[\d,]*)(?:\.(\d+))?$")


def _final_of_syllable(ch: str) -> int | None:
    """Index (0 = none) of a Hangul syllable's final consonant, None for anything else."""
    code = ord(ch)
    if _HANGUL_FIRST <= code <= _HANGUL_LAST:
        return (code - _HANGUL_FIRST) % 28
    return None


def read_number(integer: str, decimals: str | None = None) -> str:
    """The last syllables of a number as read in Korean: "1" 일, "10" 십, "2.5" 오, "10,000" 만."""
    if decimals:
        return DIGIT_READINGS[decimals[-1]]
    digits = integer.replace(",", "").lstrip("0") or "0"
    if digits == "0":
        return "영"
    zeros = len(digits) - len(digits.rstrip("0"))
    if zeros == 0:
        return DIGIT_READINGS[digits[-1]]
    if zeros < 4:
        return PLACE_READINGS[zeros]
    return BIG_PLACE_READINGS.get(zeros // 4, "경")  # 100,000 is 십만: read last is the big place


def _read_latin(word: str) -> str:
    """A rough Korean reading of the end of a Latin word: acronyms letter by letter."""
    if word.isupper() or len(word) == 1:
        return LETTER_READINGS[word[-1].lower()]
    w = word.lower()
    if w.endswith("ng"):
        return "앙"  # any syllable with ㅇ
    if w[-1] == "l":
        return "엘"
    if w[-1] in "mnkcpt":
        return "엠"  # any syllable with a (non-ㄹ) final consonant
    return "아"


def reading_tail(word: str) -> str:
    """The last syllable(s) of `word` as read in Korean, or "" when it cannot be read."""
    text = str(word)
    while True:
        stripped = _PAREN_TAIL.sub("", text)
        stripped = stripped.rstrip(_TRAILING_SKIP)
        if stripped == text or not stripped:
            text = stripped or text.rstrip(_TRAILING_SKIP)
            break
        text = stripped
    if not text:
        return ""
    if _final_of_syllable(text[-1]) is not None:
        return text[-1]
    if text.lstrip().startswith("$") and text[-1].isdigit():
        return "러"  # "$5" is read "5달러"
    match = _DIGITS_END.search(text)  # ends in digits: read them ("H9Y9M3" ... 삼), whatever stands before
    if match:
        return read_number(*match.groups())
    match = _NUMBER_TAIL.search(text)
    if match:
        integer, decimals, unit = match.groups()
        if not unit:
            return read_number(integer, decimals)
        if unit in UNIT_READINGS:
            return UNIT_READINGS[unit]
    latin = _LATIN_TAIL.search(text)
    if latin:
        return _read_latin(latin.group(1))
    if text[-1] in UNIT_READINGS:
        return UNIT_READINGS[text[-1]]
    return ""


def josa(word: object, particle: str) -> str:
    """The form of `particle` (either form of a pair: "을" or "를") that follows `word`.

    >>> josa("5초", "을"), josa("H100", "을"), josa("서울", "으로"), josa("1", "으로")
    ('를', '을', '로', '로')
    """
    pair = _PAIR_OF.get(particle)
    if pair is None:
        raise ValueError(f"unknown Korean particle {particle!r}; known: {sorted(_PAIR_OF)}")
    with_final, without_final = pair
    tail = reading_tail(str(word))
    final = _final_of_syllable(tail[-1]) if tail else None
    if final is None or final == 0:  # unreadable tails take the vowel form, like most loanwords
        return without_final
    if with_final == "으로" and final == _RIEUL:
        return without_final
    return with_final


def attach(word: object, particle: str) -> str:
    """`word` followed by the right form of `particle`: attach("5초", "을") == "5초를"."""
    return f"{word}{josa(word, particle)}"


class _Formatter(string.Formatter):
    """str.format that reads a Korean particle as a format spec: "{x:을}"."""

    def __init__(self, lang: str):
        super().__init__()
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec in _PAIR_OF:
            return str(value) + (josa(value, format_spec) if self.lang == "ko" else "")
        return super().format_field(value, format_spec)


_FORMATTERS = {lang: _Formatter(lang) for lang in ("ko", "en")}


def format_text(text: str, lang: str, fmt: Mapping[str, Any]) -> str:
    """`text.format(**fmt)` where a placeholder may carry a particle spec ("{budget:을}")."""
    if ":" not in text:  # no format spec at all: plain str.format, ~20x faster than a Formatter
        return text.format_map(fmt)
    return _FORMATTERS.get(lang, _FORMATTERS["en"]).vformat(text, (), fmt)


def is_particle_spec(spec: str) -> bool:
    """True when a placeholder's format spec names a Korean particle (content validation uses it)."""
    return spec in _PAIR_OF


# --- one style for the app's own sentences (issue 26, item 3) -------------------------------------
# The app speaks 합니다체 ("...입니다.", "...줄어듭니다.", "...합시다."); a sentence that ends in the plain
# 한다체 ("...줄어든다.", "...버스다.", "...있다.", "...아니다.") is refused by `python -m latency.content check`
# (latency/language/vocabulary.py). A sentence ends at . ! ? or a line break; a closing quote, bracket or a
# trailing citation in parentheses ("...느껴진다(Nielsen Norman Group).") is looked through.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
_PLAIN_STYLE_END = re.compile(r"(?:(?<![니시])다|아니다)$")


def plain_style_sentences(text: str) -> list[str]:
    """The sentences of `text` that end in 한다체 rather than the app's 합니다체."""
    out = []
    for sentence in _SENTENCE_END.split(text):
        tail = sentence.rstrip(" \t\n.,!?:;…*_`")
        while _PAREN_TAIL.search(tail):
            tail = _PAREN_TAIL.sub("", tail).rstrip(" \t\n.,!?:;…*_`")
        tail = tail.rstrip(_TRAILING_SKIP)
        if _PLAIN_STYLE_END.search(tail):
            out.append(sentence.strip())
    return out
