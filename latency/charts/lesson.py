"""The lesson's mini-chart: requests as horizontal bars of their four stages (plain data → plotly figure).

Pure (no streamlit). One builder for every step that shows numbers, so the stages keep one colour
(latency.charts.style.STAGE_COLORS) and the axis stays put while a step's slider moves (`x_max`).
"""

from __future__ import annotations

from typing import Callable, Mapping, Sequence

import plotly.graph_objects as go

from latency.charts.style import FONT_FAMILY, HIGHLIGHT, INK, STAGE_COLORS, base_layout
from latency.estimation.estimator import STAGES

# Layout in units of the font size (measured in Chromium at 390 and 1366 px with Pretendard and the
# fallback fonts): one legend line is 1.45 em high; tick labels, the title's standoff and the title
# take 3.6 em below the plot area.
TEXT_COLOR = INK          # the palette's ink (latency/charts/style.py): every chart text here
LEGEND_LINE_EM = 1.45
AXIS_BLOCK_EM = 3.6


def stage_bars(rows: Sequence[tuple[str, Mapping[str, float]]], *, names: Mapping[str, str], x_max: float,
               axis_title: str, fmt_s: Callable[[float], str], highlight: str | None = None,
               font_size: int = 14) -> go.Figure:
    """One bar per row ``(label, {stage: seconds})``, stages stacked in order, the total at the bar's end.

    names: the label of each stage (legend). highlight: a stage drawn at full colour while the
    others fade (the "stages" step). font_size: larger in presenter mode.
    """
    labels = [label for label, _ in rows][::-1]  # first row on top
    parts = [dict(p) for _, p in rows][::-1]
    fig = go.Figure()
    for stage in STAGES:
        xs = [max(p.get(stage, 0.0), 0.0) for p in parts]
        fade = highlight is not None and stage != highlight
        fig.add_trace(go.Bar(
            x=xs, y=labels, orientation="h", name=names[stage],
            marker=dict(color=STAGE_COLORS[stage], opacity=0.25 if fade else 1.0,
                        line=dict(color=HIGHLIGHT, width=3) if stage == highlight else None),
            hovertemplate=[f"{names[stage]}: {fmt_s(x)}<extra></extra>" for x in xs],
        ))
    totals = [sum(max(v, 0.0) for v in p.values()) for p in parts]
    # The stage names stand one per line above the bars, in a top margin of their own: a row of four
    # wraps on a phone (390 px) and, in a figure of fixed height, ran over the bars and their times.
    legend_px = round(len(STAGES) * font_size * LEGEND_LINE_EM) + 8
    axis_px = round(font_size * AXIS_BLOCK_EM)  # tick labels, the gap and the axis title below the bars
    base_layout(fig, height=legend_px + axis_px + 54 * len(rows) + 16)
    fig.update_layout(
        barmode="stack", bargap=0.35, font=dict(family=FONT_FAMILY, size=font_size),
        # Sizes and the text colour set on the legend and axes themselves, so Streamlit's chart theme
        # keeps them (its own grey tick text is 3.7:1 on white, under the 4.5:1 the app holds to).
        legend=dict(orientation="v", yanchor="bottom", y=1.0, yref="paper", xanchor="left", x=0,
                    traceorder="normal", font=dict(size=font_size, color=TEXT_COLOR)),
        xaxis=dict(title=dict(text=axis_title, font=dict(size=font_size, color=TEXT_COLOR), standoff=font_size * 0.6),
                   range=[0, x_max * 1.18], fixedrange=True, tickfont=dict(size=font_size, color=TEXT_COLOR), automargin=False),
        yaxis=dict(fixedrange=True, automargin=True, tickfont=dict(size=font_size, color=TEXT_COLOR)),
        annotations=[dict(x=t, y=lab, text=fmt_s(t), showarrow=False, xanchor="left", xshift=6,
                          font=dict(size=font_size, family=FONT_FAMILY, color=TEXT_COLOR)) for t, lab in zip(totals, labels)],
        margin=dict(l=10, r=10, t=legend_px, b=axis_px),
    )
    return fig


RIGHT_COLOR = STAGE_COLORS["decode"]   # the palette's green, 5.5:1 on white: the right answer's bar
OTHER_COLOR = STAGE_COLORS["network"]  # the palette's slate, 7.6:1 on white: every other option


def answer_bars(labels: Sequence[str], counts: Sequence[int], *, right: int, font_size: int = 14,
                wrap: int = 22) -> go.Figure:
    """A room's answers to one question: one horizontal bar per option (first on top), its count at
    the bar's end, the right option in green; no axis (the counts stand at the bars; the page shows
    the same numbers as text beside it). Labels are wrapped at `wrap` characters so a phone keeps
    room for the bars; `<` and `>` are shown as text (plotly reads a few HTML tags in labels)."""
    ys = [_wrap(x, wrap) for x in labels][::-1]
    xs = list(counts)[::-1]
    colors = [RIGHT_COLOR if i == len(labels) - 1 - right else OTHER_COLOR for i in range(len(labels))]
    fig = go.Figure(go.Bar(x=xs, y=ys, orientation="h", marker=dict(color=colors),
                           text=[str(x) for x in xs], textposition="outside", cliponaxis=False,
                           textfont=dict(size=font_size, family=FONT_FAMILY, color=TEXT_COLOR), hoverinfo="skip"))
    lines = sum(y.count("<br>") + 1 for y in ys)
    base_layout(fig, height=round(font_size * 1.5 * lines + font_size * 1.6 * len(ys)) + 20)
    top = max([*counts, 1])
    fig.update_layout(
        font=dict(family=FONT_FAMILY, size=font_size, color=TEXT_COLOR), showlegend=False, bargap=0.25,
        xaxis=dict(visible=False, range=[0, top * 1.3], fixedrange=True),
        yaxis=dict(fixedrange=True, automargin=True, tickfont=dict(size=font_size, color=TEXT_COLOR)),
        margin=dict(l=10, r=10, t=10, b=10),
    )
    return fig


def _wrap(text: str, width: int) -> str:
    import textwrap

    safe = text.replace("<", "‹").replace(">", "›")
    return "<br>".join(textwrap.wrap(safe, width=width, break_long_words=False)) or safe
