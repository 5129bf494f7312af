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

from latency.charts.tradeoffs import CELL_MEETS
from latency.language.formats import number

MAX_BARS = 12     # a bar chart with more bars is summarised by its extremes
MAX_SERIES = 6    # lines or point sets described one by one


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
                parts.append(words("chart_alt_cells", meets=sum(c == CELL_MEETS for c in fit), total=len(fit)))
            continue
        if kind == "bar":
            horizontal = trace.get("orientation") == "h"
            cats, vals = (_values(trace.get("y")), _values(trace.get("x"))) if horizontal else (_values(trace.get("x")), _values(trace.get("y")))
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
