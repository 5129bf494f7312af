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


def pow2_ceil(x):
    """Smallest power of two >= x (x >= 1): 1, 2, 4, 8, 16, ..."""
    if is_scalar(x):
        return float(2 ** math.ceil(math.log2(max(x, 1.0)) - 1e-12))
    return 2.0 ** np.ceil(np.log2(np.maximum(x, 1.0)) - 1e-12)


def cbrt(x):
    if is_scalar(x):
        return x ** (1.0 / 3.0)
    return np.cbrt(x)
