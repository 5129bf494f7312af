"""The onboarding room in real browsers: a presenter (projector, 1920x1080) and two participants
(phones, 390x844), each in its own browser context, through a whole room: open, join, follow the
presenter without a reload, answer, reveal, the results. On SQLite (Korean, one server) and on
PostgreSQL (English, two `streamlit run` processes on one database: the presenter and one phone on
the first, the other phone on the second; the presenter must see every answer).

Screenshots: test-artifacts/room-<db>-<lang>-*.png (projected screen, notes view, phones); look at them.
"""

from __future__ import annotations

import contextlib
import os
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from latency.estimation.catalog import load_catalog
from latency.estimation.places import load_stops
from latency.language import i18n
from latency.room import store as room_store
from latency.room.store import Store
from latency.teaching import lesson, quiz
from tests.e2e.conftest import HANGUL, IN_CI, MAIN, PHONE, shot, streamlit_server, wait_idle
from tests.e2e.layout import main_text, problems, text_boxes
from tests.e2e.test_presenter_readable import MIN_CONTRAST, MIN_PX, SIZES_JS
from tests.e2e.test_accessibility import tab_until

pytestmark = pytest.mark.e2e
T = 30_000
FOLLOW_MS = 15_000
"""How long a phone may take to follow the presenter here (no reload: the room's poll). The 2 s goal
is measured by benchmarks/room_load.py on a quiet server, not in a test on a shared 2-core machine."""
PROJECTOR = {"width": 1920, "height": 1080}

CATALOG, STOPS = load_catalog(), load_stops()
LESSON = lesson.load_lesson(CATALOG, STOPS)
QUESTIONS = quiz.load_quiz(CATALOG, STOPS, LESSON)
RIGHT = {q.id: quiz.evaluate(q, CATALOG).right for q in QUESTIONS}  # the estimator's answers


@contextlib.contextmanager
def servers(db: str):
    """(the URLs of the servers, the store's URL): SQLite: the session's app server and its data
    directory; PostgreSQL: two fresh servers on the test database."""
    if db == "sqlite":
        with streamlit_server("streamlit-room-sqlite.log") as url:
            yield [url], room_store.database_url()
        return
    pg = os.environ.get("LATENCY_TEST_PG_URL")
    if not pg:
        if IN_CI:
            pytest.fail("LATENCY_TEST_PG_URL is not set: tests/run.sh starts PostgreSQL")
        pytest.skip("no PostgreSQL (LATENCY_TEST_PG_URL; tests/run.sh starts one)")
    env = {"LATENCY_DB_URL": pg}
    with streamlit_server("streamlit-room-pg-1.log", env) as one, streamlit_server("streamlit-room-pg-2.log", env) as two:
        yield [one, two], room_store.database_url(env)


def settled(page) -> None:
    wait_idle(page)
    page.wait_for_function("() => !document.querySelector('[data-testid=stMain] [data-testid=stSkeleton]')",
                           timeout=90_000)


def no_error(page) -> None:
    assert page.locator("[data-testid=stException]").count() == 0


def check_language(page, lang: str) -> None:
    text = main_text(page)
    assert bool(HANGUL.search(text)) == (lang == "ko"), HANGUL.findall(text)[:10]


def button(page, key: str):
    """The button a widget key names (Streamlit's st-key-<key> class on its container)."""
    return page.locator(f".st-key-{key} button").first


def readable_from_the_back(page) -> None:
    """The projected screen: every text at least MIN_PX and 4.5:1 (chart text included), nothing overlapping."""
    bad = [(text, px, round(c, 2)) for text, px, c in page.evaluate(SIZES_JS) if px < MIN_PX or c < MIN_CONTRAST]
    assert not bad, bad[:10]
    assert problems(text_boxes(page)) == []


def heading(page, text: str):
    return page.locator(MAIN).get_by_role("heading", name=text)


def answer_by_keyboard(phone, q, option, shot_name: str) -> None:
    """Tab to the question's answers (one Tab stop for the group), then Space on the first answer or
    the down arrow to `option` (each arrow press chooses the answer it lands on); a screenshot of the focus."""
    group = f".st-key-room_q_{q.id}"
    tab_until(phone, f"el.closest({group!r}) && el.matches('input[type=radio]')")
    shot(phone, shot_name, full_page=False)
    k = [o.id for o in q.options].index(option.id)
    if k == 0:
        phone.keyboard.press("Space")
    for i in range(k):
        phone.keyboard.press("ArrowDown")
        expect(phone.locator(f"{group} input[type=radio]").nth(i + 1)).to_be_checked(timeout=T)
        settled(phone)


def choose(phone, q, option, lang: str) -> None:
    phone.locator(f".st-key-room_q_{q.id}").get_by_text(option.label[lang], exact=True).click()


def right_and_wrong(q):
    return (next(o for o in q.options if o.id == RIGHT[q.id]), next(o for o in q.options if o.id != RIGHT[q.id]))


@pytest.mark.parametrize("db, lang", [("sqlite", "ko"), ("sqlite", "en"), ("postgresql", "ko"), ("postgresql", "en")])
def test_a_whole_room(browser, db, lang):
    """Every screen of a room, in order, from the presenter's "next": every lesson step, every one of
    the 12 questions (open, answered by both phones, counted, revealed), the results and the CSV.
    Phone one answers every question right; phone two answers right on the even-numbered questions
    only, so the room's expected results are counted by hand: 2 answers per question, 2 right on the
    even ones and 1 on the odd ones; phone one's score is 12 of 12, phone two's 6 of 12."""
    s = i18n.strings("lesson", lang)
    with servers(db) as (urls, db_url):
        store = Store(db_url)
        contexts = [browser.new_context(viewport=PROJECTOR, locale="ko-KR")] + [
            browser.new_context(viewport=PHONE, locale="ko-KR", is_mobile=True, has_touch=True) for _ in range(2)]
        try:
            presenter, one, two = (c.new_page() for c in contexts)
            for p in (presenter, one, two):
                p.set_default_timeout(T)
            # the presenter opens a room from presenter mode
            presenter.goto(f"{urls[0]}/lesson?step=1&present=1&lang={lang}")
            settled(presenter)
            button(presenter, "room_open").click()
            presenter.wait_for_url(re.compile(r"room="), timeout=T)
            settled(presenter)
            query = parse_qs(urlsplit(presenter.url).query)
            code, key = query["room"][0], query["key"][0]
            join = f"{urls[0]}/lesson?room={code}"
            expect(presenter.locator(MAIN).get_by_text(join).first).to_be_visible(timeout=T)  # the browser's own address
            expect(presenter.locator(MAIN).locator("[data-testid=stImage] img").first).to_be_visible(timeout=T)  # the QR code
            expect(presenter.locator(MAIN).get_by_text(s("room_code_big", code=code))).to_be_visible(timeout=T)
            no_error(presenter), check_language(presenter, lang)
            readable_from_the_back(presenter)
            shot(presenter, f"room-{db}-{lang}-projector-join", full_page=False)

            # two phones join, one on each server where there are two
            for k, (phone, nick) in enumerate([(one, "<b>Ana</b>"), (two, "")]):
                phone.goto(f"{urls[k % len(urls)]}/lesson?room={code}&lang={lang}")
                settled(phone)
                phone.locator(".st-key-room_nick input").fill(nick)
                phone.locator("[data-testid=stFormSubmitButton] button").click()
                phone.wait_for_url(re.compile(r"[?&]p="), timeout=T)
                settled(phone)
                expect(heading(phone, LESSON.steps[0].title[lang])).to_be_visible(timeout=T)
            expect(one.locator(MAIN).get_by_text("<b>Ana</b>", exact=False)).to_be_visible(timeout=T)  # as text
            assert one.locator(MAIN).locator("b", has_text="Ana").count() == 0
            shot(one, f"room-{db}-{lang}-phone-step1", full_page=False)
            expect(presenter.locator(MAIN).get_by_text(s("room_joined", n=2))).to_be_visible(timeout=FOLLOW_MS)

            # every lesson step: the presenter's "next", both phones follow without a reload
            for k, step in enumerate(LESSON.steps[1:], 2):
                button(presenter, "room_next").click()
                expect(heading(presenter, step.title[lang])).to_be_visible(timeout=T)
                for phone in (one, two):
                    expect(heading(phone, step.title[lang])).to_be_visible(timeout=FOLLOW_MS)
                no_error(presenter)
                if k == 2:
                    shot(presenter, f"room-{db}-{lang}-projector-step2", full_page=False)
                    # the notes view on the presenter's laptop: the notes, not on the projected screen
                    laptop = contexts[0].new_page()
                    laptop.goto(f"{urls[0]}/lesson?notes=1&room={code}&key={key}&lang={lang}")
                    settled(laptop)
                    expect(laptop.locator(MAIN).get_by_text(step.notes[lang][:40])).to_be_visible(timeout=T)
                    expect(presenter.locator(MAIN).get_by_text(step.notes[lang][:40])).to_have_count(0)
                    shot(laptop, f"room-{db}-{lang}-notes", full_page=False)
                    laptop.close()

            # every question: open, both phones answer, the presenter sees both counted, reveal
            for n, q in enumerate(QUESTIONS, 1):
                button(presenter, "room_next").click()
                expect(heading(presenter, q.question[lang])).to_be_visible(timeout=T)
                right, wrong = right_and_wrong(q)
                for phone in (one, two):
                    expect(heading(phone, q.question[lang])).to_be_visible(timeout=FOLLOW_MS)
                    no_error(phone)
                if n == 1:  # a changed answer replaces the first; issue 23 item 4: answering by keyboard alone
                    choose(one, q, wrong, lang)
                    expect(one.locator(MAIN).get_by_text(s("room_your_answer", answer=wrong.label[lang]))).to_be_visible(timeout=T)
                    answer_by_keyboard(two, q, wrong, f"room-{db}-{lang}-phone-keyboard-answer")
                else:
                    choose(two, q, right if n % 2 == 0 else wrong, lang)
                choose(one, q, right, lang)
                expect(one.locator(MAIN).get_by_text(s("room_your_answer", answer=right.label[lang]))).to_be_visible(timeout=T)
                mine_two = right if n % 2 == 0 else wrong
                expect(two.locator(MAIN).get_by_text(s("room_your_answer", answer=mine_two.label[lang]))).to_be_visible(timeout=T)
                if n == 1:
                    shot(one, f"room-{db}-{lang}-phone-question", full_page=False)
                # every answer, from both processes, reaches the presenter's screen
                expect(presenter.locator(MAIN).get_by_text(s("room_answered", n=2, total=2))).to_be_visible(timeout=FOLLOW_MS)
                button(presenter, "room_reveal").click()
                settled(presenter)
                alt = s("room_chart_alt", rows="; ".join(
                    s("room_chart_right" if o.id == right.id else "room_chart_row", label=o.label[lang],
                      n=(1 + (mine_two.id == o.id)) if o.id == right.id else int(o.id == mine_two.id)) for o in q.options))
                expect(presenter.locator(MAIN).get_by_text(alt)).to_be_visible(timeout=T)
                expect(presenter.locator(MAIN).get_by_text(s("room_right_answer", answer=right.label[lang]))).to_be_visible(timeout=T)
                no_error(presenter)
                expect(one.locator(MAIN).get_by_text(s("room_mine_right", answer=right.label[lang]))).to_be_visible(timeout=FOLLOW_MS)
                mine = s("room_mine_right" if n % 2 == 0 else "room_mine_wrong", answer=mine_two.label[lang])
                expect(two.locator(MAIN).get_by_text(mine)).to_be_visible(timeout=FOLLOW_MS)
                if n == 1:
                    check_language(presenter, lang)
                    readable_from_the_back(presenter)
                    shot(presenter, f"room-{db}-{lang}-projector-reveal", full_page=False)
                    shot(two, f"room-{db}-{lang}-phone-reveal", full_page=False)
                    # a phone that lost its connection and reloads is the same participant
                    two.reload()
                    settled(two)
                    expect(two.locator(MAIN).get_by_text(mine)).to_be_visible(timeout=T)
                    assert store.count_participants(code) == 2

            # the results: the room's score per question, and the CSV
            button(presenter, "room_next").click()
            expect(heading(presenter, s("room_results_title"))).to_be_visible(timeout=FOLLOW_MS)
            expect(button(presenter, "room_csv")).to_be_visible(timeout=T)
            with presenter.expect_download() as dl:
                button(presenter, "room_csv").click()
            lines = open(dl.value.path(), encoding="utf-8-sig").read().splitlines()
            assert len(lines) == 1 + len(QUESTIONS), lines
            for n, line in enumerate(lines[1:], 1):
                assert line.endswith(",2,2,100%" if n % 2 == 0 else ",2,1,50%"), (n, line)
            readable_from_the_back(presenter)
            shot(presenter, f"room-{db}-{lang}-projector-results", full_page=False)
            total = len(QUESTIONS)
            for phone, right_n in ((one, total), (two, total // 2)):
                expect(phone.locator(MAIN).get_by_text(s("room_my_score", right=right_n, total=total))).to_be_visible(timeout=FOLLOW_MS)
                no_error(phone), check_language(phone, lang)
            shot(one, f"room-{db}-{lang}-phone-results", full_page=False)
        finally:
            for c in contexts:
                c.close()
            store.engine.dispose()
