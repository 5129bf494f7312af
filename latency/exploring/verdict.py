"""A time against a budget: within, over, or too close to call given the estimate's range."""

from __future__ import annotations

from dataclasses import dataclass


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


def verdict(value_s: float, low_s: float, high_s: float, budget_s: float, abandon_s: float | None = None) -> Verdict:
    if not budget_s > 0:
        raise ValueError(f"budget_s must be > 0, got {budget_s!r}")
    if high_s <= budget_s:
        kind = "within"
    elif low_s > budget_s:
        kind = "over"
    else:
        kind = "uncertain"
    return Verdict(kind, value_s / budget_s, abandon_s is not None and value_s >= abandon_s)
