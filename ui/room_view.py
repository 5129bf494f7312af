"""The onboarding room on the lesson page (issue 25): a presenter on a projector, phones following.

Three views of one room, all on /lesson (pages/lesson.py calls `show`):
  projected  ?present=1&room=CODE&key=KEY   the screen the room sees: join panel (code, QR, address),
                                            the step or question, live counts, back/next; never notes
  notes      ?notes=1&room=CODE&key=KEY     the presenter's laptop: speaker notes, the right answer
                                            and its why before the reveal, live counts, back/next, reveal
  phone      ?room=CODE (&p=TOKEN once in)  a participant: follows the presenter's screen within
                                            LIVE_S + a rerun; answers a question; may look back on their own
The room's screen lives in the store (latency/room/store.py), so every process and every view reads
the same one; each view polls it in an `st.fragment(run_every=LIVE_S)` and reruns the page when it
changed. The participant's token sits in the URL (`p`), so a phone that lost its connection and
reloads is the same participant. Every text from content/ui/lesson.yaml; participant text (the
nickname) and URL values go through `md`, never HTML.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Mapping, Sequence

import pandas as pd
import segno
import streamlit as st

from latency.charts.lesson import answer_bars
from latency.language.i18n import Strings, clip, md
from latency.room import codes, results
from latency.room import store as room_store
from latency.room.store import NoRoom, Store, StoreDown
from latency.teaching import lesson, quiz
from ui import charts, lesson_steps

log = logging.getLogger("latency.room")
LIVE_S = 1.0   # how often every view asks the store for the room's screen (issue: follow within 2 s)
RETRY_S = 5.0  # how often a room page asks a database that is down whether it is back
DOWN_KEY = "room_store_down"
NOTES_CSS = "<style>[data-testid=stMain] button kbd { display: none !important; }</style>"
"""The notes view's back/next carry ← → (the laptop's keys); the badge Streamlit adds for a shortcut
would double the arrow icons (presenter mode's stylesheet hides it the same way)."""


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


def screens(les: lesson.Lesson, questions: Sequence[quiz.Question]) -> tuple[str, ...]:
    """A room's screens in order: the lesson's steps, one screen per question, the results."""
    return (*(str(k) for k in range(1, len(les.steps) + 1)), *(f"q:{q.id}" for q in questions), "done")


def _position(c: Ctx, screen: str) -> int:
    return c.screens.index(screen) if screen in c.screens else 0


def _current(c: Ctx) -> str:
    """The room's screen, or the first one when the store holds a screen this lesson does not have
    (content changed while a room was open): never a crash on a screen it cannot draw."""
    return c.room.screen if c.room.screen in c.screens else c.screens[0]


# --- entry ----------------------------------------------------------------------------------------
def open_button(s: Strings, first_screen: str) -> None:
    """Presenter mode without a room: open one (the code, QR and address appear on the next run)."""
    if st.session_state.pop(DOWN_KEY, False):
        down_message(s)
    st.button(s("room_open"), key="room_open", icon=":material/groups:", help=s("room_open_help"),
              on_click=_open_room, args=(first_screen,))


def _open_room(first_screen: str) -> None:
    try:
        code, key = get_store().open_room(first_screen)
    except StoreDown as exc:
        log.error("room store down: %s", exc)
        st.session_state[DOWN_KEY] = True
        return
    st.query_params.update({"room": code, "key": key, "present": "1"})


def show(s: Strings, les: lesson.Lesson, questions: Sequence[quiz.Question], outcomes: Mapping[str, quiz.Outcome],
         d: lesson_steps.Data, raw_code: str, notes: bool) -> bool:
    """The room the URL names, in the view the URL asks for. False when the store is down (the
    message is shown; the page goes on with the lesson on its own)."""
    if st.session_state.pop(DOWN_KEY, False):
        down_message(s)
    try:
        store = get_store()
        try:
            room = store.room(raw_code)
        except NoRoom as err:
            code_form(s, err)
            return True
        key = st.query_params.get("key")
        presenter = store.is_presenter(room.code, key)
        if key and not presenter:
            st.warning(s("room_not_presenter"))
        c = Ctx(les, tuple(questions), outcomes, d, store, room, screens(les, questions),
                key if presenter else None, None)
        if presenter:
            notes_view(s, c) if notes else projected_view(s, c)
        else:
            phone_view(s, c)
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


def code_form(s: Strings, err: NoRoom) -> None:
    """An unknown, expired or mistyped code: say which, and let the reader type it again."""
    shown = md(clip(err.code or "", 16))
    example = codes.ALPHABET[:codes.LENGTH]
    st.error(s(f"room_{err.why}", code=shown, example=example), icon=":material/error:")
    with st.form("room_code_form"):
        typed = st.text_input(s("room_code_label"), max_chars=16, key="room_code_typed")
        if st.form_submit_button(s("room_code_go"), type="primary", icon=":material/login:"):
            st.query_params["room"] = codes.normalize(typed)
            st.query_params.pop("p", None)
            st.rerun()


# --- live: every view follows the room ----------------------------------------------------------
@st.fragment(run_every=LIVE_S)
def live(store: Store, code: str, screen: str, revealed: frozenset[str], s: Strings, counts_for: str | None,
         show_counts: bool) -> None:
    """Ask the store for the room; rerun the page when its screen or reveals changed. With
    `show_counts`, the people in the room and, on a question, how many answered."""
    try:
        try:
            room = store.room(code)
        except NoRoom:
            st.rerun()  # the room expired while open: the page's full run says so
        if room.screen != screen or room.revealed != revealed:
            st.rerun()
        if show_counts:
            total = store.count_participants(code)
            if counts_for:
                n = sum(store.counts(code, counts_for).values())
                st.markdown(f"**{s('room_answered', n=n, total=total)}**")
            else:
                st.caption(s("room_joined", n=total))
    except StoreDown:
        st.rerun()  # the database is away: the page's full run names it and waits for it (retry_when_back)


# --- the presenter ----------------------------------------------------------------------------------
def _move(c: Ctx, screen: str) -> None:
    try:
        c.store.set_screen(c.room.code, c.key or "", screen)
        lesson_steps.ask_scroll_top()
    except StoreDown:
        st.session_state[DOWN_KEY] = True


def _reveal(c: Ctx, qid: str) -> None:
    try:
        c.store.reveal(c.room.code, c.key or "", qid)
    except StoreDown:
        st.session_state[DOWN_KEY] = True


def presenter_controls(s: Strings, c: Ctx, shortcuts: bool) -> None:
    """Back and next move the whole room: arrow before "back", after "next"; ← → on the projector."""
    i = _position(c, c.room.screen)
    back, _, nxt = st.columns([1, 1, 1])
    if i > 0:
        back.button(s("back"), key="room_back", on_click=_move, args=(c, c.screens[i - 1]), width="stretch",
                    icon=":material/arrow_back:", shortcut="Left" if shortcuts else None)
    if i < len(c.screens) - 1:
        nxt.button(s("next"), key="room_next", on_click=_move, args=(c, c.screens[i + 1]), type="primary",
                   icon=":material/arrow_forward:", icon_position="right", width="stretch",
                   shortcut="Right" if shortcuts else None)


def join_panel(s: Strings, c: Ctx, big: bool) -> None:
    """The code, the QR code and the address, built from the presenter's own browser address."""
    url = codes.join_url(st.context.url, c.room.code)
    if big:
        left, right = st.columns([1, 2], vertical_alignment="center")
        left.image(qr_png(url), caption=s("room_qr_caption", url=md(url)), width=320)
        right.subheader(s("room_join_title"), anchor=False)
        right.markdown(f"## {s('room_code_big', code=c.room.code)}")
        right.markdown(s("room_join_how", url=f"`{url}`"))
    else:
        st.caption(s("room_strip", url=f"`{url}`", code=c.room.code))


@st.cache_data(show_spinner=False, max_entries=16)
def qr_png(url: str) -> bytes:
    """The join address as a QR code, PNG bytes (segno, error correction M, a quiet zone of 4 modules)."""
    import io

    buf = io.BytesIO()
    segno.make(url, error="m").save(buf, kind="png", scale=10, border=4)
    return buf.getvalue()


def progress(s: Strings, c: Ctx, screen: str) -> None:
    i = _position(c, screen)
    st.progress((i + 1) / len(c.screens), text=s("progress", n=i + 1, total=len(c.screens)))


def projected_view(s: Strings, c: Ctx) -> None:
    screen = _current(c)
    progress(s, c, screen)
    join_panel(s, c, big=screen == c.screens[0])
    presenter_controls(s, c, shortcuts=True)
    question = _question(c, screen)
    live(c.store, c.room.code, screen, c.room.revealed, s, question.id if question else None, True)
    screen_body(s, c, screen, role="projector")
    notes_url = codes.join_url(st.context.url, c.room.code, extra={"notes": "1", "lang": c.d.lang, "key": c.key or ""})
    st.link_button(s("notes_open"), notes_url, icon=":material/speaker_notes:")
    st.page_link("pages/lesson.py", label=s("room_close"), icon=":material/logout:",
                 query_params={"step": "1", "lang": c.d.lang})


def notes_view(s: Strings, c: Ctx) -> None:
    """The presenter's laptop: what the room sees, the notes, the counts; back/next and reveal."""
    st.html(NOTES_CSS)
    screen = _current(c)
    i = _position(c, screen)
    st.header(s("notes_title", n=i + 1, total=len(c.screens)), anchor=False)
    question = _question(c, screen)
    st.caption(s("notes_screen", title=_screen_title(s, c, screen)))
    presenter_controls(s, c, shortcuts=True)
    live(c.store, c.room.code, screen, c.room.revealed, s, question.id if question else None, True)
    if question is not None:
        if question.id not in c.room.revealed:
            st.button(s("room_reveal"), key="room_reveal_notes", on_click=_reveal, args=(c, question.id),
                      icon=":material/visibility:", type="primary")
        why(s, c, question)
    elif screen == "done":
        results_table(s, c)
    else:
        st.markdown(md(c.les.steps[int(screen) - 1].notes[c.d.lang]))


def _question(c: Ctx, screen: str) -> quiz.Question | None:
    return next((q for q in c.questions if screen == f"q:{q.id}"), None)


def _screen_title(s: Strings, c: Ctx, screen: str) -> str:
    q = _question(c, screen)
    if q is not None:
        return s("room_question_kicker", n=c.questions.index(q) + 1, total=len(c.questions))
    if screen == "done":
        return s("room_results_title")
    return md(c.les.steps[int(screen) - 1].title[c.d.lang])


# --- a participant --------------------------------------------------------------------------------
def phone_view(s: Strings, c: Ctx) -> None:
    me = c.store.participant(c.room.code, st.query_params.get("p"))
    if me is None:
        join_form(s, c)
        return
    c = Ctx(**{**c.__dict__, "token": me.token})
    # Follow the presenter: a new room screen replaces whatever this phone looked back at.
    if st.session_state.get("room_seen") != (c.room.code, c.room.screen):
        if st.session_state.get("room_seen"):
            lesson_steps.ask_scroll_top()  # the new screen opens at its top (on the next run: see lesson_steps)
        st.session_state["room_seen"] = (c.room.code, c.room.screen)
        st.session_state.pop("room_own", None)
        lesson_steps.scroll_top_if_asked()
    own = st.session_state.get("room_own")
    screen = own if own in c.screens and _position(c, own) < _position(c, c.room.screen) else _current(c)
    welcome = s("room_welcome_nick", code=c.room.code, nick=md(me.nickname)) if me.nickname else s("room_welcome", code=c.room.code)
    st.caption(welcome)
    progress(s, c, screen)
    live(c.store, c.room.code, c.room.screen, c.room.revealed, s, None, False)
    if screen != _current(c):
        st.info(s("room_own_note", n=_position(c, c.room.screen) + 1), icon=":material/history:")
    screen_body(s, c, screen, role="phone")
    back, _, follow = st.columns([1, 1, 1])
    i = _position(c, screen)
    if i > 0:
        back.button(s("room_own_back"), key="room_own_back", icon=":material/arrow_back:", width="stretch",
                    on_click=st.session_state.__setitem__, args=("room_own", c.screens[i - 1]))
    if screen != _current(c):
        follow.button(s("room_follow"), key="room_follow", icon=":material/arrow_forward:", icon_position="right",
                      type="primary", width="stretch", on_click=st.session_state.pop, args=("room_own", None))


def join_form(s: Strings, c: Ctx) -> None:
    st.subheader(s("room_join_title"), anchor=False)
    st.markdown(f"**{s('room_code_big', code=c.room.code)}**")
    with st.form("room_join_form"):
        nick = st.text_input(s("room_nick_label"), max_chars=room_store.NICKNAME_MAX, key="room_nick")
        if st.form_submit_button(s("room_join_button"), type="primary", icon=":material/login:"):
            me = c.store.join(c.room.code, nick)
            st.query_params["p"] = me.token
            st.rerun()


def _answer(c: Ctx, q: quiz.Question) -> None:
    choice = st.session_state.get(f"room_q_{q.id}")
    if choice is None:
        return
    try:
        st.session_state["room_answer_result"] = c.store.answer(c.room.code, c.token or "", q.id, choice,
                                                                [o.id for o in q.options])
    except StoreDown:
        st.session_state[DOWN_KEY] = True


# --- one screen -----------------------------------------------------------------------------------
def screen_body(s: Strings, c: Ctx, screen: str, role: str) -> None:
    question = _question(c, screen)
    if question is not None:
        question_screen(s, c, question, role)
    elif screen == "done":
        results_table(s, c) if role != "phone" else my_score(s, c)
    else:
        n = int(screen)
        lesson_steps.step(s, c.les.steps[n - 1], n, c.d, notes=False)


def labels_of(c: Ctx, q: quiz.Question) -> dict[str, str]:
    return {o.id: md(o.label[c.d.lang]) for o in q.options}


def question_screen(s: Strings, c: Ctx, q: quiz.Question, role: str) -> None:
    labels = labels_of(c, q)
    st.caption(s("room_question_kicker", n=c.questions.index(q) + 1, total=len(c.questions)))
    st.header(md(q.question[c.d.lang]), anchor=False)
    revealed = q.id in c.room.revealed
    if role == "phone":
        mine = c.store.my_answer(c.room.code, c.token or "", q.id)
        if not revealed:
            ids = [o.id for o in q.options]
            st.radio(s("quiz_number", n=c.questions.index(q) + 1), ids, index=ids.index(mine) if mine in ids else None,
                     format_func=labels.get, key=f"room_q_{q.id}", on_change=_answer, args=(c, q),
                     label_visibility="collapsed")
            result = st.session_state.pop("room_answer_result", None)
            if result in (room_store.ANSWER_FLOOD, room_store.ANSWER_CLOSED, room_store.ANSWER_INVALID):
                st.warning(s("room_answer_refused"))
            elif mine is not None:
                st.success(s("room_your_answer", answer=labels[mine]), icon=":material/check:")
            st.caption(s("room_wait_reveal"))
            return
        right = c.outcomes[q.id].right
        if mine is None:
            st.info(s("room_mine_none"))
        elif mine == right:
            st.success(s("room_mine_right", answer=labels[mine]), icon=":material/check_circle:")
        else:
            st.error(s("room_mine_wrong", answer=labels[mine]), icon=":material/cancel:")
    else:
        st.markdown("\n".join(f"- {labels[o.id]}" for o in q.options))
        if not revealed:
            st.button(s("room_reveal"), key="room_reveal", on_click=_reveal, args=(c, q.id),
                      icon=":material/visibility:", type="primary")
            return
    reveal_block(s, c, q, labels)


def reveal_block(s: Strings, c: Ctx, q: quiz.Question, labels: Mapping[str, str]) -> None:
    """The room's answers as a chart and as text, the estimator's answer and its why."""
    right = c.outcomes[q.id].right
    ids = [o.id for o in q.options]
    dist = results.distribution(c.store.counts(c.room.code, q.id), ids)
    raw = {o.id: o.label[c.d.lang] for o in q.options}  # plotly text, not Markdown: the labels unescaped
    fig = answer_bars([raw[i] for i in ids], [n for _, n in dist], right=ids.index(right),
                      font_size=24 if c.d.present else 14, wrap=40 if c.d.present else 22)
    charts.show(fig, f"room_chart_{q.id}", table=False)  # each answer's count is written out just below
    rows = "; ".join(s("room_chart_right" if i == right else "room_chart_row", label=labels[i], n=n) for i, n in dist)
    st.caption(s("room_chart_alt", rows=rows))
    st.success(s("room_right_answer", answer=labels[right]), icon=":material/lightbulb:")
    why(s, c, q)


def why(s: Strings, c: Ctx, q: quiz.Question) -> None:
    outcome = c.outcomes[q.id]
    st.markdown(f"**{s('quiz_why')}** " + md(quiz.fill(q.explanation[c.d.lang], outcome.seconds[outcome.right], c.d.f.seconds)))


def score_table(s: Strings, c: Ctx) -> tuple[list[str], list[list[object]]]:
    """The room's score per question: header and rows (the table on screen and the CSV)."""
    got = results.scores([(q.id, c.outcomes[q.id].right) for q in c.questions], c.store.all_answers(c.room.code))
    header = [s("room_col_question"), s("room_col_answered"), s("room_col_right"), s("room_col_share")]
    rows = [[f"{k}. {q.question[c.d.lang]}", x.answered, x.right, "–" if x.share is None else c.d.f.percent(x.share)]
            for k, (q, x) in enumerate(zip(c.questions, got), 1)]
    return header, rows


def results_table(s: Strings, c: Ctx) -> None:
    st.header(s("room_results_title"), anchor=False)
    st.caption(s("room_results_intro"))
    header, rows = score_table(s, c)
    st.table(pd.DataFrame(rows, columns=header).set_index(header[0]))  # HTML text: presenter mode's 24 px reaches it
    st.download_button(s("room_download"), results.csv_text(header, rows).encode("utf-8-sig"),
                       file_name=f"room-{c.room.code}.csv", mime="text/csv", icon=":material/download:",
                       key="room_csv")


def my_score(s: Strings, c: Ctx) -> None:
    st.header(s("room_results_title"), anchor=False)
    right = sum(c.store.my_answer(c.room.code, c.token or "", q.id) == c.outcomes[q.id].right for q in c.questions)
    st.subheader(s("room_my_score", right=right, total=len(c.questions)), anchor=False)
