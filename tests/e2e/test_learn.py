"""The Learn page in a real browser: reading order, tabs, the table, jump links, the role picker, phone width."""

from __future__ import annotations


import pytest
from playwright.sync_api import expect

from latency.teaching import content
from latency.language import i18n
from latency.language.i18n import LANGS
from tests.e2e.conftest import HANGUL, MAIN, PHONE, open_app, shot, view, wait_idle
from tests.e2e.layout import main_text

DESKTOP_1366 = {"width": 1366, "height": 768}
NEW_TERMS = [t for t in content.term_ids() if t != content.DEFAULT_TERM]

pytestmark = pytest.mark.e2e


def tab(page, name: str):
    return page.get_by_role("tab", name=name, exact=True)


@pytest.mark.parametrize("lang", LANGS)
def test_learn_page_in_a_browser(page, app_url, lang):
    term = content.load_term(content.DEFAULT_TERM, lang)
    open_app(page, app_url, "learn", lang=lang)  # /learn without ?term= shows the default entry
    expect(page.locator("h1").first).to_have_text(term.title)
    main = page.locator(MAIN)
    # summary first, in its box, with the arrow line
    expect(main.get_by_text(term.summary.takeaway)).to_be_visible()

    seen = []
    # every tab opens and shows its own content
    tab(page, term.understand.heading).click()
    expect(main.get_by_text(term.understand.mechanism.text)).to_be_visible()
    seen.append(main_text(page))  # without the header button that names the other language
    tab(page, term.examples.heading).click()
    example = term.examples.items[0]
    expect(main.get_by_text(example.text)).to_be_visible()
    expect(main.locator("[data-testid=stMetricValue]").first).to_have_text(
        {"ko": "{}초", "en": "{} s"}.get(lang, "{}").format(f"{example.budget_s:g}"))
    seen.append(main_text(page))  # without the header button that names the other language
    view(page, tab(page, term.examples.heading), f"learn-{lang}-desktop-examples")

    tab(page, term.comparison.heading).click()
    # one card per class (a table broke the names over lines at 390 px): the first class's card holds its figures
    card = main.locator("[data-testid=stColumn]").filter(has_text=term.comparison.classes[0].name).first
    expect(card).to_contain_text(term.comparison.classes[0].latency)
    # a cell the calculator finds misleading (the lightweight LLM's "1초 이내"): the note in its card
    lightweight = term.comparison.classes[1]
    expect(main.locator("[data-testid=stAlert]").filter(has_text=lightweight.checks[0].note[:20]).first).to_be_visible()
    seen.append(main_text(page))  # without the header button that names the other language
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
    expect(main.get_by_text(tip.tip)).to_be_visible()
    seen.append(main_text(page))  # without the header button that names the other language

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
        open_app(pg, app_url, "learn", lang=lang)
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


@pytest.mark.parametrize("term_id,lang", [(t, lang) for t in NEW_TERMS for lang in LANGS])
def test_term_entry_at_desktop_and_phone(browser, app_url, term_id, lang):
    """Each new entry opens from its `?term=` link, shows its tool links and its fold of checks, has no
    Korean on English screens and fits a phone; screenshots at 1366x768 and 390x844."""
    term = content.load_term(term_id, lang)
    for size, viewport in (("desktop", DESKTOP_1366), ("phone", PHONE)):
        context = browser.new_context(viewport=viewport)
        pg = context.new_page()
        pg.set_default_timeout(30_000)
        try:
            open_app(pg, app_url, "learn", term=term_id, lang=lang)
            expect(pg.locator("h1").first).to_have_text(term.title, timeout=60_000)  # first run computes the checks
            main = pg.locator(MAIN)
            expect(main.get_by_text(term.summary.takeaway)).to_be_visible()
            assert "term=" + term_id in pg.url
            if term.tools:  # page links load their component lazily: wait for a label, not a skeleton
                expect(main.get_by_role("link", name=term.tools.items[0].label)).to_be_visible(timeout=30_000)
            overflow = pg.evaluate("document.querySelector('[data-testid=stMain]').scrollWidth - window.innerWidth")
            assert overflow <= 0, f"page is {overflow}px wider than the screen"
            shot(pg, f"term-{term_id}-{lang}-{size}-top", full_page=False)
            if term.tools:
                view(pg, pg.locator("#tools"), f"term-{term_id}-{lang}-{size}-tools")
            fold = main.locator("[data-testid=stExpander]").filter(has_text=i18n.strings("learn", lang)("fold_heading"))
            expect(fold).to_have_count(1)  # every check, folded at the end
            for note in main.locator("[data-testid=stAlert]").all():  # each note links its set-up in the calculator
                expect(note.locator("a[href^='estimator?']")).to_have_count(1)
            view(pg, pg.locator("#misconceptions"), f"term-{term_id}-{lang}-{size}-myths")
            if lang != "ko":
                hangul = sorted(set(HANGUL.findall(main_text(pg))))
                assert not hangul, f"Korean on the {lang} page: {''.join(hangul)}"
        finally:
            context.close()


def test_glossary_search_and_term_links_survive_language_and_page_changes(page, app_url):
    open_app(page, app_url, "", lang="en")
    main = page.locator(MAIN)
    search = main.get_by_role("textbox", name=i18n.strings("glossary", "en")("search_label"))  # not the room code's box
    search.fill("배치")
    search.press("Enter")
    wait_idle(page)
    title = content.load_term("batch-inference", "en").title
    expect(main.get_by_text("1 term", exact=True)).to_be_visible(timeout=30_000)  # the Korean name found one entry
    expect(main.get_by_role("link", name=title)).to_have_count(1)
    shot(page, "glossary-en-search", full_page=False)
    main.get_by_role("link", name=title).click()
    wait_idle(page)
    expect(page.locator("h1").first).to_have_text(title)
    assert "/learn" in page.url and "term=batch-inference" in page.url
    page.locator("[data-testid=stSidebar] button", has_text="한국어").click()  # the language switch
    wait_idle(page)
    expect(page.locator("h1").first).to_have_text(content.load_term("batch-inference", "ko").title)
    assert "term=batch-inference" in page.url and "lang=ko" in page.url
    nav = page.locator("[data-testid=stSidebarNav]")
    nav.locator("a[href*='estimator']").first.click()  # to the estimator and back through the sidebar
    wait_idle(page)
    page.wait_for_url("**/estimator**")
    nav.locator("a[href*='learn']").first.click()
    wait_idle(page)
    page.wait_for_url("**/learn**")
    expect(page.locator("h1").first).to_have_text(content.load_term("batch-inference", "ko").title)


@pytest.mark.parametrize("lang", LANGS)
def test_the_fold_at_the_end_lists_what_the_calculator_checked(page, app_url, lang):
    """Issue 34 item 1: set-ups, specs and the list of checks behind one fold at the end of the page; the note's
    link opens the calculator on its set-up."""
    from latency.language import i18n as _i18n

    s = _i18n.strings("learn", lang)
    open_app(page, app_url, "learn", lang=lang)
    main = page.locator(MAIN)
    fold = main.locator("[data-testid=stExpander]").filter(has_text=s("fold_heading"))
    expect(fold).to_have_count(1)
    fold.locator("summary").click()
    expect(fold.get_by_text(s("fold_intro"), exact=False)).to_be_visible()
    fold.scroll_into_view_if_needed()
    view(page, fold, f"learn-{lang}-desktop-fold")
    link = main.locator("[data-testid=stAlert] a").filter(has_text=s("note_open")).first
    href = link.get_attribute("href")
    assert href.startswith("estimator?") and "arch=looped" in href and f"lang={lang}" in href, href
    with page.context.expect_page() as opened:  # Streamlit opens a Markdown link in a new tab: the entry stays
        link.click()
    calc = opened.value
    calc.wait_for_load_state()
    wait_idle(calc)
    assert "/estimator" in calc.url and "arch=looped" in calc.url
    calc.close()
