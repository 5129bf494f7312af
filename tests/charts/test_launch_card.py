"""The launch check's one-page PNG (latency/charts/launch_card.py) draws every line of a figure's label and small
print: a small print cut to its first line hid the cost as entered ('at full load · $5.74 as entered' read
'at full load · as')."""

from __future__ import annotations

import io

from PIL import Image

from latency.charts import launch_card


def _height(label: str, note: str) -> int:
    rows = [("First token", "0.23 s", "0.16–0.59 s"), (label, "$0.29", note)]
    data = launch_card.png("Launch check", "pass", "Passes.", "Set-up.", rows, [], ["A line."], "http://x", "Footer.")
    return Image.open(io.BytesIO(data)).height


def test_a_long_small_print_makes_its_row_taller_instead_of_being_cut():
    short = _height("Cost per 1,000 answers", "at full load")
    long = _height("Cost per 1,000 answers", "at full load · $5.74 as entered, " * 4)
    assert long >= short + 2 * 22, (short, long)  # at least two more lines of 22 px


def test_a_long_label_pushes_its_value_down_instead_of_being_cut():
    short = _height("Cost", "x")
    long = _height("Cost per month to meet the target, kept on for a whole month of 730 hours", "x")
    assert long >= short + 22, (short, long)


def test_the_words_of_a_long_small_print_are_all_in_its_lines():
    font = launch_card._font(False, 18)
    note = "서버가 쉬지 않을 때 · 입력한 설정으로는 $5.74"
    lines = launch_card.wrap(note, font, 1240 // 4 - 16)
    assert " ".join(lines) == note and len(lines) >= 2
