"""Figure builders of the "Your logs" and "Measure here" pages: plain functions from numbers to figures.

Every piece of chart text arrives already in the page's language (`names`); values arrive in the
unit the axis shows (the page converts seconds to milliseconds where it shows ms).
"""

from __future__ import annotations

from typing import Callable, Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from latency.charts.style import HIGHLIGHT, STAGE_COLORS, base_layout

LOG_COLOR = STAGE_COLORS["prefill"]  # the palette's blue (5.2:1)
ESTIMATE_COLOR = STAGE_COLORS["decode"]
ESTIMATE_BAND = "rgba(4, 120, 87, 0.22)"  # the estimate's green (decode), the one green band: the captions say "the green band"
WITHIN_BUDGET_FILL = "rgba(71, 85, 105, 0.07)"  # the zone within the budget, grey: a second green band hid the estimate's


def ecdf_points(values: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    """Sorted finite values and the share of requests at or under each (the empirical CDF)."""
    v = np.sort(np.asarray(values, dtype=float))
    v = v[np.isfinite(v)]
    return v, np.arange(1, v.size + 1) / max(v.size, 1)


def band_key(name: str, fill: str, edge: str) -> go.Scatter:
    """A shaded band's entry in the legend: a square of its fill, edged so that a pale fill still shows (a
    band drawn with `add_vrect` has none of its own; logs/measure trial: "what is the grey area?")."""
    return go.Scatter(x=[None], y=[None], mode="markers", name=name, hoverinfo="skip",
                      marker=dict(symbol="square", size=14, color=fill, line=dict(color=edge, width=1)))


PERCENTILE_SYMBOLS = ("circle", "square", "diamond", "triangle-up", "star")
X_HEADROOM = 1.05
"""The x axis ends 5% past the largest value drawn (the curve's last rise, a marker, the band, the target), as the y
axis ends at 105%."""


def ecdf_figure(values: Sequence[float], *, percentiles: Mapping[int, float], names: Mapping[str, str],
                estimate: tuple[float, float, float] | None = None, budget: float | None = None,
                height: int = 340) -> go.Figure:
    """The share of requests at or under each latency, with p50/p90/p95/p99 marked, the estimator's
    figure as a line with its range as a band (estimate = (value, low, high)), and a budget line.

    names: x_title, y_title, requests (legend), estimate, estimate_range, budget, within_budget, percentile
    ("p{p}" template).
    """
    x, y = ecdf_points(values)
    fig = go.Figure()
    if estimate is not None:
        value, low, high = estimate
        fig.add_vrect(x0=low, x1=high, fillcolor=ESTIMATE_BAND, line_width=0, layer="below")
        fig.add_trace(go.Scatter(x=[value, value], y=[0, 1], mode="lines", name=names["estimate"],
                                 line=dict(color=ESTIMATE_COLOR, width=3, dash="dash"), hoverinfo="name+x"))
        fig.add_trace(band_key(names["estimate_range"], ESTIMATE_BAND, ESTIMATE_COLOR))
    if budget is not None:
        fig.add_vrect(x0=0, x1=budget, fillcolor=WITHIN_BUDGET_FILL, line_width=0, layer="below")
        fig.add_trace(go.Scatter(x=[budget, budget], y=[0, 1], mode="lines", name=names["budget"],
                                 line=dict(color=HIGHLIGHT, width=2), hoverinfo="name+x"))
        fig.add_trace(band_key(names["within_budget"], WITHIN_BUDGET_FILL, HIGHLIGHT))
    fig.add_trace(go.Scatter(x=x, y=y, mode="lines", line=dict(color=LOG_COLOR, width=2, shape="hv"),
                             name=names["requests"], hovertemplate="%{x:.3~g} · %{y:.0%}<extra></extra>"))
    # Each percentile a marker of its own shape, named in the legend: a "p95" written beside its point sat
    # on the curve (the steps run just under and beside every point) and on its neighbours' labels.
    ps = [p for p in sorted(percentiles) if np.isfinite(percentiles[p])]
    for p, symbol in zip(ps, PERCENTILE_SYMBOLS * 2):
        label = names["percentile"].format(p=p)
        fig.add_trace(go.Scatter(x=[percentiles[p]], y=[p / 100], mode="markers", name=label,
                                 marker=dict(color=LOG_COLOR, size=11, symbol=symbol, line=dict(color="white", width=1)),
                                 hovertemplate=f"{label}: %{{x:.3~g}}<extra></extra>"))
    # Room right of the largest value: a log whose slowest requests share one value (a 15 s timeout) rises to 100%
    # there, and at the axis' very end that last rise was drawn on the edge and cut (newcomer trial 2026-12-05).
    ends = [float(x[-1])] if x.size else []
    ends += [percentiles[p] for p in ps] + ([estimate[2]] if estimate is not None else []) + ([budget] if budget else [])
    right = max([e for e in ends if np.isfinite(e)], default=0.0)
    fig.update_xaxes(title_text=names["x_title"], rangemode="tozero", **({"range": [0, right * X_HEADROOM]} if right > 0 else {}))
    fig.update_yaxes(title_text=names["y_title"], tickformat=".0%", range=[0, 1.05])
    return base_layout(fig, height=height)


def over_time_figure(timestamps: Sequence, values: Sequence[float], *, names: Mapping[str, str],
                     estimate: float | None = None, budget: float | None = None, height: int = 300) -> go.Figure:
    """Each request's latency at the time it was sent, with the estimator's figure and the budget as
    horizontal lines. names: x_title, y_title, requests, estimate, budget."""
    fig = go.Figure(go.Scatter(x=list(timestamps), y=list(values), mode="markers", name=names["requests"],
                               marker=dict(color=LOG_COLOR, size=5, opacity=0.6),
                               hovertemplate="%{x|%Y-%m-%d %H:%M:%S}<br>%{y:.3~g}<extra></extra>"))
    if estimate is not None:
        fig.add_hline(y=estimate, line=dict(color=ESTIMATE_COLOR, width=3, dash="dash"))
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="lines", name=names["estimate"],
                                 line=dict(color=ESTIMATE_COLOR, width=3, dash="dash")))
    if budget is not None:
        fig.add_hline(y=budget, line=dict(color=HIGHLIGHT, width=2))
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="lines", name=names["budget"],
                                 line=dict(color=HIGHLIGHT, width=2)))
    # numeric dates (plotly's default writes month names in English, on the Korean screen too)
    fig.update_xaxes(title_text=names["x_title"], tickformat="%H:%M\n%Y-%m-%d", hoverformat="%Y-%m-%d %H:%M:%S")
    fig.update_yaxes(title_text=names["y_title"], rangemode="tozero")
    return base_layout(fig, height=height)


def compare_figure(labels: Sequence[str], measured: Sequence[float], predicted: Sequence[float], *,
                   names: Mapping[str, str], fmt: Callable[[float], str], height: int = 300) -> go.Figure:
    """Measured beside predicted, one pair of bars per figure (same unit within the figure), each bar
    labelled with fmt(value). names: measured, predicted, y_title."""
    fig = go.Figure([
        go.Bar(x=list(labels), y=list(measured), name=names["measured"], marker_color=LOG_COLOR,
               text=[fmt(v) for v in measured], textposition="outside", hoverinfo="name+text"),
        go.Bar(x=list(labels), y=list(predicted), name=names["predicted"], marker_color=ESTIMATE_COLOR,
               text=[fmt(v) for v in predicted], textposition="outside", hoverinfo="name+text"),
    ])
    fig.update_layout(barmode="group")
    fig.update_yaxes(title_text=names["y_title"], rangemode="tozero")
    return base_layout(fig, height=height)
