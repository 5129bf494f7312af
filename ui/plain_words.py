"""Plain words: a popover that explains, one line each, the technical terms a page shows
(content/ui/plain_words.yaml). Pages pass the term ids they use, so the list matches the screen."""

from __future__ import annotations

from typing import Sequence

import streamlit as st

from latency.language.i18n import Strings

ESTIMATOR_TERMS = ("token", "ttft", "tpot", "prefill", "decode", "kv_cache", "network", "handshake", "queue", "batching",
                   "precision", "fp16", "fp8", "w8a8", "int4", "q4_k_m", "moe", "looped", "tensor_parallel", "engine",
                   "range")
TRADEOFF_TERMS = ESTIMATOR_TERMS + ("throughput",)


def show(pw: Strings, terms: Sequence[str]) -> None:
    """A labelled popover listing `terms` in plain words."""
    with st.popover(pw("plain_words_heading"), icon=":material/help:"):
        st.caption(pw("plain_words_intro"))
        st.markdown("\n".join(f"- {pw(f'term_{t}')}" for t in terms))
