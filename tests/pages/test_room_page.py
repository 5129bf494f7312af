"""The onboarding room on the lesson page, headless (AppTest), in every language: a presenter and
two phones, each its own AppTest session, on one store (the temp data directory of tests/conftest.py).
Expected values: the right answers from `quiz.evaluate` (the estimator), counts from what the test
answered, texts from the content files."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
import streamlit as st

from latency.room import store as room_store
from latency.room.store import Store
from latency.language import i18n
from latency.teaching import lesson, quiz
from latency.estimation.catalog import load_catalog
from latency.estimation.places import load_stops
from tests.conftest import all_text, run_page

CATALOG, STOPS = load_catalog(), load_stops()
LESSON = lesson.load_lesson(CATALOG, STOPS)
QUESTIONS = quiz.load_quiz(CATALOG, STOPS, LESSON)
RIGHT = {q.id: quiz.evaluate(q, CATALOG).right for q in QUESTIONS}
HOSTILE = "<b>x</b>[a](http://e.x)"  # 23 characters: within the nickname box's limit


def s(lang: str) -> i18n.Strings:
    return i18n.strings("lesson", lang)


def store() -> Store:
    return Store(room_store.database_url())


def no_exception(at) -> None:
    assert not at.exception, at.exception[0].value


def qp(at, key: str) -> str:
    v = at.query_params[key]
    return v[0] if isinstance(v, list) else v


def open_room(lang: str):
    at = run_page("lesson", lang, {"step": "1", "present": "1"})
    at.button(key="room_open").click().run()
    no_exception(at)
    return at, qp(at, "room"), qp(at, "key")


def join(lang: str, code: str, nick: str = ""):
    at = run_page("lesson", lang, {"room": code})
    at.text_input(key="room_nick").input(nick)
    next(b for b in at.button if b.proto.is_form_submitter).click().run()
    no_exception(at)
    return at


def test_a_whole_room_presenter_and_two_phones(lang):
    presenter, code, key = open_room(lang)
    text = all_text(presenter)
    assert s(lang)("room_code_big", code=code) in text and f"room={code}" in text
    assert presenter.get("image"), "the QR code image is on the projected screen"
    one, two = join(lang, code, HOSTILE), join(lang, code)
    assert i18n.md(HOSTILE) in all_text(one) and "<b>" not in all_text(one)  # the nickname as text
    # the presenter moves: both phones follow on their next run (the browser test times the follow)
    presenter.button(key="room_next").click().run()
    for phone in (one, two):
        phone.run()
        assert [h.value for h in phone.header] == [LESSON.steps[1].title[lang]]
        assert not phone.expander  # no speaker notes on a phone
    # to the first question: one answer per phone, a change replaces the old one
    q = QUESTIONS[0]
    store().set_screen(code, key, f"q:{q.id}")
    wrong = next(o.id for o in q.options if o.id != RIGHT[q.id])
    for phone in (one, two):
        phone.run()
        phone.radio(key=f"room_q_{q.id}").set_value(wrong).run()
        no_exception(phone)
    one.radio(key=f"room_q_{q.id}").set_value(RIGHT[q.id]).run()
    assert store().counts(code, q.id) == {RIGHT[q.id]: 1, wrong: 1}
    presenter.run()
    assert s(lang)("room_answered", n=2, total=2) in all_text(presenter)
    presenter.button(key="room_reveal").click().run()
    no_exception(presenter)
    labels = {o.id: i18n.md(o.label[lang]) for o in q.options}
    alt = next(c.value for c in presenter.caption if c.value.startswith(s(lang)("room_chart_alt", rows="")))
    assert s(lang)("room_chart_right", label=labels[RIGHT[q.id]], n=1) in alt
    assert s(lang)("room_chart_row", label=labels[wrong], n=1) in alt
    assert s(lang)("room_right_answer", answer=labels[RIGHT[q.id]]) in [x.value for x in presenter.success]
    assert presenter.get("plotly_chart")
    one.run(), two.run()
    assert s(lang)("room_mine_right", answer=labels[RIGHT[q.id]]) in [x.value for x in one.success]
    assert s(lang)("room_mine_wrong", answer=labels[wrong]) in [x.value for x in two.error]
    # the results: the room's score per question and its CSV
    store().set_screen(code, key, "done")
    presenter.run()
    table = presenter.table[0].value
    assert list(table.iloc[0, 0:2]) == [2, 1] and list(table.iloc[1, 0:2]) == [0, 0]
    csv = presenter.get("download_button")[0]
    assert csv.proto.label == s(lang)("room_download")
    one.run()
    assert s(lang)("room_my_score", right=1, total=len(QUESTIONS)) in [h.value for h in one.subheader]


def test_the_projected_screen_never_shows_notes_the_notes_view_does(lang):
    presenter, code, key = open_room(lang)
    notes_text = i18n.md(LESSON.steps[0].notes[lang])
    assert notes_text not in all_text(presenter) and not presenter.expander
    notes = run_page("lesson", lang, {"notes": "1", "room": code, "key": key})
    no_exception(notes)
    assert notes_text in all_text(notes)
    notes.button(key="room_next").click().run()  # next from the laptop moves the room
    assert store().room(code).screen == "2"
    presenter.run()
    assert [h.value for h in presenter.title] == [LESSON.steps[1].title[lang]]  # the projected step's h1 (issue 34 item 7)
    # without a room, presenter mode shows no notes either, and the notes view reads ?step=
    alone = run_page("lesson", lang, {"step": "3", "present": "1"})
    assert not alone.expander
    assert i18n.md(LESSON.steps[2].notes[lang]) in all_text(run_page("lesson", lang, {"step": "3", "notes": "1"}))


def test_a_wrong_key_is_a_participant_and_moves_nothing(lang):
    _, code, _ = open_room(lang)
    at = run_page("lesson", lang, {"room": code, "key": "guess", "present": "1"})
    assert s(lang)("room_not_presenter") in [w.value for w in at.warning]
    assert not [b for b in at.button if b.key == "room_next"]


@pytest.mark.parametrize("typed, why", [("CFHKMN", "unknown"), ("<b>hi</b>", "invalid"), ("", "invalid")])
def test_an_unknown_or_mistyped_code_is_named_and_can_be_typed_again(lang, typed, why):
    at = run_page("lesson", lang, {"room": typed})
    no_exception(at)
    assert len(at.error) == 1 and "<b>" not in at.error[0].value
    assert at.error[0].value.startswith(s(lang)(f"room_{why}", code="", example="").split("'")[0][:8])
    _, code, _ = open_room(lang)
    at.text_input(key="room_code_typed").input(code.lower())
    next(b for b in at.button if b.proto.is_form_submitter).click().run()
    assert qp(at, "room") == code and at.text_input(key="room_nick")


def test_an_expired_room_is_named(lang):
    old = Store(room_store.database_url(), clock=lambda: datetime.now(timezone.utc) - timedelta(hours=25))
    code, _ = old.open_room()
    at = run_page("lesson", lang, {"room": code})
    assert at.error[0].value == s(lang)("room_expired", code=code)


def test_a_lost_connection_rejoins_the_same_participant(lang):
    _, code, _ = open_room(lang)
    phone = join(lang, code, "Ana")
    token = qp(phone, "p")
    again = run_page("lesson", lang, {"room": code, "p": token})  # a new session: the phone reloaded
    assert not again.text_input and store().count_participants(code) == 1
    assert s(lang)("room_welcome_nick", code=code, nick="Ana") in all_text(again)


def test_a_database_that_is_down_is_named_and_the_lesson_works(lang, monkeypatch):
    monkeypatch.setenv("LATENCY_DB_URL", "postgresql://nobody@127.0.0.1:9/none")  # port 9: nothing listens
    at = run_page("lesson", lang, {"room": "CFHKMN"})
    no_exception(at)
    assert s(lang)("room_down") in [e.value for e in at.error]
    assert [h.value for h in at.header] == [LESSON.steps[0].title[lang]]  # the lesson on its own
    present = run_page("lesson", lang, {"step": "1", "present": "1"})
    present.button(key="room_open").click().run()
    no_exception(present)
    assert s(lang)("room_down") in [e.value for e in present.error] and "room" not in present.query_params


def test_the_empty_quiz_reveals_nothing(lang):
    at = run_page("lesson", lang, {"step": "quiz"})
    next(b for b in at.button if b.proto.is_form_submitter).click().run()
    assert [w.value for w in at.warning] == [s(lang)("quiz_empty")]
    assert not at.success and not at.error and not at.subheader


def test_a_phone_can_look_back_and_then_follows_the_presenter_again(lang):
    _, code, key = open_room(lang)
    store().set_screen(code, key, "3")
    phone = join(lang, code)
    phone.button(key="room_own_back").click().run()
    assert [h.value for h in phone.header] == [LESSON.steps[1].title[lang]]
    assert s(lang)("room_own_note", n=3) in [i.value for i in phone.info]
    phone.button(key="room_follow").click().run()
    assert [h.value for h in phone.header] == [LESSON.steps[2].title[lang]]
    phone.button(key="room_own_back").click().run()
    store().set_screen(code, key, "4")  # the presenter moves on: the phone follows, its look back ends
    phone.run()
    assert [h.value for h in phone.header] == [LESSON.steps[3].title[lang]]
