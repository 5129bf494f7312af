"""Joining a room by its code (issue 30 item 2): the /join page (pages/join.py), the code field at
the end of the start page, and the code form under a wrong code on the lesson page.

A code is taken as a person types it (any case, spaces or dashes between; latency/room/codes.py
`normalize`); a character a room code never has because it looks like another (O and 0, I and 1,
...) is named in the message with its look-alikes. A code that names a room opens it on the lesson
page in the room's own language (the presenter's), so an English session joins in English."""

from __future__ import annotations

import streamlit as st

from latency.language.i18n import Strings, clip, md
from latency.room import codes
from latency.room.store import NoRoom, StoreDown
from ui import shell


def lookalike_message(s: Strings, raw: str | None) -> str | None:
    """The message for a typed code with characters no room code has (look-alikes such as O and 0),
    naming them in one short line; None if it has none."""
    found = codes.look_alikes(raw)
    if not found:
        return None
    return s("join_lookalike", chars=", ".join(s("join_lookalike_one", ch=md(ch)) for ch, _ in found))


def _problem(s: Strings, typed: str | None):
    """(the room's code, its language and whether it has ended) for a code that names a room, else the message
    saying why not."""
    from ui.room_view import get_store

    code = codes.normalize(typed)
    if not codes.is_valid(code):
        return lookalike_message(s, typed) or s("room_invalid", code=md(clip(code or "", 16)),
                                               example=codes.ALPHABET[:codes.LENGTH])
    try:
        room = get_store().room(code)
    except NoRoom as err:
        return s(f"room_{err.why}", code=md(err.code), example=codes.ALPHABET[:codes.LENGTH])
    except StoreDown:
        return s("room_down")
    return room.code, room.lang, room.ended


NO_HINT_CSS = '<style>[data-testid="stForm"] [data-testid="InputInstructions"] { display: none; }</style>'
"""Streamlit writes "Press Enter to submit form" (English only) under a form's box: hidden, Enter still submits."""


def code_field(s: Strings, key: str, value: str = "") -> None:
    """A code box and its button (a form without Streamlit's English "Press Enter to submit form");
    a code that names a room opens it on the lesson page in the room's language."""
    st.html(NO_HINT_CSS)
    with st.form(f"{key}_form", enter_to_submit=True):  # Enter in the box submits, as on any phone form
        typed = st.text_input(s("room_code_label"), value=value, key=f"{key}_typed", max_chars=32)
        go = st.form_submit_button(s("room_code_go"), type="primary", icon=":material/login:")
    if not go:
        return
    found = _problem(s, typed)
    if isinstance(found, str):
        st.error(found, icon=":material/error:")
        return
    code, lang, ended = found
    if ended:  # only a message to read: in the language the person typed the code in, not the browser's
        from ui.room_phone import ENDED_LANG_KEY  # (presenter trial 2026-12-05: a Korean /join turned English)

        st.session_state[ENDED_LANG_KEY] = True
        lang = s.lang
    st.session_state["lang"] = lang
    st.switch_page("pages/lesson.py", query_params={"room": code, "lang": lang})


JOIN_LANG_KEY = "join_lang_checked"


def live_room_lang() -> str | None:
    """The language of the rooms open now, when they all share one (an English session's /join,
    typed by hand without ?lang=, opens in English); None when there are none or they differ."""
    from ui.room_view import get_store

    try:
        return get_store().live_lang()
    except StoreDown:
        return None


def join_page(s: Strings) -> None:
    """/join: the short address on the projector. ?room=CODE fills the box. On the session's first
    visit, the page takes the language of the room(s) open now (the address on the projector has no
    ?lang=), unless the address named one (`shell.LANG_FROM_URL`: /join?lang=ko opened in English
    once an English room was open, presenter trial 2026-12-05); the language switch still changes it."""
    if not st.session_state.get(JOIN_LANG_KEY):
        st.session_state[JOIN_LANG_KEY] = True
        if st.session_state.get(shell.LANG_FROM_URL):
            return join_form(s)
        lang = live_room_lang()
        if lang and lang != s.lang and lang in ("ko", "en"):
            st.session_state["lang"] = lang
            st.rerun()
    join_form(s)


def join_form(s: Strings) -> None:
    st.title(s("join_title"))
    st.markdown(s("join_intro"))
    raw = st.query_params.get("room") or ""
    code_field(s, "join", codes.normalize(raw)[:16])


START_ROOM_ANCHOR = "start-room"


def start_code_field() -> None:
    """The start page's last section (one call from pages/glossary.py): a code field for someone in a
    session, and the way in for a presenter: "run a session for a room" opens a room and its lobby."""
    s = shell.strings("lesson")
    st.html(f'<div id="{START_ROOM_ANCHOR}"></div>')  # where the start page's top line "running a session?" lands
    left, right = st.columns(2, gap="large")
    with left:
        st.subheader(s("start_code_title"), anchor=False)
        st.caption(s("start_code_intro"))
        code_field(s, "start_room")
    with right:
        run_section(s, s.lang, "start_run")


def run_section(s: Strings, lang: str, key: str, title: bool = True) -> None:
    """A presenter's way in: a title, what happens, and the button that opens a room and goes to its lobby
    (presenter mode). No loopback-address warning here: before a room is open nothing has failed, and every
    learner alone passes this box (learner trial: a yellow "phones cannot come in, set LATENCY_PUBLIC_URL"
    above the lesson's first step); the lobby and the presenter's own screens say it once a room is open."""
    from ui.room_view import DOWN_KEY, down_message, held_rooms, open_and_go, return_links

    if title:
        st.subheader(s("start_run_title"), anchor=False)
    held = held_rooms()
    return_links(s, lang, held)  # a room this browser presents and left open: back to it, before opening another
    st.caption(s("start_run_intro"))
    if st.session_state.pop(DOWN_KEY, False):
        down_message(s)
    # with a room still open, the way back is the primary action and another room the secondary one
    if st.button(s("room_run"), key=f"{key}_button", type="secondary" if held else "primary", icon=":material/groups:"):
        open_and_go(lang)
