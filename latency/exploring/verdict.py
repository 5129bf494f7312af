"""A time against a budget: within, over, or too close to call given the estimate's range."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Verdict:
    """How a time compares with a budget.

    kind: "within" (even the high end of the range is inside), "over" (even the low end is
    over), "uncertain" (the range straddles the budget). ratio: value / budget. abandon: the
    value reaches the point where users leave (when the use case states one).
    """

    kind: str
    ratio: float
    abandon: bool


def verdict(value_s: float, low_s: float, high_s: float, budget_s: float, abandon_s: float | None = None,
            shown: Callable[[float], float] | None = None) -> Verdict:
    """`shown`: the range's ends as the page prints them (latency.language.formats.seconds_value), so
    the verdict agrees with the range the reader sees: "0.11–0.2 s" against a 0.2 s budget is
    within, whether the high end was 0.198 or 0.2004 before rounding."""
    if shown is not None:
        low_s, high_s = shown(low_s), shown(high_s)
    if not budget_s > 0:
        raise ValueError(f"budget_s must be > 0, got {budget_s!r}")
    if high_s <= budget_s:
        kind = "within"
    elif low_s > budget_s:
        kind = "over"
    else:
        kind = "uncertain"
    return Verdict(kind, value_s / budget_s, abandon_s is not None and value_s >= abandon_s)
