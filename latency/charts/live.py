"""The estimator's two live charts, redrawn on every slider move, as Vega-Lite: time against model
size, and the timeline of one request.

Why Vega-Lite here when every other chart is plotly (issue 8, benchmarks/bench_browser_slider.py):
Streamlit mounts a changed plotly chart afresh, and on a key press that was the largest part of the
browser's time. A Vega-Lite chart whose spec stays the same between reruns keeps its view, and
Streamlit only hands it new rows. So each builder returns `(spec, rows)`:
- the spec depends only on the page's language (titles, legend names) and fixed sizes, never on
  the numbers, so it is identical from one slider move to the next;
- every number that moves is a row of one long-form table with a `kind` column, and each layer
  of the spec draws the rows of its kind. Axis ranges come from the rows too: two invisible `pad`
  rows at the corners of the range (scales have `nice: false`), computed as the plotly charts
  do (`charts._log_range`).

Same look as the plotly charts: charts.style's colours, Pretendard (Streamlit's theme sets it),
1-2-5 log ticks read as plain numbers, the legend above the plot. Text arrives in the page's
language; nothing here knows one.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from latency.language.formats import size_number
from latency.charts.style import BUDGET_FILL, HIGHLIGHT, LINE_MUTED, LIVE_CONFIG, STAGE_COLORS
from latency.charts.estimator import (
    BUDGET_LINE, LINE_PX, NOFIT_COLOR, OTHER_BUDGET_LINE, TOTAL_COLOR, Budget, _log_range,
)

FmtS = Callable[[float], str]
Rows = list[dict[str, Any]]

SIZE_PLOT_H = 300       # px: the size chart's plot area (axes, legend and titles come on top)
VALUE_MARGIN_PX = 44    # px right of the plot: a budget value ("0.5 s", "0.5초") in 11 px text, 4 px from the plot
TIMELINE_PLOT_H = 44    # px: the timeline's one bar row
LABEL_GREY = LINE_MUTED
PLAIN_FORMAT = ",~r"
"""d3-format for axis labels: rounded decimal with thousands separators, trailing zeros trimmed; never an
exponent (",~g" turns 1,000,000 into "1e+6"; issue 31 item 4)."""
# Log-axis ticks: 1-2-5 steps from 1 ms to 100,000 (s or B); Vega-Lite draws those inside the
# domain. Labels only at powers of ten once the axis spans more than 2.2 decades (as charts._log_ticks).
LOG_TICKS = [m * 10.0 ** e for e in range(-3, 6) for m in (1, 2, 5)]
DECADE_LABELS = ("(abs(log(domain('{axis}')[1] / domain('{axis}')[0])) / LN10 <= 2.2"
                 " || abs(log(datum.value) / LN10 - round(log(datum.value) / LN10)) < 1e-6) ? datum.label : ''")


def _kind(name: str) -> dict[str, Any]:
    return {"filter": f"datum.kind === '{name}'"}


def _layer(kind: str, mark: Mapping[str, Any], encoding: Mapping[str, Any]) -> dict[str, Any]:
    """One layer of a spec: the rows of `kind`, drawn as `mark`. Hidden from screen readers unless the mark
    says `aria: True` and carries a `description` of its own (Vega-Lite's `config.aria: false` still leaves
    each mark's container a nameless graphics-symbol, which axe reports as svg-img-alt)."""
    return {"transform": [_kind(kind)], "mark": {"aria": False, **mark}, "encoding": dict(encoding)}


def _log_scale() -> dict[str, Any]:
    return {"type": "log", "nice": False}


def _log_axis(title: str, axis: str) -> dict[str, Any]:
    return {"title": title, "values": LOG_TICKS, "format": PLAIN_FORMAT, "labelExpr": DECADE_LABELS.format(axis=axis),
            "labelFlush": False}


def _base(height: int, layers: list[dict[str, Any]]) -> dict[str, Any]:
    # fit-x: as wide as the page; `height` is the plot area's own (legend and axes come on top)
    return {"height": height, "autosize": {"type": "fit-x", "contains": "padding"}, "layer": layers,
            "config": LIVE_CONFIG}


# --------------------------------------------------------------------------------------------
# Time against model size
# --------------------------------------------------------------------------------------------

SIZE_TABLE_B = (1, 3, 8, 14, 32, 70, 120, 235, 405, 671, 1000, 2000)
"""Model sizes the size chart's table lists (issue 23 item 3: its curve lives nowhere else): round sizes
that published models have (Llama 3 8B/70B/405B, Qwen 3 14B/32B/235B, DeepSeek V3 671B), each shown as
the sweep point nearest to it, so every row is a point the chart draws."""


def size_table(
    sizes: Sequence[float],
    ttft: Sequence[float],
    total: Sequence[float],
    fits: Sequence[bool],
    *,
    current_size: float,
    current_ttft: float,
    current_total: float,
    names: Mapping[str, str],
    fmt_s: FmtS,
    picks: Sequence[float] = SIZE_TABLE_B,
) -> tuple[list[str], list[list[str]]]:
    """The size chart's numbers as a small table: (columns, rows of text), one row per pick within the
    sweep (its nearest sweep point), and the current setting's row in size order. A size that does not
    fit the hardware keeps its times, marked with names["no_fit"], as the chart draws it grey.
    names: x_title, ttft, total, current, no_fit."""
    x = np.asarray(sizes, dtype=float)
    idx = sorted({int(np.argmin(np.abs(np.log(x) - math.log(b)))) for b in picks if x[0] <= b <= x[-1]})
    entries = []
    for i in idx:
        mark = "" if fits[i] else f" ({names['no_fit']})"
        entries.append((float(x[i]), [f"{size_number(x[i])}B{mark}", fmt_s(float(ttft[i])), fmt_s(float(total[i]))]))
    entries.append((float(current_size), [f"{size_number(current_size)}B ({names['current']})", fmt_s(current_ttft),
                                          fmt_s(current_total)]))
    entries.sort(key=lambda e: e[0])
    return [names["x_title"], names["ttft"], names["total"]], [row for _, row in entries]


def size_chart(
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
    steps: Sequence[float] = (),
    names: Mapping[str, str],
    fmt_s: FmtS,
) -> tuple[dict[str, Any], Rows]:
    """TTFT and total time against model size (log-log), the current point with its range.

    fits: whether each size fits the chosen hardware; sizes that do not are drawn grey and dashed
    ("does not fit"). budgets: horizontal lines, the selected one as a band from the bottom of the
    chart up to it, each level's value written once in the margin right of the plot (`value_labels`:
    a name written inside the plot lay on curves, step lines and other budgets' lines at some sizes and
    widths, issue 23 item 6; the page names each level's use cases under the chart). steps: model sizes
    where the device count steps up, as dotted vertical lines. names: x_title, y_title, ttft, total,
    current, no_fit, size_hover. Returns the spec (text only) and the rows (every number).
    """
    x = np.asarray(sizes, dtype=float)
    yt = np.asarray(ttft, dtype=float)
    ya = np.asarray(total, dtype=float)
    ok = np.asarray(fits, dtype=bool)
    yr = _log_range(list(yt) + list(ya) + [b.seconds for b in budgets] + [total_range[1], ttft_range[0]], pad=1.5)
    xr = _log_range(list(x), pad=1.15)
    rows: Rows = [dict(kind="pad", x=10 ** xr[0], y=10 ** yr[0]), dict(kind="pad", x=10 ** xr[1], y=10 ** yr[1])]
    hover = names["size_hover"]

    # The curves: one row per point. `seg` numbers the runs of points that fit (solid, coloured) and
    # the runs that do not (grey dashes, with the neighbours on either side so the two join up), so
    # no line bridges a gap.
    grey = ~ok | np.r_[~ok[1:], False] | np.r_[False, ~ok[:-1]]
    seg_ok = np.cumsum(np.r_[True, ok[1:] != ok[:-1]])
    seg_grey = np.cumsum(np.r_[True, grey[1:] != grey[:-1]])
    for series, y in ((names["total"], ya), (names["ttft"], yt)):
        for i in range(len(x)):
            if not (np.isfinite(y[i]) and y[i] > 0):
                continue
            tip = f"{hover} {size_number(x[i])}B · {series} {fmt_s(y[i])}"
            if ok[i]:
                rows.append(dict(kind="curve", series=series, seg=int(seg_ok[i]), x=float(x[i]), y=float(y[i]), tip=tip))
            if grey[i]:
                rows.append(dict(kind="nofit", series=names["no_fit"], line=f"{series}{seg_grey[i]}", x=float(x[i]),
                                 y=float(y[i]), tip=f"{tip} ({names['no_fit']})"))
    for series, value, (lo, hi) in ((names["total"], current_total, total_range), (names["ttft"], current_ttft, ttft_range)):
        tip = f"{series} {fmt_s(value)} ({fmt_s(lo)}–{fmt_s(hi)})"
        rows.append(dict(kind="current", series=names["current"], x=float(current_size), y=float(value), y2=float(lo),
                         y3=float(hi), tip=tip, alt=names.get("current_alt", tip) if series == names["total"] else tip))
    for b in budgets:
        rows.append(dict(kind="budget_sel" if b.selected else "budget", y=float(b.seconds)))
    rows += [dict(kind="step", x=float(v)) for v in steps]
    px_per_decade = SIZE_PLOT_H / (yr[1] - yr[0])
    for value, shift_px, selected in value_labels(budgets, px_per_decade):
        rows.append(dict(kind="budget_value", y=10 ** (math.log10(value) + shift_px / px_per_decade), text=fmt_s(value),
                         tone=BUDGET_LINE if selected else LABEL_GREY))

    series_x = {"field": "x", "type": "quantitative", "scale": _log_scale(), "axis": _log_axis(names["x_title"], "x")}
    series_y = {"field": "y", "type": "quantitative", "scale": _log_scale(), "axis": _log_axis(names["y_title"], "y")}
    # Two columns: Vega-Lite does not wrap a legend, and four names overflow a phone in one row.
    legend = {"field": "series", "type": "nominal", "title": None, "legend": {"columns": 2},
              "scale": {"domain": [names["total"], names["ttft"], names["current"], names["no_fit"]],
                        "range": [TOTAL_COLOR, STAGE_COLORS["prefill"], HIGHLIGHT, NOFIT_COLOR]}}
    tip = {"field": "tip", "type": "nominal"}
    layers = [
        _layer("pad", {"type": "point", "opacity": 0, "aria": False}, {"x": series_x, "y": series_y}),
        _layer("budget_sel", {"type": "rect", "color": BUDGET_FILL},
               {"y": {"field": "y", "type": "quantitative"}, "y2": {"value": SIZE_PLOT_H}}),
        _layer("budget_sel", {"type": "rule", "color": BUDGET_LINE, "strokeWidth": 2}, {"y": {"field": "y", "type": "quantitative"}}),
        _layer("budget", {"type": "rule", "color": OTHER_BUDGET_LINE, "strokeWidth": 1, "strokeDash": [2, 3]},
               {"y": {"field": "y", "type": "quantitative"}}),
        _layer("step", {"type": "rule", "color": NOFIT_COLOR, "strokeWidth": 1, "strokeDash": [2, 3]},
               {"x": {"field": "x", "type": "quantitative"}}),
        _layer("nofit", {"type": "line", "strokeWidth": 2, "strokeDash": [6, 4]},
               {"x": {"field": "x", "type": "quantitative"}, "y": {"field": "y", "type": "quantitative"},
                "color": legend, "detail": {"field": "line"}, "tooltip": tip}),
        _layer("curve", {"type": "line", "strokeWidth": 3},
               {"x": {"field": "x", "type": "quantitative"}, "y": {"field": "y", "type": "quantitative"},
                "color": legend, "detail": {"field": "seg"}, "tooltip": tip}),
        _layer("current", {"type": "rule", "color": HIGHLIGHT, "strokeWidth": 1.5},
               {"x": {"field": "x", "type": "quantitative"}, "y": {"field": "y2", "type": "quantitative"},
                "y2": {"field": "y3"}, "tooltip": tip}),
        # The current point is the chart's text alternative: its row's `alt`, the key numbers in the page's language.
        _layer("current", {"type": "point", "filled": True, "size": 150, "stroke": "white", "strokeWidth": 2, "opacity": 1,
                           "aria": True},
               {"x": {"field": "x", "type": "quantitative"}, "y": {"field": "y", "type": "quantitative"},
                "color": legend, "tooltip": tip, "description": {"field": "alt"}}),
        # Each budget level's value in the margin right of the plot, where no line is drawn.
        _layer("budget_value", {"type": "text", "align": "left", "baseline": "middle", "dx": 4, "fontSize": 11},
               {"x": {"value": "width"}, "y": {"field": "y", "type": "quantitative"}, "text": {"field": "text"},
                "color": {"field": "tone", "type": "nominal", "scale": None}}),
    ]
    return dict(_base(SIZE_PLOT_H, layers), padding={"left": 5, "top": 5, "bottom": 5, "right": VALUE_MARGIN_PX}), rows


def value_labels(budgets: Sequence[Budget], px_per_decade: float) -> list[tuple[float, float, bool]]:
    """(value, shift in px, selected) per budget level, for its value written beside its line: levels that
    share a value share one; levels closer than a line of text are pushed apart, lowest first upwards,
    so no two overlap and each stays as near its line as the ones below it allow."""
    levels: dict[float, bool] = {}
    for b in budgets:
        levels[round(b.seconds, 9)] = levels.get(round(b.seconds, 9), False) or b.selected
    out, floor_px = [], -math.inf
    for value in sorted(levels):
        y_px = math.log10(value) * px_per_decade
        placed = max(y_px, floor_px + LINE_PX)
        out.append((value, placed - y_px, levels[value]))
        floor_px = placed
    return out


# --------------------------------------------------------------------------------------------
# Timeline of one request
# --------------------------------------------------------------------------------------------

def timeline_table(stages: Sequence[tuple[str, str, float]], *, ttft_s: float, names: Mapping[str, str],
                   fmt_list: Callable[[list[float]], list[str]]) -> tuple[list[str], list[list[str]]]:
    """The timeline chart's numbers as a small table: one row per stage with where it starts, how long
    it takes and where it ends on the chart's time axis, then the first token's moment.
    stages: as `timeline_chart`. names: stage, start, takes, end, first_token. fmt_list: formats every
    number of the table together, one decimal rule for the whole table (Formats.seconds_list)."""
    values, start = [], 0.0
    for _, _, seconds in stages:
        seconds = max(float(seconds), 0.0)
        values += [start, seconds, start + seconds]
        start += seconds
    shown = iter(fmt_list(values + [float(ttft_s)]))
    rows = [[label, next(shown), next(shown), next(shown)] for _, label, _ in stages]
    rows.append([names["first_token"], "", "", next(shown)])
    return [names["stage"], names["start"], names["takes"], names["end"]], rows


def timeline_chart(
    stages: Sequence[tuple[str, str, float]],
    *,
    ttft_s: float,
    ttft_label: str,
    axis_title: str,
    fmt_s: FmtS,
    alt: str = "",
) -> tuple[dict[str, Any], Rows]:
    """One request as consecutive stages on a time axis, with the first token marked.

    stages: ``(stage key, label, seconds)`` in order (network, queue, prefill, decode); the key
    picks the colour from STAGE_COLORS, the label names it in the legend. A stage wider than 12% of
    the whole carries its name and time inside its bar. Returns the spec and the rows.
    """
    rows: Rows = []
    start = 0.0
    total = sum(max(float(t), 0.0) for _, _, t in stages) or 1.0
    for key, label, seconds in stages:
        seconds = max(float(seconds), 0.0)
        rows.append(dict(kind="stage", stage=label, x=start, x2=start + seconds, mid=start + seconds / 2,
                         text=f"{label} {fmt_s(seconds)}" if seconds / total > 0.12 else "",
                         tip=f"{label}: {fmt_s(seconds)}", alt=f"{label}: {fmt_s(seconds)}"))
        start += seconds
    if rows and alt:  # the whole request in one sentence, read with the first stage
        rows[0]["alt"] = f"{alt} {rows[0]['alt']}"
    right = start * 1.02 if start > 0 else 1.0
    early = ttft_s < 0.6 * start
    rows += [dict(kind="pad", x=0.0), dict(kind="pad", x=right),
             dict(kind="ttft", x=float(ttft_s)),
             dict(kind="ttft_left" if early else "ttft_right", x=float(ttft_s), text=f"{ttft_label} {fmt_s(ttft_s)}")]
    x = {"field": "x", "type": "quantitative", "scale": {"nice": False, "zero": True},
         "axis": {"title": axis_title, "format": PLAIN_FORMAT, "tickCount": 6}}
    colour = {"field": "stage", "type": "nominal", "title": None, "sort": None,
              "legend": {"columns": 2},  # four stage names in one row ran past a phone's edge
              "scale": {"domain": [label for _, label, _ in stages],
                        "range": [STAGE_COLORS.get(key, LINE_MUTED) for key, _, _ in stages]}}
    bar_top, bar_bottom = 14, TIMELINE_PLOT_H
    layers = [
        _layer("pad", {"type": "point", "opacity": 0, "aria": False}, {"x": x}),
        # Each stage's bar carries its name and time for screen readers (`alt`; the first also the whole sentence).
        _layer("stage", {"type": "rect", "aria": True},
               {"x": {"field": "x", "type": "quantitative"}, "x2": {"field": "x2"},
                "y": {"value": bar_top}, "y2": {"value": bar_bottom}, "color": colour,
                "tooltip": {"field": "tip", "type": "nominal"}, "description": {"field": "alt"}}),
        _layer("stage", {"type": "text", "color": "white", "fontSize": 12, "baseline": "middle"},
               {"x": {"field": "mid", "type": "quantitative"}, "y": {"value": (bar_top + bar_bottom) / 2},
                "text": {"field": "text"}}),
        _layer("ttft", {"type": "rule", "color": HIGHLIGHT, "strokeWidth": 2, "strokeDash": [2, 2]},
               {"x": {"field": "x", "type": "quantitative"}, "y": {"value": 0}, "y2": {"value": bar_bottom}}),
        _layer("ttft_left", {"type": "text", "align": "left", "baseline": "top", "dx": 4, "fontSize": 12, "color": HIGHLIGHT},
               {"x": {"field": "x", "type": "quantitative"}, "y": {"value": -2}, "text": {"field": "text"}}),
        _layer("ttft_right", {"type": "text", "align": "right", "baseline": "top", "dx": -4, "fontSize": 12, "color": HIGHLIGHT},
               {"x": {"field": "x", "type": "quantitative"}, "y": {"value": -2}, "text": {"field": "text"}}),
    ]
    return _base(TIMELINE_PLOT_H, layers), rows
