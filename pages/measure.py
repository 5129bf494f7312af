"""Measure here: run a real small decoder-only transformer (random weights, numpy) on the machine that
serves this app: a few-second probe of memory bandwidth and matmul speed, prefill of the prompt, then
token-by-token decode over a KV cache. Shows time to first token, time per output token and tokens/s
beside the estimator's prediction for the probed hardware and that model, with the ratios and why.
One measurement at a time per server; at most 20 s; the result downloads as a calibration CSV row.
Model, probe and comparison: latency.measured.measure; sections: ui/measure_view.py; strings: content/ui/measure.yaml.
"""

from __future__ import annotations

import time

import streamlit as st

from latency.measured import measure
from ui import measure_view, plain_words, shell

# --- 1. load ------------------------------------------------------------------------------------
s = shell.page_strings("measure")
free_gb = measure.available_memory_gb()
sizes = measure.sizes_that_fit(free_gb)

st.title(s("title"))
plain_words.show(shell.strings("plain_words"), plain_words.MEASURE_TERMS)  # every word the page shows, before it is met
st.caption(s("intro"))
st.caption(s("why_random"))
if not sizes:
    st.warning(s("no_size_fits", need=measure_view.fmt_gb(s, measure.SIZES[0].memory_gb()),
                 limit=measure_view.fmt_gb(s, measure.memory_limit_gb(free_gb))))
    st.stop()

# --- 2. inputs ----------------------------------------------------------------------------------
choice = measure_view.controls(s, sizes, free_gb)

# --- 3. compute: one measurement (under the server's lock) --------------------------------------
if choice["start"]:
    result = measure_view.run_measurement(s, choice, clock=time.perf_counter, free_gb=free_gb)
    if result is not None:
        st.session_state[measure_view.RESULT_KEY] = result

# --- 4. sections --------------------------------------------------------------------------------
if measure_view.RESULT_KEY in st.session_state:
    measure_view.show_result(s, st.session_state[measure_view.RESULT_KEY])
