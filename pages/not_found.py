"""Not found (any URL path that is none of the app's pages): says so in the reader's language, with
the path as typed (plain text), and links to every page. app.py registers it, hidden, under the
unknown path itself, so Streamlit's own English "Page not found" dialog never shows."""

from __future__ import annotations

import streamlit as st

from latency.language.i18n import clip, md
from ui import shell

s = shell.page_strings("common")

st.title(s("not_found_title"))
st.warning(s("not_found_text", path=md(clip(st.session_state.get(shell.UNKNOWN_PATH_KEY, "")))))
st.markdown(f"**{s('not_found_pages')}**")
for spec in shell.PAGES:
    st.page_link(spec.file, label=s(spec.nav_key), icon=spec.icon)
