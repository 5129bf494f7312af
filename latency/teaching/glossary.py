"""The glossary index (pure Python): every term with its names in each language and a one-line summary,
and the search the start page uses (any language's name, the original term or the id; case, spaces and
hyphens ignored)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from latency.teaching import content
from latency.language.errors import ContentError

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_FOLD = re.compile(r"[\s\-_·]+")


@dataclass(frozen=True)
class IndexEntry:
    id: str
    titles: dict[str, str]  # lang -> title, only languages whose file loads
    originals: dict[str, str]  # lang -> the `original` line (e.g. "inference latency" on the Korean page)
    summaries: dict[str, str]  # lang -> the definition's first sentence

    def names(self) -> list[str]:
        return [self.id, *self.titles.values(), *self.originals.values()]


def one_line(definition: str) -> str:
    """The first sentence of a definition."""
    return _SENTENCE_END.split(definition.strip(), maxsplit=1)[0]


def index(terms_dir: Path | None = None, langs: Sequence[str] = ()) -> tuple[tuple[IndexEntry, ...], tuple[ContentError, ...]]:
    """Every term (default entry first, then by id) and the problems of files that did not load."""
    entries, problems = [], []
    ids = content.term_ids(terms_dir)
    ids.sort(key=lambda t: (t != content.DEFAULT_TERM, t))
    for term_id in ids:
        titles, originals, summaries = {}, {}, {}
        for lang in langs:
            if not content.has_term(term_id, lang, terms_dir):
                continue
            try:
                term = content.load_term(term_id, lang, terms_dir)
            except ContentError as err:
                problems.append(err)
                continue
            titles[lang], summaries[lang] = term.title, one_line(term.definition)
            if term.original:
                originals[lang] = term.original
        if titles:
            entries.append(IndexEntry(term_id, titles, originals, summaries))
    return tuple(entries), tuple(problems)


def fold(text: str) -> str:
    return _FOLD.sub("", text).casefold()


def search(entries: Sequence[IndexEntry], query: str | None) -> list[IndexEntry]:
    """Entries whose id, title in any language or original term contains `query` (folded)."""
    q = fold(query or "")
    if not q:
        return list(entries)
    return [e for e in entries if any(q in fold(n) for n in e.names())]
