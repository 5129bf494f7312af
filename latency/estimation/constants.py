"""Physical constants and cited rules of thumb used by the estimator, each beside its source.

One place for every number that is not fitted (the fitted ones live in latency/estimation/fitted_params.json,
written by `python -m latency.calibrate`). Units are in the names: _km, _ms, _s, _gbs, _gb.
"""

from __future__ import annotations

# --- The Earth and light in fibre ---------------------------------------------------------------

EARTH_RADIUS_KM = 6371.0
"""Mean Earth radius (IUGG mean radius R1 = 6,371.0 km; Moritz, "Geodetic Reference System 1980",
Journal of Geodesy 74, 2000). The great-circle distances in shared/calibration/rtt.csv and
content/places.yaml use it in the haversine formula."""

EARTH_CIRCUMFERENCE_KM = 40075.0
"""Equatorial circumference of the Earth (WGS 84 semi-major axis 6,378.137 km x 2 pi = 40,075.017
km; NIMA TR8350.2, "Department of Defense World Geodetic System 1984", 2000)."""

MAX_DISTANCE_KM = EARTH_CIRCUMFERENCE_KM
"""Upper bound accepted for a user-to-server route: once around the Earth. (The longest
great-circle distance is half of it, 20,037.5 km; a real fibre route may be longer than that.)"""

FIBRE_KM_PER_MS = 200.0
"""Light in fibre covers about 200 km per millisecond (refractive index ~1.5; shared/calibration
README, and Bozkurt et al., "Dissecting Latency in the Internet's Fiber Infrastructure",
arXiv 1811.10737)."""

# --- Units -----------------------------------------------------------------------------------------

GIGA = 1e9
"""Bytes per GB and parameters per billion (decimal, as vendors quote GB/s and model sizes)."""
TERA = 1e12
"""FLOP/s per TFLOP/s."""

# --- Transformer arithmetic --------------------------------------------------------------------

FLOPS_PER_PARAM_PER_TOKEN = 2.0
"""A forward pass costs 2 FLOPs per parameter per token, one multiply and one add (Kaplan et al.
2020, "Scaling Laws for Neural Language Models", sec. 2.1, C_forward ~= 2N)."""

KV_TENSORS = 2.0
"""The KV cache holds two tensors per layer and token, K and V (Vaswani et al. 2017)."""

ASPECT_RATIO = 128.0
"""hidden_size / layers of common decoder LLMs when a model gives no shape: Llama 3 8B 4096/32,
Llama 3.1 405B 16384/126, GPT-3 12288/96 all ~128 (Brown et al. 2020, table 2.1)."""

PARAMS_PER_LAYER_D2 = 12.0
"""Non-embedding parameters ~= 12 x layers x hidden^2 (Kaplan et al. 2020, eq. 2.1: 4 d^2 attention
+ 8 d^2 MLP per layer)."""

DEFAULT_KV_DIM = 1024.0
"""KV width (kv_heads x head_dim) when a model gives none: grouped-query attention with 8 KV heads
of 128 (Llama 3 8B/70B/405B configs), capped at hidden/4 for small models."""

ACTIVATION_BYTES = 2.0
"""Tensor-parallel all-reduce messages and pipeline hand-offs are FP16/BF16 activations."""

W8A8_BYTES_PER_PARAM = (0.95, 1.1)
"""Weight formats of 8 bits (FP8, INT8; content/precisions.yaml: 1.0) that serving engines run as
W8A8 matmuls at the low-precision tensor rate (SmoothQuant, Xiao et al. 2023; TensorRT-LLM FP8)."""

# --- Memory ----------------------------------------------------------------------------------------

RUNTIME_OVERHEAD_FRACTION = 0.2
"""Activations, workspace and runtime buffers on top of weights and KV cache: "in our experience
this overhead is <= 20%" (EleutherAI, Transformer Math 101, 2023). We take the upper end."""

# --- Multi-device links ----------------------------------------------------------------------------

NODE_SIZE = 8
"""GPUs per server node (DGX/HGX H100: 8 GPUs on NVLink; NVIDIA DGX H100 datasheet)."""

INTERNODE_GBS = 50.0
"""Per-GPU bandwidth between nodes, one direction: 400 Gb/s InfiniBand NDR (ConnectX-7) = 50 GB/s
(NVIDIA DGX H100 datasheet: 8 x 400 Gb/s compute fabric ports)."""

ALLREDUCE_BUS_EFFICIENCY = 0.62
"""Share of a link's one-direction bandwidth that a serving engine's tensor-parallel all-reduce
achieves inside a node (its bus bandwidth: 2 (n-1)/n x message bytes over the time the message adds),
measured, not fitted: aiconfigurator's kernel tables of vLLM 0.24.0's all-reduce in a CUDA graph
(aiconfigurator_core/systems/data/{b200_sxm,h100_sxm}/comm/vllm/0.24.0/custom_allreduce_perf.parquet).
Their `message_size` counts bfloat16 ELEMENTS, not bytes: the collector all-reduces
`torch.ones([size // 4096, 4096], dtype=bfloat16)` (aiconfigurator collector/collect_all_reduce.py,
`get_input_shape_and_comm_size`), and its NCCL table times an int8 message of the same size in about
0.6x the half-precision time. The slope of latency against message bytes between 2 and 16 MB and
between 8 and 64 MB (1-8 M and 4-32 M elements) on 2, 4 and 8 GPUs: B200 (NVLink 5, 900 GB/s)
458-611 GB/s, 0.51-0.68; H100 SXM (NVLink 4, 450 GB/s) 213-352 GB/s, 0.47-0.78; the median of the
12 is 0.62 (two GPUs: 0.47-0.62; TensorRT-LLM's own all-reduce on H100 and H200: 0.47-0.95, the
same order). Until 2026-12-06 this read the sizes as bytes and gave 0.32, half the measured rate.
A ring all-reduce of a few MB is a chain of small transfers and reductions: it never streams at the
link's rate. The messages of a serving step are that size (2,000 tokens x 2,688 x 2 bytes = 11 MB
for Nemotron Nano); one token's (5-16 KB) costs the latency alone (`link_latency_s`)."""

INTERNODE_LATENCY_S = 20e-6
"""Latency of one small all-reduce across nodes over InfiniBand: an ASSUMPTION (order of magnitude;
no vendor-published small-message all-reduce latency was found to cite; see docs/estimator.md)."""

ALLREDUCES_PER_LAYER = 2.0
"""Megatron-LM tensor parallelism: 2 all-reduces per layer in the forward pass, one after attention,
one after the MLP (Shoeybi et al. 2019, sec. 3)."""

# --- Achieved rates --------------------------------------------------------------------------------

SATURATION_SHARPNESS = 4.0
"""Exponent k of the smooth minimum in `estimator.achieved_fraction` (k = 1: harmonic sum, k -> inf:
hard minimum). Not a free parameter: picked from {1, 2, 4} by the in-sample and leave-one-device-out
calibration errors (k = 1 doubles the decode error; 2 and 4 are close); see docs/estimator.md.
`estimator.kv_bw_share` (the KV-cache reads' per-stream cap, issue 24 item 3) uses the same k: it is
the same smooth minimum, not refitted for it."""

# --- Mixture-of-experts kernels on serving engines ---------------------------------------------------

MOE_EXPERT_BW_EFF = 0.76
"""Share of the engine's weight-read bandwidth at which a serving engine's fused MoE kernel streams
the experts a step touches. Measured, not fitted: aiconfigurator's B200 vLLM 0.24.0 FP8 MoE tables
(aiconfigurator_core/systems/data/b200_sxm/moe/vllm/0.24.0/moe_perf.parquet, read at 095f58a), 117
kernel x shape x tensor-parallel (1-8) series at 1-256 tokens with balanced routing: a straight line
latency = floor + expert bytes touched / (eff x 8,000 GB/s) per series; median eff 0.76 (0.65 at
eight-way tensor parallelism, 0.82 on one GPU). Dense GEMMs of the same tables stream at the
engine's full share, which the calibration fits."""

MOE_LAYER_EXTRA_FLOOR_S = 17e-6
"""Fixed time of one MoE layer beyond a dense MLP's, per forward pass, seconds: routing (the router
GEMM and top-k), sorting tokens by expert, two grouped GEMMs and the weighted sum. The same straight
lines give a floor of 31 us per MoE layer (median of the 117 series); a dense MLP's two FP8 GEMMs
have a floor of 7.0 us each (aiconfigurator's B200 vLLM 0.24.0 gemm_perf.parquet: the fastest time
at 1-64 rows minus the weight-read time at 8,000 GB/s, median of 483 shapes). 31 - 2 x 7 = 17 us.
The dense MLP's floor is inside the engine's fitted per-layer overhead (`pass_overhead_of`)."""

MOE_COMPUTE_SHARE = 0.40
"""Rate at which a serving engine's routed-expert grouped GEMMs do their FLOPs, as a share of the rate
of its dense GEMMs of the same precision on the same GPU, once a pass carries a prefill chunk.
Measured, not fitted: aiconfigurator's kernel tables (aiconfigurator_core 0.12.0, systems/data/
{b200_sxm,h100_sxm}/{moe,gemm}/{vllm/0.24.0,trtllm/1.3.0rc20,sglang/0.5.14}/*_perf.parquet), BF16,
FP8 and block-scaled FP8, balanced routing, no expert parallelism. For each of the 1,353 MoE series
(kernel x shape x tensor parallelism) the marginal rate is the inverse slope of its latency over its
FLOPs (tokens x experts per token x 2 x 3 x hidden x expert width / tensor parallelism) at 2,048 to
16,384 tokens, where every expert is touched and the weight read is fixed; the dense rate is the
median of the same table set's GEMMs of that precision at 2,048-8,192 rows (n x k >= 4,096^2, the
rows of LOWP_ACHIEVED_SHARE). Median share 0.40 (quartiles 0.23-0.68; per engine and GPU 0.26-0.82:
few tokens per expert fill a GEMM tile poorly, and the tokens are gathered and scattered by
expert). The routed experts' FLOPs therefore count 1 / 0.40 = 2.5 times in a serving engine's
compute time (`estimator.moe_compute_active_b`); the rest of the model (attention, shared experts,
router, output layer) runs at the dense rate."""


ROUTED_ACTIVE_SHARE = 0.65
"""Share of an MoE's active parameters per token that sit in its routed experts, for a model given
without its card's split (Model.expert_active_b): the median of eight model cards, experts per token x
the expert's matrices over the active parameters (config.json of each): Mixtral 8x7B 11.27/12.9 = 0.87,
Qwen3-30B-A3B 1.81/3.3 = 0.55, Qwen3-235B-A22B 14.19/22 = 0.65, DeepSeek-V3 20.46/37 = 0.55,
gpt-oss-120b 3.58/5.13 = 0.70, gpt-oss-20b 2.39/3.61 = 0.66, Nemotron 3 Nano 1.38/3.5 = 0.39, MiniMax M2.5
7.02/10 = 0.70. The rest (attention, shared experts, router, output layer) runs at the dense rate
(MOE_COMPUTE_SHARE)."""

DEEPGEMM_MOE_EXTRA_S = {10: 76e-6}
"""Fixed time one MoE layer adds, beyond MOE_LAYER_EXTRA_FLOOR_S, where the engine runs a
block-scaled FP8 MoE (one scale per 128 x 128 weights, DeepSeek-V3 style) on DeepGEMM's grouped
GEMMs, seconds per MoE layer per forward pass of a few tokens, by CUDA compute capability major.
Measured, not fitted: aiconfigurator's B200 tables (read at 095f58a), TensorRT-LLM 1.3.0rc20's
DeepGEMM MoE (systems/data/b200_sxm/moe/trtllm/1.3.0rc20/moe_perf.parquet, kernel_source "deepgemm")
against vLLM 0.24.0's FlashInfer TensorRT-LLM FP8-block MoE (the kernels MOE_EXPERT_BW_EFF and
MOE_LAYER_EXTRA_FLOOR_S are read from; .../vllm/0.24.0/moe_perf.parquet) at the same shape, tensor
parallelism and token count, balanced routing: the median difference over the 265 pairs of 53 shapes
(tensor parallel 1-32) at 1-16 tokens is 75.9 us (quartiles 48.9 and 109.4); MiniMax M2.5's shape
at four-way tensor parallelism, 69-79 us. DeepGEMM's grouped GEMMs compute each expert's rows in
blocks of 128, so a step of a few tokens pays for whole blocks and the kernels' fixed cost.
Hopper (major 9) is absent: vLLM picks the same kernels there (vllm-project/recipes #120: on H100
and H20 "DeepGEMM is faster for linear layers but slower for the grouped GEMM operations used in
MoE experts"), but no published table times them, so the estimate adds nothing there."""

DEEPGEMM_MOE_FADE_TOKENS = 2048.0
"""Tokens in one forward pass at which DeepGEMM's extra MoE time (DEEPGEMM_MOE_EXTRA_S) has gone:
it falls linearly from the full value at one token to none here. The same pairs: median 103 us
at 1-256 tokens, 15 us at 257-2,048, and DeepGEMM ahead (-256 us) above 2,048 (a prefill chunk),
where the straight line keeps it at none rather than crediting it."""

LOWP_ACHIEVED_SHARE = 0.735
"""Share of the nominal low-precision tensor speed-up (a device's `lowp_speedup`, FP8/INT8 tensor rate
over FP16: 2 on Hopper and Blackwell) that a serving engine's FP8 matmuls reach over its BF16
matmuls. Measured, not fitted: aiconfigurator's GEMM tables (aiconfigurator_core/systems/data/
{h100_sxm,h200_sxm,b200_sxm}/gemm/trtllm/1.3.0rc20 and {h100_sxm,b200_sxm}/gemm/vllm/0.24.0/
gemm_perf.parquet, read at 095f58a), the BF16 time over the FP8 time of the same shape at 2,048,
4,096 and 8,192 rows (a prefill chunk), median over the 183 shapes of n x k >= 4,096^2 in each:
TensorRT-LLM H100 1.43-1.53, H200 1.48-1.58, B200 1.39-1.51; vLLM H100 1.28-1.55, B200 1.21-1.27;
the median of the 15 is 1.47 = 0.735 x 2. Used where FP8_MATMUL_SPEEDUP has no measurement for the
engine and architecture (FP8 on an L4, L40S, RTX 40 or MI300X; INT8 W8A8 everywhere); the median of
that table's six pooled values is the same 1.47. On the H100 an FP8 GEMM reaches 56-59% of its 1,979
TFLOPS where a BF16 GEMM reaches 77-79% of its 989 (the TensorRT-LLM table at 2,048-8,192 rows):
the scaling and the narrower inputs do not double the matmul's speed."""

FP8_MATMUL_SPEEDUP = {
    ("tensorrt-llm", 9): 1.493, ("tensorrt-llm", 10): 1.462,
    ("vllm", 9): 1.433, ("vllm", 10): 1.238,
    ("sglang", 9): 1.537, ("sglang", 10): 1.403,
}
"""FP8 matmul speed over BF16 on one engine and GPU architecture, keyed (engine, CUDA compute
capability major: 9 Hopper, H100/H200; 10 Blackwell, B200): where aiconfigurator's tables time that
engine there, the estimate uses this instead of LOWP_ACHIEVED_SHARE x `lowp_speedup`
(`estimator.fp8_matmul_speedup`, by the engine's own name). Measured, not fitted: the same tables, shapes and rows as
LOWP_ACHIEVED_SHARE (aiconfigurator_core 0.12.0, systems/data/{h100_sxm,h200_sxm,b200_sxm}/gemm/
{trtllm/1.3.0rc20, vllm/0.24.0, sglang/0.5.14 and, on the H100, 0.5.6.post2}/gemm_perf.parquet; m
2,048, 4,096 and 8,192, n x k >= 4,096^2), the median of BF16 time over FP8 time pooled over the
architecture's tables (Hopper: 1,098 shape x row pairs for TensorRT-LLM and for vLLM, 1,542 for
SGLang; Blackwell: 549 each). Per table: TensorRT-LLM H100 1.481, H200 1.516, B200 1.462; vLLM H100
1.351, H200 1.541, B200 1.238; SGLang H100 1.503 and 1.494, H200 1.623, B200 1.403. The H100 and H200
are one chip, so their tables are pooled; their spread (vLLM 1.35 against 1.54) is the tables' own
noise. vLLM's FP8 GEMMs on the B200 gain least: 0.43 of the 4,500 FP8 TFLOPS, where its BF16 GEMMs
reach 0.69 of 2,250 (TensorRT-LLM's 0.47 and 0.66)."""

FP4_ACHIEVED_SHARE = 0.55
"""The same for NVFP4 matmuls (a device's `fp4_speedup`, 4 on the B200): aiconfigurator's B200 GEMM
tables (TensorRT-LLM 1.3.0rc20, vLLM 0.24.0; the shapes and rows of LOWP_ACHIEVED_SHARE) put NVFP4
at 1.94-2.38 times BF16, median 2.21 = 0.55 x 4."""

TOKENIZER_BYTES_PER_S = 1.74e6
"""Text a Hugging Face fast tokenizer turns into tokens on one CPU thread, bytes per second:
tiktoken's published comparison (openai/tiktoken README, perf.svg: 1 GB of text, the GPT-2
tokeniser, GPT2TokenizerFast from tokenizers 0.13.2 and transformers 4.24.0), its one-thread bar
12 units high on an axis of 69 units per 10 MB/s = 1.74 MB/s (6.4 MB/s for tiktoken; 5.8 MB/s for
the Hugging Face tokenizer on 8 threads). The serving engines' front ends run it on ONE thread:
vLLM's AsyncMicrobatchTokenizer ("A single-thread ThreadPoolExecutor is used so the event loop
stays responsive", vllm/utils/async_utils.py)."""

BYTES_PER_TOKEN = 4.0
"""Bytes of text per token: OpenAI's rule of thumb, "one token generally corresponds to ~4
characters of text for common English text" (OpenAI Help Center, "What are tokens and how to count
them?"), one byte a character."""

FRONT_END_S_PER_TOKEN = BYTES_PER_TOKEN / TOKENIZER_BYTES_PER_S
"""A serving engine's front end: seconds of its one CPU thread per prompt token it tokenises,
2.3 us (4.7 ms for a 2,048-token prompt). Requests that arrive together are tokenised one after
another, so the k-th of a burst reaches the scheduler k of these later (`estimator.front_end_wait_s`).
Derived from the two sources above, not fitted. Checked against the calibration's only bursts whose
prompts cost the GPU next to nothing (Nemotron Super 49B on a B200, vLLM, 16-50 users sending 2,048-
token prompts already in the prefix cache at once): their first token comes 4.6-7.3 ms later per
request ahead in the burst than the estimate without it gave (in-sample), the 4.7 ms here at the low
end."""
