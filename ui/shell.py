"""The page shell: the list of pages, the current language, cached UI strings and content errors.

Every page file starts with ``s = shell.page_strings("<area>")``: that one call makes sure the entry
file (app.py) is running, picks the language and stops only this page, with a named message, when
its strings file is broken.
"""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Mapping

import streamlit as st

from latency.language import i18n
from latency.language.errors import ContentError, affected_pages, file_lang


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
    PageSpec("pages/lesson.py", "lesson", "nav_lesson", ":material/school:", "nav_section_learn"),
    PageSpec("pages/join.py", "join", "nav_join", ":material/qr_code_scanner:", "nav_section_learn"),
    PageSpec("pages/estimator.py", "estimator", "nav_estimator", ":material/timer:", "nav_section_explore"),
    PageSpec("pages/tradeoffs.py", "tradeoffs", "nav_tradeoffs", ":material/balance:", "nav_section_explore"),
    PageSpec("pages/launch.py", "launch", "nav_launch", ":material/rocket_launch:", "nav_section_explore"),
    PageSpec("pages/measure.py", "measure", "nav_measure", ":material/speed:", "nav_section_measure"),
    PageSpec("pages/logs.py", "logs", "nav_logs", ":material/query_stats:", "nav_section_measure"),
)
DEFAULT_PAGE = PAGES[0]


def document_title(page_title: str, app_title: str) -> str:
    """The browser tab's title: the page first (what a tab strip shows when it is cut short), then the app."""
    return f"{page_title} · {app_title}" if page_title and page_title != app_title else app_title


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


UNKNOWN_PATH_KEY = "shell_unknown_path"
"""The URL path that matched none of PAGES, as typed, for pages/not_found.py."""
NOT_FOUND_FILE = "pages/not_found.py"


def unknown_path(url: str | None, base_path: str = "") -> str | None:
    """The page part of `url` (the browser's address, st.context.url) when it names none of PAGES.

    None for the app's own pages, for the root, and for a nested path ("a/b"): Streamlit's page
    paths are one segment, so that one cannot be registered and Streamlit's dialog remains."""
    if not url:
        return None
    path = urllib.parse.urlsplit(url).path.strip("/")
    base = base_path.strip("/")
    if base and (path == base or path.startswith(base + "/")):
        path = path[len(base):].strip("/")
    path = urllib.parse.unquote(path)
    if not path or "/" in path or path in {p.url_path for p in PAGES}:
        return None
    return path


LANG_FROM_URL = "shell_lang_from_url"
"""Whether the session's first address named a valid ?lang= (app.py): the /join page then keeps it
instead of taking the language of the room open now (`room_join.join_page`)."""


def current_lang() -> str:
    """The language chosen in app.py's switch (Korean by default)."""
    return st.session_state.get("lang", i18n.DEFAULT_LANG)


@st.cache_resource(show_spinner=False, max_entries=64)
def _load_area(area: str, mtime_ns: int) -> Mapping[str, Mapping[str, str]]:
    """The area's strings, one read-only table per language (mtime_ns is part of the key, so an edited
    file is reloaded while the app runs). `st.cache_resource`, not `cache_data`: every run of every page
    reads two or three areas, and cache_data hands each caller an unpickled copy; with sixty phones of a
    room rerunning at once those copies were about a seventh of the server's time (py-spy, 2026-12-06).
    The tables are read-only views, so no caller can change what another reads."""
    table = i18n.load_area(area)
    return MappingProxyType({lang: MappingProxyType({k: v[lang] for k, v in table.items()}) for lang in i18n.LANGS})


def _mtime_ns(area: str) -> int:
    path = i18n.UI_DIR / f"{area}.yaml"
    return path.stat().st_mtime_ns if path.exists() else 0


def strings(area: str, lang: str | None = None) -> i18n.Strings:
    """UI strings of `area` in the current language; raises ContentError if the file is broken.

    A key missing from the file (or a placeholder the code does not fill) does not stop the page:
    the message is shown where the text would be, once per key and run, and a stand-in takes the
    text's place (i18n.Strings.fallback); `python -m latency.content check` finds these before a
    user does."""
    lang = lang or current_lang()
    table = _load_area(area, _mtime_ns(area))[lang]
    shown: set[str] = set()
    return i18n.Strings(area=area, lang=lang, table=table,
                        on_error=lambda err: _show_once(err, shown))


def _show_once(err: ContentError, shown: set[str]) -> None:
    if err.path not in shown:
        shown.add(err.path)
        show_content_error(err)


def _affected(err: ContentError, s: i18n.Strings) -> str:
    """Which pages the broken file takes down, by their titles in the reader's language."""
    pages = affected_pages(err.file)
    lang = file_lang(err.file)
    if "*" in pages:
        text = s("content_error_all_pages")
    elif pages:
        titles = {p.url_path: s(p.nav_key) for p in PAGES}
        text = ", ".join(titles[p] for p in pages if p in titles)
    else:
        text = s("content_error_this_page")
    return s("content_error_in_lang", pages=text, lang=s(f"lang_name_{lang}")) if lang in i18n.LANGS else text


def show_content_error(err: ContentError) -> None:
    """A named, specific in-app message for a broken content file (never a traceback): what is
    broken (the file relative to the project, the place in it, the problem) and which pages it
    affects."""
    try:
        s = replace(strings("common"), on_error=None)  # strict: a key missing here goes to the fallback below
        st.error(s("content_error", pages=_affected(err, s)) + "\n\n" + s(
            "content_error_detail", file=i18n.md(err.shown_file), path=i18n.md(err.path), problem=i18n.md(err.problem)))
    except ContentError:
        # the shared strings themselves are broken: the technical message alone
        st.error(i18n.md(f"{err.shown_file}: {err.path}: {err.problem}"))


APP_URL_KEYS = ("lang",)  # URL keys app.py reads on every page


def drop_unknown_url_keys(known: tuple[str, ...] = ()) -> None:
    """For a page that reads no scenario (the glossary, the Learn page): every URL key besides
    `known` and the app's own is named in a notice, as the explorer pages name theirs, and removed
    from the address, so a shared link never carries it on silently."""
    keep = set(known) | set(APP_URL_KEYS)
    unknown = [key for key in st.query_params if key not in keep]
    if not unknown:
        return
    s = strings("common")
    for key in unknown:
        raw = st.query_params.get_all(key)
        st.warning(s("url_unknown_key", name=i18n.md(i18n.clip(key)), raw=i18n.md(i18n.clip(raw[-1] if raw else ""))))
        del st.query_params[key]


def page_strings(area: str) -> i18n.Strings:
    """Strings for a page, called once at its top; on a broken file shows the error and stops only
    this page."""
    ensure_entry()
    try:
        return strings(area)
    except ContentError as err:
        show_content_error(err)
        st.stop()
