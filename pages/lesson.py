"""Guided lesson: eight short steps on inference latency (content/lesson.yaml), a quiz whose right
answers the estimator computes (content/quiz/), and a finish screen that opens the estimator.

The screen lives in the URL (?step=1..8, quiz, done), so a shared link resumes where it points and
the audience of a session follows on phones with the same link; ?present=1 is presenter mode (one
step a screen, large type, no sidebar, big back/next with ← → keys, speaker notes in a panel).
"""

import time

import streamlit as st

from latency.teaching import content, lesson, quiz
from latency.language import formats
from latency.estimation.catalog import load_catalog
from latency.language.errors import ContentError
from latency.language.i18n import md
from latency.estimation.places import load_stops
from latency.estimation.scenario import clip_raw
from ui import lesson_steps, shell


# --- 1. load ------------------------------------------------------------------------------------
s = shell.page_strings("lesson")
lang = shell.current_lang()


@st.cache_data(show_spinner=False, max_entries=4)
def load_lesson(signature: str):
    """Catalogs, distance stops and the checked steps; `signature` (content files and mtimes) is
    part of the key, so an edited file is reloaded while the app runs."""
    catalog, stops = load_catalog(), load_stops()
    return catalog, stops, lesson.load_lesson(catalog, stops)


@st.cache_data(show_spinner=False, max_entries=4)
def load_quiz(signature: str):
    """The questions and the estimator's answer to each, computed now (never read from the files)."""
    catalog, stops, les = load_lesson(signature)
    questions = quiz.load_quiz(catalog, stops, les)
    return questions, {q.id: quiz.evaluate(q, catalog) for q in questions}


signature = content.files_signature()
try:
    catalog, stops, les = load_lesson(signature)
    f = formats.get(lang)
except ContentError as err:
    shell.show_content_error(err)
    st.stop()

# --- 2. inputs: the URL says which screen and which mode -----------------------------------------
raw_step = st.query_params.get("step")
screen, number, step_ok = lesson.resolve_step(raw_step, les)
raw_present = st.query_params.get("present", "0")
present = raw_present == "1"
data = lesson_steps.Data(catalog, tuple(stops), lang, f, present, sleep=time.sleep, clock=time.monotonic)

# --- 3. sections --------------------------------------------------------------------------------
lesson_steps.style(present)
if not present:
    st.title(s("title"))
    st.caption(s("intro"))
if not step_ok:
    st.warning(s("bad_step", value=md(clip_raw(str(raw_step))), n=len(les.steps)))
if raw_present not in ("0", "1"):
    st.warning(s("bad_present", value=md(clip_raw(raw_present))))
lesson_steps.header(s, number, lesson.screens(les))
if present:  # the controls stay in reach at the top of the projected screen
    lesson_steps.controls(s, les, number, data)

if screen == lesson.QUIZ:
    try:
        questions, outcomes = load_quiz(signature)
    except ContentError as err:
        shell.show_content_error(err)
    else:
        lesson_steps.quiz_screen(s, les, questions, outcomes, data)
elif screen == lesson.DONE:
    lesson_steps.finish(s, les, data)
else:
    lesson_steps.step(s, les.steps[number - 1], number, data)

if not present:
    lesson_steps.controls(s, les, number, data)
lesson_steps.present_link(s, lesson.screen_param(number, les), data)
