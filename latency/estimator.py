"""End-to-end LLM inference latency: a small physical model calibrated on published measurements.

    from latency import Hardware, Model, estimate, estimate_sweep, round_trip_s

    e = estimate(model, hardware, prompt_tokens=512, output_tokens=256, batch=1, distance_km=0.0,
                 engine=None, *, access="wired", connection="warm", utilization=0.0,
                 concurrent_users=1, devices=None)

The request goes through four stages, each one small function below with its formula and
sources in the docstring (docs/estimator.md collects them):

    network  (network.py)   access RTT + backbone RTT, times (set-up round trips + 1)
    queue    queue_s         M/M/1 wait at a given utilisation + waiting for a batch slot
    prefill  prefill_s       prompt FLOPs over achieved compute, never faster than one weight read
    decode   decode_step_s   (weights + KV cache) over achieved bandwidth, or compute at batch B

    ttft_s  = network + queue + prefill           (prefill ends with the first token)
    total_s = ttft_s + (output_tokens - 1) * tpot_s

The free parameters (achieved fractions of bandwidth and compute per engine and hardware kind,
for llama.cpp on discrete GPUs one saturating curve of peak bandwidth and one of peak compute
(`achieved_fraction`), the per-forward-pass overhead, route inflation, ...) live in latency/fitted_params.json, written
by `python -m latency.calibrate` from shared/calibration/.

Vectorised sweep: `estimate_sweep(model, hardware, **inputs)` takes the same inputs as
`estimate`, where `params_b`, `bytes_per_param`, `mem_bandwidth_gbs`, `peak_tflops`,
`prompt_tokens`, `output_tokens`, `batch`, `distance_km`, `utilization`, `concurrent_users` may
be numpy arrays (broadcast together). It returns a dict of numpy arrays with the numeric keys of
`Estimate.as_dict()`; 10,000 scenarios take a few milliseconds (benchmarks/bench_estimator.py).
When sweeping `params_b`, pass a model without layer/head fields so the shape scales with size.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import numpy as np

from . import _num as nm
from .network import ACCESS_RTT_MS, SETUP_ROUND_TRIPS, access_rtt_s, backbone_rtt_s, network_s

KINDS = ("datacenter_gpu", "desktop_gpu", "apple_silicon", "integrated_gpu", "cpu", "mobile")
ENGINES = ("llama.cpp", "optimized")
ARCHITECTURES = ("dense", "moe", "looped")
ACCESS_NETWORKS = tuple(ACCESS_RTT_MS)
CONNECTIONS = tuple(SETUP_ROUND_TRIPS)
STAGES = ("network", "queue", "prefill", "decode")

PARAMS_PATH = Path(__file__).with_name("fitted_params.json")


def calibration_dir() -> Path:
    """shared/calibration next to the repository (override with LATENCY_CALIBRATION_DIR)."""
    env = os.environ.get("LATENCY_CALIBRATION_DIR")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "shared" / "calibration"


# --------------------------------------------------------------------------------------------
# Constants with their sources
# --------------------------------------------------------------------------------------------

ASPECT_RATIO = 128.0
"""hidden_size / layers of common decoder LLMs when a model gives no shape: Llama 3 8B 4096/32,
Llama 3.1 405B 16384/126, GPT-3 12288/96 all ~128 (Brown et al. 2020, table 2.1)."""

PARAMS_PER_LAYER_D2 = 12.0
"""Non-embedding parameters ~= 12 x layers x hidden^2 (Kaplan et al. 2020, "Scaling Laws for
Neural Language Models", eq. 2.1: 4 d^2 attention + 8 d^2 MLP per layer)."""

DEFAULT_KV_DIM = 1024.0
"""KV width (kv_heads x head_dim) when a model gives none: grouped-query attention with 8 KV
heads of 128 (Llama 3 8B/70B/405B configs), capped at hidden/4 for small models."""

ACTIVATION_BYTES = 2.0
"""Tensor-parallel all-reduce messages are FP16/BF16 activations."""

RUNTIME_OVERHEAD_FRACTION = 0.2
"""Activations, workspace and runtime buffers on top of weights and KV cache: "in our experience
this overhead is <= 20%" (EleutherAI, Transformer Math 101, 2023). We take the upper end."""

NODE_SIZE = 8
"""GPUs per server node (DGX/HGX H100: 8 GPUs on NVLink; NVIDIA DGX H100 datasheet)."""
INTERNODE_GBS = 50.0
"""Per-GPU bandwidth between nodes, one direction: 400 Gb/s InfiniBand NDR (ConnectX-7) = 50 GB/s
(NVIDIA DGX H100 datasheet: 8 x 400 Gb/s compute fabric ports)."""
INTERNODE_LATENCY_S = 20e-6
"""Latency of one small all-reduce across nodes over InfiniBand: an ASSUMPTION (order of magnitude;
no vendor-published small-message all-reduce latency was found to cite; see docs/estimator.md)."""

# Defaults by hardware kind, used when a Hardware leaves the optional field as None.
#   lowp_speedup:     FP8/INT8 tensor throughput / FP16 (H100/H200/B200/L4/L40S/MI300X/RTX 40:
#                     2x per vendor datasheets; A100/RTX 30: 2x for INT8). Apple/CPU/iGPU: 1.
#   interconnect_gbs: one direction, per device: NVLink 3 on A100 = 600 GB/s total = 300 each
#                     way; PCIe 4.0 x16 ~32 GB/s each way; Thunderbolt 4 = 40 Gb/s = 5 GB/s;
#                     CPU servers over 200 GbE = 25 GB/s.
#   link_latency_s:   one small all-reduce: NVLink 10 us, PCIe 25 us, Ethernet 50 us, Thunderbolt
#                     100 us, phone 1 ms. ASSUMPTIONS (orders of magnitude): NVIDIA publishes
#                     bandwidths, not small-message all-reduce latencies, and no citable figure
#                     was found; see docs/estimator.md. Not fitted (no multi-device rows in the data).
#   max_devices:      the most devices one deployment may use: 8-GPU nodes up to 8 nodes for
#                     datacenter GPUs; one 8-GPU workstation for desktop GPUs; a 4-machine
#                     Thunderbolt cluster for Apple; 1 for laptops' iGPUs and phones.
KIND_DEFAULTS: dict[str, dict[str, float]] = {
    "datacenter_gpu": dict(lowp_speedup=2.0, interconnect_gbs=300.0, link_latency_s=10e-6, max_devices=64),
    "desktop_gpu": dict(lowp_speedup=2.0, interconnect_gbs=32.0, link_latency_s=25e-6, max_devices=8),
    "apple_silicon": dict(lowp_speedup=1.0, interconnect_gbs=5.0, link_latency_s=100e-6, max_devices=4),
    "integrated_gpu": dict(lowp_speedup=1.0, interconnect_gbs=5.0, link_latency_s=100e-6, max_devices=1),
    "cpu": dict(lowp_speedup=1.0, interconnect_gbs=25.0, link_latency_s=50e-6, max_devices=4),
    "mobile": dict(lowp_speedup=1.0, interconnect_gbs=1.0, link_latency_s=1e-3, max_devices=1),
}

DEFAULT_ENGINE = {k: ("optimized" if k == "datacenter_gpu" else "llama.cpp") for k in KINDS}


# --------------------------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------------------------

def _real(name: str, value: Any, *, lo: float, hi: float = math.inf, lo_open: bool = True,
          hi_open: bool = False) -> float:
    """Return `value` as a float, or raise ValueError naming the field and the accepted range."""
    lo_s, hi_s = ("(" if lo_open else "["), (")" if hi_open or hi == math.inf else "]")
    rng = f"{lo_s}{lo:g}, {hi:g}{hi_s}".replace("inf", "∞")
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be a finite number in {rng}, got {value!r}")
    v = float(value)
    if not math.isfinite(v) or (v <= lo if lo_open else v < lo) or (v >= hi if hi_open else v > hi):
        raise ValueError(f"{name} must be a finite number in {rng}, got {value!r}")
    return v


def _int(name: str, value: Any, *, lo: int = 1, hi: int = 10**9) -> int:
    v = _real(name, value, lo=lo, hi=hi, lo_open=False)
    if v != int(v):
        raise ValueError(f"{name} must be a whole number in [{lo}, {hi}], got {value!r}")
    return int(v)


def _choice(name: str, value: Any, accepted: tuple) -> Any:
    if value not in accepted:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, accepted))}; got {value!r}")
    return value


# --------------------------------------------------------------------------------------------
# Inputs
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Hardware:
    """One accelerator (or CPU / phone SoC). Only the first five fields are required.

    peak_tflops is dense FP16/BF16 tensor throughput (GeForce: the FP32-accumulate figure;
    Apple: the GPU's FP32 rate, equal to its FP16 rate). Optional fields default by `kind`
    (KIND_DEFAULTS): lowp_speedup (FP8/INT8 over FP16), interconnect_gbs (one direction, per
    device), link_latency_s (one small all-reduce), max_devices.
    """

    name: str
    kind: str
    mem_bandwidth_gbs: float
    peak_tflops: float
    memory_gb: float
    lowp_speedup: float | None = None
    interconnect_gbs: float | None = None
    link_latency_s: float | None = None
    max_devices: int | None = None

    def __post_init__(self) -> None:
        _choice("kind", self.kind, KINDS)
        _real("mem_bandwidth_gbs", self.mem_bandwidth_gbs, lo=0, hi=1e6)
        _real("peak_tflops", self.peak_tflops, lo=0, hi=1e6)
        _real("memory_gb", self.memory_gb, lo=0, hi=1e6)
        if self.lowp_speedup is not None:
            _real("lowp_speedup", self.lowp_speedup, lo=1, hi=16, lo_open=False)
        if self.interconnect_gbs is not None:
            _real("interconnect_gbs", self.interconnect_gbs, lo=0, hi=1e5)
        if self.link_latency_s is not None:
            _real("link_latency_s", self.link_latency_s, lo=0, hi=1, lo_open=False)
        if self.max_devices is not None:
            _int("max_devices", self.max_devices, lo=1, hi=4096)

    def resolved(self, key: str) -> float:
        v = getattr(self, key)
        return float(KIND_DEFAULTS[self.kind][key] if v is None else v)


@dataclass(frozen=True)
class Model:
    """A language model. Only name and params_b are required.

    params_b: total (unique) parameters, billions. bytes_per_param: weight storage (FP16 2.0,
    FP8 1.0, Q8_0 1.0625, Q4_K_M ~0.61; content/precisions.yaml). active_params_b: parameters
    used per token (MoE; default = params_b). architecture: "dense" | "moe" | "looped";
    loops: how many times a looped model runs its shared layers (default 1; >1 implies looped).
    loop_kv_window: for looped models whose loops 2..L keep only a sliding-window KV cache (the
    IQuest Loop models: loop_window_size); None = every loop keeps a full KV cache.
    layers, hidden_size, heads, kv_heads, head_dim: from the published config; when missing they
    are estimated from params (see `model_shape`). kv_dim: cached elements per token per layer
    for K (and again for V); default kv_heads x head_dim (DeepSeek MLA: (512 + 64) / 2 = 288).
    kv_bytes: bytes per KV element (FP16 2.0).
    low_precision_compute: run matmuls in FP8/INT8 (W8A8) on the optimized engine; None = yes
    for 8-bit weights (bytes_per_param 0.95 to 1.1), no otherwise.
    """

    name: str
    params_b: float
    bytes_per_param: float = 2.0
    active_params_b: float | None = None
    architecture: str | None = None
    loops: int = 1
    loop_kv_window: int | None = None
    layers: int | None = None
    hidden_size: int | None = None
    heads: int | None = None
    kv_heads: int | None = None
    head_dim: int | None = None
    kv_dim: int | None = None
    kv_bytes: float = 2.0
    low_precision_compute: bool | None = None

    def __post_init__(self) -> None:
        _real("params_b", self.params_b, lo=0, hi=1e5)
        _real("bytes_per_param", self.bytes_per_param, lo=0, hi=8)
        if self.active_params_b is not None:
            _real("active_params_b", self.active_params_b, lo=0, hi=self.params_b)
        if self.architecture is not None:
            _choice("architecture", self.architecture, ARCHITECTURES)
        _int("loops", self.loops, lo=1, hi=64)
        for name in ("loop_kv_window", "layers", "hidden_size", "heads", "kv_heads", "head_dim", "kv_dim"):
            if getattr(self, name) is not None:
                _int(name, getattr(self, name), lo=1, hi=10**7)
        _real("kv_bytes", self.kv_bytes, lo=0, hi=8)
        if self.low_precision_compute not in (None, True, False):
            raise ValueError(f"low_precision_compute must be None, True or False, got {self.low_precision_compute!r}")

    @property
    def active_b(self) -> float:
        return float(self.params_b if self.active_params_b is None else self.active_params_b)

    @property
    def arch(self) -> str:
        if self.architecture:
            return self.architecture
        if self.loops > 1:
            return "looped"
        return "moe" if self.active_b < self.params_b else "dense"


# --------------------------------------------------------------------------------------------
# Fitted parameters
# --------------------------------------------------------------------------------------------

_PARAMS_CACHE: dict[str, Any] = {}
_PARAMS_CACHE_MAX = 4  # one file in the app; a few more in tests. Bounded like every cache (issue 15).


def load_params(path: Path | None = None) -> dict:
    """The fitted parameters (latency/fitted_params.json), cached (at most 4 files)."""
    key = str(path or PARAMS_PATH)
    if key not in _PARAMS_CACHE:
        with open(key, encoding="utf-8") as f:
            params = json.load(f)
        while len(_PARAMS_CACHE) >= _PARAMS_CACHE_MAX:
            _PARAMS_CACHE.pop(next(iter(_PARAMS_CACHE)))
        _PARAMS_CACHE[key] = params
    return _PARAMS_CACHE[key]


def engine_params(params: dict, engine: str, kind: str) -> dict:
    """Achieved fractions etc. for one (engine, hardware kind); kinds without calibration data
    use the engine's "default" entry (geometric mean of the fitted kinds) and are flagged."""
    eng = params["engines"][engine]
    kinds = eng["kinds"]
    out = {k: v for k, v in eng.items() if k != "kinds"}
    out.update(kinds.get(kind, kinds["default"]))  # per-kind values override engine-wide ones
    out["calibrated"] = kind in kinds
    return out


# --------------------------------------------------------------------------------------------
# Stage functions (floats or numpy arrays)
# --------------------------------------------------------------------------------------------

def model_shape(active_params_b, layers=None, hidden_size=None, kv_dim=None, attn_dim=None):
    """Layers, hidden size, KV width and attention width; estimated where the config is missing.

    layers = cbrt(P / (12 x 128^2)) from P = 12 x L x d^2 (Kaplan et al. 2020) with d = 128 L
    (ASPECT_RATIO); hidden = 128 x layers; kv width = min(1024, hidden / 4) (DEFAULT_KV_DIM);
    attention width = hidden. P is the active parameter count.
    """
    est_layers = nm.cbrt(active_params_b * 1e9 / (PARAMS_PER_LAYER_D2 * ASPECT_RATIO**2))
    layers = est_layers if layers is None else layers
    hidden = ASPECT_RATIO * est_layers if hidden_size is None else hidden_size
    kv = nm.minimum(DEFAULT_KV_DIM, hidden / 4.0) if kv_dim is None else kv_dim
    attn = hidden if attn_dim is None else attn_dim
    return layers, hidden, kv, attn


def kv_cache_gb(layers, kv_dim, kv_bytes, context_tokens, batch, loops=1, loop_kv_window=None):
    """KV cache, GB: 2 (K and V) x layers x kv_dim x bytes x context x batch, per loop.

    Looped models run the shared layers `loops` times and each pass keeps its own K/V
    (looped-transformer papers; IQuest-Coder-V1 tech report, arXiv 2603.16733, section 2.1),
    so the cache grows with the loop count. IQuest's loops 2..L keep only a sliding window
    (config.json loop_window_size): then those loops cost min(context, window) tokens each.
    """
    per_token = 2.0 * layers * kv_dim * kv_bytes / 1e9
    if loop_kv_window is None:
        tokens = context_tokens * loops
    else:
        tokens = context_tokens + (loops - 1) * nm.minimum(context_tokens, float(loop_kv_window))
    return per_token * tokens * batch


def memory_gb(weights_gb, kv_gb):
    """Total memory: weights + KV cache + runtime overhead (20% of weights, RUNTIME_OVERHEAD_FRACTION)."""
    return weights_gb * (1.0 + RUNTIME_OVERHEAD_FRACTION) + kv_gb


def devices_for_memory(total_gb, device_memory_gb):
    """Devices needed to hold `total_gb`: ceil(total / per-device memory), rounded up to a power
    of two (tensor-parallel degree must divide the head count: 1, 2, 4, 8, then whole nodes)."""
    return nm.pow2_ceil(total_gb / device_memory_gb)


def moe_touched_fraction(active_params_b, params_b, tokens):
    """Share of the unique weights one forward pass must read when `tokens` tokens are routed
    independently: 1 - (1 - active/total)^tokens (each token touches `active/total` of the
    weights). Dense: 1. Ignores always-on shared experts (a slight underestimate)."""
    return 1.0 - (1.0 - active_params_b / params_b) ** tokens


def tp_allreduce_s(devices, layers, loops, tokens, hidden, interconnect_gbs, link_latency_s):
    """Tensor-parallel communication of one forward pass, seconds.

    Megatron-LM tensor parallelism needs 2 all-reduces per layer in the forward pass
    (Shoeybi et al. 2019, sec. 3). Ring all-reduce of M bytes on n devices moves
    2 (n-1)/n x M per device (Patarasuk & Yuan 2009) plus a fixed latency per all-reduce.
    M = tokens x hidden x 2 bytes. Beyond one 8-GPU node the link is InfiniBand (INTERNODE_*).
    0 on one device.
    """
    multi = (devices > 1) * 1.0
    across = (devices > NODE_SIZE) * 1.0
    bw = interconnect_gbs + across * (nm.minimum(interconnect_gbs, INTERNODE_GBS) - interconnect_gbs)
    lat = link_latency_s + across * (nm.maximum(link_latency_s, INTERNODE_LATENCY_S) - link_latency_s)
    msg = tokens * hidden * ACTIVATION_BYTES
    per_allreduce = 2.0 * (devices - 1.0) / devices * msg / (bw * 1e9) + lat
    return multi * 2.0 * layers * loops * per_allreduce


def pipeline_hops_s(devices, tokens, hidden, interconnect_gbs, link_latency_s):
    """Layer (pipeline) split, llama.cpp's default multi-GPU mode (--split-mode layer): devices run
    their layers one after another, so weight reads are NOT parallel; each of the n - 1 boundaries
    sends tokens x hidden x 2 bytes of activations plus one link latency."""
    return (devices - 1.0) * (tokens * hidden * ACTIVATION_BYTES / (interconnect_gbs * 1e9) + link_latency_s)


def roofline_s(compute_s, memory_s, combine: str = "max"):
    """Time of a pass bound by compute or memory: max (ideal overlap, the roofline model of
    Williams et al. 2009) or sum (no overlap); the calibration picks one ("combine")."""
    return nm.maximum(compute_s, memory_s) if combine == "max" else compute_s + memory_s


SATURATION_SHARPNESS = 4.0
"""Exponent k of the smooth minimum in `achieved_fraction` (k = 1: harmonic sum, k -> inf: hard
minimum). Not a free parameter: picked from {1, 2, 4} by the in-sample and leave-one-device-out
calibration errors (k = 1 doubles the decode error; 2 and 4 are close); see docs/estimator.md."""


def achieved_fraction(peak, frac, cap=None, k=SATURATION_SHARPNESS):
    """Achieved share of a peak rate (bandwidth or compute) that saturates at an absolute cap.

        achieved = ((frac x peak)^-k + cap^-k)^(-1/k)      fraction = achieved / peak

    A smooth minimum of "a fixed share of peak" and "a fixed achievable rate", the roofline
    model's min() (Williams, Waterman & Patterson 2009, CACM 52(4)) with a soft corner. For
    llama.cpp's batch-1 matrix-vector kernels the cap is Little's law: achieved bandwidth =
    bytes in flight / memory latency, and the bytes one kernel keeps in flight do not grow with
    the memory's peak, so HBM cards reach about the same absolute bandwidth as fast GDDR cards.
    Used for llama.cpp on discrete GPUs (desktop_gpu and datacenter_gpu share one curve, so an
    L40S or H100 is placed by its peak, not by its kind); the compute cap plays the same role for
    prefill, whose FP16 kernels in the calibrated llama.cpp build use no Hopper-specific
    instructions. cap None (or inf): no saturation, the fraction is `frac` at any peak.
    """
    if cap is None:
        return frac + 0.0 * peak
    x = frac * peak / cap
    return frac * (1.0 + x**k) ** (-1.0 / k)


def prefill_compute_s(flops, devices, peak_tflops, lowp, compute_frac):
    """FLOPs over achieved compute: flops / (devices x peak x low-precision speed-up x fraction)."""
    return flops / (devices * peak_tflops * 1e12 * lowp * compute_frac)


def weight_read_s(bytes_gb, devices, mem_bandwidth_gbs, bw_frac):
    """Bytes over achieved bandwidth: bytes / (devices x bandwidth x fraction)."""
    return bytes_gb / (devices * mem_bandwidth_gbs * bw_frac)


def prefill_flops(active_params_b, loops, batch, prompt_tokens, layers, attn_dim):
    """2 x active params x tokens (Kaplan et al. 2020: forward pass = 2N FLOPs per token) x loops,
    plus causal attention 2 x layers x prompt^2 x d_attn (QK^T and AV, each 2 P^2 d / 2) x loops."""
    return loops * batch * (2.0 * active_params_b * 1e9 * prompt_tokens
                            + 2.0 * layers * prompt_tokens**2 * attn_dim)


def decode_flops(active_params_b, loops, batch, context_tokens, layers, attn_dim):
    """Per decode step (one token for each of `batch` streams): 2 x active params + attention
    over the context 4 x layers x context x d_attn, times loops and batch."""
    return loops * batch * (2.0 * active_params_b * 1e9 + 4.0 * layers * context_tokens * attn_dim)


def queue_s(service_s, utilization, concurrent_users, slots):
    """Waiting time before the server starts the request ("busy kitchen"), seconds.

    - utilization rho in [0, 1): M/M/1 mean wait W_q = rho / (1 - rho) x S (Kleinrock 1975,
      Queueing Systems vol. 1, eq. 3.25), S = this request's service time.
    - concurrent_users N (including you) on a server with `slots` = batch slots: the N - slots
      requests beyond the batch wait for a slot; slots free every S / slots on average under
      continuous batching, so the last in line waits (N - slots) x S / slots.
    Both 0 when idle (the default); they add when both are given.
    """
    mm1 = utilization / (1.0 - utilization) * service_s
    slot_wait = nm.maximum(concurrent_users - slots, 0.0) * service_s / slots
    return mm1 + slot_wait


# --------------------------------------------------------------------------------------------
# Core: every stage, for floats or arrays
# --------------------------------------------------------------------------------------------

def _core(*, params_b, active_b, bytes_per_param, loops, loop_kv_window, shape, kv_bytes,
          bw_gbs, peak_tflops, device_mem_gb, lowp, ep, combine,
          prompt, output, batch, forced_devices, max_devices, interconnect_gbs, link_latency_s,
          net_s, utilization, users):
    layers, hidden, kv_dim, attn_dim = shape
    # Memory and devices.
    weights_gb = params_b * bytes_per_param
    kv_total_gb = kv_cache_gb(layers, kv_dim, kv_bytes, prompt + output, batch, loops, loop_kv_window)
    mem_gb = memory_gb(weights_gb, kv_total_gb)
    need = devices_for_memory(mem_gb, device_mem_gb)
    n = need if forced_devices is None else forced_devices + 0.0 * need
    fits = (n <= max_devices) & (mem_gb <= n * device_mem_gb)

    # Tensor parallel (optimized engines) splits every layer over n devices; llama.cpp's layer
    # split runs the devices in turn, so only the memory is spread, not the time.
    tp = ep["tensor_parallel"]
    par = n if tp else 1.0 + 0.0 * n

    def comm(tokens):
        if tp:
            return tp_allreduce_s(n, layers, loops, tokens, hidden, interconnect_gbs, link_latency_s)
        return pipeline_hops_s(n, tokens, hidden, interconnect_gbs, link_latency_s)

    bw_frac = achieved_fraction(bw_gbs, ep["bw_frac"], ep.get("bw_cap_gbs")) * ep["q_bw"]
    c_frac = achieved_fraction(peak_tflops, ep["compute_frac"], ep.get("compute_cap_tflops")) * ep["q_compute"]
    overhead = ep["pass_overhead_s"]  # per forward pass (one step), however many loops or layers

    # Prefill: all prompt tokens of the batch in one pass.
    pre_tokens = batch * prompt
    pre_c = prefill_compute_s(prefill_flops(active_b, loops, batch, prompt, layers, attn_dim),
                              par, peak_tflops, lowp, c_frac * ep["prefill_compute_scale"])
    pre_w = weight_read_s(weights_gb * moe_touched_fraction(active_b, params_b, pre_tokens) * loops,
                          par, bw_gbs, bw_frac)
    pre_comm = comm(pre_tokens)
    prefill = roofline_s(pre_c, pre_w, combine) + overhead + pre_comm

    # Decode: one step = one token for each of `batch` streams, at the mean context.
    ctx = prompt + (output - 1.0) / 2.0
    dec_c = prefill_compute_s(decode_flops(active_b, loops, batch, ctx, layers, attn_dim),
                              par, peak_tflops, lowp, c_frac)
    kv_read = kv_cache_gb(layers, kv_dim, kv_bytes, ctx, batch, loops, loop_kv_window)
    w_read = weights_gb * moe_touched_fraction(active_b, params_b, batch) * loops
    dec_m = weight_read_s(w_read + kv_read, par, bw_gbs, bw_frac)
    dec_comm = comm(batch)
    tpot = roofline_s(dec_c, dec_m, combine) + overhead + dec_comm
    decode = (output - 1.0) * tpot

    service = prefill + decode
    queue = queue_s(service, utilization, users, batch)
    ttft = net_s + queue + prefill
    return dict(
        network=net_s + 0.0 * prefill, queue=queue, prefill=prefill, decode=decode,
        ttft_s=ttft, tpot_s=tpot, total_s=ttft + decode,
        prefill_tokens_per_s=pre_tokens / prefill, decode_tokens_per_s=1.0 / tpot,
        throughput_tokens_per_s=batch / tpot,
        memory_gb=mem_gb, weights_gb=weights_gb, kv_cache_gb=kv_total_gb,
        devices_needed=n, fits=fits, fits_one_device=mem_gb <= device_mem_gb,
        prefill_compute_bound=pre_c >= pre_w, decode_compute_bound=dec_c >= dec_m,
    )


# --------------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Estimate:
    """Result of `estimate`. Times in seconds, rates in tokens per second.

    breakdown: {"network", "queue", "prefill", "decode"} summing to total_s.
    ranges: (low, high) for ttft_s, tpot_s, total_s, decode_tokens_per_s, prefill_tokens_per_s,
    from the spread of the calibration's leave-one-device-out residuals (10th-90th percentile).
    bottleneck: {"prefill": "compute"|"memory", "decode": "compute"|"memory"}.
    fits: the model fits on devices_needed devices within the hardware's max_devices.
    calibrated: the (engine, hardware kind) pair had calibration data (else wider ranges).
    """

    ttft_s: float
    tpot_s: float
    total_s: float
    prefill_tokens_per_s: float
    decode_tokens_per_s: float
    throughput_tokens_per_s: float
    breakdown: dict[str, float]
    memory_gb: float
    weights_gb: float
    kv_cache_gb: float
    devices_needed: int
    fits: bool
    fits_one_device: bool
    bottleneck: dict[str, str]
    ranges: dict[str, tuple[float, float]]
    engine: str
    calibrated: bool
    inputs: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """Flat plain-Python dict (for CSV export): breakdown_*, *_low/*_high, bottleneck_*."""
        out: dict[str, Any] = dict(self.inputs)
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name == "breakdown":
                out.update({f"{k}_s": x for k, x in v.items()})
            elif f.name == "ranges":
                for k, (lo, hi) in v.items():
                    out[f"{k}_low"], out[f"{k}_high"] = lo, hi
            elif f.name == "bottleneck":
                out.update({f"bottleneck_{k}": x for k, x in v.items()})
            elif f.name != "inputs":
                out[f.name] = v
        return out


def round_trip_s(distance_km) -> float:
    """One backbone round trip over real fibre routes, seconds: no access network, no handshakes.

    fixed + 2 x distance x route_inflation / (200 km/ms), fitted on shared/calibration/rtt.csv.
    Accepts a float or a numpy array of distances (km, >= 0).
    """
    p = load_params()["network"]
    if isinstance(distance_km, np.ndarray):
        d = distance_km.astype(float)
        if not np.all(np.isfinite(d)) or np.any(d < 0) or np.any(d > 40075):
            raise ValueError("distance_km must be finite numbers in [0, 40075] km")
        return backbone_rtt_s(d, p["fixed_ms"], p["route_inflation"])
    d = _real("distance_km", distance_km, lo=0, hi=40075, lo_open=False)
    return backbone_rtt_s(d, p["fixed_ms"], p["route_inflation"])


def _resolve_engine(engine, kind):
    if engine is None:
        return DEFAULT_ENGINE[kind]
    return _choice("engine", engine, (None,) + ENGINES)


def _lowp(model: Model, hardware: Hardware, engine: str, bpp) -> float:
    """FP8/INT8 tensor speed-up applies to W8A8 on the optimized engine (TensorRT-LLM FP8 rows)."""
    if engine != "optimized":
        return 1.0
    lp = model.low_precision_compute
    if lp is None:
        lp = 0.95 <= bpp <= 1.1
    return hardware.resolved("lowp_speedup") if lp else 1.0


def _engine_values(engine: str, kind: str, bpp: float, params: dict) -> dict:
    ep = engine_params(params, engine, kind)
    quantized = bpp < ep["native_min_bytes"]
    ep["q_bw"] = ep["quant_bw_eff"] if quantized else 1.0
    ep["q_compute"] = ep["quant_compute_eff"] if quantized else 1.0
    ep.setdefault("prefill_compute_scale", 1.0)
    ep["tensor_parallel"] = engine == "optimized"
    return ep


def _shape(model: Model, active_b):
    kv_dim = model.kv_dim
    if kv_dim is None and model.kv_heads and model.head_dim:
        kv_dim = model.kv_heads * model.head_dim
    attn = model.heads * model.head_dim if model.heads and model.head_dim else None
    return model_shape(active_b, model.layers, model.hidden_size, kv_dim, attn)


def _common_inputs(hardware: Hardware, engine, access, connection, devices, params):
    engine = _resolve_engine(engine, hardware.kind)
    _choice("access", access, ACCESS_NETWORKS)
    _choice("connection", connection, CONNECTIONS)
    if devices is not None:
        devices = float(_int("devices", devices, lo=1, hi=4096))
    return engine, devices


def estimate(model: Model, hardware: Hardware, prompt_tokens=512, output_tokens=256, batch=1,
             distance_km=0.0, engine=None, *, access: str = "wired", connection: str = "warm",
             utilization: float = 0.0, concurrent_users: float = 1, devices: int | None = None,
             params: dict | None = None) -> Estimate:
    """Estimate one request's latency. See the module docstring and docs/estimator.md.

    prompt_tokens, output_tokens, batch: >= 1. distance_km: user to server over the backbone,
    [0, 40075]. engine: None (by hardware kind: datacenter_gpu -> "optimized", else
    "llama.cpp"), "llama.cpp" or "optimized". access: "wired" (= fibre, 9.4 ms) | "fibre" |
    "cable" | "dsl" | "wifi" | "lte" | "5g" | "none". connection: "warm" (reused) | "cold"
    (TCP + TLS 1.3 first). utilization: server load in [0, 1) for the M/M/1 wait. concurrent_users:
    simultaneous requests including yours (>= 0; up to `batch` share the batch without waiting).
    devices: force a device count (default: the fewest that hold the model).
    """
    if not isinstance(model, Model):
        raise ValueError(f"model must be a latency.Model, got {type(model).__name__}")
    if not isinstance(hardware, Hardware):
        raise ValueError(f"hardware must be a latency.Hardware, got {type(hardware).__name__}")
    prompt = _real("prompt_tokens", prompt_tokens, lo=1, hi=1e8, lo_open=False)
    output = _real("output_tokens", output_tokens, lo=1, hi=1e8, lo_open=False)
    b = _real("batch", batch, lo=1, hi=1e6, lo_open=False)
    dist = _real("distance_km", distance_km, lo=0, hi=40075, lo_open=False)
    util = _real("utilization", utilization, lo=0, hi=1, lo_open=False, hi_open=True)
    users = _real("concurrent_users", concurrent_users, lo=0, hi=1e9, lo_open=False)
    params = params or load_params()
    engine, forced = _common_inputs(hardware, engine, access, connection, devices, params)

    bpp = float(model.bytes_per_param)
    ep = _engine_values(engine, hardware.kind, bpp, params)
    active = model.active_b
    net = params["network"]
    net_s = network_s(dist, access_rtt_s(access), SETUP_ROUND_TRIPS[connection],
                      net["fixed_ms"], net["route_inflation"], 1.0 if dist > 0 else 0.0)
    r = _core(params_b=float(model.params_b), active_b=active, bytes_per_param=bpp,
              loops=float(model.loops), loop_kv_window=model.loop_kv_window,
              shape=_shape(model, active), kv_bytes=float(model.kv_bytes),
              bw_gbs=float(hardware.mem_bandwidth_gbs), peak_tflops=float(hardware.peak_tflops),
              device_mem_gb=float(hardware.memory_gb), lowp=_lowp(model, hardware, engine, bpp),
              ep=ep, combine=params.get("combine", "max"), prompt=prompt, output=output, batch=b,
              forced_devices=forced, max_devices=hardware.resolved("max_devices"),
              interconnect_gbs=hardware.resolved("interconnect_gbs"),
              link_latency_s=hardware.resolved("link_latency_s"),
              net_s=net_s, utilization=util, users=users)
    breakdown = {k: float(r[k]) for k in STAGES}
    total = sum(breakdown.values())
    ranges = _ranges(params, ep["calibrated"], breakdown, r["tpot_s"], output, prompt * b)
    return Estimate(
        ttft_s=float(r["ttft_s"]), tpot_s=float(r["tpot_s"]), total_s=total,
        prefill_tokens_per_s=float(r["prefill_tokens_per_s"]),
        decode_tokens_per_s=float(r["decode_tokens_per_s"]),
        throughput_tokens_per_s=float(r["throughput_tokens_per_s"]),
        breakdown=breakdown, memory_gb=float(r["memory_gb"]), weights_gb=float(r["weights_gb"]),
        kv_cache_gb=float(r["kv_cache_gb"]), devices_needed=int(r["devices_needed"]),
        fits=bool(r["fits"]), fits_one_device=bool(r["fits_one_device"]),
        bottleneck={"prefill": "compute" if r["prefill_compute_bound"] else "memory",
                    "decode": "compute" if r["decode_compute_bound"] else "memory"},
        ranges=ranges, engine=engine, calibrated=bool(ep["calibrated"]),
        inputs=dict(model=model.name, hardware=hardware.name, prompt_tokens=prompt,
                    output_tokens=output, batch=b, distance_km=dist, access=access,
                    connection=connection, utilization=util, concurrent_users=users),
    )


def _band(params: dict, stage: str, calibrated: bool) -> tuple[float, float]:
    """(low, high) multiplicative factors on a stage's time. Uncalibrated (engine, kind) pairs get
    the log-band doubled."""
    lo, hi = params["bands"][stage]
    if not calibrated:
        lo, hi = lo * lo, hi * hi
    return lo, hi


def _ranges(params, calibrated, bd, tpot, output, prefill_tokens):
    nlo, nhi = _band(params, "network", True)
    plo, phi = _band(params, "prefill", calibrated)
    dlo, dhi = _band(params, "decode", calibrated)
    ttft = (bd["network"] * nlo + bd["queue"] + bd["prefill"] * plo,
            bd["network"] * nhi + bd["queue"] + bd["prefill"] * phi)
    tp = (tpot * dlo, tpot * dhi)
    return {
        "ttft_s": ttft,
        "tpot_s": tp,
        "total_s": (ttft[0] + (output - 1) * tp[0], ttft[1] + (output - 1) * tp[1]),
        "decode_tokens_per_s": (1.0 / tp[1], 1.0 / tp[0]),
        "prefill_tokens_per_s": (prefill_tokens / (bd["prefill"] * phi),
                                 prefill_tokens / (bd["prefill"] * plo)),
    }


_SWEEP_ARRAYS = ("params_b", "bytes_per_param", "mem_bandwidth_gbs", "peak_tflops", "prompt_tokens",
                 "output_tokens", "batch", "distance_km", "utilization", "concurrent_users")


def estimate_sweep(model: Model, hardware: Hardware, *, params_b=None, bytes_per_param=None,
                   mem_bandwidth_gbs=None, peak_tflops=None, prompt_tokens=512, output_tokens=256,
                   batch=1, distance_km=0.0, engine=None, access: str = "wired",
                   connection: str = "warm", utilization=0.0, concurrent_users=1,
                   devices: int | None = None, params: dict | None = None) -> dict[str, np.ndarray]:
    """Vectorised `estimate`: the numeric inputs may be numpy arrays, broadcast together.

    params_b / bytes_per_param / mem_bandwidth_gbs / peak_tflops override the model's or the
    hardware's value (None keeps it); for MoE models active params scale with params_b. Returns
    a dict of float arrays: network, queue, prefill, decode, ttft_s, tpot_s, total_s,
    prefill_tokens_per_s, decode_tokens_per_s, throughput_tokens_per_s, memory_gb, weights_gb,
    kv_cache_gb, devices_needed, and 0/1 arrays fits, fits_one_device. The quantisation
    efficiency follows the model's bytes_per_param (not the swept one). Invalid values raise
    ValueError naming the field.
    """
    params = params or load_params()
    engine, forced = _common_inputs(hardware, engine, access, connection, devices, params)
    raw = dict(params_b=model.params_b if params_b is None else params_b,
               bytes_per_param=model.bytes_per_param if bytes_per_param is None else bytes_per_param,
               mem_bandwidth_gbs=hardware.mem_bandwidth_gbs if mem_bandwidth_gbs is None else mem_bandwidth_gbs,
               peak_tflops=hardware.peak_tflops if peak_tflops is None else peak_tflops,
               prompt_tokens=prompt_tokens, output_tokens=output_tokens, batch=batch,
               distance_km=distance_km, utilization=utilization, concurrent_users=concurrent_users)
    limits = dict(params_b=(0, 1e5, True), bytes_per_param=(0, 8, True), mem_bandwidth_gbs=(0, 1e6, True),
                  peak_tflops=(0, 1e6, True), prompt_tokens=(1, 1e8, False), output_tokens=(1, 1e8, False),
                  batch=(1, 1e6, False), distance_km=(0, 40075, False), utilization=(0, 1, False),
                  concurrent_users=(0, 1e9, False))
    arrs = {}
    for k in _SWEEP_ARRAYS:
        a = np.asarray(raw[k], dtype=float)
        lo, hi, lo_open = limits[k]
        bad = ~np.isfinite(a) | ((a <= lo) if lo_open else (a < lo)) | ((a >= hi) if k == "utilization" else (a > hi))
        if np.any(bad):
            first = a[bad].flat[0] if a.ndim else a
            br = "(" if lo_open else "["
            raise ValueError(f"{k} must be finite numbers in {br}{lo:g}, {hi:g}{')' if k == 'utilization' else ']'}, got {first!r}")
        arrs[k] = a
    arrs = dict(zip(arrs, np.broadcast_arrays(*arrs.values())))
    bpp0 = float(model.bytes_per_param)
    ep = _engine_values(engine, hardware.kind, bpp0, params)
    pb = arrs["params_b"]
    active = pb * (model.active_b / model.params_b)
    net = params["network"]
    d = arrs["distance_km"]
    net_s = network_s(d, access_rtt_s(access), SETUP_ROUND_TRIPS[connection], net["fixed_ms"],
                      net["route_inflation"], (d > 0) * 1.0)
    shape = _shape(model, active)
    r = _core(params_b=pb, active_b=active, bytes_per_param=arrs["bytes_per_param"],
              loops=float(model.loops), loop_kv_window=model.loop_kv_window, shape=shape,
              kv_bytes=float(model.kv_bytes), bw_gbs=arrs["mem_bandwidth_gbs"],
              peak_tflops=arrs["peak_tflops"], device_mem_gb=float(hardware.memory_gb),
              lowp=_lowp(model, hardware, engine, bpp0), ep=ep, combine=params.get("combine", "max"),
              prompt=arrs["prompt_tokens"], output=arrs["output_tokens"], batch=arrs["batch"],
              forced_devices=forced, max_devices=hardware.resolved("max_devices"),
              interconnect_gbs=hardware.resolved("interconnect_gbs"),
              link_latency_s=hardware.resolved("link_latency_s"), net_s=net_s,
              utilization=arrs["utilization"], users=arrs["concurrent_users"])
    out = {k: np.asarray(v, dtype=float) for k, v in r.items()
           if k not in ("prefill_compute_bound", "decode_compute_bound")}
    out["total_s"] = out["network"] + out["queue"] + out["prefill"] + out["decode"]
    return out


__all__ = [
    "Hardware", "Model", "Estimate", "estimate", "estimate_sweep", "round_trip_s", "KINDS", "ENGINES",
    "ARCHITECTURES", "ACCESS_NETWORKS", "CONNECTIONS", "STAGES", "DEFAULT_ENGINE", "KIND_DEFAULTS",
    "load_params", "calibration_dir", "model_shape", "kv_cache_gb", "memory_gb", "queue_s",
]
