"""The shared shell in a real browser: Korean web font loaded and used, language switch, URL."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import PHONE, open_app, shot, streamlit_server, wait_idle

pytestmark = pytest.mark.e2e


def test_korean_font_is_loaded_and_used(page, app_url):
    open_app(page, app_url, "", lang="ko")
    heading = page.locator("h1").first
    heading.wait_for()
    assert any("\uac00" <= ch <= "\ud7a3" for ch in heading.inner_text()), "expected a Korean heading"
    page.evaluate("document.fonts.ready")
    assert page.evaluate("document.fonts.check('16px Pretendard', '추론')"), "Pretendard not loaded"
    family = heading.evaluate("el => getComputedStyle(el).fontFamily")
    assert family.split(",")[0].strip().strip('"') == "Pretendard", family
    loaded = page.evaluate("[...document.fonts].filter(f => f.family.replace(/\"/g,'') === 'Pretendard' && f.status === 'loaded').length")
    assert loaded >= 1
    shot(page, "shell-learn-ko")


def test_language_switch_updates_url_and_survives_page_change(page, app_url):
    open_app(page, app_url, "")
    page.wait_for_function("location.search.includes('lang=ko')")
    page.locator("[data-testid=stSidebar] button", has_text="English").click()
    page.wait_for_function("location.search.includes('lang=en')")
    wait_idle(page)
    h1_en = page.locator("h1").first.inner_text()
    assert not any("\uac00" <= ch <= "\ud7a3" for ch in h1_en), h1_en
    # change page through the sidebar navigation; the language must stay English
    page.locator("[data-testid=stSidebarNav] a[href*='estimator']").click()
    wait_idle(page)
    page.wait_for_url("**/estimator**")
    page.wait_for_function("location.search.includes('lang=en')")
    nav_text = page.locator("[data-testid=stSidebarNav]").inner_text()
    assert not any("\uac00" <= ch <= "\ud7a3" for ch in nav_text), nav_text
    shot(page, "shell-estimator-en")


def test_unknown_lang_falls_back_to_korean_with_notice(page, app_url):
    open_app(page, app_url, "", lang="xx")
    alert = page.locator("[data-testid=stAlert]").first
    alert.wait_for()
    assert "xx" in alert.inner_text()
    page.wait_for_function("location.search.includes('lang=ko')")


def test_phone_width_shell(browser, app_url):
    context = browser.new_context(viewport=PHONE)
    pg = context.new_page()
    open_app(pg, app_url, "", lang="en")
    shot(pg, "shell-learn-en-phone")
    context.close()


def test_deep_link_on_fresh_server_runs_the_entry(page):
    """A shared link opened first on a freshly started server must get app.py's navigation and
    language switch, not the raw page file (Streamlit's pages/ folder mode)."""
    with streamlit_server("streamlit-fresh.log") as fresh_url:
        open_app(page, fresh_url, "estimator", lang="en")
        _assert_entry_ran(page)


def _assert_entry_ran(page):
    nav = page.locator("[data-testid=stSidebarNav]")
    nav.wait_for()
    assert "_common" not in nav.inner_text() and "common" not in nav.inner_text().lower()
    page.locator("[data-testid=stSidebar] button", has_text="English").wait_for()
