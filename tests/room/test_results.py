"""A room's results, counted by hand."""

from latency.room import results


def test_distribution_keeps_the_question_order_and_zeros():
    assert results.distribution({"b": 2}, ["a", "b", "c"]) == [("a", 0), ("b", 2), ("c", 0)]


def test_scores_per_question():
    answers = [("q1", "#1", "a"), ("q1", "#2", "b"), ("q1", "#3", "a"), ("q2", "#1", "c")]
    got = results.scores([("q1", "a"), ("q2", "b"), ("q3", "a")], answers)
    assert [(x.question_id, x.answered, x.right) for x in got] == [("q1", 3, 2), ("q2", 1, 0), ("q3", 0, 0)]
    assert got[0].share == 2 / 3 and got[2].share is None


def test_csv_quotes_what_a_spreadsheet_would_run():
    text = results.csv_text(["who", "n"], [["=HYPERLINK(\"x\")", 1], ["Ana, Kim", 2]])
    assert text.splitlines() == ["who,n", "'=HYPERLINK(\"\"x\"\")\",1".replace("'=HY", "\"'=HY"), "\"Ana, Kim\",2"]


def test_the_join_address_is_the_browsers_own_server_address():
    from latency.room.codes import join_url

    assert join_url("http://10.0.0.5:8501/lesson", "CFHKMN") == "http://10.0.0.5:8501/lesson?room=CFHKMN"
    assert join_url("https://latency.example.com/app/lesson", "CFHKMN") == "https://latency.example.com/app/lesson?room=CFHKMN"
    assert join_url("http://host:8501/", "CFHKMN") == "http://host:8501/lesson?room=CFHKMN"
    assert join_url(None, "CFHKMN") == "/lesson?room=CFHKMN"
