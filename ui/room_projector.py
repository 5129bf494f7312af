"""The presenter's two views of a room (issue 30 items 2, 4, 6): the projected screen and the notes view.

Projected (?present=1&room=CODE, the key in this browser's session/cookie): the lobby (the code at 180 px, 128 px on a 768-line
screen, the QR half the screen's height, the short /join address at 56 px, who is here, live); later screens keep
one row on top: back, a strip with the join address and the code (40 px), forward, and the
presenter's menu (a closed popover: the notes link, ending the room, leaving it), so nothing only
the presenter needs stands on the projected screen. Forward walks a question: an open vote is
revealed, or, with peer instruction, "show the spread, discuss" closes the first vote, forward opens
the second, forward reveals; then the next screen. Back walks the same steps in reverse (a revealed
question opens its vote again, answers kept, once the presenter confirms: the room has seen the
answer). PageDown/PageUp (what clickers send) and the
arrow keys move the room. Every screen fits 1920x1080 and 1366x768 with text of 24 px or more
(tests/e2e/test_room_fits.py), on presenter mode's stylesheet (ui/lesson_steps.py PRESENT_CSS).

Notes (?notes=1&room=CODE): the presenter's laptop: what the room sees, the speaker notes,
the right answer and its why before the reveal, the same controls and counts, the CSV.
"""

from __future__ import annotations

import logging
import time

import streamlit as st

from latency.language.i18n import Strings, md
from latency.room import codes
from latency.room.store import SPREAD, TIMERS_S, VOTE2, NoRoom, StalePress, StoreDown
from latency.teaching import quiz
from ui import lesson_steps, room_results, room_view
from ui.room_view import (CONFIRM_REVEAL, DONE, DOWN_KEY, KEYS_JS, LOBBY, Ctx, Vote, current, lettered, live, position, question_of, vote_now,
                          where)

log = logging.getLogger("latency.room")

BAR_KEY = "room_bar"
QUESTION_COUNT_KEY = "room_question_count"  # "문제 3/12" on the projected screen, drawn at the step count's 32 px (ROOM_CSS)
ROOM_CSS = """<style>
[data-testid="stMain"] .st-key-room_lobby_code p { font-size: 180px !important; line-height: 1.25 !important;
  letter-spacing: 0.08em; font-weight: 700; margin: 0; }
[data-testid="stMain"] .st-key-room_lobby_address p, [data-testid="stMain"] .st-key-room_lobby_address code {
  font-size: 56px !important; line-height: 1.2 !important; }
[data-testid="stMain"] .st-key-room_strip p, [data-testid="stMain"] .st-key-room_strip code {
  font-size: 40px !important; line-height: 1.2 !important; }
[data-testid="stMain"] .st-key-room_strip code, [data-testid="stMain"] .st-key-room_strip strong { white-space: nowrap; }
[data-testid="stMain"] .st-key-room_strip { flex: 1 1 0; min-width: 0; }
[data-testid="stMain"] .st-key-room_step_count p { font-size: 32px !important; line-height: 1.2 !important; white-space: nowrap; }
[data-testid="stMain"] .st-key-room_question_count p,
[data-testid="stMain"] .st-key-room_timers [data-testid="stCaptionContainer"] p { font-size: 32px !important; line-height: 1.2 !important; }
[data-testid="stMain"] .st-key-room_live_big p { font-size: 40px !important; }
[data-testid="stMain"] .st-key-room_options p { font-size: 40px !important; line-height: 1.35 !important; }
[data-testid="stMain"] .st-key-room_chart_box { height: calc(100vh - 420px) !important; min-height: 240px; flex: 0 0 auto; }
[data-testid="stMain"] .st-key-room_results_box { height: calc(100vh - 345px) !important; min-height: 300px; flex: 0 0 auto; }
[data-testid="stMain"] .st-key-room_bar [data-testid="stBaseButton-primary"],
[data-testid="stMain"] .st-key-room_bar [data-testid="stBaseButton-secondary"] { min-width: 0; padding: 0.3em 0.9em; white-space: nowrap; }
[data-testid="stPopoverBody"] [data-testid="stMarkdownContainer"] p, [data-testid="stPopoverBody"] code,
[data-testid="stPopoverBody"] [data-testid="stCaptionContainer"] p { font-size: 24px !important; line-height: 1.4 !important; }
[data-testid="stPopoverBody"] [data-testid="stIconMaterial"], [data-testid="stPopoverBody"] [data-testid="stAlertDynamicIcon"] { font-size: 28px !important; }
[data-testid="stPopoverBody"] { max-width: min(900px, 90vw); }
@media (max-height: 900px) {
[data-testid="stMain"] .st-key-room_lobby_code p { font-size: 128px !important; }
[data-testid="stMain"] .st-key-room_lobby_address p, [data-testid="stMain"] .st-key-room_lobby_address code { font-size: 48px !important; }
[data-testid="stMain"] .st-key-room_strip p, [data-testid="stMain"] .st-key-room_strip code { font-size: 36px !important; }
[data-testid="stMain"] .st-key-room_live_big p { font-size: 36px !important; }
[data-testid="stMain"] .st-key-room_options p { font-size: 30px !important; }
[data-testid="stMain"] .st-key-room_chart_box { height: calc(100vh - 400px) !important; }
[data-testid="stMain"] .st-key-room_bar [data-testid="stBaseButton-primary"],
[data-testid="stMain"] .st-key-room_bar [data-testid="stBaseButton-secondary"],
[data-testid="stMain"] .st-key-room_bar [data-testid="stPopoverButton"] { min-height: 60px; }
}
@media (max-width: 1599px) {  /* a narrower projector: the code strip a little smaller, so the step's count fits beside it; after the
   max-height rules, which it overrides */
[data-testid="stMain"] .st-key-room_strip p, [data-testid="stMain"] .st-key-room_strip code { font-size: 30px !important; }
[data-testid="stMain"] .st-key-room_step_count p { font-size: 26px !important; } }
</style>"""
QR_PX = 560  # the QR code's side: 52% of a 1080-line screen; on a 768-line one its column keeps it near 500 px (a third at least)


def style() -> None:
    st.html(ROOM_CSS)
    st.html(KEYS_JS, unsafe_allow_javascript=True)


# --- what the presenter does ------------------------------------------------------------------
def _act(change, *args) -> None:
    """A presenter's change to the room; a database that is down is named on the next run."""
    try:
        change(*args)
    except StoreDown:
        st.session_state[DOWN_KEY] = True
    except PermissionError:
        pass  # the room ended meanwhile (another tab): the next run shows it
    except StalePress as press:
        log.warning("%s", press)  # the next run draws the room as it is


def _move(c: Ctx, screen: str) -> None:
    _act(c.store.set_screen, c.room.code, c.key or "", screen, c.room.screen)
    lesson_steps.ask_scroll_top()


HELD_KEY = "room_forward_held"  # when this presenter last revealed an answer
HOLD_S = 1.0
"""Seconds after a reveal in which "next" does nothing. "Reveal" and "next" sit on the same spot, so a double
click revealed the answer and moved on before anyone read it (newcomer trial 2026-12-05: two clicks 0.5 s
apart skipped the answer on the wall and every phone); a double PageDown is the same two presses (0.15-0.5 s
apart in an earlier trial). A deliberate "next" comes after people have looked at the answer, seconds later."""


def _hold() -> None:
    st.session_state[HELD_KEY] = time.monotonic()


def held() -> bool:
    """Whether a forward press now is the second half of a double press on a reveal (`HOLD_S`)."""
    return time.monotonic() - st.session_state.get(HELD_KEY, float("-inf")) < HOLD_S


def _reveal_now(c: Ctx, question_id: str) -> None:
    """Reveal the answer (unless this press is itself the second of a double press) and hold "next"."""
    if held():
        return
    _act(c.store.reveal, c.room.code, c.key or "", question_id)
    _hold()


def _move_on(c: Ctx, screen: str) -> None:
    """Forward to the next screen, unless the press follows a reveal within HOLD_S (`HOLD_S`)."""
    if held():
        return
    _move(c, screen)


def forward(s: Strings, c: Ctx, v: Vote) -> tuple[str, callable, tuple] | None:
    """What "forward" does now: reveal an open question, open the second vote after the spread, or
    move to the next screen; None on the last screen."""
    q = v.question
    if q is not None and q.id not in c.room.revealed:
        if c.room.phase(q.id) == SPREAD:
            return s("room_vote2_button"), _act, (c.store.set_phase, c.room.code, c.key or "", q.id, VOTE2)
        if st.session_state.get(CONFIRM_REVEAL) == f"{c.room.code}/{q.id}":
            return None  # asked first (`confirm_reveal`): a second quick press finds no forward to click
        return s("room_reveal"), _reveal_or_ask, (c, q.id, v.vote, drawing())
    i = position(c, current(c))
    if i >= len(c.screens) - 1:
        return None
    return s("room_start" if current(c) == LOBBY else "next"), _move_on, (c, c.screens[i + 1])


CONFIRM_LOBBY = "room_confirm_lobby"
STAYED = "room_asked_stayed"  # per asked-first question's state key: the full run whose "stay" was pressed (`_stay`)


def drawing() -> int:
    """The number of the full run drawing a button now (`room_view.mark_run`): an asked-first question's
    button carries it, so a press can be told from one Streamlit runs a second time (`_ask`)."""
    return st.session_state.get(room_view.RUN_KEY, 0)


def _ask(state_key: str, value: str, drawn: int) -> None:
    """Ask the presenter first (`state_key` = `value`), unless the press comes from a drawing no later than the one
    whose "stay" answered the question: that press is one Streamlit ran again after the stay (a full run at
    651b76f: the presenter pressed PageUp on step 1 and then "stay", and "back to the lobby?" stood for good,
    two runs after the press). The presenter's next press comes from a later drawing and asks again."""
    if drawn <= st.session_state.get(STAYED, {}).get(state_key, -1):
        log.info("room: a press drawn in run %s asked %s again after its 'stay'; not asked", drawn, state_key)
        return
    st.session_state[state_key] = value


def _stay(state_key: str) -> None:
    """"Stay on this screen": the question goes, and presses from drawings up to this one cannot ask it again."""
    st.session_state.pop(state_key, None)
    st.session_state[STAYED] = {**st.session_state.get(STAYED, {}), state_key: drawing()}


def _reveal_or_ask(c: Ctx, question_id: str, vote: int | None, drawn: int) -> None:
    """Forward on an open question reveals its answer, but asks first while nobody has answered the open
    vote (presenter trial 2026-12-05: PageDown twice by accident, 0.15-0.5 s apart, moved on to the next
    question and revealed it at once, with 0 votes, on the wall and every phone). Counted when pressed,
    not when the button was drawn: answers arrive between the two. Any vote counts: a second vote nobody has
    answered yet follows a first one the room has seen (presenter trial 2026-12-06: "nobody has answered yet" on
    the wall with two first-vote answers in)."""
    try:
        answered = answers_so_far(c, question_id, vote)
    except StoreDown:
        st.session_state[DOWN_KEY] = True
        return
    if answered:
        _reveal_now(c, question_id)
    else:
        _ask(CONFIRM_REVEAL, f"{c.room.code}/{question_id}", drawn)


def answers_so_far(c: Ctx, question_id: str, vote: int | None) -> int:
    """The answers given to the question in its votes up to `vote` (1 when none is open)."""
    return sum(sum(c.store.counts(c.room.code, question_id, k).values()) for k in range(1, (vote or 1) + 1))


def _reveal(c: Ctx, question_id: str) -> None:
    st.session_state.pop(CONFIRM_REVEAL, None)
    _act(c.store.reveal, c.room.code, c.key or "", question_id)
    _hold()


def confirm_reveal(s: Strings, c: Ctx) -> bool:
    """Revealing an answer nobody has voted on, asked first (`_reveal_or_ask`). The question stays on the
    screen below. True while it asks."""
    q = question_of(c, current(c))
    if q is None or q.id in c.room.revealed or st.session_state.get(CONFIRM_REVEAL) != f"{c.room.code}/{q.id}":
        st.session_state.pop(CONFIRM_REVEAL, None)
        return False
    if answers_so_far(c, q.id, c.room.open_vote(q.id)):  # an answer came in since: nothing to ask (re-check
        st.session_state.pop(CONFIRM_REVEAL, None)            # 2026-12-05: "nobody has answered" above "1 answered")
        return False
    ways = asking(s, "room_confirm_reveal_box", "room_reveal_confirm", "room_reveal_stay", CONFIRM_REVEAL)
    ways.button(s("room_reveal_yes"), key="room_reveal_yes", on_click=_reveal, args=(c, q.id))
    return True


def asking(s: Strings, box_key: str, text_key: str, stay_key: str, state_key: str):
    """A question put to the presenter before a step the room would see: the question, then "stay on this
    screen" (the default, first) in a row the caller adds the ways on to; returns that row."""
    box = st.container(key=box_key)
    box.warning(s(text_key), icon=":material/help:")
    ways = box.container(horizontal=True, gap="medium")
    ways.button(s("room_stay"), key=stay_key, type="primary", on_click=_stay, args=(state_key,))
    return ways


def _back(c: Ctx, screen: str, drawn: int) -> None:
    """Back; back to the lobby (from step 1: PageUp once too often) asks first, since every phone
    would go back to waiting."""
    if screen == LOBBY:
        _ask(CONFIRM_LOBBY, c.room.code, drawn)
        return
    _move(c, screen)


def backward(c: Ctx, v: Vote) -> tuple[callable, tuple] | None:
    """What "back" does now: on the spread or the second vote of an unrevealed question, one step back on
    it (the answers stay); else the screen before, a revealed question's vote left closed; None in the
    lobby. Reopening a revealed vote is the menu's (`reopen_control`): back on a revealed question used to
    ask about reopening, and the projector showed that question alone, the slide gone (presenter re-check
    2026-12-06: "back looked as if it did nothing")."""
    q = v.question
    if q is not None and q.id not in c.room.revealed and c.room.phase(q.id) in (SPREAD, VOTE2):
        return _act, (c.store.step_back, c.room.code, c.key or "", q.id, c.room.stage(q.id))
    i = position(c, current(c))
    return (_back, (c, c.screens[i - 1], drawing())) if i > 0 else None


def controls(s: Strings, c: Ctx, v: Vote, container) -> None:
    """Back and forward in `container`: the arrow before "back", after forward; ← → and PageUp/PageDown."""
    back = backward(c, v)
    if back and container is not None:
        container.button(s("back"), key="room_back", on_click=back[0], args=back[1],
                         icon=":material/arrow_back:", shortcut="Left")
    step = forward(s, c, v)
    if step:
        label, action, args = step
        st.button(label, key="room_next", on_click=action, args=args, type="primary", icon=":material/arrow_forward:",
                  icon_position="right", shortcut="Right")


def tip(s: Strings, c: Ctx, key: str) -> str | None:
    """A button's tooltip on the presenter's laptop (the notes view); none on the projected screen,
    where a hover would stand on the wall (presenter trial, round 3)."""
    return None if c.d.present else s(key)


def peer_controls(s: Strings, c: Ctx, v: Vote) -> None:
    """On an open vote: peer instruction (the first vote only) and a countdown (none running yet)."""
    q = v.question
    if q is None or not v.accepting:
        return
    with st.container(horizontal=True, vertical_alignment="center", gap="small", key="room_peer"):
        if v.vote == 1:
            st.button(s("room_spread_button"), key="room_spread", help=tip(s, c, "room_spread_help"), icon=":material/forum:",
                      on_click=_act, args=(c.store.set_phase, c.room.code, c.key or "", q.id, SPREAD))
        if v.left is None:  # the label and its buttons wrap as one group (presenter trial 2026-12-05: at 1920 px
            # "60 s" and "90 s" wrapped onto a row of their own, the label left between two buttons)
            with st.container(horizontal=True, vertical_alignment="center", gap="small", width="content",
                              key="room_timers"):
                st.caption(s("room_timer_label"), width="content")
                for n in TIMERS_S:
                    st.button(s("room_timer_button", n=n), key=f"room_timer_{n}", icon=":material/timer:",
                              on_click=_act, args=(c.store.set_timer, c.room.code, c.key or "", q.id, v.vote, n))


CONFIRM_END = "room_confirm_end"


def confirm_lobby(s: Strings, c: Ctx) -> bool:
    """Back from step 1 to the lobby, asked first (the trial's presenter pressed PageUp once too often).
    True while it asks."""
    if st.session_state.get(CONFIRM_LOBBY) != c.room.code or current(c) == LOBBY:
        st.session_state.pop(CONFIRM_LOBBY, None)
        return False
    ways = asking(s, "room_confirm_lobby_box", "room_lobby_back_confirm", "room_stay", CONFIRM_LOBBY)
    ways.button(s("room_lobby_back_yes"), key="room_lobby_back_yes", on_click=_to_lobby, args=(c,))
    return True


CONFIRM_REOPEN = "room_confirm_reopen"


def confirm_reopen(s: Strings, c: Ctx) -> bool:
    """Back on a revealed question, asked first: everyone has seen the right answer, so what is
    answered or changed after reopening is answered with it in view (presenter re-check, 2026-12-04:
    a phone changed its wrong answer to the right one after the reveal and the question read 100%).
    True while it asks."""
    q = question_of(c, current(c))
    if q is None or q.id not in c.room.revealed or st.session_state.get(CONFIRM_REOPEN) != f"{c.room.code}/{q.id}":
        st.session_state.pop(CONFIRM_REOPEN, None)
        return False
    ways = asking(s, "room_confirm_reopen_box", "room_reopen_confirm", "room_reopen_stay", CONFIRM_REOPEN)
    ways.button(s("room_reopen_yes"), key="room_reopen_yes", on_click=_reopen, args=(c, q.id))
    # back to the screen before, leaving the vote as it is (presenter trial 2026-12-05: "back never goes back":
    # the only way past a revealed question was to reopen its vote)
    ways.button(s("room_reopen_prev"), key="room_reopen_prev", icon=":material/arrow_back:", on_click=_leave_revealed,
                args=(c, c.screens[position(c, current(c)) - 1]))
    return True


def reopen_control(s: Strings, c: Ctx) -> None:
    """In the menu, on a revealed question: open its vote again, asked first (`confirm_reopen`); the menu
    closes so the question is put on the presenter's screen, not under the popover."""
    q = question_of(c, current(c))
    if q is not None and q.id in c.room.revealed:
        st.button(s("room_reopen_menu"), key="room_reopen_menu", icon=":material/replay:", on_click=_ask_reopen,
                  args=(c, q.id, drawing()))


def reveal_control(s: Strings, c: Ctx) -> None:
    """In the menu, on the spread (the room's discussion): reveal the answer without a second vote (presenter
    trials: forward opens the second vote, so revealing straight after a discussion took three presses)."""
    q = question_of(c, current(c))
    if q is not None and q.id not in c.room.revealed and c.room.phase(q.id) == SPREAD:
        st.button(s("room_reveal_menu"), key="room_reveal_menu", icon=":material/visibility:", on_click=_reveal_from_menu,
                  args=(c, q.id))


def _reveal_from_menu(c: Ctx, question_id: str) -> None:
    st.session_state[MENU_KEY] = False  # the menu closes: the answer is on the presenter's screen, not under it
    _reveal(c, question_id)


def _ask_reopen(c: Ctx, question_id: str, drawn: int) -> None:
    st.session_state[MENU_KEY] = False
    _ask(CONFIRM_REOPEN, f"{c.room.code}/{question_id}", drawn)


def _leave_revealed(c: Ctx, screen: str) -> None:
    st.session_state.pop(CONFIRM_REOPEN, None)
    _move(c, screen)


def _reopen(c: Ctx, question_id: str) -> None:
    st.session_state.pop(CONFIRM_REOPEN, None)
    _act(c.store.step_back, c.room.code, c.key or "", question_id, c.room.stage(question_id))


def _to_lobby(c: Ctx) -> None:
    st.session_state.pop(CONFIRM_LOBBY, None)
    _move(c, LOBBY)


def _end(c: Ctx) -> None:
    """End the room and close the menu: what it held (the address warning, "leave, the room stays
    open") no longer applies (presenter trial, round 3: it stayed open with them)."""
    st.session_state.pop(CONFIRM_END, None)
    st.session_state[MENU_KEY] = False
    _act(c.store.end, c.room.code, c.key or "")


def end_controls(s: Strings, c: Ctx) -> None:
    """Ending the room, asked first: it cannot be undone."""
    if st.session_state.get(CONFIRM_END) != c.room.code:
        st.button(s("room_end"), key="room_end", help=tip(s, c, "room_end_help"), icon=":material/stop_circle:",
                  on_click=_ask, args=(CONFIRM_END, c.room.code, drawing()))
        return
    st.warning(s("room_end_confirm"), icon=":material/help:")
    st.button(s("room_end_yes"), key="room_end_yes", type="primary", icon=":material/stop_circle:", on_click=_end, args=(c,))
    st.button(s("room_cancel"), key="room_end_cancel", on_click=_stay, args=(CONFIRM_END,))


def notes_url(c: Ctx) -> str:
    """The notes view of the room: no key in it (this browser's cookie carries the presenter's key)."""
    return codes.join_url(st.context.url, c.room.code, extra={"notes": "1", "lang": c.d.lang})


def present_url(c: Ctx) -> str:
    """The room's presenter screen (presenter mode): no key in it, as `notes_url`."""
    return codes.join_url(st.context.url, c.room.code, extra={"present": "1", "lang": c.d.lang})


MENU_KEY = room_view.MENU_KEY  # the menu's open state (a stateful popover): ending the room closes it


def menu(s: Strings, c: Ctx, in_notes: bool = False) -> None:
    """The presenter's own controls, folded in a popover so the projected screen never shows them.
    An ended room's menu holds only what still applies: the notes view (its results and CSV) and the way out.
    `in_notes`: drawn on the notes view, which has the question picker open on its page and needs no link to
    itself (newcomer re-check 2026-12-06: its menu offered "open the speaker notes")."""
    with st.container(key="room_menu_box", width="content"):
        # no tooltip: it would show on the projector
        with st.popover(s("room_menu"), icon=":material/more_vert:", key=MENU_KEY, on_change="rerun"):
            if c.room.ended:
                st.link_button(s("notes_open"), notes_url(c), icon=":material/speaker_notes:")
                st.page_link("pages/lesson.py", label=s("room_ended_leave"), icon=":material/logout:",
                             query_params={"step": "1", "lang": c.d.lang})
                return
            local_warning(s, short=c.d.present, c=c)
            if not in_notes:
                st.link_button(s("notes_open"), notes_url(c), icon=":material/speaker_notes:")
            reveal_control(s, c)
            reopen_control(s, c)
            if not in_notes:
                question_picker(s, c, "menu")
            end_controls(s, c)
            st.page_link("pages/lesson.py", label=s("room_close"), icon=":material/logout:",
                         query_params={"step": "1", "lang": c.d.lang})
            st.caption(s("room_keys_hint"))


def join_base() -> str | None:
    """The address the QR code and /join are built on: $LATENCY_PUBLIC_URL, else this browser's."""
    return codes.base_url(st.context.url)


def join_address(c: Ctx | None = None) -> str:
    return codes.short_address(join_base())


def local_warning(s: Strings, short: bool = False, c: Ctx | None = None) -> bool:
    """On the presenter's own screens once a room is open (never the projected one): the join address only
    works on this computer (localhost, 127.0.0.1), so phones cannot come in; what to do. True when shown.
    (Not before a room opens: every learner alone passes the start page's and the lesson's way in.)
    `short`: the projected screen's menu, open on the wall: that it cannot work, and that the notes view
    says how to fix it (presenter trial 2026-12-05: the whole fix, environment variable included, stood
    on the wall in a large red box). With the room `c`: not once a phone has joined it, which proves phones can
    reach this address (presenter trial 2026-12-06: the menu and the notes kept "phones cannot come in" all
    session, beside "3 here"; the projected lobby already dropped it)."""
    if not codes.is_loopback(join_base()):
        return False
    if c is not None and c.store.count_participants(c.room.code):
        return False
    show = st.error
    if short:
        show(s("room_local_warn_short", address=f"`{join_address()}`"), icon=":material/wifi_off:")
        return True
    example = codes.lan_example(join_base(), st.get_option("server.port"))  # this app's own port, only the host changed
    show(s("room_local_warn", address=f"`{join_address()}`", example=example, host=codes.LAN_EXAMPLE_HOST),  # as code: no U+2060 in a copy
         icon=":material/wifi_off:")
    return True


# --- the projected screen ---------------------------------------------------------------------------
def projected_view(s: Strings, c: Ctx) -> None:
    picks_drawn_before()
    style()
    if c.d.lang != c.room.lang and not c.room.ended:
        _act(c.store.set_lang, c.room.code, c.key or "", c.d.lang)  # phones that join by the code follow it
    if c.room.ended:
        ended(s, c, projected=True)
        return
    v = vote_now(c)
    screen = current(c)
    if screen == LOBBY:
        lobby(s, c, v)
        return
    # A question asked of the presenter stands alone under the top row while it waits: above the
    # screen it ran a 1366 x 768 projection past its bottom (tests/e2e/test_room_fits.py)
    with st.container():  # on every run, asking or not, so the row below keeps its place (`lesson_steps.style`)
        asking = confirm_lobby(s, c) | confirm_reopen(s, c)
        confirm_reveal(s, c)  # the question stays in view below it: the room is still answering
    own_live = v.question is not None and v.question.id not in c.room.revealed  # its counts stand beside it
    with st.container(horizontal=True, vertical_alignment="center", gap="medium", key=BAR_KEY):
        back = st.container(width="content")
        with st.container(key="room_strip"):
            if screen == DONE:  # the results: the code alone (with the address and the CSV button it wrapped at 1366)
                st.markdown(s("room_strip_code", code=f"**{c.room.code}**"))
            else:
                st.markdown(s("room_strip", address=f"`{join_address(c)}`", code=f"**{c.room.code}**"))
            if not own_live:
                live(c, s, counts=False, drawn_over=v.over)
        if screen.isdigit():  # where the room is, as a slide's number (presenter trials: no step counter); in the top
            # row, short: a line above the step ran past a 768-line screen; below 1600 px the strip is drawn a little
            # smaller (ROOM_CSS), as "Step 3/8" beside it wrapped the join address at 1366 px
            with st.container(key="room_step_count", width="content"):
                st.markdown(s("step_count", n=int(screen), total=len(c.les.steps)))
        with st.container(width="content", horizontal=True, gap="medium"):
            controls(s, c, v, back)
            if screen == DONE:
                room_results.download(s, c, short=True)
        menu(s, c)
    if not asking:
        body(s, c, screen, v)


def lobby(s: Strings, c: Ctx, v: Vote) -> None:
    """The first screen: how to join, readable from the back of the room, and who is here, live."""
    url = codes.join_url(join_base(), c.room.code, page="lesson", extra={"lang": c.d.lang})
    # "start" and the menu in the top row, as on every later screen: at the foot they fell below a 1366 x 768
    # projection once three people had joined (presenter re-check 2026-12-05)
    with st.container(horizontal=True, vertical_alignment="center", gap="medium", key=BAR_KEY):
        st.space("stretch")
        controls(s, c, v, None)
        menu(s, c)
    qr, words = st.columns([2, 3], gap="large", vertical_alignment="top")  # centred, a long list of names pushed the QR code off a 768-line screen
    qr.image(room_qr(url), width=QR_PX, output_format="PNG", alt=s("room_qr_alt", code=c.room.code, url=url))
    with words:
        st.header(s("room_join_title"), anchor=False)
        st.markdown(s("room_lobby_open"))
        with st.container(key="room_lobby_address"):
            st.markdown(f"`{join_address(c)}`")
        st.markdown(s("room_lobby_type"))
        with st.container(key="room_lobby_code"):
            st.markdown(c.room.code)
        st.caption(s("room_lobby_scan"))
        # phones cannot come in: said where the presenter looks first, briefly (presenter trial 2026-12-05: only the
        # menu said it), the fix in the notes view; until a phone is here, which shows that phones can (presenter
        # re-check 2026-12-05: the red box stayed beside "People in the room: Alex, 민지")
        live(c, s, counts=True, drawn_over=v.over, big=True, names=True, while_nobody=lambda: local_warning(s, short=True))


@st.cache_data(show_spinner=False, max_entries=16)
def room_qr(url: str) -> bytes:
    """The join address as a QR code, PNG bytes (segno, error correction M, a quiet zone of 4 modules)."""
    import io

    import segno

    buf = io.BytesIO()
    segno.make(url, error="m").save(buf, kind="png", scale=10, border=4)
    return buf.getvalue()


def body(s: Strings, c: Ctx, screen: str, v: Vote) -> None:
    q = question_of(c, screen)
    if q is not None:
        question(s, c, q, v)
    elif screen == DONE:
        room_results.room_results(s, c, s("room_results_title"), present=True)
    else:
        n = int(screen)  # its count stands in the top row (`projected_view`)
        lesson_steps.step(s, c.les.steps[n - 1], n, c.d, notes=False)


def question(s: Strings, c: Ctx, q: quiz.Question, v: Vote) -> None:
    """A question on the projected screen: open (its options, the count, peer instruction, countdown),
    its spread without the answer while the room discusses, the second vote, or revealed."""
    with st.container(key=QUESTION_COUNT_KEY):  # as large as the steps' count (presenter trial: 24 px from the back row)
        st.caption(s("room_question_kicker", n=c.questions.index(q) + 1, total=len(c.questions)))
    st.header(md(q.question[c.d.lang]), anchor=False)
    left, right = st.columns([3, 2], gap="large")
    phase = c.room.phase(q.id)
    if q.id in c.room.revealed:
        with left:
            room_results.votes_chart(s, c, q, reveal=True, key=f"room_chart_{q.id}", fill=True)
        with right:
            st.success(s("room_right_answer", answer=_label(c, q, c.outcomes[q.id].right)), icon=":material/lightbulb:")
            room_results.why(s, c, q)
        return
    if phase == SPREAD or phase == VOTE2:
        with left:
            room_results.votes_chart(s, c, q, reveal=False, key=f"room_spread_{q.id}", fill=True)
        with right:
            if phase == SPREAD:
                st.info(s("room_discuss"), icon=":material/forum:")
            live(c, s, counts=True, drawn_over=v.over, big=True)
            peer_controls(s, c, v)
        return
    with left, st.container(key="room_options"):
        for line in lettered(q, c.d.lang):
            st.markdown(md(line))
    with right:
        live(c, s, counts=True, drawn_over=v.over, big=True)
        peer_controls(s, c, v)


def _label(c: Ctx, q: quiz.Question, option_id: str) -> str:
    return md(next(x for o, x in zip(q.options, lettered(q, c.d.lang)) if o.id == option_id))


def ended(s: Strings, c: Ctx, projected: bool) -> None:
    """The presenter ended the room: its results, the CSV, and the way out."""
    if projected:  # the room takes nobody new: no code or join address any more
        with st.container(horizontal=True, vertical_alignment="center", gap="medium", key=BAR_KEY):
            st.space("stretch")
            room_results.download(s, c, short=True)
            menu(s, c)
    room_results.room_results(s, c, s("room_ended_title"), present=projected, note=s("room_ended_presenter"))
    if not projected:
        room_results.download(s, c)


# --- the notes view -------------------------------------------------------------------------------
NOTES_CSS = "<style>[data-testid=stMain] button kbd { display: none !important; }</style>"
"""The notes view's back/next carry ← → (the laptop's keys); the badge Streamlit adds for a shortcut
would double the arrow icons (presenter mode's stylesheet hides it the same way)."""


def notes_view(s: Strings, c: Ctx) -> None:
    """The presenter's laptop: what the room sees, the notes, the counts; the same controls."""
    picks_drawn_before()
    st.html(NOTES_CSS)
    st.html(KEYS_JS, unsafe_allow_javascript=True)
    local_warning(s, c=c)
    if c.room.ended:
        ended(s, c, projected=False)
        return
    screen = current(c)
    v = vote_now(c)
    st.header(s("room_notes_title", where=where(s, c, screen)), anchor=False)
    if question_of(c, screen) is None and screen not in (LOBBY, DONE):
        st.caption(s("notes_screen", title=screen_title(s, c, screen)))
    with st.container(horizontal=True, vertical_alignment="center", gap="medium", key=BAR_KEY):
        back = st.container(width="content")
        controls(s, c, v, back)
        menu(s, c, in_notes=True)
    confirm_lobby(s, c)
    confirm_reopen(s, c)
    confirm_reveal(s, c)
    live(c, s, counts=True, drawn_over=v.over, names=screen == LOBBY)
    q = v.question
    if q is not None:
        # the question as the room reads it (presenter re-check 2026-12-05: the notes gave only its number and answer)
        st.markdown(f"**{md(q.question[c.d.lang])}**")
        st.markdown("  \n".join(md(line) for line in lettered(q, c.d.lang)))
        peer_controls(s, c, v)
        if c.room.phase(q.id) or q.id in c.room.revealed:
            room_results.votes_chart(s, c, q, reveal=q.id in c.room.revealed, key=f"room_notes_chart_{q.id}")
        st.success(s("room_right_answer", answer=_label(c, q, c.outcomes[q.id].right)), icon=":material/lightbulb:")
        room_results.why(s, c, q)
    elif screen == DONE:
        room_results.room_results(s, c, s("room_results_title"), present=False)
        room_results.download(s, c)
    elif screen == LOBBY:
        st.markdown(s("room_strip", address=f"`{join_address(c)}`", code=f"**{c.room.code}**"))
        # before the picker's twelve questions: the lobby is when the projector is set up (presenter trial
        # 2026-12-07: found only at the bottom, below every question)
        other_devices(s, c)
        plan(s, c)
        question_picker(s, c, "notes")
    else:
        st.markdown(md(c.les.steps[int(screen) - 1].notes[c.d.lang]))
        if int(screen) == len(c.les.steps):
            plan(s, c)
            question_picker(s, c, "notes")
    if screen != LOBBY:
        other_devices(s, c)


def other_devices(s: Strings, c: Ctx) -> None:
    """The projected screen's and the notes' addresses and the presenter's key, for another device."""
    with st.expander(s("room_key_other"), icon=":material/devices:"):
        # the addresses themselves (newcomer trial 2026-12-06: "open this room's presenter screen" said not where,
        # and the notes link opened on another browser showed the audience's join form)
        st.caption(s("room_key_other_text"))
        st.code(present_url(c), language=None)
        st.code(notes_url(c), language=None)
        st.code(c.key or "", language=None)


def question_picker(s: Strings, c: Ctx, where: str) -> None:
    """Which quiz questions this room asks (presenter trial 2026-12-06: a 15-minute session could only run all
    twelve): a box per question, ticked by default, with "all" and "none" for the quick cases, until the first
    question opens (`Store.set_skipped`). None at all is a lesson without a quiz: forward from the last step
    shows the results. `where` keeps the notes view's boxes apart from the menu's. Each box is set from the room
    on every run, so a change made on the other screen shows here too."""
    if c.room.asked or not c.quiz_all or current(c) == DONE:
        return
    if where == "menu":  # folded; its label never changes, or each click's rerun folded it again (newcomer
        # trial 2026-12-06: nine unticks took eighteen clicks)
        # no icon: the projected menu draws text at 24 px, an icon stayed 16. Open after a watchdog reload that
        # found it open (room_view.note_reload)
        with st.expander(s("room_pick"), key=room_view.PICK_MENU_BOX,
                         expanded=bool(st.session_state.get(room_view.PICK_MENU_OPEN))):
            _picker_boxes(s, c, where)
    else:
        _picker_boxes(s, c, where)


def _picker_boxes(s: Strings, c: Ctx, where: str) -> None:
    st.markdown(f"**{md(s('room_pick_title', n=len(c.questions), total=len(c.quiz_all)))}**")
    st.caption(s("room_pick_help"))
    ids = [q.id for q in c.quiz_all]
    with st.container(horizontal=True, gap="small"):
        st.button(s("room_pick_all"), key=f"room_pick_{where}_all", on_click=_pick_set, args=(c, ()),
                  disabled=len(c.questions) == len(ids))
        st.button(s("room_pick_none"), key=f"room_pick_{where}_none", on_click=_pick_set, args=(c, ids),
                  disabled=not c.questions)
    # each box shows the room: its default is the room's value, and the script never sets a box's value. A value set
    # from the server (`set_value`) races the browser's own requests: a poll the browser sent before the set arrived
    # carries the value the set replaced, and Streamlit takes that as a click and runs the box's callback with it
    # (streamlit/streamlit#10102: callbacks without a click). The notes view set a box that the projected screen's
    # menu had changed, and its next poll put the question back (reproduced here, 2026-12-07: 2 of 10 runs of the
    # fewer-questions browser test under a busy core, the count stuck at 3 for 30 s). Where a box shows what the room
    # no longer has (another screen changed it, or the room refused a click here), the boxes are drawn again under
    # new keys (`PICK_GEN`), from the room: a new box has no old value for a stale request to change.
    # A box whose browser value differs from what the last run drew was clicked here: if the room does not have it
    # yet, its callback never ran (a full test run, 2026-12-06: Q7 unticked on the screen, counted by the room for
    # 30 s); the click is taken now, once (`pending_pick` asks the poll for this run)
    box_key = _box_key_format(where)
    prev = st.session_state.get(PICK_PREV, {})
    lost, stale = {}, False
    for q in c.quiz_all:
        key = box_key(q.id)
        browser, drawn, ticked = st.session_state.get(key), prev.get(key), q.id not in c.room.skipped
        if browser is not None and drawn is not None and browser != drawn and browser != ticked:
            lost[key] = q.id
        elif browser is not None and browser != ticked:
            stale = True
    if lost:
        log.warning("room %s: %d question box(es) clicked without their callback; taken now", c.room.code, len(lost))
        for key, question_id in lost.items():
            _pick(c, question_id, key)
        # what the browser shows is now taken as drawn: a click the room refused (its quiz began, the store is
        # down) is drawn again from the room by the next run, not taken again
        st.session_state[PICK_PREV] = {**prev, **{key: st.session_state.get(key) for key in lost}}
        st.rerun()  # the count above and every box from the room as it now is
    if stale:
        gens = st.session_state.get(PICK_GEN, {})
        st.session_state[PICK_GEN] = {**gens, where: gens.get(where, 0) + 1}
        box_key = _box_key_format(where)
    drawn_now = {}
    for i, q in enumerate(c.quiz_all, start=1):
        key = box_key(q.id)
        ticked = q.id not in c.room.skipped
        drawn_now[key] = ticked
        # "2번: …", not "2. …": a label starting "2." is a Markdown list that Streamlit unwraps to its text, and
        # the escaped "2\\." stood in the box's accessible name (a screen reader read the backslash). The
        # question itself in the box's help (newcomer trial 2026-12-06: the short titles alone left the choice blind)
        label = s("room_pick_item", n=i, title=md(s(f"{quiz.ROOM_SHORT}{q.id}")))
        wording = md(q.question[c.d.lang])
        st.checkbox(label, value=ticked, key=key, on_change=_pick, args=(c, q.id, key), help=wording)
        if where == "notes":  # the laptop has room for the question itself and its choices, without hovering
            # (newcomer re-check 2026-12-06: a tooltip needs a mouse, and "답변이 먼저 완료되는 쪽은?" names no side)
            st.caption(f"{wording}  \n" + " · ".join(md(line) for line in lettered(q, c.d.lang)))
    st.session_state[PICK_DRAWN] = drawn_now
    st.session_state.pop(PICK_ASKED, None)


def _box_key_format(where: str):
    """The question boxes' keys on this screen: `room_pick_<where>_<question id>`, with `_r<n>` once the boxes have
    been drawn again n times from the room (`PICK_GEN`)."""
    gen = st.session_state.get(PICK_GEN, {}).get(where, 0)
    return f"room_pick_{where}_{{}}{f'_r{gen}' if gen else ''}".format


PICK_GEN = "room_pick_gen"
"""{screen ("notes", "menu"): how many times its question boxes were drawn again under new keys (`_picker_boxes`)}."""
PICK_DRAWN = "room_pick_drawn"
"""{box key: the value the page's last run drew}: the poll (`pending_pick`) compares the browser's boxes with it."""
PICK_PREV = "room_pick_prev"
"""PICK_DRAWN as the page's run found it, moved aside before the poll runs inline (`picks_drawn_before`)."""
PICK_ASKED = "room_pick_asked"


def picks_drawn_before() -> None:
    """At the top of a presenter view's run: what the picker last drew goes aside for `_picker_boxes`, so the poll,
    which runs inline in this run, does not compare this run's boxes with the last run's drawing (it asked the run
    that had just taken a click for a second run)."""
    if PICK_DRAWN in st.session_state:
        st.session_state[PICK_PREV] = st.session_state.pop(PICK_DRAWN)


def pending_pick() -> bool:
    """Whether a question box in the browser differs from what the page's last run drew: a click whose callback
    never ran. `room_view.live` then reruns the page, whose run takes it (`_picker_boxes`). Once per box value."""
    drawn = st.session_state.get(PICK_DRAWN)
    if not drawn:
        return False
    asked = st.session_state.get(PICK_ASKED, {})
    for key, value in drawn.items():
        browser = st.session_state.get(key)
        if browser is not None and browser != value and asked.get(key) != browser:
            st.session_state[PICK_ASKED] = {**asked, key: browser}
            return True
    return False


def _pick(c: Ctx, question_id: str, key: str) -> None:
    """A box ticked or unticked: the room's left-out questions, from the room as the store has it now (the
    other screen may have changed them)."""
    try:
        room = c.store.room(c.room.code)
        skipped = set(room.skipped) - {question_id} if st.session_state.get(key) else set(room.skipped) | {question_id}
        skipped &= {q.id for q in c.quiz_all}
        c.store.set_skipped(c.room.code, c.key or "", skipped)
    except StoreDown:
        st.session_state[DOWN_KEY] = True
        return
    except (NoRoom, PermissionError):  # the room expired, ended, or its quiz began meanwhile: the next run shows it
        return


def _pick_set(c: Ctx, skipped) -> None:
    """"All" (nothing left out) or "none" (every question left out: the lesson alone); the boxes then follow."""
    _act(c.store.set_skipped, c.room.code, c.key or "", skipped)


def plan(s: Strings, c: Ctx) -> None:
    """The session's length as the presenter plans it, on the notes view's lobby and last step (presenter trial
    2026-12-06: "15-minute lesson", then "8/8" looked like the end, and twelve questions with two votes each
    followed): the quiz's size, a vote's countdowns (`TIMERS_S`), and that ending the room shows the
    results at any time."""
    if not c.questions:  # the presenter left every question out
        st.info(s("room_plan_no_quiz", steps=len(c.les.steps), pick=s("room_pick")), icon=":material/schedule:")
        return
    st.info(s("room_plan", steps=len(c.les.steps), questions=len(c.questions), shortest=TIMERS_S[0],
              end=s("room_end"), pick=s("room_pick")), icon=":material/schedule:")


def take_over(s: Strings, room) -> None:
    """Presenter mode on a browser without the room's key (another device, a cleared cookie): the key
    opens the presenter's screen here; anyone else joins as the audience."""
    from ui.room_view import remember_key, get_store

    st.subheader(s("room_take_over_title"), anchor=False)
    st.caption(s("room_take_over_intro"))
    with st.form("room_take_over_form", enter_to_submit=True, border=False):
        typed = st.text_input(s("room_take_over_label"), type="password", key="room_take_over_key", max_chars=64)
        go = st.form_submit_button(s("room_take_over_go"), type="primary", icon=":material/key:")
    if go and typed:
        if get_store().is_presenter(room.code, typed.strip()):
            remember_key(room.code, typed.strip())
            st.rerun()
        st.error(s("room_take_over_wrong"), icon=":material/error:")
    st.page_link("pages/lesson.py", label=s("room_take_over_join"), icon=":material/login:",
                 query_params={"room": room.code, "lang": room.lang})


def screen_title(s: Strings, c: Ctx, screen: str) -> str:
    q = question_of(c, screen)
    if q is not None:
        return s("room_question_kicker", n=c.questions.index(q) + 1, total=len(c.questions))
    if screen == DONE:
        return s("room_results_title")
    if screen == LOBBY:
        return s("room_join_title")
    return md(c.les.steps[int(screen) - 1].title[c.d.lang])
