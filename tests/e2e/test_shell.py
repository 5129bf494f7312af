"""The shared shell in a real browser: Korean web font loaded and used, language switch, URL."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from latency.language import i18n
from tests.conftest import DEFAULT_PAGE, PAGES
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


@pytest.mark.parametrize("path", [p for p in PAGES if p != DEFAULT_PAGE])
def test_deep_link_on_fresh_server_runs_the_entry(page, path):
    """A shared link opened first on a freshly started server must get app.py's navigation and
    language switch and the page it names, not the raw page file (Streamlit's pages/ folder mode)."""
    with streamlit_server(f"streamlit-fresh-{path}.log") as fresh_url:
        open_app(page, fresh_url, path, lang="en")
        _assert_entry_ran(page)
        assert page.locator("[data-testid=stDialog]").count() == 0, "page-not-found dialog"
        current = page.locator("[data-testid=stSidebarNav] a[aria-current=page], [data-testid=stSidebarNav] a[href$='/" + path + "']")
        assert current.count() >= 1
        assert page.url.split("?")[0].endswith("/" + path)


def _assert_entry_ran(page):
    # app.py's language switch only exists when the entry ran; then the navigation must list the
    # app's pages by title, never the raw files of the pages/ folder (app, common, ...).
    page.locator("[data-testid=stSidebar] button", has_text="English").wait_for()
    wait_idle(page)
    nav = page.locator("[data-testid=stSidebarNav]")
    expect(nav).not_to_contain_text("common")
    expect(nav).to_contain_text(i18n.strings("common", "en")("nav_estimator"))


def _estimator_state(page):
    """What a user reads on the estimator: the size slider, the hardware box, the headline, the URL's scenario."""
    from urllib.parse import parse_qs, urlparse

    page.locator(".st-key-model_size_b input[type=range]").wait_for()
    query = {k: v[-1] for k, v in parse_qs(urlparse(page.url).query).items()}
    return (page.locator(".st-key-model_size_b input[type=range]").get_attribute("aria-valuetext"),
            page.locator(".st-key-hardware input").input_value(),
            page.locator("[data-testid=stMetricValue]").first.inner_text().strip(),
            {k: query.get(k) for k in ("model_size_b", "hardware", "distance_km", "precision")})


def _go(page, title: str) -> None:
    page.locator("[data-testid=stSidebarNav] a", has_text=title).first.click()
    page.wait_for_timeout(300)
    wait_idle(page)


def test_the_scenario_survives_every_page_change(page, app_url):
    """Issue 14: estimator -> trade-offs -> estimator -> glossary -> estimator through the sidebar keeps
    the inputs, the URL and the headline; the trade-off page shows the same scenario."""
    from latency.language import i18n

    common = i18n.strings("common", "en")
    open_app(page, app_url, "estimator", lang="en", model_size_b="70.6", hardware="h200-sxm", distance_km="9029",
             precision="fp8")
    first = _estimator_state(page)
    assert first[3] == {"model_size_b": "70.6", "hardware": "h200-sxm", "distance_km": "9029", "precision": "fp8"}
    _go(page, common("nav_tradeoffs"))
    page.locator(".st-key-model_size_b input[type=range]").wait_for()
    assert page.locator(".st-key-model_size_b input[type=range]").get_attribute("aria-valuetext") == first[0]
    assert page.locator(".st-key-hardware input").input_value() == first[1]
    assert "model_size_b=70.6" in page.url and "hardware=h200-sxm" in page.url
    _go(page, common("nav_estimator"))
    assert _estimator_state(page) == first
    _go(page, common("nav_glossary"))
    _go(page, common("nav_estimator"))
    assert _estimator_state(page) == first


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_an_unknown_path_gets_the_apps_own_not_found_page_in_the_readers_language(page, app_url, lang):
    """/no-such-page: no Streamlit "Page not found" dialog (English only), but a page in the reader's
    language that quotes the path as typed and links to every page; a link leads on."""
    s = i18n.strings("common", lang)
    open_app(page, app_url, "", lang=lang)  # a session has called st.navigation (see the README's limits)
    open_app(page, app_url, "no-such-page", lang=lang)
    page.locator("h1", has_text=s("not_found_title")).wait_for()
    wait_idle(page)
    assert page.locator("[role=dialog]").count() == 0
    main = page.locator("[data-testid=stMain]")
    assert "no-such-page" in main.locator("[data-testid=stAlert]").inner_text()
    expect(main.locator("[data-testid=stPageLink]")).to_have_count(len(PAGES))  # drawn after the notice
    shot(page, f"shell-not-found-{lang}")
    main.locator("[data-testid=stPageLink] a", has_text=s("nav_estimator")).click()
    page.wait_for_url("**/estimator**")
    wait_idle(page)
    assert page.locator("[data-testid=stMain] h1").first.inner_text().strip() != s("not_found_title")
