"""Model sizes: the size slider's steps and the model built for a size. Never imports streamlit.

- Steps: a geometric grid from 0.5 B to 2,000 B, no step more than 15% above the one before, merged
  with the sizes of the catalog models, so moving the slider lands on real models (Llama 3.1 8B at
  8.03 B, ...).
- A size that is a catalog model of the chosen architecture uses that model's published config;
  any other size is built with the estimator's documented scaling rule
  (`latency.estimation.estimator.model_shape`: Kaplan et al. 2020, P = 12 L d^2, d = 128 L), taking the MoE
  active share or the loop count from the closest catalog model of that architecture.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass, replace
from typing import Sequence

from latency.estimation.catalog import Catalog, ModelEntry
from latency.estimation.estimator import ARCHITECTURES, Model

SIZE_MIN_B, SIZE_MAX_B = 0.5, 2000.0
E24 = (1.0, 1.1, 1.2, 1.3, 1.5, 1.6, 1.8, 2.0, 2.2, 2.4, 2.7, 3.0, 3.3, 3.6, 3.9, 4.3, 4.7, 5.1, 5.6, 6.2, 6.8,
       7.5, 8.2, 9.1)
"""The E24 series of preferred numbers (IEC 60063): 24 steps a decade, each at most 10% above the last."""
SIZE_GRID_B = tuple(sorted({SIZE_MIN_B, SIZE_MAX_B} | {round(m * 10.0 ** e, 6) for e in range(-1, 4) for m in E24
                                                       if 1.05 * SIZE_MIN_B <= m * 10.0 ** e <= SIZE_MAX_B}))
"""Slider sizes between catalog models: E24 from 0.5 B to 2,000 B, so no step is more than about 15%
above the one before even where a catalog size replaces a grid step (issue 9: no coarser than ~15%)."""
SIZE_MERGE_TOLERANCE = 0.03
"""A grid size within 3% of a catalog size is dropped for it (a gap then stays under 1.10 x 1.03)."""
MERGE_TOLERANCE = 0.06
"""A grid step within 6% of a named value (catalog size, named stop) is dropped for that value."""


def merge_steps(grid: Sequence[float], named: Sequence[float], lo: float, hi: float,
                tolerance: float = MERGE_TOLERANCE) -> tuple[float, ...]:
    """The grid plus the named values in [lo, hi]; grid steps within `tolerance` of a named value go."""
    named = sorted({float(v) for v in named if lo <= v <= hi})

    def near(g: float) -> bool:
        return any(abs(g - v) <= tolerance * max(v, 1e-9) for v in named)

    return tuple(sorted({float(g) for g in grid if lo <= g <= hi and not near(g)} | set(named)))


def snap(value: float, steps: Sequence[float], log: bool = True) -> float:
    """The step nearest to `value` (in log distance when `log` and both are positive)."""
    if not steps:
        raise ValueError("no steps to snap to")
    i = bisect.bisect_left(steps, value)
    cands = [steps[j] for j in (i - 1, i) if 0 <= j < len(steps)]

    def dist(s: float) -> float:
        if log and s > 0 and value > 0:
            return abs(math.log(s / value))
        return abs(s - value)

    return min(cands, key=dist)


def size_steps(catalog: Catalog) -> tuple[float, ...]:
    return merge_steps(SIZE_GRID_B, [m.model.params_b for m in catalog.models.values()], SIZE_MIN_B, SIZE_MAX_B,
                       SIZE_MERGE_TOLERANCE)


@dataclass(frozen=True)
class SizedModel:
    """The model the page estimates, and where its shape comes from.

    entry: the catalog model whose published config is used (size and architecture match), else
    None. reference: the catalog model that lent its MoE active share or loop count (scaled
    models of those architectures), else None. `model` has no layer/head fields when scaled, so
    the estimator's scaling rule (model_shape) applies.
    """

    model: Model
    entry: ModelEntry | None
    reference: ModelEntry | None

    @property
    def scaled(self) -> bool:
        return self.entry is None


def closest_of_arch(catalog: Catalog, arch: str, size_b: float) -> ModelEntry | None:
    """The catalog model of architecture `arch` closest in log size to `size_b`."""
    same = [m for m in catalog.models.values() if m.model.arch == arch]
    return min(same, key=lambda m: abs(math.log(m.model.params_b / size_b))) if same else None


def sized_model(catalog: Catalog, size_b: float, arch: str, bytes_per_param: float) -> SizedModel:
    """The model for a slider position: the catalog config if one matches, else a scaled one."""
    if arch not in ARCHITECTURES:
        raise ValueError(f"arch must be one of {ARCHITECTURES}, got {arch!r}")
    for entry in catalog.models.values():
        if entry.model.arch == arch and math.isclose(entry.model.params_b, size_b, rel_tol=1e-6):
            return SizedModel(replace(entry.model, bytes_per_param=bytes_per_param), entry, None)
    ref = closest_of_arch(catalog, arch, size_b) if arch != "dense" else None
    return SizedModel(scaled_model(size_b, arch, bytes_per_param, ref), None, ref)


def scaled_model(size_b: float, arch: str, bytes_per_param: float, reference: ModelEntry | None) -> Model:
    """A model of `size_b` total parameters without a published shape (the estimator scales it).

    MoE: active parameters = size x the reference's active share (Qwen3-235B-A22B: 22/235).
    Looped: the reference's loop count and loop KV window (IQuest-Coder-V1-40B-Loop: 2 loops, 64).
    """
    name = f"{size_b:g}B {arch}"
    if arch == "moe" and reference is not None:
        share = reference.model.active_b / reference.model.params_b
        return Model(name=name, params_b=size_b, bytes_per_param=bytes_per_param,
                     active_params_b=size_b * share, architecture="moe")
    if arch == "looped" and reference is not None:
        return Model(name=name, params_b=size_b, bytes_per_param=bytes_per_param, architecture="looped",
                     loops=reference.model.loops, loop_kv_window=reference.model.loop_kv_window)
    return Model(name=name, params_b=size_b, bytes_per_param=bytes_per_param, architecture="dense")


def sweep_model(catalog: Catalog, size_b: float, arch: str, bytes_per_param: float) -> Model:
    """The shape-free model used for the size sweep (its active share or loops from the catalog
    model of `arch` closest to the current size), so every size on the curve follows one rule."""
    ref = closest_of_arch(catalog, arch, size_b) if arch != "dense" else None
    return scaled_model(size_b, arch, bytes_per_param, ref)


