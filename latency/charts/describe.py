"""A chart's text alternative with its key numbers (WCAG 1.1.1; issue 23 item 3), read off the
figure itself, so every chart gets one and it always says what the chart shows.

`describe(spec, words)` turns a plotly figure (a Figure or the plain-dict spec of
latency/charts/estimator.py `_spec`) into a few sentences in the page's language:
- bars: each bar's category and value ("Network 0.031 s, Prefill 0.11 s");
- lines and points: each named series' range along both axes, with the axes' titles;
- budget maps (heatmaps with pass/fail marks, latency/charts/tradeoffs.py): how many cells meet the
  budget, of how many that fit.
`words` holds the connecting sentences (content/ui/common.yaml `chart_alt_*`, both languages);
numbers go through `number` (latency/language/formats.py: three significant digits) with the axis'
own tick suffix (" s", "B"), so they read as the chart's ticks do. Legend-less helper traces (hover
layers, label text, padding) are left out.
"""

from __future__ import annotations

import math
import re
from typing import Any, Callable, Mapping, Sequence

from latency.charts.tradeoffs import CELL_BORDERLINE, CELL_MEETS
from latency.language.formats import number

MAX_BARS = 12     # a bar chart with more bars is summarised by its extremes
MAX_SERIES = 8    # lines or point sets described one by one (the log ECDF: requests, estimate, budget, four percentiles)


def _plain(fig: Any) -> dict[str, Any]:
    if isinstance(fig, Mapping):
        return {"data": list(fig["data"]), "layout": dict(fig["layout"])}
    as_json = fig.to_plotly_json()
    return {"data": as_json["data"], "layout": as_json["layout"]}


def _values(seq: Any) -> list[Any]:
    if seq is None:
        return []
    if isinstance(seq, Mapping) and "bdata" in seq:  # a typed array (charts.estimator.typed_array)
        import base64

        import numpy as np

        arr = np.frombuffer(base64.b64decode(seq["bdata"]), dtype=seq["dtype"])
        return arr.reshape(seq["shape"]).tolist() if "shape" in seq else arr.tolist()
    return list(seq.tolist() if hasattr(seq, "tolist") else seq)


def _finite(xs: Sequence[Any]) -> list[float]:
    out = []
    for x in xs:
        if isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x):
            out.append(float(x))
    return out


def _axis(layout: Mapping[str, Any], name: str) -> tuple[str, str]:
    """(title, tick suffix) of layout axis `name` ('xaxis', 'yaxis2', ...)."""
    ax = layout.get(name) or {}
    title = ax.get("title")
    text = title.get("text") if isinstance(title, Mapping) else title
    return (str(text or "").replace("<br>", " "), str(ax.get("ticksuffix") or ""))


def _axis_name(trace: Mapping[str, Any], which: str) -> str:
    ref = str(trace.get(f"{which}axis") or which)
    return f"{which}axis" + ref[1:]


def _bar_ends(trace: Mapping[str, Any], lengths: Sequence[Any]) -> list[Any]:
    """Where a bar ends on its value axis: its length plus its `base` where it has one (a tornado's bars start at
    the current value; the table had shown their lengths, "-0.04", under the heading "First token time (s)")."""
    base = trace.get("base")
    if base is None:
        return list(lengths)
    starts = _values(base) if not isinstance(base, (int, float)) else [base] * len(lengths)
    return [v + b if isinstance(v, (int, float)) and isinstance(b, (int, float)) else v
            for v, b in zip(lengths, starts)]


def _num(v: float, suffix: str) -> str:
    return number(v) + suffix


def describe(fig: Any, words: Callable[..., str]) -> str:
    """The text alternative of `fig`; `words(key, **values)` gives content/ui/common.yaml's chart_alt_* sentences."""
    spec = _plain(fig)
    layout = spec["layout"]
    parts: list[str] = []
    series = 0
    for trace in spec["data"]:
        kind = trace.get("type", "scatter")
        name = str(trace.get("name") or "").strip()
        if trace.get("hoverinfo") == "skip" and not name:
            continue
        if kind == "heatmap" and trace.get("texttemplate"):
            marks = [c for row in _values(trace.get("text")) for c in row]
            fit = [c for c in marks if c]
            if fit:
                near = sum(c == CELL_BORDERLINE for c in fit)
                parts.append(words("chart_alt_cells_borderline" if near else "chart_alt_cells",
                                   meets=sum(c == CELL_MEETS for c in fit), total=len(fit), near=near))
            continue
        if kind == "bar":
            horizontal = trace.get("orientation") == "h"
            cats, vals = (_values(trace.get("y")), _values(trace.get("x"))) if horizontal else (_values(trace.get("x")), _values(trace.get("y")))
            vals = _bar_ends(trace, vals)
            _, suffix = _axis(layout, _axis_name(trace, "x" if horizontal else "y"))
            pairs = [(str(c).strip(), float(v)) for c, v in zip(cats, vals) if isinstance(v, (int, float)) and math.isfinite(v)]
            if not pairs:
                continue
            if len(pairs) > MAX_BARS:
                lo, hi = min(pairs, key=lambda p: p[1]), max(pairs, key=lambda p: p[1])
                items = words("chart_alt_extremes", low=f"{lo[0]} {_num(lo[1], suffix)}", high=f"{hi[0]} {_num(hi[1], suffix)}")
            else:
                items = ", ".join(f"{c} {_num(v, suffix)}".strip() for c, v in pairs)
            parts.append(f"{name}: {items}" if name else items)
            continue
        if kind == "scatter" and name and trace.get("showlegend", True) is not False:
            xs, ys = _values(trace.get("x")), _values(trace.get("y"))
            if series >= MAX_SERIES:
                continue
            series += 1
            x_title, x_suffix = _axis(layout, _axis_name(trace, "x"))
            y_title, y_suffix = _axis(layout, _axis_name(trace, "y"))
            points = sorted((x, y) for x, y in zip(xs, ys) if _finite([x]) and _finite([y]))
            if not points:
                continue
            (x0, y0), (x1, y1) = points[0], points[-1]
            if len(points) == 1 or x0 == x1:
                parts.append(words("chart_alt_point", name=name, x_title=x_title, x=_num(x0, x_suffix),
                                   y_title=y_title, y=_num(y0, y_suffix)))
            else:  # where the series starts and ends along the x axis: the trend a reader sees
                parts.append(words("chart_alt_series", name=name, x_title=x_title, x_start=_num(x0, x_suffix),
                                   x_end=_num(x1, x_suffix), y_title=y_title, y_start=_num(y0, y_suffix),
                                   y_end=_num(y1, y_suffix)))
    text = " ".join(p.rstrip(".") + "." for p in parts if p)
    return re.sub(r"\s{2,}", " ", text)  # an axis without a title leaves no double space


def _column(title: str, suffix: str, fallback: str) -> str:
    """A table column named by its axis title with the unit the ticks carry ("지연 시간 (s)")."""
    title = title or fallback
    unit = suffix.strip()
    return f"{title} ({unit})" if unit and unit not in title else title


def _cell(v: Any) -> str:
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return number(float(v))
    return str(v).replace("<br>", " ").strip()


def _label(custom: Any) -> str:
    """A point's name from its customdata (the hover's first line, e.g. a device's name), or ''."""
    first = custom[0] if isinstance(custom, (list, tuple)) and custom else custom
    return first.replace("<br>", " ").strip() if isinstance(first, str) and not _finite([first]) else ""


def _coordinate(v: Any, ax: Mapping[str, Any], custom: Any) -> tuple[str, bool]:
    """A coordinate as the chart shows it, and whether it is a name rather than a number: the tick text
    at a named tick of a linear or category axis; on an axis whose ticks are hidden because the names
    sit beside the marks, the point's own name (its customdata); otherwise the value."""
    vals, texts = list(ax.get("tickvals") or []), list(ax.get("ticktext") or [])
    if ax.get("type") != "log" and v in vals and vals.index(v) < len(texts) and str(texts[vals.index(v)]).strip():
        return _cell(texts[vals.index(v)]), True
    if ax.get("showticklabels") is False and _label(custom):
        return _label(custom), True
    return _cell(v), isinstance(v, str)


def tables(fig: Any, words: Callable[..., str]) -> list[tuple[list[str], list[list[str]]]]:
    """The chart's own numbers as small tables (issue 23 item 3: "a small table behind a control"):
    one (column names, rows of text) per pair of axes the traces use (a chart of two panels gives two).
    One row per bar, point or map cell of every trace the text alternative reads (legend-less helper
    traces and colour-only layers left out); columns are the series (where there are several), then the
    axes' titles with the unit their ticks carry, then, for a budget map, each cell's mark and hover text
    (content/ui/common.yaml chart_table_*). Numbers through `number` (latency/language/formats.py)."""
    spec = _plain(fig)
    layout = spec["layout"]
    groups: dict[tuple[str, str], dict[str, Any]] = {}
    for trace in spec["data"]:
        kind = trace.get("type", "scatter")
        name = str(trace.get("name") or "").replace("<br>", " ").strip()
        if trace.get("hoverinfo") == "skip" and (kind == "heatmap" or not name):
            continue  # a hover layer, or a layer that only colours (grey "does not fit" cells)
        if kind == "scatter" and (not name or trace.get("showlegend", True) is False):
            continue
        if kind not in ("bar", "scatter", "heatmap"):
            continue
        axes = (_axis_name(trace, "x"), _axis_name(trace, "y"))
        g = groups.setdefault(axes, {"rows": [], "value": False, "named": [False, False], "labels": False})
        xs, ys = _values(trace.get("x")), _values(trace.get("y"))
        if kind == "bar" and trace.get("orientation") == "h":
            xs = _bar_ends(trace, xs)
        elif kind == "bar":
            ys = _bar_ends(trace, ys)
        if kind == "heatmap":
            g["value"] = g["named"][0] = g["named"][1] = True
            marks, hover = _values(trace.get("text")), _values(trace.get("customdata"))
            for i, y in enumerate(ys):
                for j, x in enumerate(xs):
                    mark = str(marks[i][j]) if i < len(marks) and j < len(marks[i]) else ""
                    said = str(hover[i][j]) if i < len(hover) and j < len(hover[i]) else ""
                    # the cell's mark and its own hover text (numbers already in the reader's language)
                    shown = " ".join(p for p in (mark, re.sub(r"\s*<br>\s*", " · ", said).strip()) if p)
                    g["rows"].append((name, _cell(x), _cell(y), shown))
            continue
        x_ax, y_ax = layout.get(axes[0]) or {}, layout.get(axes[1]) or {}
        customs = _values(trace.get("customdata"))
        for i, (x, y) in enumerate(zip(xs, ys)):
            if x is None or y is None or not (_finite([x]) or isinstance(x, str)) or not (_finite([y]) or isinstance(y, str)):
                continue
            custom = customs[i] if i < len(customs) else None
            (cx, nx), (cy, ny) = _coordinate(x, x_ax, custom), _coordinate(y, y_ax, custom)
            g["named"][0] |= nx
            g["named"][1] |= ny
            label = "" if nx or ny else _label(custom)  # a point's name the chart gives only on hover
            g["labels"] |= bool(label)
            g["rows"].append((name, cx, cy, label))
    # panels that share one x axis title it once, under the lowest: the others' columns borrow it
    shared_x = next((_axis(layout, k) for k in sorted(layout) if re.fullmatch(r"xaxis\d*", k) and _axis(layout, k)[0]), ("", ""))
    out = []
    for (x_axis, y_axis), g in groups.items():
        rows = g["rows"]
        if not rows:
            continue
        series = len({r[0] for r in rows}) > 1
        axes_cols = [_column(*(_axis(layout, a) if _axis(layout, a)[0] or a[0] == "y" else shared_x), words("chart_table_name" if named else f"chart_table_{a[0]}"))
                     for a, named in zip((x_axis, y_axis), g["named"])]
        order = [1, 0] if g["named"] == [False, True] else [0, 1]  # the names first, as a reader scans them
        columns = ([words("chart_table_series")] if series else []) + (
            [words("chart_table_name")] if g["labels"] else []) + [axes_cols[k] for k in order] + (
            [words("chart_table_value")] if g["value"] else [])
        out.append((columns, [([r[0]] if series else []) + ([r[3]] if g["labels"] else []) + [r[1 + k] for k in order] + (
            [r[3]] if g["value"] else []) for r in rows]))
    return out
