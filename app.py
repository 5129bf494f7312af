"""Entry point: page config, the shared language switch and st.navigation. Nothing else."""

from __future__ import annotations

import streamlit as st

from latency.language import i18n
from latency.language.errors import ContentError
from ui import room_view, shell, state, style

# --- language: URL ?lang= on first load, then the switch; mirrored back into the URL ----------
if "lang" not in st.session_state:
    raw = st.query_params.get_all("lang")
    lang, ok = i18n.resolve_lang(raw or None)
    st.session_state["lang"] = lang
    st.session_state[shell.LANG_FROM_URL] = bool(ok and raw)  # /join keeps a language the address names
    if not ok:
        st.session_state["app_bad_lang"] = raw[-1]

try:
    common = shell.strings("common")
except ContentError as err:
    common = None
    common_error = err

title = (lambda key: common(key)) if common else (lambda key: key.removeprefix("nav_").replace("_", " "))
st.set_page_config(page_title=title("app_title"), page_icon="⏱️", layout="wide")
style.apply()

# The switch has its own widget key, copied into "lang" when used: a widget's own state does not
# survive pages that do not draw it the same way (docs.streamlit.io, "Widget behavior").
st.session_state["lang_switch"] = st.session_state["lang"]
with st.sidebar:
    st.segmented_control(
        title("lang_label"),
        options=list(i18n.LANGS),
        format_func=lambda code: title(f"lang_name_{code}"),
        key="lang_switch",
        on_change=lambda: st.session_state.update(lang=st.session_state["lang_switch"]),
        required=True,
    )
lang = st.session_state["lang"]
st.query_params["lang"] = lang
other = "en" if lang == "ko" else "ko"
with st.container(key=style.LANG_TOP_KEY):  # shown on phones only (ui/style.py), where the sidebar is folded away
    st.button(title(f"lang_name_{other}"), icon=":material/translate:", help=title("lang_label"),
              on_click=st.session_state.__setitem__, args=("lang", other), key="shell_lang_top_button")
if common is None:
    shell.show_content_error(common_error)
elif "app_bad_lang" in st.session_state:  # the reader's language is what is unknown: said in every language
    bad, lines = i18n.md(i18n.clip(st.session_state.pop("app_bad_lang"))), []
    for code in i18n.LANGS:
        said = shell.strings("common", code)  # a name the content check reads as the common table
        lines.append(said("bad_lang_notice", value=bad))
    st.warning("  \n".join(lines))

pages: dict[str, list] = {}
for spec in shell.PAGES:
    pages.setdefault(title(spec.section), []).append(
        st.Page(spec.file, title=title(spec.nav_key), icon=spec.icon, url_path=spec.url_path, default=spec is shell.DEFAULT_PAGE))
# A URL path that is none of the pages gets the app's own bilingual "not found" page, registered
# hidden under that very path, in place of Streamlit's English dialog (ui/shell.unknown_path).
unknown = shell.unknown_path(st.context.url, st.get_option("server.baseUrlPath"))
if unknown:
    st.session_state[shell.UNKNOWN_PATH_KEY] = unknown
    pages.setdefault(title(shell.PAGES[0].section), []).append(
        st.Page(shell.NOT_FOUND_FILE, title=title("not_found_title"), url_path=unknown, visibility="hidden"))
page = st.navigation(pages)
# Each page its own browser-tab title in the reader's language (WCAG 2.4.2), and <html lang> to match.
st.set_page_config(page_title=shell.document_title(page.title, title("app_title")))
style.declare_language(lang, common("help_for", label="{label}") if common is not None else "Help for {label}",  # cached strings: this runs on every rerun
                       {key: common(key) for _, _, key in style.CHROME} if common is not None else None)
st.session_state[shell.ENTRY_MARK] = True  # the page's shell.page_strings() takes it back
state.page_ran(page.url_path)  # a page arrived at, or the same page again (a link's note stays on its page)
# A phone that joined a room and went to another page: the way back to the room, on top of whatever page it is
room_view.joined_banner(lang, st.query_params.get("room") if page.url_path == "lesson" else None)
page.run()
