"""A participant's phone in a room (issue 30 items 3, 4, 7).

One person per phone: the participant's token is kept in a cookie (`latency_room_<CODE>`, set by a
small constant script through st.html, read back through `st.context.cookies` when the page is opened
again), so re-scanning the QR code or reopening the address resumes the same participant, with their
nickname and answers; "leave the room" forgets it and the presenter no longer counts them. The token
is never in the address, so a copied address never makes another phone this participant.

On a question: the options as tap targets at least 44 px high with space between (a mis-tap shows
at once what was saved); the second vote after a discussion; the countdown; the reveal with the
first vote beside the second. When the connection drops, a banner (shown by a constant script that
watches Streamlit's own connection state) says it is reconnecting and what was saved. At the end, or
once the presenter ends the room: the room's results and the phone's own score over the questions
asked.
"""

from __future__ import annotations

import json
import logging
import re
from typing import NamedTuple

import streamlit as st

from latency.charts.style import CHOSEN_FILL, NOFIT, SECOND_VOTE
from latency.language.i18n import Strings, clip, md
from latency.room import codes, store as room_store
from latency.room.store import NoRoom, SPREAD, StoreDown
from latency.teaching import quiz
from ui import lesson_steps, room_results, style
from ui.room_view import (DONE, DOWN_KEY, LOBBY, Ctx, Vote, current, lettered, live, position, question_of, vote_for,
                          vote_now, where)

log = logging.getLogger("latency.room")

COOKIE = "latency_room_{code}"
LEFT_COOKIE = "latency_room_left_{code}"  # the token of the participant this phone was before leaving: joining again
# with the same nickname is that participant again, answers and score with it (presenter trial 2026-12-06: a phone
# that left at the results and came back as "민지" was told it had answered none of the 12 questions)
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
PHONE_CSS = f"""<style>
.st-key-room_answers [data-testid="stElementContainer"], .st-key-room_answers [data-testid="stRadio"] {{ width: 100% !important; }}
.st-key-room_answers [role="radiogroup"] {{ gap: 12px; width: 100%; }}
.st-key-room_answers [role="radiogroup"] > div {{ width: 100%; }}
.st-key-room_answers [data-testid="stRadioOption"] {{ min-height: 52px; width: 100%; box-sizing: border-box; margin: 0;
  padding: 10px 12px; border: 1px solid {NOFIT}; border-radius: 10px; align-items: center; }}
.st-key-room_answers [data-testid="stRadioOption"]:has(input:checked) {{ border: 2px solid {SECOND_VOTE}; background: {CHOSEN_FILL}; }}
.st-key-room_answers [data-testid="stWidgetLabel"] {{ display: none !important; }}
.st-key-room_reconnecting {{ display: none; }}
.st-key-room_phone_body [data-testid="InputInstructions"] {{ display: none; }}
.st-key-room_ended_ways a {{ min-height: 48px; display: flex; align-items: center; }}
[class*="st-key-lesson_w_"] [data-testid="stButtonGroup"] > div {{ padding-right: 1px; }}
@media (max-width: 640px) {{
[data-testid="stMainBlockContainer"] {{ padding-top: 3rem !important; }}
[data-testid="stMain"] h2 {{ font-size: 1.45rem !important; padding-top: 0.2rem !important; }}
}}
html.room-offline .st-key-room_reconnecting {{ display: block; position: sticky; top: 0; z-index: 1000; }}
</style>"""
# A step's choice buttons, wrapped onto rows, overlap by 1 px (Streamlit's -1 px margin): the last one of a row
# ran 1 px past the column and lost its right border (presenter re-check 2026-12-05, the hardware step at 390 px).
# On a phone the page starts below the app's fixed top bar (60 px): at 0.75rem the countdown and the join
# form's title began under it (presenter trials 2026-12-05).
# Answer options: each a tap target 52 px high or more with 12 px between (WCAG 2.5.8 asks 24 px; Apple's
# and the guide's 44 px), the one chosen outlined in blue-700 (6.7:1); borders in slate-500 (4.8:1).
# A constant script: Streamlit marks its app element with the connection's state; while it is not
# CONNECTED (or the browser is offline) the page shows the reconnecting banner drawn (hidden) below.
RECONNECT_JS = """<script>
if (!window.__roomOffline) {
  window.__roomOffline = setInterval(() => {
    const app = document.querySelector('[data-testid=stApp]');
    const state = app && app.getAttribute('data-test-connection-state');
    const off = !navigator.onLine || (state && state !== 'CONNECTED');
    document.documentElement.classList.toggle('room-offline', !!off);
  }, 500);
}
</script>"""


# --- who this phone is ----------------------------------------------------------------------------
def _cookie_name(code: str) -> str:
    return COOKIE.format(code=code)


def token_of(code: str) -> str | None:
    """This phone's participant token for the room: this session's, else the cookie the browser
    sent when the page was opened (unless this phone left the room)."""
    if st.session_state.get(f"room_left_{code}"):
        return st.session_state.get(f"room_token_{code}")
    return st.session_state.get(f"room_token_{code}") or st.context.cookies.get(_cookie_name(code))


def _cookie_js(code: str, token: str, max_age: int, name: str = COOKIE) -> str:
    if not codes.is_valid(code) or not _TOKEN.match(token):
        return ""
    value = f"{name.format(code=code)}={token}; path=/; max-age={max_age}; samesite=lax"
    return f"<script>document.cookie = {json.dumps(value)};</script>"


def left_token(code: str) -> str | None:
    """The participant this phone was in the room before it left: this session's, else the browser's cookie."""
    return st.session_state.get(f"room_left_token_{code}") or st.context.cookies.get(LEFT_COOKIE.format(code=code))


def remember(code: str, token: str) -> None:
    """Keep the token in the browser for the room's life, so this phone stays this participant."""
    if st.context.cookies.get(_cookie_name(code)) == token:
        return
    script = _cookie_js(code, token, int(room_store.ROOM_TTL.total_seconds()))
    if script:
        st.html(script, unsafe_allow_javascript=True)


def _leave(c: Ctx) -> None:
    st.session_state.pop(CONFIRM_LEAVE, None)
    try:
        c.store.leave(c.room.code, c.token or "")
    except StoreDown:
        st.session_state[DOWN_KEY] = True
    st.session_state[f"room_left_{c.room.code}"] = True
    st.session_state.pop(f"room_token_{c.room.code}", None)
    st.session_state["room_forget"] = (c.room.code, c.token or "")
    if c.token:
        st.session_state[f"room_left_token_{c.room.code}"] = c.token


# --- entry ----------------------------------------------------------------------------------------
def phone_view(s: Strings, c: Ctx) -> None:
    head = st.container(key=style.SCRIPTS_KEY + "room_phone")  # style and scripts only: folded away, no gap above the page
    head.html(PHONE_CSS + RECONNECT_JS, unsafe_allow_javascript=True)  # constant: no content, no input
    forget = st.session_state.pop("room_forget", None)
    if forget:  # the room's cookie goes; the participant it named is kept aside for joining again (LEFT_COOKIE)
        ttl = int(room_store.ROOM_TTL.total_seconds())
        head.html((_cookie_js(forget[0], forget[1], 0) + _cookie_js(forget[0], forget[1], ttl, LEFT_COOKIE))
                  or "<span></span>", unsafe_allow_javascript=True)
    me = c.store.participant(c.room.code, token_of(c.room.code))
    if me is None:
        with st.container(key="room_phone_body"):
            if c.room.ended:
                ended_room(s, c)
            else:
                join_form(s, c)
        return
    st.session_state[f"room_token_{c.room.code}"] = me.token
    with head:
        remember(c.room.code, me.token)
    c = c.with_token(me.token)
    # Follow the presenter: a new room screen replaces whatever this phone looked back at.
    if st.session_state.get("room_seen") != (c.room.code, c.room.screen):
        if st.session_state.get("room_seen"):
            lesson_steps.ask_scroll_top()  # the new screen opens at its top (on the next run: see lesson_steps)
        st.session_state["room_seen"] = (c.room.code, c.room.screen)
        st.session_state.pop("room_own", None)
        lesson_steps.scroll_top_if_asked(head)  # in the folded-away head: nothing below it moves
    v = vote_now(c)
    reconnecting(s, c, v)
    # what the last run drew goes before the poll runs inline here: the poll compares the browser's choice with it
    # between runs only (kept, it asked this run, which had just saved a click, for a second run: every answer
    # cost the phone two runs). Set again where an open vote's options are drawn
    st.session_state.pop(ANSWER_DRAWN, None)
    live(c, s, counts=False, drawn_over=v.over)
    if c.room.ended:
        st.header(s("room_ended_title"), anchor=False)
        st.markdown(s("room_ended_phone"))
        room_results.my_score(s, c)
        room_results.room_results(s, c, s("room_results_title"), present=False, chart=False)
        ways_out(s)  # a participant's phone had no way on from here (presenter trial 2026-12-05)
        return
    # the name as the presenter's list shows it: "민지 (2)" for a second "민지" (presenter re-check 2026-12-06)
    twin = st.session_state.get(f"{TWIN_KEY}_{c.room.code}")
    shown = s("room_who_again", name=me.nickname, n=twin.n) if me.nickname and twin and twin.nick == me.nickname else me.nickname
    welcome = s("room_welcome_nick", code=c.room.code, nick=md(shown)) if shown else s("room_welcome", code=c.room.code)
    st.caption(welcome)  # one short line: the room and who this phone is
    twin_note(s, c)
    own = st.session_state.get("room_own")
    screen = own if own in c.screens and position(c, own) < position(c, current(c)) else current(c)
    note = st.container()  # on every run, so the note comes and goes without moving the screen below it (`lesson_steps.style`)
    if screen != current(c):
        note.info(s("room_own_note", where=where(s, c, current(c))), icon=":material/history:")
    body(s, c, screen, v)
    back, _, follow = st.columns([1, 1, 1])
    i = position(c, screen)
    if i > 1:  # the lobby is no screen to look back at
        back.button(s("room_own_back"), key="room_own_back", icon=":material/arrow_back:", width="stretch",
                    on_click=_look, args=(c.screens[i - 1],))
    if screen != current(c):
        follow.button(s("room_follow"), key="room_follow", icon=":material/arrow_forward:", icon_position="right",
                      type="primary", width="stretch", on_click=_look, args=(None,))
    leave_controls(s, c)


ENDED_LANG_KEY = "room_ended_lang_checked"


def ended_room(s: Strings, c: Ctx) -> None:
    """Someone who was not in it opens an ended room: in the phone's own language (its browser's, not
    the room's; the whole page follows once, so the language switch names the other language, and
    still works), that it ended, and where to go: the start page or the lesson on one's own."""
    if not st.session_state.get(ENDED_LANG_KEY):
        st.session_state[ENDED_LANG_KEY] = True
        own = phone_strings(s)
        if own.lang != s.lang:
            st.session_state["lang"] = own.lang
            st.rerun()
    st.error(s("room_ended", code=c.room.code), icon=":material/stop_circle:")
    ways_out(s)


def ways_out(s: Strings) -> None:
    """Where to go once the room has ended: the start page, or the lesson on one's own."""
    with st.container(horizontal=True, gap="medium", key="room_ended_ways"):
        st.page_link("pages/glossary.py", label=s("room_ended_to_start"), icon=":material/home:",
                     query_params={"lang": s.lang})
        st.page_link("pages/lesson.py", label=s("room_ended_to_lesson"), icon=":material/school:",
                     query_params={"step": "1", "lang": s.lang})


def _look(screen: str | None) -> None:
    """Look back at an earlier screen (None: follow the presenter again), opened at its top so the
    note above it and its title are in view."""
    if screen is None:
        st.session_state.pop("room_own", None)
    else:
        st.session_state["room_own"] = screen
    lesson_steps.ask_scroll_top()


CONFIRM_LEAVE = "room_confirm_leave"


def leave_controls(s: Strings, c: Ctx) -> None:
    """"Leave the room", asked first (one tap dropped the trial's phone back to the nickname form)."""
    if not st.session_state.get(CONFIRM_LEAVE):
        st.button(s("room_leave"), key="room_leave", icon=":material/logout:",
                  on_click=st.session_state.__setitem__, args=(CONFIRM_LEAVE, True))
        return
    st.warning(s("room_leave_confirm"), icon=":material/help:")
    with st.container(horizontal=True, gap="small"):
        st.button(s("room_cancel"), key="room_leave_cancel", type="primary", on_click=st.session_state.pop,
                  args=(CONFIRM_LEAVE, None))
        st.button(s("room_leave_yes"), key="room_leave_yes", icon=":material/logout:", on_click=_leave, args=(c,))


def _browser_locale() -> str:
    try:
        value = st.context.locale
    except Exception:  # no browser (a headless run)
        return ""
    return value if isinstance(value, str) else ""


def phone_strings(s: Strings) -> Strings:
    """The strings in this phone's own language: its browser's (st.context.locale), else the page's."""
    from ui import shell

    locale = _browser_locale().lower()
    lang = "ko" if locale.startswith("ko") else "en" if locale.startswith("en") else None
    return s if lang is None or lang == s.lang else shell.strings("lesson", lang)


def reconnecting(s: Strings, c: Ctx, v: Vote) -> None:
    """Hidden until the connection drops (RECONNECT_JS): says so, and what this phone has saved."""
    saved = s("room_saved_screen")
    if v.question is not None and v.vote is not None:
        mine = c.store.my_answer(c.room.code, c.token or "", v.question.id, v.vote)
        saved = s("room_saved_one", answer=_label(c, v.question, mine)) if mine else s("room_saved_none")
    with st.container(key="room_reconnecting"):
        st.warning(s("room_reconnecting", saved=saved), icon=":material/wifi_off:")


def join_form(s: Strings, c: Ctx) -> None:
    st.subheader(s("room_phone_join_title"), anchor=False)  # already on the phone: not the lobby's "join on your phone"
    st.markdown(f"**{s('room_code_big', code=c.room.code)}**")
    # Enter in the box joins; Streamlit's English "Press Enter to submit form" under it is hidden (PHONE_CSS)
    # No max_chars on the box: Streamlit's box ignores a paste longer than it (the trial's 32-character
    # nickname vanished and the person joined without one); the length is checked on joining instead.
    with st.form("room_join_form", enter_to_submit=True):
        st.text_input(s("room_nick_label", n=room_store.NICKNAME_MAX), key="room_nick")
        long = st.session_state.pop("room_nick_long", None)
        if long:  # refused, the form kept with what was typed: the person shortens it as they like
            st.error(s("room_nick_too_long", n=room_store.NICKNAME_MAX, length=long), icon=":material/error:")
        st.form_submit_button(s("room_join_button"), type="primary", icon=":material/login:",
                              on_click=_join, args=(c,))


def _join(c: Ctx) -> None:
    """Join with the nickname typed; one longer than the store keeps is refused, nothing cut: the
    form stays with the name in it and says how long it is and how long it may be."""
    nick = " ".join(str(st.session_state.get("room_nick") or "").split())
    if len(nick) > room_store.NICKNAME_MAX:
        st.session_state["room_nick_long"] = len(nick)
        return
    try:
        before = c.store.participant(c.room.code, left_token(c.room.code))
        again = before is not None and (before.nickname or "") == nick  # this phone, the same name: the same person
        me = c.store.join(c.room.code, nick or None, token=before.token if again else None)
    except StoreDown:
        st.session_state[DOWN_KEY] = True
        return
    except NoRoom:
        return  # ended or expired meanwhile: the next run says which
    st.session_state[f"room_token_{c.room.code}"] = me.token
    st.session_state.pop(f"room_left_{c.room.code}", None)
    st.session_state["room_touched"] = 0.0
    if again:  # the same participant back keeps its place in the list, and its number there
        return
    key = f"{TWIN_KEY}_{c.room.code}"
    same = sum(1 for n in c.store.nicknames(c.room.code) if n and n == nick) if nick else 0
    if same > 1:  # the lobby shows this phone as "민지 (2)": the phone is told so (presenter re-check 2026-12-05)
        st.session_state[key] = Twin(nick, same, c.room.screen)
    else:
        st.session_state.pop(key, None)


TWIN_KEY = "room_nick_twin"


class Twin(NamedTuple):
    """A phone that joined with a nickname already in the room: the name, its number in the lists, and the
    screen it joined on while its note is still to be shown there (None once the presenter moved on)."""

    nick: str
    n: int
    note_on: str | None


def twin_note(s: Strings, c: Ctx) -> None:
    """Once a phone joined with a nickname already in the room: how the lists show it, and how to change
    it; said on the screen it joined on, gone once the presenter moves on."""
    key = f"{TWIN_KEY}_{c.room.code}"
    twin = st.session_state.get(key)
    if not twin or twin.note_on is None:
        return
    if twin.note_on != c.room.screen:
        st.session_state[key] = twin._replace(note_on=None)
        return
    st.info(s("room_nick_twin", shown=md(s("room_who_again", name=twin.nick, n=twin.n)), leave=s("room_leave")),
            icon=":material/badge:")


def code_form(s: Strings, err: NoRoom, presenter: bool = False) -> None:
    """An unknown, expired, ended or mistyped code: say which, and let the reader type it again."""
    from ui import room_join

    shown = md(clip(err.code or "", 16))
    if presenter and err.why == "expired":
        st.error(s("room_expired_presenter", code=shown), icon=":material/error:")
        return
    message = room_join.lookalike_message(s, err.code) if err.why == "invalid" else None
    st.error(message or s(f"room_{err.why}", code=shown, example=codes.ALPHABET[:codes.LENGTH]), icon=":material/error:")
    room_join.code_field(s, "room_code")


# --- one screen -----------------------------------------------------------------------------------
def body(s: Strings, c: Ctx, screen: str, v: Vote) -> None:
    q = question_of(c, screen)
    if q is not None:
        question(s, c, q, v if screen == current(c) else vote_for(c, q))
    elif screen == DONE:
        room_results.my_score(s, c)
        room_results.room_results(s, c, s("room_results_title"), present=False, chart=False)
    elif screen == LOBBY:
        st.subheader(s("room_lobby_wait"), anchor=False)
    else:
        n = int(screen)  # where the room is, as a question says "Question 2 of 12" (presenter trials: no step counter)
        st.caption(s("step_count", n=n, total=len(c.les.steps)))  # as on the projector
        lesson_steps.step(s, c.les.steps[n - 1], n, c.d, notes=False)


def _label(c: Ctx, q: quiz.Question, option_id: str | None) -> str:
    return md(next((x for o, x in zip(q.options, lettered(q, c.d.lang)) if o.id == option_id), "–"))


def question(s: Strings, c: Ctx, q: quiz.Question, v: Vote) -> None:
    st.caption(s("room_question_kicker", n=c.questions.index(q) + 1, total=len(c.questions)))
    st.header(md(q.question[c.d.lang]), anchor=False)
    first, second = c.store.my_answers(c.room.code, c.token or "").get(q.id, (None, None))
    if q.id in c.room.revealed:
        revealed(s, c, q, first, second)
        return
    if c.room.phase(q.id) == SPREAD:
        st.info(s("room_vote_closed_phone"), icon=":material/forum:")
        # a phone that had not voted was told only "the first vote is closed" (presenter re-check, 2026-12-04)
        st.markdown(s("room_my_first", answer=_label(c, q, first)) if first else s("room_my_first_none"))
        room_results.votes_chart(s, c, q, reveal=False, key=f"room_spread_{q.id}")
        return
    vote = v.vote
    if vote == 2:
        st.markdown(f"**{s('room_vote2_kicker')}**")
        if first:
            st.caption(s("room_my_first", answer=_label(c, q, first)))
        elif second is None and not v.over:  # said until it answers (presenter trial 2026-12-05: it stayed after)
            st.caption(s("room_my_first_none_now"))  # the second vote is open: it can answer now (trial 2026-12-06)
    mine = first if vote == 1 else second
    ids = [o.id for o in q.options]
    labels = {o.id: md(x) for o, x in zip(q.options, lettered(q, c.d.lang))}
    if v.over:  # said once, the options still there (greyed) with the answer saved
        st.warning(s("room_timer_over"), icon=":material/timer_off:")
    else:
        mine = settle(c, q, vote or 1, mine)
        st.session_state[ANSWER_DRAWN] = (answer_key(q, vote or 1), mine)
    with st.container(key="room_answers"):  # its label, "Question N", is drawn though "collapsed" and repeated the
        # "Question N of 12" above (presenter re-check): hidden (PHONE_CSS); the radiogroup keeps it as its aria-label
        st.radio(s("quiz_number", n=c.questions.index(q) + 1), ids, index=ids.index(mine) if mine in ids else None,
                 format_func=labels.get, key=f"{answer_key(q, vote or 1)}{'_over' if v.over else ''}",
                 on_change=_answer, args=(c, q, vote or 1), label_visibility="collapsed", disabled=v.over)
    if v.over:
        if mine:
            st.success(s("room_saved_one", answer=labels[mine]), icon=":material/check:")
        return
    result = st.session_state.pop("room_answer_result", None)
    if result in (room_store.ANSWER_FLOOD, room_store.ANSWER_CLOSED, room_store.ANSWER_INVALID):
        st.warning(s("room_answer_refused"))
    elif mine is not None:
        st.success(s("room_your_answer", answer=labels[mine]), icon=":material/check:")
    st.caption(s("room_wait_reveal"))


ANSWER_DRAWN = "room_answer_drawn"
"""(the open vote's answer key, the answer the page drew under it): `room_view.live` compares the
browser's choice with it."""
ANSWER_TRIES = "room_answer_tries"
"""{"<answer key>/<choice>": saves tried by `settle`}: a choice the store refused or could not take is
tried SAVE_TRIES times, not in a loop."""
SAVE_TRIES = 3


def answer_key(q: quiz.Question, vote: int) -> str:
    return f"room_q{'' if vote == 1 else '2'}_{q.id}"


def _tries(key: str, chosen: str) -> int:
    return st.session_state.get(ANSWER_TRIES, {}).get(f"{key}/{chosen}", 0)


def pending_answer() -> bool:
    """Whether the browser holds a choice on the open vote that the page's last run did not draw as saved,
    and that `settle` has not yet tried SAVE_TRIES times: `room_view.live` then reruns the page, whose run
    saves it. Read between runs only (the page's run takes ANSWER_DRAWN away before the poll runs inline)."""
    drawn = st.session_state.get(ANSWER_DRAWN)
    if not drawn:
        return False
    key, mine = drawn
    chosen = st.session_state.get(key)
    return chosen is not None and chosen != mine and _tries(key, chosen) < SAVE_TRIES


def settle(c: Ctx, q: quiz.Question, vote: int, mine: str | None) -> str | None:
    """The answer to draw on an open vote. A choice the browser holds that the store does not (its click's
    callback never ran or its save failed: full CI runs, 2026-12-06 and -07, left a phone 30 s with its option
    checked and no "saved"; the cause is not proven) is saved here, up to SAVE_TRIES times per choice (a store
    that is down, a refusal); returns what the store then holds."""
    key = answer_key(q, vote)
    chosen = st.session_state.get(key)
    if chosen is None or chosen == mine or chosen not in {o.id for o in q.options}:
        return mine
    n = _tries(key, chosen)
    if n >= SAVE_TRIES:
        return mine
    st.session_state[ANSWER_TRIES] = {**st.session_state.get(ANSWER_TRIES, {}), f"{key}/{chosen}": n + 1}
    log.warning("room %s: question %s vote %d: the browser's choice was not saved by its click; saving it (try %d)",
                c.room.code, q.id, vote, n + 1)
    _save(c, q, vote)
    if st.session_state.get("room_answer_result") in (room_store.ANSWER_SAVED, room_store.ANSWER_CHANGED,
                                                      room_store.ANSWER_SAME):
        return chosen
    return mine


def _answer(c: Ctx, q: quiz.Question, vote: int) -> None:
    """The options' callback: a click saves its choice, and a later choice whose click is lost is tried afresh."""
    st.session_state.pop(ANSWER_TRIES, None)
    _save(c, q, vote)


def _save(c: Ctx, q: quiz.Question, vote: int) -> None:
    choice = st.session_state.get(answer_key(q, vote))
    if choice is None:
        return
    try:
        st.session_state["room_answer_result"] = c.store.answer(c.room.code, c.token or "", q.id, choice,
                                                                [o.id for o in q.options], vote=vote)
    except StoreDown:
        st.session_state.pop("room_answer_result", None)
        st.session_state[DOWN_KEY] = True


def revealed(s: Strings, c: Ctx, q: quiz.Question, first: str | None, second: str | None) -> None:
    right = c.outcomes[q.id].right
    if c.store.counts(c.room.code, q.id, 2):  # the room voted twice: both of this phone's votes
        for name, mine in ((s("room_vote_first"), first), (s("room_vote_second"), second)):
            verdict = s("room_verdict_none") if mine is None else s("room_verdict_right" if mine == right else "room_verdict_wrong")
            st.markdown(s("room_mine_vote", vote=name, answer=_label(c, q, mine), verdict=verdict))
    elif first is None:
        st.info(s("room_mine_none"))
    elif first == right:
        st.success(s("room_mine_right", answer=_label(c, q, first)), icon=":material/check_circle:")
    else:
        st.error(s("room_mine_wrong", answer=_label(c, q, first)), icon=":material/cancel:")
    room_results.votes_chart(s, c, q, reveal=True, key=f"room_chart_{q.id}")
    st.success(s("room_right_answer", answer=_label(c, q, right)), icon=":material/lightbulb:")
    room_results.why(s, c, q)
