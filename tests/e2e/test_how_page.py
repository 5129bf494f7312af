"""The "How the estimate works" page in a real browser: both languages, desktop and phone width."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from latency.teaching import content, explain
from latency.language import i18n
from latency.estimation.catalog import load_catalog
from latency.language.i18n import LANGS
from tests.e2e.conftest import DESKTOP, HANGUL, MAIN, PHONE, open_app, shot, view
from tests.e2e.layout import main_text

pytestmark = pytest.mark.e2e
expect.set_options(timeout=30_000)  # the page's sections arrive together after its checks ran (slow on a busy CI box)


SPLIT_HANGUL_JS = """() => {  // two Hangul letters side by side drawn on two lines: a word split at a line end
  const found = [], hangul = /[\uac00-\ud7a3]/;
  for (const cell of document.querySelectorAll('[data-testid=stTable] td:last-child')) {
    if (!cell.checkVisibility()) continue;
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent, range = document.createRange();
      const top = (i) => { range.setStart(node, i); range.setEnd(node, i + 1); return range.getClientRects()[0]?.top; };
      for (let i = 0; i + 1 < text.length; i++)
        if (hangul.test(text[i]) && hangul.test(text[i + 1]) && top(i) !== top(i + 1)) found.push(text.slice(Math.max(0, i - 4), i + 5));
    }
  }
  return found;
}"""


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_how_page_in_a_browser(browser, app_url, lang, width):
    s = i18n.strings("how", lang)
    context = browser.new_context(viewport=DESKTOP if width == "desktop" else PHONE)
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        open_app(page, app_url, "how-it-works", lang=lang)
        main = page.locator(MAIN)
        expect(page.locator("h1").first).to_have_text(s("title"))
        for key in ("stages_heading", "calib_heading", "claims_heading", "limits_heading"):
            expect(main.get_by_role("heading", name=s(key), exact=True)).to_be_attached()
        # formulas are folded for developers; opened, they render (KaTeX); both charts draw
        expect(main.locator(".katex").first).not_to_be_visible()
        main.get_by_text(s("dev_expander"), exact=True).first.click()
        expect(main.locator(".katex").first).to_be_visible()
        expect(main.locator("[data-testid=stPlotlyChart]")).to_have_count(2)
        main.locator(".js-plotly-plot").first.wait_for()
        shot(page, f"how-{lang}-{width}-top", full_page=False)
        view(page, main.get_by_role("heading", name=s("typical_heading"), exact=True), f"how-{lang}-{width}-typical")

        # every stage tab opens and shows its heading and formula
        for stage in ("network", "queue", "prefill", "decode"):
            page.get_by_role("tab", name=s(f"tab_{stage}"), exact=True).click()
            expect(main.get_by_role("heading", name=re.compile(re.escape(s(f"{stage}_heading"))))).to_be_visible()
        # every stage's constants open and fit the screen: no table wider than its box, which cuts it off
        # (a 390 px phone lost the decode table's source column to an engine setting's long name)
        for stage in ("network", "queue", "decode", "prefill"):
            page.get_by_role("tab", name=s(f"tab_{stage}"), exact=True).click()
            panel = main.get_by_role("tabpanel").filter(visible=True)
            closed = panel.locator("details:not([open]) > summary")
            while closed.count():
                closed.first.click()
            panel.locator("[data-testid=stTable]").first.wait_for()
            page.wait_for_timeout(400)  # the expander's opening animation
            wider = page.evaluate("""() => Array.from(document.querySelectorAll('[data-testid=stTable]'))
                .filter(t => t.checkVisibility() && t.querySelector('table').scrollWidth > t.clientWidth + 1)
                .map(t => t.innerText.slice(0, 60))""")
            assert not wider, (stage, wider)
            if lang == "ko":  # Korean words whole at a line end in the squeezed sources column ("프롬프트 / 가")
                split = page.evaluate(SPLIT_HANGUL_JS)
                assert not split, (stage, split)
        view(page, page.get_by_role("tab", name=s("tab_prefill"), exact=True), f"how-{lang}-{width}-prefill")

        # calibration: the per-row table opens
        main.locator("details").filter(has_text=re.compile(re.escape(s("rows_expander", n=999)).replace("999", r"\d+"))) \
            .locator("summary").click()
        view(page, main.get_by_role("heading", name=s("calib_heading"), exact=True), f"how-{lang}-{width}-calibration")

        # claims: one box per class with the computed verdict's badge
        claims = main.get_by_role("heading", name=s("claims_heading"), exact=True)
        view(page, claims, f"how-{lang}-{width}-claims")
        classes = content.comparison_classes(lang)
        checks = explain.check_classes(classes, load_catalog())
        for cls, check in zip(classes, checks):
            box = main.locator("[data-testid=stVerticalBlock]").filter(
                has=page.get_by_role("heading", name=cls.name, exact=True)).last
            expect(box).to_contain_text(s(f"verdict_badge_{check.verdict}"))
        # the last class's set-ups open into a table with one row per set-up
        last = checks[-1]
        box = main.locator("[data-testid=stVerticalBlock]").filter(
            has=page.get_by_role("heading", name=classes[-1].name, exact=True)).last
        box.get_by_text(s("setups_expander", n=last.n), exact=True).click()
        frame = box.locator("[data-testid=stDataFrame]")
        expect(frame).to_be_visible()
        # wait for the expander's opening animation: the whole table inside the open box
        page.wait_for_function("""el => { const d = el.closest('details').getBoundingClientRect();
            const t = el.getBoundingClientRect(); return t.height > 100 && t.bottom <= d.bottom + 1; }""",
                               arg=frame.element_handle())
        view(page, page.get_by_role("heading", name=classes[-1].name, exact=True), f"how-{lang}-{width}-setups")
        view(page, main.get_by_role("heading", name=s("limits_heading"), exact=True), f"how-{lang}-{width}-limits")

        text = main_text(page)  # the header language button names the other language in its own
        if lang == "en":
            assert not HANGUL.findall(text), HANGUL.findall(text)[:20]
        else:
            assert HANGUL.search(text)
        # nothing wider than the screen at phone width
        if width == "phone":
            overflow = page.evaluate("document.querySelector('[data-testid=stMain]').scrollWidth - window.innerWidth")
            assert overflow <= 1, f"page is {overflow}px wider than the phone screen"
        shot(page, f"how-{lang}-{width}-full")
    finally:
        context.close()
