"""Plain words: a popover that explains, one line each, the technical terms a page shows
(content/ui/plain_words.yaml). The explorer pages pass the term ids they use, so the list matches the
screen; the lesson, the glossary and a term entry pass the texts they are about to show (`show_met`),
and the list is the entries those texts use, in the order met (latency/language/jargon.py). Drawn above
those texts, it defines every technical word before the reader first meets it."""

from __future__ import annotations

from typing import Sequence

import streamlit as st

from latency.language import jargon
from latency.language.i18n import Strings

ESTIMATOR_TERMS = ("inference_latency", "llm", "token", "ttft", "tpot", "streaming", "target_time", "sla", "prefill", "decode", "kv_cache", "network",
                   "handshake", "queue", "batching", "gpu", "sxm", "weights", "parameters", "bandwidth", "compute", "precision",
                   "quantization", "perplexity", "fp16", "fp8", "w8a8", "int4", "nvfp4", "q4_k_m", "llama_cpp", "dense", "moe", "looped", "tensor_parallel",
                   "engine", "range", "extrapolated", "throughput", "tradeoff", "bits", "fibre", "vllm", "gpt", "autocomplete", "l4", "local",
                   "benchmark", "file_formats")
TRADEOFF_TERMS = ESTIMATOR_TERMS
# the launch check's words in the order a PM meets them: the verdict and figures, the set-up's inputs, its small print
LAUNCH_TERMS = ("target_time", "token", "range", "extrapolated", "throughput", "queue", "prefill", "decode", "streaming",
                "llm", "gpt", "phi4", "weights", "parameters", "dense", "moe", "bits", "precision", "quantization", "perplexity", "fp16",
                "fp8", "w8a8", "int4", "nvfp4", "q4_k_m", "gpu", "sxm", "l4", "bandwidth", "compute", "kv_cache", "region",
                "fibre", "local", "engine", "vllm", "llama_cpp", "batching", "prefix_cache", "speculative", "acceptance", "benchmark", "prompt")
# the logs page (its samples summarised against the estimate), the measuring page (a real decode) and how it works
LOGS_TERMS = ("token", "prompt", "ttft", "tpot", "sla", "target_time", "llm", "gpt", "engine", "vllm", "llama_cpp", "file_formats", "benchmark", "timestamps",
              "percentile", "range", "gpu", "sxm", "l4", "weights", "bits", "precision", "fp16", "fp8", "w8a8", "int4", "nvfp4",
              "q4_k_m", "bandwidth", "prefill", "compute", "gflop", "numpy", "core", "queue", "api", "decode", "streaming", "quantization")
MEASURE_TERMS = ("llm", "gpt", "transformer", "token", "ttft", "queue", "prefill", "decode", "weights", "parameters", "bits", "fp32", "kv_cache",
                 "numpy", "gpu", "core", "matrix", "gflop", "engine", "vllm", "llama_cpp", "file_formats")
HOW_TERMS = ("inference_latency", "llm", "gpt", "phi4", "token", "prompt", "ttft", "queue", "prefill", "decode", "network", "handshake",
             "fibre", "region", "local", "gpu", "sxm", "engine", "vllm", "llama_cpp", "batching", "throughput", "kv_cache",
             "weights", "parameters", "bits", "fp16", "fp8", "w8a8", "bandwidth", "compute", "dense", "moe", "looped",
             "tensor_parallel", "speculative", "prefix_cache", "range", "extrapolated", "gflop", "fp32", "numpy", "benchmark",
             "percentile", "file_formats", "backbone", "bufferbloat", "tail", "queue_formula", "mla", "zero_rtt")


def show(pw: Strings, terms: Sequence[str]) -> None:
    """A labelled popover listing `terms` in plain words."""
    with st.popover(pw("plain_words_heading"), icon=":material/help:"):
        st.caption(pw("plain_words_intro"))
        st.markdown("\n".join(f"- {pw(f'term_{t}')}" for t in terms))


def met(pw: Strings, texts) -> list[str]:
    """The plain-words entries `texts` use, in the order met."""
    definitions = {key.removeprefix("term_"): pw(key) for key in pw.table if key.startswith("term_")}
    return jargon.met(texts, definitions)


def show_met(pw: Strings, texts) -> None:
    """The popover for the entries `texts` (strings about to be shown) use; nothing when they use none."""
    terms = met(pw, texts)
    if terms:
        show(pw, terms)
