"""Figure builders of the trade-off explorer: plain functions from numbers to plotly figures.

Every piece of chart text (titles, axes, legend names, hover, labels) is passed in already in
the page's language; nothing here knows a language. Lean on purpose: one heatmap trace per map
(at most ~15 x 17 cells), arrays rather than one trace per point, shared look from
`chart_style.base_layout` (Pretendard, so Korean renders inside the charts too).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from latency.charts.style import (BUDGET, FONT_FAMILY, HIGHLIGHT, INK, INK_MUTED, LINE_MUTED, MIN_FONT_PX, NOFIT_FILL,
                                  PRECISION_COLORS, RATIO_SCALE, STAGE_COLORS, TOTAL,
                                  base_layout)
from latency.charts.estimator import _spec, figure_of, typed_array


UNDER = BUDGET        # meets the budget
OVER = HIGHLIGHT      # misses it
BUDGET_LINE = BUDGET
RATIO_CLIP = 3.0      # colour scale: budget x 1/8 ... x 8 (log2 -3 ... 3)
# Each budget-map cell says pass or fail in text too, so no one has to read its colour.
CELL_MEETS = "✓"   # drawn in the cell: meets the budget even at the slow end of its range (the headline's rule)
CELL_BORDERLINE = "△"  # meets it at its estimate only: its range reaches past the budget (borderline)
CELL_MISSES = "✕"  # misses it; a cell that does not fit the hardware stays empty on its grey fill
FmtS = Callable[[float], str]


def short_label(name: str, limit: int = 22) -> str:
    """A device name short enough for an axis: vendor prefixes dropped, cut with an ellipsis."""
    for prefix in ("NVIDIA GeForce ", "NVIDIA ", "AMD Instinct ", "AMD ", "Apple "):
        if name.startswith(prefix):
            name = name[len(prefix):]
            break
    return name if len(name) <= limit else name[: limit - 1].rstrip() + "…"


def log_ticks(values, fmt: Callable[[float], str], max_ticks: int = 8) -> dict:
    """Readable ticks for a log axis: 1-2-5 steps (or powers of ten when those are too many)
    covering the finite positive `values`, labelled with `fmt` (units in the page's language)."""
    v = np.asarray([x for x in np.ravel(np.asarray(values, dtype=float)) if np.isfinite(x) and x > 0])
    if v.size == 0:
        return {}
    lo, hi = v.min(), v.max()
    decades = range(int(math.floor(math.log10(lo))), int(math.ceil(math.log10(hi))) + 1)
    for mults in ((1, 2, 5), (1, 3), (1,)):
        ticks = [m * 10.0 ** k for k in decades for m in mults]
        inside = [t for t in ticks if lo / 1.5 <= t <= hi * 1.5]
        if len(inside) <= max_ticks:
            break
    if len(inside) < 2:
        inside = [t for t in (m * 10.0 ** k for k in decades for m in (1, 2, 5)) if lo / 3 <= t <= hi * 3]
    return dict(tickmode="array", tickvals=inside, ticktext=[fmt(t) for t in inside])


def ratio_ticks() -> tuple[list[float], list[str]]:
    vals = [-3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0]
    text = ["×⅛", "×¼", "×½", "×1", "×2", "×4", "×8"]
    return vals, text


@dataclass(frozen=True)
class Mark:
    """A marked cell: row index, column index, marker symbol, legend name, colour."""

    row: int
    col: int
    symbol: str
    name: str
    color: str


def budget_heatmap(ratio: np.ndarray, **kwargs: Any) -> go.Figure:
    """`budget_heatmap_spec` as a plotly Figure."""
    return figure_of(budget_heatmap_spec(ratio, **kwargs))


def budget_heatmap_spec(
    ratio: np.ndarray,
    *,
    x_labels: Sequence[str],
    y_labels: Sequence[str],
    hover: Sequence[Sequence[str]],
    marks: Sequence[Mark],
    names: Mapping[str, str],
    row_px: int = 30,
    safe: np.ndarray | None = None,
) -> dict[str, Any]:
    """Latency / budget per cell, green under and red over (log scale, clipped at ×1/8 and ×8).

    ratio: (rows, cols), nan where the model does not fit (drawn grey). hover: per-cell text
    (rows x cols), already formatted. marks: cells to mark (cheapest, current, ...).
    safe: (rows, cols) bool, the cells that meet the budget even at the slow end of their range (✓); a cell
    under the budget at its estimate but not safe is drawn △ (borderline). None: every cell under it is ✓.
    names: x_title, colorbar (the scale's name, e.g. "latency ÷ budget": the trace name; the page's
    caption says it too, a title on the bar would crowd a phone screen), nofit (the y axis is named
    by the chart's heading).
    """
    r = np.asarray(ratio, dtype=float)
    z = np.clip(np.log2(np.where(np.isfinite(r) & (r > 0), r, np.nan)), -RATIO_CLIP, RATIO_CLIP)
    hov = np.asarray(hover, dtype=str)
    x, y = list(x_labels), list(y_labels)
    # Plain trace dicts, a spec with no plotly objects (as latency.charts.estimator does): the two maps are
    # redrawn on every input change, and building and copying plotly objects was most of that time.
    traces = []
    nofit = np.where(np.isfinite(r), np.nan, 0.0)
    if np.isfinite(nofit).any():
        # The grey layer under the map only colours; the map on top answers the hover on every cell,
        # grey ones included (plotly hovers a heatmap's empty cells too), so the texts travel once.
        traces.append(dict(type="heatmap", z=typed_array(nofit), x=x, y=y, colorscale=[[0, NOFIT_FILL], [1, NOFIT_FILL]], showscale=False,
                           hoverinfo="skip", xgap=1, ygap=1,
                           name=names["nofit"]))
    vals, text = ratio_ticks()
    ok = np.ones(r.shape, dtype=bool) if safe is None else np.asarray(safe, dtype=bool)
    cells = np.where(np.isfinite(r), np.where(r <= 1.0, np.where(ok, CELL_MEETS, CELL_BORDERLINE), CELL_MISSES), "")
    traces.append(dict(type="heatmap", z=typed_array(z), x=x, y=y, colorscale=RATIO_SCALE, zmin=-RATIO_CLIP, zmax=RATIO_CLIP,
                       zmid=0, customdata=hov, hovertemplate="%{customdata}<extra></extra>", xgap=1, ygap=1,
                       text=cells.tolist(), texttemplate="%{text}", textfont=dict(size=13, color=INK),
                       colorbar=dict(tickvals=vals, ticktext=text, thickness=10, len=0.9, x=1.0, xpad=4),
                       name=names["colorbar"]))
    for m in marks:
        traces.append(dict(type="scatter", x=[x_labels[m.col]], y=[y_labels[m.row]], mode="markers", name=m.name,
                           marker=dict(symbol=m.symbol, size=15, color=m.color,
                                       line=dict(color="white" if "open" not in m.symbol else m.color, width=1.5)),
                           customdata=[str(hov[m.row, m.col])], hovertemplate="%{customdata}<extra></extra>"))
    layout = dict(height=max(260, row_px * len(y_labels) + 150), showlegend=bool(marks),
                  legend=dict(orientation="h", y=1.01, yanchor="bottom", x=0),
                  # 14 model sizes stand 14 px apart on a phone. Plotly's default auto angles (0, 30, 90)
                  # pick 30 degrees when the spacing is a hair above its cut-off, and slanted labels that
                  # close run into each other; level or upright only. Upright labels 14 px apart need a
                  # font under 14 px tall: 11 px (the base 13 px touches).
                  xaxis=dict(title=dict(text=names["x_title"]), type="category", fixedrange=True, automargin=True,
                             autotickangles=[0, 90], tickfont=dict(size=11 if len(x) > 10 else 13)),
                  yaxis=dict(type="category", autorange="reversed", fixedrange=True, automargin=True))
    return _spec(traces, layout)


def concurrency_figure(
    users: Sequence[float],
    per_user_tps: Sequence[float],
    throughput_tps: Sequence[float],
    latencies: Sequence[tuple[str, Sequence[float]]],
    *,
    budget_s: float,
    current_users: float,
    current_latency_s: float,
    queue_from: float | None,
    plateau_at: float | None,
    names: Mapping[str, str],
    fmt_s: FmtS,
    fmt_n: Callable[[float], str] = lambda v: f"{v:,.0f}",
    height: int = 560,
) -> go.Figure:
    """Top: per-user tokens/s (left axis) and the server's total tokens/s (right axis) against
    concurrent users. Bottom: latency lines (`latencies`: (legend name, seconds), e.g. time to
    first token and the whole answer) with the budget line; the current point sits on the line the
    budget applies to (`current_latency_s`). Vertical lines: where throughput levels off and where
    the batch is full and queueing starts.

    names: x_title, per_user, throughput, y_speed, y_throughput, y_latency, budget, plateau, queue,
    current.
    """
    u = np.asarray(users, dtype=float)
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.08, row_heights=[0.55, 0.45],
                        specs=[[{"secondary_y": True}], [{}]])
    fig.add_trace(go.Scatter(x=u, y=per_user_tps, name=names["per_user"], mode="lines",
                             line=dict(color=STAGE_COLORS["decode"], width=3),
                             hovertemplate="%{x:,.0f} · %{y:,.1f}<extra>" + names["per_user"] + "</extra>"),
                  row=1, col=1, secondary_y=False)
    fig.add_trace(go.Scatter(x=u, y=throughput_tps, name=names["throughput"], mode="lines",
                             line=dict(color=STAGE_COLORS["prefill"], width=2, dash="dash"),
                             hovertemplate="%{x:,.0f} · %{y:,.0f}<extra>" + names["throughput"] + "</extra>"),
                  row=1, col=1, secondary_y=True)
    all_lat = [budget_s, current_latency_s]
    for (name, values), color, dash in zip(latencies, (STAGE_COLORS["queue"], TOTAL), ("solid", "dashdot")):
        lat = np.asarray(values, dtype=float)
        all_lat += list(lat)
        fig.add_trace(go.Scatter(x=u, y=lat, name=name, mode="lines", line=dict(color=color, width=3, dash=dash),
                                 customdata=[fmt_s(v) for v in lat],
                                 hovertemplate="%{x:,.0f} · %{customdata}<extra>" + name + "</extra>"),
                      row=2, col=1)
    fig.add_trace(go.Scatter(x=[u.min(), u.max()], y=[budget_s, budget_s], mode="lines", name=names["budget"],
                             line=dict(color=BUDGET_LINE, width=2, dash="dot"), hoverinfo="skip"), row=2, col=1)
    fig.add_trace(go.Scatter(x=[current_users], y=[current_latency_s], mode="markers", name=names["current"],
                             marker=dict(color=HIGHLIGHT, size=12, line=dict(color="white", width=2)),
                             customdata=[fmt_s(current_latency_s)],
                             hovertemplate="%{x:,.0f} · %{customdata}<extra>" + names["current"] + "</extra>"),
                  row=2, col=1)
    # The two markers' labels: one row each when they are close (a phone plot is ~300 px wide).
    span = math.log10(u.max()) - math.log10(u.min()) or 1.0
    marks = [(x, label, color) for x, label, color in ((plateau_at, names["plateau"], LINE_MUTED),
                                                       (queue_from, names["queue"], HIGHLIGHT))
             if x is not None and u.min() <= x <= u.max()]
    close = len(marks) == 2 and abs(math.log10(marks[0][0]) - math.log10(marks[1][0])) / span < 0.35
    for k, (x, label, color) in enumerate(marks):
        for row in (1, 2):
            fig.add_vline(x=x, line=dict(color=color, width=1.5, dash="dash"), row=row, col=1)
        at = (math.log10(x) - math.log10(u.min())) / span
        fig.add_annotation(x=math.log10(x), y=1.0, xref="x", yref="paper", text=label, showarrow=False,
                           yanchor="bottom", yshift=16 * k if close else 0,
                           xanchor="right" if at > 0.75 else ("left" if at < 0.25 else "center"),
                           bgcolor="rgba(255,255,255,0.85)", font=dict(size=11, color=color, family=FONT_FAMILY))
    base_layout(fig, height=height)
    fig.update_layout(legend=dict(orientation="h", y=-0.2, yanchor="top", x=0), margin=dict(t=56, b=20))
    fig.update_xaxes(type="log", row=1, col=1, **log_ticks(u, fmt_n))
    fig.update_xaxes(type="log", title_text=names["x_title"], row=2, col=1, **log_ticks(u, fmt_n))
    fig.update_yaxes(title_text=names["y_speed"], rangemode="tozero", row=1, col=1, secondary_y=False)
    fig.update_yaxes(title_text=names["y_throughput"], rangemode="tozero", showgrid=False, row=1, col=1,
                     secondary_y=True, tickmode="auto", nticks=6, tickformat="~s")
    fig.update_yaxes(title_text=names["y_latency"], type="log", row=2, col=1,
                     **log_ticks(all_lat, fmt_s, max_ticks=6))
    return fig


def pareto_figure(
    labels: Sequence[str],
    cost: Sequence[float],
    latency_s: Sequence[float],
    meets: Sequence[bool],
    front: Sequence[int],
    *,
    hover: Sequence[str],
    current: int | None,
    budget_s: float,
    names: Mapping[str, str],
    fmt_s: FmtS,
    fmt_usd: Callable[[float], str],
    height: int = 500,
) -> tuple[go.Figure, list[int]]:
    """Latency against cost per 1,000 answers, one point per device (log-log), the Pareto front
    as a step line. names: x_title, y_title, meets, misses, front, budget, current.

    Labels are annotations placed by place_labels, clear of each other on a phone and a laptop.
    Returns the figure and the indices of the points left without a label (no clear spot): the
    page names those in words below the chart."""
    c = np.asarray(cost, dtype=float)
    lt = np.asarray(latency_s, dtype=float)
    ok = np.asarray(meets, dtype=bool)
    hov = np.asarray(hover, dtype=object)
    lab = np.asarray(labels, dtype=object)
    fig = go.Figure()
    if len(front) > 0:
        fig.add_trace(go.Scatter(x=c[list(front)], y=lt[list(front)], mode="lines", line_shape="hv",
                                 name=names["front"], line=dict(color=INK, width=1.5, dash="dot"),
                                 hoverinfo="skip"))
    finite = np.isfinite(c) & np.isfinite(lt) & (c > 0) & (lt > 0)
    x_range = _log_span(c[finite], math.log10(1.5) + 0.05) if finite.any() else (0.0, 1.0)
    y_range = _log_span(np.append(lt[finite], budget_s), 0.18) if finite.any() else (0.0, 1.0)
    spots = place_labels(c, lt, lab, front, budget_s, first=current, x_range=x_range, y_range=y_range)
    for mask, name, color, symbol in ((ok, names["meets"], UNDER, "circle"), (~ok, names["misses"], LINE_MUTED, "circle-open")):
        if not mask.any():
            continue
        fig.add_trace(go.Scatter(
            x=c[mask], y=lt[mask], mode="markers", name=name,
            marker=dict(color=color, size=10, symbol=symbol, line=dict(width=1.5, color=color)),
            customdata=hov[mask], hovertemplate="%{customdata}<extra></extra>", cliponaxis=False))
    if current is not None and math.isfinite(c[current]):
        fig.add_trace(go.Scatter(x=[c[current]], y=[lt[current]], mode="markers", name=names["current"],
                                 marker=dict(symbol="circle-open", size=20, color=HIGHLIGHT, line=dict(width=2.5)),
                                 customdata=[hov[current]], hovertemplate="%{customdata}<extra></extra>"))
    for k, spot in enumerate(spots):
        if spot is None:
            continue
        color = HIGHLIGHT if k == current else INK_MUTED
        where = dict(x=math.log10(c[k]), y=math.log10(lt[k]), text=lab[k], font=dict(size=LABEL_FONT_PX, color=color))
        if spot.leader:  # the label's centre at (ax, ay) px from the point, a thin line back to it
            fig.add_annotation(**where, showarrow=True, arrowhead=0, arrowwidth=1, arrowcolor=LINE_MUTED,
                               ax=spot.dx, ay=spot.dy, standoff=RING_R_PX if k == current else MARKER_R_PX)
        else:
            fig.add_annotation(**where, showarrow=False, xshift=spot.dx, yshift=-spot.dy)
    xs = c[finite]
    if xs.size:
        fig.add_trace(go.Scatter(x=[xs.min() / 1.5, xs.max() * 1.5], y=[budget_s, budget_s], mode="lines",
                                 name=names["budget"], line=dict(color=BUDGET_LINE, width=2, dash="dash"),
                                 hoverinfo="skip"))
    base_layout(fig, height=height)
    # Fixed ranges (the ones place_labels reckoned with), so the labels land where they were placed.
    fig.update_xaxes(type="log", title_text=names["x_title"], range=list(x_range), **log_ticks(c, fmt_usd))
    fig.update_yaxes(type="log", title_text=names["y_title"], range=list(y_range),
                     **log_ticks(np.append(lt, budget_s), fmt_s, max_ticks=7))
    return fig, [i for i, spot in enumerate(spots) if spot is None and finite[i]]


# Label placement on the cost chart. Point positions scale with the plot's size, a label's offset
# from its point does not (pixels), so a placement is accepted only when it is clear at both ends of
# the range the chart is drawn at: a phone (390 px screen: about 280 x 300 px of plot area once the
# axes, their titles and the legend have their room) and a laptop (1366 px: about 850 x 330 px),
# measured in Chromium.
PLOT_SIZES_PX = ((280.0, 300.0), (850.0, 330.0))
LABEL_FONT_PX = MIN_FONT_PX  # the smallest chart text the app draws (latency/charts/style.py)
MARKER_R_PX = 6.0     # marker size 10 and its 1.5 px outline
RING_R_PX = 12.0      # the current point's ring: size 20 and its 2.5 px outline
LINE_BAND_PX = 3.0    # a label keeps this far from the budget line and the Pareto step line
MARKER_GAP_PX = 4.0    # and this far from other points' markers, so it reads as its own point's label
LEADER_STEPS_PX = (0.0, 14.0, 28.0, 42.0, 56.0)  # beyond the first, a thin leader line joins label and point
_DIRECTIONS = ((0, -1), (0, 1), (1, 0), (-1, 0), (1, -1), (1, 1), (-1, -1), (-1, 1))  # up, down, right, left...


def text_width_px(text: str, font_px: float = LABEL_FONT_PX) -> float:
    """A generous width of `text` in Pretendard (or a fallback font while it loads): Hangul and other
    wide characters one em, capitals and digits 0.66 em, the rest 0.56 em, spaces 0.3 em."""
    em = 0.0
    for ch in text:
        if ord(ch) >= 0x1100:
            em += 1.0
        elif ch == " ":
            em += 0.3
        elif ch.isupper() or ch.isdigit():
            em += 0.66
        else:
            em += 0.56
    return em * font_px


def _log_span(values: np.ndarray, pad: float) -> tuple[float, float]:
    lo, hi = math.log10(values.min()) - pad, math.log10(values.max()) + pad
    return (lo - 0.5, hi + 0.5) if hi - lo < 1e-9 else (lo, hi)


@dataclass(frozen=True)
class LabelSpot:
    """Where a point's label goes: its centre `dx`, `dy` pixels from the point (screen y downward);
    `leader`: far enough to need a line back to the point."""

    dx: float
    dy: float
    leader: bool


def _obstacles(px: Mapping[int, tuple[float, float]], radius: Mapping[int, float], front: Sequence[int],
               y_budget: float | None) -> tuple[dict[int, tuple], list[tuple]]:
    """Marker boxes by point, and the line bands (budget line, Pareto steps), as x0, y0, x1, y1."""
    markers = {i: (x - radius[i] - MARKER_GAP_PX, y - radius[i] - MARKER_GAP_PX,
                   x + radius[i] + MARKER_GAP_PX, y + radius[i] + MARKER_GAP_PX) for i, (x, y) in px.items()}
    lines = []
    if y_budget is not None:
        lines.append((-1e9, y_budget - LINE_BAND_PX, 1e9, y_budget + LINE_BAND_PX))
    steps = [i for i in front if i in px]
    for a, b in zip(steps, steps[1:]):  # "hv" steps: right along a's latency, then down to b
        (xa, ya), (xb, yb) = px[a], px[b]
        lines.append((min(xa, xb), ya - LINE_BAND_PX, max(xa, xb), ya + LINE_BAND_PX))
        lines.append((xb - LINE_BAND_PX, min(ya, yb), xb + LINE_BAND_PX, max(ya, yb)))
    return markers, lines


def _hits(box, others) -> bool:
    x0, y0, x1, y1 = box
    return any(x0 < b[2] and b[0] < x1 and y0 < b[3] and b[1] < y1 for b in others)


def _crosses(x0: float, y0: float, x1: float, y1: float, others) -> bool:
    """Whether the segment (x0, y0)-(x1, y1) passes through one of the boxes (sampled every 2 px)."""
    steps = max(int(math.hypot(x1 - x0, y1 - y0) / 2), 1)
    for t in range(steps + 1):
        x, y = x0 + (x1 - x0) * t / steps, y0 + (y1 - y0) * t / steps
        if _hits((x, y, x, y), others):
            return True
    return False


def place_labels(cost: np.ndarray, latency: np.ndarray, labels: Sequence[str], front: Sequence[int],
                 budget_s: float, *, first: int | None = None, x_range: tuple[float, float],
                 y_range: tuple[float, float], sizes_px: Sequence[tuple[float, float]] = PLOT_SIZES_PX,
                 ) -> list[LabelSpot | None]:
    """Where each point's label goes on the cost/latency chart, or None where no spot is clear.

    Greedy: the current point (`first`) first, then the Pareto front, then the rest in order of cost.
    Each takes the nearest spot (next to its marker, then 16, 32, 48 px out with a leader line, in
    eight directions) whose box stays inside the plot and clear of every placed label, every marker,
    the budget line and the front's step line, at every plot size of `sizes_px` (`x_range`,
    `y_range`: the axes' log10 ranges). The current point, if nothing is clear, takes the nearest
    spot that only keeps off other labels.
    """
    n = len(cost)
    ok = [i for i in range(n) if math.isfinite(cost[i]) and cost[i] > 0 and math.isfinite(latency[i]) and latency[i] > 0]
    radius = {i: RING_R_PX if i == first else MARKER_R_PX for i in ok}
    scenes = []  # per plot size: point positions, markers, lines, placed label boxes
    for w_px, h_px in sizes_px:
        def to_px(c, lat, w_px=w_px, h_px=h_px):
            return ((math.log10(c) - x_range[0]) / (x_range[1] - x_range[0]) * w_px,
                    (y_range[1] - math.log10(lat)) / (y_range[1] - y_range[0]) * h_px)
        px = {i: to_px(cost[i], latency[i]) for i in ok}
        y_budget = to_px(1.0, budget_s)[1] if budget_s > 0 else None
        markers, lines = _obstacles(px, radius, front, y_budget)
        scenes.append(dict(px=px, markers=markers, lines=lines, labels=[], w=w_px, h=h_px))

    on_front = set(front)
    order = sorted(ok, key=lambda i: (i != first, i not in on_front, cost[i]))
    where: list[LabelSpot | None] = [None] * n
    for i in order:
        w, h = text_width_px(labels[i]) + 4, LABEL_FONT_PX * 1.4
        candidates = [LabelSpot(dx * (radius[i] + w / 2 + 2 + step), dy * (radius[i] + h / 2 + 1 + step), step > 0)
                      for step in LEADER_STEPS_PX for dx, dy in _DIRECTIONS]
        for strict in ((True, False) if i == first else (True,)):
            for spot in candidates:
                boxes = []
                for sc in scenes:
                    x, y = sc["px"][i]
                    box = (x + spot.dx - w / 2, y + spot.dy - h / 2, x + spot.dx + w / 2, y + spot.dy + h / 2)
                    inside = box[0] >= 0 and box[1] >= 0 and box[2] <= sc["w"] and box[3] <= sc["h"]
                    # Points drawn on top of each other (two devices at the same cost and speed) share
                    # their surroundings: each one's label may touch the other's marker.
                    apart = [m for k, m in sc["markers"].items() if math.dist(sc["px"][k], (x, y)) > 2 * MARKER_R_PX]
                    others = sc["labels"] + (apart + sc["lines"] if strict else [])
                    if not inside or _hits(box, others):
                        break
                    # A leader line runs from the marker's edge to the label: it may cross the front's
                    # steps, never another point or label.
                    edge = radius[i] / max(math.hypot(spot.dx, spot.dy), 1e-9)
                    if spot.leader and _crosses(x + spot.dx * edge, y + spot.dy * edge, x + spot.dx, y + spot.dy,
                                                sc["labels"] + apart):
                        break
                    boxes.append(box)
                else:
                    where[i] = spot
                    for sc, box in zip(scenes, boxes):
                        sc["labels"].append(box)
                    break
            if where[i] is not None:
                break
    return where


def memory_figure(
    contexts: Sequence[int],
    series: Mapping[str, Sequence[float]],
    *,
    labels: Mapping[str, str],
    device_gb: float,
    device_label: str,
    current_context: int,
    names: Mapping[str, str],
    fmt_gb: Callable[[float], str],
    height: int = 400,
    ticks: Sequence[int] | None = None,
) -> go.Figure:
    """Memory needed against context length, one line per precision, the device's memory as a
    horizontal line. names: x_title, y_title, current, hover (a plotly hovertemplate using
    %{x} for the context and %{y} for GB)."""
    x = np.asarray(contexts, dtype=float)
    fig = go.Figure()
    drawn: list[tuple[str, np.ndarray]] = []
    for k, (pid, ys) in enumerate(series.items()):
        # A line on top of an earlier one (FP8 and INT8 hold the same bytes) is dashed and named with it, so
        # neither hides the other (PM trial item 13: "the FP8 line hidden under INT8").
        same = next((other for other, ys0 in drawn if np.allclose(np.asarray(ys, dtype=float), ys0, rtol=2e-3)), None)
        name = labels[pid] if same is None else f"{labels[pid]} (= {labels[same]})"
        fig.add_trace(go.Scatter(x=x, y=ys, mode="lines+markers", name=name,
                                 line=dict(color=PRECISION_COLORS[k % len(PRECISION_COLORS)], width=2,
                                           dash="solid" if same is None else "dash"),
                                 marker=dict(symbol="circle" if same is None else "diamond-open", size=7 if same else 6),
                                 hovertemplate=names["hover"] + "<extra>" + labels[pid] + "</extra>"))
        drawn.append((pid, np.asarray(ys, dtype=float)))
    fig.add_trace(go.Scatter(x=[x.min(), x.max()], y=[device_gb, device_gb], mode="lines",
                             name=device_label, line=dict(color=INK, width=1.5, dash="dash"),
                             hoverinfo="skip", showlegend=False))
    # The device's label just above its line at the right end (log10 coordinates on a log axis).
    fig.add_annotation(x=math.log10(x.max()), y=math.log10(device_gb), text=device_label, showarrow=False,
                       xanchor="right", yanchor="bottom", yshift=3, bgcolor="rgba(255,255,255,0.85)",
                       font=dict(size=11, color=INK, family=FONT_FAMILY))
    fig.add_vline(x=current_context, line=dict(color=HIGHLIGHT, width=1.5, dash="dot"))
    fig.add_annotation(x=math.log10(current_context), y=1.0, xref="x", yref="paper", text=names["current"],
                       showarrow=False, yanchor="bottom", font=dict(size=11, color=HIGHLIGHT, family=FONT_FAMILY))
    base_layout(fig, height=height)
    fig.update_layout(legend=dict(orientation="h", y=-0.2, yanchor="top", x=0), margin=dict(t=30, b=10))
    marks = [float(v) for v in (x if ticks is None else ticks) if x.min() <= v <= x.max()] or [float(x.min())]
    fig.update_xaxes(type="log", title_text=names["x_title"], tickvals=marks,
                     ticktext=[f"{v / 1024:,.3g}k" if v >= 1024 else f"{v:,.0f}" for v in marks])
    ys = np.concatenate([np.asarray(v, dtype=float) for v in series.values()] + [[device_gb]])
    top = max(float(np.nanmax(ys)), device_gb)
    fig.update_yaxes(type="log", title_text=names["y_title"], **log_ticks(ys, fmt_gb, max_ticks=7),
                     range=[math.log10(float(np.nanmin(ys)) / 1.3), math.log10(top * 1.6)])  # room for the label
    return fig


@dataclass(frozen=True)
class Bar:
    """One input of the tornado: its name and the latency one notch down / up (None: no notch)."""

    name: str
    low_s: float | None
    high_s: float | None
    low_text: str
    high_text: str


def tornado_figure(bars: Sequence[Bar], *, base_s: float, names: Mapping[str, str], fmt_s: FmtS,
                   row_px: int = 46) -> go.Figure:
    """Horizontal bars from the current latency to the latency with one input one notch lower
    (blue) or higher (orange); largest effect on top. names: x_title, low, high, base."""
    fig = go.Figure()
    ys = [b.name for b in bars]
    for side, color, key in (("low", STAGE_COLORS["prefill"], "low"), ("high", STAGE_COLORS["queue"], "high")):
        vals = [getattr(b, f"{side}_s") for b in bars]
        delta = [(v - base_s) if v is not None else None for v in vals]
        text = [getattr(b, f"{side}_text") if v is not None else "" for b, v in zip(bars, vals)]
        fig.add_trace(go.Bar(
            y=ys, x=delta, base=[base_s] * len(bars), orientation="h", name=names[key], marker_color=color,
            text=text, textposition="inside", insidetextanchor="middle", textfont=dict(size=MIN_FONT_PX), cliponaxis=False,
            customdata=[f"{t}: {fmt_s(v)}" if v is not None else "" for t, v in zip(text, vals)],
            hovertemplate="%{customdata}<extra></extra>"))
    fig.add_vline(x=base_s, line=dict(color=INK, width=1.5))
    base_layout(fig, height=max(240, row_px * len(bars) + 120))
    # A bar label that does not fit inside its bar is left out (outside, it ran into the row names on a
    # phone); its hover and the chart's alt text keep it.
    fig.update_layout(barmode="overlay", bargap=0.35, uniformtext=dict(minsize=MIN_FONT_PX, mode="hide"),
                      legend=dict(orientation="h", y=-0.25, yanchor="top", x=0))
    fig.update_xaxes(title_text=names["x_title"], zeroline=False)
    fig.update_yaxes(autorange="reversed", automargin=True, fixedrange=True)
    fig.add_annotation(x=base_s, y=1.0, yref="paper", text=names["base"], showarrow=False, yanchor="bottom",
                       font=dict(size=11, family=FONT_FAMILY))
    return fig


__all__ = ["Mark", "Bar", "budget_heatmap", "budget_heatmap_spec", "concurrency_figure", "pareto_figure", "place_labels", "memory_figure",
           "tornado_figure", "short_label", "ratio_ticks", "log_ticks"]
