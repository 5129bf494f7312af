"""Accessibility in a real browser (issue 23): the document says which language it is in and what
page it is, on every page and after a language switch."""

from __future__ import annotations

import pytest
import yaml

from tests.e2e.conftest import ROOT, open_app, wait_idle
from ui import shell

pytestmark = pytest.mark.e2e

COMMON = yaml.safe_load((ROOT / "content" / "ui" / "common.yaml").read_text(encoding="utf-8"))
OTHER = {"ko": "en", "en": "ko"}


def expected_title(spec: shell.PageSpec, lang: str) -> str:
    """The page's own name first, then the app's, both as content/ui/common.yaml words them."""
    return f"{COMMON[spec.nav_key][lang]} · {COMMON['app_title'][lang]}"


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("spec", shell.PAGES, ids=lambda p: p.url_path or "glossary")
def test_html_lang_and_title_follow_the_page(page, app_url, spec, lang):
    open_app(page, app_url, spec.url_path, lang=lang)
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
    page.wait_for_function("title => document.title === title", arg=expected_title(spec, lang))
    titles = {expected_title(p, lang) for p in shell.PAGES}
    assert len(titles) == len(shell.PAGES), "every page has a title of its own"


def test_lang_and_title_follow_a_language_switch(page, app_url):
    spec = next(p for p in shell.PAGES if p.url_path == "estimator")
    open_app(page, app_url, spec.url_path, lang="ko")
    page.wait_for_function("() => document.documentElement.lang === 'ko'")
    page.locator("[data-testid=stSidebar] button", has_text=COMMON["lang_name_en"]["ko"]).click()
    wait_idle(page)
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    page.wait_for_function("title => document.title === title", arg=expected_title(spec, "en"))
    # and on to another page through the navigation: still English, that page's title
    page.locator("[data-testid=stSidebarNav] a[href*='tradeoffs']").click()
    wait_idle(page)
    other = next(p for p in shell.PAGES if p.url_path == "tradeoffs")
    page.wait_for_function("title => document.title === title", arg=expected_title(other, "en"))
    assert page.evaluate("document.documentElement.lang") == "en"
