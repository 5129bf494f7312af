"""A phone that joined a room and left its page is offered the way back on any other page, also when that page
is opened afresh (a reload, a typed address: a new session that knows the phone only by the room's cookie), in
both languages, at phone width; once it has left the room, nothing is offered (presenter trial 2026-12-06)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from latency.language import i18n
from latency.room import store as room_store
from latency.room.store import Store
from tests.e2e.conftest import MAIN, join_room, shot, wait_idle
from tests.e2e.test_room import T


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_phone_on_another_page_opened_afresh_is_shown_the_way_back_to_its_room(browser, app_url, lang):
    s = i18n.strings("lesson", lang)
    store = Store(room_store.database_url())
    store.migrate()
    code, key = store.open_room("lobby", lang)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="ko-KR")
    page = context.new_page()
    page.set_default_timeout(T)
    try:
        join_room(page, app_url, code, lang, "Ana", s("room_welcome_nick", code=code, nick="Ana"), T)
        page.goto(f"{app_url}/estimator?lang={lang}")  # a new session: only the room's cookie says who this is
        wait_idle(page)
        note = page.locator(MAIN).get_by_text(s("room_joined_open", code=code))
        expect(note).to_be_visible(timeout=T)
        shot(page, f"room-way-back-{lang}-phone", full_page=False)
        page.locator(MAIN).get_by_role("button", name=s("room_joined_return")).click()
        expect(page.locator(MAIN).get_by_text(s("room_welcome_nick", code=code, nick="Ana"))).to_be_visible(timeout=T)
        assert f"room={code}" in page.url
        page.locator(MAIN).get_by_role("button", name=s("room_leave")).click()
        page.locator(MAIN).get_by_role("button", name=s("room_leave_yes")).click()
        expect(page.locator(MAIN).get_by_text(s("room_phone_join_title"))).to_be_visible(timeout=T)
        page.goto(f"{app_url}/estimator?lang={lang}")  # left: its cookie is gone, nothing to go back to
        wait_idle(page)
        expect(page.locator(MAIN).get_by_text(s("room_joined_open", code=code))).to_have_count(0)
    finally:
        context.close()
