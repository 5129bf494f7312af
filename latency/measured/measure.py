"""Measure a real transformer decode on this machine, and the estimator's figure for it (no streamlit).

    probe(clock)                         -> Probe: memory bandwidth (GB/s) and matmul speed (GFLOP/s)
    run(config, prompt, output, clock=…) -> Measurement: TTFT, time per output token, tokens/s
    compare(measurement)                 -> Comparison: the same figures from latency.estimate,
                                            for a Hardware built from the probe, with the ratios

The model is a small decoder-only transformer (GPT-2 shape: learned positions, pre-LayerNorm,
multi-head attention, a 4x GELU MLP, the embedding tied to the output head) with random FP32
weights, run in numpy: prefill of the prompt in one pass, then one token at a time, each step
attending over a KV cache. numpy (already a dependency) calls the machine's BLAS (OpenBLAS in the
wheels) for every matrix product, which is what a CPU inference engine spends its time in; a
second runtime would add a large wheel for no teaching gain (docs/logs-and-measure.md).

Every clock reading goes through the `clock` argument (seconds, like time.perf_counter) and every
progress report through `progress(fraction, stage)`, so tests control time and nothing here
sleeps. `run` stops at `time_cap_s` (between layers in prefill, between tokens in decode).
"""

from __future__ import annotations

import csv
import io
import math
import os
import platform
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from latency.estimation.estimator import Estimate, Hardware, Model, estimate

Clock = Callable[[], float]
Progress = Callable[[float, str], None]

BYTES_PER_PARAM = 4.0  # FP32: numpy's BLAS has no fast FP16/BF16 matrix product on CPUs
TIME_CAP_S = 20.0
"""Hard cap on one measurement, probe included (issue 11: at most 20 s)."""
MEMORY_CAP_GB = 6.0
"""The most memory one measurement may take, whatever the server has free."""
FREE_MEMORY_SHARE = 0.5
"""...and at most this share of the memory the server reports available (MemAvailable)."""
PROMPT_RANGE = (8, 256)
OUTPUT_RANGE = (2, 64)
AGREE_WITHIN = 1.5
"""Measured and predicted "agree" when their ratio lies within [1/1.5, 1.5]: the estimator's own
leave-one-kind-out decode error is about 20 % (latency/estimation/fitted_params.json) and CPUs were not in
its calibration, so a factor 1.5 is the honest band."""
CSV_COLUMNS = ("source", "hardware", "model", "params_b", "precision", "bytes_per_param", "batch", "prompt_tokens",
               "output_tokens", "decode_tok_s", "prefill_tok_s", "ttft_ms", "tpot_ms", "software", "notes")
"""The columns of shared/calibration/measurements.csv."""


# --------------------------------------------------------------------------------------------
# The model
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class DecoderConfig:
    """A GPT-2-shaped decoder. params = embedding + positions + layers x (12 d^2 + 2 d) + d (the two
    LayerNorm gains of each layer and the final one; no biases)."""

    id: str
    layers: int
    hidden: int
    heads: int
    vocab: int = 32000
    max_context: int = PROMPT_RANGE[1] + OUTPUT_RANGE[1]

    @property
    def head_dim(self) -> int:
        return self.hidden // self.heads

    @property
    def params(self) -> int:
        d = self.hidden
        return self.vocab * d + self.max_context * d + self.layers * (12 * d * d + 2 * d) + d

    @property
    def params_b(self) -> float:
        return self.params / 1e9

    @property
    def size_name(self) -> str:
        """Its parameter count as the page shows it ("48M", "0.97B"), for the file name and the CSV's model: the id
        ("50m") is the size it was planned at (newcomer trial 2026-12-05: "48M" on the page, "measurement-50m.csv")."""
        return f"{self.params / 1e9:.2f}B" if self.params >= 0.95e9 else f"{self.params / 1e6:,.0f}M"

    def layer_matmul_flops(self, tokens: int) -> float:
        """FLOPs of the layers' weight matrix products for `tokens` positions: 2 x 12 d^2 per token per
        layer (QKV 3 d^2, output d^2, MLP 8 d^2); no attention, no embedding, no output head."""
        return 2.0 * 12 * self.hidden**2 * self.layers * tokens

    @property
    def weights_gb(self) -> float:
        return self.params * BYTES_PER_PARAM / 1e9

    def memory_gb(self) -> float:
        """Weights + a full KV cache + the probe's matrix + 20 % for activations and copies."""
        kv = 2 * self.layers * self.max_context * self.hidden * BYTES_PER_PARAM / 1e9
        return (self.weights_gb + kv) * 1.2 + PROBE_MATRIX_MB * 1.048576e-3


SIZES: tuple[DecoderConfig, ...] = (
    DecoderConfig("50m", layers=10, hidden=512, heads=8),
    DecoderConfig("125m", layers=12, hidden=768, heads=12),
    DecoderConfig("350m", layers=24, hidden=1024, heads=16),
    DecoderConfig("760m", layers=24, hidden=1536, heads=16),
    DecoderConfig("1b", layers=18, hidden=2048, heads=16),
)
SIZE_BY_ID = {c.id: c for c in SIZES}


def available_memory_gb(meminfo: str = "/proc/meminfo") -> float:
    """Memory the OS says is available (Linux MemAvailable), GB; elsewhere total RAM / 2."""
    try:
        with open(meminfo, encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024 / 1e9
    except OSError:
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2e9
    except (ValueError, OSError, AttributeError):
        return 2.0


def memory_limit_gb(available_gb: float) -> float:
    return min(MEMORY_CAP_GB, FREE_MEMORY_SHARE * available_gb)


def sizes_that_fit(available_gb: float) -> list[DecoderConfig]:
    """The sizes within the memory cap (at least the smallest, if even that fits)."""
    limit = memory_limit_gb(available_gb)
    return [c for c in SIZES if c.memory_gb() <= limit]


class Decoder:
    """Random-weight decoder with a KV cache. `step(tokens)` runs the next len(tokens) positions
    (all of the prompt at once, or one token) and returns the logits of the last one."""

    POOL = 1 << 22  # random numbers drawn once (16 MB); weights are filled from it at random offsets

    def __init__(self, config: DecoderConfig, seed: int = 0, on_layer: Callable[[int], None] | None = None) -> None:
        c = self.config = config
        rng = np.random.default_rng(seed)
        pool = rng.standard_normal(self.POOL, dtype=np.float32) * np.float32(0.02)
        self._pool, self._rng = np.concatenate([pool, pool]), rng
        d = c.hidden
        self.embed = self._random((c.vocab, d))
        self.pos = self._random((c.max_context, d))
        self.layers = []
        for i in range(c.layers):
            self.layers.append(dict(
                ln1=np.ones(d, np.float32), wqkv=self._random((d, 3 * d)), wo=self._random((d, d)),
                ln2=np.ones(d, np.float32), w1=self._random((d, 4 * d)), w2=self._random((4 * d, d)),
                k=np.zeros((c.heads, c.max_context, c.head_dim), np.float32),
                v=np.zeros((c.heads, c.max_context, c.head_dim), np.float32)))
            if on_layer:
                on_layer(i)
        self.ln_f = np.ones(d, np.float32)
        self.length = 0
        del self._pool

    def _random(self, shape: tuple[int, ...]) -> np.ndarray:
        """An array of the pool's normal numbers, copied in pool-sized runs from random offsets (drawing
        a billion fresh numbers would take longer than the time cap; read speed ignores the values)."""
        out = np.empty(shape, np.float32)
        flat = out.reshape(-1)
        for start in range(0, flat.size, self.POOL):
            n = min(self.POOL, flat.size - start)
            off = int(self._rng.integers(self.POOL))
            flat[start:start + n] = self._pool[off:off + n]
        return out

    @staticmethod
    def _norm(x: np.ndarray, gain: np.ndarray) -> np.ndarray:
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + 1e-5) * gain

    @staticmethod
    def _gelu(x: np.ndarray) -> np.ndarray:
        return 0.5 * x * (1.0 + np.tanh(0.7978846 * (x + 0.044715 * x**3)))

    def layer(self, i: int, x: np.ndarray, lap: Callable[[str], None] = lambda part: None) -> np.ndarray:
        """One transformer block over positions [length, length + T) of x (T, d). `lap(part)` is
        called after each piece of work with the part it belongs to (PARTS; Laps times them)."""
        c, w = self.config, self.layers[i]
        t, start = x.shape[0], self.length
        end = start + t
        h = self._norm(x, w["ln1"])
        lap("elementwise")
        qkv = h @ w["wqkv"]                                                # (T, 3d)
        lap("matmul")
        q, k, v = (a.reshape(t, c.heads, c.head_dim).transpose(1, 0, 2) for a in np.split(qkv, 3, axis=1))
        w["k"][:, start:end], w["v"][:, start:end] = k, v                  # append to the KV cache
        keys, values = w["k"][:, :end], w["v"][:, :end]                    # (H, S, hd): every position so far
        scores = q @ keys.transpose(0, 2, 1) / np.float32(math.sqrt(c.head_dim))   # (H, T, S)
        if t > 1:  # causal: position start + j sees keys up to start + j
            scores = scores + np.triu(np.full((t, end), -np.inf, np.float32), k=start + 1)
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        attn = (scores / scores.sum(-1, keepdims=True)) @ values           # (H, T, hd)
        mixed = attn.transpose(1, 0, 2).reshape(t, c.hidden)
        lap("attention")
        out = mixed @ w["wo"]
        lap("matmul")
        x = x + out
        h = self._norm(x, w["ln2"])
        lap("elementwise")
        h = h @ w["w1"]
        lap("matmul")
        h = self._gelu(h)
        lap("elementwise")
        h = h @ w["w2"]
        lap("matmul")
        x = x + h
        lap("elementwise")
        return x

    def embed_tokens(self, tokens: np.ndarray) -> np.ndarray:
        return self.embed[tokens] + self.pos[self.length:self.length + len(tokens)]

    def head(self, x: np.ndarray) -> np.ndarray:
        """Logits of the last position (the tied embedding as output head: reads the whole table)."""
        return self._norm(x[-1], self.ln_f) @ self.embed.T

    def step(self, tokens: np.ndarray) -> np.ndarray:
        if self.length + len(tokens) > self.config.max_context:
            raise ValueError(f"context {self.length + len(tokens)} exceeds {self.config.max_context}")
        x = self.embed_tokens(tokens)
        for i in range(self.config.layers):
            x = self.layer(i, x)
        self.length += len(tokens)
        return self.head(x)


PARTS = ("matmul", "attention", "elementwise", "rest")
"""Where prefill time goes: the four weight matrix products of each layer (12 d^2 multiply-adds per
token, what the estimator counts), attention over the prompt (scores, causal mask, softmax), the
elementwise steps between them (the two layer norms, GELU, the residual adds: each a separate pass
over memory in numpy), and the rest (embedding, output head, Python between layers)."""


class Laps:
    """Time a stretch of work by part: `lap(part)` adds the time since the previous lap (or `start()`)
    to that part. Every reading goes through `clock`."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.seconds = dict.fromkeys(PARTS[:-1], 0.0)
        self.last = clock()

    def start(self) -> None:
        self.last = self.clock()

    def __call__(self, part: str) -> None:
        now = self.clock()
        self.seconds[part] += now - self.last
        self.last = now


# --------------------------------------------------------------------------------------------
# Probe
# --------------------------------------------------------------------------------------------

PROBE_MATRIX_MB = 256
PROBE_MATMUL_N = 1024


@dataclass(frozen=True)
class Probe:
    bandwidth_gbs: float   # bytes of a matrix read by y = W x (the decode operation) / best time
    matmul_gflops: float   # 2 n^3 / best time of an n x n FP32 matrix product
    seconds: float


def _best_time(fn: Callable[[], object], clock: Clock, budget_s: float, min_reps: int = 2, max_reps: int = 40) -> float:
    best, start = math.inf, clock()
    for rep in range(max_reps):
        t0 = clock()
        fn()
        best = min(best, clock() - t0)
        if rep + 1 >= min_reps and clock() - start >= budget_s:
            break
    return max(best, 1e-9)


def probe(clock: Clock, *, seconds: float = 1.5, matrix_mb: float = PROBE_MATRIX_MB, matmul_n: int = PROBE_MATMUL_N,
          progress: Progress | None = None) -> Probe:
    """A few-second probe: achieved memory bandwidth of a matrix-vector product over a matrix larger
    than any CPU cache, and FP32 matrix-multiply throughput. Best of several repeats each."""
    start = clock()
    n = max(64, int(math.sqrt(matrix_mb * 1048576 / 4)))
    w, x = np.ones((n, n), np.float32), np.ones(n, np.float32)
    gemv = _best_time(lambda: w @ x, clock, seconds / 2)
    bandwidth = w.nbytes / gemv / 1e9
    del w
    if progress:
        progress(0.5, "probe")
    a = np.ones((matmul_n, matmul_n), np.float32)
    gemm = _best_time(lambda: a @ a, clock, seconds / 2)
    if progress:
        progress(1.0, "probe")
    return Probe(bandwidth_gbs=bandwidth, matmul_gflops=2 * matmul_n**3 / gemm / 1e9, seconds=clock() - start)


# --------------------------------------------------------------------------------------------
# One measurement
# --------------------------------------------------------------------------------------------

STAGE_SHARES = (("probe", 0.15), ("load", 0.2), ("prefill", 0.15), ("decode", 0.5))


@dataclass
class Measurement:
    config: DecoderConfig
    probe: Probe
    prompt_tokens: int
    output_tokens_asked: int
    output_tokens: int = 0           # generated, the first included
    load_s: float = math.nan         # building the random weights
    ttft_s: float = math.nan         # prefill + the first token
    step_s: list[float] = field(default_factory=list)   # each later token
    stopped: str | None = None       # the stage the time cap stopped ("load", "prefill", "decode"), else None
    prefill_parts_s: dict[str, float] = field(default_factory=dict)   # PARTS -> seconds of the TTFT; sums to ttft_s

    @property
    def tpot_s(self) -> float:
        """The median of the later steps, so one pause of a shared server does not decide it."""
        return float(np.median(self.step_s)) if self.step_s else math.nan

    @property
    def decode_tok_s(self) -> float:
        return 1.0 / self.tpot_s if self.step_s else math.nan

    @property
    def prefill_tok_s(self) -> float:
        return self.prompt_tokens / self.ttft_s

    @property
    def complete(self) -> bool:
        """TTFT and at least one later token were measured."""
        return bool(self.step_s) and math.isfinite(self.ttft_s)


def _reporter(progress: Progress | None):
    offsets, acc = {}, 0.0
    for stage, share in STAGE_SHARES:
        offsets[stage] = (acc, share)
        acc += share

    def report(stage: str, fraction: float) -> None:
        if progress:
            base, share = offsets[stage]
            progress(min(1.0, base + share * min(max(fraction, 0.0), 1.0)), stage)
    return report


def run(config: DecoderConfig, prompt_tokens: int, output_tokens: int, *, clock: Clock,
        progress: Progress | None = None, time_cap_s: float = TIME_CAP_S, probe_kwargs: dict | None = None,
        seed: int = 0) -> Measurement:
    """Probe, build the model, prefill `prompt_tokens` random tokens, then decode greedily until
    `output_tokens` tokens (the first included) or the time cap."""
    lo, hi = PROMPT_RANGE
    if not (isinstance(prompt_tokens, int) and lo <= prompt_tokens <= hi):
        raise ValueError(f"prompt_tokens must be a whole number in [{lo}, {hi}], got {prompt_tokens!r}")
    lo, hi = OUTPUT_RANGE
    if not (isinstance(output_tokens, int) and lo <= output_tokens <= hi):
        raise ValueError(f"output_tokens must be a whole number in [{lo}, {hi}], got {output_tokens!r}")
    if not 0 < time_cap_s <= TIME_CAP_S:
        raise ValueError(f"time_cap_s must be in (0, {TIME_CAP_S:g}], got {time_cap_s!r}")
    report = _reporter(progress)
    start = clock()
    over = lambda: clock() - start > time_cap_s  # noqa: E731
    pr = probe(clock, progress=lambda f, _: report("probe", f), **(probe_kwargs or {}))
    m = Measurement(config, pr, prompt_tokens, output_tokens)

    t0 = clock()
    model = Decoder(config, seed=seed, on_layer=lambda i: report("load", (i + 1) / config.layers))
    m.load_s = clock() - t0
    if over():
        m.stopped = "load"
        return m

    tokens = np.random.default_rng(seed + 1).integers(0, config.vocab, prompt_tokens)
    t0 = clock()
    laps = Laps(clock)
    x = model.embed_tokens(tokens)
    for i in range(config.layers):
        laps.start()
        x = model.layer(i, x, laps)
        report("prefill", (i + 1) / config.layers)
        if over():
            m.stopped = "prefill"
            return m
    model.length += prompt_tokens
    token = int(np.argmax(model.head(x)))
    m.ttft_s, m.output_tokens = clock() - t0, 1
    m.prefill_parts_s = dict(laps.seconds, rest=max(0.0, m.ttft_s - sum(laps.seconds.values())))

    while m.output_tokens < output_tokens:
        if over():
            m.stopped = "decode"
            break
        t0 = clock()
        token = int(np.argmax(model.step(np.array([token]))))
        m.step_s.append(clock() - t0)
        m.output_tokens += 1
        report("decode", (m.output_tokens - 1) / max(1, output_tokens - 1))
    return m


# --------------------------------------------------------------------------------------------
# Against the estimator
# --------------------------------------------------------------------------------------------

def hardware_from_probe(p: Probe, memory_gb: float) -> Hardware:
    """This server as the estimator sees a device: probed bandwidth and compute, kind "cpu"."""
    return Hardware(name="this server (probed)", kind="cpu", mem_bandwidth_gbs=p.bandwidth_gbs,
                    peak_tflops=p.matmul_gflops / 1e3, memory_gb=max(memory_gb, 0.1), max_devices=1)


def model_for(config: DecoderConfig) -> Model:
    """The measured decoder as a latency.Model: its exact parameter count and shape, FP32."""
    return Model(name=f"random decoder {config.id}", params_b=config.params_b, bytes_per_param=BYTES_PER_PARAM,
                 architecture="dense", layers=config.layers, hidden_size=config.hidden, heads=config.heads,
                 kv_heads=config.heads, head_dim=config.head_dim, kv_bytes=BYTES_PER_PARAM)


@dataclass(frozen=True)
class Comparison:
    estimate: Estimate
    ttft_ratio: float         # measured / predicted
    tpot_ratio: float
    decode_floor_s: float     # weights read once at the probed bandwidth: the physics floor per token
    prefill_floor_s: float    # prompt FLOPs at the probed matmul speed
    matmul_gflops: float = math.nan   # the layers' matrix products in this prefill: their FLOPs / their time
    matmul_ratio: float = math.nan    # those products' time / the estimator's prefill time (what it counts)

    @staticmethod
    def verdict(ratio: float) -> str:
        """"agree" within AGREE_WITHIN, else "slower" (measured slower than predicted) or "faster"."""
        if not math.isfinite(ratio):
            return "unknown"
        if 1 / AGREE_WITHIN <= ratio <= AGREE_WITHIN:
            return "agree"
        return "slower" if ratio > 1 else "faster"


def compare(m: Measurement, memory_gb: float) -> Comparison:
    """The estimator's figures for the probed hardware and this model, one user, no network."""
    model = model_for(m.config)
    est = estimate(model, hardware_from_probe(m.probe, memory_gb), prompt_tokens=m.prompt_tokens,
                   output_tokens=max(m.output_tokens, 1), batch=1, distance_km=0.0, access="none", devices=1)
    flops = 2 * m.config.params * m.prompt_tokens
    mm_s = m.prefill_parts_s.get("matmul", math.nan)
    return Comparison(estimate=est, ttft_ratio=m.ttft_s / est.ttft_s, tpot_ratio=m.tpot_s / est.tpot_s,
                      decode_floor_s=m.config.weights_gb / m.probe.bandwidth_gbs,
                      prefill_floor_s=flops / (m.probe.matmul_gflops * 1e9),
                      matmul_gflops=m.config.layer_matmul_flops(m.prompt_tokens) / mm_s / 1e9 if mm_s > 0 else math.nan,
                      matmul_ratio=mm_s / est.breakdown["prefill"] if mm_s > 0 else math.nan)


def cpu_name(cpuinfo: str = "/proc/cpuinfo") -> str:
    """The processor's model name (Linux /proc/cpuinfo, else the platform's word for it)."""
    try:
        with open(cpuinfo, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def cpu_cores() -> int:
    return os.cpu_count() or 1


def software() -> str:
    """numpy's version and BLAS, and Python's version."""
    try:
        blas = "OpenBLAS" if "openblas" in str(np.__config__.CONFIG.get("Build Dependencies", {})).lower() else "BLAS"
    except AttributeError:
        blas = "BLAS"
    return f"numpy {np.__version__} ({blas}), Python {platform.python_version()}"


def csv_row(m: Measurement, *, when: str, hardware: str) -> dict[str, object]:
    """One row in the columns of shared/calibration/measurements.csv."""
    return dict(
        source=f"measured in the Inference Latency Explorer (measure page), {when}",
        hardware=hardware, model=f"random-weight GPT-2-shaped decoder, {m.config.size_name} parameters "
        f"({m.config.layers} layers, hidden {m.config.hidden}, {m.config.heads} heads, vocab {m.config.vocab})",
        params_b=f"{m.config.params_b:.4f}", precision="FP32", bytes_per_param=f"{BYTES_PER_PARAM:g}", batch=1,
        prompt_tokens=m.prompt_tokens, output_tokens=m.output_tokens,
        decode_tok_s=f"{m.decode_tok_s:.2f}", prefill_tok_s=f"{m.prefill_tok_s:.2f}",
        ttft_ms=f"{m.ttft_s * 1e3:.2f}", tpot_ms=f"{m.tpot_s * 1e3:.2f}",
        software=software(),
        notes=(f"probe: {m.probe.bandwidth_gbs:.1f} GB/s (FP32 matrix-vector read), {m.probe.matmul_gflops:.1f} GFLOP/s "
               f"(FP32 {PROBE_MATMUL_N}^3 matmul); greedy decode of random tokens; ttft = prefill + first token, "
               f"no network; tpot = median of {len(m.step_s)} later steps"
               + (f"; stopped by the {TIME_CAP_S:g} s cap during {m.stopped}" if m.stopped else "")),
    )


def csv_text(row: dict[str, object]) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(CSV_COLUMNS), lineterminator="\n")
    w.writeheader()
    w.writerow(row)
    return buf.getvalue()
