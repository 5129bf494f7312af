"""Estimator API shape, input validation and stage behaviour (fast, no network)."""

from __future__ import annotations

import math
from dataclasses import FrozenInstanceError, replace

import numpy as np
import pytest

from latency import Estimate, Hardware, Model, estimate, estimate_sweep, round_trip_s
from latency.estimation.estimator import KIND_DEFAULTS, KINDS, engine_params, load_params

H100 = Hardware(name="NVIDIA H100 SXM", kind="datacenter_gpu", mem_bandwidth_gbs=3350, peak_tflops=989.4, memory_gb=80)
RTX4090 = Hardware(name="RTX 4090", kind="desktop_gpu", mem_bandwidth_gbs=1008, peak_tflops=165.2, memory_gb=24)
M2U = Hardware(name="M2 Ultra", kind="apple_silicon", mem_bandwidth_gbs=800, peak_tflops=27.2, memory_gb=192)
L8B = Model(name="Llama 3 8B", params_b=8.03, bytes_per_param=2.0)


# --- API shape -------------------------------------------------------------------------------

def test_issue_example_runs_and_has_every_field():
    e = estimate(L8B, H100, prompt_tokens=512, output_tokens=256, batch=1, distance_km=0.0, engine=None)
    assert isinstance(e, Estimate)
    for name in ("ttft_s", "tpot_s", "total_s", "prefill_tokens_per_s", "decode_tokens_per_s",
                 "throughput_tokens_per_s", "memory_gb", "weights_gb", "kv_cache_gb"):
        v = getattr(e, name)
        assert isinstance(v, float) and math.isfinite(v) and v > 0, name
    assert set(e.breakdown) == {"network", "queue", "prefill", "decode"}
    assert math.isclose(sum(e.breakdown.values()), e.total_s, rel_tol=1e-12)
    assert e.devices_needed == 1 and isinstance(e.devices_needed, int)
    assert e.fits is True and e.fits_one_device is True
    assert e.bottleneck == {"prefill": "compute", "decode": "memory"}
    assert e.engine == "optimized"  # datacenter_gpu default
    for key in ("ttft_s", "tpot_s", "total_s", "decode_tokens_per_s", "prefill_tokens_per_s"):
        lo, hi = e.ranges[key]
        assert lo <= getattr(e, key) <= hi and lo < hi, key


T0 = load_params()["engines"]["optimized"]["request_overhead_s"]  # serving API time per request


def test_default_queue_is_zero_and_network_at_zero_km_is_access_only():
    e = estimate(L8B, H100)
    # With one user nobody else is waited for (decision 2): the queue is 0; the serving engine's own
    # per-request time (t0, fitted_params.json) is part of the prefill stage and named overhead_s.
    assert e.breakdown["queue"] == 0.0 and e.overhead_s == T0 > 0.0
    internal = estimate(L8B, H100, serving_api=False)
    assert internal.breakdown["queue"] == 0.0 and internal.overhead_s == 0.0
    assert e.breakdown["prefill"] == pytest.approx(internal.breakdown["prefill"] + T0)
    assert estimate(L8B, H100, engine="llama.cpp").breakdown["queue"] == 0.0
    assert estimate(L8B, H100, engine="llama.cpp").overhead_s == 0.0
    assert e.breakdown["network"] == pytest.approx(0.0094)  # wired (fibre, FCC MBA 9.4 ms), warm: 1 round trip
    assert estimate(L8B, H100, access="none").breakdown["network"] == 0.0


def test_ttft_is_network_queue_prefill_and_total_adds_decode():
    e = estimate(L8B, H100, distance_km=500, utilization=0.3)
    b = e.breakdown
    assert e.ttft_s == pytest.approx(b["network"] + b["queue"] + b["prefill"])
    assert b["decode"] == pytest.approx(255 * e.tpot_s)
    assert e.decode_tokens_per_s == pytest.approx(1 / e.tpot_s)


def test_engine_default_follows_kind():
    assert estimate(L8B, RTX4090).engine == "llama.cpp"
    assert estimate(L8B, M2U).engine == "llama.cpp"
    assert estimate(L8B, RTX4090, engine="optimized").engine == "optimized"


def test_dataclasses_are_frozen_and_as_dict_is_flat():
    with pytest.raises(FrozenInstanceError):
        H100.memory_gb = 1  # type: ignore[misc]
    d = estimate(L8B, H100, distance_km=100).as_dict()
    for key in ("ttft_s", "total_s", "network_s", "decode_s", "ttft_s_low", "ttft_s_high", "bottleneck_decode",
                "devices_needed", "engine", "model", "hardware", "distance_km"):
        assert key in d
    assert all(not isinstance(v, (dict, tuple, list)) for v in d.values())


def test_hardware_with_five_fields_gets_kind_defaults():
    for kind in KINDS:
        hw = Hardware(name="x", kind=kind, mem_bandwidth_gbs=500, peak_tflops=50, memory_gb=64)
        assert hw.resolved("max_devices") == KIND_DEFAULTS[kind]["max_devices"]
        assert estimate(L8B, hw).total_s > 0


# --- validation ------------------------------------------------------------------------------

BAD_HARDWARE = [
    ("kind", "tpu"), ("mem_bandwidth_gbs", 0), ("mem_bandwidth_gbs", -1), ("mem_bandwidth_gbs", float("nan")),
    ("peak_tflops", 0), ("peak_tflops", float("inf")), ("memory_gb", -5), ("memory_gb", "80"),
    ("lowp_speedup", 0.5), ("interconnect_gbs", 0), ("max_devices", 0),
]


@pytest.mark.parametrize("field,value", BAD_HARDWARE)
def test_bad_hardware_names_the_field(field, value):
    kw = dict(name="x", kind="desktop_gpu", mem_bandwidth_gbs=100, peak_tflops=10, memory_gb=8)
    kw[field] = value
    with pytest.raises(ValueError, match=field):
        Hardware(**kw)


BAD_MODEL = [
    ("params_b", 0), ("params_b", -1), ("params_b", float("nan")), ("bytes_per_param", 0),
    ("bytes_per_param", float("inf")), ("active_params_b", 20.0), ("architecture", "rnn"), ("loops", 0),
    ("layers", 0), ("kv_heads", 1.5),
]


@pytest.mark.parametrize("field,value", BAD_MODEL)
def test_bad_model_names_the_field(field, value):
    kw = dict(name="m", params_b=8.0)
    kw[field] = value
    with pytest.raises(ValueError, match=field):
        Model(**kw)


BAD_CALLS = [
    ("prompt_tokens", 0), ("prompt_tokens", -3), ("prompt_tokens", float("nan")), ("output_tokens", 0),
    ("output_tokens", float("inf")), ("batch", 0), ("batch", -1), ("distance_km", -1), ("distance_km", float("nan")),
    ("distance_km", float("inf")), ("engine", "deepspeed-mii"), ("access", "satellite"), ("connection", "lukewarm"),
    ("utilization", 1.0), ("utilization", -0.1), ("concurrent_users", -1), ("devices", 0), ("devices", 1.5),
]


@pytest.mark.parametrize("field,value", BAD_CALLS)
def test_bad_estimate_inputs_name_the_field_and_range(field, value):
    with pytest.raises(ValueError, match=field) as info:
        estimate(L8B, H100, **{field: value})
    msg = str(info.value)
    assert ("[" in msg or "(" in msg or "one of" in msg), msg  # says what is accepted


@pytest.mark.parametrize("value", [-1.0, float("nan"), float("inf")])
def test_round_trip_rejects_bad_distance(value):
    with pytest.raises(ValueError, match="distance_km"):
        round_trip_s(value)


def test_sweep_rejects_bad_arrays_naming_the_field():
    with pytest.raises(ValueError, match="params_b"):
        estimate_sweep(L8B, H100, params_b=np.array([1.0, -2.0]))
    with pytest.raises(ValueError, match="distance_km"):
        estimate_sweep(L8B, H100, distance_km=np.array([0.0, np.nan]))


# --- stages ----------------------------------------------------------------------------------

def test_round_trip_follows_fitted_line():
    net = load_params()["network"]
    assert round_trip_s(0) == pytest.approx(net["fixed_ms"] / 1000)
    # 1,000 km of fibre is 10 ms round trip at the speed of light in glass, times route inflation.
    assert round_trip_s(1000) == pytest.approx((net["fixed_ms"] + 10 * net["route_inflation"]) / 1000)
    assert 1.2 < net["route_inflation"] < 2.5
    assert np.allclose(round_trip_s(np.array([0.0, 1000.0])), [round_trip_s(0), round_trip_s(1000)])


def test_cold_connection_costs_two_more_round_trips():
    warm = estimate(L8B, H100, distance_km=2000).breakdown["network"]
    cold = estimate(L8B, H100, distance_km=2000, connection="cold").breakdown["network"]
    assert cold == pytest.approx(3 * warm)
    assert warm == pytest.approx(0.0094 + round_trip_s(2000))


def test_access_networks_are_ordered_like_the_published_figures():
    n = {a: estimate(L8B, H100, access=a).breakdown["network"] for a in ("none", "wired", "wifi", "lte")}
    assert n["none"] < n["wired"] < n["wifi"] < n["lte"]
    assert n["lte"] == pytest.approx(0.055)


def test_queue_mm1_and_users_share_the_batch_until_the_kv_cache_is_full():
    idle = estimate(L8B, H100)
    service = idle.breakdown["prefill"] - idle.overhead_s + idle.breakdown["decode"]
    half = estimate(L8B, H100, utilization=0.5)
    assert half.breakdown["queue"] == pytest.approx(service)  # rho/(1-rho) = 1
    # 16 users of an 8B model on an 80 GB H100: all fit in the KV cache, nobody waits.
    both = estimate(L8B, H100, batch=8, concurrent_users=16)
    assert both.breakdown["queue"] == 0.0 and both.running_batch == 16


# A device sized by hand so that vLLM's KV budget holds exactly 4 running requests (memory as the
# engine spends it, latency/estimation/engines.py): weights 8.03 x 2 = 16.06 GB; runtime 3.5 GiB
# = 3.758 GB (aiconfigurator other_mem); activations 2 B x 8,192 tokens x 4,096 x 11 = 0.738 GB;
# KV per token 2 x 32 x 1024 x 2 B = 131,072 B. vLLM takes blocks as tokens arrive, so a running
# request of 512 + 256 tokens holds 512 + 128 on average = 0.08389 GB; a budget of 4.5 of those
# (0.37749 GB) within 0.9 of the device: (16.06 + 3.758 + 0.738 + 0.37749) / 0.9 GB = 23.26 GB,
# quoted in GiB (/ 1.073741824).
SHAPED_8B = Model(name="8B", params_b=8.03, layers=32, hidden_size=4096, kv_heads=8, head_dim=128)
_HELD_GB = 640 * 131072 / 1e9
_SMALL_GB = (16.06 + 3.5 * 1.073741824 + 2 * 8192 * 4096 * 11 / 1e9 + 4.5 * _HELD_GB) / 0.9
SMALL = Hardware(name="small", kind="datacenter_gpu", mem_bandwidth_gbs=3350, peak_tflops=989.4,
                 memory_gb=_SMALL_GB / 1.073741824)


def test_kv_capacity_is_the_engines_kv_budget_over_what_one_request_holds():
    e = estimate(SHAPED_8B, SMALL, concurrent_users=3)
    assert e.max_concurrent_requests == 4 and e.kv_budget_gb == pytest.approx(4.5 * _HELD_GB, rel=1e-6)
    assert e.running_batch == 3 and e.breakdown["queue"] == 0.0
    assert e.kv_cache_gb == pytest.approx(3 * _HELD_GB)
    # TensorRT-LLM reserves the whole request (512 + 256 tokens) and 0.9 x 0.985 of what is free.
    trt = estimate(SHAPED_8B, SMALL, concurrent_users=3, engine="tensorrt-llm")
    free = _SMALL_GB - 16.06 - 3.5 * 1.073741824 - 2 * 8192 * 4096 * 11 / 1e9
    assert trt.kv_budget_gb == pytest.approx(0.9 * 0.985 * free, rel=1e-6)
    assert trt.max_concurrent_requests == int(0.9 * 0.985 * free / (768 * 131072 / 1e9))


def test_users_beyond_the_kv_capacity_wait_littles_law():
    e = estimate(SHAPED_8B, SMALL, concurrent_users=10, arrival="burst")
    assert e.running_batch == 4
    service = e.breakdown["prefill"] - e.overhead_s + e.breakdown["decode"]
    assert e.breakdown["queue"] == pytest.approx((10 - 4) * service / 4)  # W = (N - B) x S / B


def test_llama_cpp_runs_parallel_slots_instead_of_queueing_users():
    # 32 users of an 8B Q4 model on a 24 GB card: the KV caches fit, so the slots decode together.
    q4 = replace(SHAPED_8B, bytes_per_param=0.611)
    e = estimate(q4, RTX4090, concurrent_users=32, arrival="burst")  # the 32 press enter together
    one = estimate(q4, RTX4090)
    assert e.running_batch == 32 and e.breakdown["queue"] == 0.0
    assert e.tpot_s > one.tpot_s                       # per-user decode slows with the batch ...
    assert e.throughput_tokens_per_s > 5 * one.throughput_tokens_per_s  # ... the server's rises
    # llama.cpp prefills the slots' prompts together: the first token waits for all 32 prompts.
    assert e.breakdown["prefill"] == pytest.approx(32 * 512 / e.prefill_tokens_per_s)


def test_serving_engine_first_token_waits_for_half_the_prompts_on_average():
    # Long prompts on one H100: compute-bound, so with the roofline's max() the weight read hides.
    params = dict(load_params(), combine="max")
    overhead = params["engines"]["optimized"]["pass_overhead_s"]
    e = estimate(SHAPED_8B, H100, prompt_tokens=8192, output_tokens=2, concurrent_users=9, params=params,
                 arrival="burst")  # 9 prompts that arrive together
    batch_prefill = 9 * 8192 / e.prefill_tokens_per_s
    assert e.bottleneck["prefill"] == "compute"
    # The k-th of 9 prompts waits for k prompts' compute: (9 + 1) / 2 of 9 on average.
    own = e.breakdown["prefill"] - e.overhead_s  # the engine's request handling comes on top
    assert own - overhead == pytest.approx((batch_prefill - overhead) * (9 + 1) / (2 * 9))


def test_per_user_and_whole_server_rates_are_labelled():
    e = estimate(SHAPED_8B, H100, concurrent_users=16, output_tokens=200, arrival="burst")
    assert e.decode_tokens_per_s == pytest.approx(1 / e.tpot_s)
    batch_prefill = 16 * 512 / e.prefill_tokens_per_s
    # Each user's answer shares the steps of the burst's later prompts (burst_overlap_s, 8,192-token
    # budget on an 80 GB device); the wave's last answer starts after the last prompt and runs decode
    # steps alone, so the server's rate is the wave's tokens over the prefill and one answer of those,
    # and "all streams during decode" is the 16 streams over one decode step.
    from latency.estimation.estimator import burst_overlap_s
    step_tpot = e.tpot_s - burst_overlap_s(batch_prefill, 16.0, 512.0, 200.0, 8192.0) / 199
    assert step_tpot < e.tpot_s
    assert e.throughput_tokens_per_s == pytest.approx(16 / step_tpot)
    assert e.server_tokens_per_s == pytest.approx(16 * 200 / (batch_prefill + 199 * step_tpot))


def test_issue_example_70b_fp8_two_h100s_many_users_no_longer_queue_one_by_one():
    l70 = Model(name="70B", params_b=70.6, bytes_per_param=1.0, layers=80, hidden_size=8192, kv_heads=8,
                head_dim=128)
    five = estimate(l70, H100, prompt_tokens=5000, concurrent_users=5, devices=2)
    assert five.breakdown["queue"] == 0.0 and five.ttft_s < 2.0  # was 36 s (one at a time)


def test_context_tokens_are_read_every_decode_step_but_cost_no_prefill_tokens():
    base = estimate(SHAPED_8B, H100, prompt_tokens=512, output_tokens=1)
    long = estimate(SHAPED_8B, H100, prompt_tokens=512, output_tokens=1, context_tokens=32768)
    assert long.tpot_s > base.tpot_s
    # The extra decode time is at least the extra KV read at the hardware's peak bandwidth.
    extra_gb = 32768 * 131072 / 1e9
    assert long.tpot_s - base.tpot_s >= extra_gb / 3350 * (1 - 1e-9)
    # The prompt's attention spans the cached tokens: prefill slows, but by far less than
    # prefilling the 32,768 tokens would.
    assert base.breakdown["prefill"] < long.breakdown["prefill"]
    full = estimate(SHAPED_8B, H100, prompt_tokens=512 + 32768, output_tokens=1)
    assert long.breakdown["prefill"] < 0.5 * full.breakdown["prefill"]
    assert long.kv_cache_gb == pytest.approx((32768 + 513) * 131072 / 1e9)


def test_sliding_window_layers_cost_no_context():
    full = estimate(SHAPED_8B, H100, context_tokens=30000)
    quarter = estimate(replace(SHAPED_8B, attention_layers=8), H100, context_tokens=30000)
    assert quarter.kv_cache_gb == pytest.approx(full.kv_cache_gb / 4)
    assert quarter.tpot_s < full.tpot_s


def test_decode_is_memory_bound_at_batch_one_with_known_order_of_magnitude():
    e = estimate(L8B, RTX4090, engine="llama.cpp")
    # 16 GB of weights over ~1 TB/s: ~16-25 ms per token (measured 18.2 ms in the calibration data).
    assert 0.014 < e.tpot_s < 0.025


def test_fp8_uses_the_tensor_speed_up_fp8_matmuls_measure_on_the_optimized_engine():
    fp16 = Model(name="m", params_b=7.0, bytes_per_param=2.0)
    fp8 = replace(fp16, bytes_per_param=1.0)
    long = dict(prompt_tokens=4096, output_tokens=1, access="none", serving_api=False)  # the engine alone
    t16 = estimate(fp16, H100, **long).breakdown["prefill"]
    t8 = estimate(fp8, H100, **long).breakdown["prefill"]
    # compute-bound: the H100's nominal 2x FP8 tensor rate reaches 1.47x over BF16 in aiconfigurator's
    # GEMM tables (0.735 x 2), less the fixed overhead; the calibration's "sum" roofline adds the one
    # weight read (7 GB at FP16 over 3.35 TB/s: ~2.5 ms of ~90), which halves too, so the whole prefill
    # may gain a little more than 1.47x, and far less than the nominal 2x would give (~1.95x)
    assert 1.3 < t16 / t8 < 1.5
    no_fp8 = replace(H100, lowp_speedup=1.0)
    assert estimate(fp8, no_fp8, **long).breakdown["prefill"] > 1.3 * t8
    # llama.cpp runs 8-bit formats through FP16 kernels: no speed-up.
    assert estimate(fp8, H100, engine="llama.cpp", **long).breakdown["prefill"] >= \
        0.9 * estimate(fp16, H100, engine="llama.cpp", **long).breakdown["prefill"]


def test_fp8_matmuls_run_at_the_speed_up_each_engines_kernel_tables_measure_on_its_gpu_generation():
    """aiconfigurator's GEMM tables (constants.FP8_MATMUL_SPEEDUP): on a B200, vLLM 0.24's FP8 matmuls
    run 1.24x its BF16 ones and TensorRT-LLM's 1.46x; on Hopper 1.43x and 1.49x. A compute-bound
    prefill keeps that ratio between the engines, up to the fixed overhead and the weights' one read
    that `sum` adds (a few percent here); a GPU without a measured generation (no compute capability,
    an L40S at 8.9) keeps the cross-engine 1.47x, and an FP16 model runs the same on both engines."""
    m = Model(name="70B", params_b=70.6, bytes_per_param=1.0, layers=80, hidden_size=8192, kv_heads=8, head_dim=128)
    long = dict(prompt_tokens=8192, output_tokens=1, access="none", serving_api=False, devices=1)
    b200 = Hardware(name="B200", kind="datacenter_gpu", mem_bandwidth_gbs=8000, peak_tflops=2250, memory_gb=180,
                    fp8=True, compute_capability=10.0)

    def prefill_s(hw, engine, model=m):
        e = estimate(model, hw, engine=engine, **long)
        assert e.bottleneck["prefill"] == "compute"
        return e.breakdown["prefill"]

    on_b200 = prefill_s(b200, "vllm") / prefill_s(b200, "tensorrt-llm")
    assert 1.462 / 1.238 * 0.93 < on_b200 < 1.462 / 1.238 * 1.01  # 1.18; 1.0 before (one share for all)
    hopper = replace(b200, name="H200", mem_bandwidth_gbs=4800, peak_tflops=989.4, memory_gb=141, compute_capability=9.0)
    on_hopper = prefill_s(hopper, "vllm") / prefill_s(hopper, "tensorrt-llm")
    assert 1.493 / 1.433 * 0.97 < on_hopper < 1.493 / 1.433 * 1.01  # 1.04
    unknown = replace(hopper, compute_capability=None)
    assert prefill_s(unknown, "vllm") == pytest.approx(prefill_s(unknown, "tensorrt-llm"), rel=1e-9)
    fp16 = replace(m, bytes_per_param=2.0)
    big = replace(b200, memory_gb=400)
    assert prefill_s(big, "vllm", fp16) == pytest.approx(prefill_s(big, "tensorrt-llm", fp16), rel=1e-9)
    # The default engine of the "optimized" family is vLLM: its speed-up, not TensorRT-LLM's.
    assert prefill_s(b200, "optimized") == pytest.approx(prefill_s(b200, "vllm"), rel=1e-9)


def test_batching_trades_per_user_speed_for_throughput():
    rates = [estimate(L8B, H100, batch=b) for b in (1, 8, 64, 256)]
    per_user = [e.decode_tokens_per_s for e in rates]
    total = [e.throughput_tokens_per_s for e in rates]
    assert per_user == sorted(per_user, reverse=True) and per_user[0] > per_user[-1]
    assert total == sorted(total) and total[-1] > 10 * total[0]


def test_large_batch_decode_becomes_compute_bound():
    e = estimate(L8B, H100, batch=4096, prompt_tokens=16, output_tokens=16)
    assert e.bottleneck["decode"] == "compute"


def test_moe_memory_from_total_decode_from_active():
    dense = Model(name="d", params_b=235, bytes_per_param=1.0, layers=94, hidden_size=4096, kv_heads=4, head_dim=128)
    moe = replace(dense, active_params_b=22)
    small = replace(dense, params_b=22)
    em, ed, es = (estimate(m, H100, devices=8) for m in (moe, dense, small))
    assert em.weights_gb == ed.weights_gb == pytest.approx(235)
    # One token reads the active experts only: the MoE decodes like the dense model of its active
    # size, far faster than the dense 235B (both pay the same per-layer overhead of 94 layers), plus
    # what a serving engine's MoE kernels cost beyond a dense MLP's (aiconfigurator's B200 vLLM
    # tables): 17 us more per MoE layer, and the 22 GB of active experts streamed at 76% of the
    # engine's share instead of 100%.
    bw_frac = engine_params(load_params(), "optimized", "datacenter_gpu")["bw_frac"]
    read_s = 22 / 8 / (H100.mem_bandwidth_gbs * bw_frac)
    moe_kernels_s = 94 * 17e-6 + read_s * (1 / 0.76 - 1)
    assert em.tpot_s - es.tpot_s == pytest.approx(moe_kernels_s, rel=0.02)
    # and the dense 235B is slower by the 213 GB of expert weights one token does not read, over 8
    # devices, less those MoE kernel costs
    assert ed.tpot_s - em.tpot_s == pytest.approx((235 - 22) / 8 / (H100.mem_bandwidth_gbs * bw_frac) - moe_kernels_s,
                                                  rel=0.05)


def test_moe_kernel_costs_only_on_serving_engines():
    """llama.cpp's MoE rows are in its own fit: the serving engines' MoE kernel costs leave it alone."""
    dense = Model(name="d", params_b=30, bytes_per_param=1.0, layers=48, hidden_size=2048, kv_heads=4, head_dim=128)
    moe = replace(dense, active_params_b=3)
    small = replace(dense, params_b=3)
    gap = {engine: estimate(moe, H100, engine=engine).tpot_s - estimate(small, H100, engine=engine).tpot_s
           for engine in ("vllm", "llama.cpp")}
    assert gap["llama.cpp"] == pytest.approx(0.0, abs=1e-9)
    assert gap["vllm"] > 48 * 17e-6


def test_looped_model_memory_is_unique_params_but_decode_pays_each_loop():
    base = Model(name="40B", params_b=40, layers=80, hidden_size=5120, kv_heads=8, head_dim=128)
    looped = replace(base, loops=2)
    dense80 = replace(base, params_b=80, layers=160)
    eb, el, e80 = (estimate(m, H100, devices=2) for m in (base, looped, dense80))
    assert el.weights_gb == eb.weights_gb == pytest.approx(80)
    assert el.kv_cache_gb == pytest.approx(2 * eb.kv_cache_gb)  # every loop keeps its own K/V by default
    overhead = load_params()["engines"]["optimized"]["pass_overhead_s"]  # of a 32-layer model
    assert el.tpot_s - overhead > 1.8 * (eb.tpot_s - overhead)
    # each loop runs its layers' kernels again: the looped 80-layer model pays the per-layer overhead of
    # 160 layers, as the dense 160-layer model does
    assert el.tpot_s == pytest.approx(e80.tpot_s, rel=0.05)
    windowed = replace(looped, loop_kv_window=64)
    assert eb.kv_cache_gb < estimate(windowed, H100, devices=2).kv_cache_gb < el.kv_cache_gb


def test_multi_device_when_the_model_does_not_fit():
    l70 = Model(name="70B", params_b=70.6, layers=80, hidden_size=8192, kv_heads=8, head_dim=128)
    e = estimate(l70, H100)
    assert e.fits_one_device is False and e.fits is True
    assert e.devices_needed in (2, 4)
    assert e.memory_gb > H100.memory_gb
    forced_one = estimate(l70, H100, devices=1)
    assert forced_one.fits is False


def test_cannot_fit_at_all_is_reported():
    huge = Model(name="2T", params_b=2000)
    e = estimate(huge, RTX4090)  # 4.8 TB on 24 GB cards: far beyond an 8-card box
    assert e.fits is False and e.devices_needed > 8
    assert math.isfinite(e.total_s)


def test_tensor_parallel_costs_communication():
    l70 = Model(name="70B", params_b=70.6, layers=80, hidden_size=8192, kv_heads=8, head_dim=128)
    fast = replace(H100, interconnect_gbs=450, link_latency_s=5e-6)
    slow = replace(H100, interconnect_gbs=16, link_latency_s=200e-6)
    assert estimate(l70, slow, devices=4).tpot_s > estimate(l70, fast, devices=4).tpot_s + 0.01


def test_tiny_model_is_dominated_by_fixed_overhead():
    tiny = Model(name="0.5B", params_b=0.5)
    e = estimate(tiny, H100)
    overhead = load_params()["engines"]["optimized"]["pass_overhead_s"]
    assert e.tpot_s < 2 * overhead


def test_uncalibrated_kinds_get_wider_ranges():
    cpu = Hardware(name="cpu", kind="cpu", mem_bandwidth_gbs=400, peak_tflops=10, memory_gb=512)
    e_cpu, e_gpu = estimate(L8B, cpu), estimate(L8B, RTX4090)
    width = lambda e: e.ranges["tpot_s"][1] / e.ranges["tpot_s"][0]  # noqa: E731
    assert e_cpu.calibrated is False and e_gpu.calibrated is True
    assert width(e_cpu) > width(e_gpu)


# --- sweep -----------------------------------------------------------------------------------

def test_sweep_matches_scalar_estimate():
    generic = Model(name="g", params_b=1.0)
    sizes = np.array([0.5, 3.0, 8.0, 70.0, 400.0])
    dist = np.array([0.0, 10.0, 800.0, 5000.0, 12000.0])
    s = estimate_sweep(generic, H100, params_b=sizes, distance_km=dist, prompt_tokens=300, output_tokens=90, batch=2)
    for i, (p, d) in enumerate(zip(sizes, dist)):
        e = estimate(replace(generic, params_b=float(p)), H100, prompt_tokens=300, output_tokens=90, batch=2,
                     distance_km=float(d))
        assert s["total_s"][i] == pytest.approx(e.total_s, rel=1e-9)
        assert s["ttft_s"][i] == pytest.approx(e.ttft_s, rel=1e-9)
        assert s["devices_needed"][i] == e.devices_needed
        assert bool(s["fits"][i]) == e.fits


def test_sweep_matches_scalar_with_users_and_context():
    users = np.array([1.0, 4.0, 10.0, 30.0])
    ctx = np.array([0.0, 1000.0, 8000.0, 30000.0])
    s = estimate_sweep(SHAPED_8B, SMALL, concurrent_users=users, context_tokens=ctx)
    for i in range(4):
        e = estimate(SHAPED_8B, SMALL, concurrent_users=float(users[i]), context_tokens=float(ctx[i]))
        for k in ("ttft_s", "tpot_s", "total_s", "server_tokens_per_s"):
            assert s[k][i] == pytest.approx(getattr(e, k), rel=1e-9), k
        assert s["running_batch"][i] == e.running_batch


def test_sweep_broadcasts_grids():
    s = estimate_sweep(L8B, H100, batch=np.array([[1.0], [8.0]]), prompt_tokens=np.array([128.0, 1024.0, 4096.0]))
    assert s["tpot_s"].shape == (2, 3)
    assert np.all(np.isfinite(s["total_s"]))


def test_many_users_take_their_ranges_from_the_serving_benchmark():
    """With concurrent users the ranges are the envelope of the compute bands and the serving
    benchmark's own bands (fitted_params.json "bands_serving"), worked out here from the stages:
    TTFT = network x network band + (queue + prefill) x TTFT band; time per token x decode band.
    One user keeps the compute bands."""
    params = load_params()
    sb, bands = params["bands_serving"], params["bands"]
    h100 = Hardware(name="H100", kind="datacenter_gpu", memory_gb=80, mem_bandwidth_gbs=3350, peak_tflops=989)
    m8 = Model(name="8B", params_b=8.0, bytes_per_param=2.0)
    many = estimate(m8, h100, 512, 256, distance_km=1000, concurrent_users=32, engine="optimized")
    b = many.breakdown
    tlo = min(bands["prefill"][0], bands["decode"][0], sb["ttft"][0])
    thi = max(bands["prefill"][1], bands["decode"][1], sb["ttft"][1])
    n = bands["network"]
    assert many.ranges["ttft_s"] == pytest.approx((b["network"] * n[0] + (b["queue"] + b["prefill"]) * tlo,
                                                   b["network"] * n[1] + (b["queue"] + b["prefill"]) * thi))
    dlo, dhi = min(bands["decode"][0], sb["decode"][0]), max(bands["decode"][1], sb["decode"][1])
    assert many.ranges["tpot_s"] == pytest.approx((many.tpot_s * dlo, many.tpot_s * dhi))
    one = estimate(m8, h100, 512, 256, distance_km=1000, concurrent_users=1, engine="optimized")
    assert one.ranges["tpot_s"] == pytest.approx((one.tpot_s * bands["decode"][0], one.tpot_s * bands["decode"][1]))
    # the serving band is the wider one (the benchmark's TTFT errors are large): honest, not narrower
    assert thi / tlo > bands["prefill"][1] / bands["prefill"][0]


# --- Decision 2: the queue is only the wait for others; the engine's own time is per engine ------

@pytest.mark.parametrize("arrival", ["steady", "burst"])
@pytest.mark.parametrize("engine", [None, "optimized", "vllm", "tensorrt-llm", "sglang", "llama.cpp"])
def test_one_user_at_zero_utilization_waits_for_nobody(engine, arrival):
    e = estimate(L8B, H100, engine=engine, arrival=arrival, concurrent_users=1)
    assert e.breakdown["queue"] == 0.0
    assert 0.0 <= e.overhead_s < e.breakdown["prefill"]
    sweep = estimate_sweep(L8B, H100, engine=engine, arrival=arrival, distance_km=np.array([0.0, 500.0]))
    assert np.all(sweep["queue"] == 0.0)
    assert np.allclose(sweep["overhead"], e.overhead_s)


def test_request_overhead_is_per_engine_from_its_sources():
    from latency.estimation import engines
    by = {name: estimate(L8B, H100, engine=name).overhead_s for name in ("vllm", "tensorrt-llm", "sglang", "llama.cpp")}
    assert by["vllm"] == T0                                   # fitted on the vLLM benchmark's c=1 rows
    assert by["sglang"] == T0                                 # carried over (same front-end design)
    assert by["tensorrt-llm"] == engines.ENGINE_PROFILES["tensorrt-llm"].request_overhead_s < T0 / 5
    assert by["llama.cpp"] == 0.0
    assert estimate(L8B, H100, engine="nim").serving_engine == "tensorrt-llm"
    assert estimate(L8B, H100).serving_engine == "vllm" and estimate(L8B, H100).engine == "optimized"
    with pytest.raises(ValueError, match="engine must be one of"):
        estimate(L8B, H100, engine="magic")


# --- Decision 4: speculative decoding inputs ----------------------------------------------------

L70 = Model(name="70B", params_b=70.6, bytes_per_param=2.0, layers=80, hidden_size=8192, kv_heads=8, head_dim=128)


def test_speculative_decoding_off_is_the_plain_estimate():
    off, plain = estimate(L70, H100, devices=4, spec_tokens=0, spec_accept=0.9), estimate(L70, H100, devices=4)
    assert (off.tpot_s, off.ttft_s, off.memory_gb) == (plain.tpot_s, plain.ttft_s, plain.memory_gb)


def test_tokens_per_verification_is_leviathan_eq_1():
    from latency.estimation.estimator import tokens_per_verification
    assert tokens_per_verification(4.0, 0.7) == pytest.approx((1 - 0.7**5) / (1 - 0.7))  # 2.773
    assert tokens_per_verification(4.0, 1.0) == 5.0 and tokens_per_verification(0.0, 0.5) == 1.0
    assert tokens_per_verification(3.0, 0.0) == 1.0


def test_speculative_decoding_speeds_one_user_and_slows_a_full_server():
    one = estimate(L70, H100, devices=4)
    fast = estimate(L70, H100, devices=4, spec_tokens=4, spec_accept=0.7)
    # batch 1, memory-bound: one weight read verifies 5 tokens and yields 2.77 on average; the draft
    # head's 4 steps cost little. Published: EAGLE 2.7-3.5x on LLaMA2-Chat 70B at batch 1.
    assert 2.0 < one.tpot_s / fast.tpot_s < 2.8
    assert fast.breakdown["prefill"] == pytest.approx(one.breakdown["prefill"])  # the first token is unchanged
    # 256 users in steady use: decode is compute-bound, verifying 5 tokens per stream costs 5x the
    # FLOPs for 2.77 tokens: a loss (vLLM blog, Oct 2024: 1.4x slowdown at high QPS on 4 x H100).
    busy = estimate(L70, H100, devices=4, concurrent_users=256)
    busy_spec = estimate(L70, H100, devices=4, concurrent_users=256, spec_tokens=4, spec_accept=0.7)
    assert busy_spec.tpot_s > busy.tpot_s and busy_spec.server_tokens_per_s < busy.server_tokens_per_s


def test_a_draft_that_is_never_accepted_only_costs():
    plain = estimate(L70, H100, devices=4)
    wasted = estimate(L70, H100, devices=4, spec_tokens=4, spec_accept=0.0, spec_draft_b=1.0)
    assert wasted.tpot_s > plain.tpot_s
    assert wasted.memory_gb > plain.memory_gb  # the draft model's weights sit beside the target's


@pytest.mark.parametrize("field,value", [("spec_tokens", -1), ("spec_tokens", 2.5), ("spec_tokens", 99),
                                         ("spec_accept", 1.5), ("spec_accept", float("nan")),
                                         ("spec_draft_b", 0.0), ("spec_draft_b", 500.0)])
def test_bad_speculative_inputs_name_the_field(field, value):
    kw = dict(spec_tokens=4, spec_accept=0.7)
    kw[field] = value
    with pytest.raises(ValueError, match=field):
        estimate(L70, H100, devices=4, **kw)
    with pytest.raises(ValueError, match=field):
        estimate_sweep(L70, H100, devices=4, **kw)


def test_sweep_takes_the_speculative_inputs():
    users = np.array([1.0, 16.0, 256.0])
    sweep = estimate_sweep(L70, H100, devices=4, concurrent_users=users, spec_tokens=4, spec_accept=0.7)
    for i, u in enumerate(users):
        e = estimate(L70, H100, devices=4, concurrent_users=float(u), spec_tokens=4, spec_accept=0.7)
        assert sweep["tpot_s"][i] == pytest.approx(e.tpot_s, rel=1e-9)


# --- Issue 32 item 1: memory as the engines spend it; item 3: FP4 and a model given by its file ------

H100_FP8 = replace(H100, fp8=True)
A100 = Hardware(name="A100 80GB", kind="datacenter_gpu", mem_bandwidth_gbs=2039, peak_tflops=312, memory_gb=80)
B200 = Hardware(name="B200", kind="datacenter_gpu", mem_bandwidth_gbs=8000, peak_tflops=2250, memory_gb=180,
                fp8=True, fp4_speedup=4.0)
L70_FP8 = replace(L70, bytes_per_param=1.0)


def test_70b_fp8_on_two_h100s_holds_50_long_prompts_without_a_cliff():
    """Issue 32: 5,000-token prompts, 50 users: the published benchmark measures 0.83 s to the first
    token with no cliff; the estimate said 44 requests fit and 6.6 s. FP8 weights keep an FP8 KV cache
    (163,840 B per token) and TensorRT-LLM sets aside 0.9 x 0.985 of the memory free after weights."""
    kw = dict(devices=2, prompt_tokens=5000, output_tokens=500, engine="tensorrt-llm")
    fifty = estimate(L70_FP8, H100_FP8, concurrent_users=50, **kw)
    assert fifty.kv_bytes == 1.0 and fifty.weight_format == "fp8"
    device_gb = 80 * 2**30 / 1e9
    overhead = 3.5 * 2**30 / 1e9 + 358612992 / 1e9 + 2 * 8192 * 8192 * 6.5 / 1e9
    budget = 2 * 0.9 * 0.985 * (device_gb - 70.6 / 2 - overhead)
    assert fifty.kv_budget_gb == pytest.approx(budget, rel=1e-9)
    assert fifty.max_concurrent_requests == int(budget / (5500 * 163840 / 1e9)) > 50
    assert fifty.breakdown["queue"] == 0.0 and fifty.ttft_s < 1.0
    one = estimate(L70_FP8, H100_FP8, concurrent_users=1, **kw)
    assert fifty.ttft_s < 2 * one.ttft_s  # no cliff below the knee


def test_70b_int8_runs_on_one_80gb_gpu_and_weight_only_pays_dequantisation():
    """gpt-fast ran Llama-2-70B int8 on one A100 80GB; the old 1.2 x weights rule put it on two."""
    l2 = Model(name="Llama 2 70B", params_b=68.98, bytes_per_param=1.0, layers=80, hidden_size=8192, kv_heads=8,
               head_dim=128, low_precision_compute=False)
    e = estimate(l2, A100, prompt_tokens=5, output_tokens=200, access="none", serving_api=False)
    assert e.devices_needed == 1 and e.fits and e.weight_format == "int8"
    w8a8 = estimate(replace(l2, low_precision_compute=None), A100, prompt_tokens=5, output_tokens=200,
                    access="none", serving_api=False)
    assert w8a8.tpot_s < e.tpot_s  # weight-only INT8 streams its weights slower (engines.WEIGHT_ONLY_INT8_BW_EFF)
    int4 = estimate(replace(l2, bytes_per_param=0.55, low_precision_compute=None), A100, prompt_tokens=5,
                    output_tokens=200, access="none", serving_api=False)
    assert int4.weight_format == "int4"
    ratio = e.tpot_s / int4.tpot_s  # the bytes alone would say 1 / 0.55 = 1.8x faster
    assert 1.0 < ratio < 1.0 / 0.55 * 0.85


def test_fp4_weights_use_fp4_tensor_cores_on_a_b200_only():
    m = Model(name="70B", params_b=70.6, bytes_per_param=0.5625, layers=80, hidden_size=8192, kv_heads=8, head_dim=128)
    fp4 = estimate(m, B200, prompt_tokens=8192, output_tokens=2, access="none", serving_api=False)
    fp8 = estimate(replace(m, bytes_per_param=1.0), B200, prompt_tokens=8192, output_tokens=2, access="none",
                   serving_api=False)
    assert fp4.weight_format == "fp4" and fp4.kv_bytes == 1.0
    assert fp4.bottleneck["prefill"] == "compute"
    # NVFP4 matmuls measure 2.21x BF16 on a B200, FP8 1.47x (0.55 x 4 and 0.735 x 2): 1.5x apart
    assert 1.3 < fp8.breakdown["prefill"] / fp4.breakdown["prefill"] < 1.51
    on_h100 = estimate(m, H100_FP8, prompt_tokens=8192, output_tokens=2, access="none", serving_api=False)
    assert on_h100.weight_format == "int4"  # no FP4 tensor cores: a 4-bit weight-only format
    forced = estimate(replace(m, weight_format="int4"), B200, prompt_tokens=8192, output_tokens=2, access="none",
                      serving_api=False)
    assert forced.weight_format == "int4" and forced.breakdown["prefill"] > fp4.breakdown["prefill"]


def test_a_model_given_by_its_file_size():
    """Unsloth's "UD-Q4_K_XL" GGUF prints no bits per weight, only its file size."""
    m = Model(name="8B UD-Q4_K_XL", params_b=8.03, file_gb=5.0)
    assert m.bytes_per_param == pytest.approx(5.0 / 8.03)
    e = estimate(m, RTX4090)
    assert e.weights_gb == pytest.approx(5.0)
    assert estimate(replace(m, file_gb=4.0), RTX4090).tpot_s < e.tpot_s
    with pytest.raises(ValueError, match="file_gb"):
        Model(name="x", params_b=8.0, file_gb=-1.0)


def test_a_setup_that_does_not_fit_names_the_devices_it_needs():
    e = estimate(L70, H100, devices=1)  # 141 GB of FP16 weights on one 80 GB GPU
    assert not e.fits and not e.timing_valid and e.min_devices == 2 and e.devices_needed == 1
    ok = estimate(L70, H100)
    assert ok.fits and ok.timing_valid and ok.devices_needed == ok.min_devices == 2


def test_serving_engine_pass_overhead_grows_with_layers_llama_cpp_does_not():
    """A serving engine's fixed time per forward pass is per layer (each layer launches its own
    kernels): a model with twice the layers and the same weights pays twice the fitted overhead of a
    32-layer model; llama.cpp's fitted overhead stays one per pass. Hand check on one device, one
    token of context, so only the overhead differs between the two shapes."""
    from latency.estimation.estimator import OVERHEAD_REFERENCE_LAYERS
    assert OVERHEAD_REFERENCE_LAYERS == 32.0
    params = load_params()
    shallow = Model(name="32", params_b=8.0, bytes_per_param=1.0, layers=32, hidden_size=4096, kv_heads=8, head_dim=128)
    deep = replace(shallow, layers=64)
    kw = dict(prompt_tokens=1, output_tokens=2, devices=1, access="none", serving_api=False)
    gap = estimate(deep, H100, engine="vllm", **kw).tpot_s - estimate(shallow, H100, engine="vllm", **kw).tpot_s
    overhead = params["engines"]["optimized"]["pass_overhead_s"]
    assert gap == pytest.approx(overhead * (64 - 32) / 32, rel=0.02)
    gap_llama = (estimate(deep, H100, engine="llama.cpp", **kw).tpot_s
                 - estimate(shallow, H100, engine="llama.cpp", **kw).tpot_s)
    assert abs(gap_llama) < 0.05 * params["engines"]["llama.cpp"]["pass_overhead_s"]


# --- Issue 32, third pass: a hybrid model's recurrent (Mamba) state ---------------------------------

def test_mamba2_state_of_nemotron_nano_from_its_config():
    from latency.estimation.estimator import mamba2_state_gb
    # 23 Mamba-2 layers x (64 heads x 64 x 128 state x 4 bytes (FP32) + (4096 + 2 x 8 x 128) x 3 x 2 bytes)
    per_layer = 64 * 64 * 128 * 4 + (64 * 64 + 2 * 8 * 128) * 3 * 2
    assert mamba2_state_gb(23, 64, 64, 128, 8, 4) == pytest.approx(23 * per_layer / 1e9)
    assert 0.049 < mamba2_state_gb(23, 64, 64, 128, 8, 4) < 0.0491


def test_recurrent_state_is_held_per_request_and_read_and_written_every_step():
    plain = Model(name="hybrid", params_b=30, active_params_b=3.5, bytes_per_param=1.0, layers=26,
                  hidden_size=2688, heads=32, kv_heads=2, head_dim=128, attention_layers=6)
    hybrid = replace(plain, recurrent_state_gb=0.049)
    streams = 64
    run = dict(batch=streams, prompt_tokens=2048, output_tokens=512, devices=2)
    ep_, eh = estimate(plain, B200, **run), estimate(hybrid, B200, **run)
    assert eh.running_batch == ep_.running_batch == streams
    # memory: the state of every running request, beside its KV cache
    assert eh.memory_gb - ep_.memory_gb == pytest.approx(0.049 * streams, rel=1e-6)
    # time: every step reads and writes 2 x 0.049 GB per stream over the two devices' bandwidth, no
    # faster than peak and, at 64 streams, at no less than half of it
    moved_gb = 2 * 0.049 * streams / 2
    extra = eh.tpot_s - ep_.tpot_s
    assert moved_gb / B200.mem_bandwidth_gbs < extra < moved_gb / (0.5 * B200.mem_bandwidth_gbs)
    # the state does not grow with the context: the same extra time after 30,000 tokens
    long = dict(run, context_tokens=30000)
    assert estimate(hybrid, B200, **long).tpot_s - estimate(plain, B200, **long).tpot_s == pytest.approx(extra, rel=1e-6)
    with pytest.raises(ValueError, match="recurrent_state_gb"):
        replace(plain, recurrent_state_gb=-1.0)


def test_tensor_parallel_all_reduce_of_megabytes_matches_vllms_measured_all_reduce():
    """vLLM 0.24.0's all-reduce in a CUDA graph on B200 (aiconfigurator's measured table,
    b200_sxm/comm/vllm/0.24.0/custom_allreduce_perf.parquet, latency in us by GPUs and message size
    in M bfloat16 elements, so 2 bytes each: its collector all-reduces a [size // 4096, 4096] bfloat16
    tensor): a ring all-reduce of 32-512 MB moves at about 0.6 of NVLink 5's 900 GB/s, not at all of it.
    Read as bytes (until 2026-12-06) the table gave half that rate; this test carried the same misreading."""
    from latency.estimation.estimator import tp_allreduce_s
    measured_us = {(2, 16): 87.2, (4, 16): 119.0, (8, 16): 111.3, (2, 64): 280.4, (4, 64): 352.9,
                   (8, 64): 442.4, (2, 256): 1004.7, (4, 256): 1291.2, (8, 256): 1337.4}
    hidden = 8192
    for (gpus, m_elements), us in measured_us.items():
        tokens = m_elements * 2**20 / hidden  # a message of tokens x hidden bfloat16 elements
        # one layer's two all-reduces, one loop
        one_s = tp_allreduce_s(float(gpus), 1.0, 1.0, tokens, hidden, 900.0, 7e-6) / 2
        assert 0.7 < one_s * 1e6 / us < 1.3, (gpus, mb)
    # one token's message (16 KB) costs the link's latency, not bandwidth
    assert tp_allreduce_s(2.0, 1.0, 1.0, 1.0, hidden, 900.0, 7e-6) / 2 == pytest.approx(7e-6, rel=0.02)



def test_an_extra_all_reduce_per_layer_costs_its_link_latency_per_layer_and_token():
    """MiniMax M2's QK norm spans all heads, so vLLM all-reduces each token's q and k variances across
    the tensor-parallel ranks in every layer (minimax_m2.py, MiniMaxText01RMSNormTP.forward_qk). By hand:
    a few bytes a token, so each costs the link's latency: 62 layers x 7 us = 0.434 ms per pass on any
    number of devices above one, and nothing on one device."""
    from latency.estimation.estimator import tp_allreduce_s
    for gpus in (2.0, 4.0, 8.0):
        extra = (tp_allreduce_s(gpus, 62.0, 1.0, 1.0, 3072, 900.0, 7e-6, 1.0)
                 - tp_allreduce_s(gpus, 62.0, 1.0, 1.0, 3072, 900.0, 7e-6))
        assert extra == pytest.approx(62 * 7e-6, rel=1e-9)
    assert tp_allreduce_s(1.0, 62.0, 1.0, 1.0, 3072, 900.0, 7e-6, 1.0) == 0.0
    # through the public estimate: the same model with the extra all-reduce decodes slower by exactly
    # layers x the device's link latency per token when tensor parallel, and not at all on one device
    plain = Model("moe", params_b=229, active_params_b=10, bytes_per_param=1.0, layers=62, hidden_size=3072,
                  heads=48, kv_heads=8, head_dim=128)
    qk = replace(plain, extra_allreduces_per_layer=1)
    b200 = Hardware("B200", kind="datacenter_gpu", mem_bandwidth_gbs=8000, peak_tflops=2250, memory_gb=180,
                    link_latency_s=7e-6)
    run = dict(prompt_tokens=100, output_tokens=100, distance_km=0, engine="optimized", access="none")
    slower = estimate(qk, b200, devices=4, **run).tpot_s - estimate(plain, b200, devices=4, **run).tpot_s
    assert slower == pytest.approx(62 * 7e-6, rel=1e-6)
    with pytest.raises(ValueError, match="extra_allreduces_per_layer"):
        replace(plain, extra_allreduces_per_layer=-1)


# --- MoE weights: what every token reads against the routed experts (round 4, sixth pass) ---------

def test_gpt_oss_weight_split_by_hand():
    """gpt-oss-120b as calibrate describes it (model card: 114.71B of 116.83B parameters in the routed
    experts, 4 of 128 per token, 5.13B active; experts MXFP4 at 4.25 bits; a 59.02 GiB GGUF). By hand:
    file 59.02 x 1.073741824 = 63.373 GB; experts 114.71 x 0.53125 = 60.940 GB; the other 2.12B
    parameters hold the remaining 2.433 GB (1.148 B each); a token reads 5.13 - 3.5847 = 1.5453B of
    them (1.773 GB) and 3.5847B expert parameters (1.904 GB): 3.68 GB, where the file's average bytes
    per parameter would say 5.13 x 0.5424 = 2.78 GB."""
    from latency.estimation.calibrate import _model
    from latency.estimation.estimator import weight_split, weights_touched_fraction

    m = _model("gpt-oss-120b", 116.83, "MXFP4")
    file_gb = 116.83 * m.bytes_per_param
    assert math.isclose(file_gb, 59.02 * 1.073741824, rel_tol=1e-3)
    always, routed, share = weight_split(m)
    rest_bpp = (file_gb - 114.71 * 0.53125) / (116.83 - 114.71)
    assert math.isclose(always * file_gb, (5.13 - 114.71 * 4 / 128) * rest_bpp, rel_tol=1e-9)
    assert math.isclose(routed * file_gb, 114.71 * 0.53125, rel_tol=1e-9)
    assert math.isclose(share, 4 / 128, rel_tol=1e-12)
    per_token_gb = file_gb * weights_touched_fraction(always, routed, share, 1.0)
    assert 3.6 < per_token_gb < 3.75 and per_token_gb > 1.3 * 5.13 * m.bytes_per_param
    # many tokens touch every expert: the whole file but the embedding table's lookup rows
    assert math.isclose(weights_touched_fraction(always, routed, share, 1e6), always + routed, rel_tol=1e-12)
    assert always + routed < 1.0


DESK_MOE = Model(name="moe", params_b=30.0, active_params_b=3.0, bytes_per_param=1.0625, layers=48,
                 hidden_size=2048, heads=32, kv_heads=4, head_dim=128)


def test_a_split_with_uniform_storage_reads_the_same_per_token_and_less_per_batch():
    """With one storage width a token reads its active parameters either way, so a single request is
    unchanged; a lock-step batch of 8 reads the always-read part once, where the unsplit model counts
    every weight as routed: 1 - 0.9^8 = 57% of the file against (0.5 + 27 x (1 - (1 - 2.5/27)^8)) / 30
    = 50%."""
    split = replace(DESK_MOE, expert_params_b=27.0, expert_active_b=2.5)
    one = dict(prompt_tokens=128, output_tokens=64, distance_km=0.0, engine="llama.cpp")
    a, b = estimate(DESK_MOE, RTX4090, batch=1, **one), estimate(split, RTX4090, batch=1, **one)
    assert math.isclose(a.tpot_s, b.tpot_s, rel_tol=1e-9)
    a8, b8 = estimate(DESK_MOE, RTX4090, batch=8, **one), estimate(split, RTX4090, batch=8, **one)
    assert b8.tpot_s < a8.tpot_s
    assert math.isclose(a8.weights_gb, b8.weights_gb, rel_tol=1e-12)


def test_experts_stored_narrower_than_the_rest_make_each_token_read_more():
    """gpt-oss's layout: the same file, but 4-bit experts leave the other parameters wider, and every
    token reads those: 0.5B x 5.84 + 2.5B x 0.53 = 4.25 GB a token against 3B x 1.0625 = 3.19 GB."""
    split = replace(DESK_MOE, expert_params_b=27.0, expert_active_b=2.5, expert_bytes_per_param=0.53125)
    one = dict(prompt_tokens=128, output_tokens=64, batch=1, distance_km=0.0, engine="llama.cpp")
    a, b = estimate(DESK_MOE, RTX4090, **one), estimate(split, RTX4090, **one)
    assert b.tpot_s > 1.1 * a.tpot_s and b.weights_gb == a.weights_gb


@pytest.mark.parametrize("fields, message", [
    (dict(expert_params_b=27.0), "go together"),
    (dict(expert_params_b=40.0, expert_active_b=2.5), "expert_params_b"),
    (dict(expert_params_b=27.0, expert_active_b=3.5), "expert_active_b"),
    (dict(expert_bytes_per_param=0.5), "needs expert_params_b"),
])
def test_bad_expert_split_is_refused(fields, message):
    with pytest.raises(ValueError, match=message):
        replace(DESK_MOE, **fields)


def test_the_how_pages_fp8_source_quotes_the_measured_range():
    """The how-it-works page's source for the FP8 speed-up engines reach names the range of
    constants.FP8_MATMUL_SPEEDUP in both languages, so a new measurement cannot leave it stale."""
    import yaml
    from pathlib import Path

    from latency.estimation.constants import FP8_MATMUL_SPEEDUP

    ui = yaml.safe_load((Path(__file__).resolve().parents[2] / "content" / "ui" / "how.yaml").read_text(encoding="utf-8"))
    lo, hi = min(FP8_MATMUL_SPEEDUP.values()), max(FP8_MATMUL_SPEEDUP.values())
    assert f"{lo:.2f}-{hi:.2f}x" in ui["src_fp8_achieved"]["en"]
    assert f"{lo:.2f}~{hi:.2f}배" in ui["src_fp8_achieved"]["ko"]
