"""Tiny helpers that let one formula run on floats (fast path for `estimate`) and on numpy
arrays (for `estimate_sweep`). Plain operators already work on both; these cover the rest."""

from __future__ import annotations

import math

import numpy as np


def is_scalar(x) -> bool:
    return isinstance(x, (int, float))


def maximum(a, b):
    if is_scalar(a) and is_scalar(b):
        return a if a >= b else b
    return np.maximum(a, b)


def minimum(a, b):
    if is_scalar(a) and is_scalar(b):
        return a if a <= b else b
    return np.minimum(a, b)


def where(cond, a, b):
    if is_scalar(cond) or isinstance(cond, bool):
        return a if cond else b
    return np.where(cond, a, b)


def floor(x):
    if is_scalar(x):
        return float(math.floor(x))
    return np.floor(x)


def as_float(cond):
    """A comparison's result as 1.0 / 0.0 (bool for floats, a float array for arrays)."""
    if isinstance(cond, bool):
        return 1.0 if cond else 0.0
    return np.asarray(cond, dtype=float)


def broadcast_like(value, like):
    """`value` (a float) spread to the shape of `like`: the float itself when `like` is a float,
    else a read-only array of `like`'s shape (np.broadcast_to, no copy)."""
    if is_scalar(like):
        return value
    return np.broadcast_to(np.asarray(value, dtype=float), np.shape(like))


def pow2_ceil(x):
    """Smallest power of two >= x (x >= 1): 1, 2, 4, 8, 16, ..."""
    if is_scalar(x):
        return float(2 ** math.ceil(math.log2(max(x, 1.0)) - 1e-12))
    return 2.0 ** np.ceil(np.log2(np.maximum(x, 1.0)) - 1e-12)


def cbrt(x):
    if is_scalar(x):
        return x ** (1.0 / 3.0)
    return np.cbrt(x)
