""""Feel it": play a sample answer at an estimated pace, so a latency number becomes a wait.

Pure Python (no streamlit). The page hands a generator from here to ``st.write_stream``
(one scenario) or draws frames from :func:`play` into two placeholders (two scenarios racing
side by side). Time is injectable (``sleep`` and ``clock``), so tests run instantly.

Pacing (the same model as the estimator): the first token appears after the time to first
token (TTFT); every later token ``1 / tokens_per_s`` after the one before. Due times are
measured from one start instant, not accumulated sleeps, so rendering time does not make the
stream drift slower than the estimate. Tokens that fall due within one frame (``frame_s``) are
sent together: a 500 tok/s model would otherwise mean 500 browser updates per second.

Sample answers and the characters-per-token figure of each language live in
``content/feel.yaml``; :func:`split_tokens` cuts text into token-sized pieces with it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Sequence


from latency.language.errors import ContentError, read_yaml
from latency.language.i18n import CONTENT_DIR, LANGS

FEEL_FILE = CONTENT_DIR / "feel.yaml"
FRAME_S = 1 / 30  # at most ~30 updates per second per stream; the eye cannot tell faster ones apart
LIMIT_S = 20.0
"""Longest a "Feel it" stream runs: long enough to feel a slow model, short enough to sit through."""



@dataclass(frozen=True)
class Sample:
    """One sample answer in one language, and how many characters make a token in it."""

    lang: str
    prompt: str
    answer: str
    chars_per_token: float
    tokens_note: str


def load_samples(file: Path = FEEL_FILE) -> dict[str, Sample]:
    """The sample answer of every language in ``content/feel.yaml``; ContentError if broken."""
    raw = read_yaml(file)
    if not isinstance(raw, dict):
        raise ContentError(file, "", "expected a mapping with one entry per language")
    out = {}
    for lang in LANGS:
        entry = raw.get(lang)
        if not isinstance(entry, dict):
            raise ContentError(file, lang, "missing: one sample answer per language is required")
        for field in ("prompt", "answer", "tokens_note"):
            if not isinstance(entry.get(field), str) or not entry[field].strip():
                raise ContentError(file, f"{lang}.{field}", "expected non-empty text")
        cpt = entry.get("chars_per_token")
        if isinstance(cpt, bool) or not isinstance(cpt, (int, float)) or not 0.2 <= cpt <= 10:
            raise ContentError(file, f"{lang}.chars_per_token", f"expected a number from 0.2 to 10, found {cpt!r}")
        out[lang] = Sample(lang, entry["prompt"].strip(), entry["answer"].strip(), float(cpt), entry["tokens_note"].strip())
    return out


def split_tokens(text: str, chars_per_token: float) -> list[str]:
    """Cut `text` into pieces of about `chars_per_token` visible characters (token stand-ins).

    Whitespace is glued to the piece before it and never counted, so joining the pieces gives
    back `text` exactly; every word starts a new piece. Line breaks stay where they were, so the markdown streams correctly.
    """
    if chars_per_token <= 0 or not math.isfinite(chars_per_token):
        raise ValueError(f"chars_per_token must be a positive number, got {chars_per_token!r}")
    pieces: list[str] = []
    current = ""
    count = 0  # visible characters in the current piece
    for ch in text:
        if ch.isspace():
            current += ch
            continue
        # A piece ends at a word boundary (as in real tokenizers, a short word is one token) or
        # when it holds `chars_per_token` characters (a long word is several tokens).
        if current and (count >= chars_per_token or current[-1].isspace()):
            pieces.append(current)
            current, count = "", 0
        current += ch
        count += 1
    if current:
        pieces.append(current)
    return pieces


@dataclass(frozen=True)
class Pace:
    """When tokens appear: first after `ttft_s`, then one every ``1 / tokens_per_s``."""

    ttft_s: float
    tokens_per_s: float

    def __post_init__(self) -> None:
        if not (math.isfinite(self.ttft_s) and self.ttft_s >= 0):
            raise ValueError(f"ttft_s must be a finite number ≥ 0, got {self.ttft_s!r}")
        if not (math.isfinite(self.tokens_per_s) and self.tokens_per_s > 0):
            raise ValueError(f"tokens_per_s must be a finite number > 0, got {self.tokens_per_s!r}")

    def due_s(self, index: int) -> float:
        """Seconds after the request at which token `index` (0-based) appears."""
        return self.ttft_s + index / self.tokens_per_s

    def total_s(self, n_tokens: int) -> float:
        """Seconds until the last of `n_tokens` has appeared."""
        return self.due_s(max(n_tokens - 1, 0)) if n_tokens else 0.0


@dataclass(frozen=True)
class Plan:
    """What one stream will show: its tokens with due times, cut at the time limit."""

    schedule: tuple[tuple[float, str], ...]
    n_tokens: int          # tokens of the whole sample
    full_s: float          # time the whole sample would take at this pace
    limit_s: float

    @property
    def truncated(self) -> bool:
        return len(self.schedule) < self.n_tokens

    @property
    def shown_s(self) -> float:
        return self.schedule[-1][0] if self.schedule else 0.0


def plan(tokens: Sequence[str], pace: Pace, limit_s: float = LIMIT_S) -> Plan:
    """Due time of every token that appears within `limit_s` seconds.

    The pace is never changed to fit the limit (that would misstate the estimate); a stream
    that would run longer is cut, and the page says how long the full answer would have taken.
    The TTFT pause itself is always played in full if it fits; if even the first token falls
    after the limit, nothing streams and the page says so.
    """
    schedule = []
    for i, tok in enumerate(tokens):
        due = pace.due_s(i)
        if due > limit_s:
            break
        schedule.append((due, tok))
    return Plan(tuple(schedule), len(tokens), pace.total_s(len(tokens)), limit_s)


def play(
    plans: Sequence[Plan],
    *,
    sleep: Callable[[float], None],
    clock: Callable[[], float],
    frame_s: float = FRAME_S,
) -> Iterator[list[tuple[int, str]]]:
    """Play several plans against one clock: yields frames of ``(plan index, text)`` pieces.

    Each frame holds every token that has fallen due since the last one, in due order, so two
    scenarios race in real time (0.2 s against 3 s feels like it). Sleeps until the next due
    time, never longer, and never less than `frame_s` between frames. The caller passes the time
    source (`time.sleep`, `time.monotonic` in the app; a fake clock in tests).
    """
    events = sorted(
        (due, idx, order, tok)
        for idx, p in enumerate(plans)
        for order, (due, tok) in enumerate(p.schedule)
    )
    start = clock()
    i = 0
    while i < len(events):
        wait = events[i][0] - (clock() - start)
        if wait > 0:
            sleep(wait)
        now = clock() - start
        frame = []
        while i < len(events) and events[i][0] <= now + 1e-9:
            _, idx, _, tok = events[i]
            frame.append((idx, tok))
            i += 1
        if not frame:  # the clock moved less than asked: go round again
            continue
        yield frame
        if i < len(events) and frame_s > 0:
            sleep(frame_s)


def stream(
    plan_: Plan,
    *,
    sleep: Callable[[float], None],
    clock: Callable[[], float],
    frame_s: float = FRAME_S,
) -> Iterator[str]:
    """One plan as a text generator for ``st.write_stream``: the TTFT pause, then the tokens."""
    for frame in play([plan_], sleep=sleep, clock=clock, frame_s=frame_s):
        yield "".join(tok for _, tok in frame)
