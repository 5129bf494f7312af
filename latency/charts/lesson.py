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
# The total written at a bar's end (an annotation, left-anchored LABEL_SHIFT_PX right of the bar)
# gets a right margin as wide as the longest such label, estimated at CHAR_EM of the font size a
# character (digits and "s"/"초" in Pretendard measure 0.55 to 0.95 em; 0.62 is a mean with room for
# the wide Korean unit spread over the narrow digits): with only a 10 px margin it was cut at the
# figure's edge on a phone ("2.4 s" read "2.").
LABEL_SHIFT_PX = 6
BAR_PX = 32  # a bar's thickness when its label stands above it (labels_above)
CHAR_EM = 0.62
# A stage shorter than this share of the axis is drawn this wide, so every stage the legend names can be
# found in the bar (issue 34 item 4: at 390 px the network, queue and prefill of a chat answer were 1-2 px
# slivers beside a 300 px decode). 0.025 of a 330 px plot is 8 px. Its true seconds stay in the hover text
# and the table under the chart; the caption under the chart says the thin stages are drawn wider.
MIN_SEGMENT_SHARE = 0.025


def label_px(text: str, font_size: float) -> int:
    """The estimated width of a one-line chart label in pixels (CHAR_EM a character; a Hangul
    syllable, drawn a full em wide, counts as 1.6 characters)."""
    chars = sum(1.6 if "\uac00" <= c <= "\ud7a3" else 1.0 for c in text)
    return round(chars * font_size * CHAR_EM)


def stage_bars(rows: Sequence[tuple[str, Mapping[str, float]]], *, names: Mapping[str, str], x_max: float,
               axis_title: str, fmt_s: Callable[[float], str], highlight: str | None = None,
               font_size: int = 14, legend_columns: int = 1, labels_above: bool = False,
               label_width_px: float | None = None) -> go.Figure:
    """One bar per row ``(label, {stage: seconds})``, stages stacked in order, the total at the bar's end.

    names: the label of each stage (legend). highlight: a stage drawn at full colour while the
    others fade (the "stages" step). font_size: larger in presenter mode. legend_columns: the stage
    names side by side in that many columns of equal width (a fraction of the plot's width each),
    so the legend's height is known: 2 on the projected screen where the names are short, which
    saves two lines of the screen's height. label_width_px: where a label above its bar wraps (default
    LABEL_LINE_PX, a phone's plot). labels_above: each row's label on a line of its own above
    its bar instead of beside it, so the bars keep the chart's whole width (on the projected
    screen's half-width chart a label such as "선택: NVIDIA B200 (HGX/DGX) (데이터센터 GPU)" took
    two thirds of it).
    """
    labels = [label for label, _ in rows][::-1]  # first row on top
    parts = [dict(p) for _, p in rows][::-1]
    fig = go.Figure()
    floor = MIN_SEGMENT_SHARE * x_max
    shown = [stage for stage in STAGES if any(p.get(stage, 0.0) > 0 for p in parts)]  # a stage of 0 s: no colour to find
    for stage in shown:
        xs = [max(p.get(stage, 0.0), 0.0) for p in parts]
        fade = highlight is not None and stage != highlight
        marker = dict(color=STAGE_COLORS[stage], opacity=0.25 if fade else 1.0,
                      line=dict(color=HIGHLIGHT, width=3) if stage == highlight else None)
        fig.add_trace(go.Bar(  # the stage's true seconds: the legend, the hover, the text alternative and the table read these
            x=xs, y=labels, orientation="h", name=names[stage], marker=marker,
            hovertemplate=[f"{names[stage]}: {fmt_s(x)}<extra></extra>" for x in xs],
        ))
        pads = [drawn_width(x, floor) - x for x in xs]
        if any(pad > 0 for pad in pads):  # a thin stage drawn wider, right after itself: unnamed, not in the legend or table
            fig.add_trace(go.Bar(x=pads, y=labels, orientation="h", name="", showlegend=False, hoverinfo="skip",
                                 marker=dict(marker, line=None)))
    totals = [sum(max(v, 0.0) for v in p.values()) for p in parts]
    ends = [sum(drawn_width(max(p.get(stage, 0.0), 0.0), floor) for stage in shown) for p in parts]
    # The stage names stand one per line above the bars, in a top margin of their own: a row of four
    # wraps on a phone (390 px) and, in a figure of fixed height, ran over the bars and their times.
    columns = max(1, min(legend_columns, len(shown)))
    legend_px = round(-(-len(shown) // columns) * font_size * LEGEND_LINE_EM) + 8
    axis_px = round(font_size * AXIS_BLOCK_EM)  # tick labels, the gap and the axis title below the bars
    right_px = max(10, max((label_px(fmt_s(t), font_size) for t in totals), default=0) + LABEL_SHIFT_PX + 4)
    legend = dict(orientation="v", yanchor="bottom", y=1.0, yref="paper", xanchor="left", x=0,
                  traceorder="normal", font=dict(size=font_size, color=TEXT_COLOR))
    if columns > 1:
        legend.update(orientation="h", entrywidthmode="fraction", entrywidth=1 / columns - 0.005)
    above = labels_above and any(labels)
    row_px, bargap, pad, notes = 54, 0.35, 0, []
    if above:  # a bar BAR_PX thick under its label's lines; the top row's label reaches `pad` over the plot
        wrapped = {lab: wrap_px(lab, font_size, label_width_px or LABEL_LINE_PX) for lab in labels if lab}
        lines = max((w.count("<br>") + 1 for w in wrapped.values()), default=1)
        line_px = round(font_size * 1.3) * lines
        row_px = BAR_PX + line_px + 8
        band = (row_px * len(rows) + 16) / len(rows)
        bargap = 1 - BAR_PX / band
        pad = max(0, round(BAR_PX / 2 + line_px - band / 2) + 4)
        notes = [dict(x=0, xref="paper", y=lab, text=wrapped[lab], showarrow=False, xanchor="left", yanchor="bottom", align="left",
                      yshift=BAR_PX / 2 + 1, font=dict(size=font_size, family=FONT_FAMILY, color=TEXT_COLOR))
                 for lab in labels if lab]
    plot_px = row_px * len(rows) + 16
    legend["y"] = 1.0 + pad / plot_px
    base_layout(fig, height=legend_px + pad + axis_px + plot_px)
    fig.update_layout(
        barmode="stack", bargap=bargap, font=dict(family=FONT_FAMILY, size=font_size),
        # Sizes and the text colour set on the legend and axes themselves, so Streamlit's chart theme
        # keeps them (its own grey tick text is 3.7:1 on white, under the 4.5:1 the app holds to).
        legend=legend,
        xaxis=dict(title=dict(text=axis_title, font=dict(size=font_size, color=TEXT_COLOR), standoff=font_size * 0.6),
                   range=[0, max(x_max, *ends) * 1.05], fixedrange=True, tickfont=dict(size=font_size, color=TEXT_COLOR), automargin=False),
        yaxis=dict(fixedrange=True, automargin=True, showticklabels=not above, tickfont=dict(size=font_size, color=TEXT_COLOR)),
        annotations=[dict(x=end, y=lab, text=fmt_s(t), showarrow=False, xanchor="left", xshift=LABEL_SHIFT_PX,
                          font=dict(size=font_size, family=FONT_FAMILY, color=TEXT_COLOR)) for t, end, lab in zip(totals, ends, labels)] + notes,
        margin=dict(l=10, r=right_px, t=legend_px + pad, b=axis_px),
    )
    return fig


LABEL_LINE_PX = 290  # a row label above its bar wraps at this width: the plot of a 390 px phone is about 330 px


def wrap_px(text: str, font_size: float, width_px: float) -> str:
    """`text` broken between words into lines of at most `width_px` (label_px's estimate), joined by <br>;
    "<" and ">" shown as text (plotly reads a few HTML tags in labels)."""
    words, lines = text.replace("<", "‹").replace(">", "›").split(" "), [""]
    for word in words:
        trial = f"{lines[-1]} {word}".strip()
        if lines[-1] and label_px(trial, font_size) > width_px:
            lines.append(word)
        else:
            lines[-1] = trial
    return "<br>".join(lines)


def widened(rows: Sequence[tuple[str, Mapping[str, float]]], x_max: float) -> bool:
    """Whether `stage_bars` draws some stage wider than its seconds (the page says so under the chart)."""
    floor = MIN_SEGMENT_SHARE * x_max
    return any(0 < v < floor for _, p in rows for v in p.values())


def drawn_width(seconds: float, floor: float) -> float:
    """A stage's drawn length: its seconds, or `floor` for a stage above 0 s that would be thinner."""
    return max(seconds, floor) if seconds > 0 else 0.0


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
