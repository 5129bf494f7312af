"""The measured decode (latency.measured.measure): a real transformer with a KV cache, the probe, the time cap
and progress under a controlled clock, memory limits, the estimator comparison and the CSV row.

Tiny models and matrices only; no timing is asserted (speed goals live in benchmarks/)."""

from __future__ import annotations

import csv
import io
import math

import numpy as np
import pytest

from latency import Hardware, Model, estimate
from latency.measured import measure as M
from latency.estimation.estimator import calibration_dir

TINY = M.DecoderConfig("tiny", layers=2, hidden=32, heads=4, vocab=50, max_context=24)
FAST_PROBE = dict(seconds=0.0, matrix_mb=1, matmul_n=32)


class StepClock:
    """A clock that moves `step` seconds every time it is read."""

    def __init__(self, step: float = 0.01):
        self.t, self.step = 0.0, step

    def __call__(self) -> float:
        self.t += self.step
        return self.t


# ================================================================================================
# The model
# ================================================================================================

def test_kv_cache_decode_equals_recomputing_the_whole_sequence():
    """Attention over the cache is real attention: step-by-step logits equal a full causal pass."""
    cached = M.Decoder(TINY, seed=3)
    tokens = [1, 5, 7, 9, 2, 3, 4, 11]
    logits = [cached.step(np.array(tokens[:5]))] + [cached.step(np.array([t])) for t in tokens[5:]]
    for n, got in zip(range(5, len(tokens) + 1), logits):
        full = M.Decoder(TINY, seed=3).step(np.array(tokens[:n]))
        np.testing.assert_allclose(got, full, rtol=1e-4, atol=1e-5)


def test_causal_mask_hides_the_future():
    """The logits after a prefix do not depend on tokens that come later in the same prefill."""
    a = M.Decoder(TINY, seed=1)
    x = a.embed_tokens(np.array([1, 2, 3]))
    out_a = a.layer(0, x)
    b = M.Decoder(TINY, seed=1)
    out_b = b.layer(0, b.embed_tokens(np.array([1, 2, 9])))
    np.testing.assert_allclose(out_a[:2], out_b[:2], rtol=1e-5)
    assert not np.allclose(out_a[2], out_b[2])


def test_parameter_count_is_the_arrays_it_holds():
    d = M.Decoder(TINY)
    weights = d.embed.size + d.pos.size + d.ln_f.size + sum(
        w[k].size for w in d.layers for k in ("ln1", "wqkv", "wo", "ln2", "w1", "w2"))
    assert TINY.params == weights
    # Kaplan et al.'s 12 d^2 per layer, by hand, for the sizes offered
    for c in M.SIZES:
        layer_part = c.layers * 12 * c.hidden**2
        assert c.params == pytest.approx(layer_part + (c.vocab + c.max_context) * c.hidden, rel=0.01)
    assert 40e6 < M.SIZES[0].params < 60e6 and 0.9e9 < M.SIZES[-1].params < 1.1e9  # "about 50M to 1B"


def test_context_overflow_is_refused():
    d = M.Decoder(TINY)
    with pytest.raises(ValueError, match="context"):
        d.step(np.arange(TINY.max_context + 1) % TINY.vocab)


# ================================================================================================
# Probe, run, time cap, progress
# ================================================================================================

def test_probe_reports_bytes_and_flops_over_the_clock():
    p = M.probe(StepClock(0.5), **FAST_PROBE)
    n = int(math.sqrt(1 * 1048576 / 4))
    # each timed call spans one clock step (0.5 s) under this clock
    assert p.bandwidth_gbs == pytest.approx(n * n * 4 / 0.5 / 1e9)
    assert p.matmul_gflops == pytest.approx(2 * 32**3 / 0.5 / 1e9)


def test_run_measures_every_token_and_reports_progress():
    seen = []
    m = M.run(TINY, 8, 5, clock=StepClock(0.001), progress=lambda f, stage: seen.append((f, stage)),
              probe_kwargs=FAST_PROBE)
    assert m.complete and m.stopped is None
    assert m.output_tokens == 5 and len(m.step_s) == 4
    assert m.tpot_s == pytest.approx(0.001) and m.ttft_s > 0
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[-1] == pytest.approx(1.0)
    assert [s for _, s in seen][0] == "probe" and {"load", "prefill", "decode"} <= {s for _, s in seen}


def test_prefill_time_is_split_by_part_one_lap_per_piece_of_work():
    """Issue 24 item 7: with a clock that moves 10 ms per reading, each lap is 10 ms, so the parts count the
    pieces of work per layer by hand: 4 weight products, 1 attention, 4 elementwise steps (Decoder.layer)."""
    m = M.run(TINY, 8, 2, clock=StepClock(0.01), probe_kwargs=FAST_PROBE)
    parts = m.prefill_parts_s
    assert list(parts) == list(M.PARTS)
    assert parts["matmul"] == pytest.approx(0.01 * 4 * TINY.layers)
    assert parts["attention"] == pytest.approx(0.01 * 1 * TINY.layers)
    assert parts["elementwise"] == pytest.approx(0.01 * 4 * TINY.layers)
    assert parts["rest"] > 0 and sum(parts.values()) == pytest.approx(m.ttft_s)


def test_parts_of_a_real_prefill_add_up_and_the_layers_products_are_their_weights():
    import time

    m = M.run(TINY, 16, 2, clock=time.perf_counter, probe_kwargs=FAST_PROBE)
    assert all(v >= 0 for v in m.prefill_parts_s.values()) and m.prefill_parts_s["matmul"] > 0
    assert sum(m.prefill_parts_s.values()) == pytest.approx(m.ttft_s)
    dec = M.Decoder(TINY)
    weights = sum(w[k].size for w in dec.layers for k in ("wqkv", "wo", "w1", "w2"))
    assert TINY.layer_matmul_flops(16) == 2 * weights * 16


def test_time_cap_stops_the_decode():
    m = M.run(TINY, 8, 64 if TINY.max_context >= 72 else 16, clock=StepClock(0.025), time_cap_s=2.0,
              probe_kwargs=FAST_PROBE)
    assert m.stopped == "decode" and 1 < m.output_tokens < 16 and m.complete


def test_time_cap_stops_the_prefill():
    m = M.run(TINY, 8, 4, clock=StepClock(1.0), time_cap_s=0.5, probe_kwargs=FAST_PROBE)
    assert m.stopped in ("load", "prefill") and not m.complete and math.isnan(m.tpot_s)


@pytest.mark.parametrize("kwargs", [dict(prompt_tokens=0), dict(prompt_tokens=10_000), dict(output_tokens=1),
                                    dict(output_tokens=2.5), dict(time_cap_s=60)])
def test_run_refuses_out_of_range_inputs(kwargs):
    args = dict(prompt_tokens=8, output_tokens=4, time_cap_s=1.0) | kwargs
    with pytest.raises(ValueError):
        M.run(TINY, args["prompt_tokens"], args["output_tokens"], clock=StepClock(), time_cap_s=args["time_cap_s"],
              probe_kwargs=FAST_PROBE)


def test_the_cap_is_at_most_twenty_seconds():
    assert M.TIME_CAP_S <= 20


# ================================================================================================
# Memory
# ================================================================================================

def test_available_memory_from_meminfo(tmp_path):
    f = tmp_path / "meminfo"
    f.write_text("MemTotal:       32000000 kB\nMemAvailable:    8000000 kB\n")
    assert M.available_memory_gb(str(f)) == pytest.approx(8_000_000 * 1024 / 1e9)


@pytest.mark.parametrize("free_gb", [0.1, 1.5, 4.0, 9.0, 64.0])
def test_sizes_offered_fit_the_memory_cap(free_gb):
    offered = M.sizes_that_fit(free_gb)
    limit = min(M.MEMORY_CAP_GB, free_gb / 2)
    assert all(c.memory_gb() <= limit for c in offered)
    assert [c for c in M.SIZES if c.memory_gb() <= limit] == offered
    assert c_weights_are_counted(M.SIZES[-1])


def c_weights_are_counted(c: M.DecoderConfig) -> bool:
    return c.memory_gb() > c.params * 4 / 1e9


# ================================================================================================
# Against the estimator, and the CSV row
# ================================================================================================

def _measured() -> M.Measurement:
    return M.Measurement(config=M.SIZES[0], probe=M.Probe(bandwidth_gbs=20.0, matmul_gflops=100.0, seconds=1.0),
                         prompt_tokens=64, output_tokens_asked=16, output_tokens=16, load_s=0.5, ttft_s=0.3,
                         step_s=[0.02] * 14 + [0.5])


def test_comparison_uses_the_estimator_on_the_probed_hardware():
    m = _measured()
    cmp = M.compare(m, memory_gb=16.0)
    c = m.config
    hand_model = Model(name="x", params_b=c.params / 1e9, bytes_per_param=4.0, layers=c.layers, hidden_size=c.hidden,
                       heads=c.heads, kv_heads=c.heads, head_dim=c.hidden // c.heads, kv_bytes=4.0)
    hand_hw = Hardware(name="cpu", kind="cpu", mem_bandwidth_gbs=20.0, peak_tflops=0.1, memory_gb=16.0)
    est = estimate(hand_model, hand_hw, prompt_tokens=64, output_tokens=16, access="none", devices=1)
    assert cmp.estimate.ttft_s == pytest.approx(est.ttft_s) and cmp.estimate.tpot_s == pytest.approx(est.tpot_s)
    assert m.tpot_s == 0.02  # the median: one slow step does not decide it
    assert cmp.tpot_ratio == pytest.approx(0.02 / est.tpot_s) and cmp.ttft_ratio == pytest.approx(0.3 / est.ttft_s)
    assert cmp.decode_floor_s == pytest.approx(c.params * 4 / 20e9)
    assert cmp.prefill_floor_s == pytest.approx(2 * c.params * 64 / 100e9)
    assert math.isnan(cmp.matmul_ratio)  # no parts timed: nothing claimed about them
    m.prefill_parts_s = dict(matmul=0.1, attention=0.05, elementwise=0.1, rest=0.05)
    cmp = M.compare(m, memory_gb=16.0)
    assert cmp.matmul_gflops == pytest.approx(2 * 12 * c.hidden**2 * c.layers * 64 / 0.1 / 1e9)
    assert cmp.matmul_ratio == pytest.approx(0.1 / est.breakdown["prefill"])


@pytest.mark.parametrize("ratio, word", [(1.0, "agree"), (1.49, "agree"), (0.7, "agree"), (1.6, "slower"),
                                         (0.5, "faster"), (math.nan, "unknown")])
def test_verdict_band(ratio, word):
    assert M.Comparison.verdict(ratio) == word


def test_csv_row_has_the_calibration_columns():
    header = next(csv.reader(open(calibration_dir() / "measurements.csv", encoding="utf-8")))
    assert list(M.CSV_COLUMNS) == header
    text = M.csv_text(M.csv_row(_measured(), when="2026-11-30", hardware="Test CPU (2 cores)"))
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 1 and list(rows[0]) == header
    r = rows[0]
    assert float(r["tpot_ms"]) == pytest.approx(20.0) and float(r["decode_tok_s"]) == pytest.approx(50.0)
    assert float(r["ttft_ms"]) == pytest.approx(300.0) and float(r["prefill_tok_s"]) == pytest.approx(64 / 0.3, rel=1e-3)
    assert r["precision"] == "FP32" and float(r["bytes_per_param"]) == 4 and r["batch"] == "1"
    assert r["hardware"] == "Test CPU (2 cores)" and "numpy" in r["software"]


def test_the_file_and_the_csv_name_the_size_the_page_shows():
    """Newcomer trial 2026-12-05: the page said "48M parameters", the download was measurement-50m.csv and its model
    column "decoder 50m". The smallest decoder by hand: 32,000 x 512 embedding + 320 x 512 positions + 10 layers x
    (12 x 512^2 + 2 x 512) + 512 = 48,015,872 parameters."""
    small = M.SIZE_BY_ID["50m"]
    assert small.params == 32_000 * 512 + 320 * 512 + 10 * (12 * 512**2 + 2 * 512) + 512 == 48_015_872
    assert small.size_name == "48M" and M.SIZE_BY_ID["1b"].size_name == "0.97B"
    row = M.csv_row(_measured(), when="2026-11-30", hardware="Test CPU (2 cores)")
    assert f"decoder, {_measured().config.size_name} parameters" in row["model"]
