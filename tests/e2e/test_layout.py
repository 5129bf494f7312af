"""No overlapping or clipped text on any page, in both languages, at phone (390 px), tablet (768),
laptop (1024, sidebar open), desktop (1366) and projector (1920) width: every tab of the page is
opened in turn and checked (tests/e2e/layout.py); and every chart text in view is readable, 4.5:1 or
more against what is under it and 11 px or more (tests/e2e/contrast.py, issue 23). The four wide
widths share one page load (a resize re-lays the page out without rerunning it)."""

from __future__ import annotations

import pytest

from latency.language.i18n import LANGS
from tests.e2e.conftest import MAIN, open_app, shot, view, wait_idle
from tests.e2e.contrast import chart_text_problems, chart_texts
from tests.e2e.layout import labels_on_lines, problems, text_boxes
from ui.shell import DEFAULT_PAGE, PAGES
from ui.style import LANG_TOP_KEY, STACK_KEY

pytestmark = pytest.mark.e2e

WIDTHS = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
PROJECTOR = {"width": 1920, "height": 1080}

# The two explorer pages between phone and desktop: their input columns stack when narrow
# (ui/style.py STACK_KEY): at 1024 px beside the open sidebar and at a 768 px tablet, not at 1366.
LAPTOP, TABLET = {"width": 1024, "height": 768}, {"width": 768, "height": 1024}
EXPLORERS = ["estimator", "tradeoffs"]

# Checked after the desktop view, on the same page resized (the explorer pages' 1024 and 768 px views
# are checked, with their stacking, in test_explorer_pages_stack_their_columns_when_narrow).
RESIZED = {"1920": PROJECTOR, "1024": LAPTOP, "768": TABLET}

# (url path, lang, width) -> reason, for a known defect not fixed yet (none at present).
KNOWN: dict[tuple[str, str, str], str] = {}

_CHARTS_LAID_OUT = """() => Array.from(document.querySelectorAll('[data-testid=stMain] [data-testid=stPlotlyChart]'))
  .filter(c => c.offsetParent).every(c => { const s = c.querySelector('svg.main-svg');
    return s && Math.abs(s.getBoundingClientRect().width - c.getBoundingClientRect().width) < 3; })"""


def resize(page, size: dict) -> None:
    """Resize and wait until the main area has its new width and every plotly chart has re-laid out
    to it (plotly follows window resizes after a short debounce)."""
    page.set_viewport_size(size)
    page.wait_for_function(f"() => Math.abs(document.querySelector('{MAIN}').getBoundingClientRect().right - {size['width']}) < 30")
    page.wait_for_function(_CHARTS_LAID_OUT, timeout=10_000)


def check_page(page, name: str) -> list[str]:
    """Problems on the page as it is and with each tab opened; a screenshot of any that has some."""
    main = page.locator(MAIN)
    page.wait_for_function(
        "() => Array.from(document.querySelectorAll('[data-testid=stPlotlyChart], [data-testid=stVegaLiteChart]'))"
        ".filter(c => c.offsetParent).every(c => c.querySelector('svg.main-svg text, svg.marks text'))", timeout=30_000)
    found = []
    dialog = page.locator("[role=dialog]")
    if dialog.count():  # e.g. Streamlit's "Page not found": a finding of its own; close it to go on
        found.append(f"a dialog covers the page: {dialog.first.inner_text()[:80]!r}")
        page.keyboard.press("Escape")
        dialog.first.wait_for(state="detached")
    views = [None] + list(range(main.get_by_role("tab").count()))
    for i in views:
        if i is not None:
            tab = main.get_by_role("tab").nth(i)
            if not tab.is_visible():
                continue
            tab.click()
            page.wait_for_timeout(600)  # plotly lays out a chart in a newly shown tab
        issues = problems(text_boxes(page)) + chart_text_problems(chart_texts(page)) + labels_on_lines(page)
        if issues:
            shot(page, f"layout-{name}-{'top' if i is None else f'tab{i}'}", full_page=False)
            found += [f"[{'top' if i is None else f'tab {i}'}] {p}" for p in issues]
    return sorted(set(found))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("width", list(WIDTHS))
# Every page of the app's own list (ui/shell.PAGES), the default one at "/".
@pytest.mark.parametrize("path", [p.url_path for p in PAGES])
def test_no_text_overlaps_or_is_clipped(browser, app_url, path, lang, width, request):
    reason = KNOWN.get((path, lang, width))
    if reason:
        request.applymarker(pytest.mark.xfail(reason=reason, strict=False))
    context = browser.new_context(viewport=WIDTHS[width])
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        open_app(page, app_url, "" if path == DEFAULT_PAGE.url_path else path, lang=lang)
        found = check_page(page, f"{path or 'home'}-{lang}-{width}")
        if width == "desktop":
            for name, size in RESIZED.items():
                if path in EXPLORERS and size is not PROJECTOR:
                    continue
                resize(page, size)
                found += [f"{name} px: {p}" for p in check_page(page, f"{path or 'home'}-{lang}-{name}")]
    finally:
        context.close()
    assert not found, "\n".join(found[:40])


def test_phone_breaks_korean_between_words_and_switches_language_in_one_tap(browser, app_url):
    """At 390 px: Korean paragraphs break between words (word-break: keep-all from ui/style.py), and
    a labelled language button in the header switches to English with one tap."""
    context = browser.new_context(viewport=WIDTHS["phone"])
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        open_app(page, app_url, "how-it-works", lang="ko")
        # The stylesheet travels in Streamlit's event container, beside the page's elements: wait for
        # the paragraph to take it (CI once read a paragraph before its style had arrived).
        found = page.evaluate(f"""async () => {{
            const sel = '{MAIN} [data-testid=stMarkdownContainer] p';
            for (let i = 0; i < 100; i++) {{
                const p = document.querySelector(sel);
                if (p && getComputedStyle(p).wordBreak === 'keep-all') return 'keep-all';
                await new Promise(r => setTimeout(r, 100));
            }}
            const p = document.querySelector(sel);
            const sheets = [...document.querySelectorAll('style')].filter(s => s.textContent.includes('keep-all')).length;
            return `${{p ? getComputedStyle(p).wordBreak : 'no paragraph'}}; app stylesheets in the page: ${{sheets}}`;
        }}""")
        assert found == "keep-all", found
        button = page.locator(f".st-key-{LANG_TOP_KEY} button").filter(visible=True).first
        assert "English" in button.inner_text()
        button.click()  # one tap, no sidebar to open first
        page.wait_for_url(lambda url: "lang=en" in url)
        shot(page, "layout-phone-language-button-after", full_page=False)
        page.wait_for_function("() => { const h = document.querySelector('[data-testid=stMain] h1');"
                               " return h && h.innerText.startsWith('How the estimate'); }")
        shot(page, "layout-phone-language-button", full_page=False)
        assert "한국어" in page.locator(f".st-key-{LANG_TOP_KEY} button").filter(visible=True).first.inner_text()
    finally:
        context.close()


def test_desktop_hides_the_header_language_button(browser, app_url):
    """On a wide screen the sidebar's switch is in sight, so the header button stays hidden."""
    context = browser.new_context(viewport=WIDTHS["desktop"])
    page = context.new_page()
    try:
        open_app(page, app_url, "", lang="ko")
        page.wait_for_selector(f".st-key-{LANG_TOP_KEY} button", state="attached")
        assert page.locator(f".st-key-{LANG_TOP_KEY} button").filter(visible=True).count() == 0
    finally:
        context.close()


_ROWS = f"""() => Array.from(document.querySelectorAll('[class*="st-key-{STACK_KEY}"] [data-testid=stHorizontalBlock]'))
  .filter(r => r.offsetParent).map(r => ({{
    nested: !!r.parentElement.closest('[class*="st-key-{STACK_KEY}"] [data-testid=stColumn]'),
    lefts: Array.from(r.children).filter(c => c.matches('[data-testid=stColumn]'))
      .map(c => Math.round(c.getBoundingClientRect().left)),
  }}))"""


def own_and_nested_rows(page) -> tuple[list, list]:
    rows = page.evaluate(_ROWS)
    return [r["lefts"] for r in rows if not r["nested"]], [r["lefts"] for r in rows if r["nested"]]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("path", EXPLORERS)
def test_explorer_pages_stack_their_columns_when_narrow(browser, app_url, path, lang):
    """Issue 23 item 6. At 1024 px (sidebar open) the page's own input columns stand one under the
    other, a row nested in them (metrics side by side) does not, and no text is clipped or overlaps
    with every tab opened (check_page); at 768 px the same, the page as it opens; at 1366 px the
    columns stand side by side again. One page load for the three widths (a resize, no rerun), so
    the added time stays small. Screenshots: test-artifacts/layout-<page>-<lang>-{1024,768}.png."""
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        open_app(page, app_url, path, lang=lang)
        page.wait_for_function("() => !document.querySelector('[data-testid=stMain] [data-testid=stSkeleton]')", timeout=60_000)
        found = {}
        for name, size in (("1024", LAPTOP), ("768", TABLET)):
            page.set_viewport_size(size)
            page.wait_for_function(f"() => document.querySelector('{MAIN}').clientWidth < {size['width']} - 10")
            own, nested = own_and_nested_rows(page)
            assert len(own) == 1 and len(own[0]) >= 2, (name, own)
            assert len(set(own[0])) == 1, f"{name} px: the input columns stand side by side: {own}"
            assert all(len(set(r)) == len(r) for r in nested), f"{name} px: a nested row stacked too: {nested}"
            view(page, page.locator(f'[class*="st-key-{STACK_KEY}"]').first, f"layout-{path}-{lang}-{name}")
            found[name] = check_page(page, f"{path}-{lang}-{name}") if name == "1024" else (
                problems(text_boxes(page)) + chart_text_problems(chart_texts(page)))
        page.set_viewport_size({"width": 1366, "height": 900})
        page.wait_for_function(f"() => document.querySelector('{MAIN}').clientWidth > 1000")
        own, _ = own_and_nested_rows(page)
        assert len(set(own[0])) == len(own[0]), f"1366 px: the input columns stacked: {own}"
    finally:
        context.close()
    assert not any(found.values()), "\n".join(f"{k} px: {p}" for k, v in found.items() for p in v[:30])


# A device name in the drop-down box, measured in the box's own font against the room inside it: a text
# box cannot wrap, so a longer name is cut at its end (issue 23 item 6: "NVIDIA H100 SXM (data-centre GPU:
# cloud ser"). Every option is read off the open list itself.
_OPTIONS_FIT = """() => { const box = document.querySelector('.st-key-hardware input[role=combobox]');
  const cs = getComputedStyle(box), ctx = document.createElement('canvas').getContext('2d');
  ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  const room = box.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  return [room, [...document.querySelectorAll('[role=listbox] [role=option]')].map(o => [o.innerText.trim(),
          ctx.measureText(o.innerText.trim()).width])]; }"""


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("path", EXPLORERS)
def test_every_device_name_fits_the_drop_down_box(browser, app_url, path, lang):
    """At the widths where the box is narrowest (a phone, and the three-column desktop at 1366 px) every
    option fits the box whole; the caption under it names the chosen device in full (AppTest checks it)."""
    context = browser.new_context(viewport=WIDTHS["desktop"], locale="ko-KR")
    page = context.new_page()
    try:
        open_app(page, app_url, path, lang=lang)
        for size in (WIDTHS["desktop"], {"width": 360, "height": 800}):
            resize(page, size)
            box = page.locator(".st-key-hardware input[role=combobox]")
            box.scroll_into_view_if_needed()
            option = page.locator("[role=listbox] [role=option]").first
            for attempt in range(4):  # opens the list (as test_keyboard.py does); a key pressed mid-rerun can be lost
                wait_idle(page)  # so open it once the page is still (a fresh-clone run's three quick tries all missed)
                box.focus()
                page.keyboard.press("ArrowDown") if attempt % 2 == 0 else box.click()
                try:
                    option.wait_for(timeout=5_000)
                    break
                except Exception:  # noqa: BLE001 - playwright's TimeoutError: try again
                    continue
            option.wait_for()
            room, options = page.evaluate(_OPTIONS_FIT)
            assert len(options) >= 10, options
            cut = [(name, round(w)) for name, w in options if w > room]
            assert not cut, (size["width"], round(room), cut)
            page.keyboard.press("Escape")
            page.locator("[role=listbox]").wait_for(state="detached")
    finally:
        context.close()


_ANY_OPTIONS_FIT = _OPTIONS_FIT.replace("() => { const box = document.querySelector('.st-key-hardware input[role=combobox]');",
                                        "(key) => { const box = document.querySelector('.st-key-' + key + ' input[role=combobox]');")
_BOXES = """() => [...document.querySelectorAll('[data-testid=stMain] [class*=st-key-] input[role=combobox]')]
  .map(i => [...i.closest('[class*=st-key-]').classList].find(c => c.startsWith('st-key-')).slice(7))"""


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("path", EXPLORERS + ["launch"])
def test_every_drop_down_option_fits_its_box(browser, app_url, path, lang):
    """PM trial item 13: at 1366 px the boxes cut "FP16 / BF16 (16-bit) · 2 bytes per learned nur", "None (runs on the
    device) (0 ms round trip)" and "Automatic captions in video meetings: 1 s to first token"; round 2 (item 8) the
    launch check's "US West (San Fran", "Wired broadband ·", "Reused: already op", "Each at their own m". Every option
    of every drop-down on the explorer pages (the estimator's "Advanced" open) and the launch check fits its box
    whole, at 1366 px and on a phone."""
    context = browser.new_context(viewport=WIDTHS["desktop"], locale="ko-KR")
    page = context.new_page()
    cut = []
    try:
        open_app(page, app_url, path, lang=lang)
        if path == "estimator":
            page.locator(".st-key-est_advanced summary").click()
            page.locator(".st-key-arch").wait_for()
            wait_idle(page)
        for size in (WIDTHS["desktop"], WIDTHS["phone"]):
            resize(page, size)
            # drawn again at the new width (the launch check has no use-case box: its target is its own inputs)
            anchor = "server_place" if path == "launch" else "use_case"
            # both boxes drawn, then idle, then both still there: CI at 85b013b read the keys once, on a page that had
            # every box but the device's (launch-en; not reproduced in 10 runs here, quiet or loaded, nor by a watcher
            # that logged every DOM change of 10 resizes and every list opened), so a read taken mid-draw is read again
            drawn = f"() => {{ const k = ({_BOXES})(); return k.includes('{anchor}') && k.includes('hardware'); }}"
            for _ in range(3):
                try:
                    page.wait_for_function(drawn, timeout=30_000)
                except Exception:  # noqa: BLE001 - playwright's TimeoutError: the assert below says what is there
                    break
                wait_idle(page)
                if page.evaluate(drawn):
                    break
            keys = page.evaluate(_BOXES)
            assert "hardware" in keys and anchor in keys, keys
            for key in keys:
                box = page.locator(f".st-key-{key} input[role=combobox]").first
                box.scroll_into_view_if_needed()
                option = page.locator("[role=listbox] [role=option]").first
                for attempt in range(4):  # as in test_every_device_name_fits_the_drop_down_box
                    wait_idle(page)  # the launch check reruns on a phone while it lays out: open the list once it is still
                    box.focus()
                    page.keyboard.press("ArrowDown") if attempt % 2 == 0 else box.click()
                    try:
                        option.wait_for(timeout=5_000)
                        break
                    except Exception:  # noqa: BLE001 - playwright's TimeoutError: try again
                        continue
                assert option.is_visible(), f"{size['width']} px: the {key} list did not open"
                room, options = page.evaluate(_ANY_OPTIONS_FIT, key)
                cut += [(size["width"], key, name, round(w), round(room)) for name, w in options if w > room]
                page.keyboard.press("Escape")
                page.locator("[role=listbox]").wait_for(state="detached")
    finally:
        context.close()
    assert not cut, cut[:40]
