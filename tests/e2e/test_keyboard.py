"""Keyboard only (issue 23 item 4): reach each control with Tab and operate it with the keys a
keyboard user has (arrows, Enter, Space), never the mouse; a screenshot of each focus state is kept
in test-artifacts/keyboard-*.png. The room's answer buttons are answered by keyboard in
tests/e2e/test_room.py (one phone answers with Space and the arrows)."""

from __future__ import annotations

import re

import pytest
import yaml
from playwright.sync_api import expect

from latency.estimation.catalog import load_catalog
from latency.estimation.places import load_stops
from latency.teaching import lesson, quiz
from tests.e2e.conftest import MAIN, ROOT, open_app, shot, wait_idle
from tests.e2e.test_accessibility import tab_until

pytestmark = pytest.mark.e2e

T = 30_000
CATALOG, STOPS = load_catalog(), load_stops()
QUESTIONS = quiz.load_quiz(CATALOG, STOPS, lesson.load_lesson(CATALOG, STOPS))


def strings(name: str) -> dict:
    return yaml.safe_load((ROOT / "content" / "ui" / f"{name}.yaml").read_text(encoding="utf-8"))


def focused(page, selector: str) -> str:
    """A Tab predicate: the focused element sits inside `selector`."""
    return f"el.closest({selector!r})"


def test_the_estimator_by_keyboard(page, app_url):
    """The size slider moves with an arrow key, the device drop-down opens and picks with the arrows
    and Enter, and "Feel it" plays with Enter: each changes what the page shows."""
    est = strings("estimator")
    open_app(page, app_url, "estimator", lang="en")
    page.set_default_timeout(T)

    # the model size slider: Tab to its handle, one step right
    tab_until(page, focused(page, ".st-key-model_size_b") + " && el.matches('input[type=range]')")
    handle = page.locator(".st-key-model_size_b input[type=range]")
    before = handle.get_attribute("aria-valuetext") or handle.get_attribute("aria-valuenow")
    shot(page, "keyboard-size-slider", full_page=False)
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "(b) => { const h = document.querySelector('.st-key-model_size_b input[type=range]');"
        " return h && (h.getAttribute('aria-valuetext') || h.getAttribute('aria-valuenow')) !== b; }", arg=before)
    wait_idle(page)
    after = handle.get_attribute("aria-valuetext") or handle.get_attribute("aria-valuenow")
    assert after != before, (before, after)

    # the device drop-down: Tab to it, open with ArrowDown, move one down, pick with Enter
    box = page.locator(".st-key-hardware input[role=combobox]")
    was = box.input_value()
    tab_until(page, focused(page, ".st-key-hardware") + " && el.matches('input[role=combobox]')")
    shot(page, "keyboard-hardware", full_page=False)
    page.keyboard.press("ArrowDown")
    page.locator("[role=listbox]").wait_for()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    expect(box).not_to_have_value(was, timeout=T)
    wait_idle(page)
    expect(box).not_to_have_value(was, timeout=T)  # and it stays after the rerun

    # "Feel it": Tab to the button, Enter; the result is announced in the polite status line
    name = est["feel_button"]["en"]
    tab_until(page, f"el.tagName === 'BUTTON' && el.innerText.includes({name!r})")
    shot(page, "keyboard-feel-it", full_page=False)
    page.keyboard.press("Enter")
    done = est["feel_done"]["en"].split("{")[0].strip()
    page.locator(f"{MAIN} [role=status][aria-live=polite]", has_text=done).wait_for(timeout=60_000)


def test_the_lesson_and_every_quiz_question_by_keyboard(page, app_url):
    """Next and back with Enter; every quiz question answered with Space on its first option (a
    radio group takes one Tab stop; the quiz is a form, so nothing reruns until it is marked), the
    quiz marked with Enter, the score shown."""
    les = strings("lesson")
    open_app(page, app_url, "lesson", lang="en", step="1")
    page.set_default_timeout(T)
    tab_until(page, focused(page, ".st-key-lesson_next") + " && el.tagName === 'BUTTON'")
    shot(page, "keyboard-lesson-next", full_page=False)
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"step=2(&|$)"), timeout=T)
    wait_idle(page)
    tab_until(page, focused(page, ".st-key-lesson_back") + " && el.tagName === 'BUTTON'")
    shot(page, "keyboard-lesson-back", full_page=False)
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"step=1(&|$)"), timeout=T)

    open_app(page, app_url, "lesson", lang="en", step="quiz")
    page.locator(f"{MAIN} [data-testid=stRadio]").first.wait_for()
    for k, q in enumerate(QUESTIONS):
        group = f".st-key-lesson_q_{q.id}"
        tab_until(page, focused(page, group) + " && el.matches('input[type=radio]')")
        if k == 0:
            shot(page, "keyboard-quiz-question", full_page=False)
        page.keyboard.press("Space")
        expect(page.locator(f"{group} input[type=radio]").first).to_be_checked(timeout=T)
        wait_idle(page)
    tab_until(page, f"el.tagName === 'BUTTON' && el.innerText.includes({les['quiz_submit']['en']!r})")
    page.keyboard.press("Enter")
    score = re.compile(les["quiz_score"]["en"].replace("{right}", r"\d+").replace("{total}", str(len(QUESTIONS))))
    expect(page.locator(f"{MAIN} [role=status]")).to_have_text(score, timeout=T)
    shot(page, "keyboard-quiz-score", full_page=False)
