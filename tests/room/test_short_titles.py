"""The results screen's short titles name their questions (presenter trial, round 3, item 2: question
8 had become "a 1B model on one H100 vs a 70B model on four H100s" and its row still read "Small
desktop vs big cluster"). Expected values: the content files themselves."""

from __future__ import annotations

import pytest

from latency.estimation.catalog import load_catalog
from latency.estimation.places import load_stops
from latency.language.i18n import load_area
from latency.room import titles
from latency.teaching import lesson, quiz

CATALOG, STOPS = load_catalog(), load_stops()
QUESTIONS = quiz.load_quiz(CATALOG, STOPS, lesson.load_lesson(CATALOG, STOPS))
WORDS = load_area("lesson")
STALE_Q8 = {"ko": "작은 데스크톱 대 큰 클러스터", "en": "Small desktop vs big cluster"}  # what the trial's results screen read


def labels(q):
    return [o.label for o in q.options]


@pytest.mark.parametrize("q", QUESTIONS, ids=lambda q: q.id)
def test_every_short_title_names_only_what_its_question_names_and_was_read_against_it(q):
    title = WORDS[f"{quiz.ROOM_SHORT}{q.id}"]
    assert titles.named_problems(q.id, title, q.question, labels(q)) == []
    assert titles.review_problems(q.id, q.question, labels(q)) == []


def test_question_8s_short_title_names_its_models_and_chip():
    q = next(q for q in QUESTIONS if q.id.startswith("q08-"))
    assert all(x in " ".join(o["en"] for o in labels(q)) for x in ("1B", "70B", "H100"))  # what question 8 compares
    for lang in ("ko", "en"):
        shown = WORDS[f"{quiz.ROOM_SHORT}{q.id}"][lang]
        assert "1B" in shown and "70B" in shown and "H100" in shown, shown


def test_the_stale_title_of_the_trial_is_named():
    q = next(q for q in QUESTIONS if q.id.startswith("q08-"))
    found = titles.named_problems(q.id, STALE_Q8, q.question, labels(q))
    assert len(found) == 2 and "desktop" in found[1] and "데스크톱" in found[0]


def test_a_question_edited_after_its_title_was_checked_is_named():
    q = QUESTIONS[7]
    edited = dict(q.question, en=q.question["en"] + " (now on a laptop)")
    found = titles.review_problems(q.id, edited, labels(q))
    assert len(found) == 1 and q.id in found[0] and titles.fingerprint(edited, labels(q)) in found[0]
