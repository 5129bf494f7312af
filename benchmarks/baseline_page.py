"""The plain page every speed goal is a ratio against (issue 8 item 8): a slider feeding four plotly
charts of 200 points each. Run by benchmarks/_apptest.py (AppTest) and benchmarks/bench_server.py
(a live server)."""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

n = st.slider("n", 1, 100, 10)
x = np.linspace(0.0, 1.0, 200)
for k in range(4):
    st.plotly_chart(go.Figure(go.Scatter(x=x, y=np.sin(x * n + k), mode="lines")), key=f"chart{k}")
