"""The Learn page in a real browser: reading order, tabs, the table, jump links, the role picker, phone width."""

from __future__ import annotations


import pytest
from playwright.sync_api import expect

from latency import content
from latency.i18n import LANGS
from tests.e2e.conftest import HANGUL, MAIN, PHONE, open_app, shot, view, wait_idle

pytestmark = pytest.mark.e2e


def tab(page, name: str):
    return page.get_by_role("tab", name=name, exact=True)


@pytest.mark.parametrize("lang", LANGS)
def test_learn_page_in_a_browser(page, app_url, lang):
    term = content.load_term(content.DEFAULT_TERM, lang)
    open_app(page, app_url, "", lang=lang)  # the default page lives at /
    expect(page.locator("h1").first).to_have_text(term.title)
    main = page.locator(MAIN)
    # summary first, in its box, with the arrow line
    expect(main.get_by_text(term.summary.takeaway)).to_be_visible()

    seen = []
    # every tab opens and shows its own content
    tab(page, term.understand.heading).click()
    expect(main.get_by_text(term.understand.mechanism.text)).to_be_visible()
    seen.append(main.inner_text())
    tab(page, term.examples.heading).click()
    example = term.examples.items[0]
    expect(main.get_by_text(example.text)).to_be_visible()
    expect(main.locator("[data-testid=stMetricValue]").first).to_have_text(
        {"ko": "{}초", "en": "{} s"}.get(lang, "{}").format(f"{example.budget_s:g}"))
    seen.append(main.inner_text())
    view(page, tab(page, term.examples.heading), f"learn-{lang}-desktop-examples")

    tab(page, term.comparison.heading).click()
    table = main.locator("[data-testid=stTable]").first
    expect(table).to_contain_text(term.comparison.classes[0].name)
    expect(table).to_contain_text(term.comparison.classes[0].latency)
    main.get_by_text(term.comparison.numbers_heading, exact=True).click()  # open the expander
    expect(main.get_by_text(term.comparison.numbers_note)).to_be_visible()
    numbers = main.locator("[data-testid=stExpander] [data-testid=stTable]")
    expect(numbers).to_contain_text(f"{term.comparison.classes[0].latency_s.max:g}")
    expect(numbers.locator("tr").last).to_be_in_viewport()  # fully open before the screenshot
    seen.append(main.inner_text())
    view(page, tab(page, term.comparison.heading), f"learn-{lang}-desktop-table")

    tab(page, term.why_it_matters.heading).click()
    expect(main.get_by_text(term.why_it_matters.items[0])).to_be_visible()

    # the questions jump to their sections
    for question in term.questions.items:
        main.get_by_role("link", name=question.label, exact=True).click()
        anchor = page.locator(f"#{question.target.replace('_', '-')}")
        expect(anchor).to_be_in_viewport()

    # choosing a role shows that role's tip
    tip = term.role_tips.items[-1]
    main.get_by_role("radio", name=tip.role, exact=True).click()
    wait_idle(page)
    expect(main.locator("[data-testid=stAlert]").filter(has_text=tip.tip)).to_be_visible()
    seen.append(main.inner_text())

    if lang != "ko":
        hangul = sorted({ch for text in seen for ch in HANGUL.findall(text)})
        assert not hangul, f"Korean on the {lang} page: {''.join(hangul)}"
    view(page, page.locator("#misconceptions"), f"learn-{lang}-desktop-myths")
    view(page, page.locator("#phrases"), f"learn-{lang}-desktop-phrases")


@pytest.mark.parametrize("lang", LANGS)
def test_learn_page_at_phone_width(browser, app_url, lang):
    term = content.load_term(content.DEFAULT_TERM, lang)
    context = browser.new_context(viewport=PHONE)
    pg = context.new_page()
    try:
        open_app(pg, app_url, "", lang=lang)
        expect(pg.locator("h1").first).to_have_text(term.title)
        overflow = pg.evaluate("document.querySelector('[data-testid=stMain]').scrollWidth - window.innerWidth")
        assert overflow <= 0, f"page is {overflow}px wider than the phone"
        shot(pg, f"learn-{lang}-phone", full_page=False)
        tab(pg, term.examples.heading).click()
        view(pg, tab(pg, term.examples.heading), f"learn-{lang}-phone-examples")
        tab(pg, term.comparison.heading).click()
        view(pg, tab(pg, term.comparison.heading), f"learn-{lang}-phone-table")
        view(pg, pg.locator("#misconceptions"), f"learn-{lang}-phone-myths")
    finally:
        context.close()
