"""Test helpers shared by unit and page tests (never imported by app code or benchmarks)."""

from __future__ import annotations


class FakeClock:
    """A clock whose `sleep` only moves time forward: for tests and benchmarks."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += max(seconds, 0.0)
