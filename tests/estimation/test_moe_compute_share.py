"""A serving engine's routed experts in a prefill: grouped GEMMs at 0.40 of its dense GEMMs' rate.

Expected values are hand-computed ratios that do not depend on any fitted rate: two dense models
of the same shape that differ by D billion parameters give the engine's dense cost of D x 2 FLOPs
per prompt token; two MoE models of that shape that differ by D billion parameters in their routed
experts per token must then differ by D x (1 / 0.40 - 1) x 2 FLOPs per prompt token at that same
rate (constants.MOE_COMPUTE_SHARE: aiconfigurator's kernel tables, sourced there). The device's
memory is made so fast that reading the weights costs nothing measurable, so the prefill is compute
alone; the shape is fixed so attention and the per-layer costs are the same in every model.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from latency import Hardware, Model, estimate
from latency.estimation import estimator

SHARE = 0.40  # routed-expert grouped GEMM rate over dense GEMM rate (aiconfigurator tables, 1,353 series)
DEFAULT_ROUTED = 0.65  # routed experts' share of active parameters, median of eight model cards

# Memory so fast (1,000 TB/s) that every weight read is ~0.1 ms of a prefill of several seconds.
FAST_MEMORY = Hardware(name="compute-bound", kind="datacenter_gpu", mem_bandwidth_gbs=1e6, peak_tflops=1000,
                       memory_gb=2000)
SHAPE = dict(layers=48, hidden_size=4096, heads=32, kv_heads=4, head_dim=128)
PROMPT = 8192


def _moe(expert_active_b, active_b=20.0):
    return Model(name=f"moe-{expert_active_b}", params_b=200.0, active_params_b=active_b, bytes_per_param=1.0,
                 expert_params_b=180.0, expert_active_b=expert_active_b, **SHAPE)


def _prefill_s(model, engine="vllm", **kw):
    kw = {"prompt_tokens": PROMPT, "output_tokens": 2, "devices": 1, "engine": engine, "access": "none",
          "serving_api": False, **kw}
    return estimate(model, FAST_MEMORY, **kw).breakdown["prefill"]


def _dense_cost_per_b_s(engine="vllm"):
    """The engine's prefill time per billion parameters of a dense model of this shape and prompt."""
    a = Model(name="d40", params_b=40.0, bytes_per_param=1.0, **SHAPE)
    b = Model(name="d30", params_b=30.0, bytes_per_param=1.0, **SHAPE)
    return (_prefill_s(a, engine) - _prefill_s(b, engine)) / 10.0


def test_routed_experts_cost_two_and_a_half_times_their_flops_in_a_serving_prefill():
    per_b = _dense_cost_per_b_s()
    gap = _prefill_s(_moe(15.0)) - _prefill_s(_moe(5.0))
    # 10 billion more of the 20 active parameters in routed experts: their FLOPs count 1 / 0.40 times.
    assert gap == pytest.approx(10.0 * (1.0 / SHARE - 1.0) * per_b, rel=2e-3)
    # and the whole MoE prefill: 20B active, 15B of them routed -> 20 + 15 x 1.5 = 42.5B at the dense cost
    dense_20 = Model(name="d20", params_b=20.0, bytes_per_param=1.0, **SHAPE)
    assert _prefill_s(_moe(15.0)) - _prefill_s(dense_20) == pytest.approx(15.0 * 1.5 * per_b, rel=0.02)


def test_llama_cpp_prefill_does_not_depend_on_where_the_active_parameters_sit():
    # llama.cpp's MoE prefill rows are in its own fit: no grouped-GEMM share on top. (What is left
    # is reading 10 GB more always-read weights at llama.cpp's capped bandwidth, milliseconds.)
    gap = _prefill_s(_moe(15.0), "llama.cpp") - _prefill_s(_moe(5.0), "llama.cpp")
    assert abs(gap) < 0.02 * 10.0 * (1.0 / SHARE - 1.0) * _dense_cost_per_b_s("llama.cpp")


def test_a_decode_step_is_not_charged_the_prefill_share():
    # One token's experts are read, not computed, at the batch sizes the kernel tables time
    # (MOE_EXPERT_BW_EFF and the per-layer floor already hold them).
    kw = {"prompt_tokens": 512, "output_tokens": 256, "devices": 1, "engine": "vllm", "access": "none"}
    a, b = estimate(_moe(15.0), FAST_MEMORY, **kw), estimate(_moe(5.0), FAST_MEMORY, **kw)
    assert a.tpot_s == pytest.approx(b.tpot_s, rel=1e-3)


def test_steady_use_carries_the_share_into_the_steps_with_prompt_chunks():
    # Many users in a closed loop: every step carries others' prompt chunks, so the time between
    # tokens and the first token both grow with the routed share; one user's decode does not.
    kw = {"prompt_tokens": 4096, "output_tokens": 256, "devices": 1, "engine": "vllm", "access": "none",
          "concurrent_users": 64}
    a, b = estimate(_moe(15.0), FAST_MEMORY, **kw), estimate(_moe(5.0), FAST_MEMORY, **kw)
    assert a.ttft_s > 1.2 * b.ttft_s
    assert a.tpot_s > 1.2 * b.tpot_s


def test_a_moe_given_without_its_split_takes_the_median_card_share():
    bare = Model(name="bare", params_b=200.0, active_params_b=20.0, bytes_per_param=1.0, **SHAPE)
    assert estimator.routed_active_share(bare) == pytest.approx(DEFAULT_ROUTED)
    assert estimator.routed_active_share(_moe(15.0)) == pytest.approx(15.0 / 20.0)
    assert estimator.routed_active_share(Model(name="dense", params_b=20.0, **SHAPE)) == 0.0
    per_b = _dense_cost_per_b_s()
    dense_20 = Model(name="d20", params_b=20.0, bytes_per_param=1.0, **SHAPE)
    assert _prefill_s(bare) - _prefill_s(dense_20) == pytest.approx(0.65 * 20.0 * 1.5 * per_b, rel=0.02)


def test_a_dense_model_prefill_is_unchanged_by_the_mechanism():
    dense = Model(name="d20", params_b=20.0, bytes_per_param=1.0, **SHAPE)
    as_llama = replace(dense)
    assert _prefill_s(dense) == _prefill_s(as_llama)
    assert estimator.moe_compute_active_b(20.0, 0.0, True) == 20.0
