"""Korean breaks between words inside popovers and (?) tooltips too (issue 26, item 6): they are drawn
outside the app's root, where ui/style.py's rule once did not reach."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import MAIN, PHONE, open_app, shot

pytestmark = pytest.mark.e2e

WORD_BREAK = """sel => {
    const el = [...document.querySelectorAll(sel)].find(e => e.offsetParent !== null && /[\\uac00-\\ud7a3]/.test(e.innerText));
    return el ? getComputedStyle(el).wordBreak : 'none shown';
}"""


def test_popover_and_tooltip_keep_korean_words_whole(browser, app_url):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        open_app(page, app_url, "estimator", lang="ko")
        page.locator(f"{MAIN} [data-testid=stPopover] button").first.click()
        body = "[data-testid=stPopoverBody] p, [data-baseweb=popover] li"
        page.wait_for_selector("[data-testid=stPopoverBody]", state="visible")
        shot(page, "popover-ko-phone", full_page=False)
        assert page.evaluate(WORD_BREAK, body) == "keep-all"
        page.keyboard.press("Escape")
        page.locator(f"{MAIN} [data-testid=stTooltipHoverTarget]").filter(visible=True).first.hover()
        page.wait_for_selector("[data-testid=stTooltipContent]", state="visible")
        shot(page, "tooltip-ko-phone", full_page=False)
        assert page.evaluate(WORD_BREAK, "[data-testid=stTooltipContent] p") == "keep-all"
    finally:
        context.close()
