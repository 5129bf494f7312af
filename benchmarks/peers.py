"""How does this estimator compare? Public peers side by side on the calibration rows (issue 32 item 4).

    python benchmarks/peers.py              # first run: builds benchmarks/.peers-venv (a few minutes)
    python benchmarks/peers.py --rows       # also print every row each peer predicted
    python benchmarks/peers.py --json out.json

Runs NVIDIA's aiconfigurator, GenZ (`genz-llm`) and llm-analysis, each at its documented defaults,
beside this project's estimator (`latency.estimate`) on the rows of ../shared/calibration/*.csv that
each peer can express, and prints per kind of figure the rows both predicted with each tool's median
and p90 absolute relative error next to this estimator's on the same rows.

The peers never touch the app's environment: they are pinned in requirements-peers.txt and installed
by this script into its own virtual environment, benchmarks/.peers-venv (git-ignored), which it
creates with `python3 -m venv` on the first run. Each peer runs in that environment's interpreter as
a subprocess, through a small adapter (benchmarks/peers_<peer>.py) that reads the peer's inputs as
JSON on stdin and writes the peer's raw outputs as JSON on stdout. Everything that decides what a
peer is asked (the row-to-input mapping) and how its answer is scored lives here, in plain Python,
and is unit-tested without the peers installed (tests/test_peers_mapping.py).

Where a peer cannot express a row (a device or engine it has no data for, a model architecture it
cannot describe, requests queueing behind each other, prefill over tokens already in the KV cache)
the row is skipped for that peer and the printed counts say why. Where the mapping approximates
(a model's shapes instead of the exact checkpoint, a kernel-database version other than the row's
engine version, a 4.9-bit GGUF format given as 4 bits), the approximation is printed with the
number of rows it touches. Network distance is modelled by none of the peers: every comparison here
is of the server's own time, and the estimator is run with no network (access="none").

The estimator's errors are given twice: in-sample (its fitted parameters were fitted on these very
rows, so the comparison flatters it) and leave-one-device-out (`predicted_loo` in
latency/estimation/calibration_report.json, written by `python -m latency.calibrate`: each device's
rows predicted by a fit that never saw that device; rows the fit only evaluates keep the same
out-of-sample meaning). The peers were fitted on none of these rows.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import datetime
import json
import math
import os
import subprocess
import sys
import venv
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

HERE = Path(__file__).resolve().parent
VENV_DIR = HERE / ".peers-venv"
REQUIREMENTS = ROOT / "requirements-peers.txt"
PEERS = ("aiconfigurator", "GenZ", "llm-analysis")
ADAPTERS = {"aiconfigurator": HERE / "peers_aiconfigurator.py", "GenZ": HERE / "peers_genz.py",
            "llm-analysis": HERE / "peers_llm_analysis.py"}
PACKAGES = {"aiconfigurator": "aiconfigurator", "GenZ": "genz-llm", "llm-analysis": "llm-analysis"}
ADAPTER_TIMEOUT_S = 3600

# --------------------------------------------------------------------------------------------
# Kinds of figure
# --------------------------------------------------------------------------------------------

KINDS = (
    ("decode_single", "single-request decode (tokens/s)"),
    ("prefill_single", "single-request prefill / first token"),
    ("throughput", "output throughput per GPU under load (every concurrency level)"),
    ("ttft_load", "first token under load (steady serving; lock-step batches: prefill rate)"),
    ("tpot_load", "time per token under load (per-user decode tokens/s)"),
    ("long_context", "long context (decode and prefill with 0-32k tokens already in the KV cache)"),
)
KIND_NAMES = dict(KINDS)


def figure_kind(target: str, series: str, users: int, batch: int) -> str:
    """The kind of figure a calibration row is (KINDS). long_context.csv rows are long context at
    every depth (depth 0 included: it is the series' baseline); a row with other requests beside it
    (serving concurrency > 1 or a lock-step batch > 1) is 'under load'."""
    if series == "long_context.csv":
        return "long_context"
    if target == "throughput":
        return "throughput"
    if users > 1 or batch > 1:
        return "tpot_load" if target == "decode" else "ttft_load"
    return "decode_single" if target == "decode" else "prefill_single"


# --------------------------------------------------------------------------------------------
# Rows
# --------------------------------------------------------------------------------------------

@dataclass
class Spec:
    """One calibration row, in the terms every peer's mapping needs."""
    id: str
    kind: str
    target: str            # decode (tok/s per stream) | prefill (tok/s of the batch) | ttft (s) | throughput (tok/s)
    measured: float
    device: str
    model: str
    precision: str
    engine: str            # the row's software, e.g. "TensorRT-LLM 0.9.0", "vLLM 0.16.0", "llama.cpp"
    prompt: int
    output: int
    batch: int = 1
    users: int = 1
    context: int = 0
    devices: int = 1
    cold_share: float = 1.0
    sent: int = 0                            # serving benchmark: prompts the level sent (calibrate.last_wave_users)
    hw: dict = field(default_factory=dict)   # mem_bandwidth_gbs, peak_tflops, memory_gb, kind, interconnect_gbs
    estimator: float = math.nan              # this estimator, in-sample
    estimator_loo: float = math.nan          # this estimator, leave-one-device-out


def _read(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def engine_labels(cal_dir: Path) -> tuple[dict, dict]:
    """The software each row ran on, from the CSVs: measurements.csv by (hardware, model, precision),
    concurrency.csv by the calibration's model key (calibrate.MODEL_CONFIGS)."""
    from latency.estimation import calibrate as cal
    meas = {(r["hardware"], r["model"], r["precision"]): r["software"] for r in _read(cal_dir / "measurements.csv")}
    conc = {}
    for r in _read(cal_dir / "concurrency.csv"):
        conc[cal._model(r["model"], float(r["params_b"]), r["precision"]).name] = r["engine"]
    return meas, conc


def _engine_of(row, meas: dict, conc: dict) -> str:
    if row.engine == "llama.cpp":
        return "llama.cpp"
    if row.series == "measurements.csv":
        return meas.get((row.device, row.model, row.precision), "TensorRT-LLM")
    return conc.get(row.model, "vLLM")


def _row_key(r) -> tuple:
    return (r["target"], r["device"], r["model"], r["precision"], r["engine"], r["batch"], r["context_tokens"],
            r["tokens"], r.get("concurrent_users", 1), f"{float(r['measured']):.4g}")


def load_specs(cal_dir: Path | None = None) -> list[Spec]:
    """Every calibration row the estimator is fitted or evaluated on (latency.estimation.calibrate's
    own reading of the CSVs, so both sides see the same rows and inputs), with the estimator's
    in-sample prediction (calibrate.predict -> latency.estimate) and its leave-one-device-out
    prediction from calibration_report.json."""
    from latency.estimation import calibrate as cal
    from latency.estimation.estimator import calibration_dir
    cal_dir = Path(cal_dir or calibration_dir())
    rows, _excluded, _rtt = cal.load_rows(cal_dir)
    meas, conc = engine_labels(cal_dir)
    report = json.loads(cal.REPORT_PATH.read_text(encoding="utf-8"))
    loo = {}
    for item in report.get("compute_rows", []) + report.get("serving_rows", []):
        loo.setdefault(_row_key(item), item["predicted_loo"])
    specs = []
    for i, r in enumerate(rows):
        users = getattr(r, "users", 1)
        key = (r.target, r.device, r.model, r.precision, r.engine, r.batch, r.context,
               r.output if r.target == "decode" else r.prompt, users, f"{float(r.measured):.4g}")
        if key not in loo:  # compute rows carry no concurrent_users in the report
            key = key[:8] + (1,) + key[9:]
        h = r.hardware
        specs.append(Spec(
            id=f"r{i:03d}", kind=figure_kind(r.target, r.series, users, r.batch), target=r.target,
            measured=float(r.measured), device=r.device, model=r.model, precision=r.precision,
            engine=_engine_of(r, meas, conc), prompt=int(r.prompt), output=int(r.output), batch=int(r.batch),
            users=int(users), context=int(r.context), devices=int(r.devices), cold_share=float(r.cold_share),
            sent=int(getattr(r, "sent", None) or 0),
            hw={"mem_bandwidth_gbs": h.mem_bandwidth_gbs, "peak_tflops": h.peak_tflops, "memory_gb": h.memory_gb,
                "kind": h.kind, "interconnect_gbs": getattr(h, "interconnect_gbs", None)},
            estimator=float(cal.predict(r, None)), estimator_loo=float(loo.get(key, math.nan))))
    return specs


# --------------------------------------------------------------------------------------------
# Published model shapes (for peers that need a model config and ship none for the row's model)
# --------------------------------------------------------------------------------------------

PUBLISHED = {
    # layers, hidden, heads, kv_heads, head_dim, ffn (per expert for MoE), gated MLP, vocab, experts, top_k,
    # max context; source: the model's own config.json.
    "Llama 3 8B": dict(layers=32, hidden=4096, heads=32, kv_heads=8, head_dim=128, ffn=14336, gated=True,
                       vocab=128256, max_len=8192, source="https://huggingface.co/meta-llama/Meta-Llama-3-8B/blob/main/config.json"),
    "Llama 3 70B": dict(layers=80, hidden=8192, heads=64, kv_heads=8, head_dim=128, ffn=28672, gated=True,
                        vocab=128256, max_len=8192, source="https://huggingface.co/meta-llama/Meta-Llama-3-70B/blob/main/config.json"),
    "GPT-J 6B": dict(layers=28, hidden=4096, heads=16, kv_heads=16, head_dim=256, ffn=16384, gated=False,
                     vocab=50400, max_len=2048, source="https://huggingface.co/EleutherAI/gpt-j-6b/blob/main/config.json (n_inner null = 4 x n_embd)"),
    "Mistral 7B": dict(layers=32, hidden=4096, heads=32, kv_heads=8, head_dim=128, ffn=14336, gated=True,
                       vocab=32000, max_len=32768, source="https://huggingface.co/mistralai/Mistral-7B-v0.1/blob/main/config.json"),
    "Llama 2 7B": dict(layers=32, hidden=4096, heads=32, kv_heads=32, head_dim=128, ffn=11008, gated=True,
                       vocab=32000, max_len=4096, source="https://huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/config.json"),
    "gpt-oss-20b": dict(layers=24, hidden=2880, heads=64, kv_heads=8, head_dim=64, ffn=2880, gated=True,
                        vocab=201088, experts=32, top_k=4, max_len=131072,
                        source="https://huggingface.co/openai/gpt-oss-20b/blob/main/config.json"),
    "gpt-oss-120b": dict(layers=36, hidden=2880, heads=64, kv_heads=8, head_dim=64, ffn=2880, gated=True,
                         vocab=201088, experts=128, top_k=4, max_len=131072,
                         source="https://huggingface.co/openai/gpt-oss-120b/blob/main/config.json"),
    "Qwen3-Coder-30B-A3B": dict(layers=48, hidden=2048, heads=32, kv_heads=4, head_dim=128, ffn=768, gated=True,
                                vocab=151936, experts=128, top_k=8, max_len=262144,
                                source="https://huggingface.co/Qwen/Qwen3-Coder-30B-A3B-Instruct/blob/main/config.json"),
    "Qwen2.5-Coder-7B": dict(layers=28, hidden=3584, heads=28, kv_heads=4, head_dim=128, ffn=18944, gated=True,
                             vocab=152064, max_len=32768, source="https://huggingface.co/Qwen/Qwen2.5-Coder-7B/blob/main/config.json"),
    "gemma-3-4b": dict(layers=34, hidden=2560, heads=8, kv_heads=4, head_dim=256, ffn=10240, gated=True,
                       vocab=262208, max_len=131072, source="https://huggingface.co/google/gemma-3-4b-it/blob/main/config.json"),
    "MiniMax-M2.5": dict(layers=62, hidden=3072, heads=48, kv_heads=8, head_dim=128, ffn=1536, gated=True,
                         vocab=200064, experts=256, top_k=8, max_len=196608,
                         source="https://huggingface.co/MiniMaxAI/MiniMax-M2.5/blob/main/config.json"),
}

ONE_SHAPE_ONLY = {
    # Models the two analytic peers cannot describe: both take one layer shape repeated.
    "Nemotron-Nano-30B": "hybrid Mamba-2 / MoE / attention layers (Nemotron-H): GenZ's decode model raises "
                         "'More then 1 unique layers not supported'; llm-analysis has no Mamba layer",
    "Nemotron-Super-49B": "neural-architecture-searched layers of different widths, some without attention "
                          "(DeciLM); GenZ and llm-analysis take one layer shape",
}

# --------------------------------------------------------------------------------------------
# aiconfigurator
# --------------------------------------------------------------------------------------------

AIC_SYSTEMS = {
    # device (calibrate's name) -> aiconfigurator system (aiconfigurator_core/systems/*.yaml)
    "NVIDIA H100 SXM 80GB": "h100_sxm",
    "NVIDIA A100 (memory size/form factor not stated)": "a100_sxm",
    "NVIDIA A100 80GB SXM4": "a100_sxm",
    "NVIDIA A100 80GB PCIe": "a100_pcie",
    "NVIDIA B200 (HGX)": "b200_sxm",
}
AIC_SYSTEM_NOTES = {
    "NVIDIA A100 (memory size/form factor not stated)":
        "A100 form factor not stated by the source: a100_sxm, as hardware.csv assumes SXM4 80GB",
}
AIC_BACKENDS = {"TensorRT-LLM": "trtllm", "vLLM": "vllm"}
AIC_DB_VERSIONS = {
    # The kernel-database version aiconfigurator's `current` slot serves for each (system, backend)
    # (aiconfigurator_core/systems/query_versions.yaml, aiconfigurator 0.12.0). The adapter reports
    # the version it actually used; this table only words the approximation note.
    ("h100_sxm", "trtllm"): "1.3.0rc20", ("a100_sxm", "trtllm"): "1.0.0",
    ("b200_sxm", "vllm"): "0.24.0", ("h100_sxm", "vllm"): "0.24.0", ("a100_sxm", "vllm"): "0.14.0",
}
FP8_MODELOPT = {"producer": {"name": "modelopt"}, "quantization": {"quant_algo": "FP8", "kv_cache_quant_algo": "FP8"}}
"""hf_quant_config.json of an FP8 checkpoint as NVIDIA's ModelOpt writes it: what aiconfigurator
reads from a published FP8 checkpoint (it then runs FP8 GEMMs and, by its own rule for any FP8
checkpoint, an FP8 KV cache)."""

AIC_MODELS = {
    # model -> how aiconfigurator is pointed at it, per precision. "hf": an id it ships a config for;
    # "local": a config.json written for the run (base: its shipped config, or shapes from PUBLISHED).
    "Llama 2 7B": {"FP16": {"local": {"published": "Llama 2 7B"}},
                   "FP8": {"local": {"published": "Llama 2 7B", "quant": FP8_MODELOPT}}},
    "Nemotron-Super-49B": {"FP8": {"local": {"base": "nvidia/Llama-3_3-Nemotron-Super-49B-v1", "quant": FP8_MODELOPT}}},
    "Nemotron-Nano-30B": {"FP8": {"local": {"base": "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", "quant": FP8_MODELOPT}}},
    "MiniMax-M2.5": {"FP8": {"hf": "MiniMaxAI/MiniMax-M2.5"}},
}
AIC_MOE = {"Nemotron-Nano-30B", "MiniMax-M2.5"}
AIC_MODEL_NOTES = {
    "Nemotron-Super-49B": "shipped config of Nemotron Super 49B v1 (v1.5, the row's model, keeps its "
                          "architecture) with a ModelOpt FP8 quantisation file (the row's checkpoint is FP8)",
    "Nemotron-Nano-30B": "shipped BF16 config of Nemotron 3 Nano 30B-A3B with a ModelOpt FP8 quantisation file "
                         "(the row ran the FP8 checkpoint)",
}
AIC_UNSUPPORTED_MODELS = {
    "Mistral 7B": "MistralForCausalLM is not among aiconfigurator's architectures (ARCHITECTURE_TO_MODEL_FAMILY)",
    "GPT-J 6B": "GPTJForCausalLM is not among aiconfigurator's architectures",
}


class Skip(Exception):
    """A peer cannot express this row; the message says why."""


def _aic_base(spec: Spec) -> tuple[str, str]:
    if spec.engine.startswith("llama.cpp"):
        raise Skip("llama.cpp is not an aiconfigurator backend (trtllm, vllm, sglang)")
    system = AIC_SYSTEMS.get(spec.device)
    if system is None:
        raise Skip(f"no aiconfigurator system for {spec.device}")
    backend = next((b for name, b in AIC_BACKENDS.items() if spec.engine.startswith(name)), None)
    if backend is None:
        raise Skip(f"engine {spec.engine} is not an aiconfigurator backend")
    return system, backend


def aiconfigurator_calls(spec: Spec) -> tuple[list[dict], list[str]]:
    """aiconfigurator's inputs for one row (`aiconfigurator.cli.api.cli_estimate`, the programmatic
    `aiconfigurator cli estimate`), as a list of weighted calls, and the approximations made.

    - One request alone on an engine-internal benchmark (TensorRT-LLM's batch-1 tables): mode
      "static", batch 1 (a single pass, no in-flight batching). Its default "agg" mode multiplies
      TRT-LLM's prefill by a queueing factor meant for "a batch of b requests that all arrive
      simultaneously" (base_backend._ttft_queuing_factor, at least about 1.85), which is not this row.
    - A serving benchmark (vLLM, a fixed number of concurrent clients): the default "agg" mode with
      batch_size = the clients running at once: its model of a server under steady load.
    - Tensor parallelism = the row's GPUs; MoE layers tensor-parallel too (vLLM's default without
      --enable-expert-parallel).
    - Kernel-database version: aiconfigurator's default (`current`); the row's engine version is older.
    - Serving levels whose prompts vLLM already held in its prefix cache (calibrate.cold_shares, the
      same reading the estimator gets): the cold and the cached request through aiconfigurator's own
      `prefix` input, mixed by the cold share as calibrate.predict mixes them.
    """
    if spec.model in AIC_UNSUPPORTED_MODELS:
        raise Skip(AIC_UNSUPPORTED_MODELS[spec.model])
    system, backend = _aic_base(spec)
    how = AIC_MODELS.get(spec.model, {}).get(spec.precision)
    if how is None:
        raise Skip(f"no aiconfigurator model config for {spec.model} {spec.precision}")
    if spec.target == "prefill":
        raise Skip("aiconfigurator predicts first token and time per token, not a prefill rate of a llama.cpp test")
    notes = []
    if spec.device in AIC_SYSTEM_NOTES:
        notes.append(AIC_SYSTEM_NOTES[spec.device])
    if spec.model in AIC_MODEL_NOTES:
        notes.append(AIC_MODEL_NOTES[spec.model])
    db = AIC_DB_VERSIONS.get((system, backend), "current")
    notes.append(f"{system}/{backend} kernel database {db} for a row measured on {spec.engine}")
    if "local" in how and "published" in how["local"]:
        local = {k: v for k, v in how["local"].items() if k != "published"}
        how = {"local": {**local, "published_shapes": PUBLISHED[how["local"]["published"]]}}
        notes.append(f"aiconfigurator ships no {spec.model} config: config.json from the published shapes")
    single = spec.users == 1 and spec.batch == 1 and backend == "trtllm"
    base = {"model": how, "system": system, "backend": backend, "isl": spec.prompt,
            "osl": max(spec.output, 2), "tp": spec.devices, "moe_tp": spec.devices if spec.model in AIC_MOE else None,
            "mode": "static" if single else "agg", "batch_size": 1 if single else max(spec.users, spec.batch),
            "prefix": 0}
    if spec.output < 2:
        notes.append("osl 2 for a first-token row (output 1): the first token does not depend on it")
    calls = [{"weight": spec.cold_share, "call": base}]
    if spec.cold_share < 1.0 and spec.target in ("ttft", "throughput"):
        from latency.estimation import calibrate as cal
        cached = spec.prompt - cal.uncached_tokens(spec.prompt)
        calls.append({"weight": 1.0 - spec.cold_share, "call": {**base, "prefix": cached}})
        notes.append("prefix-cached share of the level's prompts given through aiconfigurator's prefix input")
    elif spec.cold_share < 1.0:
        calls[0]["weight"] = 1.0
    return calls, notes


# --------------------------------------------------------------------------------------------
# GenZ
# --------------------------------------------------------------------------------------------

GENZ_SYSTEMS = {
    # device -> GenZ's own system (Systems/system_configs.py, genz-llm 0.0.16)
    "NVIDIA A100 80GB SXM4": "A100_80GB_GPU",
    "NVIDIA A100 (memory size/form factor not stated)": "A100_80GB_GPU",
    "NVIDIA H100 SXM 80GB": "H100_GPU",
}
GENZ_MODELS = {
    # model -> GenZ's own model config (GenZ/Models/Model_sets), and what differs from the row's model
    "Llama 3 8B": ("meta-llama/Llama-3.1-8B", "GenZ's Llama 3.1 8B (the same shapes as Llama 3 8B)"),
    "Llama 3 70B": ("meta-llama/Llama-3.1-70B", "GenZ's Llama 3.1 70B (the same shapes as Llama 3 70B)"),
    "Mistral 7B": ("mistralai/Mistral-7B", None),
    "Llama 2 7B": ("meta-llama/Llama-2-7B", None),
    "Qwen2.5-Coder-7B": ("Qwen/Qwen2.5-7B", "GenZ's Qwen2.5 7B (the same shapes as Qwen2.5-Coder-7B)"),
    "gemma-3-4b": ("google/gemma-3-4B", "GenZ's own gemma-3-4B config (16 heads of 160 where the model has 8 of 256)"),
}
GENZ_BITS = {"F16": "bf16", "FP16": "bf16", "FP8": "fp8"}
"""GenZ's `bits` for the row's precision. GenZ has one precision for weights, activations and the KV
cache (System.get_bit_multiplier; its README's TODO: "Add different kind of quantization for
weights/KV/activations"). FP16 and FP8 (W8A8, as TensorRT-LLM and vLLM run FP8 checkpoints) are
that. A weight-only format is not: llama.cpp's GGUF k-quants, Q8_0, Q4_0 and gpt-oss's MXFP4 experts
keep 16-bit arithmetic and an F16 KV cache, where bits='int4' would also make the KV cache 4-bit and
the prompt's arithmetic run at four times the FP16 rate (System.compute_multiplier)."""
GENZ_WEIGHT_ONLY = ("Q4_K_M", "Q4_0", "Q8_0", "MXFP4")


def _genz_system(spec: Spec) -> tuple[object, list[str]]:
    if spec.device in GENZ_SYSTEMS:
        return GENZ_SYSTEMS[spec.device], []
    h = spec.hw
    system = {"Flops": h["peak_tflops"], "Memory_size": h["memory_gb"], "Memory_BW": h["mem_bandwidth_gbs"],
              "ICN": h.get("interconnect_gbs") or 150, "real_values": True}
    return system, [f"GenZ ships no {spec.device}: a system dict from its published peak FP16 TFLOPS, memory "
                    "bandwidth and size (the estimator's own inputs)"]


def genz_model(model: str) -> tuple[object, list[str]]:
    if model in ONE_SHAPE_ONLY:
        raise Skip(ONE_SHAPE_ONLY[model])
    if model in GENZ_MODELS:
        name, note = GENZ_MODELS[model]
        return name, [note] if note else []
    p = PUBLISHED.get(model)
    if p is None:
        raise Skip(f"no published config for {model}")
    cfg = {"model": model, "vocab_size": p["vocab"], "hidden_size": p["hidden"], "intermediate_size": p["ffn"],
           "num_ffi": 2 if p["gated"] else 1, "num_decoder_layers": p["layers"], "num_attention_heads": p["heads"],
           "num_key_value_heads": p["kv_heads"], "head_dim": p["head_dim"], "max_model_len": p["max_len"]}
    notes = [f"GenZ ships no {model}: ModelConfig from its config.json"]
    if p.get("experts"):
        cfg.update(num_experts=p["experts"], expert_top_k=p["top_k"])
    return {"config": cfg}, notes


def genz_calls(spec: Spec) -> tuple[list[dict], list[str]]:
    """GenZ's inputs for one row: prefill_moddeling / decode_moddeling / chunked_moddeling at their
    default efficiency (system_eff=1), one beam (Bb=1: a single sequence per request; GenZ's Bb
    defaults to 4 parallel beams), tensor parallelism = the row's devices.
    - decode: KV cache = prompt + context tokens shared, the row's output tokens generated (GenZ's
      input_tokens / output_tokens), batch = concurrent streams.
    - prefill and first token: the prompt, batch = prompts prefilled together; with tokens already in
      the KV cache, chunked_moddeling with prefill_kv_sizes=[(context, prompt)].
    - throughput: a static batch of the level's concurrent requests (prefill together, then decode
      together), output tokens over the two latencies: GenZ has no scheduler.
    - first token under steady load: not expressible (requests waiting for each other)."""
    if spec.kind == "ttft_load" and spec.users > 1:
        raise Skip("first token under steady load needs a queue: GenZ models one batch, not requests arriving")
    if spec.precision in GENZ_WEIGHT_ONLY:
        raise Skip("weight-only quantisation (GGUF, MXFP4): GenZ has one precision for weights, arithmetic and "
                   "KV cache")
    bits = GENZ_BITS.get(spec.precision)
    if bits is None:
        raise Skip(f"no GenZ precision for {spec.precision}")
    model, notes = genz_model(spec.model)
    system, sys_notes = _genz_system(spec)
    notes = notes + sys_notes
    common = {"model": model, "system": system, "bits": bits, "tp": spec.devices}
    if spec.target == "decode":
        call = {**common, "op": "decode", "batch": max(spec.batch, spec.users), "input_tokens": spec.prompt + spec.context,
                "output_tokens": spec.output}
    elif spec.target in ("prefill", "ttft") and spec.context > 0:
        call = {**common, "op": "chunked", "prefill_kv_sizes": [[spec.context, spec.prompt]]}
    elif spec.target in ("prefill", "ttft"):
        call = {**common, "op": "prefill", "batch": spec.batch, "input_tokens": spec.prompt}
    elif spec.target == "throughput":
        call = {**common, "op": "static_batch", "batch": spec.users, "input_tokens": spec.prompt,
                "output_tokens": spec.output}
        notes.append("serving throughput as a static batch (GenZ has no continuous batching)")
    else:
        raise Skip(f"target {spec.target}")
    return [{"weight": 1.0, "call": call}], notes


# --------------------------------------------------------------------------------------------
# llm-analysis
# --------------------------------------------------------------------------------------------

LLMA_GPUS = {
    # device -> llm-analysis's own GPU config (llm_analysis/gpu_configs, 0.2.2)
    "NVIDIA A100 80GB SXM4": "a100-sxm-80gb",
    "NVIDIA A100 (memory size/form factor not stated)": "a100-sxm-80gb",
    "NVIDIA A100 80GB PCIe": "a100-pcie-80gb",
    "NVIDIA H100 SXM 80GB": "h100-sxm-80gb",
}
LLMA_MODELS = {"GPT-J 6B": "EleutherAI_gpt-j-6b", "Llama 2 7B": "NousResearch_Llama-2-7b-hf"}
LLMA_DTYPES = {"F16": "w16a16e16", "FP16": "w16a16e16", "FP8": "w8a8e16", "Q8_0": "w8a16e16",
               "Q4_K_M": "w4a16e16", "Q4_0": "w4a16e16", "MXFP4": "w4a16e16"}
"""llm-analysis's dtype configs. Its KV cache defaults to the activation width (kv_cache_dtype_bytes
None): 2 bytes for the weight-only formats (llama.cpp's default F16 KV cache), 1 for w8a8 (the
TensorRT-LLM FP8 rows' FP8 KV cache)."""


def llma_model(model: str) -> tuple[object, list[str]]:
    if model in ONE_SHAPE_ONLY:
        raise Skip(ONE_SHAPE_ONLY[model])
    if model in LLMA_MODELS:
        return LLMA_MODELS[model], []
    p = PUBLISHED.get(model)
    if p is None:
        raise Skip(f"no published config for {model}")
    # llm-analysis's MLP is two hidden x ffn matrices (analysis.get_num_params_per_layer_mlp); a gated
    # MLP has three hidden x intermediate matrices, so ffn = 1.5 x intermediate keeps its weights
    # and FLOPs. Its head size is hidden / heads.
    ffn = int(p["ffn"] * 1.5) if p["gated"] else p["ffn"]
    cfg = {"name": model, "num_layers": p["layers"], "n_head": p["heads"], "hidden_dim": p["hidden"],
           "vocab_size": p["vocab"], "max_seq_len": p["max_len"], "num_key_value_heads": p["kv_heads"],
           "ffn_embed_dim": ffn, "expansion_ratio": ffn / p["hidden"]}
    notes = [f"llm-analysis ships no {model}: ModelConfig from its config.json (gated MLP as ffn = 1.5 x intermediate)"]
    if p["head_dim"] * p["heads"] != p["hidden"]:
        notes.append(f"{model}: llm-analysis takes head size = hidden / heads ({p['hidden'] // p['heads']}, "
                     f"the model has {p['head_dim']})")
    if p.get("experts"):
        cfg.update(moe_num_experts=p["experts"], moe_top_k=p["top_k"])
        notes.append("llm-analysis MoE: its decode memory term reads every expert's weights each step")
    return {"config": cfg}, notes


def _llma_gpu(spec: Spec) -> tuple[object, list[str]]:
    if spec.device in LLMA_GPUS:
        return LLMA_GPUS[spec.device], []
    h = spec.hw
    gpu = {"name": spec.device, "mem_per_GPU_in_GB": h["memory_gb"], "hbm_bandwidth_in_GB_per_sec": h["mem_bandwidth_gbs"],
           "intra_node_bandwidth_in_GB_per_sec": h.get("interconnect_gbs") or 64,
           "intra_node_min_message_latency": 8e-06, "peak_fp16_TFLOPS": h["peak_tflops"]}
    return {"config": gpu}, [f"llm-analysis ships no {spec.device}: a GPU config from its published peak FP16 "
                             "TFLOPS, memory bandwidth and size (the estimator's own inputs)"]


def llm_analysis_calls(spec: Spec) -> tuple[list[dict], list[str]]:
    """llm-analysis's inputs for one row: `LLMAnalysis.inference` (what `llm_analysis.analysis.infer`
    runs) at its default efficiencies (flops_efficiency = hbm_memory_efficiency = 1: "the lower bound
    of latency", its README), tensor parallelism = the row's devices, batch_size_per_gpu = the
    streams decoded (or prompts prefilled) together.
    - decode: seq_len = prompt + context (at least 1), num_tokens_to_generate = the row's output;
      per-stream tokens/s = 1 / decode_latency.
    - prefill and first token: seq_len = the prompt, prefill_latency.
    - throughput: its total_tokens_per_sec (a static batch: prefill together, then decode together).
    - prefill with tokens already in the KV cache, and first token under steady load: not expressible."""
    if spec.kind == "ttft_load" and spec.users > 1:
        raise Skip("first token under steady load needs a queue: llm-analysis models one batch")
    if spec.target in ("prefill", "ttft") and spec.context > 0:
        raise Skip("llm-analysis has no input for tokens already in the KV cache during prefill")
    dtype = LLMA_DTYPES.get(spec.precision)
    if dtype is None:
        raise Skip(f"no llm-analysis dtype for {spec.precision}")
    model, notes = llma_model(spec.model)
    gpu, gpu_notes = _llma_gpu(spec)
    notes = notes + gpu_notes
    if spec.precision in ("Q4_K_M", "MXFP4", "Q8_0", "Q4_0"):
        notes.append(f"{spec.precision} given as llm-analysis {dtype} ({'8' if dtype.startswith('w8') else '4'}-bit weights)")
    common = {"model": model, "gpu": gpu, "dtype": dtype, "tp": spec.devices}
    if spec.target == "decode":
        call = {**common, "op": "decode", "batch": max(spec.batch, spec.users), "seq_len": max(spec.prompt + spec.context, 1),
                "tokens": spec.output}
    elif spec.target in ("prefill", "ttft"):
        call = {**common, "op": "prefill", "batch": spec.batch, "seq_len": spec.prompt, "tokens": 1}
    elif spec.target == "throughput":
        call = {**common, "op": "throughput", "batch": spec.users, "seq_len": spec.prompt, "tokens": spec.output}
        notes.append("serving throughput as a static batch (llm-analysis has no continuous batching)")
    else:
        raise Skip(f"target {spec.target}")
    return [{"weight": 1.0, "call": call}], notes


MAPPERS = {"aiconfigurator": aiconfigurator_calls, "GenZ": genz_calls, "llm-analysis": llm_analysis_calls}


# --------------------------------------------------------------------------------------------
# From a peer's raw outputs to the row's figure
# --------------------------------------------------------------------------------------------

def value_from_raw(spec: Spec, peer: str, raw: dict) -> float:
    """A peer's raw outputs for one call (the adapter's JSON) as the row's figure: decode -> tokens/s
    of one stream, prefill -> prompt tokens/s of the batch, ttft -> seconds, throughput -> output
    tokens/s of the whole server."""
    t = spec.target
    if peer == "aiconfigurator":  # ttft_ms, tpot_ms, tokens_per_s
        if t == "decode":
            return 1000.0 / raw["tpot_ms"]
        if t == "ttft":
            return raw["ttft_ms"] / 1000.0
        if t == "throughput":
            return raw["tokens_per_s"]
    elif peer == "GenZ":  # latency_ms (of the op), or prefill_ms + decode_ms for a static batch
        if t == "decode":
            return 1000.0 / raw["latency_ms"]
        if t == "prefill":
            tokens = spec.prompt * (spec.batch if spec.context == 0 else 1)
            return tokens / (raw["latency_ms"] / 1000.0)
        if t == "ttft":
            return raw["latency_ms"] / 1000.0
        if t == "throughput":
            return spec.users * spec.output / ((raw["prefill_ms"] + spec.output * raw["decode_ms"]) / 1000.0)
    elif peer == "llm-analysis":  # prefill_latency, decode_latency (s), total_tokens_per_sec
        if t == "decode":
            return 1.0 / raw["decode_latency"]
        if t == "prefill":
            return spec.batch * spec.prompt / raw["prefill_latency"]
        if t == "ttft":
            return raw["prefill_latency"]
        if t == "throughput":
            return raw["total_tokens_per_sec"]
    raise ValueError(f"{peer}: no figure for target {t}")


def combine(spec: Spec, weighted: list[tuple[float, float]]) -> float:
    """Weighted calls as one figure, the way calibrate.predict mixes a cold and a cached request: a
    first token is the weighted mean of the times; a throughput the inverse of the weighted mean of
    the time per token."""
    if len(weighted) == 1:
        return weighted[0][1]
    if spec.target == "throughput":
        return 1.0 / sum(w / v for w, v in weighted)
    return sum(w * v for w, v in weighted)


# --------------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------------

def abs_pct_error(pred: float, meas: float) -> float:
    """|predicted - measured| / measured, in percent, on the figure as the row gives it (tokens/s for
    decode, prefill and throughput; seconds for a first token): calibrate's own error."""
    return abs(100.0 * (pred - meas) / meas)


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile with linear interpolation between closest ranks (numpy's default), in
    plain Python so the summary needs nothing from the peers' environment."""
    xs = sorted(values)
    if not xs:
        return math.nan
    pos = (len(xs) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def summary(errors: list[float]) -> tuple[float, float]:
    """(median, p90) of absolute percent errors."""
    return percentile(errors, 50), percentile(errors, 90)


@dataclass
class Comparison:
    kind: str
    peer: str
    rows: int
    peer_median: float
    peer_p90: float
    est_median: float
    est_p90: float
    loo_median: float
    loo_p90: float


def compare(specs: list[Spec], predictions: dict[str, dict[str, float]]) -> list[Comparison]:
    """Per kind of figure and peer: the rows both predicted (the peer and the estimator's
    leave-one-device-out fit; rows without an out-of-sample prediction are scored in-sample only)."""
    out = []
    for kind, _name in KINDS:
        for peer in PEERS:
            both = [(s, predictions.get(peer, {}).get(s.id)) for s in specs if s.kind == kind]
            both = [(s, p) for s, p in both if p is not None and math.isfinite(p) and p > 0]
            if not both:
                continue
            pe = [abs_pct_error(p, s.measured) for s, p in both]
            ee = [abs_pct_error(s.estimator, s.measured) for s, _ in both]
            le = [abs_pct_error(s.estimator_loo, s.measured) for s, _ in both if math.isfinite(s.estimator_loo)]
            out.append(Comparison(kind, peer, len(both), *summary(pe), *summary(ee), *summary(le)))
    return out


# --------------------------------------------------------------------------------------------
# The peers' environment and adapters
# --------------------------------------------------------------------------------------------

def venv_python(venv_dir: Path = VENV_DIR) -> Path:
    return venv_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure_venv(venv_dir: Path = VENV_DIR, requirements: Path = REQUIREMENTS, say=print) -> Path:
    """Create the peers' own virtual environment (the standard library's venv, as `python3 -m venv`
    does) and install requirements-peers.txt into it, once (again when the requirements file
    changes: its text is kept beside the environment; a failed install is retried on the next run)."""
    py = venv_python(venv_dir)
    if not py.exists() and not (3, 11) <= sys.version_info[:2] <= (3, 13):
        raise SystemExit(f"The peers need Python 3.11-3.13 (aiconfigurator's range); this is "
                         f"{sys.version.split()[0]}. Run benchmarks/peers.py with such an interpreter.")
    stamp = venv_dir / "requirements-peers.installed"
    want = requirements.read_text(encoding="utf-8")
    if py.exists() and stamp.exists() and stamp.read_text(encoding="utf-8") == want:
        return py
    if not py.exists():
        say(f"Creating the peers' environment {venv_dir} (python3 -m venv) ...")
        venv.EnvBuilder(with_pip=True).create(venv_dir)
    say(f"Installing {requirements.name} into it (first run: a few minutes) ...")
    subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--upgrade", "pip"], check=True)
    subprocess.run([str(py), "-m", "pip", "install", "--quiet", "-r", str(requirements)], check=True)
    stamp.write_text(want, encoding="utf-8")
    return py


def run_adapter(py: Path, peer: str, jobs: list[dict], timeout_s: int = ADAPTER_TIMEOUT_S) -> dict:
    """One peer's adapter in the peers' interpreter: jobs [{id, call}] as JSON on stdin; back
    {"tool", "version", "results": {id: raw outputs | {"error": text}}}."""
    proc = subprocess.run([str(py), str(ADAPTERS[peer])], input=json.dumps({"jobs": jobs}), capture_output=True,
                          text=True, timeout=timeout_s, cwd=str(HERE))
    if proc.returncode != 0:
        raise RuntimeError(f"{peer} adapter failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout)


def predict_all(specs: list[Spec], py: Path, peers=PEERS, say=print) -> tuple[dict, dict, dict, dict]:
    """Map every row for every peer, run the peers, and turn their outputs into the rows' figures.
    Returns predictions {peer: {id: value}}, skips {peer: {kind: {reason: n}}}, approximations
    {peer: {note: n}} and versions {peer: text}."""
    from latency.estimation import calibrate as cal
    preds, skips, approx, versions = {}, {}, {}, {}
    for peer in peers:
        mapped, jobs = {}, []
        skips[peer], approx[peer] = {}, {}
        for s in specs:
            # A level that ended on a partial wave: the peer is asked for its full waves and for the last one,
            # and the two are put together as the estimator's are (calibrate.over_waves): the same reading of
            # how the benchmark ran, for every tool.
            tail = cal.partial_wave(s.sent, s.users)
            last = dataclasses.replace(s, users=tail, sent=0) if tail else None
            try:
                calls, notes = MAPPERS[peer](s)
                last_calls = MAPPERS[peer](last)[0] if last else []
            except Skip as e:
                skips[peer].setdefault(s.kind, {}).setdefault(str(e), 0)
                skips[peer][s.kind][str(e)] += 1
                continue
            mapped[s.id] = (s, calls, last, last_calls, notes)
            for j, c in enumerate(calls):
                jobs.append({"id": f"{s.id}.{j}", "call": c["call"]})
            for j, c in enumerate(last_calls):
                jobs.append({"id": f"{s.id}.last{j}", "call": c["call"]})
        say(f"{peer}: {len(mapped)} rows, {len(jobs)} calls ...")
        out = run_adapter(py, peer, jobs) if jobs else {"version": "?", "results": {}}
        versions[peer] = out.get("version", "?")
        preds[peer] = {}
        for sid, (s, calls, last, last_calls, notes) in mapped.items():
            raws = [out["results"].get(f"{sid}.{j}", {"error": "no result"}) for j in range(len(calls))]
            last_raws = [out["results"].get(f"{sid}.last{j}", {"error": "no result"}) for j in range(len(last_calls))]
            err = next((r["error"] for r in raws + last_raws if "error" in r), None)
            if err:
                reason = f"{peer} raised: {err.splitlines()[0][:140]}"
                skips[peer].setdefault(s.kind, {}).setdefault(reason, 0)
                skips[peer][s.kind][reason] += 1
                continue
            preds[peer][sid] = combine(s, [(c["weight"], value_from_raw(s, peer, r)) for c, r in zip(calls, raws)])
            if last is not None:
                notes = notes + ["a level that ended on a partial wave: its full waves and its last one, put together "
                                 "as calibrate.over_waves does for the estimator"]
                preds[peer][sid] = cal.over_waves(s.target, s.sent, s.users, last.users, preds[peer][sid],
                                                  combine(last, [(c["weight"], value_from_raw(last, peer, r))
                                                                 for c, r in zip(last_calls, last_raws)]))
            for n in notes + [n for r in raws for n in r.get("notes", [])]:
                approx[peer][n] = approx[peer].get(n, 0) + 1
    return preds, skips, approx, versions


# --------------------------------------------------------------------------------------------
# Printing
# --------------------------------------------------------------------------------------------

def _f(x: float) -> str:
    return "-" if not math.isfinite(x) else (f"{x:.1f}%" if x < 1000 else f"{x:,.0f}%")


def table(comparisons: list[Comparison]) -> str:
    """The side-by-side table, as Markdown."""
    lines = ["| kind of figure | peer | rows both predicted | peer median / p90 (fitted on none of the rows) | "
             "this estimator held out (measurements.csv, long_context.csv and llama-batched-bench rows: leave one "
             "device out; vLLM B200 serving rows: leave one model series out) median / p90 | "
             "this estimator in-sample (fitted on every row) median / p90 |",
             "|---|---|---:|---|---|---|"]
    for c in comparisons:
        lines.append(f"| {KIND_NAMES[c.kind]} | {c.peer} | {c.rows} | {_f(c.peer_median)} / {_f(c.peer_p90)} | "
                     f"{_f(c.loo_median)} / {_f(c.loo_p90)} | {_f(c.est_median)} / {_f(c.est_p90)} |")
    return "\n".join(lines)


def coverage(specs: list[Spec], preds: dict, skips: dict) -> str:
    lines = ["| kind of figure | rows | " + " | ".join(f"{p} predicted" for p in PEERS) + " |",
             "|---|---:|" + "---:|" * len(PEERS)]
    for kind, name in KINDS:
        n = sum(s.kind == kind for s in specs)
        cells = [str(sum(1 for s in specs if s.kind == kind and s.id in preds.get(p, {}))) for p in PEERS]
        lines.append(f"| {name} | {n} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("Skipped rows, per peer and reason:")
    for peer in PEERS:
        for kind, reasons in skips.get(peer, {}).items():
            for reason, n in sorted(reasons.items(), key=lambda kv: -kv[1]):
                lines.append(f"- {peer}, {KIND_NAMES[kind].split(' (')[0]}: {n} row{'s' if n > 1 else ''}: {reason}")
    return "\n".join(lines)


def approximations(approx: dict) -> str:
    lines = []
    for peer in PEERS:
        for note, n in sorted(approx.get(peer, {}).items(), key=lambda kv: (-kv[1], kv[0])):
            lines.append(f"- {peer} ({n} row{'s' if n > 1 else ''}): {note}")
    return "\n".join(lines)


def row_lines(specs: list[Spec], preds: dict) -> str:
    head = f"{'kind':<15}{'device':<30}{'model':<20}{'prec':<7}{'tgt':<11}{'users':>5}{'ctx':>6}{'measured':>10}{'est':>10}{'est loo':>10}"
    head += "".join(f"{p[:12]:>14}" for p in PEERS)
    out = [head]
    for s in specs:
        cells = "".join(f"{preds.get(p, {}).get(s.id, math.nan):>14.4g}" for p in PEERS)
        out.append(f"{s.kind:<15}{s.device[:29]:<30}{s.model[:19]:<20}{s.precision:<7}{s.target:<11}{max(s.users, s.batch):>5}"
                   f"{s.context:>6}{s.measured:>10.4g}{s.estimator:>10.4g}{s.estimator_loo:>10.4g}{cells}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--peers", nargs="*", default=list(PEERS), choices=PEERS, help="peers to run (default: all)")
    ap.add_argument("--rows", action="store_true", help="also print every row's predictions")
    ap.add_argument("--json", type=Path, help="write the rows, predictions and table to this file")
    ap.add_argument("--venv", type=Path, default=VENV_DIR, help=f"the peers' environment (default {VENV_DIR})")
    args = ap.parse_args(argv)
    say = lambda *a: print(*a, file=sys.stderr, flush=True)  # noqa: E731
    specs = load_specs()
    py = ensure_venv(args.venv, say=say)
    preds, skips, approx, versions = predict_all(specs, py, peers=args.peers, say=say)
    comps = compare(specs, preds)
    import latency
    print(f"Side by side on ../shared/calibration ({len(specs)} rows), {datetime.date.today().isoformat()}")
    print("Tools: " + ", ".join(f"{p} {versions.get(p, '?')}" for p in args.peers)
          + f"; this estimator: latency.estimate at {_git_head()}")
    print("Error: |predicted - measured| / measured on the row's figure. Estimator: in-sample, and held out"
          " (calibration_report.json predicted_loo: leave one device out; the vLLM B200 serving rows, all on one"
          " device, leave one model series out). Peers: fitted on none of these rows.\n")
    print(table(comps))
    print()
    print(coverage(specs, preds, skips))
    print("\nApproximations in the mapping (rows touched):")
    print(approximations(approx))
    if args.rows:
        print()
        print(row_lines(specs, preds))
    if args.json:
        args.json.write_text(json.dumps({
            "date": datetime.date.today().isoformat(), "versions": versions, "estimator_commit": _git_head(),
            "rows": [{**s.__dict__, "peers": {p: preds.get(p, {}).get(s.id) for p in PEERS}} for s in specs],
            "comparisons": [c.__dict__ for c in comps]}, indent=1, default=float), encoding="utf-8")
    del latency
    return 0


def _git_head() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown commit"


if __name__ == "__main__":
    sys.exit(main())
