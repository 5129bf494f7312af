"""Languages and UI strings.

Every user-visible string of the UI lives in ``content/ui/<area>.yaml`` as
``key: {ko: "...", en: "..."}`` (one file per page or shared area). This module loads and
validates those files and resolves the current language. It never imports streamlit.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from latency import korean
from latency.errors import ContentError, read_yaml

LANGS: tuple[str, ...] = ("ko", "en")
DEFAULT_LANG = "ko"
CONTENT_DIR = Path(__file__).resolve().parents[1] / "content"
UI_DIR = CONTENT_DIR / "ui"


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>#|~$])")


def md(text: object) -> str:
    """Text from content, data or the URL shown literally in Streamlit markdown: every Markdown
    character (and `$`, which starts LaTeX) is backslash-escaped. No HTML is ever enabled, so `<`
    and `>` are escaped only to keep them from reading as Markdown autolinks."""
    return _MD_SPECIAL.sub(r"\\\1", str(text))


def resolve_lang(raw: object) -> tuple[str, bool]:
    """Map a raw URL/session value to a supported language.

    Returns ``(lang, ok)``: ``ok`` is False when ``raw`` was given but is not a supported
    language, so the caller can tell the user it fell back to Korean.
    """
    if raw is None or raw == "":
        return DEFAULT_LANG, True
    if isinstance(raw, (list, tuple)):
        raw = raw[-1] if raw else None
        return resolve_lang(raw)
    value = str(raw).strip().lower()
    if value in LANGS:
        return value, True
    return DEFAULT_LANG, False


@dataclass(frozen=True)
class Strings:
    """The strings of one UI area in one language; ``s("key", n=3)`` formats them.

    A placeholder may name a Korean particle as its format spec, ``"{budget:을}"``: the particle
    that follows the value is chosen by how the value is read ("5초를", "H100을"); see
    `latency.korean`. English ignores the spec."""

    area: str
    lang: str
    table: Mapping[str, str]

    def __call__(self, key: str, **fmt: object) -> str:
        text = self.table[key]
        return korean.format_text(text, self.lang, fmt) if fmt else text

    def __getitem__(self, key: str) -> str:
        return self.table[key]


def _check_placeholders(file: Path, key: str, texts: Mapping[str, str]) -> None:
    """Both languages of one string must use the same ``{placeholders}``."""
    fields = {}
    for lang, text in texts.items():
        try:
            fields[lang] = {f for _, f, _, _ in string.Formatter().parse(text) if f}
        except ValueError as exc:
            raise ContentError(file, f"{key}.{lang}", f"bad {{placeholder}} syntax: {exc}") from exc
    first = fields[LANGS[0]]
    for lang, names in fields.items():
        if names != first:
            raise ContentError(
                file, f"{key}.{lang}",
                f"placeholders {sorted(names)} differ from {LANGS[0]}'s {sorted(first)}",
            )


def load_area(area: str, ui_dir: Path = UI_DIR) -> dict[str, dict[str, str]]:
    """Load and validate ``content/ui/<area>.yaml``: ``{key: {lang: text}}``."""
    file = ui_dir / f"{area}.yaml"
    raw = read_yaml(file)
    if not isinstance(raw, dict) or not raw:
        raise ContentError(file, "", "expected a mapping of keys to {ko: ..., en: ...}")
    table: dict[str, dict[str, str]] = {}
    for key, texts in raw.items():
        if not isinstance(texts, dict):
            raise ContentError(file, str(key), "expected a mapping with one text per language")
        unknown = set(texts) - set(LANGS)
        if unknown:
            raise ContentError(file, str(key), f"unknown language {sorted(map(str, unknown))}; allowed: {list(LANGS)}")
        for lang in LANGS:
            text = texts.get(lang)
            if not isinstance(text, str) or not text.strip():
                found = "missing" if text is None else f"{type(text).__name__} {text!r}"
                raise ContentError(file, f"{key}.{lang}", f"expected non-empty text, found {found} (quote YAML words like no/yes/on)")
        _check_placeholders(file, str(key), texts)
        table[str(key)] = dict(texts)
    return table


def strings(area: str, lang: str, ui_dir: Path = UI_DIR) -> Strings:
    """The strings of ``area`` in ``lang``. Raises ContentError for a broken file."""
    table = load_area(area, ui_dir)
    return Strings(area=area, lang=lang, table={k: v[lang] for k, v in table.items()})


def ui_areas(ui_dir: Path = UI_DIR) -> list[str]:
    """Every UI area that has a file, so tests enumerate them."""
    return sorted(p.stem for p in ui_dir.glob("*.yaml"))
