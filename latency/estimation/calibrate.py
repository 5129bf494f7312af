"""Fit the estimator's free parameters on shared/calibration/ and write latency/estimation/fitted_params.json.

    python -m latency.calibrate            # fit, print the error tables, write the two JSON files
    python -m latency.calibrate --check    # fit and compare with both committed files, write nothing

Two files are written: latency/estimation/fitted_params.json (what the estimator loads) and
latency/estimation/calibration_report.json (every row's measured, in-sample and leave-one-device-out
predicted value, the RTT routes and the excluded values), which the "How the estimate works" page
shows, so the app can show its error table without ../shared/calibration/ being present.

What is fitted (everything else in the estimator is a cited constant in latency/estimation/constants.py):
  network    fixed_ms = mean RTT of the 0-km (same-metro) rows; route_inflation = median over
             routes of (rtt - fixed) x 200 km/ms / (2 x distance)  (closed form, robust)
  llama.cpp  discrete GPUs (desktop_gpu and datacenter_gpu together): one saturating curve of peak
             bandwidth and one of peak compute (estimator.achieved_fraction: a share of peak and
             a cap); apple_silicon and integrated_gpu (DGX Spark): a constant fraction of each; one
             efficiency factor each for block-quantised weights (bandwidth, compute), one fixed
             overhead per forward pass, kv_read_eff (KV-cache reads against weight reads; from
             long_context.csv) and stream_overhead_s (per sequence per decode step; batched rows)
  optimized  compute fraction and pass overhead (TensorRT-LLM TTFT rows); bandwidth fraction and
             stream_overhead_s (vLLM per-user decode on B200, concurrency.csv)
             Not fitted, carried over (KV_PRIOR_SOURCE): kv_read_eff and the per-stream KV cap
             kv_cap_gbs = llama.cpp's kv_read_eff and discrete-GPU bw_cap_gbs (no long-context
             serving rows); `fit` fits llama.cpp first and holds them while fitting the rest
Data: measurements.csv, long_context.csv and concurrency.csv (llama-batched-bench rows as lock-step
batches; vLLM rows with concurrent_users = min(concurrency, prompts sent); their TTFT and output
throughput evaluated, not fitted). Each device's rows weigh at most as much as DEVICE_WEIGHT_ROWS rows.
The fit minimises the weighted sum of squared log errors with a damped Gauss-Newton
(Levenberg-Marquardt) in log-parameter space from a fixed start: deterministic, numpy only. Both ways
of combining the compute and memory bounds ("max", "sum") are fitted; the one with the lower mean of
the leave-one-device-out and leave-one-kind-out median errors is kept. Rows whose notes say SUSPECT,
and serving rows the source calls a scheduling artefact, are excluded.

Honest generalisation estimates: leave-one-device-out (refit without the device, predict it) and
leave-one-kind-out (refit without a kind's llama.cpp rows, predict them), the proxy for devices
unlike any in the data.

Model selection (printed on every run): the saturating discrete-GPU curve (FREE) against the
earlier constant fraction per GPU kind (FREE_PER_KIND), both 4 parameters for the two GPU kinds;
see docs/estimator.md for the criterion and the numbers.

Ranges (issue 12): each aims to hold the measured value RANGE_COVERAGE = 80% of the time: the
10th-90th percentile of left-out measured/predicted time ratios, leave-one-device-out for calibrated
(engine, kind) pairs, leave-one-kind-out for the others. The script prints each range's coverage
(share of left-out measurements inside it), its coverage when rebuilt without the device or kind it
is checked on, and the median error beside it; RTT errors are printed per provider.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import hashlib
import json
import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from latency.estimation import estimator as est
from latency.estimation.estimator import PARAMS_PATH, Hardware, Model, calibration_dir, estimate

REPORT_PATH = PARAMS_PATH.with_name("calibration_report.json")

FILES = ("measurements.csv", "hardware.csv", "rtt.csv", "long_context.csv", "concurrency.csv")
FIT_KINDS = ("datacenter_gpu", "desktop_gpu", "apple_silicon", "integrated_gpu")
ENGINE_CONSTANTS = {
    # Below this many bytes per weight a format is block-quantised for that engine (llama.cpp:
    # anything under F16; optimized: 4-bit weight-only, since FP8/INT8 are native W8A8).
    "llama.cpp": {"native_min_bytes": 1.99},
    "optimized": {"native_min_bytes": 0.95, "quant_bw_eff": 1.0, "quant_compute_eff": 1.0},
}
OPTIMIZED_BW_FRAC = 0.8
"""Prior for the serving engines' bandwidth share, used only when the rows hold no serving-engine
decode rows (measurements.csv alone: TTFT only, and the 128-token TTFT rows cannot separate the
weight read from the fixed overhead). With concurrency.csv the share is fitted on vLLM decode."""
BAND_PERCENTILES = (10, 90)


# --------------------------------------------------------------------------------------------
# Data
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Row:
    target: str          # "decode" (tok/s per stream), "prefill" (tok/s of the batch), "ttft" (s) or
                         # "throughput" (server output tok/s; concurrency.csv, evaluated, not fitted)
    device: str
    model: str
    precision: str
    engine: str
    kind: str
    measured: float
    hardware: Hardware
    llm: Model
    prompt: int
    output: int
    batch: int = 1           # streams prefilled and decoded in lock step
    users: int = 1           # concurrent requests (serving benchmark concurrency)
    context: int = 0         # tokens already in the KV cache
    devices: int = 1         # tensor-parallel devices
    series: str = "measurements.csv"
    fitted: bool = True      # False: evaluated and reported, not a fit target
    cold_share: float = 1.0  # serving benchmark: share of the level's prompts not in vLLM's prefix cache
    api: bool = False        # through a serving engine's API (the vLLM benchmark); TensorRT-LLM rows: engine-internal
    arrival: str = "burst"   # serving benchmark: "steady" where the level sent STEADY_MIN_WAVES prompts per client
    ubatch: int | None = None  # llama.cpp's -ub where the source states it (None: its default)
    sent: int | None = None  # serving benchmark: prompts the level sent (`last_wave_users`)
    server: str | None = None  # the serving engine where the source names one other than the family's
                               # default (measurements.csv: "tensorrt-llm"); None: `engine`'s default


def _read(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _suspect_prefill(r: dict) -> bool:
    """A measurements.csv row whose notes flag its prefill value as SUSPECT (excluded from the fit)."""
    return bool(r["prefill_tok_s"]) and "SUSPECT prefill" in r["notes"]


def excluded_values(cal_dir: Path) -> list[dict]:
    """The values the fit leaves out, as data (the report and the app show them), each with its file,
    line and reason: "suspect" (measurements.csv notes), "start_up" (`cold_prefills`) and
    "source_artefact" (`_flagged_by_source`; a serving level, `concurrency` users)."""
    out = [{"line": i, "file": "measurements.csv", "reason": "suspect", "device": r["hardware"], "model": r["model"],
            "precision": r["precision"], "target": "prefill", "measured": float(r["prefill_tok_s"])}
           for i, r in enumerate(_read(cal_dir / "measurements.csv"), start=2) if _suspect_prefill(r)]
    data = _read(cal_dir / "concurrency.csv")
    cold = cold_prefills(data)
    for i, r in enumerate(data):
        if i in cold or _flagged_by_source(r):
            h, m = _hardware(r["hardware"]), _model(r["model"], float(r["params_b"]), r["precision"])
            item = {"line": i + 2, "file": "concurrency.csv", "device": h.name, "model": m.name,
                    "precision": r["precision"]}
            if i in cold:
                s_pp = float(re.search(r"S_PP=([0-9.]+) t/s", r["notes"]).group(1))
                out.append({**item, "reason": "start_up", "target": "prefill", "measured": s_pp})
            else:
                out.append({**item, "reason": "source_artefact", "target": "throughput",
                            "measured": float(r["throughput_tok_s"]), "concurrency": int(r["concurrency"])})
    return out


def load_rows(cal_dir: Path) -> tuple[list[Row], list[str], list[dict]]:
    """Measurement rows as fit targets, the notes on excluded values, and the RTT rows."""
    hw = {}
    for r in _read(cal_dir / "hardware.csv"):
        peak = float(r["peak_tflops_fp16"])
        hw[r["hardware"]] = Hardware(name=r["hardware"], kind=r["kind"], mem_bandwidth_gbs=float(r["mem_bw_gbs"]),
                                     peak_tflops=peak, memory_gb=float(r["mem_gb"]),
                                     fp16_acc_tflops=peak * GEFORCE_FP16_ACC if _geforce(r["hardware"]) else None,
                                     compute_capability=compute_capability_of(r["hardware"]))
    rows, excluded = [], []
    for i, r in enumerate(_read(cal_dir / "measurements.csv"), start=2):
        h = hw[r["hardware"]]
        engine = "llama.cpp" if "llama.cpp" in r["software"] else "optimized"
        server = "tensorrt-llm" if "TensorRT-LLM" in r["software"] else None
        m = Model(name=r["model"], params_b=float(r["params_b"]), bytes_per_param=float(r["bytes_per_param"]))
        common = dict(device=r["hardware"], model=r["model"], precision=r["precision"], engine=engine,
                      kind=h.kind, hardware=h, llm=m, server=server)
        if r["decode_tok_s"]:
            rows.append(Row(target="decode", measured=float(r["decode_tok_s"]), prompt=1,
                            output=int(r["output_tokens"]), **common))
        if r["prefill_tok_s"]:
            if _suspect_prefill(r):
                excluded.append(f"line {i}: {r['hardware']} {r['model']} {r['precision']} prefill "
                                f"{r['prefill_tok_s']} tok/s (notes: SUSPECT prefill)")
            else:
                rows.append(Row(target="prefill", measured=float(r["prefill_tok_s"]),
                                prompt=int(r["prompt_tokens"]), output=1, **common))
        if r["ttft_ms"]:
            rows.append(Row(target="ttft", measured=float(r["ttft_ms"]) / 1000.0,
                            prompt=int(r["prompt_tokens"]), output=1, **common))
    rtt = [r for r in _read(cal_dir / "rtt.csv")]
    conc, conc_excluded = load_concurrency(cal_dir)
    return rows + load_long_context(cal_dir) + conc, excluded + conc_excluded, rtt


GEFORCE_FP16_ACC = 2.0
"""GeForce cards run FP16 tensor matmuls with FP16 accumulation at twice the FP32-accumulate rate
that hardware.csv quotes for them (its spec notes say "FP32 accumulate"; NVIDIA Ampere GA102
whitepaper, table "Peak FP16 Tensor TFLOPS with FP16 Accumulate" 142 / "with FP32 Accumulate" 71
for the RTX 3090; Ada whitepaper 330.3 / 165.2 for the RTX 4090). Data-centre GPUs run both at one
rate."""


def _geforce(name: str) -> bool:
    return "GeForce" in name


COMPUTE_CAPABILITY = {"A100": 8.0, "RTX 30": 8.6, "RTX 40": 8.9, "H100": 9.0}
"""CUDA compute capability of hardware.csv's NVIDIA devices, which the CSV does not give (NVIDIA's
CUDA GPUs list, developer.nvidia.com/cuda-gpus: A100 8.0, GeForce RTX 30 series 8.6, RTX 40 series
8.9, H100 9.0; the same values as content/hardware.yaml): which kernels an engine runs there
(`estimator.fp8_matmul_speedup`)."""


def compute_capability_of(name: str) -> float | None:
    return next((cc for key, cc in COMPUTE_CAPABILITY.items() if key in name), None)


GIB_GB = 2**30 / 1e9
"""GB per GiB (llama-bench prints model sizes in GiB)."""

EXTRA_HARDWARE = {
    # Devices of long_context.csv and concurrency.csv, which hardware.csv does not list; the same
    # specs as content/hardware.yaml (ids dgx-spark and b200, sources there; tested).
    "NVIDIA DGX Spark": Hardware(name="NVIDIA DGX Spark (GB10)", kind="integrated_gpu", mem_bandwidth_gbs=273.0,
                                 peak_tflops=62.5, memory_gb=128.0, lowp_speedup=2.0, fp8=True, fp4_speedup=4.0,
                                 compute_capability=12.1),
    "NVIDIA HGX B200": Hardware(name="NVIDIA B200 (HGX)", kind="datacenter_gpu", mem_bandwidth_gbs=8000.0,
                                peak_tflops=2250.0, memory_gb=180.0, lowp_speedup=2.0, interconnect_gbs=900.0,
                                link_latency_s=7e-6, fp8=True, fp4_speedup=4.0, compute_capability=10.0),
}

MXFP4_BYTES_PER_PARAM = 4.25 / 8
"""MXFP4 (OCP Microscaling Formats v1.0): a 4-bit E2M1 value per weight and one 8-bit shared scale
per block of 32: 4.25 bits."""

MODEL_CONFIGS = [
    # (text in the CSV's model column, Model fields from the model's published config, source).
    # attention_layers: layers attending to the whole context (the rest are sliding-window or
    # Mamba layers); window_layers, window_tokens: the sliding-window layers and their window
    # (config.json sliding_window; Gemma 3 sliding_window_pattern 6). gguf_gib: the model size
    # llama-bench prints (llama.cpp benches/dgx-spark.md @4c7e9893), giving bytes per parameter.
    # gpt-oss: the model card's parameter table (OpenAI, "gpt-oss-120b & gpt-oss-20b Model Card",
    # arXiv 2508.10925, table 1): MLP (the routed experts) 114.71B of 116.83B (120b) and 19.12B of
    # 20.91B (20b), 4 experts of 128 (120b) or of 32 (20b) per token. Only the experts are MXFP4
    # (4-bit values, one 8-bit scale per 32: 4.25 bits); attention, router, embedding and output
    # layer stay 16-bit in the release (Transformers' MXFP4 docs: modules_to_not_convert self_attn,
    # mlp.router, embed_tokens, lm_head); in the GGUF the file less the experts leaves them 1.1-1.15
    # bytes each (8-bit). The file's average bytes per parameter (0.54-0.58) times the active
    # parameters undercounts what a token reads by a quarter to a third (round 4, sixth pass).
    ("gpt-oss-20b", dict(active_params_b=3.61, layers=24, hidden_size=2880, heads=64, kv_heads=8, head_dim=64,
                         attention_layers=12, window_layers=12, window_tokens=128,
                         gguf_gib=11.27, expert_params_b=19.12, expert_active_b=19.12 * 4 / 32,
                         expert_bytes_per_param=MXFP4_BYTES_PER_PARAM),
     "https://huggingface.co/openai/gpt-oss-20b/blob/main/config.json (alternating full and 128-token sliding-window layers)"),
    ("gpt-oss-120b", dict(active_params_b=5.13, layers=36, hidden_size=2880, heads=64, kv_heads=8, head_dim=64,
                          attention_layers=18, window_layers=18, window_tokens=128, gguf_gib=59.02,
                          expert_params_b=114.71,
                          expert_active_b=114.71 * 4 / 128, expert_bytes_per_param=MXFP4_BYTES_PER_PARAM),
     "https://huggingface.co/openai/gpt-oss-120b/blob/main/config.json"),
    ("Qwen3-Coder-30B-A3B", dict(active_params_b=3.3, layers=48, hidden_size=2048, heads=32, kv_heads=4,
                                 head_dim=128, gguf_gib=30.25),
     "https://huggingface.co/Qwen/Qwen3-Coder-30B-A3B-Instruct/blob/main/config.json"),
    ("Qwen2.5-Coder-7B", dict(layers=28, hidden_size=3584, heads=28, kv_heads=4, head_dim=128, gguf_gib=7.54),
     "https://huggingface.co/Qwen/Qwen2.5-Coder-7B/blob/main/config.json"),
    ("gemma-3-4b", dict(layers=34, hidden_size=2560, heads=8, kv_heads=4, head_dim=256, attention_layers=5,
                        window_layers=29, window_tokens=1024, gguf_gib=2.35),
     "https://huggingface.co/google/gemma-3-4b-it/blob/main/config.json (1 global layer in 6, the rest 1,024-token windows)"),
    # Nemotron-H counts each mixer (Mamba-2 or attention) and each MoE block as a layer of its own
    # (num_hidden_layers 52, hybrid_override_pattern), where a transformer layer holds one mixer AND
    # one MLP: 52 such blocks are 26 transformer layers, which is what the estimator's per-layer
    # costs count (two all-reduces per layer when tensor parallel, the serving engine's per-layer
    # overhead). Decided from the config before the B200 rows were predicted with it.
    # Its 23 Mamba-2 layers keep a recurrent state per sequence (mamba_num_heads 64, mamba_head_dim
    # 64, ssm_state_size 128, n_groups 8, conv_kernel 4; SSM state in FP32, config.json
    # mamba_ssm_cache_dtype): 49 MB per sequence, read and written every decode step
    # (estimator.mamba2_state_gb). Taken from the config, not fitted (round 4, third pass).
    ("Nemotron-Nano-30B", dict(active_params_b=3.5, layers=26, hidden_size=2688, heads=32, kv_heads=2, head_dim=128,
                               attention_layers=6,
                               recurrent_state_gb=est.mamba2_state_gb(23, 64, 64, 128, 8, 4, ssm_bytes=4.0)),
     "https://huggingface.co/nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 (23 Mamba-2 + 23 MoE + 6 attention blocks = "
     "26 transformer layers' worth, 3.5B active; mamba_ssm_cache_dtype float32)"),
    # 49 of its 80 blocks keep attention (block_configs: the other 31 have attention "no_op"), so
    # 49 layers hold a KV cache and read it every step; counted from the v1 config (v1.5 keeps the
    # architecture; its parameters add up to 49.9B with these blocks).
    ("Nemotron-Super-49B", dict(layers=80, hidden_size=8192, heads=64, kv_heads=8, head_dim=128, attention_layers=49),
     "https://huggingface.co/nvidia/Llama-3_3-Nemotron-Super-49B-v1_5 (derived from Llama 3.3 70B; block_configs "
     "of https://huggingface.co/nvidia/Llama-3_3-Nemotron-Super-49B-v1/blob/main/config.json: 49 attention blocks)"),
    # Its QK norm spans all 48 heads, so under tensor parallelism vLLM all-reduces each token's q and k
    # variances across the ranks in every layer (minimax_m2.py: MiniMaxText01RMSNormTP.forward_qk), a
    # third all-reduce per layer beside Megatron's two: priced at its link latency (a few bytes a token).
    # Its FP8 weights carry one scale per 128 x 128 block (config.json quantization_config: quant_method
    # fp8, weight_block_size [128, 128]), the format vLLM runs on DeepGEMM (`moe_small_batch_extra_s`).
    ("MiniMax-M2.5", dict(active_params_b=10.0, layers=62, hidden_size=3072, heads=48, kv_heads=8, head_dim=128,
                          extra_allreduces_per_layer=1, fp8_block_scaled=True),
     "https://huggingface.co/MiniMaxAI/MiniMax-M2.5 (229B total, 10B active; config.json weight_block_size [128, 128])"),
]

SERVING_BYTES_PER_PARAM = {"FP8": 1.0}


def _hardware(name: str) -> Hardware:
    for key, h in EXTRA_HARDWARE.items():
        if name.startswith(key):
            return h
    raise ValueError(f"no hardware spec for {name!r}; add it to EXTRA_HARDWARE and content/hardware.yaml")


def _model(name: str, params_b: float, precision: str) -> Model:
    for key, cfg, _src in MODEL_CONFIGS:
        if key in name:
            cfg = dict(cfg)
            gib = cfg.pop("gguf_gib", None)
            bpp = gib * GIB_GB / params_b if gib else SERVING_BYTES_PER_PARAM[precision]
            return Model(name=key, params_b=params_b, bytes_per_param=round(bpp, 4), **cfg)
    raise ValueError(f"no model config for {name!r}; add it to MODEL_CONFIGS")


def _ubatch(engine: str) -> int | None:
    """llama.cpp's -ub as the engine column states it ("n_ubatch 2048", "n_ubatch=2048"), else None."""
    m = re.search(r"n_ubatch[ =](\d+)", engine)
    return int(m.group(1)) if m else None


def load_long_context(cal_dir: Path) -> list[Row]:
    """long_context.csv: llama-bench tg32 and pp2048 at depth d (d tokens already in the KV cache)."""
    rows = []
    for r in _read(cal_dir / "long_context.csv"):
        h, m = _hardware(r["hardware"]), _model(r["model"], float(r["params_b"]), r["precision"])
        common = dict(device=h.name, model=m.name, precision=r["precision"], engine="llama.cpp", kind=h.kind,
                      hardware=h, llm=m, context=int(r["context_tokens"]), series="long_context.csv",
                      ubatch=_ubatch(r["engine"]))
        rows.append(Row(target="decode", measured=float(r["decode_tok_s"]), prompt=1, output=32, **common))
        rows.append(Row(target="prefill", measured=float(r["prefill_tok_s"]), prompt=2048, output=1, **common))
    return rows


def _prompts_in_run(notes: str, concurrency: int) -> int | None:
    """How many prompts a serving-benchmark level sent (notes: "50 prompts at c=1, 400 at c>1",
    "~50 prompts per level"): fewer prompts than clients means fewer requests at once."""
    if concurrency == 1 and (m := re.search(r"(\d+) prompts at c=1", notes)):
        return int(m.group(1))
    m = re.search(r"(\d+) at c>1", notes) or re.search(r"~?(\d+) prompts per level", notes)
    return int(m.group(1)) if m else None


PREFIX_BLOCK_TOKENS = 16
"""vLLM's KV-cache block on CUDA (block_size 16, the default). Automatic prefix caching reuses full
blocks only, and a request whose whole prompt is cached still recomputes its last token (the hit is
capped at prompt length - 1): so a cached 2,048-token prompt recomputes 16 tokens (vLLM docs,
"Automatic Prefix Caching"; vllm/v1/core/kv_cache_manager.py, get_computed_blocks)."""

PREFIX_CACHE_OFF = ("Nemotron-Nano-30B",)
"""Models whose vLLM server ran without prefix caching: vLLM leaves it off by default for hybrid
(Mamba) models (vllm/engine/arg_utils.py: default_prefix_caching = is_prefix_caching_supported
and not is_hybrid; "Hybrid models support prefix caching but keep it opt-in"), and the methodology
names no flag. Nemotron-Nano-30B is Nemotron-H (23 Mamba-2 layers). Full-attention models (Nemotron
Super, MiniMax M2.5) get it by default."""

PROMPTS_PER_LEVEL = {"Nemotron-Nano-30B": (50, 400), "MiniMax-M2.5": (50, 400)}
"""Prompts sent at c=1 and at c>1 where the row's notes do not say (the source's methodology page,
https://docs.vultr.com/inference-cookbook/cuda/benchmarks/methodology: "The 50/400 split was used
for Nemotron Nano and MiniMax M2.5 via bench_all.sh"; "Nemotron Super 49B used ~50 prompts at all
concurrency levels")."""


STEADY_MIN_WAVES = 4
"""A serving-benchmark level counts as steady use (arrival="steady": each client sends again when
its answer arrives) when it sent at least 4 prompts per client, so the first wave, which arrives
all at once, is at most a quarter of its requests; fewer prompts per client make it mostly one
burst (arrival="burst"). Decided before the fit was run with it (issue 24)."""


def _prompts_sent(model: str, notes: str, concurrency: int) -> int | None:
    n = _prompts_in_run(notes, concurrency)
    if n is None and model in PROMPTS_PER_LEVEL:
        n = PROMPTS_PER_LEVEL[model][0 if concurrency == 1 else 1]
    return n


def cold_shares(levels: dict[int, int | None], model: str) -> dict[int, float]:
    """Share of each level's prompts that are NOT in vLLM's prefix cache when the level runs: the
    serving benchmark's reading of how it was run (methodology page): one server, the levels run in
    order (1, 8, 16, ... 1,024), `vllm bench serve --dataset-name random` with its default seed, so
    level L sends prompts 0..n_L - 1 of the same seeded sequence and the prompts an earlier level
    sent are already cached (the KV cache holds them: 50 or 400 prompts of 2,560 tokens are within
    `kv_capacity_requests` for these deployments). The first level (c=1) is cold. Without prefix
    caching (PREFIX_CACHE_OFF) every level is cold."""
    out, seen = {}, 0
    for c in sorted(levels):
        n = levels[c] or c
        out[c] = 1.0 if model in PREFIX_CACHE_OFF else max(n - seen, 0) / n
        seen = max(seen, n)
    return out


COLD_START_FIRST_LEVEL = ("Nemotron-Nano-30B",)
"""Serving series whose c=1 level is left out of `serving_request_overhead`: Nemotron Nano's c=1
TTFT (362 ms) is above its c=8 TTFT (152 ms) although Nano runs without prefix caching
(PREFIX_CACHE_OFF), so c=8 does the same cold prefill plus queueing; a single request slower than
that carries one-off start-up time of the fresh server (c=1 is its first level), not a per-request
cost. Decided before t0 was computed."""


def serving_request_overhead(rows: list, params: dict, leave: str | None = None) -> tuple[float, dict]:
    """t0, the optimized serving engine's per-request API time (HTTP, tokenising, scheduling), from
    the serving benchmark's single-user rows only: per series, measured c=1 TTFT minus the
    estimator's own c=1 TTFT without t0; t0 = the median over series (COLD_START_FIRST_LEVEL left
    out; `leave`: a model also left out, for the leave-one-model-out check). The benchmark's TTFT
    rows at users > 1 are evaluated with it, never used to set it."""
    p0 = {**params, "engines": {**params["engines"],
                                "optimized": {**params["engines"]["optimized"], "request_overhead_s": 0.0}}}
    gaps = {}
    for r in rows:
        if r.api and r.target == "ttft" and r.users == 1 and r.model not in COLD_START_FIRST_LEVEL and r.model != leave:
            gaps.setdefault(r.model, []).append(r.measured - predict(r, p0))
    gaps = {m: float(np.median(v)) for m, v in sorted(gaps.items())}
    return float(np.median(list(gaps.values()))), gaps


def with_request_overhead(params: dict, rows: list) -> dict:
    """params with t0 (`serving_request_overhead`) on the optimized engine and its provenance."""
    t0, gaps = serving_request_overhead(rows, params)
    params["engines"]["optimized"]["request_overhead_s"] = t0
    params["request_overhead"] = {
        "request_overhead_s": t0, "c1_gap_s_by_series": gaps, "excluded_cold_start": list(COLD_START_FIRST_LEVEL),
        "source": "concurrency.csv (Vultr vLLM B200 serving benchmark) c=1 rows: median over series of measured "
                  "TTFT minus the estimator's TTFT without it; applied to optimized-engine requests through a "
                  "serving API (estimate(serving_api=True), not the engine-internal TensorRT-LLM rows)"}
    return params


def _flagged_by_source(r: dict) -> bool:
    """concurrency.csv rows the source itself calls a scheduling artefact (Nemotron Super at
    c=256 and c=1024: "throughput oscillation at c=256/1024"); excluded like SUSPECT values."""
    return "oscillation at c=256/1024" in r["notes"] and r["concurrency"] in ("256", "1024")


def cold_prefills(data: list[dict]) -> set[int]:
    """Indexes of llama-batched-bench rows whose prefill time (T_PP, ttft_ms) is longer than that of
    the next batch at the same prompt length, which prefills twice the tokens: a warm run cannot
    take longer for half the work, so the value carries one-off start-up time (the first test of
    its table), like COLD_START_FIRST_LEVEL. Its decode value stands. In the file: the 512-token,
    B=1 row of gpt-oss-20b (390 ms against 273 ms at B=2), gpt-oss-120b (605 against 585) and
    Qwen3-Coder-30B-A3B (401 against 355); the dense models' first rows take half their B=2 time.
    A rule on the measurements alone, decided before refitting (round 4, sixth pass)."""
    out = set()
    by_key = {}
    for i, r in enumerate(data):
        if r["engine"].startswith("llama.cpp") and r["ttft_ms"]:
            by_key[(r["hardware"], r["model"], r["input_tokens"], int(r["concurrency"]))] = i
    for (hw, model, prompt, c), i in by_key.items():
        j = by_key.get((hw, model, prompt, 2 * c))
        if j is not None and float(data[i]["ttft_ms"]) > float(data[j]["ttft_ms"]):
            out.add(i)
    return out


def load_concurrency(cal_dir: Path) -> tuple[list[Row], list[str]]:
    """concurrency.csv. llama-batched-bench rows (DGX Spark): B prompts prefilled together, then B
    streams decoded in lock step (batch = B): per-stream decode tok/s = 32 / T_TG and prefill
    tok/s = S_PP are fit targets. vLLM serving rows (B200): `concurrency` clients (at most the
    prompts sent) -> concurrent_users; per-user decode tok/s = 1 / ITL is a fit target, TTFT and
    output throughput are evaluated (reported, not fitted)."""
    rows, excluded = [], []
    data = _read(cal_dir / "concurrency.csv")
    levels: dict = {}
    for r in data:
        if not r["engine"].startswith("llama.cpp"):
            name = _model(r["model"], float(r["params_b"]), r["precision"]).name
            levels.setdefault(name, {})[int(r["concurrency"])] = _prompts_sent(name, r["notes"], int(r["concurrency"]))
    cold = {name: cold_shares(lv, name) for name, lv in levels.items()}
    cold_pp = cold_prefills(data)
    for i, r in enumerate(data, start=2):
        h, m = _hardware(r["hardware"]), _model(r["model"], float(r["params_b"]), r["precision"])
        c = int(r["concurrency"])
        llama = r["engine"].startswith("llama.cpp")
        series = f"{h.name} {m.name}"
        common = dict(device=h.name, model=m.name, precision=r["precision"], engine="llama.cpp" if llama else "optimized",
                      kind=h.kind, hardware=h, llm=m, devices=int(r["gpus"]), series=series)
        if _flagged_by_source(r):
            excluded.append(f"concurrency.csv line {i}: {series} c={c} (source: scheduling artefact)")
            continue
        if llama:
            t_tg = float(re.search(r"T_TG=([0-9.]+)s for (\d+) decode steps", r["notes"]).group(1))
            steps = int(re.search(r"T_TG=[0-9.]+s for (\d+) decode steps", r["notes"]).group(1))
            s_pp = float(re.search(r"S_PP=([0-9.]+) t/s", r["notes"]).group(1))
            common.update(batch=c, prompt=int(r["input_tokens"]), ubatch=_ubatch(r["engine"]))
            rows.append(Row(target="decode", measured=steps / t_tg, output=steps, **common))
            if i - 2 in cold_pp:
                excluded.append(f"concurrency.csv line {i}: {series} B={c} prefill {r['ttft_ms']} ms "
                                f"(longer than B={2 * c} at the same prompt: start-up time)")
                continue
            rows.append(Row(target="prefill", measured=s_pp, output=1, **common))
            continue
        users = min(c, _prompts_in_run(r["notes"], c) or c)
        sent = _prompts_sent(m.name, r["notes"], c) or c
        common.update(users=users, prompt=int(r["input_tokens"]), output=int(r["output_tokens"]), api=True,
                      arrival="steady" if sent >= STEADY_MIN_WAVES * users else "burst", sent=sent)
        # Every figure as the benchmark ran it: the level's cached prompts cost only their uncached
        # tail (cold_shares). Decode reads the same KV cache either way, but the answers of a burst
        # share their steps with the prompts still being computed (`estimator.burst_overlap_s`).
        if r["itl_ms"]:
            rows.append(Row(target="decode", measured=1000.0 / float(r["itl_ms"]),
                            cold_share=cold[m.name][c], **common))
        if r["ttft_ms"]:
            rows.append(Row(target="ttft", measured=float(r["ttft_ms"]) / 1000.0, fitted=False,
                            cold_share=cold[m.name][c], **common))
        if r["throughput_tok_s"]:
            rows.append(Row(target="throughput", measured=float(r["throughput_tok_s"]), fitted=False,
                            cold_share=cold[m.name][c], **common))
    return rows, excluded


def file_hashes(cal_dir: Path) -> dict[str, str]:
    return {f: hashlib.sha256((cal_dir / f).read_bytes()).hexdigest() for f in FILES if (cal_dir / f).exists()}


# --------------------------------------------------------------------------------------------
# Network fit (closed form)
# --------------------------------------------------------------------------------------------

def fit_network(rtt_rows: list[dict]) -> dict:
    zero = [float(r["rtt_ms"]) for r in rtt_rows if float(r["distance_km"]) == 0]
    fixed = float(np.mean(zero))
    infl = [(float(r["rtt_ms"]) - fixed) * 200.0 / (2.0 * float(r["distance_km"]))
            for r in rtt_rows if float(r["distance_km"]) > 0]
    return {"fixed_ms": fixed, "route_inflation": float(np.median(infl))}


def predict_rtt_ms(net: dict, distance_km: float) -> float:
    return net["fixed_ms"] + 2.0 * distance_km * net["route_inflation"] / 200.0


# --------------------------------------------------------------------------------------------
# Compute/memory fit
# --------------------------------------------------------------------------------------------

GPU_GROUP = {"discrete_gpu": ("datacenter_gpu", "desktop_gpu"),
             "cuda_gpu": ("datacenter_gpu", "desktop_gpu", "integrated_gpu")}
"""A FREE entry for a group label is shared by the group's kinds: "discrete_gpu" (the compute
curve) by both discrete-GPU kinds, "cuda_gpu" (the bandwidth curve) by every NVIDIA GPU llama.cpp
runs with its CUDA kernels, the DGX Spark's GB10 included (round 4, sixth pass): a batch-1 decode
step streams the weights through the same kernels whatever memory feeds them. The GB10's compute
stays its own kind: its FP16 peak is derived from a sparse-FP4 headline figure."""

# Free parameters: (engine, kind or None, name, start, lower, upper)
FREE = [
    # llama.cpp on discrete GPUs (desktop and datacenter alike): one saturating curve of peak
    # bandwidth and one of peak compute (estimator.achieved_fraction), 4 parameters in all.
    ("llama.cpp", "cuda_gpu", "bw_frac", 0.9, 0.05, 1.0),
    ("llama.cpp", "cuda_gpu", "bw_cap_gbs", 1200.0, 100.0, 1e5),
    ("llama.cpp", "discrete_gpu", "compute_frac", 1.0, 0.02, 2.0),
    ("llama.cpp", "discrete_gpu", "compute_cap_tflops", 150.0, 5.0, 1e4),
    ("llama.cpp", "apple_silicon", "bw_frac", 0.8, 0.05, 1.0),
    ("llama.cpp", "apple_silicon", "compute_frac", 0.7, 0.02, 2.0),
    ("llama.cpp", None, "quant_bw_eff", 0.8, 0.2, 1.0),
    ("llama.cpp", None, "quant_compute_eff", 0.8, 0.2, 1.0),
    ("llama.cpp", None, "pass_overhead_s", 0.002, 1e-5, 0.05),
    ("optimized", "datacenter_gpu", "compute_frac", 0.6, 0.02, 1.0),
    ("optimized", None, "pass_overhead_s", 0.002, 1e-5, 0.05),
    # Round 2 (issue 12): the DGX Spark (integrated_gpu) rows, long contexts and batched decoding.
    ("llama.cpp", "integrated_gpu", "compute_frac", 0.6, 0.02, 2.0),
    ("llama.cpp", None, "kv_read_eff", 0.8, 0.1, 1.0),
    ("llama.cpp", None, "stream_overhead_s", 2e-5, 1e-7, 2e-3),
    ("optimized", "datacenter_gpu", "bw_frac", 0.8, 0.05, 1.0),
    ("optimized", None, "stream_overhead_s", 2e-5, 1e-7, 2e-3),
    # Round 4 (issue 32 item 3): Apple GPUs dequantise llama.cpp's block formats at a cost of their
    # own. measurements.csv: both Macs stream F16 weights at 0.74-0.75 of peak but Q4_K_M at
    # 0.44-0.48 (M1 Max 8B: 35.7 tok/s x 4.9 GB = 175 of 400 GB/s; M2 Ultra 78.8 x 4.9 = 386 of 800),
    # where the discrete GPUs lose only ~10%: one factor for every kind put the Macs' Q4 decode 26-59%
    # too fast and their F16 decode too slow. Metal's k-quant kernels unpack each block with the GPU's
    # ALUs, so their decode is bound by that work (`estimator.dequant_bw_share`): the operations per
    # weight, not a share of bandwidth, are what the two Macs have in common (70B Q4_K_M: 0.46 and 0.70
    # of peak bandwidth, but 33 and 30 operations per weight at their FP32 peaks; eighth pass).
    ("llama.cpp", "apple_silicon", "dequant_ops", 30.0, 1.0, 300.0),
    ("llama.cpp", "apple_silicon", "quant_compute_eff", 0.8, 0.2, 1.0),
]

FREE_PER_KIND = [f for f in FREE if f[1] not in GPU_GROUP][:2] + [
    ("llama.cpp", "datacenter_gpu", "bw_frac", 0.6, 0.05, 1.0),
    ("llama.cpp", "desktop_gpu", "bw_frac", 0.8, 0.05, 1.0),
    ("llama.cpp", "datacenter_gpu", "compute_frac", 0.4, 0.02, 2.0),
    ("llama.cpp", "desktop_gpu", "compute_frac", 0.8, 0.02, 2.0),
    ("llama.cpp", "integrated_gpu", "bw_frac", 0.8, 0.05, 1.0),
] + [f for f in FREE if f[1] not in GPU_GROUP][2:]
"""The earlier model, kept for the model-selection table only: a constant fraction of peak per
GPU kind (desktop_gpu, datacenter_gpu), also 4 parameters. See `model_selection`."""


KV_PRIOR_SOURCE = ("llama.cpp", "datacenter_gpu")
"""Where the serving engine's KV-read prior comes from (issue 24, item 3): llama.cpp's fitted
`kv_read_eff` (long_context.csv, the only rows with long contexts) and its discrete-GPU bandwidth
cap `bw_cap_gbs` (measurements.csv, the only batch-1 kernel rates on HBM GPUs), carried over to
the optimized engine, which has no long-context rows. A documented transfer, not a fit: the
optimized rows never move these two numbers (`fit` fits llama.cpp first and holds them)."""


def transfer_kv_prior(engines: dict, free: list) -> None:
    """Give the optimized engine llama.cpp's KV-read efficiency and per-stream KV cap (KV_PRIOR_SOURCE):
    its attention kernels at batch 1 are taken to stream the KV cache no faster than llama.cpp's
    batch-1 kernels on the same device (estimator.kv_bw_share). Where a parameter set has no such
    cap (the per-kind model of the model-selection table) the prior is the efficiency alone."""
    eng, kind = KV_PRIOR_SOURCE
    src = engines[eng]
    start = {n: s for e, k, n, s, *_ in free if e == eng}
    opt = engines["optimized"]
    opt["kv_read_eff"] = float(src.get("kv_read_eff", start.get("kv_read_eff", 1.0)))
    cap = src["kinds"].get(kind, {}).get("bw_cap_gbs")
    if cap is not None:
        opt["kv_cap_gbs"] = float(cap)


def build_params(x: np.ndarray, net: dict, combine: str, bands: dict | None = None, free: list | None = None,
                 ref_peaks: dict | None = None, device_counts: dict | None = None) -> dict:
    """Parameter dict in the fitted_params.json layout from the free-parameter vector x.

    ref_peaks {kind: (GB/s, TFLOP/s)}: the median calibration device of each kind, where a
    saturating kind's effective fractions are taken for the "default" entry (None: the raw
    fractions; only the final fit needs the default, no calibration row uses it)."""
    free = FREE if free is None else free
    engines: dict = {e: {"kinds": {}, **ENGINE_CONSTANTS[e]} for e in ENGINE_CONSTANTS}
    for (eng, kind, name, *_), v in zip(free, x):
        for k in GPU_GROUP.get(kind, (kind,)):
            target = engines[eng]["kinds"].setdefault(k, {}) if k else engines[eng]
            target[name] = float(v)
    engines["optimized"]["kinds"]["datacenter_gpu"].setdefault("bw_frac", OPTIMIZED_BW_FRAC)
    transfer_kv_prior(engines, free)
    for eng, e in engines.items():
        kinds = e["kinds"]
        # Kinds without data: geometric mean of the fitted kinds' fractions, each at the kind's
        # median calibration device where it saturates (documented in docs/estimator.md).
        eff = []
        for kind, v in kinds.items():
            bw, tf = (ref_peaks or {}).get(kind, (1.0, 1.0))
            eff.append({"bw_frac": float(est.achieved_fraction(bw, v["bw_frac"], v.get("bw_cap_gbs"))),
                        "compute_frac": float(est.achieved_fraction(tf, v["compute_frac"], v.get("compute_cap_tflops")))})
        kinds["default"] = {k: float(np.exp(np.mean([np.log(v[k]) for v in eff])))
                            for k in ("bw_frac", "compute_frac")}
        if device_counts is not None:
            e["calibration_devices"] = dict(device_counts.get(eng, {}))
    return {"schema": 1, "combine": combine, "network": net, "engines": engines,
            "bands": bands or {"network": [1.0, 1.0], "prefill": [1.0, 1.0], "decode": [1.0, 1.0]}}


def uncached_tokens(prompt):
    """Tokens of a fully cached prompt that vLLM still computes: the last, partial or full, block
    (PREFIX_BLOCK_TOKENS; the hit stops one token short of the prompt)."""
    return prompt - PREFIX_BLOCK_TOKENS * ((prompt - 1) // PREFIX_BLOCK_TOKENS)


def last_wave_users(row: Row) -> int:
    """Requests in a serving-benchmark level's last, partial wave; 0 where there is none. `vllm bench
    serve --max-concurrency c` with n prompts of one fixed length keeps c requests in flight: they
    start together and end together (same prompt, same answer length), so the level runs n // c waves
    of c requests and then one of n mod c. Its figures are over all n requests: the output throughput
    is n x output / the whole run, the mean first token and time per token are means over requests.
    Checked on the measured rows alone before the estimator saw it: Nemotron Super (50 prompts) at
    c=8, 16 and 32 gives 571, 1,067 and 2,116 tok/s from its own TTFT and TPOT against 570, 1,054
    and 2,120 measured; one wave of c, as a steady server would run, gives 642, 1,405 and 2,693."""
    return partial_wave(row.sent, row.users)


def partial_wave(sent: int | None, users: int) -> int:
    """`last_wave_users` from the prompts a level sent and its clients (benchmarks/peers.py uses it too)."""
    if not sent or users <= 1 or sent <= users:
        return 0
    return sent % users


def over_waves(target: str, sent, users, tail, full_value, tail_value):
    """A level's figure over its waves (`last_wave_users`): sent // users waves at `full_value` and
    one of `tail` requests at `tail_value`. Throughput: sent / the run's time, each wave taking its
    requests / its throughput (x output, which cancels); first token: the mean over requests; decode
    (tok/s per stream): 1 / the mean time per token over requests."""
    full = (sent - tail) / sent  # share of the requests in the full waves
    if target == "throughput":
        return sent / ((sent - tail) / full_value + tail / tail_value)
    if target == "ttft":
        return full * full_value + (1.0 - full) * tail_value
    if target == "decode":
        return 1.0 / (full / full_value + (1.0 - full) / tail_value)
    return full_value


def predict(row: Row, params: dict) -> float:
    """One row through the public `estimate` (used for the reports and the consistency test). A
    serving row whose level found some prompts in the prefix cache (cold_share < 1) mixes the cold
    and the cached request: cached = prompt minus its uncached tail moved to context_tokens. A level
    that ended on a partial wave (`last_wave_users`) is the mean over its waves (`over_waves`)."""
    tail = last_wave_users(row)
    if tail:
        last = dataclasses.replace(row, users=tail, arrival="burst", sent=None)
        return over_waves(row.target, row.sent, row.users, tail, predict(dataclasses.replace(row, sent=None), params),
                          predict(last, params))
    def run(prompt, context):
        return estimate(row.llm, row.hardware, prompt_tokens=prompt, output_tokens=row.output, batch=row.batch,
                        distance_km=0.0, engine=row.server or row.engine, access="none", concurrent_users=row.users,
                        context_tokens=context, devices=row.devices, params=params, serving_api=row.api,
                        arrival=row.arrival, ubatch_tokens=row.ubatch)
    e = run(row.prompt, row.context)
    if row.cold_share < 1.0 and row.target in ("ttft", "throughput", "decode"):
        u = uncached_tokens(row.prompt)
        w = run(u, row.context + row.prompt - u)
        if row.target == "ttft":
            return row.cold_share * e.ttft_s + (1.0 - row.cold_share) * w.ttft_s
        if row.target == "decode":
            return 1.0 / (row.cold_share * e.tpot_s + (1.0 - row.cold_share) * w.tpot_s)
        cycle = row.cold_share / e.server_tokens_per_s + (1.0 - row.cold_share) / w.server_tokens_per_s
        return 1.0 / cycle
    if row.target == "decode":
        return e.decode_tokens_per_s
    if row.target == "prefill":
        return e.prefill_tokens_per_s
    if row.target == "throughput":
        return e.server_tokens_per_s
    return e.ttft_s


class RowSet:
    """All rows at once through the estimator's own stage formulas (`estimator.request_times`) on numpy
    arrays: the same numbers as `predict` row by row (tested), ~1000x faster, so the fit and the
    leave-one-out refits take seconds."""

    def __init__(self, rows: list[Row], steady_apart: bool = True, copies: np.ndarray | None = None) -> None:
        self.rows = rows
        # Which parameter set each row is predicted with (`predict(params_list=...)`): 0 for all
        # but in `tiled`, where copy c of the rows takes the c-th set.
        self.copies = np.zeros(len(rows), dtype=int) if copies is None else np.asarray(copies, dtype=int)
        f = lambda fn: np.array([fn(r) for r in rows], dtype=float)  # noqa: E731
        # Rows in steady use run the serving engine's fixed point (latency.estimation.serving), which
        # costs far more per row than the stage formulas: they are computed as a set of their own.
        steady = [r.arrival == "steady" and r.users > 1 for r in rows]
        self.steady_index = np.flatnonzero(steady) if steady_apart else np.array([], dtype=int)
        self.steady_rows = (RowSet([dataclasses.replace(r, sent=None) for r, k in zip(rows, steady) if k], steady_apart=False,
                                   copies=self.copies[self.steady_index])
                            if self.steady_index.size else None)
        self.params_b = f(lambda r: r.llm.params_b)
        self.bpp = f(lambda r: r.llm.bytes_per_param)
        self.bw = f(lambda r: r.hardware.mem_bandwidth_gbs)
        self.peak = f(lambda r: r.hardware.peak_tflops * est.compute_peak_scale(r.hardware, r.engine))
        self.mem = f(lambda r: r.hardware.memory_gb)
        fmts = [est.weight_format_of(r.llm, r.hardware, r.engine) for r in rows]
        self.lowp = np.array([est._lowp(r.llm, r.hardware, r.engine, r.llm.bytes_per_param, fm, r.server)
                              for r, fm in zip(rows, fmts)], dtype=float)
        self.prompt = f(lambda r: r.prompt)
        self.output = f(lambda r: r.output)
        shapes = [est._shape(r.llm, r.llm.active_b, kv_bytes=est.kv_bytes_of(r.llm, fm, r.server or r.engine),
                             window_extra_cells=est.window_extra_cells(r.server or r.engine, r.ubatch),
                             moe_extra_s=est.moe_small_batch_extra_s(r.llm, r.hardware, r.server or r.engine, fm))
                  for r, fm in zip(rows, fmts)]
        assert all(sh.loop_kv_window is None for sh in shapes)
        self.shape = est.ModelShape(**{k: (None if k == "loop_kv_window" else np.array([getattr(sh, k) for sh in shapes], dtype=float))
                                       for k in est.ModelShape._fields})
        self.device = est.Device(mem_bandwidth_gbs=self.bw, peak_tflops=self.peak, memory_gb=self.mem, lowp_speedup=self.lowp,
                                 max_devices=f(lambda r: r.hardware.resolved("max_devices")),
                                 interconnect_gbs=f(lambda r: r.hardware.resolved("interconnect_gbs")),
                                 link_latency_s=f(lambda r: r.hardware.resolved("link_latency_s")))
        self.workload = est.Workload(prompt=self.prompt, output=self.output, context=f(lambda r: r.context),
                                     batch=f(lambda r: r.batch), users=f(lambda r: r.users), utilization=0.0,
                                     network_s=0.0, forced_devices=f(lambda r: r.devices),
                                     api=f(lambda r: float(r.api)),
                                     steady=0.0 if steady_apart else f(lambda r: float(r.arrival == "steady")),
                                     think_s=0.0)
        self.cold_share = f(lambda r: r.cold_share if r.target in ("ttft", "throughput", "decode") else 1.0)
        self.warm = bool(np.any(self.cold_share < 1.0))
        if self.warm:
            u = np.array([uncached_tokens(r.prompt) for r in rows], dtype=float)
            self.warm_workload = self.workload._replace(prompt=u, context=self.workload.context + self.prompt - u)
        self.measured = f(lambda r: r.measured)
        self.target = np.array([r.target for r in rows])
        # Levels that ended on a partial wave (`last_wave_users`): that wave's rows, a set of their own.
        tails = [last_wave_users(r) for r in rows]
        self.tail_index = np.flatnonzero(tails)
        self.tail_rows = (RowSet([dataclasses.replace(rows[i], users=tails[i], arrival="burst", sent=None)
                                  for i in self.tail_index], copies=self.copies[self.tail_index])
                          if self.tail_index.size else None)
        self.sent = f(lambda r: r.sent or 0)
        self.tail = np.array(tails, dtype=float)
        self.is_decode = self.target == "decode"
        self.is_prefill = self.target == "prefill"
        keys = [(r.engine, r.kind, r.llm.bytes_per_param, fm, r.llm.low_precision_compute is False, r.server or "")
                for r, fm in zip(rows, fmts)]
        self.keys = sorted(set(keys))
        self.key_index = np.array([self.keys.index(k) for k in keys], dtype=int)
        counts = {}
        for r in rows:
            counts[r.device] = counts.get(r.device, 0) + 1
        # Each device weighs at most as much as DEVICE_WEIGHT_ROWS rows, so the DGX Spark's 230
        # rows inform what only they can (integrated_gpu, long context, batching) without
        # outvoting the other ten devices on the shared llama.cpp parameters.
        self.weight = np.array([min(1.0, DEVICE_WEIGHT_ROWS / counts[r.device]) for r in rows])

    @classmethod
    def tiled(cls, rows: list[Row], copies: int) -> "RowSet":
        """`copies` copies of `rows` end to end, copy c predicted with the c-th of `copies` parameter
        sets: one pass of the stage formulas for a whole finite-difference Jacobian, where numpy's
        per-call cost, not the arithmetic, dominates one pass over a few hundred rows. Every
        operation is elementwise, so each copy's numbers are exactly those of `predict` alone."""
        return cls(rows * copies, copies=np.repeat(np.arange(copies), len(rows)))

    def predict(self, params: dict, params_list: list[dict] | None = None) -> np.ndarray:
        """Each row's target value (see `predict`), all rows at once through `request_times`
        (row i with `params_list[copies[i]]` where a list is given)."""
        out = self.run(params, params_list=params_list)
        if self.warm:  # serving rows with cached prompts: mix the cold and the cached request
            w, cs = self.run(params, self.warm_workload, params_list=params_list), self.cold_share
            out = dict(out, ttft_s=cs * out["ttft_s"] + (1 - cs) * w["ttft_s"],
                       server_tokens_per_s=1.0 / (cs / out["server_tokens_per_s"] + (1 - cs) / w["server_tokens_per_s"]),
                       decode_tokens_per_s=1.0 / (cs / out["decode_tokens_per_s"] + (1 - cs) / w["decode_tokens_per_s"]))
        pred = np.select([self.target == "decode", self.target == "prefill", self.target == "ttft"],
                         [out["decode_tokens_per_s"], out["prefill_tokens_per_s"], out["ttft_s"]],
                         out["server_tokens_per_s"])
        if self.steady_rows is not None:
            pred[self.steady_index] = self.steady_rows.predict(params, params_list=params_list)
        if self.tail_rows is not None:
            i = self.tail_index
            last = self.tail_rows.predict(params, params_list=params_list)
            pred[i] = [over_waves(tg, n, u, k, a, b) for tg, n, u, k, a, b in
                       zip(self.target[i], self.sent[i], self.workload.users[i], self.tail[i], pred[i], last)]
        return pred

    def run(self, params: dict, workload=None, params_list: list[dict] | None = None) -> dict:
        """The estimator's stage functions on all rows; engine values looked up once per
        (engine, kind, bytes per parameter) and parameter set, and spread to the rows."""
        table = [[est._engine_values(e, k, b, p, sv or None, fm, wo) for e, k, b, fm, wo, sv in self.keys]
                 for p in (params_list or [params])]
        ep = {}
        for k, default in (("bw_frac", None), ("compute_frac", None), ("q_bw", None), ("q_compute", None),
                           ("pass_overhead_s", None), ("prefill_compute_scale", 1.0), ("kv_read_eff", 1.0),
                           ("stream_overhead_s", 0.0), ("bw_cap_gbs", math.inf), ("compute_cap_tflops", math.inf),
                           ("tensor_parallel", None), ("whole_batch_first", None), ("overhead_per_layer", 0.0),
                           ("request_overhead_s", 0.0), ("mem_fraction", None), ("fraction_of_free", None),
                           ("runtime_gb", None), ("act_tokens", None), ("act_c1", None), ("act_c2", None),
                           ("act_c4", None), ("act_c8", None), ("reserve_whole", None), ("dequant_ops_per_byte", 0.0),
                           ("front_end_s_per_token", 0.0)):
            ep[k] = np.array([[e[k] if default is None else e.get(k, default) for e in eps]
                              for eps in table])[self.copies, self.key_index]
        ep["kv_cap_gbs"] = np.array([[est.kv_cap_of(e) for e in eps] for eps in table])[self.copies, self.key_index]
        return est.request_times(self.shape, self.device, ep, params.get("combine", "max"), workload or self.workload)

    def subset(self, keep: list[bool]) -> "RowSet":
        return RowSet([r for r, k in zip(self.rows, keep) if k])


DEVICE_WEIGHT_ROWS = 12
"""A device's rows weigh together at most as much as 12 rows (about two llama-bench models of a
device in measurements.csv): a choice, not a fit."""


def log_residuals(rs: RowSet, params: dict) -> np.ndarray:
    return np.sqrt(rs.weight) * np.log(rs.predict(params) / rs.measured)


def _used(rows: list[Row], free: list) -> np.ndarray:
    """Which free parameters the rows can inform (others stay at their start value)."""
    keys = {(r.engine, r.kind) for r in rows}
    engines = {r.engine for r in rows}
    quant = {r.engine for r in rows if r.llm.bytes_per_param < ENGINE_CONSTANTS[r.engine]["native_min_bytes"]}
    quant_kinds = {(r.engine, r.kind) for r in rows
                   if r.llm.bytes_per_param < ENGINE_CONSTANTS[r.engine]["native_min_bytes"]}
    long_ctx = {r.engine for r in rows if r.context > 0}
    batched = {r.engine for r in rows if r.batch > 1 or r.users > 1}
    decodes = {(r.engine, r.kind) for r in rows if r.target == "decode"}
    out = []
    for eng, kind, name, *_ in free:
        if eng == "optimized" and name == "bw_frac":  # only decode rows tell it from the overhead
            out.append((eng, kind) in decodes)
        elif name == "kv_read_eff":
            out.append(eng in long_ctx)
        elif name == "stream_overhead_s":
            out.append(eng in batched)
        elif kind is not None and name.startswith("quant"):
            out.append(any((eng, k) in quant_kinds for k in GPU_GROUP.get(kind, (kind,))))
        elif kind is not None:
            out.append(any((eng, k) in keys for k in GPU_GROUP.get(kind, (kind,))))
        elif name.startswith("quant"):
            out.append(eng in quant)
        else:
            out.append(eng in engines)
    return np.array(out)


def fit(rows: list[Row], net: dict, combine: str, iters: int = 100, free: list | None = None,
        start: np.ndarray | None = None) -> np.ndarray:
    """Levenberg-Marquardt on log parameters; deterministic (fixed start, fixed schedule). The
    refits of the cross-validation start from the full fit (`start`), which only saves time:
    parameters the training rows cannot inform go back to their fixed start value.

    Two stages: llama.cpp's parameters on llama.cpp's rows, then the other engines' on theirs with
    llama.cpp's held, so the KV-read prior the optimized engine takes from llama.cpp
    (`transfer_kv_prior`) is never fitted on the optimized rows it is then scored on. (The two
    engines share no other parameter, so this is the joint fit but for that prior.)"""
    free = FREE if free is None else free
    rows = [r for r in rows if r.fitted]
    first = [r for r in rows if r.engine == KV_PRIOR_SOURCE[0]]
    rest = [r for r in rows if r.engine != KV_PRIOR_SOURCE[0]]
    if not first or not rest:
        return _fit(rows, net, combine, iters, free, start)
    x1 = _fit(first, net, combine, iters, free, start)
    is_first = np.array([f[0] == KV_PRIOR_SOURCE[0] for f in free])
    x2 = _fit(rest, net, combine, iters, free, start, hold=np.where(is_first, x1, np.nan))
    return np.where(is_first, x1, x2)


def _fit(rows: list[Row], net: dict, combine: str, iters: int, free: list, start: np.ndarray | None,
         hold: np.ndarray | None = None) -> np.ndarray:
    """One Levenberg-Marquardt fit (see `fit`); `hold`: values (not NaN) of parameters kept fixed."""
    rs = RowSet(rows)
    used = _used(rows, free)
    start = np.array([f[3] for f in free]) if start is None else np.where(used, start, [f[3] for f in free])
    if hold is not None:
        held = ~np.isnan(hold)
        used = used & ~held
        start = np.where(held, hold, start)
    lo = np.log([f[4] for f in free])
    hi = np.log([f[5] for f in free])
    z = np.clip(np.log(start), lo, hi)

    def resid(zz):
        return log_residuals(rs, build_params(np.exp(zz), net, combine, free=free))

    used_j = np.flatnonzero(used)
    tiled = RowSet.tiled(rows, len(used_j))

    def jacobian(zz, r):
        """Forward differences, one column per parameter the rows inform, all in one pass (`tiled`):
        column j = (resid(zz + 1e-5 e_j) - r) / 1e-5, the same numbers as one resid call each."""
        plist = []
        for j in used_j:
            dz = np.zeros_like(zz)
            dz[j] = 1e-5
            plist.append(build_params(np.exp(zz + dz), net, combine, free=free))
        pred = tiled.predict(plist[0], params_list=plist).reshape(len(used_j), len(rows))
        J = np.zeros((len(r), len(zz)))
        J[:, used_j] = ((np.sqrt(rs.weight) * np.log(pred / rs.measured) - r) / 1e-5).T
        return J

    r = resid(z)
    cost = float(r @ r)
    lam = 1e-2
    for _ in range(iters):
        J = jacobian(z, r)
        c_prev = cost
        A = J.T @ J
        g = J.T @ r
        improved = False
        for _ in range(10):
            step = -np.linalg.solve(A + lam * np.diag(np.diag(A) + 1e-9), g)
            z_new = np.clip(z + step, lo, hi)
            r_new = resid(z_new)
            c_new = float(r_new @ r_new)
            if c_new < cost - 1e-12:
                z, r, cost, lam, improved = z_new, r_new, c_new, max(lam / 3, 1e-7), True
                break
            lam *= 4
        if not improved or (c_prev - cost) < 1e-9 * max(cost, 1e-12):
            break
    return np.exp(z)


# --------------------------------------------------------------------------------------------
# Reporting
# --------------------------------------------------------------------------------------------

TARGET_NAMES = {"decode": "decode tok/s", "prefill": "prefill tok/s", "ttft": "TTFT s", "throughput": "server tok/s"}
GROUPS = {"decode": ("decode",), "prefill/TTFT": ("prefill", "ttft")}


def _pct(pred: float, meas: float) -> float:
    return 100.0 * (pred - meas) / meas


def row_table(rows: list[Row], preds: list[float]) -> str:
    lines = [f"{'target':<14}{'device':<38}{'model':<12}{'prec':<7}{'engine':<10}{'predicted':>11}{'measured':>11}{'error':>9}"]
    for r, p in zip(rows, preds):
        lines.append(f"{TARGET_NAMES[r.target]:<14}{r.device[:37]:<38}{r.model:<12}{r.precision:<7}{r.engine:<10}"
                     f"{p:>11.4g}{r.measured:>11.4g}{_pct(p, r.measured):>8.1f}%")
    return "\n".join(lines)


def medians(rows: list[Row], preds: list[float]) -> dict[str, float]:
    """Median |error| per group over the fitted rows (evaluated-only rows are reported apart)."""
    out = {}
    for g, targets in GROUPS.items():
        errs = [abs(_pct(p, r.measured)) for r, p in zip(rows, preds) if r.target in targets and r.fitted]
        out[g] = float(np.median(errs)) if errs else math.nan
    return out


def leave_one_device_out(rows: list[Row], net: dict, combine: str, free: list | None = None,
                         start: np.ndarray | None = None) -> list[float]:
    preds = [math.nan] * len(rows)
    for dev in sorted({r.device for r in rows}):
        train = [r for r in rows if r.device != dev]
        x = fit(train, net, combine, free=free, start=start)
        params = build_params(x, net, combine, free=free)
        p = RowSet(rows).predict(without_untrained_kinds(params, train, [r for r in rows if r.device == dev], free))
        for i, r in enumerate(rows):
            if r.device == dev:
                preds[i] = float(p[i])
    return preds


def without_untrained_kinds(params: dict, train: list[Row], held: list[Row], free: list | None = None) -> dict:
    """The parameters as the estimator would ship them without the held-out rows: an (engine, kind) no
    training row informs (the DGX Spark, the only integrated GPU, left out) loses its entry and is
    predicted from the engine's "default" entry, set from the kinds still fitted at their median
    calibration devices (`_set_default`), as for any kind without calibration rows
    (estimator.engine_params). Before round 4's fifth pass such a device was predicted from the fit's
    start values, which no row had informed (0.8 of peak bandwidth, 0.6 of peak compute for the Spark).
    A parameter the kind shares with trained kinds (GPU_GROUP: the Spark's bandwidth curve) is kept."""
    free = FREE if free is None else free
    trained = {(r.engine, r.kind) for r in train if r.fitted}
    untrained = {(r.engine, r.kind) for r in held} - trained
    if not untrained:
        return params
    kept = {}
    for eng, kind in untrained:
        entry = params["engines"][eng]["kinds"].pop(kind, None) or {}
        shared = {name for e, label, name, *_ in free
                  if e == eng and kind in GPU_GROUP.get(label, ()) and any((eng, k) in trained for k in GPU_GROUP[label])}
        if shared & entry.keys():
            kept[(eng, kind)] = {n: entry[n] for n in shared & entry.keys()}
    _set_default(params, _ref_peaks(train))
    for (eng, kind), values in kept.items():
        params["engines"][eng]["kinds"][kind] = {**params["engines"][eng]["kinds"]["default"], **values}
    return params


def leave_one_series_out(rows: list[Row], net: dict, combine: str, start: np.ndarray | None = None) -> dict[int, float]:
    """{row index: prediction} for the serving benchmark's rows (`_serving`): each model series is
    predicted by a fit without its rows, with the request overhead t0 set on the other series'
    single-user rows (`with_request_overhead`): no parameter is fitted on a row it is scored on."""
    out: dict[int, float] = {}
    series = sorted({r.series for r in rows if _serving(r)})
    for name in series:
        train = [r for r in rows if r.series != name]
        params = with_request_overhead(build_params(fit(train, net, combine, start=start), net, combine), train)
        held = [i for i, r in enumerate(rows) if r.series == name and _serving(r)]
        for i in held:
            out[i] = float(predict(rows[i], params))
    return out


LOKO_KINDS = ("datacenter_gpu", "desktop_gpu")


def _loko_row(r: Row) -> bool:
    return r.engine == "llama.cpp" and r.kind in LOKO_KINDS


def leave_one_kind_out(rows: list[Row], net: dict, combine: str, free: list | None = None,
                       start: np.ndarray | None = None) -> list[float]:
    """Leave one GPU KIND out: fit without every llama.cpp row of datacenter_gpu, predict them;
    then the same for desktop_gpu (NaN for the other rows). The honest proxy for a device unlike
    any in the data (an H100 or an L40S under llama.cpp). A per-kind value the held-out kind
    cannot learn is taken from the other GPU kind (the per-kind model's best guess)."""
    free = FREE if free is None else free
    preds = [math.nan] * len(rows)
    for held in LOKO_KINDS:
        other = next(k for k in LOKO_KINDS if k != held)
        x = fit([r for r in rows if not (_loko_row(r) and r.kind == held)], net, combine, free=free, start=start)
        params = build_params(x, net, combine, free=free)
        kinds = params["engines"]["llama.cpp"]["kinds"]
        for eng, kind, name, *_ in free:
            if eng == "llama.cpp" and kind == held:
                kinds[held][name] = kinds[other][name]
        p = RowSet(rows).predict(params)
        for i, r in enumerate(rows):
            if _loko_row(r) and r.kind == held:
                preds[i] = float(p[i])
    return preds


def loko_medians(rows: list[Row], preds: list[float]) -> dict[str, float]:
    return medians([r for r in rows if _loko_row(r)], [p for r, p in zip(rows, preds) if _loko_row(r)])


def rtt_table(rtt_rows: list[dict], net: dict, loo: bool = False) -> tuple[str, list[float], list[float]]:
    lines = [f"{'route':<52}{'km':>7}{'predicted':>11}{'measured':>10}{'error':>9}"]
    errs, ratios = [], []
    routes = [r for r in rtt_rows if float(r["distance_km"]) > 0]
    for r in routes:
        n = fit_network([x for x in rtt_rows if x is not r]) if loo else net
        d, meas = float(r["distance_km"]), float(r["rtt_ms"])
        p = predict_rtt_ms(n, d)
        errs.append(abs(_pct(p, meas)))
        ratios.append(meas / p)
        name = f"{r['endpoint_a'].replace('IBM Cloud ', '')} - {r['endpoint_b'].replace('IBM Cloud ', '')}"
        lines.append(f"{name:<52}{d:>7.0f}{p:>11.1f}{meas:>10.1f}{_pct(p, meas):>8.1f}%")
    return "\n".join(lines), errs, ratios


def _band(ratios) -> list[float]:
    """10th-90th percentile of measured/predicted time ratios by the nearest rank, inclusive (the
    lower end the value with at most 10% of the rows below it, the upper end the value with at most
    10% above), widened to include 1: at least 80% of the rows it is built on lie inside it, also
    for a handful of rows with ties. Interpolated percentiles with their ends rounded to the nearest
    4 digits held 69% of the serving benchmark's 16 per-user decode rows (three of them one level,
    measured three times; round 4, fourteenth pass)."""
    r = np.sort(np.asarray(ratios, dtype=float))
    n = len(r)
    lo, hi = r[int(math.floor(BAND_PERCENTILES[0] / 100.0 * n))], r[int(math.ceil(BAND_PERCENTILES[1] / 100.0 * n)) - 1]
    # rounded outwards, so a row at an end stays inside
    return [math.floor(float(min(lo, 1.0)) * 1e4) / 1e4, math.ceil(float(max(hi, 1.0)) * 1e4) / 1e4]


def _time_ratio(row: Row, pred: float) -> float:
    """measured time / predicted time (rates are inverted)."""
    return pred / row.measured if row.target in ("decode", "prefill", "throughput") else row.measured / pred


def _round(obj):
    if isinstance(obj, float):
        return float(f"{obj:.6g}")
    if isinstance(obj, dict):
        return {k: _round(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_round(v) for v in obj]
    return obj


def _route_name(endpoint: str) -> str:
    return endpoint.replace("IBM Cloud ", "")


_FIT_CACHE: dict[tuple, tuple[dict, str, dict]] = {}


def fit_all(cal_dir: Path | None = None) -> tuple[dict, str, dict]:
    """(fitted_params.json dict, printed report, calibration_report.json dict). Deterministic, so
    cached per directory and file contents (the tests that need it share one fit)."""
    cal_dir = cal_dir or calibration_dir()
    key = (str(cal_dir), tuple(sorted(file_hashes(cal_dir).items())))
    if key not in _FIT_CACHE:
        while len(_FIT_CACHE) >= 4:  # bounded like every cache (issue 15): oldest fit out first
            _FIT_CACHE.pop(next(iter(_FIT_CACHE)))
        _FIT_CACHE[key] = _fit_all(cal_dir)
    return _FIT_CACHE[key]


def run(cal_dir: Path | None = None, verbose: bool = True) -> tuple[dict, str]:
    """Fit everything; return (params dict ready for JSON, printed report)."""
    params, report, _ = fit_all(cal_dir)
    if verbose:
        print(report)
    return params, report


def _score(cv: dict, loko: dict) -> float:
    """Selection score: mean of the leave-one-device-out and leave-one-kind-out median |errors|
    (decode and prefill/TTFT). Lower is better."""
    return float(np.mean(list(cv.values()) + list(loko.values())))


def evaluate_model(rows: list[Row], net: dict, free: list, combines=("max", "sum")) -> dict:
    """Fit one model structure with each combination of the bounds; keep the combination with
    the lower `_score`. Returns its combine, x, in-sample, LODO and LOKO predictions and medians."""
    results = {}
    for combine in combines:
        x = fit(rows, net, combine, free=free)
        ins = list(RowSet(rows).predict(build_params(x, net, combine, free=free)))
        loo = leave_one_device_out(rows, net, combine, free=free, start=x)
        loko = leave_one_kind_out(rows, net, combine, free=free, start=x)
        results[combine] = dict(combine=combine, x=x, ins=ins, loo=loo, loko=loko,
                                m_ins=medians(rows, ins), m_loo=medians(rows, loo), m_loko=loko_medians(rows, loko))
        results[combine]["score"] = _score(results[combine]["m_loo"], results[combine]["m_loko"])
    best = min(results, key=lambda c: (results[c]["score"], c))
    return {**results[best], "scores": {c: results[c]["score"] for c in results}}


def _device_counts(rows: list[Row]) -> dict:
    """{engine: {kind: calibration devices}} over the fitted rows (estimator.MIN_CALIBRATION_DEVICES)."""
    out: dict = {}
    for r in rows:
        if r.fitted:
            out.setdefault(r.engine, {}).setdefault(r.kind, set()).add(r.device)
    return {e: {k: len(v) for k, v in sorted(kinds.items())} for e, kinds in sorted(out.items())}


def _ref_peaks(rows: list[Row]) -> dict:
    """Median peak bandwidth and compute of each kind's calibration devices (llama.cpp rows)."""
    out = {}
    for kind in sorted({r.kind for r in rows}):
        devs = {r.device: r.hardware for r in rows if r.kind == kind and r.engine == "llama.cpp"}
        if devs:
            out[kind] = (float(np.median([h.mem_bandwidth_gbs for h in devs.values()])),
                         float(np.median([h.peak_tflops * est.compute_peak_scale(h, "llama.cpp")
                                          for h in devs.values()])))
    return out


def report_data(cal_dir: Path, rows: list[Row], preds: list[float], loo: list[float], rtt_rows: list[dict],
                net: dict, extra: dict | None = None) -> dict:
    """latency/estimation/calibration_report.json: every fitted row with its measured, in-sample and
    leave-one-device-out predicted value (compute_rows: batch-1 and lock-step rows of llama.cpp
    and TensorRT-LLM, with their batch and context_tokens); the serving-benchmark rows
    (serving_rows: vLLM on B200 at 1-400 concurrent users, TTFT and throughput evaluated, not
    fitted); every route with its measured, fitted and leave-one-route-out RTT; the same-metro rows
    behind the fixed term; the excluded values; `extra` (coverage, per-series and per-provider
    errors). Targets: decode and prefill in tokens/s, ttft in seconds, throughput in output tokens/s
    of the whole server; tokens: generated tokens of a decode row, prompt tokens otherwise."""
    compute, serving = [], []
    for r, p, q in zip(rows, preds, loo):
        item = {"target": r.target, "device": r.device, "model": r.model, "precision": r.precision,
                "engine": r.engine, "kind": r.kind, "measured": r.measured,
                "tokens": r.output if r.target == "decode" else r.prompt,
                "predicted": p, "predicted_loo": q, "batch": r.batch, "context_tokens": r.context,
                "source": r.series if r.series.endswith(".csv") else "concurrency.csv"}
        if _serving(r):
            serving.append({**item, "concurrent_users": r.users, "devices": r.devices, "fitted": r.fitted})
        else:
            compute.append(item)
    routes = []
    for r in rtt_rows:
        d = float(r["distance_km"])
        if d > 0:
            loo_net = fit_network([x for x in rtt_rows if x is not r])
            routes.append({"from": _route_name(r["endpoint_a"]), "to": _route_name(r["endpoint_b"]),
                           "provider": _provider(r), "distance_km": d, "measured_ms": float(r["rtt_ms"]),
                           "predicted_ms": predict_rtt_ms(net, d), "predicted_loo_ms": predict_rtt_ms(loo_net, d)})
    same_metro = [{"from": _route_name(r["endpoint_a"]), "to": _route_name(r["endpoint_b"]),
                   "measured_ms": float(r["rtt_ms"])} for r in rtt_rows if float(r["distance_km"]) == 0]
    return _round({"schema": 1, "written_by": "python -m latency.calibrate", "data_sha256": file_hashes(cal_dir),
                   "compute_rows": compute, "serving_rows": serving, "rtt_routes": routes,
                   "rtt_same_metro": same_metro, "excluded": excluded_values(cal_dir), **(extra or {})})


def _serving(r: Row) -> bool:
    """A serving-benchmark row (vLLM on B200): reported apart from the compute rows."""
    return r.users > 1 or r.target == "throughput" or (r.engine == "optimized" and r.series != "measurements.csv")


def _provider(rtt_row: dict) -> str:
    """The cloud provider of an rtt.csv route: the words its two endpoints' names start with
    ("IBM Cloud Osaka", "IBM Cloud Tokyo" -> "IBM Cloud")."""
    a, b = rtt_row["endpoint_a"].split(), rtt_row["endpoint_b"].split()
    common = [x for x, y in zip(a, b) if x == y]
    n = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return " ".join(common[:n]) or "unknown"


# --------------------------------------------------------------------------------------------
# Errors per kind of figure, beside the previous round's (issue 32 item 5)
# --------------------------------------------------------------------------------------------

FIGURES = (
    ("single-request decode", lambda r, users: r["target"] == "decode" and r["batch"] == 1 and users == 1),
    ("single-request prefill / first token",
     lambda r, users: r["target"] in ("prefill", "ttft") and r["batch"] == 1 and users == 1),
    ("lock-step batch decode", lambda r, users: r["target"] == "decode" and r["batch"] > 1),
    ("lock-step batch prefill", lambda r, users: r["target"] == "prefill" and r["batch"] > 1),
    ("serving per-user decode (users > 1)", lambda r, users: r["target"] == "decode" and users > 1),
    ("first token under load (users > 1)", lambda r, users: r["target"] == "ttft" and users > 1),
    ("server throughput", lambda r, users: r["target"] == "throughput"),
)
"""Kinds of figure the issue's goals name, over calibration_report.json's rows (compute rows and
serving rows alike), each row's error held out (predicted_loo: leave-one-device-out for the
compute rows, leave-one-series-out for the serving benchmark's rows, `leave_one_series_out`)."""


def errors_by_figure(report: dict) -> dict[str, dict]:
    """{figure: {rows, median_pct, p90_pct}} of |leave-one-device-out error| per kind of figure."""
    items = [(r, 1) for r in report.get("compute_rows", [])] + \
            [(r, int(r.get("concurrent_users", 1))) for r in report.get("serving_rows", [])]
    out = {}
    for name, keep in FIGURES:
        errs = [abs(_pct(r["predicted_loo"], r["measured"])) for r, users in items
                if keep(r, users) and math.isfinite(r["predicted_loo"])]
        if errs:
            out[name] = {"rows": len(errs), "median_pct": float(np.median(errs)),
                         "p90_pct": float(np.percentile(errs, 90))}
    return out


PREVIOUS_ROUND = {
    "source": ("the code and calibration_report.json of commit a94ad6c (round 3, before issue 32), its serving "
               "rows held out by the same leave-one-series-out scheme and a device alone of its kind by the same default entry"),
    "figures": {
        "single-request decode": {"rows": 63, "median_pct": 18.5, "p90_pct": 33.3},
        "single-request prefill / first token": {"rows": 74, "median_pct": 14.9, "p90_pct": 71.7},
        "lock-step batch decode": {"rows": 75, "median_pct": 33.9, "p90_pct": 58.2},
        "lock-step batch prefill": {"rows": 75, "median_pct": 26.6, "p90_pct": 78.7},
        "serving per-user decode (users > 1)": {"rows": 16, "median_pct": 48.4, "p90_pct": 69.8},
        "first token under load (users > 1)": {"rows": 17, "median_pct": 53.8, "p90_pct": 65.8},
        "server throughput": {"rows": 20, "median_pct": 47.2, "p90_pct": 78.8},
    },
}
"""The previous round's held-out errors per kind of figure, kept here so that the comparison
`python -m latency.calibrate` prints is reproducible without the old code: `errors_by_figure` of
the report that the code at a94ad6c writes when its serving rows are held out by model series as
this round's are and a held-out device alone of its kind (the DGX Spark) is predicted from the default
entry as this round's is (`leave_one_series_out` and `without_untrained_kinds` added to that code,
nothing else changed; docs/estimator.md "Errors per kind of figure" gives the steps)."""


# --------------------------------------------------------------------------------------------
# Ranges: stated coverage from left-out errors
# --------------------------------------------------------------------------------------------

BAND_KINDS = ("datacenter_gpu", "desktop_gpu", "apple_silicon", "integrated_gpu")
"""Kinds left out in turn for the uncalibrated ranges (their llama.cpp rows)."""


def _set_default(params: dict, ref_peaks: dict) -> None:
    """Recompute each engine's "default" entry (kinds without data) from the kinds it still has."""
    for e in params["engines"].values():
        kinds = {k: v for k, v in e["kinds"].items() if k != "default"}
        eff = []
        for kind, v in kinds.items():
            bw, tf = ref_peaks.get(kind, (1.0, 1.0))
            eff.append({"bw_frac": float(est.achieved_fraction(bw, v["bw_frac"], v.get("bw_cap_gbs"))),
                        "compute_frac": float(est.achieved_fraction(tf, v["compute_frac"], v.get("compute_cap_tflops")))})
        e["kinds"]["default"] = {k: float(np.exp(np.mean([np.log(v[k]) for v in eff])))
                                 for k in ("bw_frac", "compute_frac")}


def kind_out_predictions(rows: list[Row], net: dict, combine: str, start: np.ndarray) -> list[float]:
    """Leave each hardware KIND out in turn (its llama.cpp rows): refit without it, then predict
    its rows the way the estimator treats a kind without calibration rows, from the engine's
    "default" entry. The proxy for hardware unlike anything in the data (NaN for other rows)."""
    preds = [math.nan] * len(rows)
    for held in BAND_KINDS:
        out = [r.engine == "llama.cpp" and r.kind == held for r in rows]
        if not any(out):
            continue
        train = [r for r, o in zip(rows, out) if not o]
        params = build_params(fit(train, net, combine, start=start), net, combine)
        del params["engines"]["llama.cpp"]["kinds"][held]
        _set_default(params, _ref_peaks(train))
        p = RowSet(rows).predict(params)
        for i, o in enumerate(out):
            if o:
                preds[i] = float(p[i])
    return preds


def _stage(row: Row) -> str | None:
    return {"decode": "decode", "prefill": "prefill", "ttft": "prefill"}.get(row.target)


def _inside(ratio: float, band) -> bool:
    return band[0] <= ratio <= band[1]


def band_and_coverage(rows: list[Row], preds: list[float], keep, group=lambda r: r.device) -> dict:
    """The 10th-90th percentile band of measured/predicted time over the kept rows, the share of
    those left-out measurements inside it (coverage, 80% by construction), the same with the band
    rebuilt without the row's own `group` (band refit: the honest check), and their median |error|."""
    sel = [(r, p) for r, p in zip(rows, preds) if keep(r) and math.isfinite(p)]
    ratios = np.array([_time_ratio(r, p) for r, p in sel])
    groups = [group(r) for r, _ in sel]
    band = _band(ratios)
    cv = []
    for g in sorted(set(groups)):
        mask = np.array([x != g for x in groups])
        if mask.any():
            b = _band(ratios[mask])
            cv += [_inside(q, b) for q, m in zip(ratios, mask) if not m]
    return {"band": band, "rows": len(sel), "median_abs_error_pct": float(np.median([abs(_pct(p, r.measured)) for r, p in sel])),
            "coverage_pct": 100.0 * float(np.mean([_inside(q, band) for q in ratios])),
            "coverage_loo_pct": 100.0 * float(np.mean(cv)) if cv else math.nan}


def coverage_of(rows: list[Row], preds: list[float], keep, band) -> dict:
    """Share of the kept rows whose measured value falls inside `band` around the prediction."""
    sel = [(r, p) for r, p in zip(rows, preds) if keep(r) and math.isfinite(p)]
    return {"band": list(band), "rows": len(sel),
            "median_abs_error_pct": float(np.median([abs(_pct(p, r.measured)) for r, p in sel])),
            "coverage_pct": 100.0 * float(np.mean([_inside(_time_ratio(r, p), band) for r, p in sel]))}


def series_errors(rows: list[Row], preds: list[float], loo: list[float], keep) -> list[dict]:
    """Median |error| per (series, target): in-sample and leave-one-device-out."""
    groups: dict = {}
    for r, p, q in zip(rows, preds, loo):
        if keep(r):
            groups.setdefault((r.series if r.series != "long_context.csv" else f"long context {r.model}", r.target),
                              []).append((r, p, q))
    out = []
    for (series, target), items in groups.items():
        out.append({"series": series, "target": target, "rows": len(items), "fitted": items[0][0].fitted,
                    "in_sample_pct": float(np.median([abs(_pct(p, r.measured)) for r, p, _ in items])),
                    "leave_one_device_out_pct": float(np.median([abs(_pct(q, r.measured)) for r, _, q in items]))})
    return out


def _fit_all(cal_dir: Path) -> tuple[dict, str, dict]:
    rows, excluded, rtt_rows = load_rows(cal_dir)
    out: list[str] = []
    say = out.append
    say(f"Calibration data: {cal_dir}")
    counts = {f: sum(r.series == f or (f == "concurrency.csv" and not r.series.endswith(".csv")) for r in rows)
              for f in ("measurements.csv", "long_context.csv", "concurrency.csv")}
    say(f"{len(rows)} compute targets ({', '.join(f'{n} from {f}' for f, n in counts.items())}; "
        f"{sum(not r.fitted for r in rows)} evaluated, not fitted), {len(rtt_rows)} RTT rows")
    say("Excluded (SUSPECT in notes, or flagged by the source): " + ("; ".join(excluded) if excluded else "none"))
    n_suspect = sum("SUSPECT" in x for x in excluded)
    if n_suspect != 3:
        say(f"  note: the README mentions three SUSPECT prefill values; the notes flag {n_suspect}.")

    net = fit_network(rtt_rows)
    say(f"\nNetwork: fixed {net['fixed_ms']:.3f} ms (0-km rows), route inflation {net['route_inflation']:.3f}")
    tab, rtt_err, _ = rtt_table(rtt_rows, net)
    _, rtt_loo_err, rtt_loo_ratios = rtt_table(rtt_rows, net, loo=True)
    say(tab)

    chosen = evaluate_model(rows, net, FREE)
    combine, x, loo, loko, score = chosen["combine"], chosen["x"], chosen["loo"], chosen["loko"], chosen["scores"]
    per_kind = evaluate_model(rows, net, FREE_PER_KIND, combines=(combine,))
    ref_peaks, device_counts = _ref_peaks(rows), _device_counts(rows)
    final = with_request_overhead(build_params(x, net, combine, ref_peaks=ref_peaks, device_counts=device_counts), rows)
    preds = [predict(r, final) for r in rows]  # through the public API
    # The serving benchmark's rows all come from one device (B200): leaving it out leaves out every
    # serving-engine decode row and the rows t0 is set on. Their held-out prediction is instead
    # leave-one-series-out (each model's series predicted by a fit, and a t0, without it).
    loo = list(loo)
    for i, q in leave_one_series_out(rows, net, combine, x).items():
        loo[i] = q
    say("\nCombining compute and memory bounds: mean of the leave-one-device-out and leave-one-kind-out "
        "median |errors| " + ", ".join(f"{c} {score[c]:.1f}%" for c in sorted(score)) + f" -> using {combine!r}")

    say("\nFitted parameters:")
    for (eng, kind, name, *_), v in zip(FREE, x):
        say(f"  {eng:<10} {kind or '(all kinds)':<16} {name:<18} {v:.4g}")
    prior = build_params(x, net, combine)["engines"]["optimized"]
    say(f"  optimized  (all kinds)      kv_read_eff        {prior['kv_read_eff']:.4g}  (prior: llama.cpp's, carried over)")
    say(f"  optimized  (all kinds)      kv_cap_gbs         {prior.get('kv_cap_gbs', math.inf):.4g}  (prior: llama.cpp's"
        " discrete-GPU bw_cap_gbs, per stream)")
    say("Calibration devices per (engine, kind) (ranges are 'calibrated' from "
        f"{est.MIN_CALIBRATION_DEVICES}): " + "; ".join(f"{e} {k} {n}" for e, ks in device_counts.items() for k, n in ks.items()))

    base = [r.series == "measurements.csv" for r in rows]
    sub = lambda seq, m: [v for v, k in zip(seq, m) if k]  # noqa: E731
    say("\nIn-sample errors (all rows fitted together; measurements.csv):")
    say(row_table(sub(rows, base), sub(preds, base)))
    say("\nLeave-one-device-out errors (each device predicted by a fit without it; measurements.csv):")
    say(row_table(sub(rows, base), sub(loo, base)))

    say("\nLeave-one-kind-out errors (llama.cpp rows of each GPU kind predicted by a fit without that kind):")
    say(row_table([r for r in rows if _loko_row(r)], [p for r, p in zip(rows, loko) if _loko_row(r)]))

    # Round 2: long contexts, batches and serving benchmarks, per series.
    series = series_errors(rows, preds, loo, lambda r: r.series != "measurements.csv")
    say("\nErrors per series (long_context.csv, concurrency.csv; median |error|, in-sample / leave-one-device-out;"
        " 'evaluated' = not a fit target):")
    say(f"  {'series':<52}{'target':<15}{'rows':>5}{'in-sample':>11}{'left out':>10}")
    for s_ in series:
        say(f"  {s_['series'][:51]:<52}{TARGET_NAMES[s_['target']]:<15}{s_['rows']:>5}{s_['in_sample_pct']:>10.1f}%"
            f"{s_['leave_one_device_out_pct']:>9.1f}%" + ("" if s_["fitted"] else "  evaluated"))
    serving = [_serving(r) for r in rows]
    say("\nServing benchmark (vLLM on B200; users = concurrent requests, at most the prompts sent), in-sample:")
    say(f"  {'model':<22}{'users':>6}{'TTFT s':>16}{'ms/token':>18}{'server tok/s':>22}")
    by_key: dict = {}
    for r, p, k in zip(rows, preds, serving):
        if k:
            by_key.setdefault((r.model, r.users), {})[r.target] = (r.measured, p)
    for (model, users), t in by_key.items():
        cell = lambda key, f: (f"{f(t[key][1]):.3g} ({f(t[key][0]):.3g})" if key in t else "-")  # noqa: E731
        say(f"  {model:<22}{users:>6}{cell('ttft', lambda v: v):>16}{cell('decode', lambda v: 1000 / v):>18}"
            f"{cell('throughput', lambda v: v):>22}")
    say("  (predicted (measured))")
    ro = final["request_overhead"]
    say(f"  Per-request serving API time t0 = {1000 * ro['request_overhead_s']:.1f} ms (optimized engine, through a serving"
        " API): median over series of measured c=1 TTFT minus the estimator's c=1 TTFT without it ("
        + ", ".join(f"{m} {1000 * g:.1f} ms" for m, g in ro["c1_gap_s_by_series"].items())
        + f"; {', '.join(ro['excluded_cold_start'])} c=1 left out: cold start). Users > 1 rows evaluated, not fitted.")
    say("  Prompts already in vLLM's prefix cache (the benchmark's levels run in order with one seed; hybrid"
        " models run without it): " + "; ".join(
            f"{m} " + ", ".join(f"c={u}: {1 - cs:.0%}" for u, cs in sorted({(r.users, r.cold_share) for r in rows
                                                                          if r.model == m and r.target == 'ttft'}))
            for m in sorted({r.model for r in rows if _serving(r)})))

    fitted = [r.fitted for r in rows]
    comp = [not k for k in serving]  # the compute rows of calibration_report.json (the page recomputes these)
    ins, cv = medians(sub(rows, comp), sub(preds, comp)), medians(sub(rows, comp), sub(loo, comp))
    ins["RTT"], cv["RTT"] = float(np.median(rtt_err)), float(np.median(rtt_loo_err))
    lk = loko_medians(rows, loko)
    by_source = {}
    for src in ("measurements.csv", "long_context.csv", "concurrency.csv"):
        m = [(r.series == src or (src == "concurrency.csv" and not r.series.endswith(".csv"))) and not _serving(r)
             for r in rows]
        by_source[src] = {"in_sample": medians(sub(rows, m), sub(preds, m)),
                          "leave_one_device_out": medians(sub(rows, m), sub(loo, m))}
    # Single requests (batch 1, one user; issue 24 item 4): the rows before batching entered the
    # data, all of measurements.csv and long_context.csv and the batch-1 rows of concurrency.csv.
    single = [not _serving(r) and r.batch == 1 and r.users == 1 for r in rows]
    single_request = {"in_sample": medians(sub(rows, single), sub(preds, single)),
                      "leave_one_device_out": medians(sub(rows, single), sub(loo, single))}
    say("\nMedian |error| (compute rows;       in-sample   leave-one-out   leave-one-kind-out   target\n"
        "  serving rows are per series above)")
    for k, target in (("decode", 20), ("prefill/TTFT", 40), ("RTT", 20)):
        say(f"  {k + ', all':<33}{ins[k]:>10.1f}%{cv[k]:>14.1f}%{(f'{lk[k]:.1f}%' if k in lk else '-'):>21}{target:>8}%")
        for src, m in list(by_source.items()) + [("single request (batch 1)", single_request)]:
            if k in m["in_sample"] and not math.isnan(m["in_sample"][k]):
                say(f"    {src:<31}{m['in_sample'][k]:>10.1f}%{m['leave_one_device_out'][k]:>14.1f}%")

    # Model selection (docs/estimator.md, "Why one saturating curve"): the saturating discrete-GPU
    # curve replaced a constant fraction per GPU kind because (c), the leave-one-kind-out error,
    # the honest proxy for devices unlike any in the data, fell clearly while (a) in-sample and
    # (b) leave-one-device-out stayed within the targets (decode 20%, prefill/TTFT 40%) and close
    # to before; both models have 4 free parameters for the two GPU kinds.
    say("\nModel selection, llama.cpp on discrete GPUs (median |error|, decode / prefill+TTFT):")
    say(f"  {'model':<34}{'combine':<9}{'(a) in-sample':>16}{'(b) leave-one-device':>23}{'(c) leave-one-kind':>21}")
    for name, res in (("per-kind fraction (before)", per_kind), ("saturating curve (used)", chosen)):
        cells = [f"{res[m]['decode']:.1f} / {res[m]['prefill/TTFT']:.1f}" for m in ("m_ins", "m_loo", "m_loko")]
        say(f"  {name:<34}{res['combine']:<9}{cells[0]:>16}{cells[1]:>23}{cells[2]:>21}")

    # Ranges (issue 12 item 1): stated coverage 80%, from left-out errors.
    kout = kind_out_predictions(rows, net, combine, x)
    is_cal = lambda r: est.engine_params(final, r.engine, r.kind)["calibrated"]  # noqa: E731
    cover: dict = {}
    bands, bands_unc = {}, {}
    for stage in ("decode", "prefill"):
        cal = band_and_coverage(rows, loo, lambda r: r.fitted and _stage(r) == stage and is_cal(r))
        unc = band_and_coverage(rows, kout, lambda r: r.fitted and _stage(r) == stage, group=lambda r: r.kind)
        unc["band"] = [min(unc["band"][0], cal["band"][0]), max(unc["band"][1], cal["band"][1])]
        unc.update(coverage_of(rows, kout, lambda r: r.fitted and _stage(r) == stage, unc["band"]))
        bands[stage], bands_unc[stage] = cal["band"], unc["band"]
        cover[f"{stage}_calibrated"], cover[f"{stage}_uncalibrated"] = cal, unc
    cover["ttft_calibrated"] = coverage_of(rows, loo, lambda r: r.fitted and r.target == "ttft", bands["prefill"])
    net_band = _band(rtt_loo_ratios)
    # One provider in rtt.csv: its route inflation need not hold for others. Rather than fit
    # anything more, the upper end also covers a backbone as indirect as the public-Internet
    # rule of thumb (route inflation 2.1, Bozkurt et al., arXiv 1811.10737).
    net_band[1] = round(max(net_band[1], PUBLIC_INTERNET_ROUTE_INFLATION / net["route_inflation"]), 4)
    bands["network"] = net_band
    # Many users on one server (concurrent_users > 1) is where the estimator knows least: the compute
    # bands held only 5-75% of the serving benchmark's measurements. Its own held-out errors give the
    # ranges there instead (each the envelope of the compute band and the 10th-90th percentile band of
    # the serving rows' leave-one-series-out predictions: a model the range is asked about is a model
    # the fit has not seen); 'band refit' rebuilds each without the model series it is checked on
    # (leave one model out), the stricter check with three series. Until round 4's seventeenth pass
    # the first-token and throughput bands came from the in-sample predictions: they held 88% of
    # them but 47% (throughput) and 76% (first token) of the held-out ones.
    many_users = lambda target: (lambda r: r.users > 1 and r.target == target)  # noqa: E731
    by_model = lambda r: r.model  # noqa: E731
    s_dec = band_and_coverage(rows, loo, many_users("decode"), group=by_model)
    s_ttft = band_and_coverage(rows, loo, many_users("ttft"), group=by_model)
    s_tput = band_and_coverage(rows, loo, many_users("throughput"), group=by_model)
    envelope = lambda a, b: [min(a[0], b[0]), max(a[1], b[1])]  # noqa: E731
    bands_serving = {"decode": envelope(bands["decode"], s_dec["band"]),
                     "ttft": envelope(bands["prefill"], s_ttft["band"]),
                     "throughput": envelope(bands["decode"], s_tput["band"])}
    for key, res, band in (("serving_decode", s_dec, bands_serving["decode"]),
                           ("serving_ttft_evaluated", s_ttft, bands_serving["ttft"]),
                           ("serving_throughput_evaluated", s_tput, bands_serving["throughput"])):
        kept = {"decode": many_users("decode"), "ttft": many_users("ttft"), "throughput": many_users("throughput")}[key.split("_")[1]]
        cover[key] = coverage_of(rows, loo, kept, band)
        cover[key]["coverage_loo_pct"] = res["coverage_loo_pct"]
    say(f"\nRanges: each aims to hold the measured value {est.RANGE_COVERAGE:.0%} of the time (10th-90th percentile of"
        " left-out measured/predicted time).\n  calibrated = leave-one-device-out errors of (engine, kind) pairs with"
        f" >= {est.MIN_CALIBRATION_DEVICES} devices; uncalibrated = those plus leave-one-kind-out errors"
        " (each kind predicted from the default entry).\n  coverage = share of left-out measurements inside the range;"
        " 'band refit' = the range rebuilt without the device (calibrated) or kind (uncalibrated) it is checked on;"
        "\n  serving rows (users > 1, the vLLM benchmark): ranges from their own errors, refit = leave one model out.")
    say(f"  {'range':<34}{'band':>15}{'rows':>6}{'median |err|':>14}{'coverage':>10}{'band refit':>12}")
    names = {"decode_calibrated": "decode, calibrated", "decode_uncalibrated": "decode, uncalibrated",
             "prefill_calibrated": "prefill+TTFT, calibrated", "prefill_uncalibrated": "prefill+TTFT, uncalibrated",
             "ttft_calibrated": "TTFT rows only, calibrated",
             "serving_decode": "serving per-user decode (users > 1)",
             "serving_ttft_evaluated": "serving TTFT (users > 1, evaluated)",
             "serving_throughput_evaluated": "serving server tok/s (users > 1)"}
    for key, name in names.items():
        c = cover[key]
        refit = f"{c['coverage_loo_pct']:.0f}%" if "coverage_loo_pct" in c else "-"
        band_text = f"x{c['band'][0]:.2f}-x{c['band'][1]:.2f}"
        say(f"  {name:<34}{band_text:>15}"
            f"{c['rows']:>6}{c['median_abs_error_pct']:>13.1f}%{c['coverage_pct']:>9.0f}%{refit:>12}")
    say(f"  network (leave-one-route-out): x{net_band[0]:.2f}-x{net_band[1]:.2f}")

    providers: dict = {}
    for r, e_in, e_loo, q in zip([r for r in rtt_rows if float(r["distance_km"]) > 0], rtt_err, rtt_loo_err,
                                 rtt_loo_ratios):
        providers.setdefault(_provider(r), []).append((e_in, e_loo, _inside(q, net_band)))
    say("\nNetwork errors per provider (median |error| in-sample / leave-one-route-out, coverage of the range):")
    prov = {}
    for name, items in providers.items():
        prov[name] = {"routes": len(items), "in_sample_pct": float(np.median([a for a, _, _ in items])),
                      "leave_one_route_out_pct": float(np.median([b for _, b, _ in items])),
                      "coverage_pct": 100.0 * float(np.mean([c for _, _, c in items]))}
        say(f"  {name:<24}{len(items):>4} routes  {prov[name]['in_sample_pct']:.1f}% / "
            f"{prov[name]['leave_one_route_out_pct']:.1f}%  coverage {prov[name]['coverage_pct']:.0f}%")
    say(f"  one provider only: the range's upper end is at least the public-Internet route inflation "
        f"{PUBLIC_INTERNET_ROUTE_INFLATION} / {net['route_inflation']:.3f} = x{PUBLIC_INTERNET_ROUTE_INFLATION / net['route_inflation']:.2f}"
        " (widened, not refitted, for other providers)")

    params = build_params(x, net, combine, bands, ref_peaks=ref_peaks, device_counts=device_counts)
    params["engines"]["optimized"]["request_overhead_s"] = final["engines"]["optimized"]["request_overhead_s"]
    params["request_overhead"] = final["request_overhead"]
    params["bands_uncalibrated"] = bands_unc
    params["bands_serving"] = bands_serving
    params["meta"] = {
        "written_by": "python -m latency.calibrate",
        "data_sha256": file_hashes(cal_dir),
        "excluded": excluded,
        "rows": {"compute": sum(comp), "serving": sum(serving), "fitted": sum(fitted),
                 "evaluated": len(rows) - sum(fitted),
                 "rtt_routes": sum(float(r["distance_km"]) > 0 for r in rtt_rows)},
        "median_abs_error_pct": {"in_sample": ins, "leave_one_device_out": cv, "leave_one_kind_out": lk},
        "median_abs_error_pct_by_source": by_source,
        "median_abs_error_pct_single_request": single_request,
        "coverage_pct": {"stated": 100.0 * est.RANGE_COVERAGE, **cover},
        "combine_scores_pct": score,
        "model_selection": {name: {"combine": res["combine"], "in_sample": res["m_ins"],
                                   "leave_one_device_out": res["m_loo"], "leave_one_kind_out": res["m_loko"]}
                            for name, res in (("per_kind_fraction", per_kind), ("saturating_curve", chosen))},
    }
    params = _round(params)
    extra = {"coverage_pct": params["meta"]["coverage_pct"], "series_errors": series, "rtt_providers": prov}
    report = report_data(cal_dir, rows, preds, loo, rtt_rows, net, extra)
    # Issue 32 item 5: leave-one-device-out errors per kind of figure, beside the previous round's.
    now = _round(errors_by_figure(report))
    report["errors_by_figure"] = {"this_round": now, "previous_round": PREVIOUS_ROUND}
    say("\nHeld-out |error| per kind of figure (median / p90; compute rows leave-one-device-out), this round"
        f" beside the previous ({PREVIOUS_ROUND['source']}):")
    say(f"  {'figure':<40}{'rows':>6}{'this round':>17}{'rows':>7}{'previous round':>19}")
    for name, _keep in FIGURES:
        a, b = now.get(name), PREVIOUS_ROUND["figures"].get(name)
        cell = lambda d: f"{d['median_pct']:.1f}% / {d['p90_pct']:.1f}%" if d else "-"  # noqa: E731
        say(f"  {name:<40}{(a or {}).get('rows', 0):>6}{cell(a):>17}{(b or {}).get('rows', 0):>7}{cell(b):>19}")
    say("  (serving rows, all on one device (B200): held out by model series instead, each predicted by a fit and"
        " a request overhead t0 set without its rows; the previous round's numbers by the same scheme)")
    return params, "\n".join(out), report


PUBLIC_INTERNET_ROUTE_INFLATION = 2.1
"""Real route length / great-circle distance on the public Internet, rule of thumb (Bozkurt et al.,
"Dissecting Latency in the Internet's Fiber Infrastructure", arXiv 1811.10737; calibration README)."""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed JSON; write nothing")
    args = ap.parse_args(argv)
    cal_dir = calibration_dir()
    missing = [f for f in FILES if not (cal_dir / f).is_file()]
    if missing:
        print(f"error: the calibration data folder {cal_dir} is needed (missing: {', '.join(missing)}); "
              "put shared/calibration next to the repository or set LATENCY_CALIBRATION_DIR", file=sys.stderr)
        return 2
    params, text, report = fit_all(cal_dir)
    print(text)
    files = {PARAMS_PATH: params, REPORT_PATH: report}
    if args.check:
        ok = True
        for path, data in files.items():
            same = path.exists() and path.read_text(encoding="utf-8") == to_json(data)
            print(f"\n{path.name}: {'matches the fit' if same else 'DIFFERS from the fit'}", end="")
            ok = ok and same
        print()
        return 0 if ok else 1
    for path, data in files.items():
        path.write_text(to_json(data), encoding="utf-8")
        print(f"\nwrote {path}", end="")
    print()
    return 0


def to_json(data: dict) -> str:
    """The committed form of both files (sorted keys, 2-space indent, trailing newline)."""
    return json.dumps(data, indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":
    sys.exit(main())
