"""llama.cpp's k-quant decode on Apple GPUs is bound by the ALU work of unpacking the weights, not by
their bytes (estimator.dequant_bw_share; issue 32, eighth pass of round 4). Expected values by hand
and from measurements.csv, never from the helper the estimator calls."""

from __future__ import annotations

import math

import pytest

from latency import Hardware, Model, estimate
from latency.estimation.estimator import _engine_values, dequant_bw_share, load_params

# hardware.csv: Apple's own figures (GB/s of unified memory, FP32 TFLOP/s of the GPU).
M1_MAX = Hardware(name="Apple M1 Max (32-core GPU, 64GB)", kind="apple_silicon", mem_bandwidth_gbs=400,
                  peak_tflops=10.4, memory_gb=64)
M2_ULTRA = Hardware(name="Apple M2 Ultra (76-core GPU, 192GB)", kind="apple_silicon", mem_bandwidth_gbs=800,
                    peak_tflops=27.2, memory_gb=192)
# measurements.csv: llama-bench model sizes (Q4_K_M 0.603-0.611 bytes per weight, F16 2).
L70_Q4 = Model(name="Llama 3 70B", params_b=70.55, bytes_per_param=0.603, layers=80, hidden_size=8192,
               heads=64, kv_heads=8, head_dim=128)
L8_Q4 = Model(name="Llama 3 8B", params_b=8.03, bytes_per_param=0.611, layers=32, hidden_size=4096,
              heads=32, kv_heads=8, head_dim=128)
L8_F16 = Model(name="Llama 3 8B", params_b=8.03, bytes_per_param=2.0, layers=32, hidden_size=4096,
               heads=32, kv_heads=8, head_dim=128)
# measurements.csv, tg512 (tok/s), XiongjieDai/GPU-Benchmarks-on-LLM-Inference, llama.cpp Metal, May 2024.
MEASURED = {("M1", "70B"): 4.34, ("M2", "70B"): 12.48, ("M1", "8B"): 35.73, ("M2", "8B"): 78.81}


def _decode(model, hw):
    return estimate(model, hw, prompt_tokens=1, output_tokens=512, engine="llama.cpp").decode_tokens_per_s


def test_share_by_hand():
    # 10.4 TFLOP/s over 50 operations per byte = 208 GB/s, of 400 GB/s: 0.52
    assert dequant_bw_share(10.4, 400.0, 50.0) == pytest.approx(0.52)
    assert dequant_bw_share(10.4, 400.0, 0.0) == math.inf  # no such bound
    assert list(dequant_bw_share([10.4, 27.2], [400.0, 800.0], [50.0, 0.0])) == pytest.approx([0.52, math.inf])


def test_the_fit_names_operations_per_weight_only_for_apple_gpus():
    kinds = load_params()["engines"]["llama.cpp"]["kinds"]
    assert 5.0 < kinds["apple_silicon"]["dequant_ops"] < 100.0
    assert all("dequant_ops" not in v for k, v in kinds.items() if k != "apple_silicon")


def test_q4_decode_follows_the_alu_rate_not_the_bandwidth():
    """The M2 Ultra has 2.0x the M1 Max's bandwidth and 2.6x its FP32 rate; measured, its 70B Q4_K_M
    decode is 2.9x as fast (12.48 / 4.34) and its 8B F16 decode 2.0x (36.90 / 18.75), the bandwidth
    ratio. The estimate's 70B Q4 ratio sits near the ALU ratio, and well above the bandwidth ratio."""
    ratio = _decode(L70_Q4, M2_ULTRA) / _decode(L70_Q4, M1_MAX)
    assert ratio == pytest.approx(MEASURED[("M2", "70B")] / MEASURED[("M1", "70B")], rel=0.15)
    assert ratio > 2.3
    f16 = _decode(L8_F16, M2_ULTRA) / _decode(L8_F16, M1_MAX)
    assert f16 == pytest.approx(36.90 / 18.75, rel=0.1)


def test_more_bandwidth_does_not_speed_up_an_alu_bound_decode():
    """The same GPU with twice the memory bandwidth: Q4 decode barely moves, F16 decode nearly doubles."""
    wide = Hardware(name="M1 Max, twice the bandwidth", kind="apple_silicon", mem_bandwidth_gbs=800,
                    peak_tflops=10.4, memory_gb=64)
    assert _decode(L70_Q4, wide) / _decode(L70_Q4, M1_MAX) < 1.1
    assert _decode(L8_F16, wide) / _decode(L8_F16, M1_MAX) > 1.6


@pytest.mark.parametrize("mac,size", sorted(MEASURED))
def test_each_macs_q4_decode_within_12_percent(mac, size):
    hw = M1_MAX if mac == "M1" else M2_ULTRA
    model = L70_Q4 if size == "70B" else L8_Q4
    assert _decode(model, hw) == pytest.approx(MEASURED[(mac, size)], rel=0.12)


def test_only_apple_gpus_and_only_block_formats_pay_it():
    """No ALU bound on the CUDA kinds, nor on F16 weights (nothing to unpack) on a Mac."""
    params = load_params()
    ops = lambda kind, bpp: _engine_values("llama.cpp", kind, bpp, params)["dequant_ops_per_byte"]  # noqa: E731
    assert ops("desktop_gpu", 0.611) == 0.0 and ops("datacenter_gpu", 0.611) == 0.0
    assert ops("apple_silicon", 2.0) == 0.0
    # per byte: operations per weight / bytes per weight
    assert ops("apple_silicon", 0.611) == pytest.approx(params["engines"]["llama.cpp"]["kinds"]["apple_silicon"]["dequant_ops"] / 0.611)
