"""Streamlit glue shared by the pages: current language, cached UI strings, error display.

Not a page itself (the leading underscore); `app.py` lists the pages explicitly.
"""

from __future__ import annotations

import streamlit as st

from latency import i18n
from latency.errors import ContentError


def _ensure_entry_runs() -> None:
    """Make a deep link on a fresh server run app.py, not the page file alone.

    Because a folder named ``pages/`` exists (the design card fixes that name), Streamlit starts
    in its old multipage mode and runs ``pages/<name>.py`` directly until some session has called
    ``st.navigation``: no language switch, a sidebar listing raw file names. Streamlit's own
    ``st.navigation`` leaves that mode by clearing this flag; we do the same and rerun, so the
    entry file takes over from the very first request.
    """
    from streamlit.runtime.pages_manager import PagesManager

    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


def current_lang() -> str:
    """The language chosen in app.py's switch (Korean by default)."""
    _ensure_entry_runs()
    return st.session_state.get("lang", i18n.DEFAULT_LANG)


@st.cache_data(show_spinner=False)
def _load_area(area: str, mtime_ns: int) -> dict[str, dict[str, str]]:
    # mtime_ns is part of the cache key, so an edited file is reloaded.
    return i18n.load_area(area)


def _mtime_ns(area: str) -> int:
    path = i18n.UI_DIR / f"{area}.yaml"
    return path.stat().st_mtime_ns if path.exists() else 0


def ui(area: str, lang: str | None = None) -> i18n.Strings:
    """UI strings of `area` in the current language; raises ContentError if the file is broken."""
    lang = lang or current_lang()
    _ensure_entry_runs()
    table = _load_area(area, _mtime_ns(area))
    return i18n.Strings(area=area, lang=lang, table={k: v[lang] for k, v in table.items()})


def show_content_error(err: ContentError) -> None:
    """A named, specific in-app message for a broken content file (never a traceback)."""
    try:
        s = ui("common")
        st.error(s("content_error") + "\n\n" + s("content_error_detail", file=err.file, path=err.path, problem=err.problem))
    except ContentError:
        # The shared strings themselves are broken: show the technical message alone.
        st.error(str(err))


def page_strings(area: str) -> i18n.Strings:
    """Strings for a page; on a broken file shows the error and stops only this page."""
    try:
        return ui(area)
    except ContentError as err:
        show_content_error(err)
        st.stop()


def url_notices(s: i18n.Strings, notices, specs, show_value) -> list[str]:
    """One message per rejected URL value, from the page's ``notice_<reason>`` strings: names the
    parameter, the raw value (escaped: URL text is never markup) and the default used instead."""
    messages = []
    for n in notices:
        spec = specs[n.key]
        lo, hi = getattr(spec, "min_value", None), getattr(spec, "max_value", None)
        messages.append(s(f"notice_{n.reason}", param=n.key, raw=i18n.md(n.raw), default=show_value(n.key, n.default),
                          lo=f"{lo:g}" if lo is not None else "", hi=f"{hi:,g}" if hi is not None else ""))
    return messages
