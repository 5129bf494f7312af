"""The start page (URL `/`): what the app teaches in one sentence, three ways in (the 15-minute lesson, the
calculator, a 10-second "feel it" of 0.2 s against 3 s played right here), then the glossary: every term with
its one-line summary, searchable by its Korean or English name; each opens its entry (`learn?term=<id>`)."""

from __future__ import annotations

import time
from pathlib import Path

import streamlit as st

from latency.estimation import scenario
from latency.estimation.catalog import load_catalog
from latency.language import formats
from latency.language.i18n import LANGS, md
from latency.teaching import claims, content, feel, glossary
from ui import feel_player, plain_words, room_join, room_view, shell, style

s = shell.page_strings("glossary")
lang = shell.current_lang()
shell.drop_unknown_url_keys()
f = formats.get(lang)


@st.cache_data(show_spinner=False, max_entries=8)
def load_index(terms_dir: str, signature: str) -> tuple[tuple[glossary.IndexEntry, ...], tuple[content.ContentError, ...]]:
    # signature (file names and mtimes) is part of the key, so an edited or new entry shows at once
    return glossary.index(Path(terms_dir), LANGS)


@st.cache_data(show_spinner=False, max_entries=4)
def feel_pace(lang: str, signature: str) -> tuple[float, str, str, float, float]:
    """The pace both "feel it" answers stream at: the calculator's default set-up, evaluated once
    (scenario.evaluate), with the model (by the name the lesson gives it, "Llama 3.1 8B"), the chip and that
    set-up's own first token beside the answers: the race's 0.2 s is a wait to feel, not the set-up's figure."""
    catalog = load_catalog()
    values = claims.full_values(catalog, {})
    sized, hw, est = scenario.evaluate(catalog, values)
    size = float(values["model_size_b"])
    model = claims.model_label(catalog, values, lang) or f"{size:g}B"  # the name the fold and the lesson give it
    return est.decode_tokens_per_s, model, hw.label(lang), values["distance_km"], est.ttft_s


entries, problems = load_index(str(content.TERMS_DIR), content.files_signature(content.TERMS_DIR))

# --- 1. what the app teaches, and three ways in ------------------------------------------------------
st.title(s("title"))
room_view.return_banner(shell.strings("lesson"), lang, "start_return")  # a room left open: the way back, first
st.markdown(s("pitch"))
with st.container(horizontal=True, gap="small", key="start_doors"):
    lesson_door = st.button(s("start_lesson"), type="primary", icon=":material/school:", key="start_lesson")
    estimator_door = st.button(s("start_estimator"), icon=":material/calculate:", key="start_estimator")
    feel_door = st.button(s("start_feel"), icon=":material/play_arrow:", key="start_feel")
# the other ways in, for the people who come with a task (newcomer trials 2026-12-05: a presenter scrolled past
# the whole glossary to find "run a session"; a PM with logs found their page only in the side menu)
with st.container(horizontal=True, gap="medium", vertical_alignment="center", key=style.TAP_LINKS_KEY + "start_more"):
    st.page_link("pages/logs.py", label=s("start_logs"), icon=":material/monitoring:", query_params={"lang": lang})
    st.markdown(f"[{s('start_present')}](#{room_join.START_ROOM_ANCHOR})")
still = st.toggle(s("feel_still"), key="start_feel_still")  # reduced motion: the race's timing as text, nothing played
if lesson_door:
    st.switch_page("pages/lesson.py", query_params={"lang": lang})
if estimator_door:  # the calculator's default set-up, as the door says, not what a glossary card left there earlier
    st.switch_page("pages/estimator.py", query_params={**claims.link_values(claims.full_values(load_catalog(), {})), "lang": lang})
FAST_S, SLOW_S = 0.2, 3.0  # the two waits to feel (the guide: "people sense 0.2 s against 3 s")
if feel_door:  # 0.2 s against 3 s, side by side, the same answer at the same pace: only the wait differs
    tps, model, chip, km, ttft = feel_pace(lang, content.files_signature())
    sample = feel.load_samples()[lang]
    tokens = feel.split_tokens(sample.answer, sample.chars_per_token)
    st.caption(s("feel_setup", model=md(model), chip=md(chip), km=f.km(km), tps=formats.number(tps, 3), ttft=f.seconds(ttft),
                 fast=f.seconds(FAST_S), slow=f.seconds(SLOW_S)))
    feel_player.race(s, f, tokens, [(s("feel_fast"), feel.Pace(FAST_S, tps)), (s("feel_slow"), feel.Pace(SLOW_S, tps))],
                     sleep=time.sleep, clock=time.monotonic, still=still)

# --- 2. the glossary ------------------------------------------------------------------------------
st.header(s("terms_heading"))
st.caption(s("terms_intro"))
plain_words.show_met(shell.strings("plain_words"),  # the cards' technical words, before the cards
                     [s("search_placeholder"), *(x for e in entries for x in (e.titles.get(lang, ""), e.summaries.get(lang, "")))])
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

# The page's last section, someone in an onboarding room types its code here (issue 30).

room_join.start_code_field()
