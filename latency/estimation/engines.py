"""What each serving engine does by default, read from the engines' own sources and docs.

    from latency.estimation.engines import profile, SERVING_ENGINES
    p = profile("tensorrt-llm")          # EngineProfile; p.family -> "optimized"

The estimator's fitted parameters come in two families (`estimator.ENGINES`): "llama.cpp" (local
runners: llama.cpp, Ollama, LM Studio) and "optimized" (serving engines: vLLM, TensorRT-LLM,
SGLang), fitted on the calibration data. Within a family, engines differ in what they do by
default rather than in their kernels' speed, and those defaults are read from the engines
themselves (the defaults are also what NVIDIA's aiconfigurator models, `ai-dynamo/aiconfigurator`
`aic-core/src/aiconfigurator_core/sdk/backends/*_backend.py`, read at 095f58a):

* the per-request time of the engine's API front end (HTTP, tokenising, handing the request to the
  scheduler), `request_overhead_s`;
* the share of device memory the engine manages (`memory_fraction`) and whether that share is of
  the device's whole memory (vLLM `gpu_memory_utilization`, SGLang `mem_fraction_static`) or of
  what is free after the weights (TensorRT-LLM `free_gpu_memory_fraction`);
* the runtime's own memory (CUDA context, cuBLAS and NCCL workspaces) and the activation buffers,
  sized for the most tokens one step may carry;
* the precision of the KV cache with each weight format;
* how the KV cache admits requests: room for the whole request reserved up front (TensorRT-LLM's
  default `GUARANTEED_NO_EVICT` capacity scheduler) or blocks taken as tokens arrive, with a running
  request preempted and recomputed when they run out (vLLM's PagedAttention, Kwon et al. 2023,
  SOSP, sec. 4.5; SGLang's radix cache);
* the token budget of one step and the most requests it runs (`serving.token_budget_tokens`);
* the achieved bandwidth of weight-only low-bit formats (dequantisation in the matmul kernel);
* which kernels run a block-scaled FP8 mixture-of-experts (`deepgemm_block_fp8_moe`).

Every number is beside its source; the ones that are assumptions say so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from .constants import FRONT_END_S_PER_TOKEN

FAMILIES = ("llama.cpp", "optimized")

GIB_GB = 2**30 / 1e9
"""Decimal GB per GiB. Device memory is quoted in binary units (JEDEC JESD100B.01: for memory
capacity "giga" is 2^30; nvidia-smi shows the A100 80GB as 81,920 MiB = 80 GiB), while the
estimator counts weights in decimal GB (params x bytes): an "80 GB" GPU holds 85.9 GB of weights."""


@dataclass(frozen=True)
class EngineProfile:
    """One serving engine's defaults. See the module docstring; sources in ENGINE_PROFILES."""

    name: str
    family: str
    label: str
    request_overhead_s: float | None
    """Per-request API time, s; None = the fitted value of the family (fitted_params.json)."""
    overhead_origin: str
    """"fitted", "prior" (carried over from another engine, with the reason in the docs) or
    "assumption"."""
    memory_fraction: float
    fraction_of_free: bool
    runtime_gib: float
    """Per device: CUDA context, cuBLAS/cuDNN workspaces, CUDA graphs and the like, GiB."""
    activation_tokens: float
    """Tokens the activation buffers are sized for (the most one step carries)."""
    activation_coeff: Mapping[int, float] = field(default_factory=dict)
    """Activation bytes per token per hidden unit per device, by tensor-parallel degree (x 2 bytes)."""
    fp8_kv_with_low_bit_float_weights: bool = False
    """FP8 (and FP4) weights come with an FP8 KV cache by default."""
    reserves_whole_request: bool = False
    """True: a request is admitted only with room for its prompt and its whole answer (no
    preemption); False: blocks are taken as tokens arrive and a running request is preempted
    (its KV cache dropped and recomputed later) when they run out."""
    weight_only_bw_eff: Mapping[str, float] = field(default_factory=dict)
    """Achieved bandwidth of weight-only formats relative to FP16 weights, by format family
    ("int8", "int4"): the dequantisation inside the matmul kernel (see WEIGHT_ONLY_*)."""
    window_extra_cells: float = 0.0
    """KV cells a sliding-window layer keeps per sequence beyond its window (0: what falls out of
    the window is freed: vLLM's hybrid KV-cache manager, TensorRT-LLM's cyclic cache, SGLang's
    sliding-window pool; estimator.window_kv_cache_gb)."""
    front_end_s_per_token: float = 0.0
    """Seconds of the front end's one tokenising thread per prompt token (constants.FRONT_END_S_PER_TOKEN
    for the Python front ends of vLLM, SGLang and TensorRT-LLM's trtllm-serve; 0 for llama.cpp, whose
    server tokenises in C++ in the slot that runs the request): requests that arrive together wait for
    the ones ahead of them (`estimator.front_end_wait_s`)."""
    deepgemm_block_fp8_moe: bool = False
    """True: a block-scaled FP8 MoE (Model.fp8_block_scaled) runs on DeepGEMM's grouped GEMMs by
    default, except at eight-way tensor parallelism (`estimator.moe_small_batch_extra_s`)."""


# Activation coefficients: aiconfigurator's TensorRT-LLM backend, ACTIVATION_COEFFICIENTS["LLAMA"]
# ({1: 11, 2: 6.5, 4: 5, 8: 5}); SGLang's ({1: 14, 2: 8.5, 4: 6.5, 8: 6.5}); vLLM reuses TensorRT-LLM's.
# activations = 2 bytes x tokens x hidden x coefficient(tp) per device (BaseBackend._get_memory_usage).
_TRT_ACT = {1: 11.0, 2: 6.5, 4: 5.0, 8: 5.0}
_SGL_ACT = {1: 14.0, 2: 8.5, 4: 6.5, 8: 6.5}

RUNTIME_GIB = 3.5
"""Per device, beyond weights, KV cache and activations: aiconfigurator's system spec for every
data-centre GPU, misc.other_mem = 3,758,096,384 bytes ("increase from 551MB to 3.5GB for safer
deployment": CUDA context, cuBLAS workspaces, CUDA graphs; systems/h100_sxm.yaml)."""

NCCL_GIB = {1: 0.0, 2: 358_612_992 / 2**30, 4: 411_041_792 / 2**30, 8: 411_041_792 / 2**30}
"""NCCL buffers per device by tensor-parallel degree, GiB (aiconfigurator systems/h100_sxm.yaml
misc.nccl_mem: 0 / 358,612,992 / 411,041,792 / 411,041,792 bytes)."""

LLAMA_CPP_RUNTIME_GIB = 0.5
"""llama.cpp per device: the CUDA/Metal context and its compute buffer for one 512-token ubatch
(llama.cpp prints "compute buffer size" at load: a few hundred MiB for 8B-70B models at the
default -ub 512). An ASSUMPTION of the order of magnitude; it matters only for a model within
half a GB of a device's memory."""

LLAMA_CPP_UBATCH = 512.0
"""llama.cpp's physical batch (-ub, n_ubatch; common/common.h default 512). Its sliding-window
layers keep n_swa + n_ubatch KV cells per sequence (src/llama-kv-cache-iswa.cpp: size_swa =
GGML_PAD(n_swa * n_seq + n_ubatch, n_pad), unless --swa-full), and a decode step's attention
reads every cell in use: Gemma 3's 1,024-token window costs 1,536 cells at the default and 3,072
at -ub 2048 (the DGX Spark benchmark's setting)."""

WEIGHT_ONLY_INT8_BW_EFF = 0.85
"""Weight-only INT8 (W8A16: 8-bit weights dequantised to FP16 inside the matmul) on serving
engines: achieved weight bandwidth relative to FP16 weights. An ASSUMPTION bounded by published
kernel behaviour: the dequantisation adds integer work per weight loaded, so these kernels stream
weights below the FP16 kernels' rate at small batch (Marlin README, IST-DASLab/marlin: existing
weight-only kernels come "relatively close" to the ideal speed-up only on large, ideally
partitioned matrices, lose part of it on real model shapes and at sustained (base) clocks), and
the layers that stay FP16 (attention, norms, the fixed per-step cost) do not shrink with the
weights. Used only where a model asks for weight-only 8-bit compute (Model.low_precision_compute
False); FP8/INT8 W8A8 run at the native rate. Checked, not fitted, in docs/estimator.md."""

WEIGHT_ONLY_INT4_BW_EFF = 0.7
"""Weight-only INT4 (W4A16: GPTQ, AWQ, group 128) on serving engines: achieved weight bandwidth
relative to FP16 weights. An ASSUMPTION bounded by the same published kernel behaviour (Marlin
README: the ideal speed-up of 4-bit weights over FP16 is 3.87x with group scales; prior kernels
approach it at batch 1 on large matrices only; Marlin keeps it "on real (smaller) matrices" but
is "not yet optimized for Hopper"): 0.7 is the share of the ideal the estimate assumes for the
whole set of weight reads, dequantisation included. Checked, not fitted, against gpt-fast's
Llama-2-70B int4 row in docs/estimator.md."""

ENGINE_PROFILES: dict[str, EngineProfile] = {
    # vLLM: `vllm serve` defaults. gpu_memory_utilization 0.9 of TOTAL device memory
    # (vllm/config/cache.py CacheConfig; 0.92 from v0.22, aiconfigurator vllm_backend.py
    # VLLM_GPU_MEMORY_UTILIZATION_BY_VERSION); KV cache "auto" = the checkpoint's choice: FP8
    # checkpoints published with KV scales (ModelOpt hf_quant_config kv_cache_quant_algo "FP8",
    # llm-compressor kv_cache_scheme) run an FP8 cache (vLLM docs, "Quantized KV Cache"); blocks
    # are allocated as tokens arrive and the newest running request is preempted and recomputed
    # when none is free (Kwon et al. 2023, sec. 4.5; vLLM V1 scheduler, PreemptionMode RECOMPUTE).
    # Block-scaled FP8 MoE on DeepGEMM: VLLM_USE_DEEP_GEMM and VLLM_MOE_USE_DEEP_GEMM default on
    # (vllm-project/vllm #28422, Nov 2025: "VLLM_MOE_USE_DEEP_GEMM=1 => DEEPGEMM", else CUTLASS
    # block-scaled grouped GEMM), off by default at tensor parallel 8 only (#29346, Nov 2025: "DeepGEMM
    # MoE is disabled by default when TP size is 8"), as in v0.12 (the calibration's B200 benchmark);
    # DeepGEMM ships in vLLM's container image (tools/install_deepgemm.sh, "used both in Docker builds
    # and by users locally"). Later releases prefer FlashInfer's kernels on Blackwell (aiconfigurator's
    # vLLM 0.24.0 B200 tables time FlashInfer TensorRT-LLM FP8-block MoE, not DeepGEMM).
    "vllm": EngineProfile(
        name="vllm", family="optimized", label="vLLM", request_overhead_s=None, overhead_origin="fitted",
        memory_fraction=0.9, fraction_of_free=False, runtime_gib=RUNTIME_GIB, activation_tokens=8192.0,
        activation_coeff=_TRT_ACT, fp8_kv_with_low_bit_float_weights=True, reserves_whole_request=False,
        weight_only_bw_eff={"int8": WEIGHT_ONLY_INT8_BW_EFF, "int4": WEIGHT_ONLY_INT4_BW_EFF},
        deepgemm_block_fp8_moe=True, front_end_s_per_token=FRONT_END_S_PER_TOKEN),
    # TensorRT-LLM (trtllm-serve, Triton, NIM): free_gpu_memory_fraction 0.9 of the memory FREE
    # after weights and runtime (KvCacheConfig; aiconfigurator trtllm_backend.py
    # TRTLLM_DEFAULT_FREE_GPU_MEMORY_FRACTION, plus KV_CACHE_MEMORY_RESERVED_FRACTION 0.015 for the
    # block allocator); max_num_tokens 8,192 (BuildConfig); capacity scheduler GUARANTEED_NO_EVICT
    # by default (tensorrt_llm/llmapi SchedulerConfig: a request is scheduled only if its whole
    # KV cache, prompt plus max new tokens, can be guaranteed); ModelOpt FP8 and NVFP4 checkpoints
    # name an FP8 KV cache (hf_quant_config "kv_cache_quant_algo": "FP8"), which the LLM API uses.
    # Per-request front-end time: an ASSUMPTION of 5 ms (HTTP on the host and a Rust fast
    # tokenizer: "less than 20 seconds to tokenize a GB of text", huggingface/tokenizers README,
    # i.e. well under 1 ms for a 5,000-token prompt); TensorRT-LLM's own batch-1 tables in the
    # calibration data are engine-internal and show none.
    "tensorrt-llm": EngineProfile(
        name="tensorrt-llm", family="optimized", label="TensorRT-LLM", request_overhead_s=0.005,
        overhead_origin="assumption", memory_fraction=0.9 * (1 - 0.015), fraction_of_free=True,
        runtime_gib=RUNTIME_GIB, activation_tokens=8192.0, activation_coeff=_TRT_ACT,
        fp8_kv_with_low_bit_float_weights=True, reserves_whole_request=True,
        weight_only_bw_eff={"int8": WEIGHT_ONLY_INT8_BW_EFF, "int4": WEIGHT_ONLY_INT4_BW_EFF},
        front_end_s_per_token=FRONT_END_S_PER_TOKEN),
    # SGLang: mem_fraction_static 0.88 fallback of TOTAL memory (python/sglang/srt/server_args.py,
    # aiconfigurator sglang_backend.py SGLANG_FALLBACK_MEM_FRACTION_STATIC; on >60 GB GPUs at least
    # 10 GiB is kept back), higher activation and runtime overheads than TensorRT-LLM
    # (ACTIVATION_OVERHEAD_FRAC 0.15, OTHERS_OVERHEAD_FRAC 0.20, coefficients above); KV cache
    # "auto" as vLLM; blocks (radix-tree pages) taken as tokens arrive, with retraction of running
    # requests when they run out. Front end: a Python HTTP server with tokenizer and detokenizer
    # processes over ZMQ, as vLLM's: vLLM's fitted time carried over (prior).
    "sglang": EngineProfile(
        name="sglang", family="optimized", label="SGLang", request_overhead_s=None, overhead_origin="prior",
        memory_fraction=0.88, fraction_of_free=False, runtime_gib=RUNTIME_GIB * 1.2, activation_tokens=8192.0,
        activation_coeff={k: v * 1.15 for k, v in _SGL_ACT.items()}, fp8_kv_with_low_bit_float_weights=True,
        reserves_whole_request=False,
        weight_only_bw_eff={"int8": WEIGHT_ONLY_INT8_BW_EFF, "int4": WEIGHT_ONLY_INT4_BW_EFF},
        front_end_s_per_token=FRONT_END_S_PER_TOKEN),
    # llama.cpp (llama-server, llama-bench, Ollama): allocates what it needs at load and fails
    # otherwise (no reserved share: fraction 1); KV cache F16 whatever the weights (-ctk/-ctv
    # default f16, tools/server README); one slot's context is reserved per parallel user (-np);
    # its block-quantised formats' dequantisation is fitted (quant_bw_eff in fitted_params.json),
    # so no separate weight-only factor here. No per-request front-end time is measured: the HTTP
    # server runs in the same C++ process.
    "llama.cpp": EngineProfile(
        name="llama.cpp", family="llama.cpp", label="llama.cpp", request_overhead_s=0.0, overhead_origin="assumption",
        memory_fraction=1.0, fraction_of_free=False, runtime_gib=LLAMA_CPP_RUNTIME_GIB, activation_tokens=512.0,
        activation_coeff={1: 0.0, 2: 0.0, 4: 0.0, 8: 0.0}, fp8_kv_with_low_bit_float_weights=False,
        reserves_whole_request=True, weight_only_bw_eff={}, window_extra_cells=LLAMA_CPP_UBATCH),
}

FAMILY_DEFAULT = {"optimized": "vllm", "llama.cpp": "llama.cpp"}
"""The engine a family name stands for: "optimized" means vLLM's defaults (the serving engine of
the calibration's serving benchmark), "llama.cpp" llama.cpp's."""

ALIASES = {"trt-llm": "tensorrt-llm", "tensorrt_llm": "tensorrt-llm", "trtllm": "tensorrt-llm", "nim": "tensorrt-llm",
           "triton": "tensorrt-llm", "ollama": "llama.cpp", "lm-studio": "llama.cpp", "llama-server": "llama.cpp"}
"""Other names of the same engines (NVIDIA NIM for LLMs and Triton serve through TensorRT-LLM;
Ollama and LM Studio run llama.cpp)."""

SERVING_ENGINES = tuple(ENGINE_PROFILES)


def profile(name: str) -> EngineProfile:
    """The profile for an engine name, a family name ("optimized", "llama.cpp") or an alias."""
    key = ALIASES.get(name, FAMILY_DEFAULT.get(name, name))
    return ENGINE_PROFILES[key]


def accepted_names() -> tuple[str, ...]:
    return tuple(dict.fromkeys(FAMILIES + SERVING_ENGINES + tuple(ALIASES)))


__all__ = ["EngineProfile", "ENGINE_PROFILES", "SERVING_ENGINES", "FAMILIES", "ALIASES", "FAMILY_DEFAULT",
           "profile", "accepted_names", "GIB_GB", "RUNTIME_GIB", "NCCL_GIB", "LLAMA_CPP_RUNTIME_GIB",
           "WEIGHT_ONLY_INT8_BW_EFF", "WEIGHT_ONLY_INT4_BW_EFF"]
