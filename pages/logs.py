"""Your logs: upload request logs (CSV, JSONL, vLLM benchmark JSON, llama.cpp responses or a plain
list) and see time to first token, time per output token and end-to-end latency as distributions:
p50/p90/p95/p99, the ECDF, the share within a budget, latency over time, and the estimator's figure
for a chosen scenario drawn over them. Reading and summarising: latency.measured.logs; figures:
latency.charts.logs; sections: ui/log_view.py; strings: content/ui/logs.yaml.
"""

from __future__ import annotations

import streamlit as st

from latency import LogError, summarize_latency
from latency.language import formats
from latency.language.errors import ContentError
from latency.language.i18n import md
from ui import log_view, plain_words, shell, state

# --- 1. load ------------------------------------------------------------------------------------
s = shell.page_strings("logs")
lang = shell.current_lang()
try:
    catalog, stops = log_view.load_data(log_view.data_signature())
except ContentError as err:
    shell.show_content_error(err)
    st.stop()

st.title(s("title"))
plain_words.show(shell.strings("plain_words"), plain_words.LOGS_TERMS)  # every word the page shows, before it is met
st.caption(s("intro"))

# --- 2. inputs: a file (or a sample) ------------------------------------------------------------
source = log_view.pick_source(s)
log_view.show_formats(s, expanded=not source)
if not source:
    st.stop()

# --- 3. compute: read and summarise -------------------------------------------------------------
try:
    df, fmt = log_view.read_log(source["data"], source["fmt"])
except LogError as err:
    log_view.show_error(s, err)
    st.stop()
st.success(s("read_ok", name=md(source["name"]), fmt=s(f"fmt_{fmt}"), n=formats.get(lang).count(len(df), "requests")),
           icon=":material/check_circle:")
for note in log_view.read_notes(s, df):  # values left out, seconds that look like milliseconds: said, never silent
    st.warning(note, icon=":material/warning:")
budget = state.bounded_number_input(s("budget_label"), "lg_budget", log_view.BUDGET, step=0.5, help=s("budget_help"))
for text in state.box_notice_texts(shell.strings("scenario"), ("lg_budget",), formats.get(lang).seconds):
    st.warning(text, icon=":material/edit_note:")
summary = summarize_latency(df, budget_s=budget)

# --- 4. sections --------------------------------------------------------------------------------
log_view.summary(s, summary, budget)
log_view.reading(s, summary)
log_view.compare_and_draw(s, catalog, stops, lang, df, summary, budget)  # a fragment: reruns alone
