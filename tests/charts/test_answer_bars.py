"""The room's answer chart (latency.charts.lesson.answer_bars), checked by hand."""

from latency.charts.lesson import OTHER_COLOR, RIGHT_COLOR, answer_bars


def test_one_bar_per_option_first_on_top_the_right_one_green_counts_at_the_bars():
    fig = answer_bars(["A short one", "A <b>much</b> longer option label here", "C"], [3, 0, 5], right=1, wrap=22)
    bar = fig.data[0]
    assert list(bar.x) == [5, 0, 3] and list(bar.text) == ["5", "0", "3"]  # plotly draws the first y at the bottom
    assert list(bar.marker.color) == [OTHER_COLOR, RIGHT_COLOR, OTHER_COLOR]
    assert bar.y[1] == "A ‹b›much‹/b› longer<br>option label here"  # wrapped; no tag plotly would read
    assert fig.layout.xaxis.visible is False


def test_the_colours_read_on_white():
    def contrast(hex_a: str, hex_b: str = "#ffffff") -> float:
        def lum(h):
            c = [int(h[i:i + 2], 16) / 255 for i in (1, 3, 5)]
            c = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in c]
            return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
        a, b = sorted((lum(hex_a), lum(hex_b)), reverse=True)
        return (a + 0.05) / (b + 0.05)

    assert contrast(RIGHT_COLOR) >= 4.5 and contrast(OTHER_COLOR) >= 4.5
