"""What to change when a set-up fails its target or costs more than its monthly limit (issue 33, item 3).

Each lever is a change of estimator inputs (scenario keys); every candidate set-up is one launch check
(`latency.exploring.launch.check`, i.e. `scenario.evaluate` with the changed inputs), so its effect on
each stage comes from the same physics as the launch check itself. The levers (the related term
서빙 최적화's list, docs/estimator.md "Levers" for their published checks):

    devices          the device count per server (tensor parallel splits the weights' reads)
    hardware         another device of the chosen scope, as many as it needs
    precision        a smaller weight format (quantization): quality named, not measured
    smaller_model    the largest smaller model, down to the PM's smallest acceptable size: quality named
    moe              a mixture-of-experts model of the same total size: a different model, quality named
    region           a server region closer to the users (the users stay where they are)
    shorter_answers  the longest shorter answer (3/4, 1/2, 1/4, 1/8 of it) that passes: a product choice
    connection       a reused connection (no TCP and TLS handshakes before the request)
    prefix_cache     the shared part of the prompt served from the KV cache (its share is an input)
    speculative      speculative decoding with the stated acceptance rate (an estimator input)
    streaming        judge the first token instead of the whole answer: what the user sees first

Shorter answers and speculative decoding change only how fast the answer is written after the first token:
against a first-token target they are not offered ("first_token").

Within a lever the least drastic change that passes is offered (the largest model, the longest answer,
the highest precision, the cheapest device or count); across levers the suggestions are ranked by the
monthly cost at the stated traffic (the launch check's `monthly_usd`), then by the time they give.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from latency.estimation import scenario
from latency.estimation.catalog import Catalog
from latency.estimation.places import Place, place_distance_km
from latency.exploring.launch import Check, check

LEVERS = ("devices", "hardware", "precision", "smaller_model", "moe", "region", "shorter_answers", "connection",
          "prefix_cache", "speculative", "streaming")
QUALITY = {"precision": "precision", "smaller_model": "size", "moe": "moe", "shorter_answers": "length",
           "speculative": None, "prefix_cache": None}
"""Levers that trade what the answer is (quality or length): the page names the trade, the app does not measure it."""
ANSWER_SHARES = (0.75, 0.5, 0.25, 0.125)
SPEC_TOKENS_ON = 4
"""Draft tokens per step when the lever turns speculative decoding on: Leviathan et al. 2023 (Table 3)
report the best draft lengths between 3 and 7 for their pairs; vLLM's examples use 4-5."""


@dataclass(frozen=True)
class Suggestion:
    lever: str
    values: Mapping[str, Any]
    changed: tuple[str, ...]        # the scenario keys this suggestion changes
    check: Check

    @property
    def quality(self) -> str | None:
        return QUALITY.get(self.lever)


@dataclass(frozen=True)
class Tried:
    """A lever that did not make the set-up pass: its best attempt (None: not applicable) and why."""

    lever: str
    best: Suggestion | None
    reason: str                      # "not_enough", "slower" (even its fastest option is slower than the set-up now),
                                     # or why it was not tried ("already", "no_share", "unavailable", ...)


def _changed(before: Mapping[str, Any], after: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple(k for k in scenario.KEYS if k in after and before.get(k) != after.get(k))


LLAMA_CPP_FORMATS = ("q8_0", "q4_k_m")
"""Weight formats of llama.cpp (GGUF quantization types, llama.cpp tools/quantize): a serving engine (vLLM,
TensorRT-LLM) serves FP8, INT8 and AWQ/GPTQ INT4 instead, and llama.cpp these. The precision lever offers
the formats of the set-up's own engine, so a vLLM server is never told to switch to a GGUF file."""


def runs_on(precision_id: str, engine: str | None) -> bool:
    """Whether the quantization lever offers this weight format for this engine (any, when it is not known)."""
    if engine is None:
        return True
    return (precision_id in LLAMA_CPP_FORMATS) == (engine == "llama.cpp") or precision_id == "fp16"


def spec_supported() -> bool:
    """Whether the estimator takes speculative decoding's inputs (spec_tokens, spec_accept)."""
    import inspect

    from latency.estimation.estimator import estimate
    return "spec_tokens" in inspect.signature(estimate).parameters


def candidates(catalog: Catalog, values: Mapping[str, Any], sizes: Sequence[float], places: Sequence[Place],
               device_choices: Sequence[int]) -> dict[str, list[dict[str, Any]] | str]:
    """Every lever's candidate set-ups, in the order "least drastic first"; a string where the lever
    does not apply (why)."""
    v = dict(values)
    out: dict[str, list[dict[str, Any]] | str] = {}
    entry = catalog.hardware[v["hardware"]]
    most = int(entry.hardware.resolved("max_devices"))
    current = scenario.fixed_devices(v)
    if current is None:  # auto: the count it resolves to is no change
        try:
            current = int(scenario.evaluate(catalog, v)[2].devices_needed)
        except ValueError:
            current = None
    out["devices"] = [{**v, "devices": n} for n in device_choices if n <= most and n != current]
    scope = v.get("device_scope", "cloud")
    # Another device on 'auto' (the fewest that hold the model), then with each count it takes: the fewest that
    # hold the weights can still queue 200 users (PM try 2026-12-05: 70.6B FP16 for 200 users, "another device"
    # offered only an H200, while two MI300X passed for less). `_try` takes the cheapest passing option.
    out["hardware"] = [{**v, "hardware": h, "devices": n} for h, e in catalog.hardware.items()
                       if h != v["hardware"] and e.price_usd_per_hour is not None
                       and (scope == "all" or e.price_basis == "cloud_on_demand")
                       for n in [scenario.DEVICES_AUTO, *(n for n in device_choices
                                                           if n <= int(e.hardware.resolved("max_devices")))]]
    bpp = catalog.precisions[v["precision"]].bytes_per_param
    try:
        engine = scenario.evaluate(catalog, v)[2].engine
    except ValueError:
        engine = None
    # FP4 formats only where the device computes in FP4 (Blackwell: Hardware.fp4_speedup); elsewhere NVFP4 runs as a
    # 4-bit weight-only format, the job INT4 (AWQ/GPTQ) already does under a name that does not say "for
    # Blackwell chips" (a PM try on an H100 was told to switch to NVFP4 and kept the H100).
    fp4 = entry.hardware.fp4_speedup is not None
    lower = sorted((p for p in catalog.precisions.values() if p.bytes_per_param < bpp and runs_on(p.id, engine)
                    and (fp4 or p.family != "fp4")), key=lambda p: -p.bytes_per_param)
    # A lower precision with the devices entered, then with each fewer device count (PM try: 70.6B FP16 on four H100s
    # passed; FP8 with four cost the same, "no saving", while FP8 on two passed for half). `_try` takes, of the first
    # precision that passes, its cheapest passing count.
    # On 'auto' the lower precision's own 'auto' takes the fewest devices that hold its smaller weights, which
    # can queue the users that the count 'auto' came to now serves (PM try 2026-12-05: 70.6B on 'auto', two
    # H100s, 200 users: FP8 on 'auto' took one and failed, FP8 on two passed at the same cost, and the lever
    # said "not enough; at best INT4"): so the count it came to, and each fewer, are tried too.
    fixed = current is not None and scenario.fixed_devices(v) is not None
    fewer = (sorted((n for n in device_choices if n < current), reverse=True) if fixed
             else sorted((n for n in device_choices if n <= current), reverse=True) if current is not None else [])
    out["precision"] = [{**v, "precision": p.id, **({"devices": n} if n is not None else {})}
                        for p in lower for n in [None, *fewer]] or "already"
    floor = float(v.get("min_model_b", scenario.SIZE_MIN_B) or scenario.SIZE_MIN_B)
    smaller = [s for s in sorted(sizes, reverse=True) if floor <= s < float(v["model_size_b"])]
    out["smaller_model"] = [{**v, "model_size_b": s} for s in smaller] or "at_floor"
    out["moe"] = [{**v, "arch": "moe"}] if v["arch"] != "moe" else "already"
    by_id = {p.id: p for p in places}
    users = by_id.get(v.get("users_place"))
    if users is None:
        out["region"] = "no_place"
    else:
        here = float(v["distance_km"])
        nearer = sorted(((place_distance_km(users, p), p.id) for p in places), key=lambda t: t[0])
        out["region"] = [{**v, "server_place": pid, "distance_km": km} for km, pid in nearer if km < here] or "already"
    n = int(v["output_tokens"])
    shorter = sorted({max(1, int(round(n * f))) for f in ANSWER_SHARES if round(n * f) < n}, reverse=True)
    first_token = v["measure"] == "ttft"  # levers that only speed up writing the answer after the first token
    # ... for one user. With others on the server, a shorter answer frees its place sooner, so the others' first
    # tokens wait less (PM try 2026-12-05: "waiting for other users' requests to finish" was the biggest stage,
    # and shorter answers were "not offered, as they change only how fast the answer is written").
    alone = int(v.get("concurrency", 1) or 1) <= 1
    out["shorter_answers"] = ("first_token" if first_token and alone
                              else [{**v, "output_tokens": m} for m in shorter] or "already")
    out["connection"] = [{**v, "connection": "warm"}] if v.get("connection") == "cold" else "already"
    if v.get("prefix_cache") == "on":
        out["prefix_cache"] = "already"
    elif float(v.get("prefix_share", 0) or 0) <= 0:
        out["prefix_cache"] = "no_share"
    else:
        out["prefix_cache"] = [{**v, "prefix_cache": "on"}]
    if not spec_supported():
        out["speculative"] = "unavailable"
    elif int(v.get("spec_tokens", 0) or 0) > 0:
        out["speculative"] = "already"
    elif first_token:
        out["speculative"] = "first_token"
    else:
        out["speculative"] = [{**v, "spec_tokens": SPEC_TOKENS_ON}]
    out["streaming"] = [{**v, "measure": "ttft"}] if v["measure"] == "total" else "already"
    return out


def _cost_key(c: Check) -> tuple:
    monthly = c.monthly_usd if math.isfinite(c.monthly_usd) else math.inf
    return (monthly, c.value_s)


ORDERED = ("smaller_model", "precision", "shorter_answers", "region")
"""Levers whose options run from the least drastic change to the most: the first that passes is offered."""


def _try(catalog: Catalog, values: Mapping[str, Any], lever: str, options: list[dict[str, Any]],
         evaluate: Callable[[Mapping[str, Any]], Check]) -> Suggestion | Tried:
    """The lever's suggestion: the first passing option for levers ordered least drastic first (a
    model, a precision, an answer length, a region), the cheapest passing one for the others. Else its
    best attempt: the first option (cheapest for the others) that meets the time target but costs more
    than the monthly limit ("over_budget"), or the one closest to the target ("not_enough")."""
    checks = []
    for opt in options:
        try:
            checks.append((opt, evaluate(opt)))
        except ValueError:  # a combination the estimator refuses (e.g. an engine that does not run there)
            continue
    passing = [(o, c) for o, c in checks if c.passes]
    if lever == "precision" and passing:  # the least drastic precision that passes, at its cheapest device count
        passing = [(o, c) for o, c in passing if o["precision"] == passing[0][0]["precision"]]
        passing = [min(passing, key=lambda oc: _cost_key(oc[1]))]
    pick = (lambda found: found[0]) if lever in ORDERED else (lambda found: min(found, key=lambda oc: _cost_key(oc[1])))
    if passing:
        opt, c = pick(passing)
        return Suggestion(lever, opt, _changed(values, opt), c)
    in_time = [(o, c) for o, c in checks if c.kind == "pass"]  # meets the time target, over the cost limit
    if in_time:
        opt, c = pick(in_time)
        return Tried(lever, Suggestion(lever, opt, _changed(values, opt), c), "over_budget")
    fitting = [(o, c) for o, c in checks if c.fits]
    if not fitting:
        return Tried(lever, None, "not_enough")
    opt, c = min(fitting, key=lambda oc: oc[1].value_s)
    return Tried(lever, Suggestion(lever, opt, _changed(values, opt), c), "not_enough")


QUALITY_RISK = {"precision": 1, "moe": 2, "smaller_model": 2, "shorter_answers": 2}
"""How much a lever may change the answers' quality (0: not at all), to order suggestions of the same monthly
cost: a lower precision keeps the model (its published quality notes: near FP16 for FP8 and INT8), another
architecture or a smaller model changes it."""


PAIR_OPTIONS = 8
"""Options of an ordered lever tried in a pair (spread over its range), so two changes together cost at
most about 55 pairs x 8 launch checks."""


def pairs(catalog: Catalog, values: Mapping[str, Any], sizes: Sequence[float], places: Sequence[Place],
          device_choices: Sequence[int], evaluate: Callable[[Mapping[str, Any]], Check] | None = None,
          limit: int = 5) -> list[Suggestion]:
    """Two levers together, for a set-up no single lever makes pass: every pair of levers that change
    different inputs, each ordered lever's options least drastic first (PAIR_OPTIONS of them), the
    other lever at its best attempt alone; the passing pairs, cheapest first (`limit` of them). The
    suggestion's `lever` is "a+b"."""
    evaluate = evaluate or (lambda v: check(catalog, v, search_users=False))
    options = {k: o for k, o in candidates(catalog, values, sizes, places, device_choices).items() if not isinstance(o, str)}
    best: dict[str, dict[str, Any]] = {}
    for lever, opts in options.items():
        result = _try(catalog, values, lever, opts, evaluate)
        chosen = result if isinstance(result, Suggestion) else result.best
        if chosen is not None:
            best[lever] = {k: chosen.values[k] for k in chosen.changed}
    def spread(lever: str) -> list[dict[str, Any]]:
        """An ordered lever's options least drastic first, PAIR_OPTIONS of them over its range; another
        lever's best attempt alone."""
        if lever not in ORDERED:
            return [best[lever]]
        opts = options[lever]
        step = max(1, len(opts) // PAIR_OPTIONS)
        return [{k: o[k] for k in _changed(values, o)} for o in opts[::step][:PAIR_OPTIONS]]

    found = []
    names = list(best)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if set(best[a]) & set(best[b]):
                continue
            trials = sorted(((ia + ib, {**values, **ca, **cb}) for ia, ca in enumerate(spread(a))
                             for ib, cb in enumerate(spread(b))), key=lambda t: t[0])  # least drastic pairs first
            for _, trial in trials:
                try:
                    c = evaluate(trial)
                except ValueError:
                    continue
                if c.passes:
                    found.append(Suggestion(f"{a}+{b}", trial, _changed(values, trial), c))
                    break
    found.sort(key=lambda s: _cost_key(s.check))
    return found[:limit]


def suggest(catalog: Catalog, values: Mapping[str, Any], sizes: Sequence[float], places: Sequence[Place],
            device_choices: Sequence[int], evaluate: Callable[[Mapping[str, Any]], Check] | None = None
            ) -> tuple[list[Suggestion], list[Tried]]:
    """(the levers that make the set-up pass, cheapest first; the others, with their best attempt or
    why they were not tried). A passing set-up gets the levers that pass for less than it costs."""
    evaluate = evaluate or (lambda v: check(catalog, v, search_users=False))
    base = evaluate(values)
    found, tried = [], []
    for lever, options in candidates(catalog, values, sizes, places, device_choices).items():
        if isinstance(options, str):
            tried.append(Tried(lever, None, options))
            continue
        result = _try(catalog, values, lever, options, evaluate)
        if isinstance(result, Suggestion) and base.passes and not _cost_key(result.check)[0] < _cost_key(base)[0]:
            tried.append(Tried(lever, result, "no_saving"))
        elif isinstance(result, Suggestion):
            found.append(result)
        elif (result.reason == "not_enough" and result.best is not None and base.fits
              and not result.best.check.value_s < base.value_s):
            tried.append(Tried(lever, result.best, "slower"))  # its best option is slower than now: never "at best"
        else:
            tried.append(result)
    # cheapest first; at the same monthly cost the change that risks answer quality least (PM re-check: a smaller
    # model, 'quality may be lower', was listed above FP8, 'almost the same as FP16', at the same $4,365)
    found.sort(key=lambda s: (_cost_key(s.check)[0], QUALITY_RISK.get(s.lever, 0), _cost_key(s.check)[1:]))
    return found, tried
