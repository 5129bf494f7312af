"""End-to-end LLM inference latency: a small physical model calibrated on published measurements.

    from latency import Hardware, Model, estimate, estimate_sweep, round_trip_s

    e = estimate(model, hardware, prompt_tokens=512, output_tokens=256, batch=1, distance_km=0.0,
                 engine=None, *, access="wired", connection="warm", utilization=0.0,
                 concurrent_users=1, context_tokens=0, devices=None)

A request goes through four stages. Each is one named function below, with its formula and its
sources in the docstring (docs/estimator.md collects them); `request_times` chains them:

    network  network.network_s   access RTT + backbone RTT, times (set-up round trips + 1)
    queue    queue_s             waiting for other users only: M/M/1 wait at a given utilisation +
                                 waiting for a KV-cache slot (0 with one user at utilisation 0)
    prefill  prefill_s           the engine's own request handling (`overhead_s`) + prompt FLOPs
                                 over achieved compute + one weight read + per-pass overhead;
                                 first_token_compute_share: the part of a shared batch's prompt
                                 compute one user waits for
    decode   decode_step_s       (weights + KV cache of every running stream) over achieved bandwidth
                                 + the batch's FLOPs over achieved compute + per-step overheads

    ttft_s  = network + queue + prefill           (prefill ends with the first token)
    total_s = ttft_s + (output_tokens - 1) * tpot_s

Many users on one server (`concurrent_users` N): the server runs min(N, kv_capacity_requests)
requests as one continuously batched set of streams (`running_batch`); the rest wait for a slot.
Long conversations (`context_tokens` C): tokens already in the KV cache before this prompt; every
decode step reads them and the prompt's attention spans them, but they cost no prefill.

The free parameters (achieved fractions of bandwidth and compute per engine and hardware kind, for
llama.cpp on discrete GPUs one saturating curve of peak bandwidth and one of peak compute
(`achieved_fraction`), the per-forward-pass and per-stream overheads, route inflation, ...) live in
latency/estimation/fitted_params.json, written by `python -m latency.calibrate` from shared/calibration/.
Every other number is a named constant in latency/estimation/constants.py beside its source.

Vectorised sweep: `estimate_sweep(model, hardware, **inputs)` takes the same inputs as `estimate`,
where `params_b`, `bytes_per_param`, `mem_bandwidth_gbs`, `peak_tflops`, `prompt_tokens`,
`output_tokens`, `batch`, `distance_km`, `utilization`, `concurrent_users`, `context_tokens` may be
numpy arrays (broadcast together with np.broadcast_arrays). It runs the same `request_times` and
returns a dict of numpy arrays; 10,000 scenarios take a few milliseconds
(benchmarks/bench_estimator.py). When sweeping `params_b`, pass a model without layer/head fields
so the shape scales with size.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from latency.estimation import _num as nm
from latency.estimation.constants import (  # noqa: F401  (re-exported: other modules read them from here)
    ACTIVATION_BYTES,
    ALLREDUCE_BUS_EFFICIENCY,
    ALLREDUCES_PER_LAYER,
    ASPECT_RATIO,
    DEFAULT_KV_DIM,
    FLOPS_PER_PARAM_PER_TOKEN,
    FP4_ACHIEVED_SHARE,
    GIGA,
    INTERNODE_GBS,
    INTERNODE_LATENCY_S,
    KV_TENSORS,
    FP8_MATMUL_SPEEDUP,
    LOWP_ACHIEVED_SHARE,
    MOE_EXPERT_BW_EFF,
    MOE_LAYER_EXTRA_FLOOR_S,
    MOE_COMPUTE_SHARE,
    ROUTED_ACTIVE_SHARE,
    DEEPGEMM_MOE_EXTRA_S,
    DEEPGEMM_MOE_FADE_TOKENS,
    MAX_DISTANCE_KM,
    NODE_SIZE,
    PARAMS_PER_LAYER_D2,
    RUNTIME_OVERHEAD_FRACTION,
    SATURATION_SHARPNESS,
    TERA,
    W8A8_BYTES_PER_PARAM,
)
from latency.estimation import engines as eng
from latency.estimation.network import ACCESS_RTT_MS, SETUP_ROUND_TRIPS, access_rtt_s, backbone_rtt_s, network_s
from latency.estimation.serving import max_running_requests, steady_state, token_budget_tokens

KINDS = ("datacenter_gpu", "desktop_gpu", "apple_silicon", "integrated_gpu", "cpu", "mobile")
ENGINES = ("llama.cpp", "optimized")
"""The two fitted families: local runners and serving engines. `engine=` also accepts a serving
engine by name (SERVING_ENGINES: "vllm", "tensorrt-llm", "sglang", "llama.cpp", and the aliases in
latency.estimation.engines.ALIASES, e.g. "nim"), which runs its family's fitted physics with that
engine's own defaults (request overhead, memory share, KV-cache precision and admission);
"optimized" stands for vLLM's defaults."""
SERVING_ENGINES = eng.SERVING_ENGINES
ARCHITECTURES = ("dense", "moe", "looped")
ACCESS_NETWORKS = tuple(ACCESS_RTT_MS)
CONNECTIONS = tuple(SETUP_ROUND_TRIPS)
STAGES = ("network", "queue", "prefill", "decode")
WEIGHT_FORMATS = ("fp16", "fp8", "int8", "int4", "fp4", "gguf")
"""How weights are stored and computed: FP16/BF16; FP8 or INT8 (W8A8 on serving engines, native
tensor rate); INT4 (GPTQ/AWQ weight-only, dequantised in the kernel); FP4 (NVFP4/MXFP4 W4A4 on
devices with FP4 tensor cores); GGUF (llama.cpp's block formats, its fitted dequantisation)."""
ARRIVALS = ("steady", "burst")
"""How `concurrent_users` N arrive. "steady" (default): N people using the service, each sending a
new request when the previous answer has arrived (after `think_s`), the closed loop of serving
benchmarks at fixed concurrency (latency.estimation.serving). "burst": all N requests arrive in
the same instant (a room pressing enter together): one shared prefill, the rest wait for a slot."""
MAX_THINK_S = 3600.0

PARAMS_PATH = Path(__file__).with_name("fitted_params.json")


def calibration_dir() -> Path:
    """shared/calibration next to the repository (override with LATENCY_CALIBRATION_DIR)."""
    env = os.environ.get("LATENCY_CALIBRATION_DIR")
    return Path(env) if env else Path(__file__).resolve().parents[3] / "shared" / "calibration"


# --------------------------------------------------------------------------------------------
# Defaults by hardware kind and by engine (sources inline)
# --------------------------------------------------------------------------------------------

# Defaults by hardware kind, used when a Hardware leaves the optional field as None.
#   lowp_speedup:     FP8/INT8 tensor throughput / FP16 (H100/H200/B200/L4/L40S/MI300X/RTX 40:
#                     2x per vendor datasheets; A100/RTX 30: 2x for INT8). Apple/CPU/iGPU: 1.
#   interconnect_gbs: one direction, per device: NVLink 3 on A100 = 600 GB/s total = 300 each
#                     way; PCIe 4.0 x16 ~32 GB/s each way; Thunderbolt 4 = 40 Gb/s = 5 GB/s;
#                     CPU servers over 200 GbE = 25 GB/s.
#   link_latency_s:   one small all-reduce. NVLink 5 us: the serving engines' custom all-reduce
#                     of up to 16 KB, replayed in a CUDA graph, measured by NVIDIA's aiconfigurator
#                     at 4.1-6.1 us on A100 SXM (vLLM 0.14.0, TensorRT-LLM 1.0.0), 2.8-4.9 us on
#                     H100 SXM (TensorRT-LLM 1.3.0rc20, vLLM 0.24.0) and 6.6-7.4 us on B200 (vLLM
#                     0.24.0), on 2-8 GPUs (medians per GPU count; systems/data/*/comm/*/
#                     custom_allreduce_perf.parquet, read at 095f58a); round 4 assumed 10 us.
#                     PCIe 25 us, Ethernet 50 us, Thunderbolt 100 us, phone 1 ms: ASSUMPTIONS
#                     (orders of magnitude; no citable figure found). Not fitted.
#   max_devices:      the most devices one deployment may use: 8-GPU nodes up to 8 nodes for
#                     datacenter GPUs; one 8-GPU workstation for desktop GPUs; a 4-machine
#                     Thunderbolt cluster for Apple; 1 for laptops' iGPUs and phones.
KIND_DEFAULTS: dict[str, dict[str, float]] = {
    "datacenter_gpu": dict(lowp_speedup=2.0, interconnect_gbs=300.0, link_latency_s=5e-6, max_devices=64),
    "desktop_gpu": dict(lowp_speedup=2.0, interconnect_gbs=32.0, link_latency_s=25e-6, max_devices=8),
    "apple_silicon": dict(lowp_speedup=1.0, interconnect_gbs=5.0, link_latency_s=100e-6, max_devices=4),
    "integrated_gpu": dict(lowp_speedup=1.0, interconnect_gbs=5.0, link_latency_s=100e-6, max_devices=1),
    "cpu": dict(lowp_speedup=1.0, interconnect_gbs=25.0, link_latency_s=50e-6, max_devices=4),
    "mobile": dict(lowp_speedup=1.0, interconnect_gbs=1.0, link_latency_s=1e-3, max_devices=1),
}

DEFAULT_ENGINE = {k: ("optimized" if k == "datacenter_gpu" else "llama.cpp") for k in KINDS}

FIRST_TOKEN_AFTER_WHOLE_BATCH = {"llama.cpp": True, "optimized": False}
"""How a batch of prompts that arrive together is prefilled. llama.cpp (llama-server slots,
llama-batched-bench) evaluates the prompts of all slots in the same ubatch passes, so every user's
first token comes after the whole batch's prefill (shared/calibration README: "ttft_ms here is the
time to prefill all B prompts"). Serving engines (vLLM, TensorRT-LLM) schedule prompts first come,
first served in chunks, so the k-th prompt's first token comes after k prompts: on average
(B + 1) / 2 of B (vLLM docs, "Optimization and Tuning: chunked prefill")."""


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
    device), link_latency_s (one small all-reduce), max_devices. fp8: the device has FP8 tensor
    cores (H100/H200/B200, L4/L40S, RTX 40/50, MI300X; None = no): serving engines run 8-bit
    weights as FP8 with an FP8 KV cache there. fp4_speedup: FP4 tensor throughput / dense FP16
    (B200 NVFP4: 9 / 2.25 = 4; None = no FP4 tensor cores): 4-bit weights run as NVFP4 (W4A4).
    memory_gb is as quoted (binary units: an "80 GB" GPU holds 80 GiB = 85.9 decimal GB).
    fp16_acc_tflops: dense FP16 tensor throughput with FP16 accumulation where it differs from
    peak_tflops (GeForce cards: twice the FP32-accumulate figure, NVIDIA's Ampere GA10x and Ada
    whitepapers; RTX 4090 330.3 against 165.2): llama.cpp's cuBLAS matmuls run at it
    (`compute_peak_tflops`).
    compute_capability: an NVIDIA GPU's CUDA compute capability (NVIDIA's CUDA GPUs list: A100
    8.0, H100/H200 9.0, B200 10.0, RTX 4090 8.9, GB10 12.1; None: not an NVIDIA GPU or not
    given): which kernels a serving engine picks there (`moe_small_batch_extra_s`).
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
    fp8: bool | None = None
    fp4_speedup: float | None = None
    fp16_acc_tflops: float | None = None
    compute_capability: float | None = None

    def __post_init__(self) -> None:
        _choice("kind", self.kind, KINDS)
        if self.compute_capability is not None:
            _real("compute_capability", self.compute_capability, lo=1, hi=20, lo_open=False)
        if self.fp8 not in (None, True, False):
            raise ValueError(f"fp8 must be None, True or False, got {self.fp8!r}")
        if self.fp4_speedup is not None:
            _real("fp4_speedup", self.fp4_speedup, lo=1, hi=32, lo_open=False)
        if self.fp16_acc_tflops is not None:
            _real("fp16_acc_tflops", self.fp16_acc_tflops, lo=0, hi=1e6)
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
    attention_layers: layers whose attention spans the whole context (default: every layer).
    Sliding-window layers (gpt-oss, Gemma 3) and recurrent layers (Mamba in hybrid models) keep
    a bounded state instead. window_layers, window_tokens: the sliding-window layers and their
    window (config.json sliding_window); each keeps and reads the KV cache of at most the window
    plus what the engine keeps beyond it (`window_kv_cache_gb`). None: no window layers counted.
    low_precision_compute: run matmuls in FP8/INT8 (W8A8) on the optimized engine; None = yes
    for 8-bit weights (bytes_per_param 0.95 to 1.1), no otherwise; False with 8-bit weights =
    weight-only INT8 (W8A16, dequantised in the kernel: WEIGHT_ONLY_INT8_BW_EFF).
    weight_format: one of WEIGHT_FORMATS; None = from bytes_per_param and the hardware
    (`weight_format_of`). file_gb: the model file's size in decimal GB (as Hugging Face lists it);
    when given, bytes_per_param = file_gb / params_b (a GGUF quant whose bits per weight is not
    printed, e.g. Unsloth's "UD-Q4_K_XL").
    recurrent_state_gb: the fixed-size state each running sequence keeps in a hybrid model's
    recurrent (Mamba) layers, GB per sequence (`mamba2_state_gb`); every decode step reads and
    writes all of it, and the engine holds it beside the KV cache (0: no recurrent layers).
    extra_allreduces_per_layer: all-reduces a tensor-parallel layer needs beyond Megatron's two, each of a
    few bytes per token (so its link latency is its cost): MiniMax M2's QK norm spans all heads, so
    vLLM all-reduces the per-token variances of q and k across the ranks in every layer (1; vllm/
    model_executor/models/minimax_m2.py -> MiniMaxText01RMSNormTP.forward_qk). 0: none.
    expert_params_b, expert_active_b: an MoE's parameters in its routed experts, in all and per
    token, from its model card; the rest of active_params_b (attention, router, output layer,
    shared experts) is read by every token, so a step of n tokens reads it once and the experts'
    share 1 - (1 - expert_active/expert_params)^n (`weights_touched_fraction`). None: the whole
    model counts as routed experts, share active/total. On a serving engine a prefill computes the
    routed experts' share of the active parameters (expert_active_b / active_params_b; without the
    split ROUTED_ACTIVE_SHARE, the median of eight model cards) at MOE_COMPUTE_SHARE of the dense
    rate (`moe_compute_active_b`). expert_bytes_per_param: the experts'
    storage where it differs from the rest (gpt-oss ships MXFP4 experts beside 16-bit attention and
    output layer; an 8-bit GGUF of it keeps the experts MXFP4); bytes_per_param stays the file's
    average, so the rest is stored at (file - experts) / (params - expert_params).
    fp8_block_scaled: the model's FP8 checkpoint keeps one scale per 128 x 128 block of weights
    (config.json quantization_config weight_block_size [128, 128]: DeepSeek-V3, Qwen3's FP8
    releases, MiniMax M2), not one per tensor (ModelOpt FP8); serving engines pick other MoE
    kernels for it (`moe_small_batch_extra_s`).
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
    attention_layers: int | None = None
    window_layers: int | None = None
    window_tokens: int | None = None
    weight_format: str | None = None
    file_gb: float | None = None
    recurrent_state_gb: float = 0.0
    extra_allreduces_per_layer: int = 0
    expert_params_b: float | None = None
    expert_active_b: float | None = None
    expert_bytes_per_param: float | None = None
    fp8_block_scaled: bool = False

    def __post_init__(self) -> None:
        _real("params_b", self.params_b, lo=0, hi=1e5)
        if self.fp8_block_scaled not in (True, False):
            raise ValueError(f"fp8_block_scaled must be True or False, got {self.fp8_block_scaled!r}")
        _real("recurrent_state_gb", self.recurrent_state_gb, lo=0, hi=100, lo_open=False)
        _real("extra_allreduces_per_layer", self.extra_allreduces_per_layer, lo=0, hi=8, lo_open=False)
        if self.file_gb is not None:
            # A model given by its file size (a GGUF such as Unsloth's "UD-Q4_K_XL", whose bytes per
            # parameter is printed nowhere): its bytes per parameter is the file over the parameters.
            gb = _real("file_gb", self.file_gb, lo=0, hi=8 * float(self.params_b))
            object.__setattr__(self, "bytes_per_param", gb / float(self.params_b))
        _real("bytes_per_param", self.bytes_per_param, lo=0, hi=8)
        if self.weight_format is not None:
            _choice("weight_format", self.weight_format, WEIGHT_FORMATS)
        if self.active_params_b is not None:
            _real("active_params_b", self.active_params_b, lo=0, hi=self.params_b)
        if self.architecture is not None:
            _choice("architecture", self.architecture, ARCHITECTURES)
        if (self.expert_params_b is None) != (self.expert_active_b is None):
            raise ValueError("expert_params_b and expert_active_b go together")
        if self.expert_params_b is not None:
            _real("expert_params_b", self.expert_params_b, lo=0, hi=self.params_b)
            _real("expert_active_b", self.expert_active_b, lo=0, hi=min(self.expert_params_b, self.active_b))
        if self.expert_bytes_per_param is not None:
            if self.expert_params_b is None:
                raise ValueError("expert_bytes_per_param needs expert_params_b")
            _real("expert_bytes_per_param", self.expert_bytes_per_param, lo=0,
                  hi=self.bytes_per_param * self.params_b / self.expert_params_b)
        _int("loops", self.loops, lo=1, hi=64)
        for name in ("loop_kv_window", "layers", "hidden_size", "heads", "kv_heads", "head_dim", "kv_dim",
                     "attention_layers", "window_layers", "window_tokens"):
            if getattr(self, name) is not None:
                _int(name, getattr(self, name), lo=1, hi=10**7)
        if (self.window_layers is None) != (self.window_tokens is None):
            raise ValueError("window_layers and window_tokens go together")
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
    """The fitted parameters (latency/estimation/fitted_params.json), cached (at most 4 files)."""
    key = str(path or PARAMS_PATH)
    if key not in _PARAMS_CACHE:
        with open(key, encoding="utf-8") as f:
            params = json.load(f)
        while len(_PARAMS_CACHE) >= _PARAMS_CACHE_MAX:
            _PARAMS_CACHE.pop(next(iter(_PARAMS_CACHE)))
        _PARAMS_CACHE[key] = params
    return _PARAMS_CACHE[key]


MIN_CALIBRATION_DEVICES = 2
"""An (engine, kind) counts as calibrated (narrower ranges) only with rows from at least two
devices: one device cannot tell how the next device of its kind differs (the DGX Spark is the
only integrated GPU in the data; an AMD iGPU under Vulkan is not like it)."""


def engine_params(params: dict, engine: str, kind: str) -> dict:
    """Achieved fractions etc. for one (engine, hardware kind); kinds without calibration data
    use the engine's "default" entry (geometric mean of the fitted kinds). `calibrated`: the kind
    had rows from MIN_CALIBRATION_DEVICES devices (older parameter files: any rows)."""
    eng = params["engines"][engine]
    kinds = eng["kinds"]
    out = {k: v for k, v in eng.items() if k not in ("kinds", "calibration_devices")}
    out.update(kinds.get(kind, kinds["default"]))  # per-kind values override engine-wide ones
    devices = eng.get("calibration_devices", {}).get(kind, MIN_CALIBRATION_DEVICES)
    out["calibrated"] = kind in kinds and devices >= MIN_CALIBRATION_DEVICES
    return out


# --------------------------------------------------------------------------------------------
# Stage functions: one physical quantity each, on floats or numpy arrays alike
# --------------------------------------------------------------------------------------------

def model_shape(active_params_b, layers=None, hidden_size=None, kv_dim=None, attn_dim=None):
    """Layers, hidden size, KV width and attention width; estimated where the config is missing.

    layers = cbrt(P / (12 x 128^2)) from P = 12 x L x d^2 (Kaplan et al. 2020) with d = 128 L
    (ASPECT_RATIO); hidden = 128 x layers; kv width = min(1024, hidden / 4) (DEFAULT_KV_DIM);
    attention width = hidden. P is the active parameter count.
    """
    est_layers = nm.cbrt(active_params_b * GIGA / (PARAMS_PER_LAYER_D2 * ASPECT_RATIO**2))
    layers = est_layers if layers is None else layers
    hidden = ASPECT_RATIO * est_layers if hidden_size is None else hidden_size
    kv = nm.minimum(DEFAULT_KV_DIM, hidden / 4.0) if kv_dim is None else kv_dim
    attn = hidden if attn_dim is None else attn_dim
    return layers, hidden, kv, attn


def weights_gb(params_b, bytes_per_param):
    """Weight storage, GB: parameters x bytes per parameter (content/precisions.yaml)."""
    return params_b * bytes_per_param


def kv_cache_gb(layers, kv_dim, kv_bytes, context_tokens, batch, loops=1, loop_kv_window=None):
    """KV cache, GB: 2 (K and V) x layers x kv_dim x bytes x context x batch, per loop.

    `layers` are the layers whose attention spans the whole context (Model.attention_layers).
    Looped models run the shared layers `loops` times and each pass keeps its own K/V
    (looped-transformer papers; IQuest-Coder-V1 tech report, arXiv 2603.16733, section 2.1),
    so the cache grows with the loop count. IQuest's loops 2..L keep only a sliding window
    (config.json loop_window_size): then those loops cost min(context, window) tokens each.
    """
    per_token_gb = KV_TENSORS * layers * kv_dim * kv_bytes / GIGA
    if loop_kv_window is None:
        tokens = context_tokens * loops
    else:
        tokens = context_tokens + (loops - 1) * nm.minimum(context_tokens, float(loop_kv_window))
    return per_token_gb * tokens * batch


def window_kv_cache_gb(window_layers, kv_dim, kv_bytes, context_tokens, cells, batch):
    """KV cache of the sliding-window layers, GB: 2 (K and V) x window layers x kv_dim x bytes x
    min(context, cells) x batch, where `cells` is what one such layer keeps per sequence: the
    window itself on engines that free what falls out of it (vLLM's hybrid KV-cache manager,
    TensorRT-LLM's cyclic cache), the window plus one physical batch on llama.cpp, whose
    sliding-window cache holds n_swa + n_ubatch cells (src/llama-kv-cache-iswa.cpp: size_swa =
    GGML_PAD(n_swa + n_ubatch, n_pad)) and whose attention reads every cell of it that is in use
    (EngineProfile.window_extra_cells). A decode step reads all of it, as it reads the rest of the
    KV cache."""
    return KV_TENSORS * window_layers * kv_dim * kv_bytes * nm.minimum(context_tokens, cells) * batch / GIGA


def mamba2_state_gb(mamba_layers, heads, head_dim, state_size, n_groups, conv_kernel,
                    ssm_bytes=4.0, conv_bytes=2.0):
    """The recurrent state one sequence keeps in a hybrid model's Mamba-2 layers, GB:

        layers x (heads x head_dim x state_size x ssm bytes
                  + (heads x head_dim + 2 x n_groups x state_size) x (conv_kernel - 1) x conv bytes)

    the SSM state and the convolution's last conv_kernel - 1 inputs of every channel, the shapes
    vLLM allocates per request (vllm/model_executor/layers/mamba/mamba_utils.py,
    MambaStateShapeCalculator.mamba2_state_shape: temporal state (heads, head_dim, state_size),
    conv state (conv_kernel - 1, intermediate + 2 x n_groups x state_size)). It does not grow with
    the context, and every decode step reads and writes all of it (the selective-state-update and
    causal-conv1d-update kernels, one token per sequence). vLLM keeps the SSM state of Nemotron-H in
    FP32 by default (the model's config.json: mamba_ssm_cache_dtype "float32"; vLLM's
    NemotronHForCausalLMConfig.DEFAULT_MAMBA_SSM_CACHE_DTYPE, "only float32 is known to have no
    accuracy issues"), the convolution state in the model's dtype (BF16)."""
    inner = heads * head_dim
    per_layer = inner * state_size * ssm_bytes + (inner + 2.0 * n_groups * state_size) * (conv_kernel - 1.0) * conv_bytes
    return mamba_layers * per_layer / GIGA


def memory_gb(weights_gb, kv_gb):
    """The earlier rule of thumb, kept for callers that size memory without an engine: weights x
    1.2 (RUNTIME_OVERHEAD_FRACTION) + KV cache. The estimator itself now spends memory as the
    engine does (`engine_overhead_gb`, `kv_budget_gb`)."""
    return weights_gb * (1.0 + RUNTIME_OVERHEAD_FRACTION) + kv_gb


def device_capacity_gb(memory_gb_quoted):
    """A device's memory in decimal GB: quoted memory is binary (JEDEC; an "80 GB" H100 or A100
    holds 80 GiB = 85.9 GB; engines.GIB_GB)."""
    return memory_gb_quoted * eng.GIB_GB


def activation_coefficient(devices, ep):
    """Activation bytes per token per hidden unit per device at this tensor-parallel degree
    (aiconfigurator's per-backend ACTIVATION_COEFFICIENTS: 1, 2, 4 and 8 devices; beyond 8 as 8)."""
    return nm.where(devices <= 1.0, ep["act_c1"], nm.where(devices <= 2.0, ep["act_c2"],
                                                           nm.where(devices <= 4.0, ep["act_c4"], ep["act_c8"])))


def engine_overhead_gb(devices, hidden, ep, tensor_parallel):
    """Memory one device spends beside weights and KV cache, GB: the runtime (CUDA context,
    workspaces, CUDA graphs: engines.RUNTIME_GIB), NCCL buffers when tensor parallel
    (engines.NCCL_GIB), and activations for the most tokens one step carries:
    2 bytes x act_tokens x hidden x coefficient(devices) (aiconfigurator
    BaseBackend._get_memory_usage)."""
    nccl = nm.where(devices <= 1.0, 0.0, nm.where(devices <= 2.0, eng.NCCL_GIB[2], eng.NCCL_GIB[4])) * eng.GIB_GB
    act = ACTIVATION_BYTES * ep["act_tokens"] * hidden * activation_coefficient(devices, ep) / GIGA
    return ep["runtime_gb"] + nm.where(tensor_parallel, nccl, 0.0) + act


def kv_budget_gb(devices, device_gb, weights_gb, overhead_gb, ep):
    """KV-cache room the engine sets aside on `devices` devices, GB (0 when not even the weights fit):

        of total memory (vLLM gpu_memory_utilization, SGLang mem_fraction_static, llama.cpp 1):
            devices x (fraction x device memory - weights / devices - overhead)
        of free memory (TensorRT-LLM free_gpu_memory_fraction):
            devices x fraction x (device memory - weights / devices - overhead)

    (aiconfigurator sdk/memory.py kv_cache_budget_bytes: the same two formulas.) Weights are split
    over the devices (tensor parallel or llama.cpp's layer split alike)."""
    non_kv = weights_gb / devices + overhead_gb
    free = device_gb - non_kv
    per = nm.where(ep["fraction_of_free"] > 0.5, ep["mem_fraction"] * free, ep["mem_fraction"] * device_gb - non_kv)
    return devices * nm.maximum(per, 0.0)


DEVICE_COUNTS = tuple(2.0**i for i in range(13))
"""Device counts a deployment may take: powers of two (the tensor-parallel degree divides the head
count: 1, 2, 4, 8, then whole nodes), up to 4,096."""


def fewest_devices(need_kv_gb, device_gb, weights_gb, hidden, ep, tensor_parallel):
    """The fewest devices (DEVICE_COUNTS) whose KV budget holds `need_kv_gb` beside the weights and
    the engine's overhead; 8,192 when none up to 4,096 does."""
    if nm.is_scalar(need_kv_gb) and nm.is_scalar(weights_gb) and nm.is_scalar(device_gb):
        for n in DEVICE_COUNTS:  # one set-up: the first count that holds it (usually 1-3 tries)
            budget = kv_budget_gb(n, device_gb, weights_gb, engine_overhead_gb(n, hidden, ep, tensor_parallel), ep)
            if budget >= need_kv_gb and budget > 0.0:
                return n
        return 8192.0
    out = nm.broadcast_like(8192.0, need_kv_gb + 0.0 * weights_gb)
    found = np.zeros(np.shape(out), dtype=bool)
    for n in DEVICE_COUNTS:  # ascending, each entry's first count that holds it; done when every entry has one
        budget = kv_budget_gb(n, device_gb, weights_gb, engine_overhead_gb(n, hidden, ep, tensor_parallel), ep)
        holds = (budget >= need_kv_gb) & (budget > 0.0) & ~found
        out = np.where(holds, n, out)
        found = found | holds
        if found.all():
            break
    return out


def devices_for_memory(total_gb, device_memory_gb):
    """Devices needed to hold `total_gb`: ceil(total / per-device memory), rounded up to a power
    of two (tensor-parallel degree must divide the head count: 1, 2, 4, 8, then whole nodes)."""
    return nm.pow2_ceil(total_gb / device_memory_gb)


def kv_capacity_requests(devices, device_memory_gb, weights_gb, kv_per_request_gb, kv_budget=None,
                         kv_whole_request_gb=None):
    """How many requests the KV cache holds at once on `devices` devices:

        floor(KV budget / KV cache one running request holds)

    with the engine's budget (`kv_budget_gb`; without one, the earlier rule: devices x memory -
    weights x 1.2). What a running request holds depends on how the engine admits it: TensorRT-LLM's
    default scheduler (GUARANTEED_NO_EVICT) and llama-server's slots reserve the whole request
    (context + prompt + answer); vLLM and SGLang take KV blocks as tokens arrive (PagedAttention,
    Kwon et al. 2023, SOSP, sec. 4), so in steady use a request holds its context + prompt + half
    its answer on average and the cache runs that many more requests before they queue (the
    caller passes the held size). 0 when not even one whole request fits beside the weights."""
    if kv_budget is None:
        kv_budget = nm.maximum(devices * device_memory_gb - memory_gb(weights_gb, 0.0), 0.0)
    whole = kv_per_request_gb if kv_whole_request_gb is None else kv_whole_request_gb
    fits_one = kv_budget >= whole
    return nm.where(fits_one, nm.maximum(nm.floor(kv_budget / kv_per_request_gb), 1.0), 0.0)


def running_batch(batch, concurrent_users, capacity):
    """Streams decoded together: max(batch, min(users, capacity)).

    Continuous batching (Yu et al. 2022, Orca, OSDI; vLLM) and llama.cpp's parallel slots run
    every request that has a KV-cache slot in the same decode steps; `batch` is a lock-step batch
    the caller asks for (at least that many streams). At least one stream always runs."""
    return nm.maximum(batch, nm.minimum(concurrent_users, nm.maximum(capacity, 1.0)))


def weights_touched_fraction(always_frac, routed_frac, routed_share, tokens):
    """Share of the weight bytes one forward pass of `tokens` tokens reads: the part every token
    reads (attention, router, output layer, shared experts: `always_frac` of the bytes) once, and of
    the routed experts (`routed_frac` of the bytes) the share 1 - (1 - routed_share)^tokens that at
    least one token is routed to, routed_share = experts per token / experts (each token routed
    independently). Dense: always 0, routed 1, share 1 -> 1. A model given without the split:
    always 0, routed 1, share active/total, i.e. 1 - (1 - active/total)^tokens of the whole model."""
    return always_frac + routed_frac * (1.0 - (1.0 - routed_share) ** tokens)


def weight_split(model: "Model", bytes_per_param=None) -> tuple[float, float, float]:
    """(always_frac, routed_frac, routed_share) of `weights_touched_fraction` for a model: shares of
    its weight bytes (params x bytes_per_param, the file) that every token reads and that sit in
    routed experts, and the experts' per-token share. Without Model.expert_params_b the whole model
    counts as routed (0, 1, active/total). With it: the experts' bytes at expert_bytes_per_param
    (default the model's), the rest of the file spread over the other parameters, of which every
    token reads active - expert_active (the embedding table, looked up a row at a time, is the
    part not read)."""
    bpp = float(model.bytes_per_param if bytes_per_param is None else bytes_per_param)
    total, active = float(model.params_b), model.active_b
    if model.expert_params_b is None:
        return 0.0, 1.0, active / total
    experts, experts_active = float(model.expert_params_b), float(model.expert_active_b)
    expert_bpp = bpp if model.expert_bytes_per_param is None else float(model.expert_bytes_per_param)
    file_gb = total * bpp
    expert_gb = experts * expert_bpp
    rest_params = total - experts
    rest_bpp = (file_gb - expert_gb) / rest_params if rest_params > 0 else 0.0
    always_gb = (active - experts_active) * rest_bpp
    return always_gb / file_gb, expert_gb / file_gb, experts_active / experts if experts > 0 else 1.0


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
        return nm.broadcast_like(frac, peak)
    x = frac * peak / cap
    return frac * (1.0 + x**k) ** (-1.0 / k)


def compute_s(flops, devices, peak_tflops, lowp_speedup, compute_frac):
    """FLOPs over achieved compute: flops / (devices x peak x low-precision speed-up x fraction)."""
    return flops / (devices * peak_tflops * TERA * lowp_speedup * compute_frac)


def memory_read_s(read_gb, devices, mem_bandwidth_gbs, bw_frac):
    """Bytes over achieved bandwidth: bytes / (devices x bandwidth x fraction)."""
    return read_gb / (devices * mem_bandwidth_gbs * bw_frac)


# Kept under their earlier names (latency.teaching.explain and older callers use them).
prefill_compute_s = compute_s
weight_read_s = memory_read_s


def prefill_flops(active_params_b, loops, batch, prompt_tokens, layers, attn_dim, context_tokens=0.0):
    """FLOPs to prefill `batch` prompts of `prompt_tokens` after `context_tokens` cached tokens:

        loops x batch x (2 x N x P  +  2 x L x P^2 x d  +  4 x L x P x C x d)

    2 FLOPs per active parameter per token (Kaplan et al. 2020), causal attention within the
    prompt (QK^T and AV, each 2 P^2 d, halved by the causal mask) and the prompt's attention over
    the C cached tokens (QK^T and AV, each 2 P C d). L = full-context attention layers."""
    return loops * batch * (FLOPS_PER_PARAM_PER_TOKEN * active_params_b * GIGA * prompt_tokens
                            + 2.0 * layers * prompt_tokens**2 * attn_dim
                            + 4.0 * layers * prompt_tokens * context_tokens * attn_dim)


def decode_flops(active_params_b, loops, batch, context_tokens, layers, attn_dim):
    """FLOPs of one decode step (one token for each of `batch` streams): 2 x active params plus
    attention over the context, 4 x L x context x d_attn (QK^T and AV), times loops and batch."""
    return loops * batch * (FLOPS_PER_PARAM_PER_TOKEN * active_params_b * GIGA
                            + 4.0 * layers * context_tokens * attn_dim)


def tp_allreduce_s(devices, layers, loops, tokens, hidden, interconnect_gbs, link_latency_s, extra_per_layer=0.0):
    """Tensor-parallel communication of one forward pass, seconds.

    Megatron-LM tensor parallelism needs 2 all-reduces per layer in the forward pass
    (ALLREDUCES_PER_LAYER; Shoeybi et al. 2019, sec. 3). Ring all-reduce of M bytes on n devices
    moves 2 (n-1)/n x M per device (Patarasuk & Yuan 2009) plus a fixed latency per all-reduce.
    M = tokens x hidden x 2 bytes. Inside a node the all-reduce moves its bytes at
    ALLREDUCE_BUS_EFFICIENCY of the link's one-direction bandwidth (measured: vLLM's all-reduce on
    B200 and H100). Beyond one 8-GPU node the link is InfiniBand (INTERNODE_*). 0 on one device.
    """
    across_nodes = devices > NODE_SIZE
    bw_gbs = nm.where(across_nodes, nm.minimum(interconnect_gbs, INTERNODE_GBS),
                      interconnect_gbs * ALLREDUCE_BUS_EFFICIENCY)
    latency_s = nm.where(across_nodes, nm.maximum(link_latency_s, INTERNODE_LATENCY_S), link_latency_s)
    message_gb = tokens * hidden * ACTIVATION_BYTES / GIGA
    per_allreduce_s = 2.0 * (devices - 1.0) / devices * message_gb / bw_gbs + latency_s
    # A model's extra all-reduces (`extra_per_layer`, Model.extra_allreduces_per_layer) carry a few
    # bytes per token: their link latency alone.
    return nm.as_float(devices > 1) * layers * loops * (ALLREDUCES_PER_LAYER * per_allreduce_s + extra_per_layer * latency_s)


def pipeline_hops_s(devices, tokens, hidden, interconnect_gbs, link_latency_s):
    """Layer (pipeline) split, llama.cpp's default multi-GPU mode (--split-mode layer): devices run
    their layers one after another, so weight reads are NOT parallel; each of the n - 1 boundaries
    sends tokens x hidden x 2 bytes of activations plus one link latency."""
    return (devices - 1.0) * (tokens * hidden * ACTIVATION_BYTES / (interconnect_gbs * GIGA) + link_latency_s)


def roofline_s(compute_s, memory_s, combine: str = "max"):
    """Time of a pass bound by compute or memory: max (ideal overlap, the roofline model of
    Williams et al. 2009) or sum (no overlap); the calibration picks one ("combine")."""
    return nm.maximum(compute_s, memory_s) if combine == "max" else compute_s + memory_s


class Rates(NamedTuple):
    """What one engine achieves on one device configuration (fitted fractions times peaks)."""

    parallel_devices: Any   # devices that split every layer (tensor parallel), else 1
    mem_bandwidth_gbs: Any
    bw_frac: Any            # achieved share of peak bandwidth for weights
    kv_bw_frac: Any         # achieved share of peak bandwidth for KV-cache reads at the step's streams
    kv_base_frac: Any       # the engine's share of peak before the KV cap (kv_bw_share), times its scale
    kv_cap_gbs: Any         # achievable KV-read bandwidth per stream and device (inf: no cap)
    peak_tflops: Any
    lowp_speedup: float
    compute_frac: Any       # achieved share of peak compute (decode and prefill)
    prefill_compute_frac: Any
    pass_overhead_s: float  # per forward pass: kernel launches, sampling, scheduling
    stream_overhead_s: float  # per stream per decode step: per-sequence scheduling and sampling
    combine: str


def prefill_s(flops, weights_read_gb, comm_s, r: Rates, compute_share=1.0):
    """Prefill of the prompts in one batch, seconds, and whether compute bounds it:

        roofline(share x FLOPs / achieved compute, weights read / achieved bandwidth) + overhead + comm

    A prefill is never faster than reading the weights once. `compute_share`: the part of the
    batch's prompt compute done before a given user's first token (`first_token_compute_share`)."""
    t_compute = compute_s(flops, r.parallel_devices, r.peak_tflops, r.lowp_speedup, r.prefill_compute_frac)
    t_weights = memory_read_s(weights_read_gb, r.parallel_devices, r.mem_bandwidth_gbs, r.bw_frac)
    return (roofline_s(compute_share * t_compute, t_weights, r.combine) + r.pass_overhead_s + comm_s,
            t_compute >= t_weights)


def kv_bw_share(base_frac, mem_bandwidth_gbs, kv_cap_gbs, streams):
    """Achieved share of peak bandwidth of the attention kernels that stream the KV cache:

        share = kv_read_eff x ((frac x peak)^-k + (streams x kv_cap)^-k)^(-1/k) / peak

    the saturating curve of `achieved_fraction` with a cap that grows with the streams decoded
    together. Little's law (achieved bandwidth = bytes in flight / memory latency): one decode
    stream's attention is one query per head over its own KV cache, so the bytes a kernel keeps in
    flight are bounded by that one sequence's work; B streams are B independent sequences (the
    grid of a paged-attention kernel is heads x sequences x KV splits; Kwon et al. 2023, SOSP), so
    the cap scales with B and a large batch streams the cache at the engine's full share.
    Arguments as `engine_rates` passes them, both scaled by kv_read_eff x quant_bw_eff:
    `base_frac` = that x bw_frac, `kv_cap_gbs` = that x the per-stream cap (`kv_cap_of`; inf: no
    cap), so the share is kv_read_eff x quant_bw_eff x achieved_fraction(peak, bw_frac, streams x cap).
    See docs/estimator.md, "Per-token cost at long prompts"."""
    cap = nm.maximum(streams, 1.0) * kv_cap_gbs
    x = base_frac * mem_bandwidth_gbs / cap
    return base_frac * (1.0 + x**SATURATION_SHARPNESS) ** (-1.0 / SATURATION_SHARPNESS)


def decode_step_s(flops, weights_read_gb, kv_read_gb, streams, comm_s, r: Rates):
    """One decode step (one token for each of `streams` running streams), seconds, and whether
    compute bounds it:

        roofline(FLOPs / achieved compute,
                 weights touched / achieved bandwidth + KV cache read / achieved KV bandwidth)
        + pass overhead + streams x per-stream overhead + comm

    Every step reads the whole KV cache of every stream so far (context, prompt and the tokens
    generated), so decode slows as a conversation grows and as more users share the batch."""
    t_compute = compute_s(flops, r.parallel_devices, r.peak_tflops, r.lowp_speedup, r.compute_frac)
    kv_frac = kv_bw_share(r.kv_base_frac, r.mem_bandwidth_gbs, r.kv_cap_gbs, streams)
    t_memory = (memory_read_s(weights_read_gb, r.parallel_devices, r.mem_bandwidth_gbs, r.bw_frac)
                + memory_read_s(kv_read_gb, r.parallel_devices, r.mem_bandwidth_gbs, kv_frac))
    step_s = roofline_s(t_compute, t_memory, r.combine) + r.pass_overhead_s + streams * r.stream_overhead_s
    return step_s + comm_s, t_compute >= t_memory


def tokens_per_verification(spec_tokens, spec_accept):
    """Expected tokens one target step yields with speculative decoding: k drafted tokens, each
    accepted with probability a (independently, until the first rejection), and the target's own
    token after the last accepted one:

        E = (1 - a^(k+1)) / (1 - a)          (k + 1 when a = 1; 1 when k = 0)

    Leviathan, Kalman & Matias 2023, "Fast Inference from Transformers via Speculative Decoding",
    ICML, eq. (1); Chen et al. 2023, "Accelerating Large Language Model Decoding with Speculative
    Sampling", arXiv 2302.01318 (the same expectation)."""
    k, a = spec_tokens, spec_accept
    if nm.is_scalar(a) and nm.is_scalar(k):
        return float(k) + 1.0 if a >= 1.0 else (1.0 - a ** (k + 1.0)) / (1.0 - a)
    a = np.minimum(np.asarray(a, dtype=float), 1.0 - 1e-12)
    return (1.0 - a ** (np.asarray(k, dtype=float) + 1.0)) / (1.0 - a)


def draft_shape(m, spec_draft_b):
    """(weights GB, layers, KV GB per context token, FLOPs per token) of the draft that proposes the
    tokens. spec_draft_b None: a draft head of one decoder layer of the target reading the target's
    own features (EAGLE, Li et al. 2024, ICML: "a single transformer decoder layer"; Medusa heads are
    smaller still), 12 x hidden^2 parameters (PARAMS_PER_LAYER_D2); else a separate draft model of
    spec_draft_b billion parameters with its own shape (`model_shape`), stored like the target."""
    if spec_draft_b is None:
        params_b = PARAMS_PER_LAYER_D2 * m.hidden**2 / GIGA
        layers, kv_dim, attn = 1.0, m.kv_dim, m.attn_dim
    else:
        params_b = spec_draft_b
        layers, _hidden, kv_dim, attn = model_shape(spec_draft_b)
    kv_per_token_gb = KV_TENSORS * layers * kv_dim * m.kv_bytes / GIGA
    return params_b * m.bytes_per_param, layers, kv_per_token_gb, (params_b, layers, attn)


def draft_step_s(draft, context_tokens, streams, layers_target, r: "Rates"):
    """One step of the draft (one proposed token for each of `streams` streams), seconds: its weights
    and its KV cache over achieved bandwidth, its FLOPs over achieved compute, and the per-pass
    overhead scaled by its share of the target's layers (kernel launches grow with layers). The draft
    runs on the same devices as the target."""
    weights_gb, layers, kv_per_token_gb, (params_b, _l, attn) = draft
    flops = decode_flops(params_b, 1.0, streams, context_tokens, layers, attn)
    t_compute = compute_s(flops, r.parallel_devices, r.peak_tflops, 1.0, r.compute_frac)
    t_memory = memory_read_s(weights_gb + kv_per_token_gb * context_tokens * streams, r.parallel_devices,
                             r.mem_bandwidth_gbs, r.bw_frac)
    return (roofline_s(t_compute, t_memory, r.combine)
            + r.pass_overhead_s * nm.minimum(layers / layers_target, 1.0) + streams * r.stream_overhead_s)


OVERHEAD_REFERENCE_LAYERS = 32.0
"""Layers of the models the serving engine's pass overhead is fitted on (Llama 2 7B and Mistral 7B:
32 layers, GPT-J 6B: 28, the TensorRT-LLM rows): `pass_overhead_s` of the optimized engine in
fitted_params.json is the overhead of one forward pass of a 32-layer model."""


def pass_overhead_of(pass_overhead_s, per_layer, layers, loops):
    """Fixed time of one forward pass that no FLOP or byte accounts for, seconds.

    A serving engine runs every layer as its own chain of kernels (norms, the projections, attention,
    the MLP or the routed experts, one all-reduce per sublayer when tensor parallel), and each kernel
    costs a floor of a few microseconds however little work it carries (launch, grid set-up, the
    tail of the last wave), even replayed from a CUDA graph. So the fixed part of a pass grows with
    the layers it runs: pass_overhead_s x layers x loops / OVERHEAD_REFERENCE_LAYERS (`per_layer`
    1). NVIDIA's aiconfigurator models a pass the same way, as the sum of per-layer operations
    timed on the device (its B200 vLLM 0.24.0 tables: one FP8 MoE layer of MiniMax M2.5's shape,
    3,072 x 1,536, 8 of 256 experts, takes 45 us for ONE token, where its 113 MB of expert weights
    stream in 14 us; one custom all-reduce of a few KB takes 6.6-7.4 us on 2-8 GPUs;
    aic-core/src/aiconfigurator_core/systems/data/b200_sxm/{moe,comm}/vllm/0.24.0, read at 095f58a).
    llama.cpp's fitted overhead (`per_layer` 0) stays one per pass: its calibration rows span
    22-80 layers on one engine and fit it as a constant."""
    return pass_overhead_s * nm.where(per_layer > 0.5, layers * loops / OVERHEAD_REFERENCE_LAYERS, 1.0)


def touched_split(m: ModelShape):
    """(always_frac, routed_frac, routed_share) of a ModelShape for `weights_touched_fraction`."""
    share = m.active_b / m.params_b if m.routed_share is None else m.routed_share
    return m.always_frac, m.routed_frac, share


def moe_kernel_rates(rates: "Rates", m, tensor_parallel) -> "Rates":
    """A serving engine's mixture-of-experts kernels as its kernel tables measure them: the experts a
    step touches stream at MOE_EXPERT_BW_EFF of the engine's weight-read share, and every MoE layer
    adds MOE_LAYER_EXTRA_FLOOR_S to the pass's fixed time (routing, sorting tokens by expert, the
    grouped GEMMs). Dense models, and llama.cpp (its MoE rows are in its own fit), are unchanged.
    The model's whole weight traffic counts as experts."""
    moe = nm.as_float(m.active_b < m.params_b) * nm.as_float(tensor_parallel)
    return rates._replace(
        bw_frac=rates.bw_frac * (1.0 - moe * (1.0 - MOE_EXPERT_BW_EFF)),
        pass_overhead_s=rates.pass_overhead_s + moe * MOE_LAYER_EXTRA_FLOOR_S * m.layers * m.loops)


def moe_compute_active_b(active_b, expert_active_b, tensor_parallel):
    """Parameters per prompt token as a serving engine's prefill spends compute on them, billions: the
    routed experts' grouped GEMMs run at MOE_COMPUTE_SHARE of the rate of the engine's dense GEMMs of
    the same precision, so their FLOPs (expert_active_b, `routed_active_share` of the active ones)
    count 1 / MOE_COMPUTE_SHARE times. llama.cpp (its MoE rows are in its own fit) and dense models
    (expert_active_b 0) are unchanged."""
    return active_b + nm.as_float(tensor_parallel) * expert_active_b * (1.0 / MOE_COMPUTE_SHARE - 1.0)


def moe_small_batch_extra_s(model: "Model", hardware: "Hardware", server: str, fmt: str) -> float:
    """Fixed time each MoE layer adds on engines that run a block-scaled FP8 MoE on DeepGEMM's
    grouped GEMMs (EngineProfile.deepgemm_block_fp8_moe: vLLM), seconds per layer, as measured on
    the device's compute capability (DEEPGEMM_MOE_EXTRA_S: B200, 76 us); 0 for dense models, other
    weight formats, per-tensor FP8 checkpoints, other engines and devices without a measurement.
    `moe_small_batch_s` fades it with the tokens a pass carries and drops it at eight-way tensor
    parallelism, where vLLM does not pick DeepGEMM."""
    if not (eng.profile(server).deepgemm_block_fp8_moe and model.fp8_block_scaled and fmt == "fp8"
            and model.active_b < model.params_b and hardware.compute_capability is not None):
        return 0.0
    return DEEPGEMM_MOE_EXTRA_S.get(int(hardware.compute_capability), 0.0)


def moe_small_batch_s(extra_per_layer_s, layers, loops, tokens, devices):
    """What `moe_small_batch_extra_s` adds to one forward pass of `tokens` tokens, seconds:

        extra x layers x loops x max(0, 1 - tokens / DEEPGEMM_MOE_FADE_TOKENS)

    and nothing at eight-way tensor parallelism (vLLM's default there is its Triton MoE,
    vllm-project/vllm #29346). DeepGEMM's grouped GEMMs compute each expert's rows in blocks of
    128, so a decode step of a few tokens pays the most; at a prefill chunk of thousands of tokens
    the kernel tables show it no slower (DEEPGEMM_MOE_FADE_TOKENS)."""
    fade = nm.maximum(0.0, 1.0 - tokens / DEEPGEMM_MOE_FADE_TOKENS)
    return extra_per_layer_s * layers * loops * fade * nm.as_float(devices != 8.0)


def burst_overlap_s(batch_prefill_s, streams, prompt_tokens, output_tokens, budget_tokens):
    """Time the later prompts of a burst add, on average, to one answer, seconds: a serving engine
    runs the B prompts of a burst first come, first served in chunks of its token budget T, and
    every answer already streaming decodes in those steps. The burst's prefill is S = B x prompt / T
    steps of batch_prefill_s / max(S, 1) each. The k-th prompt completes in step ceil(k S / B) (on
    average half a step past k S / B), so its answer overlaps x_k = S (B - k) / B - 1/2 of them, at
    least none and at most its own output - 1 steps; with k spread evenly, x is uniform on
    [-1/2, b], b = S (B - 1) / B - 1/2, and N = output - 1:

        mean overlap (steps) = (min(max(b, 0), N)^2 / 2 + max(b - N, 0) x N) / (b + 1/2)
        shared = mean overlap x batch_prefill_s / max(S, 1)

    0 for one request (nothing comes after it) and for a burst whose prompts fit one step. Checked
    against the discrete-event simulation of the same engine running one burst (benchmarks/
    sim_serving.py; tests/estimation/test_steady_state.py)."""
    steps = streams * prompt_tokens / budget_tokens
    b = steps * (streams - 1.0) / streams - 0.5
    n_dec = nm.maximum(output_tokens - 1.0, 0.0)
    inside = nm.minimum(nm.maximum(b, 0.0), n_dec)
    area = inside * inside / 2.0 + nm.maximum(b - n_dec, 0.0) * n_dec
    mean_steps = area / nm.maximum(b + 0.5, 1e-12)
    return mean_steps * batch_prefill_s / nm.maximum(steps, 1.0)


def first_token_compute_share(streams, whole_batch_first):
    """The part of a shared prefill's compute one user waits for before the first token: all of it
    when the engine prefills the batch's prompts together (llama.cpp), (B + 1) / (2 B) of it on
    average when prompts are computed first come, first served (serving engines: the k-th of B
    prompts waits for k prompts; FIRST_TOKEN_AFTER_WHOLE_BATCH). The weight read and the pass
    overhead are paid in full either way."""
    return nm.where(whole_batch_first, 1.0, (streams + 1.0) / (2.0 * streams))


def front_end_wait_s(streams, front_end_s, batch_prefill_s):
    """Mean wait of a burst's requests for the ones ahead of them in the serving engine's front end,
    seconds. The front end tokenises requests one after another on one thread (`front_end_s` each:
    prompt tokens x constants.FRONT_END_S_PER_TOKEN), so the k-th of B requests that arrive together
    reaches the scheduler k x front_end_s after the first; the engine computes the prompts first
    come, first served at p = batch_prefill_s / B each. Two stages in a row, each taking a fixed time
    per request: the k-th prompt is done at p + k x max(front_end_s, p) (the slower stage sets the
    pace), so over the B requests the mean first token comes (B - 1) / 2 x max(front_end_s - p, 0)
    later than the prefill alone gives (`first_token_compute_share`). 0 for one request, and while
    the GPU's prefill is the slower stage (a front end that keeps ahead of it costs no one a wait)."""
    per_prompt_s = batch_prefill_s / nm.maximum(streams, 1.0)
    return nm.maximum(streams - 1.0, 0.0) / 2.0 * nm.maximum(front_end_s - per_prompt_s, 0.0)


def queue_s(service_s, utilization, concurrent_users, slots):
    """Waiting time before the server starts the request ("busy kitchen"), seconds.

    - utilization rho in [0, 1): M/M/1 mean wait W_q = rho / (1 - rho) x S (Kleinrock 1975,
      Queueing Systems vol. 1, eq. 3.25), S = this request's service time.
    - concurrent_users N (including you) on a server with `slots` running streams (the KV cache
      holds no more): the N - slots requests beyond them wait. With every user sending again as
      soon as an answer ends (a closed loop), Little's law gives the same wait to every request:
      W = queue length / completion rate = (N - slots) / (slots / S) = (N - slots) x S / slots.
      It is 0 below the KV-cache capacity and climbs linearly, by S / slots per extra user, above.
    Both 0 when idle (the default); they add when both are given.
    """
    mm1 = utilization / (1.0 - utilization) * service_s
    slot_wait = nm.maximum(concurrent_users - slots, 0.0) * service_s / slots
    return mm1 + slot_wait


# --------------------------------------------------------------------------------------------
# One request through every stage (floats or arrays)
# --------------------------------------------------------------------------------------------

class ModelShape(NamedTuple):
    params_b: Any
    active_b: Any
    bytes_per_param: Any
    loops: float
    loop_kv_window: int | None
    layers: Any
    hidden: Any
    kv_dim: Any
    attn_dim: Any
    attention_layers: Any
    kv_bytes: float
    state_gb: Any = 0.0  # recurrent (Mamba) state per sequence, GB (Model.recurrent_state_gb)
    always_frac: Any = 0.0  # `weights_touched_fraction`'s split of the weight bytes (`weight_split`)
    routed_frac: Any = 1.0
    routed_share: Any = None  # None: active_b / params_b
    window_layers: Any = 0.0  # sliding-window layers (Model.window_layers)
    window_cells: Any = 0.0  # KV cells each keeps per sequence (`window_kv_cache_gb`)
    extra_allreduces: Any = 0.0  # all-reduces per layer beyond two, latency-bound (Model.extra_allreduces_per_layer)
    moe_small_batch_s: Any = 0.0  # per MoE layer at one token, fading with the pass's tokens (`moe_small_batch_extra_s`)
    expert_active_b: Any = 0.0  # routed experts' parameters per token (Model.expert_active_b; `moe_compute_active_b`)


class Device(NamedTuple):
    mem_bandwidth_gbs: Any
    peak_tflops: Any
    memory_gb: float
    lowp_speedup: float
    max_devices: float
    interconnect_gbs: float
    link_latency_s: float


class Workload(NamedTuple):
    prompt: Any
    output: Any
    context: Any
    batch: Any
    users: Any
    utilization: Any
    network_s: Any
    forced_devices: float | None
    api: Any = 0.0  # 1: the request comes through a serving engine's API (adds ep["request_overhead_s"])
    steady: Any = 0.0  # 1: concurrent users in steady use (closed loop, latency.estimation.serving); 0: a burst
    think_s: Any = 0.0  # steady use: time a user takes between an answer and the next request
    spec_tokens: float = 0.0  # speculative decoding: draft tokens proposed per step (0: off)
    spec_accept: float = 0.0  # the chance each drafted token is accepted
    spec_draft_b: float | None = None  # the draft model's parameters, billions (None: a one-layer head)


def kv_cap_of(ep: dict):
    """Per-stream cap of the KV-cache reads: the engine's own `kv_cap_gbs` where it has one (the
    serving engine's, carried over from llama.cpp by `python -m latency.calibrate`), else the
    kind's bandwidth cap (llama.cpp on discrete GPUs: the same batch-1 Little's-law cap as its
    weight reads), else none (inf)."""
    cap = ep.get("kv_cap_gbs")
    if cap is None:
        cap = ep.get("bw_cap_gbs")
    return math.inf if cap is None else cap


def dequant_bw_share(peak_tflops, mem_bandwidth_gbs, ops_per_byte):
    """The share of peak bandwidth at which a kernel that unpacks its weights on the GPU's ALUs can
    stream them, 1.0 and above where the ALUs keep up (then bandwidth bounds it):

        share = (peak FLOP/s / ALU operations per weight byte) / peak bytes/s

    ops_per_byte = `dequant_ops` (operations per weight, in FLOP-equivalents at `peak_tflops`) /
    bytes per weight; 0 (every engine and kind but llama.cpp on Apple GPUs): no such bound.
    llama.cpp's Metal k-quant mat-vec kernels unpack each block (4-bit values, 6-bit scales and
    mins) with the GPU's ALUs, and their token generation is bound by that work, not by the bytes:
    its author found Q3_K decode slower than Q4_0 on Metal where CUDA has it faster ("Assuming
    optimum implementation, TG is memory bound, so Q3_K should be always faster", ggml-org/llama.cpp
    #2995; Q4_K's Metal kernels sped up 21-38% in #2290 with no change in bytes). measurements.csv:
    Q4_K_M decode on the M1 Max and the M2 Ultra needs about 30 operations per weight on either
    Mac, where their bandwidth shares differ (0.46 and 0.70); fitted (`dequant_ops`)."""
    if nm.is_scalar(ops_per_byte):
        return math.inf if ops_per_byte <= 0.0 else peak_tflops * 1e3 / ops_per_byte / mem_bandwidth_gbs
    with np.errstate(divide="ignore"):  # x / 0 = inf: no bound where a row has no operations
        return np.asarray(peak_tflops, dtype=float) * 1e3 / np.asarray(ops_per_byte, dtype=float) / mem_bandwidth_gbs


def engine_rates(ep: dict, dev: Device, parallel_devices, combine: str, streams=1.0, layers=None) -> Rates:
    """The fitted fractions of one (engine, kind) applied to this device's peaks; the KV-read
    share at `streams` streams decoded together (`kv_bw_share`); the pass overhead of a model of
    `layers` layers (times loops; `pass_overhead_of`; None: the fitted value as it stands)."""
    bw_frac = achieved_fraction(dev.mem_bandwidth_gbs, ep["bw_frac"], ep.get("bw_cap_gbs")) * ep["q_bw"]
    bw_frac = nm.minimum(bw_frac, dequant_bw_share(dev.peak_tflops, dev.mem_bandwidth_gbs, ep.get("dequant_ops_per_byte", 0.0)))
    c_frac = achieved_fraction(dev.peak_tflops, ep["compute_frac"], ep.get("compute_cap_tflops")) * ep["q_compute"]
    kv_base = ep["bw_frac"] * ep["q_bw"] * ep.get("kv_read_eff", 1.0)
    kv_cap = kv_cap_of(ep) * ep["q_bw"] * ep.get("kv_read_eff", 1.0)
    return Rates(parallel_devices=parallel_devices, mem_bandwidth_gbs=dev.mem_bandwidth_gbs, bw_frac=bw_frac,
                 kv_bw_frac=kv_bw_share(kv_base, dev.mem_bandwidth_gbs, kv_cap, streams),
                 kv_base_frac=kv_base, kv_cap_gbs=kv_cap, peak_tflops=dev.peak_tflops,
                 lowp_speedup=dev.lowp_speedup, compute_frac=c_frac,
                 prefill_compute_frac=c_frac * ep.get("prefill_compute_scale", 1.0),
                 pass_overhead_s=(ep["pass_overhead_s"] if layers is None else
                                  pass_overhead_of(ep["pass_overhead_s"], ep.get("overhead_per_layer", 0.0), layers, 1.0)),
                 stream_overhead_s=ep.get("stream_overhead_s", 0.0),
                 combine=combine)


def engine_step_fn(m: ModelShape, rates: Rates, ep: dict, weights, w: Workload, kv_gb, comm_s, moe_s=None):
    """One serving-engine step as a function of what it carries, seconds:

        step_s(decode_requests d, prefill_tokens p, prefill_requests n_p)
          = roofline(d decode tokens' FLOPs / achieved compute + p prompt tokens' FLOPs / achieved
                     prefill compute,
                     weights the d + p tokens touch / achieved bandwidth
                     + KV cache of the d decoding requests (at the answer's mean context) and of
                       the n_p prompts so far / achieved KV bandwidth)
            + pass overhead + (d + n_p) x per-stream overhead + communication of d + p tokens

    the single request's prefill (d = 0) and decode step (p = 0) formulas, in one step: the
    mechanism of continuous batching with chunked prefill (latency.estimation.serving). A prompt
    chunk attends to the context and, on average, half its prompt."""
    decode_context = w.context + w.prompt + (w.output - 1.0) / 2.0
    prefill_context = w.context + w.prompt / 2.0
    # Every term is linear in what the step carries (but the MoE weight share and the roofline),
    # so the per-request and per-token costs are computed once and a step is a few operations:
    # the closed form calls it hundreds of times per scenario.
    par, peak, lowp = rates.parallel_devices, rates.peak_tflops, rates.lowp_speedup
    # Prompt tokens' routed experts at the grouped GEMMs' rate in a prefill chunk (MOE_COMPUTE_SHARE);
    # a decode token's experts are read, not computed, at any batch the tables time (MOE_EXPERT_BW_EFF).
    flop_b = moe_compute_active_b(m.active_b, m.expert_active_b, ep["tensor_parallel"])
    decode_compute_s = compute_s(decode_flops(m.active_b, m.loops, 1.0, decode_context, m.attention_layers, m.attn_dim),
                                 par, peak, lowp, rates.compute_frac)
    prefill_compute_s = compute_s(m.loops * (FLOPS_PER_PARAM_PER_TOKEN * flop_b * GIGA
                                             + 4.0 * m.attention_layers * prefill_context * m.attn_dim),
                                  par, peak, lowp, rates.prefill_compute_frac)
    weights_s = memory_read_s(weights * m.loops, par, rates.mem_bandwidth_gbs, rates.bw_frac)
    # KV reads at full share (1.0); divided by the share at the step's streams (kv_bw_share).
    decode_kv_s = memory_read_s(kv_gb(decode_context, 1.0), par, rates.mem_bandwidth_gbs, 1.0)
    prefill_kv_s = memory_read_s(kv_gb(prefill_context, 1.0), par, rates.mem_bandwidth_gbs, 1.0)
    kv_base, kv_cap, bw = rates.kv_base_frac, rates.kv_cap_gbs, rates.mem_bandwidth_gbs
    comm0 = comm_s(0.0)
    comm1 = comm_s(1.0) - comm0
    always, routed, share = touched_split(m)
    fixed_s = rates.pass_overhead_s + comm0
    combine_max = rates.combine == "max"
    # Speculative decoding: every decoding request carries k + 1 tokens to verify, and the step
    # begins with k draft steps over the decoding requests (`draft_step_s`).
    verify = w.spec_tokens + 1.0
    spec = (w.spec_tokens > 0.0) if nm.is_scalar(w.spec_tokens) else bool(np.any(np.asarray(w.spec_tokens) > 0))
    draft = draft_shape(m, w.spec_draft_b) if spec else None

    def step_s(decode_requests, prefill_tokens, prefill_requests):
        decode_tokens = decode_requests * verify
        tokens = nm.maximum(decode_tokens + prefill_tokens, 1.0)
        t_compute = decode_compute_s * decode_tokens + prefill_compute_s * prefill_tokens
        touched = weights_touched_fraction(always, routed, share, tokens)
        kv_share = kv_bw_share(kv_base, bw, kv_cap, decode_requests + prefill_requests)
        t_memory = weights_s * touched + (decode_kv_s * decode_requests + prefill_kv_s * prefill_requests) / kv_share
        bound = nm.maximum(t_compute, t_memory) if combine_max else t_compute + t_memory
        t = bound + fixed_s + (decode_requests + prefill_requests) * rates.stream_overhead_s + comm1 * tokens
        if moe_s is not None:
            t = t + moe_s(tokens)
        if draft is not None:
            t = t + nm.as_float(decode_requests > 0.0) * w.spec_tokens * draft_step_s(
                draft, decode_context, nm.maximum(decode_requests, 1.0), m.layers, rates)
        return t

    return step_s


def request_times(m: ModelShape, dev: Device, ep: dict, combine: str, w: Workload) -> dict:
    """Every stage of one request, in order; floats in, floats out (arrays in, arrays out).

    1. memory: weights + KV of the running streams -> devices (fewest that hold `batch` streams,
       or the forced count) and the KV-cache capacity in requests;
    2. running streams B = running_batch(batch, users, capacity);
    3. prefill of the B prompts that arrive together (`prefill_s`), of whose compute one user
       waits `first_token_compute_share`;
    4. one decode step at B streams and the mean context of the answer (`decode_step_s`);
    5. queue: M/M/1 at `utilization` + waiting for a KV slot beyond B (`queue_s`).
    Returns the stage times, rates and memory figures named like Estimate's fields.
    """
    weights = weights_gb(m.params_b, m.bytes_per_param)
    request_tokens = w.context + w.prompt + w.output
    tensor_parallel = ep["tensor_parallel"]

    def kv_gb(tokens, streams):
        # What the engine holds per running request: the KV cache and a hybrid model's recurrent state.
        return (kv_cache_gb(m.attention_layers, m.kv_dim, m.kv_bytes, tokens, streams, m.loops, m.loop_kv_window)
                + window_kv_cache_gb(m.window_layers, m.kv_dim, m.kv_bytes, tokens, m.window_cells, streams)
                + m.state_gb * streams)

    def kv_traffic_gb(tokens, streams):
        # What a step moves per stream: the KV cache read, and the recurrent state read and written.
        return kv_gb(tokens, streams) + m.state_gb * streams

    # 1. Memory as the engine spends it: weights (and a draft's), the engine's own overhead per
    #    device, and the KV budget it sets aside; a running request holds its whole KV cache
    #    (reserved up front) or, on engines that take blocks as tokens arrive, half its answer's on
    #    average (at least one whole request must fit for the set-up to run).
    spec = (w.spec_tokens > 0.0) if nm.is_scalar(w.spec_tokens) else bool(np.any(np.asarray(w.spec_tokens) > 0))
    resident = weights + (draft_shape(m, w.spec_draft_b)[0] if spec else 0.0)
    device_gb = device_capacity_gb(dev.memory_gb)
    kv_whole = kv_gb(request_tokens, 1.0)
    kv_held = nm.where(ep["reserve_whole"] > 0.5, kv_whole, kv_gb(w.context + w.prompt + w.output / 2.0, 1.0))
    need_batch = nm.maximum(w.batch * kv_held, kv_whole)
    min_devices = fewest_devices(kv_whole, device_gb, resident, m.hidden, ep, tensor_parallel)
    n = (fewest_devices(need_batch, device_gb, resident, m.hidden, ep, tensor_parallel) if w.forced_devices is None
         else nm.broadcast_like(w.forced_devices, min_devices))
    overhead_gb = engine_overhead_gb(n, m.hidden, ep, tensor_parallel)
    kv_room = kv_budget_gb(n, device_gb, resident, overhead_gb, ep)
    capacity = kv_capacity_requests(n, dev.memory_gb, resident, kv_held, kv_room, kv_whole)

    # 2. Streams decoded together, and the memory needed for every user's request to run at once
    #    (at most the engine's running cap): never less as users or context grow.
    streams = running_batch(w.batch, w.users, capacity)
    asked = nm.maximum(w.batch, nm.minimum(w.users, max_running_requests(
        nm.as_float(tensor_parallel) > 0.0, dev.memory_gb + 0.0 * n, math.inf)))
    kv_total = nm.maximum(asked * kv_held, kv_whole)
    mem = resident + n * overhead_gb + kv_total
    devices_for_users = fewest_devices(kv_total, device_gb, resident, m.hidden, ep, tensor_parallel)
    fits = (n <= dev.max_devices) & (capacity >= 1.0)

    rates = engine_rates(ep, dev, nm.where(tensor_parallel, n, 1.0), combine, streams, layers=m.layers * m.loops)
    rates = moe_kernel_rates(rates, m, tensor_parallel)

    def comm_s(tokens):
        return nm.where(tensor_parallel,
                        tp_allreduce_s(n, m.layers, m.loops, tokens, m.hidden, dev.interconnect_gbs, dev.link_latency_s,
                                       m.extra_allreduces),
                        pipeline_hops_s(n, tokens, m.hidden, dev.interconnect_gbs, dev.link_latency_s))

    def moe_s(tokens):
        # DeepGEMM's MoE time at small batch (vLLM, block-scaled FP8 MoE; 0 elsewhere).
        return moe_small_batch_s(m.moe_small_batch_s, m.layers, m.loops, tokens, n)

    # 3. Prefill: the B prompts in one pass; cached context costs attention, not prefill tokens.
    prefill_tokens = streams * w.prompt
    # A prefill's routed experts at the grouped GEMMs' rate (MOE_COMPUTE_SHARE; serving engines).
    flop_b = moe_compute_active_b(m.active_b, m.expert_active_b, tensor_parallel)
    flops = prefill_flops(flop_b, m.loops, streams, w.prompt, m.attention_layers, m.attn_dim, w.context)
    always, routed, share = touched_split(m)
    weights_read = weights * weights_touched_fraction(always, routed, share, prefill_tokens) * m.loops
    prefill_comm = comm_s(prefill_tokens) + moe_s(prefill_tokens)  # the pass's fixed time beside the roofline
    batch_prefill, prefill_compute_bound = prefill_s(flops, weights_read, prefill_comm, rates)
    prefill, _ = prefill_s(flops, weights_read, prefill_comm, rates,
                           first_token_compute_share(streams, ep["whole_batch_first"]))

    # 4. Decode: one step for the B streams at the mean context of the answer. With speculative
    #    decoding (k = spec_tokens > 0) a step is k draft steps and one target pass that verifies
    #    k + 1 tokens of every stream (weights and KV cache read once, k + 1 tokens' FLOPs), and it
    #    yields E = tokens_per_verification(k, a) tokens per stream on average.
    mean_context = w.context + w.prompt + (w.output - 1.0) / 2.0
    verify = w.spec_tokens + 1.0
    tpot, decode_compute_bound = decode_step_s(
        decode_flops(m.active_b, m.loops, streams, mean_context, m.attention_layers, m.attn_dim) * verify,
        weights * weights_touched_fraction(always, routed, share, streams * verify) * m.loops,
        kv_traffic_gb(mean_context, streams), streams, comm_s(streams * verify) + moe_s(streams * verify), rates)
    spec = (w.spec_tokens > 0.0) if nm.is_scalar(w.spec_tokens) else bool(np.any(np.asarray(w.spec_tokens) > 0))
    if spec:
        draft = draft_shape(m, w.spec_draft_b)
        tpot = (tpot + w.spec_tokens * draft_step_s(draft, mean_context, streams, m.layers, rates)) / \
            tokens_per_verification(w.spec_tokens, w.spec_accept)
    decode = (w.output - 1.0) * tpot
    # A burst on a serving engine: the prompts are computed first come, first served in chunks of
    # the token budget, and every answer already streaming shares those steps (`burst_overlap_s`).
    # Each user's time per token and the time a request holds its slot carry it; the server's
    # rate does not (the wave's last answer starts after its last prompt and runs decode steps alone).
    step_tpot, wave_decode = tpot, decode
    chunked = nm.as_float(ep["whole_batch_first"] < 0.5)
    optimized = nm.as_float(tensor_parallel) + 0.0 * n
    budget = token_budget_tokens(optimized > 0.0, dev.memory_gb + 0.0 * n)  # the engine's tokens per step
    shared = chunked * burst_overlap_s(batch_prefill, streams, w.prompt, w.output, budget)
    tpot = tpot + shared / nm.maximum(w.output - 1.0, 1.0)
    decode = (w.output - 1.0) * tpot

    # 5. Queue: waiting for other users only (0 with one user at utilisation 0). A burst through a
    #    serving engine's API also waits for the front end to tokenise the requests ahead of it, one
    #    at a time (`front_end_wait_s`), and the wave's last prompt starts no earlier than that.
    service = prefill + decode
    front_end = w.api * ep.get("front_end_s_per_token", 0.0) * (w.context + w.prompt)
    queue = queue_s(service, w.utilization, w.users, streams) + front_end_wait_s(streams, front_end, batch_prefill)
    wave_prefill = nm.maximum(batch_prefill, nm.maximum(streams - 1.0, 0.0) * front_end
                              + batch_prefill / nm.maximum(streams, 1.0))
    # The serving engine's own per-request time (API front end: HTTP, tokenising, handing the
    # request to the scheduler; `request_overhead_s` of the engine, latency.estimation.engines):
    # part of the prefill stage, before the first token, whoever else is using the server.
    overhead = w.api * ep.get("request_overhead_s", 0.0)
    throughput = streams / step_tpot  # all streams in a decode step (a burst's chunks are the prompts')
    # Output tokens of all streams over whole requests (the prefill included). A stream never
    # delivers faster on average than its own streaming speed: where the first token (a short
    # prompt's prefill) comes quicker than the answer's mean inter-token time (taken at the answer's
    # mean context), it is counted at that time, so the whole-server rate stays at most streams x
    # the per-user speed (test_whole_server_rate_over_whole_requests_...).
    server_tps = streams * w.output / nm.maximum(wave_prefill + wave_decode, w.output * tpot)
    running = streams

    # 6. Steady use (concurrent users in a closed loop, not a burst): the serving engine's steps in
    #    steady state (latency.estimation.serving), selected where `steady` and more than one user.
    steady = w.steady * nm.as_float(w.users > 1.0)
    if (steady > 0.0) if nm.is_scalar(steady) else bool(np.any(steady > 0.0)):
        step_s = engine_step_fn(m, rates, ep, weights, w, kv_traffic_gb, comm_s, moe_s)
        cap = max_running_requests(optimized > 0.0, dev.memory_gb + 0.0 * n, capacity)
        ss = steady_state(w.users, w.think_s, w.prompt, w.output, budget, cap, step_s,
                          tokens_per_step=tokens_per_verification(w.spec_tokens, w.spec_accept),
                          decode_slots=w.spec_tokens + 1.0)
        sel = steady > 0.0
        mm1 = w.utilization / (1.0 - w.utilization) * (ss.ttft_s - ss.kv_wait_s + (w.output - 1.0) * ss.itl_s)
        queue = nm.where(sel, ss.kv_wait_s + mm1, queue)
        prefill = nm.where(sel, ss.ttft_s - ss.kv_wait_s, prefill)
        tpot = nm.where(sel, ss.itl_s, tpot)
        decode = (w.output - 1.0) * tpot
        throughput = nm.where(sel, ss.running_requests / ss.itl_s, throughput)
        server_tps = nm.where(sel, nm.minimum(ss.output_tokens_per_s, ss.running_requests / ss.itl_s), server_tps)
        running = nm.where(sel, ss.running_requests, running)
    prefill = prefill + overhead
    ttft = w.network_s + queue + prefill
    return dict(
        network=w.network_s, queue=queue, prefill=prefill, decode=decode, overhead=overhead + 0.0 * prefill,
        ttft_s=ttft, tpot_s=tpot, total_s=ttft + decode,
        prefill_tokens_per_s=prefill_tokens / batch_prefill, decode_tokens_per_s=1.0 / tpot,
        throughput_tokens_per_s=throughput,
        server_tokens_per_s=server_tps,
        running_batch=running, max_concurrent_requests=capacity, batch_prefill_s=batch_prefill,
        batch_prefill_tokens=prefill_tokens,
        memory_gb=mem, weights_gb=weights, kv_cache_gb=kv_total,
        devices_needed=n, fits=fits, fits_one_device=fewest_devices(need_batch, device_gb, resident, m.hidden, ep,
                                                                    tensor_parallel) <= 1.0,
        min_devices=min_devices, devices_for_users=devices_for_users, kv_budget_gb=kv_room,
        kv_bytes=m.kv_bytes + 0.0 * n,
        prefill_compute_bound=prefill_compute_bound, decode_compute_bound=decode_compute_bound,
    )


# --------------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Estimate:
    """Result of `estimate`. Times in seconds, rates in tokens per second.

    Per user: ttft_s, tpot_s, total_s, decode_tokens_per_s (= 1 / tpot_s, one user's stream).
    Whole server: server_tokens_per_s (output tokens per second of all running_batch streams over
    their prefill and decode, the figure serving benchmarks call "output throughput"),
    throughput_tokens_per_s (all streams during a decode step, = running_batch / the step's time:
    tpot_s in steady use and alone; a burst's tpot_s on a serving engine also carries the steps it
    shares with the later prompts, `burst_overlap_s`),
    prefill_tokens_per_s (prompt tokens of the whole batch per second of its prefill).
    running_batch: streams decoded together (min(concurrent_users, max_concurrent_requests), at
    least `batch`); max_concurrent_requests: requests whose KV cache fits beside the weights on
    devices_needed devices (users beyond it wait in `breakdown["queue"]`).
    breakdown: {"network", "queue", "prefill", "decode"} summing to total_s.
    ranges: (low, high) for ttft_s, tpot_s, total_s, decode_tokens_per_s, prefill_tokens_per_s,
    server_tokens_per_s: an interval meant to hold the measured value 80% of the time
    (RANGE_COVERAGE), from the calibration's leave-one-device-out errors, or its
    leave-one-kind-out errors where the (engine, kind) had no calibration rows.
    bottleneck: {"prefill": "compute"|"memory", "decode": "compute"|"memory"}.
    overhead_s: the serving engine's own per-request handling (API front end: HTTP, tokenising,
    scheduling), a part of breakdown["prefill"] (0 for llama.cpp and engine-internal timings);
    breakdown["queue"] is only the wait for other users. serving_engine: whose defaults were used
    ("vllm", "tensorrt-llm", "sglang", "llama.cpp"; latency.estimation.engines).
    memory_gb (decision 5): what the set-up needs for every user's request to run at once, as the
    engine spends memory: weights (and a draft's) + the engine's own overhead on each of
    devices_needed devices (runtime, NCCL, activations) + the KV cache of every running request at
    the precision the engine keeps it (kv_bytes: FP8 with FP8/FP4 weights on serving engines);
    never less as users or context grow. kv_cache_gb: that KV cache. kv_budget_gb: the KV room the
    engine sets aside on devices_needed devices (its memory share: vLLM 0.9 of all memory,
    TensorRT-LLM 0.9 of what is free; latency.estimation.engines). min_devices: the fewest devices
    that hold the weights and `batch` requests (what a set-up that does not fit would need);
    devices_for_users: the fewest that hold every user's request at once (no one waits for memory).
    timing_valid: False when the set-up does not fit (= not fits): its stage times are what the
    formulas give for a set-up that cannot run, and pages show no stage for it, only min_devices.
    weight_format: how the weights run (WEIGHT_FORMATS).
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
    server_tokens_per_s: float = math.nan
    running_batch: int = 1
    max_concurrent_requests: int = 0
    overhead_s: float = 0.0
    serving_engine: str = ""
    min_devices: int = 1
    devices_for_users: int = 1
    kv_budget_gb: float = math.nan
    kv_bytes: float = 2.0
    weight_format: str = ""
    timing_valid: bool = True

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


RANGE_COVERAGE = 0.8
"""Share of measurements each stated range aims to hold (its 10th to 90th percentile)."""


def round_trip_s(distance_km) -> float:
    """One backbone round trip over real fibre routes, seconds: no access network, no handshakes.

    fixed + 2 x distance x route_inflation / (200 km/ms), fitted on shared/calibration/rtt.csv.
    Accepts a float or a numpy array of distances (km, in [0, MAX_DISTANCE_KM]).
    """
    p = load_params()["network"]
    if isinstance(distance_km, np.ndarray):
        d = distance_km.astype(float)
        if not np.all(np.isfinite(d)) or np.any(d < 0) or np.any(d > MAX_DISTANCE_KM):
            raise ValueError(f"distance_km must be finite numbers in [0, {MAX_DISTANCE_KM:g}] km")
        return backbone_rtt_s(d, p["fixed_ms"], p["route_inflation"])
    d = _real("distance_km", distance_km, lo=0, hi=MAX_DISTANCE_KM, lo_open=False)
    return backbone_rtt_s(d, p["fixed_ms"], p["route_inflation"])


SPEC_TOKENS_MAX = 16
"""The most draft tokens per step accepted as input (vLLM's and TensorRT-LLM's examples use 1-8;
EAGLE-2's dynamic trees go up to about 10 deep)."""


def _spec_inputs(spec_tokens, spec_accept, spec_draft_b, params_b):
    k = float(_int("spec_tokens", spec_tokens, lo=0, hi=SPEC_TOKENS_MAX))
    a = _real("spec_accept", spec_accept, lo=0, hi=1, lo_open=False)
    if spec_draft_b is not None:
        spec_draft_b = _real("spec_draft_b", spec_draft_b, lo=0, hi=float(params_b))
    return k, a, spec_draft_b


def _resolve_engine(engine, kind) -> tuple[str, str]:
    """(family, serving engine) for an `engine` input: None (by hardware kind), a family
    ("optimized" = vLLM's defaults, "llama.cpp") or a serving engine's name or alias."""
    if engine is None:
        engine = DEFAULT_ENGINE[kind]
    _choice("engine", engine, (None,) + eng.accepted_names())
    prof = eng.profile(engine)
    return prof.family, prof.name


FP4_BYTES_PER_PARAM = (0.5, 0.6)
"""4-bit formats with their scales: NVFP4 = 4 bits + one FP8 scale per 16 weights = 4.5 bits =
0.5625 bytes (NVIDIA, "Introducing NVFP4", 2025); INT4 group 128 ~ 0.55 (content/precisions.yaml)."""


def weight_format_of(model: Model, hardware: Hardware, engine: str, bpp=None) -> str:
    """The model's weight format (WEIGHT_FORMATS) as the engine runs it on this hardware: the
    model's own `weight_format` if given, else from bytes per parameter: >= 1.99 FP16; llama.cpp
    runs everything below as its GGUF block formats; serving engines run 8-bit weights as FP8 where
    the device has FP8 tensor cores (Hardware.fp8) and as INT8 elsewhere, and ~4.5-bit weights as
    NVFP4 where it has FP4 tensor cores (Hardware.fp4_speedup) and as INT4 weight-only elsewhere."""
    if model.weight_format is not None:
        return model.weight_format
    b = float(model.bytes_per_param if bpp is None else bpp)
    if b >= 1.99:
        return "fp16"
    if engine != "optimized":
        return "gguf"
    if W8A8_BYTES_PER_PARAM[0] <= b <= W8A8_BYTES_PER_PARAM[1]:
        return "fp8" if hardware.fp8 else "int8"
    if FP4_BYTES_PER_PARAM[0] <= b <= FP4_BYTES_PER_PARAM[1] and hardware.fp4_speedup:
        return "fp4"
    return "int4" if b < W8A8_BYTES_PER_PARAM[0] else "int8"


def fp8_matmul_speedup(hardware: Hardware, server: str) -> float | None:
    """FP8 matmul speed over BF16 that this engine's kernel tables measure on this GPU's architecture
    (FP8_MATMUL_SPEEDUP, keyed by the engine's own name, so an alias such as "nim" finds TensorRT-LLM's:
    vLLM 1.24 on a B200, TensorRT-LLM 1.49 on an H100 or H200); None where none is measured (other
    engines, devices without a compute capability)."""
    if hardware.compute_capability is None:
        return None
    return FP8_MATMUL_SPEEDUP.get((eng.profile(server).name, int(hardware.compute_capability)))


def _lowp(model: Model, hardware: Hardware, engine: str, bpp, fmt: str | None = None,
          server: str | None = None) -> float:
    """Tensor speed-up of low-precision compute on the optimized engine: FP8/INT8 weights run as
    W8A8 unless the model says weight-only (low_precision_compute False); FP8 at the speed-up the
    engine's own FP8 matmuls measure on the device's architecture (`fp8_matmul_speedup`), elsewhere
    (and INT8) at the share of `lowp_speedup` FP8 matmuls reach across engines (LOWP_ACHIEVED_SHARE:
    1.47, not the nominal 2, on Hopper and Blackwell); FP4 weights (NVFP4) at FP4_ACHIEVED_SHARE x
    `fp4_speedup` (2.2 on a B200, not 4); everything else at 1. `server`: the serving engine (None:
    the family's default engine)."""
    if engine != "optimized":
        return 1.0
    fmt = fmt or weight_format_of(model, hardware, engine, bpp)
    lp = model.low_precision_compute
    if fmt == "fp4" and lp is not False:
        return max(1.0, float(hardware.fp4_speedup or 1.0) * FP4_ACHIEVED_SHARE)
    if lp is None:
        lp = W8A8_BYTES_PER_PARAM[0] <= bpp <= W8A8_BYTES_PER_PARAM[1] and fmt in ("fp8", "int8")
    if not lp:
        return 1.0
    measured = fmt == "fp8" and fp8_matmul_speedup(hardware, server or engine)
    return max(1.0, measured or hardware.resolved("lowp_speedup") * LOWP_ACHIEVED_SHARE)


def kv_bytes_of(model: Model, fmt: str, server: str) -> float:
    """Bytes per KV-cache element as the engine stores it: the model's own `kv_bytes` (FP16 2.0),
    or FP8 (1 byte) where the engine keeps an FP8 cache with FP8/FP4 weights
    (engines.EngineProfile.fp8_kv_with_low_bit_float_weights: TensorRT-LLM, vLLM and SGLang with
    ModelOpt FP8/NVFP4 checkpoints, which name kv_cache_quant_algo FP8); never more than the
    model's own."""
    prof = eng.profile(server)
    if prof.fp8_kv_with_low_bit_float_weights and fmt in ("fp8", "fp4"):
        return min(float(model.kv_bytes), 1.0)
    return float(model.kv_bytes)


def _engine_values(engine: str, kind: str, bpp: float, params: dict, server: str | None = None,
                   fmt: str | None = None, weight_only: bool = False) -> dict:
    """The fitted values of a family on a hardware kind, with the serving engine's own defaults
    (`server`, latency.estimation.engines; None: the family's default engine): its request
    overhead, how it reserves memory, its activation buffers and how its KV cache admits requests,
    and the achieved bandwidth of the weight format `fmt` (weight_format_of)."""
    ep = engine_params(params, engine, kind)
    prof = eng.profile(server or engine)
    if prof.request_overhead_s is not None:
        ep["request_overhead_s"] = prof.request_overhead_s
    ep["server"] = prof.name
    quantized = bpp < ep["native_min_bytes"]
    ep["q_bw"] = ep["quant_bw_eff"] if quantized else 1.0
    ep["q_compute"] = ep["quant_compute_eff"] if quantized else 1.0
    ep["dequant_ops_per_byte"] = ep.get("dequant_ops", 0.0) / bpp if quantized else 0.0  # `dequant_bw_share`
    if engine == "optimized" and fmt in prof.weight_only_bw_eff:
        # Weight-only INT4 (and INT8 where the model asks for it): dequantised inside the matmul.
        ep["q_bw"] = prof.weight_only_bw_eff[fmt] if (fmt == "int4" or weight_only) else ep["q_bw"]
    ep["mem_fraction"] = prof.memory_fraction
    ep["fraction_of_free"] = 1.0 if prof.fraction_of_free else 0.0
    ep["runtime_gb"] = prof.runtime_gib * eng.GIB_GB
    ep["act_tokens"] = prof.activation_tokens
    for tp in (1, 2, 4, 8):
        ep[f"act_c{tp}"] = prof.activation_coeff.get(tp, 0.0)
    ep["reserve_whole"] = 1.0 if prof.reserves_whole_request else 0.0
    ep["front_end_s_per_token"] = prof.front_end_s_per_token
    ep.setdefault("prefill_compute_scale", 1.0)
    # Serving engines: the fitted pass overhead is that of a model of OVERHEAD_REFERENCE_LAYERS layers
    # and grows with the layers a pass runs (`pass_overhead_of`); llama.cpp's is one per pass.
    ep["overhead_per_layer"] = 1.0 if engine == "optimized" else 0.0
    ep["tensor_parallel"] = engine == "optimized"
    ep["whole_batch_first"] = FIRST_TOKEN_AFTER_WHOLE_BATCH[engine]
    return ep


def _shape(model: Model, active_b, bytes_per_param=None, params_b=None, kv_bytes=None,
           window_extra_cells=0.0, moe_extra_s=0.0) -> ModelShape:
    kv_dim = model.kv_dim
    if kv_dim is None and model.kv_heads and model.head_dim:
        kv_dim = model.kv_heads * model.head_dim
    attn = model.heads * model.head_dim if model.heads and model.head_dim else None
    layers, hidden, kv, attn_dim = model_shape(active_b, model.layers, model.hidden_size, kv_dim, attn)
    return ModelShape(
        params_b=float(model.params_b) if params_b is None else params_b, active_b=active_b,
        bytes_per_param=float(model.bytes_per_param) if bytes_per_param is None else bytes_per_param,
        loops=float(model.loops), loop_kv_window=model.loop_kv_window, layers=layers, hidden=hidden,
        kv_dim=kv, attn_dim=attn_dim,
        attention_layers=layers if model.attention_layers is None else float(model.attention_layers),
        kv_bytes=float(model.kv_bytes) if kv_bytes is None else float(kv_bytes),
        state_gb=float(model.recurrent_state_gb),
        window_layers=float(model.window_layers or 0),
        window_cells=float(model.window_tokens or 0) + (float(window_extra_cells) if model.window_tokens else 0.0),
        extra_allreduces=float(model.extra_allreduces_per_layer), moe_small_batch_s=float(moe_extra_s),
        expert_active_b=active_b * routed_active_share(model),
        **({"routed_share": active_b / (float(model.params_b) if params_b is None else params_b)}
           | _split_fields(model, bytes_per_param)))


def routed_active_share(model: Model) -> float:
    """Share of a model's active parameters that sit in its routed experts: from the card's split
    (Model.expert_active_b / active_params_b) where given, ROUTED_ACTIVE_SHARE for an MoE given
    without it, 0 for a dense model."""
    if model.expert_active_b is not None:
        return float(model.expert_active_b) / model.active_b if model.active_b > 0 else 0.0
    return ROUTED_ACTIVE_SHARE if model.active_b < model.params_b else 0.0


def _split_fields(model: Model, bytes_per_param=None) -> dict:
    """ModelShape's weight split (`weight_split`) for a model whose card splits its parameters; the
    defaults (the whole model as routed experts) otherwise. Only a model with the split needs
    scalar bytes per parameter (no catalog model with it is swept over size or precision)."""
    if model.expert_params_b is None:
        return {}
    always, routed, share = weight_split(model, None if bytes_per_param is None else float(bytes_per_param))
    return {"always_frac": always, "routed_frac": routed, "routed_share": share}


def compute_peak_scale(hardware: Hardware, engine: str) -> float:
    """How much faster than `peak_tflops` the engine's FP16 matmuls can run on this device:
    llama.cpp's CUDA backend multiplies F16 (and dequantised) matrices with cuBLAS at FP16 compute
    (CUBLAS_COMPUTE_16F, ggml-cuda mul_mat; GGML_CUDA_FORCE_CUBLAS_COMPUTE_32F turns it off), so on a
    GeForce card it reaches the FP16-accumulate rate, twice the FP32-accumulate figure the catalogs
    quote (Hardware.fp16_acc_tflops); serving engines accumulate in FP32. 1 elsewhere."""
    if engine == "llama.cpp" and hardware.fp16_acc_tflops:
        return float(hardware.fp16_acc_tflops) / float(hardware.peak_tflops)
    return 1.0


def _device(hardware: Hardware, lowp: float, bw=None, peak=None, engine: str | None = None) -> Device:
    scale = compute_peak_scale(hardware, engine) if engine else 1.0
    return Device(mem_bandwidth_gbs=float(hardware.mem_bandwidth_gbs) if bw is None else bw,
                  peak_tflops=(float(hardware.peak_tflops) if peak is None else peak) * scale,
                  memory_gb=float(hardware.memory_gb), lowp_speedup=lowp,
                  max_devices=hardware.resolved("max_devices"),
                  interconnect_gbs=hardware.resolved("interconnect_gbs"),
                  link_latency_s=hardware.resolved("link_latency_s"))


def window_extra_cells(server: str, ubatch_tokens=None) -> float:
    """KV cells a sliding-window layer keeps beyond its window on this engine
    (EngineProfile.window_extra_cells); on llama.cpp `ubatch_tokens` (-ub) where given."""
    extra = float(eng.profile(server).window_extra_cells)
    if ubatch_tokens is not None:
        ub = float(_int("ubatch_tokens", ubatch_tokens, lo=1, hi=10**6))
        return ub if extra > 0 else 0.0
    return extra


def _common_inputs(hardware: Hardware, engine, access, connection, devices):
    family, server = _resolve_engine(engine, hardware.kind)
    _choice("access", access, ACCESS_NETWORKS)
    _choice("connection", connection, CONNECTIONS)
    if devices is not None:
        devices = float(_int("devices", devices, lo=1, hi=4096))
    return family, server, devices


def estimate(model: Model, hardware: Hardware, prompt_tokens=512, output_tokens=256, batch=1,
             distance_km=0.0, engine=None, *, access: str = "wired", connection: str = "warm",
             utilization: float = 0.0, concurrent_users: float = 1, context_tokens: float = 0,
             devices: int | None = None, params: dict | None = None, serving_api: bool = True,
             arrival: str = "steady", think_s: float = 0.0, spec_tokens: int = 0, spec_accept: float = 0.0,
             spec_draft_b: float | None = None, ubatch_tokens: int | None = None) -> Estimate:
    """Estimate one request's latency. See the module docstring and docs/estimator.md.

    prompt_tokens, output_tokens, batch: >= 1. distance_km: user to server over the backbone,
    [0, MAX_DISTANCE_KM] (once around the Earth). engine: None (by hardware kind: datacenter_gpu
    -> "optimized", else "llama.cpp"), "llama.cpp", "optimized" (vLLM's defaults), or a serving
    engine by name ("vllm", "tensorrt-llm", "sglang"; aliases such as "nim", "ollama"). access: "wired" (= fibre,
    9.4 ms) | "fibre" | "cable" | "dsl" | "wifi" | "lte" | "5g" | "none". connection: "warm" (reused) | "cold"
    (TCP + TLS 1.3 first). utilization: server load in [0, 1) for the M/M/1 wait.
    concurrent_users: people using the service at the same time, including you (>= 0). With
    arrival="steady" (default) each sends a new request when the previous answer has arrived, after
    think_s seconds (default 0, as serving benchmarks run): the engine's steady state with
    continuous batching and chunked prefill (latency.estimation.serving); the KV cache caps the
    running requests and users beyond it queue. arrival="burst": all N requests arrive in the same
    instant and share one prefill; the rest wait for a slot. context_tokens: tokens
    already in the KV cache before this prompt (earlier turns, a cached prefix; >= 0).
    devices: force a device count (default: the fewest that hold the model).
    serving_api: the request goes through the serving engine's API (HTTP, tokenising, scheduling),
    as every request to a deployed server does; it adds the engine's own per-request
    `request_overhead_s` (latency.estimation.engines: vLLM's fitted, TensorRT-LLM's, SGLang's;
    llama.cpp none) to the prefill stage, reported as `Estimate.overhead_s`. False:
    engine-internal timing, as in TensorRT-LLM's own batch-1 benchmark tables. The queue stage is
    only the wait for other users: 0 with one user at utilization 0; with arrival="burst" and
    serving_api it includes the wait for the front end to tokenise the requests ahead
    (`front_end_wait_s`; engines with a Python front end).
    spec_tokens (k, 0 = off), spec_accept (a, in [0, 1]), spec_draft_b (optional): speculative
    decoding: a draft proposes k tokens per step, each accepted with chance a, and the target verifies
    them in one pass, yielding (1 - a^(k+1)) / (1 - a) tokens per step (`tokens_per_verification`).
    The draft is a one-layer head (EAGLE-style) unless spec_draft_b gives a separate draft model's
    size in billions. Verification costs k + 1 tokens' compute per stream, so the gain shrinks with
    the batch and turns into a loss where decode is compute-bound (docs/estimator.md).
    ubatch_tokens: llama.cpp's physical batch (-ub; None: its default,
    EngineProfile.window_extra_cells), which its sliding-window layers keep beyond the window
    (`window_kv_cache_gb`); other engines keep none and ignore it.
    """
    if not isinstance(model, Model):
        raise ValueError(f"model must be a latency.Model, got {type(model).__name__}")
    if not isinstance(hardware, Hardware):
        raise ValueError(f"hardware must be a latency.Hardware, got {type(hardware).__name__}")
    prompt = _real("prompt_tokens", prompt_tokens, lo=1, hi=1e8, lo_open=False)
    output = _real("output_tokens", output_tokens, lo=1, hi=1e8, lo_open=False)
    b = _real("batch", batch, lo=1, hi=1e6, lo_open=False)
    dist = _real("distance_km", distance_km, lo=0, hi=MAX_DISTANCE_KM, lo_open=False)
    util = _real("utilization", utilization, lo=0, hi=1, lo_open=False, hi_open=True)
    users = _real("concurrent_users", concurrent_users, lo=0, hi=1e9, lo_open=False)
    context = _real("context_tokens", context_tokens, lo=0, hi=1e8, lo_open=False)
    _choice("arrival", arrival, ARRIVALS)
    think = _real("think_s", think_s, lo=0, hi=MAX_THINK_S, lo_open=False)
    k, acc, draft_b = _spec_inputs(spec_tokens, spec_accept, spec_draft_b, model.params_b)
    params = params or load_params()
    engine, server, forced = _common_inputs(hardware, engine, access, connection, devices)
    extra = window_extra_cells(server, ubatch_tokens)

    bpp = float(model.bytes_per_param)
    fmt = weight_format_of(model, hardware, engine, bpp)
    ep = _engine_values(engine, hardware.kind, bpp, params, server, fmt, model.low_precision_compute is False)
    net = params["network"]
    net_s = network_s(dist, access_rtt_s(access), SETUP_ROUND_TRIPS[connection],
                      net["fixed_ms"], net["route_inflation"], 1.0 if dist > 0 else 0.0)
    r = request_times(_shape(model, model.active_b, kv_bytes=kv_bytes_of(model, fmt, server), window_extra_cells=extra,
                             moe_extra_s=moe_small_batch_extra_s(model, hardware, server, fmt)),
                      _device(hardware, _lowp(model, hardware, engine, bpp, fmt, server), engine=engine),
                      ep, params.get("combine", "max"),
                      Workload(prompt=prompt, output=output, context=context, batch=b, users=users,
                               utilization=util, network_s=net_s, forced_devices=forced,
                               api=1.0 if serving_api else 0.0, steady=1.0 if arrival == "steady" else 0.0,
                               think_s=think, spec_tokens=k, spec_accept=acc, spec_draft_b=draft_b))
    breakdown = {stage: float(r[stage]) for stage in STAGES}
    total = sum(breakdown.values())
    ranges = _ranges(params, ep["calibrated"], breakdown, r["tpot_s"], output, r["batch_prefill_s"],
                     r["batch_prefill_tokens"], r["server_tokens_per_s"], serving=users > 1)
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
                    connection=connection, utilization=util, concurrent_users=users,
                    context_tokens=context, arrival=arrival, think_s=think, spec_tokens=k,
                    spec_accept=acc, spec_draft_b=draft_b),
        server_tokens_per_s=float(r["server_tokens_per_s"]), running_batch=max(1, int(round(float(r["running_batch"])))),
        max_concurrent_requests=int(r["max_concurrent_requests"]),
        overhead_s=float(r["overhead"]), serving_engine=server,
        min_devices=int(r["min_devices"]), devices_for_users=int(r["devices_for_users"]),
        kv_budget_gb=float(r["kv_budget_gb"]), kv_bytes=float(r["kv_bytes"]), weight_format=fmt,
        timing_valid=bool(r["fits"]),
    )


def _band(params: dict, stage: str, calibrated: bool) -> tuple[float, float]:
    """(low, high) multiplicative factors on a stage's time, aiming at RANGE_COVERAGE: the
    calibrated band (leave-one-device-out errors) or, for (engine, kind) pairs without calibration
    rows, the uncalibrated one (leave-one-kind-out errors). Older parameter files without
    "bands_uncalibrated" square the calibrated band (doubled in log space)."""
    lo, hi = params["bands"][stage]
    if not calibrated:
        unc = params.get("bands_uncalibrated", {}).get(stage)
        lo, hi = unc if unc else (lo * lo, hi * hi)
    return lo, hi


def _ranges(params, calibrated, bd, tpot, output, batch_prefill, prefill_tokens, server_tps, serving=False):
    """Each headline figure's range from the stages' bands. serving (more than one concurrent user):
    the serving benchmark's own bands ("bands_serving", python -m latency.calibrate) where it has
    them: per-user decode, time to first token (queue and prefill together) and server throughput."""
    nlo, nhi = _band(params, "network", True)
    plo, phi = _band(params, "prefill", calibrated)
    dlo, dhi = _band(params, "decode", calibrated)
    sb = params.get("bands_serving", {}) if serving else {}
    if "ttft" in sb:  # the compute bands and the serving TTFT band (not the serving decode band)
        tlo, thi = min(plo, dlo, sb["ttft"][0]), max(phi, dhi, sb["ttft"][1])
        ttft = (bd["network"] * nlo + (bd["queue"] + bd["prefill"]) * tlo,
                bd["network"] * nhi + (bd["queue"] + bd["prefill"]) * thi)
    if "decode" in sb:
        dlo, dhi = min(dlo, sb["decode"][0]), max(dhi, sb["decode"][1])
    if "ttft" not in sb:
        ttft = (bd["network"] * nlo + bd["queue"] * dlo + bd["prefill"] * plo,
                bd["network"] * nhi + bd["queue"] * dhi + bd["prefill"] * phi)
    slo, shi = (min(plo, dlo), max(phi, dhi))
    if "throughput" in sb:
        slo, shi = min(slo, sb["throughput"][0]), max(shi, sb["throughput"][1])
    tp = (tpot * dlo, tpot * dhi)
    return {
        "ttft_s": ttft,
        "tpot_s": tp,
        "total_s": (ttft[0] + (output - 1) * tp[0], ttft[1] + (output - 1) * tp[1]),
        "decode_tokens_per_s": (1.0 / tp[1], 1.0 / tp[0]),
        "prefill_tokens_per_s": (prefill_tokens / (batch_prefill * phi), prefill_tokens / (batch_prefill * plo)),
        "server_tokens_per_s": (server_tps / shi, server_tps / slo),
    }


_SWEEP_LIMITS = {  # name: (low, high, low end open, high end open)
    "params_b": (0, 1e5, True, False), "bytes_per_param": (0, 8, True, False),
    "mem_bandwidth_gbs": (0, 1e6, True, False), "peak_tflops": (0, 1e6, True, False),
    "prompt_tokens": (1, 1e8, False, False), "output_tokens": (1, 1e8, False, False),
    "batch": (1, 1e6, False, False), "distance_km": (0, MAX_DISTANCE_KM, False, False),
    "utilization": (0, 1, False, True), "concurrent_users": (0, 1e9, False, False),
    "context_tokens": (0, 1e8, False, False),
}
_SWEEP_ARRAYS = tuple(_SWEEP_LIMITS)


def _checked_array(name: str, value) -> np.ndarray:
    a = np.asarray(value, dtype=float)
    lo, hi, lo_open, hi_open = _SWEEP_LIMITS[name]
    bad = ~np.isfinite(a) | ((a <= lo) if lo_open else (a < lo)) | ((a >= hi) if hi_open else (a > hi))
    if np.any(bad):
        first = a[bad].flat[0] if a.ndim else a
        raise ValueError(f"{name} must be finite numbers in {'(' if lo_open else '['}{lo:g}, {hi:g}"
                         f"{')' if hi_open else ']'}, got {first!r}")
    return a


def estimate_sweep(model: Model, hardware: Hardware, *, params_b=None, bytes_per_param=None,
                   mem_bandwidth_gbs=None, peak_tflops=None, prompt_tokens=512, output_tokens=256,
                   batch=1, distance_km=0.0, engine=None, access: str = "wired",
                   connection: str = "warm", utilization=0.0, concurrent_users=1, context_tokens=0,
                   devices: int | None = None, params: dict | None = None,
                   serving_api: bool = True, arrival: str = "steady", think_s: float = 0.0, spec_tokens: int = 0,
                   spec_accept: float = 0.0, spec_draft_b: float | None = None,
                   ubatch_tokens: int | None = None) -> dict[str, np.ndarray]:
    """Vectorised `estimate`: the numeric inputs may be numpy arrays, broadcast together.

    params_b / bytes_per_param / mem_bandwidth_gbs / peak_tflops override the model's or the
    hardware's value (None keeps it); for MoE models active params scale with params_b. Returns
    a dict of float arrays, all of the broadcast shape: network, queue, prefill, decode, ttft_s,
    tpot_s, total_s, prefill_tokens_per_s, decode_tokens_per_s, throughput_tokens_per_s,
    server_tokens_per_s, running_batch, max_concurrent_requests, memory_gb, weights_gb,
    kv_cache_gb, devices_needed, overhead (the engine's request handling, part of prefill),
    min_devices, devices_for_users, kv_budget_gb, kv_bytes, and 0/1 arrays fits, fits_one_device. The quantisation efficiency
    follows the model's bytes_per_param (not the swept one). Invalid values raise ValueError
    naming the field.
    """
    params = params or load_params()
    engine, server, forced = _common_inputs(hardware, engine, access, connection, devices)
    extra = window_extra_cells(server, ubatch_tokens)
    _choice("arrival", arrival, ARRIVALS)
    think = _real("think_s", think_s, lo=0, hi=MAX_THINK_S, lo_open=False)
    k, acc, draft_b = _spec_inputs(spec_tokens, spec_accept, spec_draft_b, model.params_b)
    raw = dict(params_b=model.params_b if params_b is None else params_b,
               bytes_per_param=model.bytes_per_param if bytes_per_param is None else bytes_per_param,
               mem_bandwidth_gbs=hardware.mem_bandwidth_gbs if mem_bandwidth_gbs is None else mem_bandwidth_gbs,
               peak_tflops=hardware.peak_tflops if peak_tflops is None else peak_tflops,
               prompt_tokens=prompt_tokens, output_tokens=output_tokens, batch=batch,
               distance_km=distance_km, utilization=utilization, concurrent_users=concurrent_users,
               context_tokens=context_tokens)
    a = dict(zip(_SWEEP_ARRAYS, np.broadcast_arrays(*(_checked_array(k, raw[k]) for k in _SWEEP_ARRAYS))))
    bpp0 = float(model.bytes_per_param)
    fmt = weight_format_of(model, hardware, engine, bpp0)
    ep = _engine_values(engine, hardware.kind, bpp0, params, server, fmt, model.low_precision_compute is False)
    active = a["params_b"] * (model.active_b / model.params_b)
    net = params["network"]
    d = a["distance_km"]
    net_s = network_s(d, access_rtt_s(access), SETUP_ROUND_TRIPS[connection], net["fixed_ms"],
                      net["route_inflation"], nm.as_float(d > 0))
    r = request_times(_shape(model, active, a["bytes_per_param"], a["params_b"], kv_bytes_of(model, fmt, server),
                             window_extra_cells=extra, moe_extra_s=moe_small_batch_extra_s(model, hardware, server, fmt)),
                      _device(hardware, _lowp(model, hardware, engine, bpp0, fmt, server), a["mem_bandwidth_gbs"],
                              a["peak_tflops"], engine=engine),
                      ep, params.get("combine", "max"),
                      Workload(prompt=a["prompt_tokens"], output=a["output_tokens"], context=a["context_tokens"],
                               batch=a["batch"], users=a["concurrent_users"], utilization=a["utilization"],
                               network_s=net_s, forced_devices=forced, api=1.0 if serving_api else 0.0,
                               steady=1.0 if arrival == "steady" else 0.0, think_s=think,
                               spec_tokens=k, spec_accept=acc, spec_draft_b=draft_b))
    shape = d.shape
    out = {k: np.broadcast_to(np.asarray(v, dtype=float), shape) for k, v in r.items()
           if k not in ("prefill_compute_bound", "decode_compute_bound", "batch_prefill_s", "batch_prefill_tokens")}
    out["total_s"] = out["network"] + out["queue"] + out["prefill"] + out["decode"]
    return out


__all__ = [
    "Hardware", "Model", "Estimate", "estimate", "estimate_sweep", "round_trip_s", "KINDS", "ENGINES",
    "ARCHITECTURES", "ACCESS_NETWORKS", "CONNECTIONS", "STAGES", "ARRIVALS", "DEFAULT_ENGINE", "KIND_DEFAULTS",
    "RANGE_COVERAGE", "load_params", "calibration_dir", "model_shape", "kv_cache_gb", "memory_gb",
    "queue_s", "prefill_s", "decode_step_s", "kv_capacity_requests", "running_batch", "request_times",
    "first_token_compute_share", "engine_step_fn",
]
