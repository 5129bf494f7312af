"""The verdict agrees with the range as the page prints it (issue 26, item 5): two ranges that both
read "0.11–0.2 s" get one verdict against a 0.2 s budget."""

from latency.exploring import verdict as V
from latency.language import formats


def test_two_ranges_that_read_the_same_get_the_same_verdict():
    f = formats.get("en")
    assert f.range(0.11, 0.198) == f.range(0.11, 0.2004) == "0.11–0.2 s"
    kinds = {V.verdict(0.15, 0.11, hi, 0.2, shown=formats.seconds_value).kind for hi in (0.198, 0.2004)}
    assert kinds == {"within"}


def test_without_rounding_the_two_would_differ():
    # what the page did before: the raw high end decided
    assert {V.verdict(0.15, 0.11, hi, 0.2).kind for hi in (0.198, 0.2004)} == {"within", "uncertain"}


def test_a_range_that_reads_across_the_budget_stays_borderline():
    assert V.verdict(0.2, 0.15, 0.26, 0.2, shown=formats.seconds_value).kind == "uncertain"
    assert formats.seconds_value(0.2004) == 0.2 and formats.seconds_value(12.4) == 12
