"""Steady use of one server by N users: the serving engine's own mechanics, in steady state.

N users in a closed loop (each sends a new request when the previous answer has arrived, after an
optional think time Z; the set-up of AIPerf, GenAI-Perf, `vllm bench serve --max-concurrency` and
guidellm's fixed-concurrency runs). The engine batches continuously with chunked prefill (Yu et al.
2022, Orca, OSDI; vLLM's scheduler, Kwon et al. 2023, SOSP; vLLM docs "Optimization and Tuning:
chunked prefill"): every engine step

* gives each running (decoding) request one token,
* fills the rest of a token budget T per step (`max_num_batched_tokens`) with chunks of waiting
  prompts, first come first served, so a long prompt's prefill is spread over several steps, and
  every step that carries prefill work is longer for the decoding users in it;
* admits a request only while the KV cache beside the weights has room for it (and the engine's
  `max_num_seqs`): users beyond that wait outside, which is the cliff in time to first token.

The step time is the engine's physics (a callable built by `estimator.request_times` from the same
roofline as a single request: weights read once per step, KV cache of every decoding request,
FLOPs of every token in the step, per-pass and per-stream overheads). This module only does the
queueing: a mean-value fixed point (Schweitzer's approximate mean-value analysis of a closed
network, Schweitzer 1979; Lazowska et al., *Quantitative System Performance*, 1984, ch. 6) over two
stations, the prefill queue (FCFS, work = prompt tokens, rate = chunk tokens per prefill step) and
decode (a delay of output - 1 steps), with Little's law N = X x (TTFT + (output - 1) x ITL + Z).

Every function works on floats and on numpy arrays alike (a fixed number of damped iterations, no
data-dependent loop), so a slider move costs well under a millisecond per scenario
(benchmarks/bench_estimator.py). It is checked against a discrete-event simulation of the same
engine, step by step and request by request (benchmarks/sim_serving.py; tests/estimation/
test_steady_state.py asserts the agreement on a grid of cases).
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple

from latency.estimation import _num as nm

# vLLM's defaults for `vllm serve` (UsageContext.OPENAI_API_SERVER), vllm/engine/arg_utils.py,
# EngineArgs.get_batch_defaults (v0.9-v0.16): devices with >= 70 GiB (H100, H200, B200, MI300X;
# the source also excludes the A100 80GB, which this rule cannot see by memory alone) get a
# token budget of 8,192 per step and up to 1,024 running requests; smaller devices 2,048 and 256.
VLLM_LARGE_DEVICE_GIB = 70.0
VLLM_TOKEN_BUDGET = (8192.0, 2048.0)        # (large device, other), tokens per engine step
VLLM_MAX_NUM_SEQS = (1024.0, 256.0)         # (large device, other), running requests
# llama.cpp's server (llama-server) batches its slots' prompt chunks and decodes together in one
# batch of `--batch-size` tokens, default 2048 (tools/server README, "-b, --batch-size N: logical
# maximum batch size (default: 2048)"); one slot per user (`-np`), so no separate sequence cap.
LLAMA_CPP_TOKEN_BUDGET = 2048.0
LLAMA_CPP_MAX_SLOTS = 1024.0
"""llama-server runs one slot per parallel user (`-np`, set by whoever runs it). Every step carries
one token of every decoding slot, so the slots must leave room in the 2,048-token batch for prompt
chunks: half of it here. An assumption (no published default for many users); it matters only
beyond 1,024 users on one llama.cpp server."""

ITERATIONS = 60
"""Damped fixed-point iterations. A fixed count keeps the arrays path free of data-dependent loops;
the simulation test checks the residual. 25 iterations with X alone damped did not settle where a
little more load turns most steps into prefill steps (the time between tokens jumps from one step's
length to a prefill step's, and X swung between two values): a 12B INT4 model on an H100 with
5,000-token prompts gave 7 users a 366 ms time between tokens and 9 users 49 ms, so adding users
sped everyone up (tests/exploring/test_launch.py's property found it). Damping the time between
tokens as well (ITL_DAMPING) settles them: on the launch tests' 64 set-ups at 2-300 users, 60
iterations agree with 3,000 (damping 0.97) to 2% at worst (1e-6 but for 6 of 871) and no set-up
gets faster as users are added (1-400); 25 with X alone were off by up to 3.9x. About 0.4 ms per
steady-use estimate (0.23 before)."""
DAMPING = 0.5
ITL_DAMPING = 0.8


def token_budget_tokens(optimized: Any, device_memory_gb):
    """Tokens one engine step may carry (decodes + prompt chunks): vLLM's max_num_batched_tokens
    default by device memory, or llama-server's batch size."""
    vllm = nm.where(device_memory_gb >= VLLM_LARGE_DEVICE_GIB * 1.073741824,
                    VLLM_TOKEN_BUDGET[0], VLLM_TOKEN_BUDGET[1])
    return nm.where(optimized, vllm, LLAMA_CPP_TOKEN_BUDGET)


def max_running_requests(optimized: Any, device_memory_gb, kv_capacity_requests):
    """Requests the engine runs at once: those whose KV cache fits (at least one), and at most
    vLLM's max_num_seqs or llama-server's slots (LLAMA_CPP_MAX_SLOTS)."""
    seqs = nm.where(device_memory_gb >= VLLM_LARGE_DEVICE_GIB * 1.073741824,
                    VLLM_MAX_NUM_SEQS[0], VLLM_MAX_NUM_SEQS[1])
    kv = nm.maximum(kv_capacity_requests, 1.0)
    return nm.where(optimized, nm.minimum(kv, seqs), nm.minimum(kv, LLAMA_CPP_MAX_SLOTS))


StepTime = Callable[[Any, Any, Any], Any]
"""step_s(decode_requests, prefill_tokens, prefill_requests) -> seconds of one engine step."""


class SteadyState(NamedTuple):
    """Per user: ttft_s (KV wait + prefill), itl_s (time per output token while decoding),
    kv_wait_s (waiting outside for KV-cache room). Whole server: requests_per_s (X),
    output_tokens_per_s (X x output), running_requests (mean requests inside the engine),
    decoding_requests (mean decoding at a step), saturated (1 where the KV cache caps the running
    set: users beyond it queue), residual (relative change of X in the last iteration)."""

    ttft_s: Any
    itl_s: Any
    kv_wait_s: Any
    requests_per_s: Any
    output_tokens_per_s: Any
    running_requests: Any
    decoding_requests: Any
    saturated: Any
    residual: Any


def prefill_chunk_tokens(budget_tokens, decoding_requests, prompt_tokens, waiting_prompts, decode_slots=1.0):
    """Prompt tokens in a step that carries prefill work: the budget left after the decodes (each
    takes `decode_slots` tokens: 1, or k + 1 with speculative decoding), at most the prompts waiting
    (a lone prompt shorter than the budget fills only its length)."""
    left = nm.maximum(budget_tokens - decoding_requests * decode_slots, 1.0)
    return nm.minimum(left, prompt_tokens * nm.maximum(waiting_prompts, 1.0))


def prefill_response_s(prompt_tokens, chunk_tokens, prefill_step_s, utilization, arrival_cv2, prompts_ahead_max):
    """Time from a prompt's arrival to its first token: its own prefill steps, never fewer than
    one, plus the wait behind other prompts in the FCFS prefill queue.

        own  = prefill step x max(1, P / chunk)
        wait = (ca^2 + cs^2) / 2 x rho / (1 - rho) x own      (Allen-Cunneen, the G/G/1 wait;
                                                            Allen 1990, Probability, Statistics
                                                            and Queueing Theory, sec. 6.4)

    cs^2 = 0 (every prompt the same length: deterministic service), rho the prefill queue's
    utilisation, ca^2 the squared coefficient of variation of the users' arrivals
    (`arrival_cv2`), and the wait never more than all the other users' prompts ahead."""
    own = prefill_step_s * nm.maximum(prompt_tokens / chunk_tokens, 1.0)
    rho = nm.minimum(utilization, 0.999)
    wait = arrival_cv2 / 2.0 * rho / (1.0 - rho) * own
    return own + nm.minimum(wait, prompts_ahead_max * own)


def arrival_cv2(think_s, cycle_s, users, utilization):
    """Squared coefficient of variation of the prompts' arrivals at the prefill queue.

    One user: an exponential think time of mean Z on top of a fixed time in the engine C gives
    c_u^2 = Z^2 / (Z + C)^2 between its requests (0 with no think time). N users' streams merged:
    Whitt's approximation for a superposition (Whitt 1983, "The Queueing Network Analyzer", Bell
    System Technical Journal 62(9), eq. 41-42), ca^2 = w c_u^2 + (1 - w), w = 1 / (1 + 4 (1 -
    rho)^2 (N - 1)): many light streams look Poisson (1). With no think time and every answer the
    same length the users keep the spacing they started with, so their prompts collide only by
    that start; then the merged stream is taken as regular as one user's (ca^2 = c_u^2 = 0)."""
    cu2 = think_s**2 / nm.maximum(think_s + cycle_s, 1e-12) ** 2
    w = 1.0 / (1.0 + 4.0 * (1.0 - nm.minimum(utilization, 1.0)) ** 2 * nm.maximum(users - 1.0, 0.0))
    merged = w * cu2 + (1.0 - w)
    return nm.where(think_s > 0.0, merged, cu2)


def inter_token_s(other_requests_per_s, prompt_tokens, chunk_tokens, prefill_step_s, decode_step_s):
    """Mean time between a decoding user's tokens: the mean length of the steps it takes part in.
    The other users' prefill steps happen X' x P / chunk times a second (X' = X (N - 1) / N: a user
    does not decode during its own prefill) and last prefill_step_s; the rest of the time is
    decode-only steps. Share of time in prefill steps u = X' P t_p / c (at most 1)."""
    u = nm.minimum(other_requests_per_s * prompt_tokens * prefill_step_s / chunk_tokens, 1.0)
    steps_per_s = u / prefill_step_s + (1.0 - u) / decode_step_s
    return 1.0 / steps_per_s


def _closed_loop(users, think_s, prompt_tokens, output_tokens, budget_tokens, step_s: StepTime,
                 tokens_per_step=1.0, decode_slots=1.0):
    """Mean-value fixed point for `users` requests cycling through prefill, decode and think.
    tokens_per_step: output tokens a decoding user gets per engine step (speculative decoding: the
    expected accepted tokens plus one, `estimator.tokens_per_verification`; else 1)."""
    t_p = step_s(0.0 * users, nm.minimum(prompt_tokens, budget_tokens), 1.0 + 0.0 * users)
    t_d = step_s(1.0 + 0.0 * users, 0.0, 0.0) / tokens_per_step
    x = users / (t_p * nm.maximum(prompt_tokens / budget_tokens, 1.0) + (output_tokens - 1.0) * t_d + think_s)
    q = 0.0 * users
    itl, r_pf, d = t_d, t_p, 0.0 * users
    residual = 1.0 + 0.0 * users
    others = nm.maximum(users - 1.0, 0.0) / nm.maximum(users, 1.0)
    for k in range(ITERATIONS):
        d = nm.minimum(x * (output_tokens - 1.0) * itl, users)
        chunk = prefill_chunk_tokens(budget_tokens, d, prompt_tokens, q, decode_slots)
        t_p = step_s(d, chunk, nm.maximum(chunk / prompt_tokens, 1.0))
        t_d = step_s(nm.maximum(d, 1.0), 0.0, 0.0)
        itl_new = inter_token_s(x * others, prompt_tokens, chunk, t_p, t_d) / tokens_per_step
        itl = itl_new if k == 0 else ITL_DAMPING * itl + (1.0 - ITL_DAMPING) * itl_new  # ITERATIONS
        rho = x * prompt_tokens * t_p / chunk
        cv2 = arrival_cv2(think_s, r_pf + (output_tokens - 1.0) * itl, users, rho)
        r_pf = prefill_response_s(prompt_tokens, chunk, t_p, rho, cv2, nm.maximum(users - 1.0, 0.0))
        # A prompt that arrives while the engine runs a step for other users waits for that step to
        # end (a step's batch is fixed when it starts): half a step on average (steps of nearly
        # constant length), where other users are decoding.
        r_pf = r_pf + nm.minimum(d * others, 1.0) * 0.5 * itl * tokens_per_step
        x_new = users / (r_pf + (output_tokens - 1.0) * itl + think_s)
        residual = abs(x_new - x) / x
        x = DAMPING * x + (1.0 - DAMPING) * x_new
        q = x * r_pf
    return x, r_pf, itl, d, residual


def steady_state(users, think_s, prompt_tokens, output_tokens, budget_tokens, max_running,
                 step_s: StepTime, tokens_per_step=1.0, decode_slots=1.0) -> SteadyState:
    """Steady use by `users` users (closed loop, think time `think_s`) of an engine that runs at
    most `max_running` requests at once with `budget_tokens` tokens per step.

    Below the cap: the closed loop of all users. Where the loop would hold more requests in the
    engine than the cap, the engine runs `max_running` requests back to back (a finished request's
    place is taken at once by a waiting one) and the rest wait outside; Little's law for the whole
    loop gives their wait: kv_wait = N / X - Z - (prefill + (output - 1) x ITL)."""
    x, r_pf, itl, d, res = _closed_loop(users, think_s, prompt_tokens, output_tokens, budget_tokens, step_s,
                                        tokens_per_step, decode_slots)
    running = users - x * think_s  # Little's law: the users not thinking are in the engine
    # With no think time every user is inside or waiting, so more users than the cap saturate it.
    sat = (running > max_running) | ((think_s <= 0.0) & (users > max_running))
    if not (sat if nm.is_scalar(sat) or isinstance(sat, bool) else bool(sat.any())):
        return SteadyState(ttft_s=r_pf, itl_s=itl, kv_wait_s=0.0 * r_pf, requests_per_s=x,
                           output_tokens_per_s=x * output_tokens, running_requests=running,
                           decoding_requests=d, saturated=nm.as_float(sat), residual=res)
    xs, r_pfs, itls, ds, ress = _closed_loop(max_running + 0.0 * users, 0.0, prompt_tokens, output_tokens,
                                             budget_tokens, step_s, tokens_per_step, decode_slots)
    in_engine_s = r_pfs + (output_tokens - 1.0) * itls
    wait = nm.maximum(users / xs - think_s - in_engine_s, 0.0)
    x = nm.where(sat, xs, x)
    r_pf = nm.where(sat, r_pfs, r_pf)
    itl = nm.where(sat, itls, itl)
    return SteadyState(
        ttft_s=nm.where(sat, wait + r_pfs, r_pf), itl_s=itl, kv_wait_s=nm.where(sat, wait, 0.0 * wait),
        requests_per_s=x, output_tokens_per_s=x * output_tokens,
        running_requests=nm.where(sat, max_running + 0.0 * running, running),
        decoding_requests=nm.where(sat, ds, d), saturated=nm.as_float(sat),
        residual=nm.where(sat, ress, res))
