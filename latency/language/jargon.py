"""Jargon met on a screen (issue 26, item 4): which plain-words entries (content/ui/plain_words.yaml) a
page's own texts use, in the order the reader meets them, so the page's "Words on this page" list
(ui/plain_words.py), drawn above them, defines every technical word before its first use.

An entry is one line, "**head**: plain sentence"; the head names the word as screens write it, with its
other names in parentheses or after a slash or comma ("**INT4 (GPTQ/AWQ)**", "**Batch, batching
(continuous batching)**"). A text uses the entry when it contains one of those names at the start of a
word, a Latin name as a whole word or its plural (case ignored: "tokens" uses "Token", "INT4" uses
"INT4 (GPTQ/AWQ)", "computed" does not use "Compute"). Knows nothing of latency.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Iterator, Mapping

from latency.language.i18n import LANGS

_HEAD = re.compile(r"^\*\*(.+?)\*\*")
_SPLIT = re.compile(r"[()/,·]")


def names(definition: str) -> tuple[str, ...]:
    """The names an entry's bold head gives its word ("**INT8 (W8A8)**: ..." -> ("INT8", "W8A8"))."""
    head = _HEAD.match(definition.strip())
    if head is None:
        return ()
    return tuple(n.strip() for n in _SPLIT.split(head.group(1)) if n.strip())


def _pattern(name: str) -> re.Pattern:
    # a whole word: "token" in "tokens" and "1,000 tokens", never "detokenize" or "computed" for "compute";
    # a Korean name may carry its particle ("토큰이", "가중치를")
    end = r"(?:s|es)?(?![A-Za-z0-9_])" if name[-1:].isascii() and name[-1:].isalnum() else ""
    # a Korean name may follow a number ("16비트", "256토큰"); a Latin one is a whole word ("INT4", not "XINT4")
    start = r"(?<![A-Za-z0-9_])" if name[:1].isascii() else r"(?<![A-Za-z_])"
    return re.compile(start + re.escape(name) + end, re.IGNORECASE)


def strings_of(value: Any, lang: str | None = None) -> Iterator[str]:
    """Every text inside a loaded content object (str, mapping, list, tuple, dataclass), in order; with
    `lang`, a mapping by language ({"ko": ..., "en": ...}) gives only that language's text."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        if lang is not None and lang in value and set(value) <= set(LANGS):
            yield from strings_of(value[lang], lang)
            return
        for v in value.values():
            yield from strings_of(v, lang)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from strings_of(v, lang)
    elif hasattr(value, "__dataclass_fields__"):
        for name in value.__dataclass_fields__:
            yield from strings_of(getattr(value, name), lang)


def met(texts: Iterable[str], definitions: Mapping[str, str]) -> list[str]:
    """The ids of `definitions` whose word `texts` use, in the order of first use, each preceded by the
    entries its own plain sentence uses ("**Decode**: ... one token at a time" brings "Token" first)."""
    out: list[str] = []
    visiting: set[str] = set()

    def add(tid: str) -> None:
        if tid in out or tid in visiting:
            return
        visiting.add(tid)
        for dep in _first_uses([definitions[tid]], definitions):
            add(dep)
        out.append(tid)

    for tid in _first_uses(texts, definitions):
        add(tid)
    return out


def _first_uses(texts: Iterable[str], definitions: Mapping[str, str]) -> list[str]:
    patterns = {tid: [_pattern(n) for n in names(d)] for tid, d in definitions.items()}
    first: dict[str, tuple[int, int]] = {}
    for i, text in enumerate(texts):
        for tid, pats in patterns.items():
            if tid in first:
                continue
            hits = [m.start() for p in pats if (m := p.search(text))]
            if hits:
                first[tid] = (i, min(hits))
    return sorted(first, key=lambda tid: first[tid])
