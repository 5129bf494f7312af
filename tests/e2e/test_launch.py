"""The launch check in Chromium, as a PM uses it: at 1366 x 768 every input of the set-up is on the
first screen without scrolling, in both languages; the Markdown and PNG summaries download; and
screenshots at phone (390), tablet (768), desktop (1366) and projector (1920) width, with no
overlapping or clipped text (tests/e2e/layout.py)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from latency.language import formats, i18n
from tests.exploring.test_launch import DEFAULT, direct, p95_high
from tests.e2e.conftest import HANGUL, MAIN, open_app, shot
from tests.e2e.layout import problems, text_boxes

pytestmark = pytest.mark.e2e

INPUT_KEYS = ("model_size_b", "arch", "precision", "hardware", "devices", "users_place", "server_place", "access",
              "connection", "engine", "concurrency", "arrival", "requests_per_day", "prompt_tokens", "document_tokens",
              "context_tokens", "output_tokens", "budget_s", "measure", "monthly_budget_usd", "prefix_share",
              "prefix_cache", "spec_tokens", "spec_accept", "min_model_b")
LAPTOP_SCREEN = {"width": 1366, "height": 768}


def drawn(page) -> None:
    """Wait until the inputs and figures are drawn, not only the run finished (a screenshot taken at the
    end of the run showed grey placeholders where the select boxes and metrics come)."""
    page.wait_for_function(f"() => !document.querySelector('{MAIN} [data-testid=stSkeleton]')")  # Streamlit loads widget code lazily
    page.locator(".st-key-min_model_b [data-testid=stSelectbox]").first.wait_for(state="visible")
    page.locator("[data-testid=stMetricValue]").last.wait_for(state="visible")
    page.wait_for_function("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))")
WIDTHS = {"phone": {"width": 390, "height": 844}, "tablet": {"width": 768, "height": 1024},
          "desktop": LAPTOP_SCREEN, "projector": {"width": 1920, "height": 1080}}


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_input_is_on_the_first_screen_at_1366(browser, app_url, lang):
    context = browser.new_context(viewport=LAPTOP_SCREEN)
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        open_app(page, app_url, "launch", lang=lang)
        s = i18n.strings("launch", lang)
        page.get_by_text(s("title"), exact=True).first.wait_for()
        drawn(page)
        off = []
        for key in INPUT_KEYS:
            box = page.locator(f".st-key-{key}").first.bounding_box()
            if box is None or box["y"] < 0 or box["y"] + box["height"] > LAPTOP_SCREEN["height"] or box["x"] + box["width"] > LAPTOP_SCREEN["width"]:
                off.append((key, box))
        shot(page, f"launch-first-screen-{lang}", full_page=False)
        assert not off, off
        # each box shows a label the reader can read, in the page's language
        labels = page.locator(f"{MAIN} [data-testid=stWidgetLabel]").all_inner_texts()
        assert len([t for t in labels if t.strip()]) >= len(INPUT_KEYS)
        if lang == "en":
            assert not [t for t in labels if HANGUL.search(t)]
    finally:
        context.close()


def test_the_summaries_download(browser, app_url):
    context = browser.new_context(viewport={"width": 1366, "height": 900}, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        open_app(page, app_url, "launch", lang="en", concurrency="50", devices="2", model_size_b="70.6", precision="fp8",
                 prompt_tokens="5000")
        s = i18n.strings("launch", "en")
        with page.expect_download() as md:
            page.get_by_role("button", name=s("export_md")).click()
        text = open(md.value.path(), encoding="utf-8").read()
        est = direct({**DEFAULT, "concurrency": 50, "devices": 2, "model_size_b": 70.6, "precision": "fp8",
                      "prompt_tokens": 5000})
        values = {**DEFAULT, "concurrency": 50, "devices": 2, "model_size_b": 70.6, "precision": "fp8", "prompt_tokens": 5000}
        low, high = (formats.seconds_value(x) for x in est.ranges["ttft_s"])
        p95 = formats.seconds_value(p95_high(values))
        word = "Passes" if p95 <= 1.0 else "Fails" if low > 1.0 else "Borderline"  # the 1 s chatbot target, by hand
        assert text.startswith("# Launch check") and f"**{word}:" in text and "launch?" in text and "concurrency=50" in text
        if word != "Passes":  # a set-up that does not pass carries what to change (PM trial item 16)
            assert f"## {s('export_change_heading')}" in text
        with page.expect_download() as png:
            page.get_by_role("button", name=s("export_png")).click()
        img = Image.open(io.BytesIO(open(png.value.path(), "rb").read()))
        assert img.format == "PNG" and img.width == 1240
        img.save(shot(page, "launch-summary-en", full_page=False).with_name("launch-summary-png-en.png"))
    finally:
        context.close()


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("width", list(WIDTHS))
def test_screenshots_without_overlapping_text(browser, app_url, lang, width):
    context = browser.new_context(viewport=WIDTHS[width])
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        open_app(page, app_url, "launch", lang=lang, document_tokens="60000")
        drawn(page)
        shot(page, f"launch-{width}-{lang}", full_page=False)
        found = problems(text_boxes(page))
        # the whole page in one picture: Streamlit scrolls inside its main area, so the window grows to it
        height = page.evaluate(f"() => document.querySelector('{MAIN}').scrollHeight")
        page.set_viewport_size({"width": WIDTHS[width]["width"], "height": min(int(height) + 40, 8000)})
        page.wait_for_function(f"() => document.querySelector('{MAIN}').clientHeight >= Math.min({int(height)}, 7900) - 100")
        page.wait_for_function("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))")
        page.locator("[data-testid=stMetricValue]").last.wait_for(state="visible")
        page.locator("[data-testid=stPageLink]").last.wait_for(state="visible")
        shot(page, f"launch-{width}-{lang}-whole", full_page=False)
        found += problems(text_boxes(page))
        assert not found, found[:5]
    finally:
        context.close()


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("width", ["phone", "desktop"])
def test_two_set_ups_side_by_side_read_cleanly(browser, app_url, lang, width):
    """A link with both set-ups (b=) opens the side-by-side view with every figure of both, no text clipped."""
    import urllib.parse
    context = browser.new_context(viewport=WIDTHS[width])
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        b = urllib.parse.quote(urllib.parse.urlencode({"model_size_b": "405", "concurrency": "8"}))
        open_app(page, app_url, "launch", lang=lang, view="compare", b=b)
        drawn(page)
        height = page.evaluate(f"() => document.querySelector('{MAIN}').scrollHeight")
        page.set_viewport_size({"width": WIDTHS[width]["width"], "height": min(int(height) + 40, 12000)})
        page.wait_for_function(f"() => document.querySelector('{MAIN}').clientHeight >= Math.min({int(height)}, 11900) - 100")
        page.wait_for_function("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))")
        assert page.locator("[data-testid=stMetricValue]").count() == 3 * 9
        shot(page, f"launch-compare-{width}-{lang}", full_page=False)
        found = problems(text_boxes(page))
        assert not found, found[:5]
    finally:
        context.close()


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_phone_sees_the_verdict_and_figures_before_the_inputs(browser, app_url, lang):
    """PM trial item 14: at 390 px the verdict and the figures are on the first screen, above the 25 inputs; at
    1366 px the inputs stay on the first screen under the verdict and the figures follow them."""
    for width, figures_first in (("phone", True), ("desktop", False)):
        context = browser.new_context(viewport=WIDTHS[width])
        page = context.new_page()
        page.set_default_timeout(60_000)
        try:
            open_app(page, app_url, "launch", lang=lang)
            drawn(page)
            verdict = page.locator(f"{MAIN} [data-testid=stAlertContainer]").first.bounding_box()
            metric = page.locator(f"{MAIN} [data-testid=stMetricValue]").first.bounding_box()
            first_input = page.locator(".st-key-model_size_b").first.bounding_box()
            shot(page, f"launch-first-screen-{width}-{lang}", full_page=False)
            assert verdict["y"] < first_input["y"]
            assert (metric["y"] < first_input["y"]) == figures_first, (width, metric, first_input)
            if figures_first:
                assert metric["y"] + metric["height"] <= WIDTHS[width]["height"]  # on the first screen
        finally:
            context.close()


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_on_a_phone_the_verdicts_link_brings_what_to_change_into_view(browser, app_url, lang):
    """PM try: on a phone "What to change" starts about 5,000 px below a failing verdict, after the figures and the
    25 inputs. A failing verdict now has a link under it; tapped, the tab is on screen below the app's header."""
    s = i18n.strings("launch", lang)
    context = browser.new_context(viewport=WIDTHS["phone"])
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        open_app(page, app_url, "launch", lang=lang, model_size_b="70.6", devices="2", precision="fp8",
                 concurrency="50", prompt_tokens="5000")
        drawn(page)
        tab = page.get_by_role("tab", name=s("tab_change"))
        assert tab.bounding_box()["y"] > 3 * WIDTHS["phone"]["height"]  # the case: far below the first screen
        page.get_by_role("link", name=s("jump_change")).click()
        page.wait_for_function("() => location.hash === '#launch-what-to-change'")
        page.wait_for_function("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))")
        box, header = tab.bounding_box(), page.locator("[data-testid=stHeader]").bounding_box()
        assert header["y"] + header["height"] <= box["y"] and box["y"] + box["height"] <= WIDTHS["phone"]["height"], (box, header)
        shot(page, f"launch-phone-jump-{lang}", full_page=False)
    finally:
        context.close()
