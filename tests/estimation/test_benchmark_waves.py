"""A serving-benchmark level read as it ran, in waves (round 4, fourteenth pass; docs/estimator.md).

`vllm bench serve --max-concurrency c` with n prompts of one fixed length runs n // c waves of c requests and
one of n mod c; its throughput is over the whole run, its first token and time per token are means over the n
requests. The expected values are worked by hand, and the reading is checked against the benchmark's own rows:
from each level's measured first token and time per token, the waves give the measured throughput, where one
wave of c (a steady server) does not. Nothing here calls the estimator."""

from __future__ import annotations

import csv

import pytest

from latency.estimation import calibrate
from latency.estimation.calibrate import over_waves, partial_wave
from latency.estimation.estimator import calibration_dir


@pytest.mark.parametrize("sent,users,tail", [
    (50, 16, 2), (50, 32, 18), (400, 128, 16), (400, 256, 144), (400, 16, 0), (400, 400, 0), (50, 1, 0),
    (None, 8, 0), (30, 50, 0),
])
def test_the_last_wave_is_what_is_left_over(sent, users, tail):
    assert partial_wave(sent, users) == tail


def test_a_level_over_its_waves_by_hand():
    # 50 requests at 16 users: 3 waves of 16, one of 2. Full waves 1,000 tok/s, the last 100 tok/s.
    assert over_waves("throughput", 50, 16, 2, 1000.0, 100.0) == pytest.approx(50 / (48 / 1000 + 2 / 100))  # 735.3
    assert over_waves("ttft", 50, 16, 2, 0.2, 0.1) == pytest.approx(0.196)  # 48 at 0.2 s, 2 at 0.1 s
    assert over_waves("decode", 50, 16, 2, 100.0, 200.0) == pytest.approx(1 / (0.96 / 100 + 0.04 / 200))  # 102.0


def _levels(model: str) -> dict[int, dict]:
    with open(calibration_dir() / "concurrency.csv", newline="", encoding="utf-8") as f:
        return {int(r["concurrency"]): r for r in csv.DictReader(f) if model in r["model"]}


def _wave_s(r: dict) -> float:
    """One wave's time from the level's own measurements: first token, then output - 1 tokens."""
    return float(r["ttft_ms"]) / 1000 + (int(r["output_tokens"]) - 1) * float(r["itl_ms"]) / 1000


@pytest.mark.parametrize("model,key,users", [
    ("Nemotron-Super-49B", "Nemotron-Super-49B", 8), ("Nemotron-Super-49B", "Nemotron-Super-49B", 16),
    ("Nemotron-Super-49B", "Nemotron-Super-49B", 32), ("Nemotron-Nano-30B", "Nemotron-Nano-30B", 128),
])
def test_the_waves_give_the_measured_throughput(model, key, users):
    """Each level's throughput from its own first token and time per token: over its waves within 2% of the
    measured figure (the last wave timed as the measured level nearest its size), one wave of c 11% or more
    above it."""
    levels = _levels(model)
    r = levels[users]
    output = int(r["output_tokens"])
    sent = calibrate._prompts_sent(key, r["notes"], users)
    tail = partial_wave(sent, users)
    assert tail > 0
    nearest = min(levels, key=lambda c: abs(c - tail))
    full_tps = users * output / _wave_s(r)
    last_tps = tail * output / _wave_s(levels[nearest])
    measured = float(r["throughput_tok_s"])
    assert over_waves("throughput", sent, users, tail, full_tps, last_tps) == pytest.approx(measured, rel=0.02)
    assert full_tps > 1.11 * measured
