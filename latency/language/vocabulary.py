"""One vocabulary (content/vocabulary.yaml): for each idea and language, the one name the app uses and
the synonyms it refuses. `problems()` finds every refused word in the app's own text: UI strings
(content/ui), term entries (the quoted source text, a Korean file with `seed:`, aside), the lesson and
its quiz. `python -m latency.content check` prints them (latency.teaching.content.main).

One Korean style too: the app's own Korean sentences are in 합니다체; `problems()` also names every sentence that
ends in 한다체 (latency.language.korean.plain_style_sentences). A misconception's `myth` is exempt: it quotes
what people say ("더 큰 GPU를 사면 해결된다"), not the app speaking; so is the quoted source text."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from latency.language.errors import PROJECT_DIR, ContentError, read_yaml
from latency.language.i18n import CONTENT_DIR, LANGS
from latency.language.korean import plain_style_sentences

VOCABULARY_FILE = CONTENT_DIR / "vocabulary.yaml"
SOURCE_LANG = "ko"  # a term file in this language with `seed:` is the quoted source text: exempt
QUOTED_BELIEF = "myth"  # a misconception as people say it: exempt from the app's one Korean style


@dataclass(frozen=True)
class Name:
    idea: str
    lang: str
    use: str
    refuse: tuple[str, ...]


def load(file: Path = VOCABULARY_FILE) -> list[Name]:
    """Every (idea, language) entry; a malformed file raises ContentError naming the place."""
    data = read_yaml(file)
    if not isinstance(data, dict):
        raise ContentError(file, "", "expected a mapping of ideas")
    out = []
    for idea, by_lang in data.items():
        if not isinstance(by_lang, dict) or set(by_lang) != set(LANGS):
            raise ContentError(file, str(idea), f"needs exactly the languages {list(LANGS)}")
        for lang, entry in by_lang.items():
            where = f"{idea}.{lang}"
            if not isinstance(entry, dict) or not isinstance(entry.get("use"), str) or not entry["use"].strip():
                raise ContentError(file, where, "needs `use`: the one name, as text")
            refuse = entry.get("refuse", [])
            if not isinstance(refuse, list) or not all(isinstance(r, str) and r.strip() for r in refuse):
                raise ContentError(file, f"{where}.refuse", "expected a list of words (text)")
            if any(r.casefold() in entry["use"].casefold() for r in refuse):
                raise ContentError(file, f"{where}.refuse", "a refused word is part of the name in use")
            out.append(Name(str(idea), lang, entry["use"], tuple(refuse)))
    return out


def _strings(value: Any, path: tuple = ()) -> Iterator[tuple[tuple, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, (*path, str(k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _strings(v, (*path, i))


def _fmt(path: tuple) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else p) for i, p in enumerate(path))


def texts(root: Path = PROJECT_DIR) -> Iterator[tuple[Path, str, str, str]]:
    """(file, place, lang, text) for every text the app shows as its own."""
    content = root / "content"
    bilingual = [*sorted((content / "ui").glob("*.yaml")), content / "lesson.yaml", *sorted((content / "quiz").glob("*.yaml"))]
    for file in bilingual:
        if not file.exists():
            continue
        for path, text in _strings(read_yaml(file)):
            lang = next((p for p in reversed(path) if p in LANGS), None)
            if lang is not None:
                yield file, _fmt(path), lang, text
    for file in sorted((content / "terms").glob("*.yaml")):
        parts = file.name.split(".")
        if len(parts) != 3 or parts[1] not in LANGS:
            continue
        data = read_yaml(file)
        if parts[1] == SOURCE_LANG and isinstance(data, dict) and data.get("seed"):
            continue  # the quoted source text keeps its own words
        for path, text in _strings(data):
            if path and path[-1] not in ("id", "url", "source", "seed", "term", "page", "target", "measure", "kind"):
                yield file, _fmt(path), parts[1], text


def problems(root: Path = PROJECT_DIR, file: Path | None = None) -> list[ContentError]:
    """A ContentError for every refused word in the app's own text, naming the word to use instead."""
    try:
        names = load(file or root / "content" / "vocabulary.yaml")
    except ContentError as err:
        return [err]
    patterns = [(n, r, re.compile(re.escape(r), re.IGNORECASE)) for n in names for r in n.refuse]
    out = []
    for where, place, lang, text in texts(root):
        for n, word, pattern in patterns:
            if n.lang == lang and pattern.search(text):
                out.append(ContentError(where, place, f"'{word}' names the idea '{n.idea}'; this app calls it '{n.use}'"
                                                      " (content/vocabulary.yaml)"))
        if lang == "ko" and QUOTED_BELIEF not in place.split(".")[-2:]:
            for sentence in plain_style_sentences(text):
                out.append(ContentError(where, place, f"'{sentence[-40:]}' ends in 한다체; the app's own sentences are in"
                                                      " 합니다체 (…입니다, …줄어듭니다)"))
    return out
