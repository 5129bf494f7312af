"""Jargon met on a screen (latency/language/jargon.py): which plain-words entries a page's texts use, in
the order met (issue 26, item 4). Cases written by hand."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from latency.language import jargon

DEFS = {
    "token": "**토큰**: 낱말 조각.",
    "int4": "**INT4 (GPTQ/AWQ)**: 4비트.",
    "compute": "**Compute (peak compute)**: calculations per second.",
    "batching": "**Batch, batching (continuous batching)**: many at once.",
}


@pytest.mark.parametrize("definition, expected", [
    ("**INT4 (GPTQ/AWQ)**: ...", ("INT4", "GPTQ", "AWQ")),
    ("**메모리 대역폭(대역폭)**: ...", ("메모리 대역폭", "대역폭")),
    ("**Batch, batching (continuous batching)**: ...", ("Batch", "batching", "continuous batching")),
    ("no head here", ()),
])
def test_the_names_come_from_the_bold_head(definition, expected):
    assert jargon.names(definition) == expected


@pytest.mark.parametrize("texts, expected", [
    (["질문을 읽습니다.", "첫 토큰이 나옵니다. INT4로 줄이면"], ["token", "int4"]),
    (["AWQ 형식", "토큰"], ["int4", "token"]),                    # the order the reader meets them
    (["Every number is computed here."], []),                     # 'computed' is not the word 'compute'
    (["The chip's compute sets it; batches of users"], ["compute", "batching"]),
    (["detokenize"], []),
])
def test_met_lists_the_words_in_the_order_of_first_use(texts, expected):
    assert jargon.met(texts, DEFS) == expected


def test_strings_of_walks_loaded_content():
    @dataclass(frozen=True)
    class Step:
        title: str
        options: tuple

    assert list(jargon.strings_of(Step("a", ({"x": "b"}, ["c"])))) == ["a", "b", "c"]


def test_strings_of_keeps_one_language():
    assert list(jargon.strings_of({"title": {"ko": "토큰", "en": "token"}, "n": ["x"]}, "en")) == ["token", "x"]


def test_a_word_used_by_another_entrys_plain_sentence_comes_first():
    defs = {"decode": "**Decode**: one token at a time.", "token": "**Token**: a piece of a word."}
    assert jargon.met(["the decode stage"], defs) == ["token", "decode"]
