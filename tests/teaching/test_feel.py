"""Feel it pacing: tokens appear at the estimated TTFT and rate, on an injected clock (no waiting)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import FakeClock
from latency.teaching import feel
from latency.language.errors import ContentError


def run_stream(p: feel.Plan, frame_s: float = feel.FRAME_S):
    """Play one plan on a fake clock; returns [(time it appeared, text)]."""
    clock = FakeClock()
    out = [(clock.now, chunk) for chunk in feel.stream(p, sleep=clock.sleep, clock=clock, frame_s=frame_s)]
    return out, clock


def test_every_language_has_a_sample(lang):
    sample = feel.load_samples()[lang]
    tokens = feel.split_tokens(sample.answer, sample.chars_per_token)
    assert "".join(tokens) == sample.answer
    assert 60 <= len(tokens) <= 400, "a sample should stream for seconds, not minutes"
    korean = any("\uac00" <= ch <= "\ud7a3" for ch in sample.answer + sample.prompt + sample.tokens_note)
    assert korean == (lang == "ko")


def test_first_token_waits_for_ttft_then_follows_the_rate():
    tokens = ["a "] * 10
    p = feel.plan(tokens, feel.Pace(ttft_s=0.8, tokens_per_s=5.0))
    out, clock = run_stream(p, frame_s=0)
    assert out[0][0] == pytest.approx(0.8)
    times = [t for t, _ in out]
    assert [b - a for a, b in zip(times, times[1:])] == pytest.approx([0.2] * 9)
    assert "".join(c for _, c in out) == "a " * 10
    assert clock.now == pytest.approx(p.full_s) == pytest.approx(0.8 + 9 * 0.2)


def test_fast_models_are_sent_in_frames_without_falling_behind():
    tokens = [f"{i} " for i in range(300)]
    p = feel.plan(tokens, feel.Pace(ttft_s=0.1, tokens_per_s=600.0))
    out, clock = run_stream(p)
    assert len(out) < 100, "600 tok/s must not mean 600 updates per second"
    assert "".join(c for _, c in out) == "".join(tokens)
    # The last token appears within one frame of when the estimate says it is due.
    assert clock.now <= p.full_s + feel.FRAME_S + 1e-9


def test_slow_answers_are_cut_at_the_limit_not_sped_up():
    tokens = ["x "] * 100
    pace = feel.Pace(ttft_s=2.0, tokens_per_s=2.0)
    p = feel.plan(tokens, pace, limit_s=10.0)
    assert p.truncated and p.n_tokens == 100
    assert p.full_s == pytest.approx(2.0 + 99 / 2.0)
    out, clock = run_stream(p, frame_s=0)
    assert len("".join(c for _, c in out).split()) == 17  # tokens due at 2.0, 2.5, ..., 10.0
    assert clock.now <= 10.0 + 1e-9


def test_ttft_beyond_the_limit_streams_nothing():
    p = feel.plan(["x "] * 5, feel.Pace(ttft_s=30, tokens_per_s=10), limit_s=20)
    assert p.schedule == () and p.truncated
    assert run_stream(p)[0] == []


def test_two_scenarios_race_on_one_clock():
    tokens = ["w "] * 20
    fast = feel.plan(tokens, feel.Pace(ttft_s=0.2, tokens_per_s=20))
    slow = feel.plan(tokens, feel.Pace(ttft_s=3.0, tokens_per_s=20))
    clock = FakeClock()
    seen = {0: [], 1: []}
    for frame in feel.play([fast, slow], sleep=clock.sleep, clock=clock, frame_s=0):
        for idx, tok in frame:
            seen[idx].append((clock.now, tok))
    assert seen[0][0][0] == pytest.approx(0.2)
    assert seen[1][0][0] == pytest.approx(3.0)
    # the fast one has finished (0.2 + 19/20 = 1.15 s) before the slow one shows its first token
    assert seen[0][-1][0] < seen[1][0][0]
    assert len(seen[0]) == len(seen[1]) == 20


@pytest.mark.parametrize("bad", [dict(ttft_s=-1, tokens_per_s=1), dict(ttft_s=math.nan, tokens_per_s=1),
                                 dict(ttft_s=0, tokens_per_s=0), dict(ttft_s=0, tokens_per_s=math.inf)])
def test_pace_rejects_impossible_values(bad):
    with pytest.raises(ValueError, match="ttft_s|tokens_per_s"):
        feel.Pace(**bad)


def test_broken_sample_file_names_the_problem(tmp_path):
    f = tmp_path / "feel.yaml"
    f.write_text("ko: {prompt: q, answer: a, chars_per_token: 0, tokens_note: n}\nen: {prompt: q, answer: a, chars_per_token: 4, tokens_note: n}\n")
    with pytest.raises(ContentError, match=r"ko\.chars_per_token"):
        feel.load_samples(f)
    f.write_text("ko: {prompt: q, answer: a, chars_per_token: 1, tokens_note: n}\n")
    with pytest.raises(ContentError, match="en"):
        feel.load_samples(f)


@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=200), cpt=st.floats(0.5, 8))
def test_split_tokens_loses_nothing(text, cpt):
    pieces = feel.split_tokens(text, cpt)
    assert "".join(pieces) == text
    assert all(sum(not c.isspace() for c in p) <= math.ceil(cpt) for p in pieces)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 80), ttft=st.floats(0, 5), rate=st.floats(0.5, 2000), limit=st.floats(0.1, 30))
def test_stream_never_runs_ahead_of_the_estimate(n, ttft, rate, limit):
    pace = feel.Pace(ttft, rate)
    p = feel.plan(["t "] * n, pace, limit_s=limit)
    clock = FakeClock()
    shown = 0
    for chunk in feel.stream(p, sleep=clock.sleep, clock=clock):
        shown += chunk.count("t")
        # never more tokens on screen than are due by now
        due = sum(1 for i in range(n) if pace.due_s(i) <= clock.now + 1e-9)
        assert shown <= due
    assert shown == len(p.schedule)
