"""Languages and UI strings.

Every user-visible string of the UI lives in ``content/ui/<area>.yaml`` as
``key: {ko: "...", en: "..."}`` (one file per page or shared area). This module loads and
validates those files and resolves the current language. It never imports streamlit.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping

from latency.language import korean
from latency.language.errors import ContentError, read_yaml

LANGS: tuple[str, ...] = ("ko", "en")
DEFAULT_LANG = "ko"
CONTENT_DIR = Path(__file__).resolve().parents[2] / "content"
UI_DIR = CONTENT_DIR / "ui"


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>#|~$&])")
# What Streamlit's Markdown (remark-gfm) turns into a link by itself, with no brackets: `http://`,
# `https://`, `www.` and `name@host.tld` (its regexes: (https?:\/\/|www(?=\.)) and ...@[-\w]+(\.[-\w]+)+),
# and Streamlit's own `:emoji:` / `:material/icon:` short codes. A WORD JOINER (U+2060, invisible,
# zero width) after every colon that a word follows, after `www` and after `@` breaks each pattern;
# the text reads the same and is never a link or an icon (checked in Chromium, see
# tests/pages/test_hostile_urls.py).
_AUTOLINK = re.compile(r"(?<=:)(?=[\w/+-])|(?i:(?<=www)(?=\.))|(?<=@)")
WORD_JOINER = "\u2060"
# Bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) reorder the text
# around them ("evil.exe" shown as "exe.live"); other control characters are invisible. Each is
# shown as U+FFFD instead, so the reader sees that something was there.
_HIDDEN = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
REPLACEMENT = "\ufffd"


def md(text: object) -> str:
    """Text from content, data, an upload or the URL shown literally in Streamlit Markdown.

    - every Markdown character (and `$`, which starts LaTeX, and `&`, which starts an entity such as
      `&#x202E;`) is backslash-escaped; line breaks stay, so a content text's own list still reads
      as a list (a value from outside goes through `clip`, which makes it one line);
    - bare URLs, `www.` names and e-mail addresses cannot become links (a word joiner breaks them);
    - bidirectional-override and other invisible control characters are shown as U+FFFD.
    No HTML is ever enabled, so `<` and `>` are escaped only to keep them from reading as autolinks.
    """
    text = _HIDDEN.sub(REPLACEMENT, str(text).replace("\r\n", "\n").replace("\r", "\n"))
    text = _MD_SPECIAL.sub(r"\\\1", text)
    return _AUTOLINK.sub(WORD_JOINER, text)


def clip(text: object, limit: int = 40) -> str:
    """A value from outside (URL, upload) as a message quotes it: one line (every run of whitespace,
    line breaks included, becomes one space, so it cannot start a Markdown list or heading), cut to
    `limit` characters with "…". Escape the result with md() before it goes into Markdown."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


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


def ui_file(area: str) -> str:
    """The project-relative file of a UI area, as messages name it."""
    return f"content/ui/{area}.yaml"


class _KeepUnknown(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


@dataclass(frozen=True)
class Strings:
    """The strings of one UI area in one language; ``s("key", n=3)`` formats them.

    A placeholder may name a Korean particle as its format spec, ``"{budget:을}"``: the particle
    that follows the value is chosen by how the value is read ("5초를", "H100을"); see
    `latency.language.korean`. English ignores the spec.

    A key that is not in the file, or a ``{placeholder}`` in the text that the code does not fill,
    raises ContentError naming ``content/ui/<area>.yaml``, the key and the problem (never a
    KeyError). When ``on_error`` is given (the app's pages: ui.shell.strings), the error is handed
    to it instead and the call returns its text, so one missing string does not take the page down:
    the app shows a named message there and a visible stand-in (see ``fallback``).
    """

    area: str
    lang: str
    table: Mapping[str, str]
    on_error: Callable[[ContentError], None] | None = field(default=None, compare=False, repr=False)

    def __call__(self, key: str, **fmt: object) -> str:
        try:
            return self.format(key, **fmt)
        except ContentError as err:
            if self.on_error is None:
                raise
            self.on_error(err)
            return self.fallback(key, **fmt)

    def format(self, key: str, **fmt: object) -> str:
        """The text of `key` with `fmt` filled in; ContentError when it cannot be."""
        if key not in self.table:
            raise ContentError(ui_file(self.area), key, f"missing key (the code asks for '{key}'; add it in {', '.join(LANGS)})")
        text = self.table[key]
        try:
            return korean.format_text(text, self.lang, fmt) if fmt else text  # no arguments: the raw template
        except KeyError as exc:
            raise ContentError(ui_file(self.area), f"{key}.{self.lang}",
                               f"unknown placeholder {{{exc.args[0]}}} (the code fills: {', '.join(sorted(fmt)) or 'none'})") from None
        except (IndexError, ValueError) as exc:
            raise ContentError(ui_file(self.area), f"{key}.{self.lang}", f"bad {{placeholder}}: {exc}") from None

    def fallback(self, key: str, **fmt: object) -> str:
        """What shows in place of a string that cannot be formatted: the text with unknown
        placeholders left as they are, or ``⟨key⟩`` for a missing key (no words in any language,
        so no mixed-language screen)."""
        if key not in self.table:
            return f"⟨{key}⟩"
        try:
            return korean.format_text(self.table[key], self.lang, _KeepUnknown(fmt))
        except (IndexError, KeyError, TypeError, ValueError):
            return f"⟨{key}⟩"

    def __getitem__(self, key: str) -> str:
        """The raw template of `key` (placeholders unfilled); a missing key as in ``__call__``."""
        if key in self.table:
            return self.table[key]
        return self(key)


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
