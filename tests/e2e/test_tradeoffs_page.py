"""The trade-off explorer in a real browser: charts render with Korean glyphs, a control changes
them and the URL, the CSV downloads with the estimator's columns, and the page fits a phone."""

from __future__ import annotations

import csv
import io

import pytest

from latency import estimate
from latency.estimation import sizing
from latency.estimation.catalog import load_catalog
from latency.language import i18n
from tests.e2e.conftest import PHONE, open_app, shot, wait_idle

CAT = load_catalog()

pytestmark = pytest.mark.e2e

HANGUL = lambda text: any("\uac00" <= ch <= "\ud7a3" for ch in text)  # noqa: E731


def tall_shot(page, name: str) -> None:
    """A screenshot of the whole page: Streamlit scrolls inside its main container, so grow the
    viewport to the content's height first (capped), then put it back."""
    size = page.viewport_size
    height = page.evaluate("(() => { const m = document.querySelector('[data-testid=stMain]');"
                           " const b = document.querySelector('[data-testid=stMainBlockContainer]');"
                           " return b.getBoundingClientRect().bottom + m.scrollTop; })()")
    page.set_viewport_size({"width": size["width"], "height": min(int(height) + 40, 7000)})
    wait_idle(page)
    shot(page, name, full_page=False)
    page.set_viewport_size(size)


def _charts(page):
    return page.locator("[data-testid=stPlotlyChart]")


def test_korean_desktop_renders_every_tab(page, app_url):
    open_app(page, app_url, "tradeoffs", lang="ko")
    assert HANGUL(page.locator("h1").first.inner_text())
    assert page.locator("[data-testid=stException]").count() == 0
    # First tab: two budget maps, with Korean axis text drawn in the web font.
    _charts(page).first.wait_for()
    page.evaluate("document.fonts.ready")
    assert page.evaluate("document.fonts.check('13px Pretendard', '모델 크기')")
    svg_text = page.locator("[data-testid=stPlotlyChart] .xtitle").first.text_content()
    assert HANGUL(svg_text), svg_text
    family = page.locator("[data-testid=stPlotlyChart] .xtitle").first.evaluate("el => getComputedStyle(el).fontFamily")
    assert "Pretendard" in family, family
    page.locator("[data-testid=stExpander] summary", has_text="가격").first.click()  # the price table, to see it
    page.locator("[data-testid=stDataFrame], [data-testid=stDataEditor]").first.wait_for()
    tall_shot(page, "tradeoffs-ko-desktop")
    tabs = page.locator("[data-testid=stTab]")
    assert tabs.count() == 6
    for k, name in ((1, "concurrency"), (2, "cost"), (3, "memory"), (4, "tornado"), (5, "export")):
        tabs.nth(k).click()
        panel = page.locator("[data-testid=stTabPanel]:visible")  # the open tab's panel
        panel.locator("[data-testid=stPlotlyChart], [data-testid=stDownloadButton]").first.wait_for()
        tall_shot(page, f"tradeoffs-ko-desktop-{name}")
    assert page.locator("[data-testid=stException]").count() == 0


@pytest.mark.parametrize("width", [1366, 390])
def test_headline_metrics_are_not_clipped(browser, app_url, lang, width):
    """Issue 14: metric labels and values are shown whole ("Estimated whole answer …", "121 toke…")."""
    context = browser.new_context(viewport={"width": width, "height": 900}, locale="ko-KR")
    pg = context.new_page()
    pg.set_default_timeout(30_000)
    open_app(pg, app_url, "tradeoffs", lang=lang, concurrency="32")
    metrics = pg.locator("[data-testid=stMetric]")
    metrics.first.wait_for()
    clipped = pg.evaluate("""() => [...document.querySelectorAll(
        '[data-testid=stMetricLabel] p, [data-testid=stMetricValue] div, [data-testid=stMetricValue]')]
        .filter(el => el.scrollWidth > el.clientWidth + 1).map(el => el.textContent)""")
    # the users' pattern's buttons stay inside their column ("In one burs" at 1366 px: PM re-check 2026-12-05)
    group = pg.locator(".st-key-arrival [data-testid=stButtonGroup]").first
    clipped += group.evaluate("""g => { const box = g.parentElement.getBoundingClientRect();
        return [...g.querySelectorAll('button')].filter(b => b.textContent.trim()).filter(b => b.getBoundingClientRect().right > box.right + 1
            || b.scrollWidth > b.clientWidth + 1).map(b => b.textContent); }""")
    shot(pg, f"tradeoffs-{lang}-{width}-metrics")
    context.close()
    assert not clipped, clipped


def test_concurrency_input_changes_url_and_verdict(page, app_url):
    open_app(page, app_url, "tradeoffs", lang="en", concurrency="10")
    page.wait_for_url("**concurrency=10**")
    verdict = page.locator("[data-testid=stAlert]").first.inner_text()
    box = page.get_by_role("spinbutton", name=i18n.strings("tradeoffs", "en")("concurrency_label"))
    box.fill("800")
    box.press("Enter")
    wait_idle(page)
    page.wait_for_url("**concurrency=800**")
    page.locator("[data-testid=stAlert]", has_text="800 users").first.wait_for()
    assert page.locator("[data-testid=stAlert]").first.inner_text() != verdict
    assert not HANGUL(page.locator("[data-testid=stMain]").inner_text())


def test_csv_download_has_estimator_columns(page, app_url):
    open_app(page, app_url, "tradeoffs", lang="en")
    page.locator("[data-testid=stTab]").nth(5).click()
    button = page.get_by_role("button", name="Download the target-time map (CSV)")
    with page.expect_download() as info:
        button.click()
    data = open(info.value.path(), encoding="utf-8-sig").read()
    rows = list(csv.DictReader(io.StringIO(data)))
    assert len(rows) > 50
    for col in ("model_size_b", "hardware_id", "ttft_s", "total_s", "memory_gb", "cost_usd_per_1k_answers"):
        assert col in rows[0]
    # The downloaded values are latency.estimate's for that row's model, device and batch.
    row = next(r for r in rows if r["hardware_id"] == "h100-sxm" and float(r["model_size_b"]) == 8.03)
    model = sizing.sized_model(CAT, 8.03, "dense", 2.0).model  # the estimator page's model for 8.03B (Llama 3.1 8B)
    e = estimate(model, CAT.hardware["h100-sxm"].hardware, int(float(row["prompt_tokens"])),
                 int(float(row["output_tokens"])), batch=int(row["batch_per_server"]),
                 distance_km=float(row["distance_km"]), concurrent_users=int(row["batch_per_server"]),
                 arrival="burst")  # a plan's conversations run as one lock-step batch
    for key, value in e.as_dict().items():
        if isinstance(value, float):
            assert float(row[key]) == pytest.approx(value, rel=5e-4, abs=1e-12), key  # 4 significant digits


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_phone_width(browser, app_url, lang):
    context = browser.new_context(viewport=PHONE, locale="ko-KR")
    pg = context.new_page()
    pg.set_default_timeout(30_000)
    open_app(pg, app_url, "tradeoffs", lang=lang)
    _charts(pg).first.wait_for()
    # Nothing wider than the screen: the page does not scroll sideways.
    overflow = pg.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, overflow
    tall_shot(pg, f"tradeoffs-{lang}-phone")
    pg.locator("[data-testid=stTab]").nth(4).click()
    pg.locator("[data-testid=stTabPanel]:visible [data-testid=stPlotlyChart]").first.wait_for()
    tall_shot(pg, f"tradeoffs-{lang}-phone-tornado")
    context.close()
