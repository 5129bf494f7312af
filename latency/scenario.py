"""Scenario inputs that travel in the URL: parse and validate raw query values.

Pages declare a spec per URL key (the same name as the widget key); `parse_query` turns the raw
query mapping into clean values plus a list of notices for the values it had to replace with
defaults. Nothing here renders anything, and nothing from the URL is ever trusted as markup.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

MAX_RAW_CHARS = 40  # longer URL values are cut in notices, so a notice cannot become a wall of text


@dataclass(frozen=True)
class Notice:
    """One URL value that was replaced by its default. `reason` is a key: out_of_range, not_a_number, unknown_choice."""

    key: str
    raw: str
    reason: str
    default: Any


@dataclass(frozen=True)
class NumberParam:
    default: float
    min_value: float
    max_value: float
    integer: bool = False

    def parse(self, raw: str) -> tuple[Any, str | None]:
        try:
            value = float(raw)
        except ValueError:
            return self.default, "not_a_number"
        if not math.isfinite(value):
            return self.default, "not_a_number"
        if not self.min_value <= value <= self.max_value:
            return self.default, "out_of_range"
        if self.integer:
            if value != int(value):
                return self.default, "not_a_number"
            return int(value), None
        return value, None


@dataclass(frozen=True)
class ChoiceParam:
    default: str
    choices: Sequence[str]

    def parse(self, raw: str) -> tuple[Any, str | None]:
        return (raw, None) if raw in self.choices else (self.default, "unknown_choice")


Param = NumberParam | ChoiceParam


def clip_raw(raw: str) -> str:
    """A URL value as it may appear in a notice: short, printable."""
    text = "".join(ch for ch in raw if ch.isprintable())
    return text if len(text) <= MAX_RAW_CHARS else text[: MAX_RAW_CHARS - 1] + "…"


def parse_query(query: Mapping[str, str | Sequence[str]], specs: Mapping[str, Param]) -> tuple[dict[str, Any], list[Notice]]:
    """Values for every key in `specs` (URL value if valid, else default) and notices for rejects.

    Keys missing from the URL take their default silently; keys not in `specs` are ignored
    (they belong to another page or to the language switch).
    """
    values: dict[str, Any] = {}
    notices: list[Notice] = []
    for key, spec in specs.items():
        raw = query.get(key)
        if isinstance(raw, (list, tuple)):
            raw = raw[-1] if raw else None
        if raw is None or raw == "":
            values[key] = spec.default
            continue
        value, reason = spec.parse(str(raw).strip())
        values[key] = value
        if reason:
            notices.append(Notice(key=key, raw=clip_raw(str(raw)), reason=reason, default=spec.default))
    return values, notices


def to_query(values: Mapping[str, Any], keys: Iterable[str]) -> dict[str, str]:
    """The URL form of a scenario: numbers without trailing zeros, choices as they are."""
    out = {}
    for key in keys:
        value = values[key]
        if isinstance(value, float):
            out[key] = f"{value:g}" if value == value else ""
        else:
            out[key] = str(value)
    return out
