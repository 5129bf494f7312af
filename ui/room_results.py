"""A room's results (issue 30 items 3-5): the room's learning gain in one line, the share right per
question asked on the first vote and after the discussion (one chart that fits a projector's screen,
its numbers written out beside it), the CSV (one row per question and option, counts per vote, which
option is right, no personal data), and a participant's own score over the questions asked.
Numbers from latency/room/results.py on the store's tallies; words from content/ui/lesson.yaml."""

from __future__ import annotations

import re
from datetime import timedelta, timezone

import streamlit as st

from latency.charts.room import results_bars, vote_bars
from latency.language.i18n import Strings, md
from latency.room import results
from latency.teaching import quiz
from ui import charts
from ui.room_view import Ctx, asked, lettered


def short_title(s: Strings, c: Ctx, q: quiz.Question) -> str:
    """"3. Laptop vs datacenter": the question's number in the quiz and its short title (content)."""
    return f"{c.questions.index(q) + 1}. {s(f'{quiz.ROOM_SHORT}{q.id}')}"


def list_line(text: str) -> str:
    """A line of a phone's list that starts with a question's number: "1\\." not "1.", since a line starting with
    a number and a period is a Markdown ordered list, whose numbers hung past the phone's left edge from "10."
    on (presenter trial, round 3)."""
    return re.sub(r"^(\d+)\.", r"\1\\.", text)


def _share(c: Ctx, x: float | None) -> str:
    """A share of a room's answers in whole percent: a room's counts are small, and "40% -> 9.1%" mixed two
    precisions in one sentence (newcomer trial 2026-12-05)."""
    return "–" if x is None else c.d.f.unit("percent", f"{round(100 * x):d}")


def scores(c: Ctx) -> tuple[list[quiz.Question], list[results.VoteScore], dict]:
    qs = asked(c)
    tallies = c.store.tallies(c.room.code)
    return qs, results.vote_scores([(q.id, c.outcomes[q.id].right) for q in qs], tallies), tallies


def gain_line(s: Strings, c: Ctx, got: list[results.VoteScore]) -> str:
    g = results.gain(got)
    if g.first_all is None:
        return s("room_gain_none_ended" if c.room.ended else "room_gain_none")  # no "yet" once it ended
    answered = sum(1 for x in got if x.answered1)  # the share is over these; the others had no answer (presenter
    # re-check 2026-12-06: "50% (12 questions asked)" where five had answers read as 50% of all twelve)
    if g.questions_twice:  # the whole room's first, then the discussed questions' gain (presenter trial 2026-12-05: the
        # gain alone, "0% -> 100% (questions voted twice: 1)", read as the room's score over every question)
        scope = s("room_gain_scope", asked=len(got)) if answered == len(got) else \
            s("room_gain_scope_some", asked=len(got), n=answered)
        return s("room_gain", all=_share(c, g.first_all), scope=scope, first=_share(c, g.first_twice),
                 second=_share(c, g.second_twice), n=g.questions_twice)
    if answered == len(got):
        return s("room_gain_once", first=_share(c, g.first_all), n=len(got))
    return s("room_gain_some", first=_share(c, g.first_all), n=answered, asked=len(got))


def room_results(s: Strings, c: Ctx, title: str, present: bool, height: int | None = None, chart: bool = True,
                 note: str | None = None) -> None:
    """The room's results: title (and a `note` under it), the gain line, the chart and its numbers
    as text (a phone: a list)."""
    qs, got, _ = scores(c)
    st.header(title, anchor=False)
    if note:
        st.caption(note)
    if not qs:  # one sentence for one fact (presenter trial 2026-12-05: "nobody answered" + "no questions asked")
        st.info(s("room_results_none_ended" if c.room.ended else "room_results_none"))
        return
    st.markdown(f"**{gain_line(s, c, got)}**")
    titles = [short_title(s, c, q) for q in qs]
    texts = [s("room_share_nobody") if not x.answered1 and not x.answered2
             else s("room_share_one", share=_share(c, x.share1)) if x.share2 is None
             else s("room_share_pair", first=_share(c, x.share1), second=_share(c, x.share2)) for x in got]
    if not chart:  # a phone: the same numbers as a list, one line per question (`list_line`)
        rows = (list_line(md(s("room_results_row", title=t, value=v))) for t, v in zip(titles, texts))
        st.markdown("  \n".join(rows))
        return
    st.caption(s("room_results_what"))
    font = 24 if present else 14
    fig = results_bars(titles, [x.share1 for x in got], [x.share2 for x in got], texts,
                       names=(s("room_vote_first"), s("room_vote_second")), font_size=font, height=height)
    alt = s("room_results_alt", rows="; ".join(s("room_results_row", title=t, value=v) for t, v in zip(titles, texts)))
    if present:  # the projector: as tall as the screen leaves, so the bars read from the back (the trial's were hairlines)
        fig.layout.height = None
        with st.container(key="room_results_box"):
            st.plotly_chart(fig, config=charts.CONFIG, key=f"room_results_{len(qs)}", alt=alt, height="stretch")
    else:
        charts.show(fig, f"room_results_{len(qs)}", alt=alt, table=False)  # the numbers stand at the bars and in `alt`
    if not present:  # the laptop's notes view: the same numbers as text too (the projector has no room for them)
        st.caption(md(alt))


CSV_CLOCK = {"ko": timezone(timedelta(hours=9))}
"""The clock the CSV's opening time is written in, by the room's language: Korean rooms in Korea's time (UTC+9,
no daylight saving since 1988; a fixed offset needs no time-zone database on the server), others in UTC. A
Korean presenter read "(UTC)" as jargon and the time as nine hours off (newcomer trial 2026-12-05)."""


def csv_bytes(s: Strings, c: Ctx) -> bytes:
    """One row per question and option (lettered as the room saw them) and a "no answer" row per
    question, each with the room's code, when it opened (in `CSV_CLOCK`'s time) and how many people joined it."""
    qs, _, tallies = scores(c)
    people = c.store.count_participants(c.room.code)
    opened = c.store.opened_at(c.room.code)
    rows = results.option_rows([(q.id, q.question[c.d.lang], list(zip([o.id for o in q.options], lettered(q, c.d.lang))),
                                 c.outcomes[q.id].right) for q in qs], tallies, s("room_yes"), s("room_no"),
                               people=people, no_answer=s("room_no_answer"))
    stamp = opened.astimezone(CSV_CLOCK.get(c.d.lang, timezone.utc)).strftime("%Y-%m-%d %H:%M") if opened else ""
    header = [s("room_col_room"), s("room_col_date"), s("room_col_people"), s("room_col_number"), s("room_col_question"),
              s("room_col_option"), s("room_col_correct"), s("room_col_vote1"), s("room_col_vote2")]
    return results.csv_text(header, [[c.room.code, stamp, people, *row] for row in rows]).encode("utf-8-sig")


def download(s: Strings, c: Ctx, short: bool = False) -> None:
    """The CSV's button; `short` on the projector's top row: the short label, no tooltip (a hover would
    stand on the wall; presenter trial, round 3). The notes view has the long label, which says what CSV is;
    both begin with the same words for the file (newcomer trial 2026-12-05: two labels for one file)."""
    st.download_button(s("room_download_short") if short else s("room_download"), csv_bytes(s, c),
                       file_name=f"room-{c.room.code}.csv", mime="text/csv", icon=":material/download:", key="room_csv")


def my_score(s: Strings, c: Ctx) -> None:
    """A participant's score over the questions asked (final answer: the second vote where they voted again)."""
    qs = asked(c)
    if not qs:  # no score to give; the room's results under it say that no question was asked
        return
    mine = c.store.my_answers(c.room.code, c.token or "")
    right = results.my_score([(q.id, c.outcomes[q.id].right) for q in qs], mine)
    answered = sum(1 for q in qs if results.final_answer(*mine.get(q.id, (None, None))) is not None)
    if answered == 0:  # no score to give (presenter trial: "you answered 0 and got 0 right" read as a verdict)
        st.subheader(s("room_my_score_zero", total=len(qs)), anchor=False)
    elif answered == len(qs):
        st.subheader(s("room_my_score", right=right, total=len(qs)), anchor=False)
    else:  # the questions this phone left unanswered named as such, not counted as silently wrong
        st.subheader(s("room_my_score_some", right=right, answered=answered, total=len(qs)), anchor=False)
    if answered and any(mine.get(q.id, (None, None))[1] is not None for q in qs):  # which vote counted (presenter
        st.caption(s("room_my_score_final"))  # re-check 2026-12-06: the room's line is the first vote's, this one not)
    if answered:  # which ones (presenter trial 2026-12-06: only the total, "4 of 12", and no way to see which), each by
        # the title the room's results below use, so a question can be found there
        marks = {True: s("room_mine_row_right"), False: s("room_mine_row_wrong"), None: s("room_mine_row_none")}
        rows = []
        for q in qs:
            final = results.final_answer(*mine.get(q.id, (None, None)))
            mark = marks[None if final is None else final == c.outcomes[q.id].right]
            rows.append(list_line(md(s("room_mine_row", title=short_title(s, c, q), mark=mark))))
        with st.expander(s("room_mine_list"), icon=":material/checklist:"):
            st.markdown("  \n".join(rows))


def votes_chart(s: Strings, c: Ctx, q: quiz.Question, *, reveal: bool, key: str, fill: bool = False) -> None:
    """One question's votes, the options lettered as the room calls them: the first vote's spread (no
    right answer before the reveal); at the reveal the first vote beside the second when the room
    voted twice, the right option marked in its label and on a green band (also when nobody chose it).
    The same numbers as a caption under it. `fill`: the projector, the chart as tall as the screen leaves."""
    ids = [o.id for o in q.options]
    first = [n for _, n in results.distribution(c.store.counts(c.room.code, q.id, 1), ids)]
    two = c.store.counts(c.room.code, q.id, 2) if reveal else {}
    second = [n for _, n in results.distribution(two, ids)] if two else None
    right = ids.index(c.outcomes[q.id].right) if reveal else None
    raw = lettered(q, c.d.lang)  # plotly text, not Markdown: the labels unescaped
    if reveal:
        raw = [s("room_right_mark", label=x) if i == right else x for i, x in enumerate(raw)]
    font = 24 if c.d.present else 14
    wrap = (14 if c.d.lang == "ko" else 24) if c.d.present else (12 if c.d.lang == "ko" else 22)
    fig = votes_figure(tuple(raw), tuple(first), tuple(second) if second else None, right,
                       (s("room_vote_first"), s("room_vote_second")), font, wrap, None, fill, s("room_bar_count", n="{n}"),
                       s("room_bar_count_one", n="{n}"))
    labels = [md(x) for x in lettered(q, c.d.lang)]
    if second is not None:
        rows = "; ".join(s("room_chart_row2", label=s("room_right_mark", label=lab) if i == right else lab, n=a, m=b)
                         for i, (lab, a, b) in enumerate(zip(labels, first, second)))
        alt = s("room_chart_alt2", rows=rows)
    elif reveal:
        rows = "; ".join(s("room_chart_right" if i == right else "room_chart_row", label=lab, n=n)
                         for i, (lab, n) in enumerate(zip(labels, first)))
        alt = s("room_chart_alt", rows=rows)
    else:
        rows = "; ".join(s("room_chart_row", label=lab, n=n) for lab, n in zip(labels, first))
        alt = s("room_spread_alt", rows=rows)
    # each count is written out just below (the caption is the chart's text alternative too)
    if fill:  # the projector: the chart's box is as tall as the screen leaves (ROOM_CSS .st-key-room_chart_box)
        with st.container(key="room_chart_box"):
            st.plotly_chart(charts.Prebuilt(fig), config=charts.CONFIG, key=key, alt=alt, height="stretch")
    else:
        st.plotly_chart(charts.Prebuilt(fig), config=charts.CONFIG, key=key, alt=alt)  # plain data: nothing rebuilt
    st.caption(alt)


@st.cache_data(show_spinner=False, max_entries=256)
def votes_figure(labels: tuple[str, ...], first: tuple[int, ...], second: tuple[int, ...] | None, right: int | None,
                 names: tuple[str, str], font: int, wrap: int, height: int | None, fill: bool = False,
                 count_text: str = "{n}", count_one: str | None = None) -> dict:
    """The votes chart as plain data (plotly's JSON): built once for every phone that shows the same
    counts and carried as it is (ui/charts.py Prebuilt); a figure built per phone cost 16 ms of the
    server's CPU, and 60 phones redraw at once when the presenter reveals."""
    import json

    import plotly.io as pio

    fig = vote_bars(labels, list(first), list(second) if second else None, right=right, names=names,
                    font_size=font, wrap=wrap, height=height, count_text=count_text, count_one=count_one)
    data = json.loads(pio.to_json(fig, validate=False))
    if fill:  # its height from the box it stands in
        data["layout"].pop("height", None)
    return data


def why_lines(s: Strings, c: Ctx, q: quiz.Question) -> tuple[str, list[str]]:
    """The reveal's figures, from the quiz's own computed outcome: (a heading, its lines). A question
    whose options are scenarios or stages: each choice with its seconds, the right one marked; a
    "how long" question (one scenario, options are time bands): the one computed time and its band."""
    outcome = c.outcomes[q.id]
    fmt = c.d.f.seconds
    labels = dict(zip([o.id for o in q.options], (md(x) for x in lettered(q, c.d.lang))))
    if q.kind == "how_long":
        return s("room_why_one"), [s("room_why_band", time=fmt(outcome.seconds[outcome.right]), answer=labels[outcome.right])]
    return s("room_why_each"), [s("room_why_right" if o.id == outcome.right else "room_why_row", label=labels[o.id],
                                  time=fmt(outcome.seconds[o.id])) for o in q.options]


def why(s: Strings, c: Ctx, q: quiz.Question) -> None:
    """Under the reveal: each choice's computed time under its heading, then the explanation (one sentence)."""
    outcome = c.outcomes[q.id]
    heading, lines = why_lines(s, c, q)
    with st.container(key=f"room_why_{q.id}"):
        st.markdown(f"**{heading}**  \n" + "  \n".join(lines))
        st.markdown(md(quiz.fill(q.explanation[c.d.lang], outcome.seconds[outcome.right], c.d.f.seconds)))
