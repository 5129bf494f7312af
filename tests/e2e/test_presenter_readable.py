"""Presenter mode read from the back of a room (issue 25 item 7), at 1920x1080 and 1366x768: every
visible text of the main area, chart texts included, at least 24 px; step titles larger than the
body; the arrow before "back" and after "next" with no second arrow; no overlapping or clipped text
(tests/e2e/layout.py); every text at least 4.5:1 against its background. Screenshots: test-artifacts/present-<size>-<step>.png."""

from __future__ import annotations

import pytest

from latency.estimation.catalog import load_catalog
from latency.estimation.places import load_stops
from latency.language import i18n
from latency.teaching import lesson
from tests.e2e.conftest import MAIN, shot, wait_idle
from tests.e2e.layout import problems, text_boxes

pytestmark = pytest.mark.e2e
LESSON = lesson.load_lesson(load_catalog(), load_stops())
SIZES = {"1920": {"width": 1920, "height": 1080}, "1366": {"width": 1366, "height": 768}}
MIN_PX = 24

# Every visible piece of text in the main area with its computed size and its contrast against what
# is behind it (WCAG 2 relative luminance; the text's colour, or an SVG text's fill, blended by its
# alpha and its ancestors' opacity onto the nearest opaque background, white if none).
SIZES_JS = """() => {
  const rgba = s => { const m = s.match(/[\\d.]+/g) || [0, 0, 0]; return [+m[0], +m[1], +m[2], m.length > 3 ? +m[3] : 1]; };
  const lum = c => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
                     return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const main = document.querySelector('[data-testid=stMain]');
  const out = [];
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, el = node.parentElement;
    if (!node.textContent.trim() || !el) continue;
    const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
    if (!r.width || !r.height || cs.visibility === 'hidden' || cs.display === 'none' || el.closest('[aria-hidden=true]')) continue;
    if (el.closest('[data-testid=stIconMaterial]')) continue;  // an icon's ligature name, drawn as a glyph
    const svg = el.closest('svg') !== null;
    let fg = rgba(svg ? (cs.fill && cs.fill !== 'none' ? cs.fill : cs.color) : cs.color), alpha = fg[3], bg = [255, 255, 255];
    let found = svg;
    for (let a = el; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      alpha *= parseFloat(s.opacity);
      const b = rgba(s.backgroundColor);
      // a background is behind the text only where its box covers the text's (a slider's value label
      // stands above the thumb, positioned outside it: the thumb's colour is not behind it)
      const q = a.getBoundingClientRect();
      const cover = Math.max(0, Math.min(r.right, q.right) - Math.max(r.left, q.left)) *
                    Math.max(0, Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top)) / (r.width * r.height);
      if (!found && b[3] > 0.5 && cover > 0.5) { bg = b; found = true; }
    }
    if (alpha < 0.05) continue;  // drawn fully transparent (a slider's end labels until hovered): not seen
    const mix = [0, 1, 2].map(i => fg[i] * alpha + bg[i] * (1 - alpha));
    const [hi, lo] = [lum(mix), lum(bg)].sort((x, y) => y - x);
    out.push([node.textContent.trim().slice(0, 40), parseFloat(cs.fontSize), (hi + 0.05) / (lo + 0.05)]);
  }
  return out;
}"""
MIN_CONTRAST = 4.5

# How tall the step is against the screen: the main area's scroll height and where its last element
# (the row under the step: keys, room, exit) ends, scrolled to the top; an element inside a box
# that scrolls on its own (the feel step's answer) counts by the box.
FIT_JS = """() => {
  const main = document.querySelector('[data-testid=stMain]');
  main.scrollTo(0, 0);
  const boxed = e => { for (let a = e.parentElement; a && a !== main; a = a.parentElement)
                         if (['auto', 'scroll'].includes(getComputedStyle(a).overflowY)) return true; return false; };
  const els = [...main.querySelectorAll('[data-testid=stElementContainer], [data-testid=stVerticalBlock]')]
    .filter(e => e.getBoundingClientRect().height > 0 && !boxed(e));
  const last = els.length ? Math.max(...els.map(e => e.getBoundingClientRect().bottom)) : 0;
  return {scroll: main.scrollHeight, inner: innerHeight, last};
}"""


@pytest.fixture(scope="module")
def tab(browser):
    context = browser.new_context(viewport=SIZES["1920"], locale="ko-KR")
    page = context.new_page()
    page.set_default_timeout(30_000)
    yield page
    context.close()


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("size", list(SIZES))
def test_every_step_reads_from_the_back(tab, app_url, size, lang):
    page = tab
    page.set_viewport_size(SIZES[size])
    s = i18n.strings("lesson", lang)
    found = []
    for k, step in enumerate(LESSON.steps, 1):
        page.goto(f"{app_url}/lesson?step={k}&present=1&lang={lang}")
        wait_idle(page)
        page.wait_for_function("() => !document.querySelector('[data-testid=stMain] [data-testid=stSkeleton]')", timeout=90_000)
        page.wait_for_function("() => Array.from(document.querySelectorAll('[data-testid=stPlotlyChart]'))"
                               ".every(c => c.querySelector('svg.main-svg text'))", timeout=30_000)
        texts = page.evaluate(SIZES_JS)
        found += [f"step {k}: {t!r} at {px:g} px" for t, px, _ in texts if px < MIN_PX]
        found += [f"step {k}: {t!r} contrast {c:.2f}" for t, _, c in texts if c < MIN_CONTRAST]
        found += [f"step {k}: {p}" for p in problems(text_boxes(page))]
        title = page.locator(MAIN).locator("h1").first  # the step's title is the projected screen's h1 (issue 34 item 7)
        body = page.locator(MAIN).locator("[data-testid=stMarkdown] p").first  # the step's body
        t_px, b_px = (float(x.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")) for x in (title, body))
        assert t_px >= 1.3 * b_px, (k, t_px, b_px)
        # the whole step on one screen: the main area does not scroll, and its last element (the
        # way out of presenter mode, under the takeaway) ends inside the viewport
        fit = page.evaluate(FIT_JS)
        if fit["scroll"] > fit["inner"] + 2 or fit["last"] > fit["inner"] + 2:
            found.append(f"step {k}: does not fit one screen: main area {fit['scroll']} px high, last element ends at "
                         f"{fit['last']:.0f} px, screen {fit['inner']} px")
        shot(page, f"present-{size}-{lang}-{k}", full_page=False)
        if step.widget == "feel":  # the answer, once asked for, stays on the screen too (its box follows its end)
            page.locator(f".st-key-lesson_still_{step.id} label").click()  # shown at once: no wait for the stream
            wait_idle(page)
            page.locator(f".st-key-lesson_ask_{step.id} button").click()
            wait_idle(page)
            page.locator(".st-key-lesson_present_below").wait_for()
            fit = page.evaluate(FIT_JS)
            if fit["scroll"] > fit["inner"] + 2 or fit["last"] > fit["inner"] + 2:
                found.append(f"step {k} answered: does not fit one screen: main area {fit['scroll']} px high, "
                             f"last element ends at {fit['last']:.0f} px, screen {fit['inner']} px")
            found += [f"step {k} answered: {t!r} at {px:g} px" for t, px, _ in page.evaluate(SIZES_JS) if px < MIN_PX]
            shot(page, f"present-{size}-{lang}-{k}-answered", full_page=False)
        if k == 2:  # the icon's ligature name stands for the arrow glyph; the shortcut badge is hidden
            nxt, back = (page.locator(f".st-key-lesson_{x} button") for x in ("next", "back"))
            assert [w for w in nxt.inner_text().split() if nxt.locator("kbd").is_hidden()] == [s("next"), "arrow_forward"]
            assert back.inner_text().split() == ["arrow_back", s("back")], back.inner_text()
    assert not found, "\n".join(found[:40])


def test_next_opens_the_new_step_at_its_top(tab, app_url):
    """Scrolled down to the controls under a step, "next" opens the next step with its title in view
    (the browser used to keep the scroll position: the title sat off screen)."""
    page = tab
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{app_url}/lesson?step=3&lang=en")
    wait_idle(page)
    nxt = page.locator(".st-key-lesson_next button")
    nxt.scroll_into_view_if_needed()
    assert page.locator(MAIN).evaluate("el => el.scrollTop") > 100  # the test starts scrolled down
    nxt.click()
    page.wait_for_url(lambda url: "step=4" in url)
    wait_idle(page)
    title = page.locator(MAIN).get_by_role("heading", name=LESSON.steps[3].title["en"])
    title.wait_for()
    page.wait_for_function("() => document.querySelector('[data-testid=stMain]').scrollTop < 5", timeout=10_000)
    box = title.bounding_box()
    assert 0 <= box["y"] < 768, box
