"""Numbers as the app shows them: the one formatter module every page and chart uses.

The words (units, counters, "about", plural forms) live in ``content/ui/units.yaml`` in both
languages; this module only decides the digits. Get one with ``formats.get(lang)`` (cached, reloads
an edited file) and call ``f.seconds(0.82)`` -> "0.82초" / "0.82 s".

Choices, so every screen says a number the same way:
- seconds: always seconds, never switching to ms (a non-developer compares "0.2초" with a "1초"
  budget at a glance). Two significant digits below 10 s (0.035, 0.82, 2.4), whole seconds from
  10 s (12, 1,240). `ms` and `us` exist for the how-it-works page's per-stage constants.
- significant digits: `number(x, digits=3)` keeps `digits` significant digits with thousands
  separators and no exponent (0.0123, 1.23, 59.4, 1,230).
- token speed always says its scope: `tps_per_user` ("사용자당 초당 N토큰" / "N tokens/s per user")
  or `tps_server` (the whole server); plain `tps` only where the scope is already on screen.
- model size in billions of parameters as "8B", "70.6B", "0.5B", "405B".
- ratio "2.2배" / "2.2×": one decimal below 10, whole numbers from 10.
- range: "0.8–1.2초"; when both ends print the same, one value with "약" / "about", never "1–1".
- percent takes a fraction (0.127 -> "13%"), two significant digits, whole numbers from 10 %.
- money in US dollars: cents from $0.10, two significant digits below, whole dollars from $100.
- counts pick the singular in English for exactly 1 ("1 device", "2 devices").
- text from tokens: English words = 0.75 x tokens (OpenAI, "What are tokens and how to count
  them?": 1 token ~ 4 characters ~ 0.75 words); Korean characters = 1.0 x tokens, a labelled
  assumption (aitoken.bal.pe.kr token guide: "Korean Hangul often lands near 1 character per
  token" on multilingual tokenizers; Llama 3's tokenizer spends more). Both sources are in
  units.yaml (`text_from_tokens_note`, `text_from_tokens_source_*`) so a page can show them.
Korean particles after any of these values: write ``{value:을}`` in a template (latency/language/korean.py).
"""

from __future__ import annotations

import functools
import math
import time
from typing import Callable

from latency.language import i18n

EN_WORDS_PER_TOKEN = 0.75  # OpenAI help centre, "What are tokens and how to count them?"
EN_CHARS_PER_TOKEN = 4.0   # same source
KO_CHARS_PER_TOKEN = 1.0   # assumption, see module docstring and units.yaml


def number(x: float, digits: int = 3) -> str:
    """`x` with `digits` significant digits, thousands separators, no exponent: 0.0123, 1.23, 1,230."""
    if x is None or not math.isfinite(x):
        return "–"
    if x == 0:
        return "0"
    mag = math.floor(math.log10(abs(x)))
    decimals = max(0, digits - 1 - mag)
    text = f"{x:,.{decimals}f}"  # correctly rounded to `decimals`, as round(x, decimals) then printing was
    if decimals and "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def seconds_number(x: float) -> str:
    """The digits of a duration in seconds: two significant digits below 10, whole from 10."""
    if x is None or not math.isfinite(x):
        return "–"
    return number(x, 2) if abs(x) < 10 else f"{x:,.0f}"


def seconds_value(x: float) -> float:
    """A duration as the page prints it (`seconds_number`), back as a number: 0.2004 -> 0.2."""
    text = seconds_number(x)
    return x if text == "–" else float(text.replace(",", ""))


def seconds_list(xs) -> list[str]:
    """The digits of several durations shown together (a list of stages): one rule for the whole
    list, the same decimals on every value, enough for two significant digits of the smallest
    non-zero value (at most 3 decimals, whole seconds when every value is 10 s or more)."""
    finite = [abs(x) for x in xs if x is not None and math.isfinite(x) and x != 0]
    if not finite:
        return [seconds_number(x) for x in xs]
    decimals = min(3, max(0, 1 - math.floor(math.log10(min(finite)))))
    return [f"{x:,.{decimals}f}" if x is not None and math.isfinite(x) else "–" for x in xs]


def size_number(b: float) -> str:
    """A model size in billions of parameters, digits only: 0.5, 8, 8.03, 70.6, 405, 2,000."""
    return number(b, 3) if b < 1000 else f"{b:,.0f}"


def ratio_number(r: float) -> str:
    """A multiple: 1.3, 4, 12, 1,200 (one decimal below 10, and "4" rather than "4.0")."""
    if r is None or not math.isfinite(r):
        return "–"
    return f"{r:.1f}".removesuffix(".0") if r < 10 else f"{r:,.0f}"


def km_number(km: float) -> str:
    """A distance: whole kilometres from 10 km, two significant digits below."""
    return number(km, 2) if km < 10 else f"{km:,.0f}"


def usd_number(x: float) -> str:
    """Dollars without the sign: 0.0042, 1.23, 1,234."""
    if x is None or not math.isfinite(x):
        return "–"
    if abs(x) >= 100:
        return f"{x:,.0f}"
    if abs(x) >= 0.1:
        return f"{x:,.2f}"
    return number(x, 2)


def percent_number(fraction: float) -> str:
    """A fraction as percent digits: 0.004 -> 0.4, 0.042 -> 4.2, 0.125 -> 13."""
    if fraction is None or not math.isfinite(fraction):
        return "–"
    p = fraction * 100
    return number(p, 2) if abs(p) < 10 else f"{p:,.0f}"


class Formats:
    """Unit words of one language around the digits above. Build with `get(lang)`."""

    def __init__(self, units: i18n.Strings):
        self.s = units
        self.lang = units.lang
        # Unit templates that are just text around "{v}" ("{v}초", "{v} s"): filled by concatenation,
        # a quarter of the time of a format call; a page formats hundreds of numbers a rerun (hover
        # texts). Any other template (particles, other placeholders) goes through `self.s`.
        self._around: dict[str, tuple[str, str]] = {}
        for key, text in units.table.items():
            before, sep, after = text.partition("{v}")
            if sep and not any(c in before + after for c in "{}"):
                self._around[key] = (before, after)

    def _unit(self, key: str, digits: str) -> str:
        around = self._around.get(key)
        return around[0] + digits + around[1] if around else self.s(key, v=digits)

    # --- quantities ---------------------------------------------------------------------------
    def seconds(self, x: float) -> str:
        return self._unit("seconds", seconds_number(x))

    def seconds_list(self, xs) -> list[str]:
        """Several durations with one decimal rule (`seconds_list`)."""
        return [self._unit("seconds", digits) for digits in seconds_list(xs)]

    def ms(self, x_ms: float) -> str:
        return self._unit("ms", number(x_ms, 3))

    def us(self, x_us: float) -> str:
        return self._unit("us", number(x_us, 3))

    def tps(self, v: float) -> str:
        return self._unit("tps", number(v, 3))

    def tps_per_user(self, v: float) -> str:
        return self._unit("tps_per_user", number(v, 3))

    def tps_server(self, v: float) -> str:
        return self._unit("tps_server", number(v, 3))

    def gb(self, v: float) -> str:
        return self._unit("gb", number(v, 3))

    # Sizes and distances are also slider options, every one formatted on every rerun (a select
    # slider's format_func): remembered per Formats object (one per language and units.yaml version).
    @functools.lru_cache(maxsize=2048)
    def km(self, v: float) -> str:
        return self._unit("km", km_number(v))

    @functools.lru_cache(maxsize=2048)
    def size_b(self, b: float) -> str:
        return self._unit("size_b", size_number(b))

    def ratio(self, r: float) -> str:
        return self._unit("ratio", ratio_number(r))

    def percent(self, fraction: float) -> str:
        return self._unit("percent", percent_number(fraction))

    def usd(self, x: float) -> str:
        text = self._unit("usd", usd_number(abs(x)))
        return "-" + text if x < 0 else text

    def unit(self, key: str, value: str) -> str:
        """Any other unit of units.yaml around already formatted digits: unit("gbs", "3,350")."""
        return self._unit(key, value)

    # --- counts -------------------------------------------------------------------------------
    def count(self, n: float, what: str) -> str:
        """A whole count with its counter or noun: count(1, "devices") -> "1 device" / "1개"."""
        n_int = int(round(n))
        key = f"{what}_one" if n_int == 1 and f"{what}_one" in self.s.table else what
        return self.s(key, n=f"{n_int:,}")

    def text_from_tokens(self, tokens: float) -> str:
        """How much text `tokens` is: "about 75 words" / "약 100글자" (rough; see module docstring)."""
        per_token = KO_CHARS_PER_TOKEN if self.lang == "ko" else EN_WORDS_PER_TOKEN
        return self.s("text_from_tokens", n=number(tokens * per_token, 2) if tokens * per_token < 100
                      else f"{round(tokens * per_token, -1):,.0f}")

    # --- ranges -------------------------------------------------------------------------------
    def range(self, lo: float, hi: float, kind: str = "seconds") -> str:
        """A range with its unit once: "0.8–1.2초"; equal ends print one value: "약 1초" / "about 1 s"."""
        digits = _DIGITS[kind]
        a, b = digits(min(lo, hi)), digits(max(lo, hi))
        if a == b:
            return self.s("about", v=self.unit(kind, a))
        return self.unit(kind, self.s("range", lo=a, hi=b))


_DIGITS: dict[str, Callable[[float], str]] = {
    "seconds": seconds_number, "km": km_number, "size_b": size_number, "ratio": ratio_number,
    "gb": lambda v: number(v, 3), "tps": lambda v: number(v, 3), "tps_per_user": lambda v: number(v, 3),
    "tps_server": lambda v: number(v, 3), "percent": lambda v: percent_number(v), "usd": usd_number,
    "ms": lambda v: number(v, 3),
}


@functools.lru_cache(maxsize=8)
def _cached(lang: str, mtime_ns: int) -> Formats:
    return Formats(i18n.strings("units", lang))


RECHECK_S = 1.0
"""How often `get` looks at units.yaml's modification time: a page formats hundreds of numbers a run
(the trade-off map's hover text), and two file-system calls for each were a tenth of its CPU time."""
_seen: dict[str, float] = {"at": -math.inf, "mtime_ns": 0}


def _units_mtime_ns() -> int:
    now = time.monotonic()
    if now - _seen["at"] >= RECHECK_S:
        path = i18n.UI_DIR / "units.yaml"
        try:
            _seen["mtime_ns"] = path.stat().st_mtime_ns
        except OSError:
            _seen["mtime_ns"] = 0
        _seen["at"] = now
    return int(_seen["mtime_ns"])


def get(lang: str) -> Formats:
    """The formats of `lang` (cached; an edited units.yaml is reloaded within RECHECK_S seconds).
    Raises ContentError."""
    return _cached(lang, _units_mtime_ns())


def seconds_each(fmt: "Formats", xs) -> list[str]:
    """Several durations shown together, each by the one rule every page uses (`Formats.seconds`: two
    significant digits below 10 s, whole seconds from 10): "0.52 s · 25 s", never "0.515 s · 25.340 s"
    (PM trial round 2, item 6; `seconds_list`'s shared decimals printed 0.030 s and 217.28 s)."""
    return [fmt.seconds(x) for x in xs]
