"""Every chart of the app goes on screen through `show` (a plotly Figure) or `show_spec` (a figure
as plain dicts, latency/charts/estimator.py `*_spec`), with the one plotly config; the estimator's two live
charts through `show_live` (a Vega-Lite spec and its rows, latency/charts/live.py)."""

from __future__ import annotations

from typing import Any, Mapping

import pandas as pd
import pyarrow as pa
import plotly.graph_objects as go
import streamlit as st
from plotly.basedatatypes import BaseFigure

from latency.charts.describe import describe, tables
from latency.charts.style import CONFIG, template_json
from ui import shell


def alt_text(fig: Any) -> str:
    """The chart's text alternative in the reader's language, with its key numbers (latency/charts/describe.py)."""
    return describe(fig, shell.strings("common"))


def show(fig: go.Figure, key: str, alt: str | None = None, table: bool = True, name: str | None = None) -> None:
    """Draw `fig` full width with the app's plotly config (no mode bar: see chart_style.CONFIG), its
    text alternative (`alt`, or one read off the figure) and, unless `table=False` (a chart whose
    numbers the page writes out beside it), its numbers as a table behind a control (`show_table`)
    named after the chart (`name`, see `table_panel`)."""
    st.plotly_chart(fig, config=CONFIG, key=key, alt=(alt if alt is not None else alt_text(fig)) or None)
    if table:
        show_table(fig, key, name)


def show_table(fig: Any, key: str, name: str | None = None) -> None:
    """The chart's own numbers (latency/charts/describe.py `tables`) in a closed expander under it, keyed
    `{key}_table` (issue 23 item 3: where the chart is the only place a number lives). The tables are
    built only while it is open (on_change="rerun" and `.open`, as ui/feel_player.py does): a closed one
    costs a rerun one element."""
    words = shell.strings("common")
    panel = table_panel(key, name)
    if panel is None:
        return
    with panel:
        for columns, rows in tables(fig, words):
            seen: dict[str, int] = {}
            names = []
            for c in columns:  # two axes of the same title would make one column of two
                seen[c] = seen.get(c, 0) + 1
                names.append(c if seen[c] == 1 else f"{c} ({seen[c]})")
            st.table(pd.DataFrame(rows, columns=names).set_index(names[0]))


def table_panel(key: str, name: str | None = None):
    """The closed "Show as a table: <name>" expander under chart `key` (keyed `{key}_table`): the expander
    while it is open, to draw the table into, else None (build nothing). `name` is the chart's own static
    heading, so a screen-reader user who lists a page's controls tells its tables apart (issue 23); a page
    with one chart may leave it out. Static: the label is part of the expander's identity, so a name with
    numbers in it would close an open table on every input change."""
    common = shell.strings("common")
    label = common("chart_table_open_named", name=name) if name else common("chart_table_open")
    panel = st.expander(label, key=f"{key}_table", on_change="rerun")
    return panel if panel.open else None


def show_rows(columns: list[str], rows: list[list[str]], panel) -> None:
    """A prepared table (first column as its index) in an open `table_panel`."""
    with panel:
        st.table(pd.DataFrame(rows, columns=columns).set_index(columns[0]))


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


def show_spec(spec: Mapping[str, Any], key: str, name: str | None = None) -> None:
    """Draw a figure spec (latency/charts/estimator.py `*_spec`) like `show`, without building plotly objects,
    its numbers as a table behind a control named `name`."""
    st.plotly_chart(Prebuilt(spec), config=CONFIG, key=key, alt=alt_text(spec) or None)
    show_table(spec, key, name)


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
