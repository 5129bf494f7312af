"""A burst through a serving engine's front end: its requests are tokenised one after another.

The front end of vLLM, SGLang and trtllm-serve tokenises prompts on one CPU thread (vLLM's
AsyncMicrobatchTokenizer runs on a single-thread executor), at the one-thread rate of a Hugging Face
fast tokenizer: 1.74 MB/s (tiktoken's published comparison, 1 GB of text, GPT-2 tokeniser), about
4 bytes a token (OpenAI's rule of thumb). So the k-th of B requests that arrive together reaches the
scheduler k x 4 / 1.74e6 s per prompt token after the first. Expected values here come from those two
published figures and a step-by-step count of the two stages, not from `front_end_wait_s`.
"""

from __future__ import annotations

import pytest

from latency import Hardware, Model, estimate
from latency.estimation.estimator import front_end_wait_s

S_PER_TOKEN = 4.0 / 1.74e6  # bytes per token / one-thread tokenizer bytes per second

B200 = Hardware(name="B200", kind="datacenter_gpu", mem_bandwidth_gbs=8000, peak_tflops=2250, memory_gb=180,
                lowp_speedup=2.0, fp8=True)
SUPER = Model(name="49B FP8", params_b=49.9, bytes_per_param=1.0, layers=80, hidden_size=8192, heads=64,
              kv_heads=8, head_dim=128)


def _two_stages(b, front_end_s, per_prompt_s):
    """Mean first-token time of b requests sent at once, counted request by request: one front-end
    thread hands them on one after another, then the GPU computes the prompts first come, first
    served (a prompt starts when it has arrived and the one before it is done)."""
    arrived, gpu_free, done = 0.0, 0.0, []
    for _ in range(b):
        start = max(arrived, gpu_free)
        gpu_free = start + per_prompt_s
        done.append(gpu_free)
        arrived += front_end_s
    return sum(done) / b


@pytest.mark.parametrize("b, front_end_s, per_prompt_s", [(1, 0.005, 0.001), (2, 0.005, 0.001), (16, 0.0047, 0.0002),
                                                         (50, 0.0047, 0.003), (50, 0.0047, 0.0047), (50, 0.002, 0.010)])
def test_the_closed_form_is_the_two_stages_counted_one_request_at_a_time(b, front_end_s, per_prompt_s):
    without = _two_stages(b, 0.0, per_prompt_s)  # the prefill alone: (b + 1) / 2 prompts on average
    expected = _two_stages(b, front_end_s, per_prompt_s) - without
    assert front_end_wait_s(float(b), front_end_s, b * per_prompt_s) == pytest.approx(expected, abs=1e-12)


def test_by_hand():
    # 5 requests, 10 ms each in the front end, 4 ms each on the GPU: done at 4, 14, 24, 34, 44 ms against
    # 4, 8, 12, 16, 20 without the front end: (0 + 6 + 12 + 18 + 24) / 5 = 12 ms later on average.
    assert front_end_wait_s(5.0, 0.010, 0.020) == pytest.approx(0.012)
    assert front_end_wait_s(1.0, 0.010, 0.004) == 0.0  # nobody ahead
    assert front_end_wait_s(5.0, 0.004, 0.050) == 0.0  # the GPU is the slower stage: it sets the pace


def _burst(users, api, engine="vllm", context=2032, prompt=16):
    return estimate(SUPER, B200, prompt_tokens=prompt, context_tokens=context, output_tokens=512, devices=1,
                    access="none", engine=engine, serving_api=api, concurrent_users=users, arrival="burst")


@pytest.mark.parametrize("users", [16, 32, 50])
def test_a_burst_of_cached_prompts_waits_for_the_front_end(users):
    """The calibration's case: 2,048-token prompts already in the prefix cache (16 tokens recomputed),
    sent at once by 16-50 users. The GPU's part is tiny, so each request waits for the tokenising of
    those ahead of it: (B - 1) / 2 x (2,048 x 2.3 us - the GPU's time per prompt) on average."""
    api, internal = _burst(users, True), _burst(users, False)
    per_prompt_s = users * 16 / internal.prefill_tokens_per_s / users
    expected = (users - 1) / 2 * (2048 * S_PER_TOKEN - per_prompt_s)
    assert per_prompt_s < 0.5 * 2048 * S_PER_TOKEN  # the front end is the slower stage here
    assert api.ttft_s - internal.ttft_s - api.overhead_s == pytest.approx(expected, rel=1e-6)
    assert api.breakdown["queue"] - internal.breakdown["queue"] == pytest.approx(expected, rel=1e-6)
    # the wave's last answer starts after the last request has been handed on: the server's rate falls
    assert api.server_tokens_per_s < internal.server_tokens_per_s


def test_one_user_and_engines_without_the_python_front_end_wait_for_no_one():
    one = _burst(1, True)
    assert one.breakdown["queue"] == 0.0
    # llama.cpp's server tokenises in C++, in the slot that runs the request: no shared front-end queue
    llama = estimate(SUPER, B200, prompt_tokens=16, context_tokens=2032, output_tokens=64, devices=1, access="none",
                     engine="llama.cpp", serving_api=True, concurrent_users=16, arrival="burst")
    llama_internal = estimate(SUPER, B200, prompt_tokens=16, context_tokens=2032, output_tokens=64, devices=1,
                              access="none", engine="llama.cpp", serving_api=False, concurrent_users=16, arrival="burst")
    assert llama.ttft_s == pytest.approx(llama_internal.ttft_s)


def test_uncached_prompts_keep_the_gpu_the_slower_stage():
    """Whole 2,048-token prompts of a 49B model take the GPU far longer than the front end's 4.7 ms, so
    the front end is hidden behind the prefill: the burst waits for nothing more than the API time."""
    api, internal = _burst(50, True, context=0, prompt=2048), _burst(50, False, context=0, prompt=2048)
    assert 2048 / internal.prefill_tokens_per_s > 2048 * S_PER_TOKEN
    assert api.ttft_s - internal.ttft_s == pytest.approx(api.overhead_s, rel=1e-9)


def test_steady_use_is_unchanged():
    """Requests spread over time by each user's own answer do not pile up in the front end here; only a
    burst queues there (the steady figures are the engine's steady state, latency.estimation.serving)."""
    kw = dict(prompt_tokens=2048, output_tokens=512, devices=1, access="none", concurrent_users=32)
    api, internal = estimate(SUPER, B200, serving_api=True, **kw), estimate(SUPER, B200, serving_api=False, **kw)
    assert api.ttft_s - internal.ttft_s == pytest.approx(api.overhead_s, rel=1e-9)
