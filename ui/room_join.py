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
    """The message for a typed code with look-alike characters, naming each; None if it has none."""
    found = codes.look_alikes(raw)
    if not found:
        return None
    chars = ", ".join(s("join_lookalike_one", ch=md(ch), group=" ".join(md(g) for g in group if g.upper() == g or g.isdigit()))
                      for ch, group in found)
    return s("join_lookalike", chars=chars, alphabet=" ".join(codes.ALPHABET))


def _problem(s: Strings, typed: str | None):
    """(the room's code and language) for a code that names a room, else the message saying why not."""
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
    return room.code, room.lang


def code_field(s: Strings, key: str, value: str = "") -> None:
    """A code box and its button (a form without Streamlit's English "Press Enter to submit form");
    a code that names a room opens it on the lesson page in the room's language."""
    with st.form(f"{key}_form", enter_to_submit=False):
        typed = st.text_input(s("room_code_label"), value=value, key=f"{key}_typed")
        go = st.form_submit_button(s("room_code_go"), type="primary", icon=":material/login:")
    if not go:
        return
    found = _problem(s, typed)
    if isinstance(found, str):
        st.error(found, icon=":material/error:")
        return
    code, lang = found
    st.session_state["lang"] = lang
    st.switch_page("pages/lesson.py", query_params={"room": code, "lang": lang})


def join_page(s: Strings) -> None:
    """/join: the short address on the projector. ?room=CODE fills the box."""
    st.title(s("join_title"))
    st.markdown(s("join_intro"))
    raw = st.query_params.get("room") or ""
    code_field(s, "join", codes.normalize(raw)[:16])


def start_code_field() -> None:
    """The start page's last section: a code field for someone in a session (one call from pages/glossary.py)."""
    s = shell.strings("lesson")
    st.subheader(s("start_code_title"), anchor=False)
    st.caption(s("start_code_intro"))
    code_field(s, "start_room")
