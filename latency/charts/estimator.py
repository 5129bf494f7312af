"""Figure builders of the estimator page's chart tabs: plain functions from numbers to plotly figures.
The two charts redrawn on every slider move (time against model size, the timeline) are Vega-Lite,
in latency/charts/live.py (their budget values stand in the margin beside the plot, `value_labels`,
where no line can run through them). The distance chart's labels are packed for the narrowest plot
(`stop_labels`).

Every piece of chart text (titles, axes, legend names, hover, labels) is passed in already in
the page's language; nothing here knows a language. Times are seconds; `fmt_s` turns a number
of seconds into display text (e.g. "0.82초" / "0.82 s") so hover text matches the metrics.

Lean on purpose, because an open tab's chart is redrawn on every slider move:
- each figure is built in one go from plain dicts (`_figure`), without plotly's per-property
  validation, which costs 10-50 ms a figure (most of it re-validating the template that
  `chart_style.base_layout` sets). The shared look is still `base_layout`'s: it is applied once to
  an empty figure and its layout reused (`_style`). tests/charts/test_charts.py re-validates every
  figure with plotly's validators, so a typo in a property name still fails a test;
- few traces (arrays rather than one trace per point), labels as text traces or paper-anchored
  annotations (annotations at data positions on log axes need log10 coordinates, a plotly trap).
"""

from __future__ import annotations

import base64
import functools
import math
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from latency.charts.style import (BUDGET, FONT_FAMILY, HIGHLIGHT, INK, INK_MUTED, LINE_MUTED, NOFIT, STAGE_COLORS, TOTAL,
                                  base_layout)

FmtS = Callable[[float], str]
NOFIT_COLOR = NOFIT
BUDGET_LINE = BUDGET
OTHER_BUDGET_LINE = LINE_MUTED
RANGE_FILL = "rgba(37, 99, 235, 0.18)"  # the prefill blue, light: a band behind the line, decoration
TOTAL_COLOR = TOTAL  # full answer: distinct from the budget green, TTFT blue and the red highlight
TEXT_COLOR = INK


# --------------------------------------------------------------------------------------------
# Building blocks
# --------------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def _style() -> dict[str, Any]:
    """`chart_style.base_layout` applied once to an empty figure, as a layout dict (never mutated).
    Without the template: each figure takes plotly's default (chart_style.TEMPLATE) as it is built,
    the same JSON, without copying the template's dict into the figure first."""
    layout = base_layout(go.Figure()).layout.to_plotly_json()
    layout.pop("template", None)
    return layout


def _merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """`over` on top of `base`, recursing into nested dicts; `base` is left as it is."""
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _figure(traces: list[dict[str, Any]], layout: Mapping[str, Any]) -> go.Figure:
    """One figure from trace and layout dicts, in the shared look, without per-property validation."""
    return figure_of(_spec(traces, layout))


def _spec(traces: list[dict[str, Any]], layout: Mapping[str, Any]) -> dict[str, Any]:
    """A figure as plain dicts, {"data": traces, "layout": layout in the shared look}: what a
    `*_spec` builder returns (the page hands it to Streamlit as it is, ui/charts.py `show_spec`)."""
    return {"data": traces, "layout": _merge(_style(), layout)}


def figure_of(spec: Mapping[str, Any]) -> go.Figure:
    """The plotly Figure of a spec (plotly's default template added), without per-property validation."""
    return go.Figure(data=spec["data"], layout=spec["layout"], _validate=False)


def _log_range(values: Sequence[float], pad: float = 1.6) -> list[float]:
    """A log10 axis range that shows every positive value with a margin."""
    pos = [v for v in values if v is not None and math.isfinite(v) and v > 0]
    if not pos:
        return [-1.0, 1.0]
    lo, hi = min(pos) / pad, max(pos) * pad
    return [math.log10(lo), math.log10(hi)]


def _log_ticks(log_range: Sequence[float]) -> dict[str, list]:
    """Tick values and labels for a log axis: 1-2-5 steps over up to two decades, else decades only
    (plotly's own log ticks print bare "2" and "5" digits that read as noise on a phone)."""
    lo, hi = log_range
    mult = (1, 2, 5) if hi - lo <= 2.2 else (1,)
    vals = [m * 10.0 ** e for e in range(math.floor(lo), math.ceil(hi) + 1) for m in mult]
    vals = [v for v in vals if lo <= math.log10(v) <= hi]
    return dict(tickvals=vals, ticktext=[_plain(v) for v in vals])


def _plain(v: float) -> str:
    """A tick number: 0.05, 0.5, 2, 10, 1,000."""
    return f"{v:,.0f}" if v >= 1 else f"{v:.3g}"


def _log_axis(log_range: Sequence[float], title: str) -> dict[str, Any]:
    return dict(type="log", range=list(log_range), title=dict(text=title), **_log_ticks(log_range))


def typed_array(values: Any) -> dict[str, str]:
    """Floats for a plotly trace in plotly.js's typed-array form ({"dtype": "f8", "bdata": base64 of
    the float64 bytes, "shape": "rows, cols" for 2-D}), the form plotly.py itself writes numpy
    arrays in. NaN (or None) is a gap in a line or an empty heatmap cell.

    Why not a list: a list is copied item by item wherever plotly copies a figure, and every number
    is text in the JSON, which plotly's encoder writes, parses back (to turn NaN into null) and
    writes again; a size chart's 250 numbers are one short string this way."""
    arr = np.ascontiguousarray(np.asarray(values, dtype=float))
    out = {"dtype": "f8", "bdata": base64.b64encode(arr.tobytes()).decode("ascii")}
    if arr.ndim > 1:
        out["shape"] = ", ".join(str(n) for n in arr.shape)
    return out


def _arr(values: Sequence[float]) -> dict[str, str]:
    """A 1-D float series for a trace (`typed_array`); None is a gap."""
    return typed_array([np.nan if v is None else v for v in values])


def _texts(values: Sequence[str]) -> list[str]:
    """Hover or label texts for a plotly trace, as a plain list: every JSON engine plotly has writes it
    directly (orjson declines a numpy unicode array, and plotly then walks the whole figure to clean it)."""
    return list(values)


# --------------------------------------------------------------------------------------------
# 3. Budgets on the size chart (latency/charts/live.py draws it)
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Budget:
    """A use-case budget line: label, seconds, and whether it is the one the verdict uses."""

    label: str
    seconds: float
    selected: bool = False


PHONE_PLOT_W = 300   # px: the narrowest plot area (390 px phone); label packing assumes it, wider is safer
LINE_PX = 14         # px: one line of 11 px chart text
CHAR_PX = 6.6        # px: average width of one character of 11 px text (Hangul ~11)


@functools.lru_cache(maxsize=4096)  # the same labels are measured on every rerun
def text_px(text: str) -> float:
    """Rough width in px of one line of 11 px chart text (Hangul and CJK count wider)."""
    return sum(11.0 if ord(ch) >= 0x1100 else CHAR_PX for ch in text)


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


def devices_figure(rows: Sequence[DeviceRow], *, names: Mapping[str, str], fmt_s: FmtS, row_px: int = 38) -> go.Figure:
    """Total time (bar) and time to first token (diamond) on each device, fastest on top.

    Each device's name sits above its bar rather than in the axis margin, so long names
    ("CPU server (2x AMD EPYC 9654, ...)") leave the bars the full width on a phone. Devices where
    the model does not fit are listed at the bottom with a "does not fit" label and no bar: there
    is no time to show. The chosen device is highlighted. names: x_title, total, ttft, no_fit.
    """
    fitting = sorted((r for r in rows if r.fits), key=lambda r: r.total_s)
    ordered = fitting + [r for r in rows if not r.fits]
    xr = _log_range([r.total_s for r in fitting] + [r.ttft_s for r in fitting], pad=1.4)
    floor = 10 ** xr[0]
    bar_y = [i + 0.2 for i in range(len(fitting))]  # bars in the lower part of each row,
    label_y = [i - 0.22 for i in range(len(ordered))]  # each name just above its bar
    traces = [
        dict(type="bar", y=bar_y, x=[r.total_s for r in fitting], orientation="h", width=0.42, name=names["total"],
             marker=dict(color=[HIGHLIGHT if r.current else TOTAL_COLOR for r in fitting]),
             customdata=[[r.label, fmt_s(r.total_s)] for r in fitting],
             hovertemplate=f"%{{customdata[0]}}<br>{names['total']} %{{customdata[1]}}<extra></extra>"),
        dict(type="scatter", y=bar_y, x=[r.ttft_s for r in fitting], mode="markers", name=names["ttft"],
             marker=dict(symbol="diamond", size=9, color=STAGE_COLORS["prefill"], line=dict(color="white", width=1)),
             customdata=[[r.label, fmt_s(r.ttft_s)] for r in fitting],
             hovertemplate=f"%{{customdata[0]}}<br>{names['ttft']} %{{customdata[1]}}<extra></extra>"),
        dict(type="scatter", y=label_y, x=[floor] * len(ordered), mode="text", showlegend=False, hoverinfo="skip",
             text=[("▶ " if r.current else "") + r.label + ("" if r.fits else f"  ✕ {names['no_fit']}") for r in ordered],
             textposition="middle right", cliponaxis=False,
             textfont=dict(size=12, color=[HIGHLIGHT if r.current else (TEXT_COLOR if r.fits else NOFIT_COLOR) for r in ordered])),
    ]
    return _figure(traces, dict(
        height=max(220, 90 + row_px * len(ordered)), margin=dict(l=4, r=10),
        xaxis=_log_axis(xr, names["x_title"]),
        yaxis=dict(range=[len(ordered) - 0.4, -0.6], showticklabels=False, showgrid=False, zeroline=False, fixedrange=True),
    ))


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

    Stops closer than 4% of the axis (same building and same city; Europe and US West) share a
    label. Labels sit in a band above all the data, each with a thin leader down to its point, in
    as many rows as they need not to overlap (packed for the narrowest plot; `stop_labels`).
    names: x_title, y_title, ttft, network, current, places.
    """
    d = np.asarray(distances, dtype=float)
    xmax = max(float(d.max()), current_km)
    groups: list[list[Stop]] = []
    for stop in sorted(stops, key=lambda s_: s_.km):
        if groups and stop.km - groups[-1][-1].km < 0.04 * xmax:
            groups[-1].append(stop)
        else:
            groups.append([stop])
    xr = (-0.02 * xmax, xmax * 1.03)
    data_top = max(list(ttft) + [current_ttft] + [s_.ttft_s for s_ in stops])
    annotations, top = stop_labels(groups, xr, data_top, plot_px=(PHONE_PLOT_W, height - 130))
    traces = [
        dict(type="scatter", x=_arr(d), y=_arr(network), mode="lines", name=names["network"], fill="tozeroy",
             line=dict(color=STAGE_COLORS["network"], width=1), fillcolor="rgba(100, 116, 139, 0.25)",
             customdata=[fmt_s(v) for v in network],
             hovertemplate=f"%{{x:,.0f}} km · {names['network']} %{{customdata}}<extra></extra>"),
        dict(type="scatter", x=_arr(d), y=_arr(ttft), mode="lines", name=names["ttft"],
             line=dict(color=STAGE_COLORS["prefill"], width=3), customdata=[fmt_s(v) for v in ttft],
             hovertemplate=f"%{{x:,.0f}} km · {names['ttft']} %{{customdata}}<extra></extra>"),
        dict(type="scatter", x=[s_.km for s_ in stops], y=[s_.ttft_s for s_ in stops], mode="markers", name=names["places"],
             marker=dict(color=TEXT_COLOR, size=7), showlegend=False, text=[s_.label for s_ in stops],
             customdata=[fmt_s(s_.ttft_s) for s_ in stops],
             hovertemplate="%{text} (%{x:,.0f} km)<br>" + names["ttft"] + " %{customdata}<extra></extra>"),
        dict(type="scatter", x=[current_km], y=[current_ttft], mode="markers", name=names["current"],
             marker=dict(color=HIGHLIGHT, size=13, line=dict(color="white", width=2)),
             hovertemplate=f"%{{x:,.0f}} km · {names['ttft']} {fmt_s(current_ttft)}<extra></extra>"),
    ]
    return _figure(traces, dict(
        height=height, annotations=annotations,
        xaxis=dict(title=dict(text=names["x_title"]), range=list(xr)),
        yaxis=dict(title=dict(text=names["y_title"]), range=[0, top]),
    ))


def stop_labels(groups: Sequence[Sequence[Stop]], xr: Sequence[float], data_top: float, *,
                plot_px: tuple[float, float]) -> tuple[list[dict[str, Any]], float]:
    """Labels for groups of stops in rows above the data, and the y-axis top that makes room.

    Each label is a flag: a vertical leader from its stop up to its row, the text to the right of
    the leader's top (to the left near the right edge). Left to right, a label goes one row below
    every earlier label it would touch, so no label overlaps another and no leader crosses a label
    (packed for the narrowest plot, `plot_px`; wider plots only have more room). The y axis then
    reaches high enough that every row clears the highest data point. Returns plotly annotations
    and the axis top.
    """
    width_px, height_px = plot_px
    row_px = LINE_PX + 6
    boxes: list[tuple[float, float, int]] = []  # (left px, right px, row)
    placed = []
    for g in groups:
        text = " · ".join(s_.label for s_ in g)
        w = min(text_px(text) + 8, width_px)
        pos = (g[0].km - xr[0]) / (xr[1] - xr[0]) * width_px
        side = "left" if pos + w <= width_px else "right"
        left = pos if side == "left" else pos - w
        touching = [r for a, b, r in boxes if a < left + w and left < b]
        row = max(touching) + 1 if touching else 0
        boxes.append((left, left + w, row))
        placed.append((g[0], text, row, side))
    rows = range(max((r for _, _, r in boxes), default=-1) + 1)
    band_px = len(rows) * row_px + 16
    top = data_top * height_px / max(height_px - band_px, height_px * 0.4)
    out = []
    for stop, text, row, side in placed:
        label_px = height_px - 10 - row * row_px  # label centre, px above the x axis
        out.append(dict(
            x=stop.km, y=stop.ttft_s, ax=0, ay=-(label_px - stop.ttft_s / top * height_px), text=text, xanchor=side,
            showarrow=True, arrowhead=0, arrowwidth=1, arrowcolor=LINE_MUTED, standoff=4,
            bgcolor="rgba(255,255,255,0.85)", font=dict(size=11, family=FONT_FAMILY, color=INK_MUTED)))
    return out, top


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
    bx: list[float | None] = []
    by: list[str | None] = []
    for r in rows:
        if r.stated_high_s is None:
            continue
        bx += [max(r.stated_low_s or 0.0, floor), r.stated_high_s, None]
        by += [r.label, r.label, None]
    traces = [
        dict(type="scatter", x=bx, y=by, mode="lines", name=names["stated"], line=dict(color=RANGE_FILL, width=16),
             hoverinfo="skip"),
        dict(type="scatter", x=[r.estimate_s for r in rows], y=labels, mode="markers", name=names["estimate"],
             marker=dict(color=HIGHLIGHT, size=11, symbol=[r.symbol for r in rows], line=dict(color="white", width=1.5)),
             error_x=dict(type="data", symmetric=False, array=[r.high_s - r.estimate_s for r in rows],
                          arrayminus=[r.estimate_s - r.low_s for r in rows], color=HIGHLIGHT, thickness=1.5, width=5),
             customdata=[[fmt_s(r.estimate_s), fmt_s(r.low_s), fmt_s(r.high_s)] for r in rows],
             hovertemplate="%{y}<br>" + names["estimate"] + " %{customdata[0]} (%{customdata[1]}–%{customdata[2]})<extra></extra>"),
    ]
    split = any(len(label) > LABEL_LINE_CHARS for label in labels)  # then every row puts its measure on a line of its own
    shown = [wrap_label(label, split=split) for label in labels]  # a phone's chart is 340 px wide: long names wrap
    lines = max(s.count("<br>") + 1 for s in shown) if shown else 1
    return _figure(traces, dict(
        height=max(240, 100 + max(row_px, 20 * lines + 8) * len(rows)),
        xaxis=_log_axis(xr, names["x_title"]),
        yaxis=dict(autorange="reversed", categoryorder="array", categoryarray=labels, automargin=True,
                   tickmode="array", tickvals=labels, ticktext=shown),
    ))


LABEL_LINE_CHARS = 18
"""Characters on one line of a category label before it wraps (a 390 px phone: the example titles "Automatic grading
of online exams · to whole answer" ran out of the chart, the browser layout check)."""


def wrap_label(label: str, width: int = LABEL_LINE_CHARS, split: bool = False) -> str:
    """A category label on lines of at most `width` characters where it has spaces to break at (Plotly's <br>), the
    part after " · " on a line of its own when the whole is longer than one line or `split` (its neighbours wrap)."""
    if len(label) <= width and not split:
        return label
    out = []
    for part in label.split(" · "):
        line = ""
        for word in part.split(" "):
            if line and len(line) + 1 + len(word) > width:
                out.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        out.append(line)
    return "<br>".join(out)


def context_figure(
    context_tokens: Sequence[float],
    tokens_per_s: Sequence[float],
    *,
    current_context: float,
    current_tps: float,
    names: Mapping[str, str],
    fmt_tps: Callable[[float], str],
    height: int = 360,
) -> go.Figure:
    """Per-user token speed against the conversation already in the KV cache: every decode step
    reads all of it, so speed falls as the conversation grows. names: x_title, y_title, speed, current."""
    x = np.asarray(context_tokens, dtype=float)
    y = np.asarray(tokens_per_s, dtype=float)
    traces = [
        dict(type="scatter", x=_arr(x), y=_arr(y), mode="lines", name=names["speed"],
             line=dict(color=STAGE_COLORS["decode"], width=3), customdata=[fmt_tps(v) for v in y],
             hovertemplate=f"%{{x:,.0f}} · {names['speed']} %{{customdata}}<extra></extra>"),
        dict(type="scatter", x=[current_context], y=[current_tps], mode="markers", name=names["current"],
             marker=dict(color=HIGHLIGHT, size=13, line=dict(color="white", width=2)),
             hovertemplate=f"%{{x:,.0f}} · {fmt_tps(current_tps)}<extra></extra>"),
    ]
    top = max(list(y) + [current_tps]) * 1.15
    return _figure(traces, dict(
        height=height,
        xaxis=dict(title=dict(text=names["x_title"]), range=[-0.02 * float(x.max()), float(x.max()) * 1.03]),
        yaxis=dict(title=dict(text=names["y_title"]), range=[0, top]),
    ))
