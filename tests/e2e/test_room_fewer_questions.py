"""A presenter with a short session asks fewer quiz questions (presenter trial 2026-12-06: a 15-minute session
could only run all twelve). In Chromium: the notes view's lobby (the laptop, 1366 px) unticks all but two; the
time plan and the menu on the projected screen (1920 px) say two; a phone (390 px) that joined counts "question
1 of 2" and "2 of 2"; forward from the second one shows the results. Both languages."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from latency.estimation.catalog import load_catalog
from latency.estimation.places import load_stops
from latency.language import i18n
from latency.room import store as room_store
from latency.room.store import TIMERS_S, Store
from latency.teaching import lesson, quiz
from tests.e2e.conftest import MAIN, join_room, server_warnings, shot, wait_idle
from tests.e2e.test_room import T, pages_now, settled
from ui.room_view import LIVE_S

CATALOG, STOPS = load_catalog(), load_stops()
LESSON = lesson.load_lesson(CATALOG, STOPS)
QUESTIONS = quiz.load_quiz(CATALOG, STOPS, LESSON)


def tick(box, ticked: bool) -> None:
    """A click on the box's label, where a person clicks (Streamlit's input itself is hidden behind it: a forced
    click on the input missed it about once in 40 clicks, and the box stayed as it was), until the box shows it."""
    box.locator("xpath=ancestor::label[1]").click()
    expect(box).to_be_checked(checked=ticked, timeout=T)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_presenter_keeps_two_questions_and_the_phone_counts_two(browser, app_url, lang):
    s = i18n.strings("lesson", lang)
    store = Store(room_store.database_url())
    store.migrate()
    code, key = store.open_room("lobby", lang)
    keep = [QUESTIONS[0], QUESTIONS[4]]
    laptop = browser.new_context(viewport={"width": 1366, "height": 768}, locale="ko-KR")
    wall = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="ko-KR")
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="ko-KR")
    notes, projected, mobile = laptop.new_page(), wall.new_page(), phone.new_page()
    for p in (notes, projected, mobile):
        p.set_default_timeout(T)
    started = time.time()
    try:
        join_room(mobile, app_url, code, lang, "Ana", s("room_welcome_nick", code=code, nick="Ana"), T)

        notes.goto(f"{app_url}/lesson?room={code}&notes=1&key={key}&lang={lang}")
        settled(notes)
        main = notes.locator(MAIN)
        expect(main.get_by_text(s("room_pick_title", n=len(QUESTIONS), total=len(QUESTIONS)))).to_be_visible(timeout=T)
        chosen = len(QUESTIONS)
        for i, q in enumerate(QUESTIONS, start=1):
            if q in keep:
                continue
            label = s("room_pick_item", n=i, title=s(f"{quiz.ROOM_SHORT}{q.id}"))
            box = main.get_by_role("checkbox", name=label, exact=True)
            expect(box).to_be_checked(timeout=T)
            chosen -= 1
            tick(box, False)
            # at a person's pace: the count under the title says the click was taken before the next one
            expect(main.get_by_text(s("room_pick_title", n=chosen, total=len(QUESTIONS)))).to_be_visible(timeout=T)
            wait_idle(notes)
        expect(main.get_by_text(s("room_pick_title", n=2, total=len(QUESTIONS)))).to_be_visible(timeout=T)
        assert {q.id for q in QUESTIONS} - store.room(code).skipped == {q.id for q in keep}
        plan = s("room_plan", steps=len(LESSON.steps), questions=2, shortest=TIMERS_S[0], end=s("room_end"),
                 pick=s("room_pick"))
        expect(main.get_by_text(plan)).to_be_visible(timeout=T)
        shot(notes, f"room-pick-{lang}-notes-1366", full_page=True)

        # the projected screen's menu shows the same two, ticked
        projected.goto(f"{app_url}/lesson?room={code}&present=1&key={key}&lang={lang}")
        wait_idle(projected)
        projected.locator(MAIN).get_by_role("button", name=re.compile(s("room_menu"))).click()
        pop = projected.locator("[data-testid=stPopoverBody]")
        pop.get_by_text(s("room_pick"), exact=True).click()  # folded in the menu: unfold it
        expect(pop.get_by_text(s("room_pick_title", n=2, total=len(QUESTIONS)))).to_be_visible(timeout=T)
        first = s("room_pick_item", n=1, title=s(f"{quiz.ROOM_SHORT}{keep[0].id}"))
        second = s("room_pick_item", n=2, title=s(f"{quiz.ROOM_SHORT}{QUESTIONS[1].id}"))
        expect(pop.get_by_role("checkbox", name=first, exact=True)).to_be_checked(timeout=T)
        expect(pop.get_by_role("checkbox", name=second, exact=True)).not_to_be_checked(timeout=T)
        # a click in the menu keeps it unfolded (its label never changes; newcomer trial: it folded on every click)
        third = s("room_pick_item", n=3, title=s(f"{quiz.ROOM_SHORT}{QUESTIONS[2].id}"))
        tick(pop.get_by_role("checkbox", name=third, exact=True), True)
        wait_idle(projected)
        expect(pop.get_by_text(s("room_pick_title", n=3, total=len(QUESTIONS)))).to_be_visible(timeout=T)
        expect(pop.get_by_role("checkbox", name=third, exact=True)).to_be_checked(timeout=T)
        # the notes view, still open on the laptop, follows the menu (its boxes drawn again from the room)
        expect(main.get_by_text(s("room_pick_title", n=3, total=len(QUESTIONS)))).to_be_visible(timeout=T)
        expect(main.get_by_role("checkbox", name=third, exact=True)).to_be_checked(timeout=T)
        tick(pop.get_by_role("checkbox", name=third, exact=True), False)
        wait_idle(projected)
        expect(pop.get_by_text(s("room_pick_title", n=2, total=len(QUESTIONS)))).to_be_visible(timeout=T)
        # and the change stays: the notes view's polls never put the question back (the race of 2026-12-07: the
        # notes view set its box from the server, and a poll sent before the set arrived undid the menu's click)
        expect(main.get_by_text(s("room_pick_title", n=2, total=len(QUESTIONS)))).to_be_visible(timeout=T)
        expect(main.get_by_role("checkbox", name=third, exact=True)).not_to_be_checked(timeout=T)
        wait_idle(notes)
        notes.wait_for_timeout(6 * LIVE_S * 1000)  # six of the notes view's polls: the room keeps the menu's change
        assert {q.id for q in QUESTIONS} - store.room(code).skipped == {q.id for q in keep}
        expect(pop.get_by_text(s("room_pick_title", n=2, total=len(QUESTIONS)))).to_be_visible(timeout=T)
        shot(projected, f"room-pick-{lang}-menu-1920", full_page=False)

        # the quiz: the phone counts the two kept questions
        store.set_screen(code, key, f"q:{keep[0].id}")
        expect(mobile.locator(MAIN).get_by_text(s("room_question_kicker", n=1, total=2))).to_be_visible(timeout=T)
        store.set_screen(code, key, f"q:{keep[1].id}")
        expect(mobile.locator(MAIN).get_by_text(s("room_question_kicker", n=2, total=2))).to_be_visible(timeout=T)
        shot(mobile, f"room-pick-{lang}-phone-390", full_page=False)
        # once a question has opened, the choice is gone from the notes view
        notes.reload()
        wait_idle(notes)
        expect(notes.locator(MAIN).get_by_role("checkbox")).to_have_count(0, timeout=T)
    except Exception as err:
        # CI prints a failure's middle cut short, its summary line whole (the last CI failure here, 2026-12-07, said
        # only that the count was not found): what each page showed and what the server logged of the room
        report = pages_now([laptop, wall, phone], ("notes", "projected", "phone"), store)
        logged = server_warnings(started, re.compile(r"room \w+: "), last=12)
        raise AssertionError("\n".join([str(err).split("\nCall log:")[0][:600], report, *logged])) from err
    finally:
        for ctx in (laptop, wall, phone):
            ctx.close()
