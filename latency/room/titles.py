"""The room's short question titles (content/ui/lesson.yaml `room_short_<question id>`, shown on
the results screen) held to their questions. Pure Python (never imports streamlit).

Presenter trial, round 3: question 8 had become "a 1B model on one H100 vs a 70B model on four
H100s", and the results screen still called it "Small desktop vs big cluster". Two checks:

- `named_problems`: a short title names nothing its question does not. Every model size, chip,
  count or other token with a digit or a capital Latin letter ("70B", "H100", "L4", "32") and every
  word of `THINGS` (the kinds of machine and task a title might name) that stands in a title must
  stand in its question's text (the question and its options' labels) in the same language.
- `review_problems`: a short title was read against its question as it is now. `REVIEWED` holds,
  per question, a fingerprint of the question's texts (both languages) taken when its short title
  was last checked by a person; a question edited since then is named until its title is checked
  again and the fingerprint updated. This is what catches a title that is stale in a way no word
  list can see.
"""

from __future__ import annotations

import hashlib
import re
from typing import Mapping, Sequence

LANGS = ("ko", "en")

# Words a short title may use to name a kind of machine, place or task; each must then be in the question.
THINGS = {
    "en": ("laptop", "desktop", "cluster", "datacenter", "phone", "autocomplete", "chat", "report", "gpu", "cpu",
           "seoul", "tokyo", "us west", "pangyo"),
    "ko": ("노트북", "데스크톱", "클러스터", "데이터센터", "휴대폰", "자동완성", "채팅", "보고서", "GPU", "CPU",
           "서울", "도쿄", "미국 서부", "판교"),
}
_NAMED = re.compile(r"[0-9A-Za-z.,]*[0-9A-Z][0-9A-Za-z.,]*")

# question id -> fingerprint of its texts when its short title was last read against it (see module doc)
REVIEWED: dict[str, str] = {
    "q01-far-big-vs-near-small": "0024c91f309d",
    "q02-first-token-far-vs-near": "5a6765fe39a4",
    "q03-how-long-chat-answer": "ce1c0764f2d7",
    "q04-biggest-stage-chat": "9ccc0b083fa3",
    "q05-autocomplete-far": "d7048602856d",
    "q06-laptop-vs-datacenter": "66d5e3ad00e1",  # re-read 2026-12-04: "data centre" spelled as the vocabulary has it
    "q07-first-token-us-west": "00b51f9e2834",
    "q08-small-desktop-vs-big-cluster": "f1888d6f4d79",
    "q09-how-long-405b": "598ba621c5f3",  # 2026-12-06: FP8 named in the question; the title still fits
    "q10-many-users-biggest-stage": "4269565b9baa",  # 2026-12-06: "가장 큰 단계" -> "시간이 가장 많이 드는 단계" (newcomer re-check); title reworded to match
    "q11-far-small-vs-near-big-first-token": "43aa5f0d8e87",
    "q12-long-answer-small-gpu": "f619b615b332",
}


def question_text(question: Mapping[str, str], labels: Sequence[Mapping[str, str]], lang: str) -> str:
    return " ".join([question[lang], *(x[lang] for x in labels)])


def fingerprint(question: Mapping[str, str], labels: Sequence[Mapping[str, str]]) -> str:
    """12 hex digits of SHA-256 over the question's and its options' texts in every language."""
    text = "\n".join(question_text(question, labels, lang) for lang in LANGS)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def named(title: str, lang: str) -> list[str]:
    """What a short title names: tokens with a digit or a capital letter, and words of THINGS."""
    found = [t.strip(".,") for t in _NAMED.findall(title) if any(ch.isdigit() for ch in t) or t.isupper()]
    low = title.lower()
    found += [w for w in THINGS[lang] if w.lower() in low and w.lower() not in {f.lower() for f in found}]
    return found


def named_problems(qid: str, title: Mapping[str, str], question: Mapping[str, str],
                   labels: Sequence[Mapping[str, str]]) -> list[str]:
    """Each thing the short title names that its question does not, as a sentence."""
    out = []
    for lang in LANGS:
        text = question_text(question, labels, lang).lower()
        missing = [w for w in named(title[lang], lang) if w.lower() not in text]
        if missing:
            out.append(f"{lang}: the short title {title[lang]!r} names {', '.join(map(repr, missing))}, "
                       f"which question {qid} does not")
    return out


def review_problems(qid: str, question: Mapping[str, str], labels: Sequence[Mapping[str, str]],
                    reviewed: Mapping[str, str] | None = None) -> list[str]:
    """The question changed (or is new) since its short title was read against it."""
    now = fingerprint(question, labels)
    if (REVIEWED if reviewed is None else reviewed).get(qid) == now:
        return []
    return [f"question {qid} changed since its short title was checked against it: read the title against the "
            f"question, fix it if it no longer fits, then set latency/room/titles.py REVIEWED[{qid!r}] = {now!r}"]
