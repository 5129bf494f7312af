"""Test helpers shared by unit and page tests (never imported by app code or benchmarks)."""

from __future__ import annotations

import base64

import numpy as np


def plotly_array(value) -> np.ndarray:
    """An array of a plotly figure's JSON (or `to_dict`): a plain list (None = gap, read as NaN) or
    plotly's base64 typed array ({"dtype", "bdata", "shape"})."""
    if isinstance(value, dict) and "bdata" in value:
        shape = tuple(int(x) for x in str(value.get("shape", "-1")).split(","))
        return np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"])).reshape(shape)
    return np.asarray(value, dtype=float)


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


def follow_link_in_session(at, params: dict, lead: str) -> str:
    """Follow an in-app link's query `params` in the same session (as a click does) and return the note on what
    it changed: shown twice, at the top and again beside the links, the same words both times."""
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception
    notes = [i.value for i in at.info if lead in i.value]
    assert len(notes) == 2 and notes[0] == notes[1], notes  # at the top, and beside the links (PM try, stop 40)
    return notes[0]
