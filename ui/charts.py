"""Every chart of the app goes on screen through `show`, with the one plotly config."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from latency.chart_style import CONFIG


def show(fig: go.Figure, key: str) -> None:
    """Draw `fig` full width with the app's plotly config (no mode bar: see chart_style.CONFIG)."""
    st.plotly_chart(fig, config=CONFIG, key=key)
