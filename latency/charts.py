"""Figure builders of the estimator page: plain functions from numbers to plotly figures.

Every piece of chart text (titles, axes, legend names, hover, labels) is passed in already in
the page's language; nothing here knows a language. Times are seconds; `fmt_s` turns a number
of seconds into display text (e.g. "0.82초" / "0.82 s") so hover text matches the metrics.

Lean on purpose (a slider move redraws all of them): few traces, arrays rather than one trace
per point, labels as text traces rather than annotations (annotations on log axes need log10
coordinates, a classic plotly trap), and the shared look from `chart_style.base_layout`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from latency.chart_style import BUDGET_FILL, FONT_FAMILY, HIGHLIGHT, STAGE_COLORS, base_layout

FmtS = Callable[[float], str]
NOFIT_COLOR = "#94a3b8"
BUDGET_LINE = "#059669"
OTHER_BUDGET_LINE = "#9ca3af"
RANGE_FILL = "rgba(37, 99, 235, 0.18)"
CONFIG = {"displaylogo": False, "modeBarButtonsToRemove": ["select2d", "lasso2d", "autoScale2d"], "responsive": True}
"""plotly config for st.plotly_chart: no logo, no selection tools the page has no use for."""


def _log_range(values: Sequence[float], pad: float = 1.6) -> list[float]:
    """A log10 axis range that shows every positive value with a margin."""
    pos = [v for v in values if v is not None and math.isfinite(v) and v > 0]
    if not pos:
        return [-1.0, 1.0]
    lo, hi = min(pos) / pad, max(pos) * pad
    return [math.log10(lo), math.log10(hi)]


# --------------------------------------------------------------------------------------------
# 2. Timeline of one request
# --------------------------------------------------------------------------------------------

def timeline_figure(
    stages: Sequence[tuple[str, str, float]],
    *,
    ttft_s: float,
    ttft_label: str,
    axis_title: str,
    fmt_s: FmtS,
    height: int = 190,
) -> go.Figure:
    """One request as consecutive stages on a time axis, with the first token marked.

    stages: ``(stage key, label, seconds)`` in order (network, queue, prefill, decode); the
    key picks the colour from STAGE_COLORS. ttft_label: text of the marker, e.g. "첫 토큰".
    """
    fig = go.Figure()
    start = 0.0
    total = sum(max(s, 0.0) for _, _, s in stages) or 1.0
    for key, label, seconds in stages:
        seconds = max(float(seconds), 0.0)
        fig.add_trace(go.Bar(
            x=[seconds], base=[start], y=[""], orientation="h", name=label,
            marker_color=STAGE_COLORS.get(key, "#6b7280"),
            text=[f"{label} {fmt_s(seconds)}" if seconds / total > 0.12 else ""],
            textposition="inside", insidetextanchor="middle", textfont=dict(color="white"),
            hovertemplate=f"{label}: {fmt_s(seconds)}<extra></extra>",
        ))
        start += seconds
    base_layout(fig, height=height)
    fig.add_shape(type="line", x0=ttft_s, x1=ttft_s, y0=-0.5, y1=0.75, line=dict(color=HIGHLIGHT, width=2, dash="dot"))
    fig.add_annotation(x=ttft_s, y=0.75, text=f"{ttft_label} {fmt_s(ttft_s)}", showarrow=False,
                       yanchor="bottom", font=dict(color=HIGHLIGHT, family=FONT_FAMILY, size=12),
                       xanchor="left" if ttft_s < 0.6 * start else "right")
    fig.update_layout(barmode="overlay", showlegend=True, bargap=0.35,
                      uniformtext=dict(minsize=10, mode="hide"))
    fig.update_xaxes(title_text=axis_title, range=[0, start * 1.02], rangemode="tozero")
    fig.update_yaxes(showticklabels=False, range=[-0.6, 1.1], fixedrange=True)
    return fig


# --------------------------------------------------------------------------------------------
# 3. Latency versus model size
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Budget:
    """A use-case budget line: label, seconds, and whether it is the one the verdict uses."""

    label: str
    seconds: float
    selected: bool = False


def size_figure(
    sizes: Sequence[float],
    ttft: Sequence[float],
    total: Sequence[float],
    fits: Sequence[bool],
    *,
    current_size: float,
    current_ttft: float,
    current_total: float,
    ttft_range: tuple[float, float],
    total_range: tuple[float, float],
    budgets: Sequence[Budget],
    bottleneck_text: str,
    names: Mapping[str, str],
    fmt_s: FmtS,
    height: int = 420,
) -> go.Figure:
    """TTFT and total time against model size (log–log), the current point with its range.

    fits: whether each size fits the chosen hardware (within its device limit); sizes that
    do not are drawn grey and dashed ("would not fit"). budgets: horizontal lines, the
    selected one as a shaded band from the bottom of the chart up to it.
    names: x_title, y_title, ttft, total, current, no_fit, size_hover.
    """
    x = np.asarray(sizes, dtype=float)
    yt = np.asarray(ttft, dtype=float)
    ya = np.asarray(total, dtype=float)
    ok = np.asarray(fits, dtype=bool)
    values = list(yt) + list(ya) + [b.seconds for b in budgets] + [total_range[1], ttft_range[0]]
    yr = _log_range(values, pad=1.5)
    xr = _log_range(list(x), pad=1.15)
    fig = go.Figure()
    size_hover = names["size_hover"]

    # Budgets first, so they sit behind the data: the chosen one as a band from the bottom of
    # the chart up to its line, the others as dotted lines.
    for b in (b for b in budgets if b.selected):
        fig.add_trace(go.Scatter(
            x=[10 ** xr[0], 10 ** xr[1], 10 ** xr[1], 10 ** xr[0]],
            y=[10 ** yr[0], 10 ** yr[0], b.seconds, b.seconds], mode="lines", fill="toself",
            fillcolor=BUDGET_FILL, line=dict(width=0), showlegend=False, hoverinfo="skip"))
        fig.add_trace(go.Scatter(
            x=[10 ** xr[0], 10 ** xr[1]], y=[b.seconds, b.seconds], mode="lines",
            line=dict(color=BUDGET_LINE, width=2), showlegend=False, hoverinfo="skip"))
    others = [b for b in budgets if not b.selected]
    if others:
        bx, by = [], []
        for b in others:
            bx += [10 ** xr[0], 10 ** xr[1], None]
            by += [b.seconds, b.seconds, None]
        fig.add_trace(go.Scatter(x=bx, y=by, mode="lines", line=dict(color=OTHER_BUDGET_LINE, width=1, dash="dot"),
                                 showlegend=False, hoverinfo="skip"))
    if budgets:
        fig.add_trace(go.Scatter(
            x=[10 ** (xr[0] + 0.02 * (xr[1] - xr[0]))] * len(budgets), y=[b.seconds for b in budgets],
            mode="text", text=[b.label for b in budgets], textposition="top right",
            textfont=dict(size=11, color=[BUDGET_LINE if b.selected else "#6b7280" for b in budgets]),
            showlegend=False, hoverinfo="skip"))

    for y, name, color in ((ya, names["total"], STAGE_COLORS["decode"]), (yt, names["ttft"], STAGE_COLORS["prefill"])):
        fig.add_trace(go.Scatter(
            x=x, y=np.where(ok, y, np.nan), mode="lines", name=name, line=dict(color=color, width=3),
            hovertemplate=f"{size_hover} %{{x:,.3~g}}B · {name} %{{customdata}}<extra></extra>",
            customdata=[fmt_s(v) for v in y]))
    if not ok.all():
        # Dashed grey where it does not fit; repeat the boundary point so the line joins up.
        grey = ~ok | np.r_[~ok[1:], False] | np.r_[False, ~ok[:-1]]
        fig.add_trace(go.Scatter(
            x=np.r_[x, np.nan, x], y=np.r_[np.where(grey, ya, np.nan), np.nan, np.where(grey, yt, np.nan)],
            mode="lines", name=names["no_fit"], line=dict(color=NOFIT_COLOR, width=2, dash="dash"),
            hoverinfo="skip"))

    fig.add_trace(go.Scatter(
        x=[current_size, current_size], y=[current_total, current_ttft], mode="markers",
        name=names["current"], marker=dict(color=HIGHLIGHT, size=12, line=dict(color="white", width=2)),
        error_y=dict(type="data", symmetric=False,
                     array=[total_range[1] - current_total, ttft_range[1] - current_ttft],
                     arrayminus=[current_total - total_range[0], current_ttft - ttft_range[0]],
                     color=HIGHLIGHT, thickness=1.5, width=6),
        hovertemplate=[f"{names['total']} {fmt_s(current_total)} ({fmt_s(total_range[0])}–{fmt_s(total_range[1])})<extra></extra>",
                       f"{names['ttft']} {fmt_s(current_ttft)} ({fmt_s(ttft_range[0])}–{fmt_s(ttft_range[1])})<extra></extra>"]))
    fig.add_trace(go.Scatter(
        x=[current_size], y=[current_total], mode="text", text=[bottleneck_text],
        textposition="top left" if current_size > 10 ** ((xr[0] + xr[1]) / 2) else "top right",
        textfont=dict(color=HIGHLIGHT, size=12), showlegend=False, hoverinfo="skip"))

    base_layout(fig, height=height)
    fig.update_xaxes(type="log", range=xr, title_text=names["x_title"])
    fig.update_yaxes(type="log", range=yr, title_text=names["y_title"])
    return fig


# --------------------------------------------------------------------------------------------
# 4. The same model on every device
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class DeviceRow:
    label: str
    ttft_s: float
    total_s: float
    fits: bool
    current: bool = False


def devices_figure(rows: Sequence[DeviceRow], *, names: Mapping[str, str], fmt_s: FmtS, row_px: int = 26) -> go.Figure:
    """Total time (bar) and time to first token (diamond) on each device, fastest on top.

    Devices where the model does not fit are listed at the bottom with a grey "does not fit"
    label and no bar: there is no time to show. The chosen device is highlighted.
    names: x_title, total, ttft, no_fit.
    """
    fitting = sorted((r for r in rows if r.fits), key=lambda r: r.total_s)
    rest = [r for r in rows if not r.fits]
    ordered = fitting + rest
    labels = [("▶ " if r.current else "") + r.label for r in ordered]
    xr = _log_range([r.total_s for r in fitting] + [r.ttft_s for r in fitting], pad=1.4)
    floor = 10 ** xr[0]
    fig = go.Figure()
    fig.add_trace(go.Bar(
        y=labels[: len(fitting)], x=[r.total_s for r in fitting], orientation="h", name=names["total"],
        marker_color=[HIGHLIGHT if r.current else STAGE_COLORS["decode"] for r in fitting],
        customdata=[fmt_s(r.total_s) for r in fitting],
        hovertemplate=f"%{{y}}<br>{names['total']} %{{customdata}}<extra></extra>",
    ))
    fig.add_trace(go.Scatter(
        y=labels[: len(fitting)], x=[r.ttft_s for r in fitting], mode="markers", name=names["ttft"],
        marker=dict(symbol="diamond", size=9, color=STAGE_COLORS["prefill"], line=dict(color="white", width=1)),
        customdata=[fmt_s(r.ttft_s) for r in fitting],
        hovertemplate=f"%{{y}}<br>{names['ttft']} %{{customdata}}<extra></extra>",
    ))
    if rest:
        fig.add_trace(go.Scatter(
            y=labels[len(fitting):], x=[floor * 1.05] * len(rest), mode="text",
            text=["✕ " + names["no_fit"]] * len(rest), textposition="middle right",
            textfont=dict(color=HIGHLIGHT if any(r.current for r in rest) else NOFIT_COLOR, size=12),
            name=names["no_fit"], showlegend=False, hoverinfo="skip",
        ))
    base_layout(fig, height=max(220, 90 + row_px * len(ordered)))
    fig.update_xaxes(type="log", range=xr, title_text=names["x_title"])
    fig.update_yaxes(autorange="reversed", categoryorder="array", categoryarray=labels, automargin=True)
    fig.update_layout(bargap=0.3)
    return fig


# --------------------------------------------------------------------------------------------
# 5. Time to first token versus distance
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Stop:
    label: str
    km: float
    ttft_s: float


def distance_figure(
    distances: Sequence[float],
    ttft: Sequence[float],
    network: Sequence[float],
    *,
    stops: Sequence[Stop],
    current_km: float,
    current_ttft: float,
    names: Mapping[str, str],
    fmt_s: FmtS,
    height: int = 380,
) -> go.Figure:
    """TTFT against distance, the network stage's share below it, named places as labelled dots.

    names: x_title, y_title, ttft, network, current, places.
    """
    fig = go.Figure()
    d = np.asarray(distances, dtype=float)
    fig.add_trace(go.Scatter(
        x=d, y=np.asarray(network, dtype=float), mode="lines", name=names["network"], fill="tozeroy",
        line=dict(color=STAGE_COLORS["network"], width=1), fillcolor="rgba(100, 116, 139, 0.25)",
        customdata=[fmt_s(v) for v in network],
        hovertemplate=f"%{{x:,.0f}} km · {names['network']} %{{customdata}}<extra></extra>"))
    fig.add_trace(go.Scatter(
        x=d, y=np.asarray(ttft, dtype=float), mode="lines", name=names["ttft"],
        line=dict(color=STAGE_COLORS["prefill"], width=3), customdata=[fmt_s(v) for v in ttft],
        hovertemplate=f"%{{x:,.0f}} km · {names['ttft']} %{{customdata}}<extra></extra>"))
    # Alternate label positions so neighbouring stops (US West 9,000 km, Europe 8,900 km) do not overlap.
    order = sorted(range(len(stops)), key=lambda i: stops[i].km)
    positions = ["top center", "bottom center"]
    fig.add_trace(go.Scatter(
        x=[stops[i].km for i in order], y=[stops[i].ttft_s for i in order], mode="markers+text",
        text=[stops[i].label for i in order], name=names["places"],
        textposition=[positions[j % 2] for j in range(len(order))],
        textfont=dict(size=11), marker=dict(color="#111827", size=7), showlegend=False,
        customdata=[fmt_s(stops[i].ttft_s) for i in order],
        hovertemplate="%{text} (%{x:,.0f} km)<br>" + names["ttft"] + " %{customdata}<extra></extra>"))
    fig.add_trace(go.Scatter(
        x=[current_km], y=[current_ttft], mode="markers", name=names["current"],
        marker=dict(color=HIGHLIGHT, size=13, line=dict(color="white", width=2)),
        hovertemplate=f"%{{x:,.0f}} km · {names['ttft']} {fmt_s(current_ttft)}<extra></extra>"))
    top = max(list(ttft) + [current_ttft]) * 1.18
    base_layout(fig, height=height)
    fig.update_xaxes(title_text=names["x_title"], range=[-400, max(d.max(), current_km) * 1.04])
    fig.update_yaxes(title_text=names["y_title"], range=[0, top], rangemode="tozero")
    return fig


# --------------------------------------------------------------------------------------------
# 6. Presets against the ranges the entry states
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PresetRow:
    label: str
    estimate_s: float
    low_s: float
    high_s: float
    stated_low_s: float | None   # None: the entry states no range (exam grading)
    stated_high_s: float | None
    symbol: str = "circle"       # marker: e.g. "diamond" for time to first token, "circle" for the full answer


def presets_figure(rows: Sequence[PresetRow], *, names: Mapping[str, str], fmt_s: FmtS, row_px: int = 40) -> go.Figure:
    """Each preset's estimate (dot with its uncertainty range) over the range the entry states
    (a wide translucent bar). A stated low of 0 ("under 1 s") starts at the left edge.
    names: x_title, estimate, stated.
    """
    labels = [r.label for r in rows]
    xs = [r.low_s for r in rows] + [r.high_s for r in rows]
    xs += [v for r in rows for v in (r.stated_low_s, r.stated_high_s) if v]
    xr = _log_range(xs, pad=1.5)
    floor = 10 ** xr[0]
    fig = go.Figure()
    bx, by, tips = [], [], []
    for r in rows:
        if r.stated_high_s is None:
            continue
        lo = max(r.stated_low_s or 0.0, floor)
        bx += [lo, r.stated_high_s, None]
        by += [r.label, r.label, None]
    fig.add_trace(go.Scatter(
        x=bx, y=by, mode="lines", name=names["stated"], line=dict(color=RANGE_FILL, width=16),
        hoverinfo="skip"))
    fig.add_trace(go.Scatter(
        x=[r.estimate_s for r in rows], y=labels, mode="markers", name=names["estimate"],
        marker=dict(color=HIGHLIGHT, size=11, symbol=[r.symbol for r in rows], line=dict(color="white", width=1.5)),
        error_x=dict(type="data", symmetric=False, array=[r.high_s - r.estimate_s for r in rows],
                     arrayminus=[r.estimate_s - r.low_s for r in rows], color=HIGHLIGHT, thickness=1.5, width=5),
        customdata=[[fmt_s(r.estimate_s), fmt_s(r.low_s), fmt_s(r.high_s)] for r in rows],
        hovertemplate="%{y}<br>" + names["estimate"] + " %{customdata[0]} (%{customdata[1]}–%{customdata[2]})<extra></extra>"))
    base_layout(fig, height=max(240, 100 + row_px * len(rows)))
    fig.update_xaxes(type="log", range=xr, title_text=names["x_title"])
    fig.update_yaxes(autorange="reversed", categoryorder="array", categoryarray=labels, automargin=True)
    return fig
