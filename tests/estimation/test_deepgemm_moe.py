"""vLLM's block-scaled FP8 MoE on DeepGEMM: a fixed time per MoE layer at small batch (issue 32).

Expected values are hand-computed from the two published numbers the estimator takes (76 us per MoE
layer on a B200, gone at 2,048 tokens in a pass; constants.DEEPGEMM_MOE_EXTRA_S and
DEEPGEMM_MOE_FADE_TOKENS, sourced there) and the model's layer count; everything else is the same
estimate with the checkpoint's scaling switched, so the difference is this mechanism alone.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from latency import Hardware, Model, estimate
from latency.estimation import catalog

EXTRA_S = 76e-6  # per MoE layer, B200 (aiconfigurator's TensorRT-LLM DeepGEMM vs vLLM FlashInfer tables)
FADE = 2048.0  # tokens in one pass at which it is gone

B200 = Hardware(name="B200", kind="datacenter_gpu", mem_bandwidth_gbs=8000, peak_tflops=2250, memory_gb=180,
                lowp_speedup=2.0, interconnect_gbs=900, link_latency_s=7e-6, fp8=True, fp4_speedup=4.0,
                compute_capability=10.0)
H200 = Hardware(name="H200", kind="datacenter_gpu", mem_bandwidth_gbs=4800, peak_tflops=989.4, memory_gb=141,
                lowp_speedup=2.0, interconnect_gbs=450, fp8=True, compute_capability=9.0)
# MiniMax M2.5's published shape (config.json): 62 layers, every one an MoE layer; FP8 in 128 x 128 blocks.
MINIMAX = Model(name="MiniMax-M2.5", params_b=229, bytes_per_param=1.0, active_params_b=10, layers=62,
                hidden_size=3072, heads=48, kv_heads=8, head_dim=128, fp8_block_scaled=True)
PER_TENSOR = replace(MINIMAX, fp8_block_scaled=False)


def _gap(field, model=MINIMAX, hardware=B200, **kw):
    kw = {"prompt_tokens": 2048, "output_tokens": 512, "devices": 4, "engine": "vllm", "access": "none",
          "serving_api": False, **kw}
    a = estimate(model, hardware, **kw)
    b = estimate(replace(model, fp8_block_scaled=False), hardware, **kw)
    return getattr(a, field) - getattr(b, field)


def test_a_single_users_decode_step_pays_every_moe_layer():
    # one token per step: 62 x 76 us x (1 - 1/2048) = 4.71 ms more per token
    assert _gap("tpot_s") == pytest.approx(62 * EXTRA_S * (1 - 1 / FADE), rel=1e-9)


def test_the_measured_single_user_step_is_what_the_kernels_give():
    """The benchmark's 11.4 ms per token (Vultr, vLLM 0.12.0, TP 4, concurrency.csv) is within 15% of
    the estimate with DeepGEMM; without it, the estimate was 36% too short (7.3 ms)."""
    with_dg = estimate(MINIMAX, B200, prompt_tokens=2048, output_tokens=512, devices=4, engine="vllm",
                       access="none").tpot_s
    assert with_dg == pytest.approx(11.4e-3, rel=0.15)


def test_a_long_prompt_prefill_pays_nothing_and_a_short_one_pays_in_proportion():
    assert _gap("ttft_s", prompt_tokens=2048) == pytest.approx(0.0, abs=1e-12)
    assert _gap("ttft_s", prompt_tokens=8192) == pytest.approx(0.0, abs=1e-12)
    assert _gap("ttft_s", prompt_tokens=1024) == pytest.approx(62 * EXTRA_S * 0.5, rel=1e-9)


def test_eight_way_tensor_parallelism_uses_vllms_triton_moe():
    # vllm-project/vllm #29346: DeepGEMM MoE off by default at TP 8
    assert _gap("tpot_s", devices=8) == pytest.approx(0.0, abs=1e-12)
    assert _gap("tpot_s", devices=2) > 0.0


@pytest.mark.parametrize("engine", ["tensorrt-llm", "sglang", "llama.cpp"])
def test_other_engines_do_not_default_to_deepgemm(engine):
    assert _gap("tpot_s", engine=engine) == pytest.approx(0.0, abs=1e-12)


def test_hopper_and_unknown_devices_have_no_measurement_so_nothing_is_added():
    assert _gap("tpot_s", hardware=H200) == pytest.approx(0.0, abs=1e-12)
    assert _gap("tpot_s", hardware=replace(B200, compute_capability=None)) == pytest.approx(0.0, abs=1e-12)


def test_dense_models_and_other_formats_are_untouched():
    dense = replace(MINIMAX, params_b=10, active_params_b=None)
    assert _gap("tpot_s", model=dense, devices=1) == pytest.approx(0.0, abs=1e-12)
    bf16 = replace(MINIMAX, bytes_per_param=2.0)
    assert _gap("tpot_s", model=bf16) == pytest.approx(0.0, abs=1e-12)


def test_under_steady_load_every_step_pays_it_less_as_the_step_grows():
    one = _gap("tpot_s", concurrent_users=1, arrival="steady")
    many = _gap("tpot_s", concurrent_users=16, arrival="steady")
    assert 0.0 < many <= one <= 62 * EXTRA_S + 1e-12


def test_the_catalogs_block_scaled_checkpoints_are_marked():
    c = catalog.load_catalog()
    assert c.models["deepseek-v3"].model.fp8_block_scaled
    assert c.models["qwen3-235b-a22b"].model.fp8_block_scaled
    assert not c.models["llama-3.1-405b"].model.fp8_block_scaled  # Meta's FP8 release: per-row scales
    assert c.hardware["b200"].hardware.compute_capability == 10.0
    assert c.hardware["h100-sxm"].hardware.compute_capability == 9.0


def test_a_bad_flag_or_capability_is_refused():
    with pytest.raises(ValueError, match="fp8_block_scaled"):
        replace(MINIMAX, fp8_block_scaled="yes")
    with pytest.raises(ValueError, match="compute_capability"):
        replace(B200, compute_capability=0.0)
