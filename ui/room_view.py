"""The onboarding room on the lesson page (issues 25, 30): a presenter on a projector, phones following.

Three views of one room, all on /lesson (pages/lesson.py calls `show`):
  projected  ?present=1&room=CODE&key=KEY   the screen the room sees (ui/room_projector.py): a lobby
                                            with the code, QR and /join address; later a strip with the
                                            code above each step or question; never notes or the
                                            presenter's own controls, which sit in a closed menu
  notes      ?notes=1&room=CODE&key=KEY     the presenter's laptop (ui/room_projector.py `notes_view`)
  phone      ?room=CODE                     a participant (ui/room_phone.py): follows the presenter's
                                            screen within LIVE_S + a rerun; answers; one person per phone
The room's state lives in the store (latency/room/store.py), so every process and every view reads
the same one; each view polls it in an `st.fragment(run_every=LIVE_S)` and reruns the page when it
changed. The results (ui/room_results.py) show on the projector, the notes view and every phone at
the end or once the presenter ends the room. Every text from content/ui/lesson.yaml; participant text
(the nickname) and URL values go through `md`, never HTML.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Mapping, Sequence

import streamlit as st

from latency.language.i18n import Strings
from latency.room import store as room_store
from latency.room.store import NoRoom, Store, StoreDown
from latency.teaching import lesson, quiz
from ui import lesson_steps

log = logging.getLogger("latency.room")
LIVE_S = 1.0   # how often every view asks the store for the room's state (issue 25: follow within 2 s)
RETRY_S = 5.0  # how often a room page asks a database that is down whether it is back
DOWN_KEY = "room_store_down"
LOBBY, DONE = "lobby", "done"


@st.cache_resource(show_spinner=False, max_entries=2)
def _open_store(url: str) -> Store:
    """One store (engine and its connection pool) per database URL per process, migrated on first use.
    A failure is not cached: the next run tries again."""
    store = Store(url)
    store.migrate()
    return store


def get_store() -> Store:
    return _open_store(room_store.database_url())


@dataclass(frozen=True)
class Ctx:
    """One room as a view draws it: the lesson, its quiz and computed answers, the store and the room."""

    les: lesson.Lesson
    questions: tuple[quiz.Question, ...]
    outcomes: Mapping[str, quiz.Outcome]
    d: lesson_steps.Data
    store: Store
    room: room_store.Room
    screens: tuple[str, ...]
    key: str | None            # the presenter's key (None on a phone)
    token: str | None          # the participant's token (None for the presenter)

    def with_token(self, token: str) -> "Ctx":
        return replace(self, token=token)


def screens(les: lesson.Lesson, questions: Sequence[quiz.Question]) -> tuple[str, ...]:
    """A room's screens in order: the lobby, the lesson's steps, one screen per question, the results."""
    return (LOBBY, *(str(k) for k in range(1, len(les.steps) + 1)), *(f"q:{q.id}" for q in questions), DONE)


def position(c: Ctx, screen: str) -> int:
    return c.screens.index(screen) if screen in c.screens else 0


def current(c: Ctx) -> str:
    """The room's screen, or the first one when the store holds a screen this lesson does not have
    (content changed while a room was open): never a crash on a screen it cannot draw."""
    return c.room.screen if c.room.screen in c.screens else c.screens[0]


def question_of(c: Ctx, screen: str) -> quiz.Question | None:
    return next((q for q in c.questions if screen == f"q:{q.id}"), None)


def asked(c: Ctx) -> list[quiz.Question]:
    """The questions the presenter opened, in the quiz's order (the results and a phone's score count these)."""
    return [q for q in c.questions if q.id in c.room.asked]


# --- entry ----------------------------------------------------------------------------------------
def open_button(s: Strings, lang: str) -> None:
    """Presenter mode without a room: open one (its lobby, with the code, QR and address, appears next)."""
    if st.session_state.pop(DOWN_KEY, False):
        down_message(s)
    st.button(s("room_open"), key="room_open", icon=":material/groups:", help=s("room_open_help"),
              on_click=_open_room, args=(lang,))


def _open_room(lang: str) -> None:
    try:
        code, key = get_store().open_room(LOBBY, lang)
    except StoreDown as exc:
        log.error("room store down: %s", exc)
        st.session_state[DOWN_KEY] = True
        return
    st.query_params.update({"room": code, "key": key, "present": "1"})


def show(s: Strings, les: lesson.Lesson, questions: Sequence[quiz.Question], outcomes: Mapping[str, quiz.Outcome],
         d: lesson_steps.Data, raw_code: str, notes: bool) -> bool:
    """The room the URL names, in the view the URL asks for. False when the store is down (the
    message is shown; the page goes on with the lesson on its own)."""
    from ui import room_phone, room_projector  # the views import this module's helpers

    if st.session_state.pop(DOWN_KEY, False):
        down_message(s)
    key = st.query_params.get("key")
    try:
        store = get_store()
        try:
            room = store.room(raw_code)
        except NoRoom as err:
            room_phone.code_form(s, err, presenter=bool(key))
            return True
        presenter = bool(key) and store.is_presenter(room.code, key)  # a phone (no key) asks nothing more
        if key and not presenter:
            st.warning(s("room_not_presenter"))
        c = Ctx(les, tuple(questions), outcomes, d, store, room, screens(les, questions),
                key if presenter else None, None)
        if presenter:
            room_projector.notes_view(s, c) if notes else room_projector.projected_view(s, c)
        else:
            room_phone.phone_view(s, c)
        return True
    except StoreDown as exc:
        log.error("room store down: %s", exc)
        down_message(s)
        st.session_state["room_retry_skip"] = True
        retry_when_back(raw_code)
        return False


@st.fragment(run_every=RETRY_S)
def retry_when_back(raw_code: str) -> None:
    """While the database is down, ask again now and then; once it answers, the room comes back.
    Not in the page's own run, which has just asked (a database that does not answer takes seconds)."""
    if st.session_state.pop("room_retry_skip", False):
        return
    try:
        get_store().room(raw_code)
    except StoreDown:
        return
    except NoRoom:
        pass
    st.rerun()


def down_message(s: Strings) -> None:
    st.error(s("room_down"), icon=":material/cloud_off:")


# --- live: every view follows the room ----------------------------------------------------------
def timer_text(s: Strings, seconds: float) -> str:
    whole = int(seconds + 0.999)
    return s("room_timer_left", t=f"{whole // 60}:{whole % 60:02d}")


@dataclass(frozen=True)
class Vote:
    """The vote on the room's current question as a view draws it: the question (None off a
    question), which vote is open (1, 2, or None), the countdown's seconds left (None without one;
    0: it ran out and the vote is closed)."""

    question: quiz.Question | None
    vote: int | None
    left: float | None

    @property
    def over(self) -> bool:
        return self.left == 0.0

    @property
    def accepting(self) -> bool:
        return self.vote is not None and not self.over


def vote_for(c: Ctx, q: quiz.Question | None, room: room_store.Room | None = None) -> Vote:
    room = room or c.room
    vote = room.open_vote(q.id) if q else None
    return Vote(q, vote, room.seconds_left(q.id, vote, c.store.clock()) if vote else None)


def vote_now(c: Ctx, room: room_store.Room | None = None) -> Vote:
    """The vote on the room's current screen."""
    return vote_for(c, question_of(c, current(c)), room)


@st.fragment(run_every=LIVE_S)
def live(c: Ctx, s: Strings, counts: bool, drawn_over: bool, big: bool = False) -> None:
    """Ask the store for the room; rerun the page when its state changed or the countdown on the
    open vote ran out since the page was drawn (`drawn_over`). With `counts` (the presenter's
    views), the people here and, on a question with a vote open, how many answered. A countdown
    shows on every view. A phone says every TOUCH_S that it is still there (presence)."""
    try:
        try:
            room = c.store.room(c.room.code)
        except NoRoom:
            st.rerun()  # the room expired while open: the page's full run says so
        v = vote_now(c, room)
        if room.state != c.room.state or (v.over and not drawn_over):
            st.rerun()
        now = c.store.clock().timestamp()
        if c.token and now - st.session_state.get("room_touched", 0.0) >= room_store.TOUCH_S:
            st.session_state["room_touched"] = now
            c.store.touch(room.code, c.token)
        lines = []
        if counts:
            here = c.store.count_present(room.code)
            if v.vote:
                n = sum(c.store.counts(room.code, v.question.id, v.vote).values())
                lines.append(s("room_answered" if v.vote == 1 else "room_answered2", n=n, total=max(here, n)))
            elif v.question is None:
                lines.append(s("room_lobby_here", n=here))
        if v.left is not None:
            lines.append(timer_text(s, v.left) if v.left > 0 else s("room_timer_over"))
        with st.container(key="room_live_big" if big else "room_live"):
            for line in lines:
                st.markdown(f"**{line}**")
    except StoreDown:
        st.rerun()  # the database is away: the page's full run names it and waits for it (retry_when_back)
