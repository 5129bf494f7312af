"""The onboarding room's charts (issue 30 items 4, 5): a question's votes (the spread without the
right answer, the first vote beside the second, the right option marked) and the room's results
(share right per question on the first and the second vote). Data in, plotly figure out; every
text arrives in the page's language, numbers already formatted (latency/language/formats.py).
Counts and shares stand at the bars, so the page writes the same numbers out as text beside them."""

from __future__ import annotations

import textwrap
from typing import Sequence

import plotly.graph_objects as go

from latency.charts.style import BUDGET_FILL, FONT_FAMILY, INK, NOFIT_FILL, SECOND_VOTE, STAGE_COLORS, base_layout

RIGHT_COLOR = STAGE_COLORS["decode"]   # the palette's green, 5.5:1 on white: the right answer (one vote shown)
OTHER_COLOR = STAGE_COLORS["network"]  # the palette's slate, 7.6:1 on white: every other option, and the first vote
SECOND_COLOR = SECOND_VOTE             # blue-700, 6.7:1 on white (WebAIM contrast checker): the second vote
RIGHT_BAND = BUDGET_FILL               # a light green band behind the right option's row: decoration (its label says "right")
TRACK_FILL = NOFIT_FILL                # slate-200: each results row's 0-100% track, so a 0% row still shows its row


def _band(fig: go.Figure, row: int, fill: str, x1: float | None = None, half: float = 0.5) -> None:
    """A band behind category row `row` (0 = the bottom row): across the plot, or from 0 to `x1`."""
    fig.add_shape(type="rect", xref="paper" if x1 is None else "x", yref="y", x0=0, x1=1 if x1 is None else x1,
                  y0=row - half, y1=row + half, fillcolor=fill, line=dict(width=0), layer="below")


def _wrap(text: str, width: int) -> str:
    safe = text.replace("<", "‹").replace(">", "›")  # plotly reads a few HTML tags in labels: shown as text
    return "<br>".join(textwrap.wrap(safe, width=width, break_long_words=False)) or safe


def vote_bars(labels: Sequence[str], first: Sequence[int], second: Sequence[int] | None = None, *,
              right: int | None = None, names: tuple[str, str] = ("", ""), font_size: int = 14,
              wrap: int = 22, height: int | None = None, count_text: str = "{n}",
              count_one: str | None = None) -> go.Figure:
    """One question's votes, one row per option (first on top), its count at the bar's end as
    `count_text` writes it ("{n}명", "{n} votes"; `count_one` for exactly one: "1 vote"). An empty bar
    says "0명" too: without it the other bars' counts stood off their labels' centre and a row read as
    unanswered (presenter re-check 2026-12-05); a bare "0" had read as an axis label, so the count
    always carries its counter word. Without
    `second`: one bar per option, the right one green once `right` is given (the spread before the
    reveal has no right). With `second`: the first vote (slate) beside the second (blue), legend
    `names` above. Once `right` is given (the reveal), its row stands on a green band whatever its
    count (0 included) and after a second vote too; the page also marks it in its label."""
    ys = [_wrap(x, wrap) for x in labels][::-1]
    n = len(labels)

    def label(count: int) -> str:
        return (count_one if count == 1 and count_one else count_text).format(n=count)

    fig = go.Figure()
    text = dict(textposition="outside", cliponaxis=False, hoverinfo="skip",
                textfont=dict(size=font_size, family=FONT_FAMILY, color=INK))
    if second is None:
        colors = [RIGHT_COLOR if right is not None and i == n - 1 - right else OTHER_COLOR for i in range(n)]
        xs = list(first)[::-1]
        fig.add_bar(x=xs, y=ys, orientation="h", marker=dict(color=colors), text=[label(x) for x in xs], **text)
        top = max([*first, 1])
    else:
        # plotly stacks grouped horizontal bars bottom-up: the second vote first, so the first vote sits on top
        # each count in its vote's colour: an empty bar draws nothing, and its "0명" in ink read as an axis label
        # rather than the second vote's count (presenter trial 2026-12-06); both colours are 6.7:1 or more on white
        for vote, color, name in ((second, SECOND_COLOR, names[1]), (first, OTHER_COLOR, names[0])):
            xs = list(vote)[::-1]
            fig.add_bar(x=xs, y=ys, orientation="h", marker=dict(color=color), name=name,
                        text=[label(x) for x in xs], **{**text, "textfont": dict(text["textfont"], color=color)})
        top = max([*first, *second, 1])
    if right is not None:
        _band(fig, n - 1 - right, RIGHT_BAND)
    lines = sum(y.count("<br>") + 1 for y in ys)
    base_layout(fig, height=height or round(font_size * 1.5 * lines + font_size * (2.6 if second else 1.6) * n) + 20
                + (font_size * 2 if second is not None else 0))
    fig.update_layout(
        font=dict(family=FONT_FAMILY, size=font_size, color=INK), showlegend=second is not None,
        barmode="group", bargap=0.25, bargroupgap=0.05,
        legend=dict(orientation="h", yanchor="bottom", y=1.0, xanchor="left", x=0, traceorder="reversed",
                    font=dict(size=font_size, color=INK)),
        # room after the longest bar for its count: "12명" needs less than "12 votes" (on a phone's narrow plot)
        xaxis=dict(visible=False, range=[0, top * (1.3 if len(label(top)) <= 4 else 1.5)], fixedrange=True),
        yaxis=dict(fixedrange=True, automargin=True, tickfont=dict(size=font_size, color=INK)),
        margin=dict(l=10, r=10, t=10 + (font_size * 2 if second is not None else 0), b=10),
    )
    return fig


def results_bars(titles: Sequence[str], first: Sequence[float | None], second: Sequence[float | None],
                 texts: Sequence[str], *, names: tuple[str, str], font_size: int = 14, height: int | None = None) -> go.Figure:
    """The room's share right per question (0 to 1): the first vote (slate) and, where the room voted
    again, the second (blue), one row per question (first on top); `texts` stand at the end of each
    row ("48% → 79%"), so each row carries one line of text however thin its bars. A row nobody
    answered (both None) has no track, only its text at 0 ("nobody answered")."""
    ys = [t.replace("<", "‹").replace(">", "›") for t in titles][::-1]
    n = len(titles)
    fig = go.Figure()
    twice = any(x is not None for x in second)  # the legend, and a second bar per row, only where the room voted again
    ends = [max(a or 0, b or 0) for a, b in zip(first, second)][::-1]
    answered = [a is not None or b is not None for a, b in zip(first, second)][::-1]
    for row in range(n):  # each row's track from 0 to 100%: a 0% row still shows where its bar would be.
        if answered[row]:  # none where nobody answered: a bare grey track read as a full bar (presenter trial, 2026-12-04)
            _band(fig, row, TRACK_FILL, x1=100, half=0.4)
    # Each row's own bars (overlaid, placed per row): a row voted once has one thick bar; a row voted
    # twice, the first vote on top and the second under it (a grouped chart gave every row two slots,
    # so a row voted once had a half-height bar).
    both = [b is not None for b in second][::-1]
    fig.add_bar(x=[(x or 0) * 100 for x in first][::-1], y=ys, orientation="h", marker=dict(color=OTHER_COLOR),
                name=names[0], hoverinfo="skip", showlegend=twice,
                width=[0.38 if k else 0.7 for k in both], offset=[0.01 if k else -0.35 for k in both])
    if twice:
        fig.add_bar(x=[(x or 0) * 100 for x in second][::-1], y=ys, orientation="h", marker=dict(color=SECOND_COLOR),
                    name=names[1], hoverinfo="skip", width=[0.38 if k else 0 for k in both], offset=[-0.39 if k else 0 for k in both])
    fig.add_scatter(x=[e * 100 for e in ends], y=ys, mode="text", text=[f" {x}" for x in texts][::-1], textposition="middle right",
                    textfont=dict(size=font_size, family=FONT_FAMILY, color=INK), hoverinfo="skip", showlegend=False,
                    cliponaxis=False)
    base_layout(fig, height=height or round(font_size * 2.4 * n + font_size * (3 if twice else 1)) + 20)
    fig.update_layout(
        font=dict(family=FONT_FAMILY, size=font_size, color=INK), barmode="overlay",
        showlegend=twice,
        legend=dict(orientation="h", yanchor="bottom", y=1.0, xanchor="left", x=0, traceorder="normal",
                    font=dict(size=font_size, color=INK)),
        xaxis=dict(visible=False, range=[0, 150], fixedrange=True),
        # no row lines: they ran on past each row's 0-100% track to the chart's edge (presenter trial, round 3)
        yaxis=dict(fixedrange=True, automargin=True, tickfont=dict(size=font_size, color=INK), showgrid=False),
        margin=dict(l=10, r=10, t=(font_size * 2 if twice else 0) + 10, b=10),
    )
    return fig
