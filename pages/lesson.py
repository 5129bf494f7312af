"""Guided lesson: eight short steps on inference latency (content/lesson.yaml), a quiz whose right
answers the estimator computes (content/quiz/), and a finish screen that opens the estimator.

The screen lives in the URL (?step=1..8, quiz, done), so a shared link resumes where it points;
?present=1 is presenter mode (one step a screen without scrolling, large type, no sidebar, big
back/next with ← → keys in one row above the step, its words beside its chart; never the speaker
notes, which open in their own view, ?notes=1). From presenter mode the
presenter opens a room (?room=CODE): phones join it and follow the presenter (ui/room_view.py).
"""

import contextlib
import time
from types import MappingProxyType

import streamlit as st

from latency.teaching import content, lesson, quiz
from latency.language import formats, i18n, jargon
from latency.estimation.catalog import load_catalog
from latency.language.errors import ContentError
from latency.language.i18n import md
from latency.estimation.places import load_stops
from latency.estimation.scenario import clip_raw
from ui import lesson_steps, plain_words, room_view, shell


# --- 1. load ------------------------------------------------------------------------------------
s = shell.page_strings("lesson")
lang = shell.current_lang()


# st.cache_resource, not cache_data, for the two loads below: every view of a room reruns this page about
# once a second, sixty phones at once, and cache_data's unpickled copy of the lesson and the quiz was the
# largest single cost of a phone's run (py-spy, 2026-12-06). Both are frozen dataclasses in tuples
# (latency/teaching/lesson.py, quiz.py), so the one shared object cannot be changed by a caller.
@st.cache_resource(show_spinner=False, max_entries=4)
def load_lesson(signature: str):
    """Catalogs, distance stops and the checked steps; `signature` (content files and mtimes) is
    part of the key, so an edited file is reloaded while the app runs."""
    catalog, stops = load_catalog(), load_stops()
    return catalog, stops, lesson.load_lesson(catalog, stops)


@st.cache_resource(show_spinner=False, max_entries=4)
def load_quiz(signature: str):
    """The questions and the estimator's answer to each, computed now (never read from the files)."""
    catalog, stops, les = load_lesson(signature)
    questions = quiz.load_quiz(catalog, stops, les)
    return questions, MappingProxyType({q.id: quiz.evaluate(q, catalog) for q in questions})


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
notes_view = st.query_params.get("notes") == "1"
raw_room = st.query_params.get("room")
data = lesson_steps.Data(catalog, tuple(stops), lang, f, present, sleep=time.sleep, clock=time.monotonic)

# --- 3. a room (issue 25): the presenter's projected and notes views, or a phone ------------------
lesson_steps.style(present)
if present and raw_room is None:
    # a clicker's PageDown / PageUp in presenter mode without a room; in the menu's popover (`open_button`) the
    # script ran only once the menu had been opened (newcomer re-check 2026-12-05). A room's views add it themselves.
    st.html(room_view.KEYS_JS, unsafe_allow_javascript=True)
if raw_room is not None:
    # the tab names the room, not the lesson (presenter re-check: a phone's join form under "15-minute lesson")
    st.set_page_config(page_title=shell.document_title(s("room_tab_title"), shell.strings("common", lang)("app_title")))
    try:
        questions, outcomes = load_quiz(signature)
    except ContentError as err:
        shell.show_content_error(err)
        questions, outcomes = (), {}
    if room_view.show(s, les, questions, outcomes, data, raw_room, notes_view):
        st.stop()
elif notes_view:  # a presenter without a room: the notes of the step in the URL
    lesson_steps.notes_only(s, les, number, data)
    st.stop()

# --- 4. sections: the lesson on its own ---------------------------------------------------------
if not present:
    st.title(s("title"))
    room_view.return_banner(s, lang, "lesson_return")  # a room this browser presents, left open: the way back, first
    if number == 1:  # what the lesson is, once: on every step it pushed the step below the first screen (learner trial)
        st.caption(s("intro", n=len(les.steps), total=lesson.screens(les)))
if not step_ok:
    st.warning(s("bad_step", value=md(clip_raw(str(raw_step))), n=len(les.steps)))
if raw_present not in ("0", "1"):
    st.warning(s("bad_present", value=md(clip_raw(raw_present))))
# Presenter mode: one row at the top (back, the progress and the plain words between, next), so the
# controls stay in reach and the step fits one screen; the room button, the way out and the clicker's keys
# in a closed menu in that row.
top = lesson_steps.controls(s, les, number, data) if present else contextlib.nullcontext()
with top:
    lesson_steps.header(s, number, les)

pw = shell.strings("plain_words")  # every technical word of the screen below, defined before it is met
if screen == lesson.QUIZ:
    try:
        questions, outcomes = load_quiz(signature)
    except ContentError as err:
        shell.show_content_error(err)
    else:
        with top:
            plain_words.show_met(pw, [s("quiz_intro", n=len(questions)), *jargon.strings_of(questions, lang),
                                      *(x.title[lang] for x in les.steps)])  # the review links name the steps
        lesson_steps.quiz_screen(s, les, questions, outcomes, data)
elif screen == lesson.DONE:
    with top:  # the finish screen repeats every step's takeaway: their words, defined before them
        plain_words.show_met(pw, [x.takeaway[lang] for x in les.steps])
    lesson_steps.finish(s, les, data)
else:
    shown = les.steps[number - 1]  # the step's own texts and the strings of its one interaction
    widget_keys = (f"{shown.widget}_", "stage_text_") if shown.widget == "stages" else (f"{shown.widget}_",)
    with top:
        # the step's words as shown: its texts and its choices' labels, not its set-up's ids ("h100-sxm" had listed SXM
        # on screens that no longer name it; newcomer re-check 2026-12-05)
        texts = [shown.title[lang], shown.body[lang], shown.takeaway[lang], shown.notes[lang],
                 *(x for o in shown.options for x in (jargon.strings_of(o, lang) if shown.widget == "myths"
                                                      else [lesson_steps.option_label(s, shown, o, data)]))]
        plain_words.show_met(pw, [*texts, s("ttft"), s("total"),  # the two times' labels
                                  *(v for k, v in s.table.items() if k.startswith(widget_keys)),
                                  *(s(f"stage_{k}") for k in ("network", "queue", "prefill", "decode")),  # the chart's legend
                                  s("cost_metric"), s("scenario_line", model="", hardware="", devices="", distance="",
                                                      prompt="", output="", precision=lesson_steps.step_precisions(shown, data))])
    lesson_steps.step(s, shown, number, data)

if present:
    with top, lesson_steps.foot(s):
        room_view.open_button(s, lang)
        lesson_steps.present_link(s, lesson.screen_param(number, les), data)
else:
    lesson_steps.controls(s, les, number, data)
    # a presenter's way into a room sits in the small presenter menu of the first step, after the step (learner
    # trial: the box above "1 / 10" pushed the step's title to ~900 px on a phone)
    lesson_steps.presenter_menu(s, les.steps[number - 1] if number <= len(les.steps) else None,
                                lesson.screen_param(number, les), data,
                                room_entry=(lambda: room_view.lesson_entry(s, lang)) if number == 1 and step_ok else None)
