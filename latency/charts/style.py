"""One look for every chart: the app's Korean-capable font, stage colours, lean layout; the one plotly
config (CONFIG) and the one Vega-Lite config (LIVE_CONFIG, the estimator's two live charts)."""

from __future__ import annotations

import functools

import plotly.graph_objects as go
import plotly.io as pio

TRACE_TYPES = ("bar", "heatmap", "scatter")
"""The plotly trace types the app draws (tests/charts/test_charts.py checks the chart modules against it)."""
UNUSED_LAYOUT = ("geo", "mapbox", "map", "polar", "scene", "smith", "ternary")
"""Subplot kinds of plotly_white's layout that no chart here has."""


def lean_white() -> go.layout.Template:
    """plotly_white, less what no chart of the app can use: the defaults of the 20-odd trace types
    it does not draw and of subplot kinds it has none of (UNUSED_LAYOUT). Every other part (axes,
    colours, fonts, margins' automargin/standoff, bar outlines, colour bars) is plotly_white's own,
    so the charts look the same. Why: plotly deep-copies the whole template into every figure's
    JSON, twice per chart on a slider move (building the figure; `to_dict` in st.plotly_chart); the
    unused two thirds were about a quarter of the estimator size chart's cost (cProfile: 37.9k ->
    28.4k Python calls, JSON 19.6 -> 15.9 KB)."""
    white = pio.templates["plotly_white"]
    layout = {k: v for k, v in white.layout.to_plotly_json().items() if k not in UNUSED_LAYOUT}
    return go.layout.Template(layout=layout, data={t: getattr(white.data, t) for t in TRACE_TYPES})


pio.templates["lean_white"] = lean_white()
TEMPLATE = "lean_white"
# Every figure's template, set as plotly's default rather than per figure: a figure takes the default
# at creation without validating it again ("Assume default template is already validated", plotly's
# BaseFigure._initialize_layout_template), where `update_layout(template=...)` re-validated the whole
# template, 23 ms a figure (most of base_layout's 38 ms; measured with timeit). The figures' JSON is
# the same either way (checked against every figure of the estimator, trade-off, how-it-works and
# lesson pages). plotly_white (as `lean_white`) is needed: st.plotly_chart's theme="streamlit" does
# NOT make it redundant. Rendered in Chromium with and without it, 28 of the 42 chart views captured
# differed (plot area and axis-title offsets from its axis automargin/title standoff, the white
# 0.5 px bar outlines, colorbar ticks), so dropping it would change what users see.
pio.templates.default = TEMPLATE


@functools.lru_cache(maxsize=1)
def template_json() -> dict:
    """The template as the JSON dict plotly puts into every figure's layout (read-only: shared)."""
    return pio.templates[TEMPLATE].to_plotly_json()

FONT_FAMILY = "Pretendard, sans-serif"  # same family as the theme (.streamlit/config.toml)

# The palette: every colour a chart draws comes from here, so a new chart gets it for free. Each is
# chosen for its contrast on the charts' white background (WCAG 2.2 AA: 4.5:1 for text, 1.4.3; 3:1 for
# marks that carry meaning, 1.4.11), and white text inside a stage's bar is 4.5:1 or more too.
# tests/charts/test_palette.py computes every ratio with WCAG's formula; the values are its output.
INK = "#1f2937"          # chart text: titles, legends, labels (14.7:1)
INK_MUTED = "#4b5563"    # tick labels, secondary notes (7.6:1)
LINE_MUTED = "#6b7280"   # reference lines and their labels: other budgets, plateaus, leader lines (4.8:1)
GRID = "#e5e7eb"         # grid lines: decoration, carries no meaning
FOCUS = "#1d4ed8"        # the keyboard focus ring on every control (ui/style.py): 6.7:1 on white, 3:1 or more on the sidebar
# One colour per latency stage, used by every chart that shows stages.
STAGE_COLORS = {
    "network": "#475569",  # 7.6:1
    "queue": "#b45309",    # 5.0:1
    "prefill": "#2563eb",  # 5.2:1
    "decode": "#047857",   # 5.5:1
}
HIGHLIGHT = "#dc2626"    # the current point, "misses the budget" (4.8:1)
BUDGET = "#15803d"       # the chosen budget's line and label, "meets the budget" (5.0:1)
NOFIT = "#64748b"        # "does not fit the hardware" (4.8:1)
TOTAL = "#7c3aed"        # the whole answer (5.7:1)
BUDGET_FILL = "rgba(21, 128, 61, 0.10)"  # the budget band behind the curves: decoration, the line carries it
MIN_FONT_PX = 11         # no chart text smaller than this (tick labels included)
WHITE = "white"          # marker outlines and text inside a stage's bar
PRECISION_COLORS = ["#1e3a8a", "#2563eb", "#0e7490", "#047857", "#b45309", "#dc2626", "#7c3aed"]  # memory chart: 3:1 or more
SECOND_VOTE = "#1d4ed8"  # a room's second vote (blue-700, 6.7:1 on white) and a phone's chosen answer's outline
CHOSEN_FILL = "#eff6ff"  # a phone's chosen answer: a light fill behind ink text (blue-50)
NOFIT_FILL = "#e2e8f0"   # a budget-map cell whose model does not fit: a light fill, its hover and the caption say it
# Blue (well under budget) -> near-white at the budget -> red (well over). Log2 of latency / budget.
# ColorBrewer's RdBu (Brewer & Harrower, colorbrewer2.org: "colorblind safe"), where the old
# green-to-red scale was lost on red-green colour blindness; each cell also says pass or fail in
# text (latency/charts/tradeoffs.py CELL_MEETS, CELL_MISSES). Its lighter half, so those marks in the
# palette's ink stay 4.5:1 or more on every cell (tests/charts/test_palette.py).
RATIO_SCALE = [  # the budget maps: latency / budget, log2
    [0.0, "#67a9cf"], [0.35, "#d1e5f0"], [0.5, "#f7f7f7"], [0.65, "#fddbc7"], [1.0, "#ef8a62"],
]

CONFIG = {"displayModeBar": False, "displaylogo": False, "responsive": True}
"""The one plotly config of the app (ui/charts.py `show` passes it to every chart). No mode bar:
on a 390 px phone plotly's toolbar sat on top of the legends, and the people this app is for do
not need its zoom/pan/lasso buttons (drag to zoom and double-click to reset still work; Streamlit's
own element toolbar keeps full screen)."""


LIVE_CONFIG = {
    "legend": {"orient": "top", "direction": "horizontal", "labelFontSize": 13, "symbolStrokeWidth": 3,
               "labelColor": INK, "titleColor": INK},
    "axis": {"labelFontSize": 12, "titleFontSize": 13, "titleFontWeight": "normal",
             "labelColor": INK_MUTED, "titleColor": INK, "gridColor": GRID},
    "text": {"color": INK},
    "view": {"stroke": None},
    # No automatic screen-reader descriptions: Vega's read raw data ("X-axis titled ... for a log scale with
    # values from 0.43478260869..."; issue 34 item 7). The marks that carry the key numbers opt back in with
    # a text of their own in the page's language (`aria: true` and a `description` field of their rows).
    "aria": False,
}
"""The Vega-Lite config of the estimator's two live charts (latency/charts/live.py), set to read like
the plotly charts beside them: legend above the plot, base_layout's 13 px text, no frame round the
plot. The font comes from Streamlit's theme (Pretendard, .streamlit/config.toml); text colours from
the palette above, since the theme's axis grey (#808495) is 3.7:1 on white."""


def base_layout(fig: go.Figure, *, title: str | None = None, height: int = 360) -> go.Figure:
    """Apply the shared font, margins and legend placement (the template is plotly's default, set
    above); returns the same figure."""
    fig.update_layout(
        title=dict(text=title) if title else None,
        font=dict(family=FONT_FAMILY, size=13, color=INK),
        height=height,
        margin=dict(l=10, r=10, t=50 if title else 20, b=10),
        legend=dict(orientation="h", yanchor="bottom", y=1.02, xanchor="left", x=0),
        hoverlabel=dict(font_family=FONT_FAMILY),
    )
    # Streamlit's chart theme greys tick labels and axis titles (#808495, 3.7:1); the palette's own
    # colours, set on every axis the figure has (subplots too), are what the reader sees.
    for update in (fig.update_xaxes, fig.update_yaxes):
        update(tickfont=dict(color=INK_MUTED), title_font=dict(color=INK), gridcolor=GRID,
               exponentformat="none", separatethousands=True)  # plain numbers, never "1e+2" (issue 31 item 4)
    fig.update_annotations(font_color=INK)  # subplot titles
    return fig
