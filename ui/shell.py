"""The page shell: the list of pages, the current language, cached UI strings and content errors.

Every page file starts with ``s = shell.page_strings("<area>")``: that one call makes sure the entry
file (app.py) is running, picks the language and stops only this page, with a named message, when
its strings file is broken.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from latency import i18n
from latency.errors import ContentError


@dataclass(frozen=True)
class PageSpec:
    """One page of the app as app.py registers it."""

    file: str        # pages/<url_path>.py
    url_path: str    # "" for the default page
    nav_key: str     # its title in content/ui/common.yaml
    icon: str        # a Material Symbol (Debian's Chromium has no emoji font)
    section: str     # nav section key in content/ui/common.yaml


PAGES: tuple[PageSpec, ...] = (
    PageSpec("pages/glossary.py", "", "nav_glossary", ":material/dictionary:", "nav_section_learn"),
    PageSpec("pages/learn.py", "learn", "nav_learn", ":material/menu_book:", "nav_section_learn"),
    PageSpec("pages/how-it-works.py", "how-it-works", "nav_how", ":material/functions:", "nav_section_learn"),
    PageSpec("pages/estimator.py", "estimator", "nav_estimator", ":material/timer:", "nav_section_explore"),
    PageSpec("pages/tradeoffs.py", "tradeoffs", "nav_tradeoffs", ":material/balance:", "nav_section_explore"),
    PageSpec("pages/measure.py", "measure", "nav_measure", ":material/speed:", "nav_section_measure"),
    PageSpec("pages/logs.py", "logs", "nav_logs", ":material/query_stats:", "nav_section_measure"),
)
DEFAULT_PAGE = PAGES[0]


ENTRY_MARK = "shell_entry_ran"
"""Set by app.py right before it runs the page; taken back by `page_strings` at the page's top."""


def ensure_entry() -> None:
    """Make a page run inside app.py (language switch, navigation), never as a file alone.

    Because a folder named ``pages/`` sits next to app.py (the design card fixes that name),
    Streamlit starts in its legacy pages-folder mode and, until some session has called
    ``st.navigation``, runs ``pages/<name>.py`` on its own for a deep link on a fresh server (and
    AppTest starts every run in that mode). Streamlit's documented rule: "As soon as any session of
    your app executes the st.navigation command, your app will ignore the pages/ directory (across
    all sessions)" (docs.streamlit.io, st.navigation). So when app.py did not run before this page
    in this run, call ``st.navigation`` with the app's pages, hidden, and rerun: the rerun goes
    through app.py and lands on the same URL path. Public API only.
    """
    if st.session_state.pop(ENTRY_MARK, False):
        return
    st.navigation([st.Page(p.file, url_path=p.url_path, default=p is DEFAULT_PAGE) for p in PAGES], position="hidden")
    st.rerun()


def current_lang() -> str:
    """The language chosen in app.py's switch (Korean by default)."""
    return st.session_state.get("lang", i18n.DEFAULT_LANG)


@st.cache_data(show_spinner=False, max_entries=64)
def _load_area(area: str, mtime_ns: int) -> dict[str, dict[str, str]]:
    # mtime_ns is part of the cache key, so an edited file is reloaded while the app runs.
    return i18n.load_area(area)


def _mtime_ns(area: str) -> int:
    path = i18n.UI_DIR / f"{area}.yaml"
    return path.stat().st_mtime_ns if path.exists() else 0


def strings(area: str, lang: str | None = None) -> i18n.Strings:
    """UI strings of `area` in the current language; raises ContentError if the file is broken."""
    lang = lang or current_lang()
    table = _load_area(area, _mtime_ns(area))
    return i18n.Strings(area=area, lang=lang, table={k: v[lang] for k, v in table.items()})


def show_content_error(err: ContentError) -> None:
    """A named, specific in-app message for a broken content file (never a traceback)."""
    try:
        s = strings("common")
        st.error(s("content_error") + "\n\n" + s("content_error_detail", file=i18n.md(err.file), path=i18n.md(err.path),
                                                 problem=i18n.md(err.problem)))
    except ContentError:
        st.error(i18n.md(str(err)))  # the shared strings themselves are broken: the technical message alone


def page_strings(area: str) -> i18n.Strings:
    """Strings for a page, called once at its top; on a broken file shows the error and stops only
    this page."""
    ensure_entry()
    try:
        return strings(area)
    except ContentError as err:
        show_content_error(err)
        st.stop()
