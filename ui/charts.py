"""Every chart of the app goes on screen through `show` (a plotly Figure) or `show_spec` (a figure
as plain dicts, latency/charts/estimator.py `*_spec`), with the one plotly config; the estimator's two live
charts through `show_live` (a Vega-Lite spec and its rows, latency/charts/live.py)."""

from __future__ import annotations

from typing import Any, Mapping

import pyarrow as pa
import plotly.graph_objects as go
import streamlit as st
from plotly.basedatatypes import BaseFigure

from latency.charts.describe import describe
from latency.charts.style import CONFIG, template_json
from ui import shell


def alt_text(fig: Any) -> str:
    """The chart's text alternative in the reader's language, with its key numbers (latency/charts/describe.py)."""
    return describe(fig, shell.strings("common"))


def show(fig: go.Figure, key: str, alt: str | None = None) -> None:
    """Draw `fig` full width with the app's plotly config (no mode bar: see chart_style.CONFIG) and
    its text alternative: `alt`, or one read off the figure."""
    st.plotly_chart(fig, config=CONFIG, key=key, alt=alt or alt_text(fig) or None)


class Prebuilt(BaseFigure):
    """A figure spec that the app built as plain dicts, carried to st.plotly_chart.

    st.plotly_chart takes a plotly figure (a dict it would validate property by property) and only
    calls its `to_dict()` before writing the JSON. A spec needs no plotly objects: building a
    go.Figure from it and copying it back out in `to_dict` was about a third of an estimator rerun
    when its live charts were plotly; the trade-off page's budget maps, redrawn on every input
    change, go through it now. So this carrier is a BaseFigure that is
    never built: `to_dict()` returns the spec with plotly's default template, as go.Figure would
    (tests/charts/test_charts.py checks the JSON is the same), not a copy (Streamlit only reads it). It has
    nothing else of a Figure; use latency.charts.estimator.figure_of(spec) for one."""

    def __init__(self, spec: Mapping[str, Any]) -> None:  # noqa: D107  (no BaseFigure.__init__: see above)
        self._spec = {"data": spec["data"], "layout": {**spec["layout"], "template": template_json()}}

    def to_dict(self) -> dict[str, Any]:
        return self._spec


def show_spec(spec: Mapping[str, Any], key: str) -> None:
    """Draw a figure spec (latency/charts/estimator.py `*_spec`) like `show`, without building plotly objects."""
    st.plotly_chart(Prebuilt(spec), config=CONFIG, key=key, alt=alt_text(spec) or None)


def show_live(spec: Mapping[str, Any], rows: list[dict[str, Any]], key: str, alt: str) -> None:
    """Draw a live chart (latency/charts/live.py) full width. Its spec is the same on every rerun, so
    the browser keeps the chart and only takes the new rows; `alt` describes it to screen readers.

    The rows go as an Arrow table (pyarrow comes with Streamlit, whose wire format it is): built
    column by column it cost the two charts about 2 ms a rerun, where a pandas DataFrame cost 5."""
    columns = dict.fromkeys(k for row in rows for k in row)  # every column, in first-seen order
    table = pa.table({k: [row.get(k) for row in rows] for k in columns})
    # `alt` names the chart's SVG for assistive technology: the heading alone, so the chart's identity
    # stays the same as the numbers change. No Vega-Lite `description` beside it: Streamlit would log a
    # warning on every rerun that alt overrides it.
    st.vega_lite_chart(table, dict(spec), width="stretch", key=key, alt=alt)
