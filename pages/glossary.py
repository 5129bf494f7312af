"""Glossary (the start page, URL `/`): every term with its one-line summary, searchable by its Korean or
English name; each opens its entry on the Learn page (`learn?term=<id>`)."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from latency.teaching import content, glossary
from latency.language.i18n import LANGS, md
from ui import plain_words, shell, style

s = shell.page_strings("glossary")
lang = shell.current_lang()
shell.drop_unknown_url_keys()


@st.cache_data(show_spinner=False, max_entries=8)
def load_index(terms_dir: str, signature: str) -> tuple[tuple[glossary.IndexEntry, ...], tuple[content.ContentError, ...]]:
    # signature (file names and mtimes) is part of the key, so an edited or new entry shows at once
    return glossary.index(Path(terms_dir), LANGS)


entries, problems = load_index(str(content.TERMS_DIR), content.files_signature(content.TERMS_DIR))
st.title(s("title"))
st.caption(s("intro"))
st.header(s("start_heading"))
with st.container(horizontal=True):
    st.page_link("pages/lesson.py", label=s("start_lesson"), icon=":material/school:", query_params={"lang": lang})
    st.page_link("pages/estimator.py", label=s("start_estimator"), icon=":material/timer:", query_params={"lang": lang})
plain_words.show_met(shell.strings("plain_words"),  # the cards' technical words, before the cards
                     [s("search_placeholder"), *(x for e in entries for x in (e.titles.get(lang, ""), e.summaries.get(lang, "")))])
st.header(s("terms_heading"))
query = st.text_input(s("search_label"), placeholder=s("search_placeholder"), key="glossary_query", max_chars=60)
shown = glossary.search(entries, query)

for err in problems:
    shell.show_content_error(err)
st.caption(s("count" if len(shown) != 1 else "count_one", n=len(shown)))
if query and not shown:
    st.info(s("no_match", query=md(query)))
for entry in shown:
    with st.container(border=True, key=f"{style.CARD_KEY}{entry.id.replace('-', '_')}"):  # the whole card is the link
        name = entry.titles.get(lang)
        if name is None:
            st.markdown(f"**{md(entry.titles[next(iter(entry.titles))])}**")
            st.caption(s("missing_lang"))
            continue
        st.page_link("pages/learn.py", label=md(name), icon=":material/menu_book:",
                     query_params={"term": entry.id, "lang": lang})
        if lang in entry.originals:  # the term in its original language, as the entry itself shows it
            st.caption(md(entry.originals[lang]))
        st.markdown(md(entry.summaries[lang]))

# The page's last section, someone in an onboarding room types its code here (issue 30; ROOM's module,
# imported here so this page's own lines above stay untouched).
from ui import room_join  # noqa: E402

room_join.start_code_field()
