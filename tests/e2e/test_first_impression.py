"""What a first-time reader meets in a phone browser (issue 26, item 6): Korean breaks between words
inside popovers and (?) tooltips too (they are drawn outside the app's root, where ui/style.py's rule
once did not reach), and a glossary card opens its entry from anywhere on it."""

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


def test_a_glossary_card_opens_its_entry_from_anywhere_on_it(browser, app_url):
    """The whole card is the link (ui/style.py CARD_KEY), and its title is larger than its summary."""
    from latency.teaching import content, glossary

    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        open_app(page, app_url, "", lang="ko")
        entry = glossary.index(content.TERMS_DIR, ("ko",))[0][0]
        card = page.locator(f"[class*=st-key-card_link_{entry.id.replace('-', '_')}]")
        summary = card.locator("[data-testid=stMarkdownContainer] p").filter(has_text=entry.summaries["ko"][:12]).first
        title = card.locator("[data-testid=stPageLink] p").first
        size = lambda loc: loc.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
        assert size(title) > size(summary)
        shot(page, "glossary-ko-phone", full_page=False)
        summary.scroll_into_view_if_needed()  # the cards stand under the start page's doors
        box = summary.bounding_box()  # a tap on the one-line summary, not on the title link itself
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_function(f"() => location.pathname.endsWith('/learn') && location.search.includes('term={entry.id}')")
    finally:
        context.close()
