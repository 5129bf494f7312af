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


def test_two_votes_per_question_and_the_rooms_learning_gain_counted_by_hand():
    tallies = {("q1", 1): {"a": 3, "b": 7}, ("q1", 2): {"a": 8, "b": 2}, ("q2", 1): {"c": 5}}
    got = results.vote_scores([("q1", "a"), ("q2", "c"), ("q3", "a")], tallies)
    assert [(x.answered1, x.right1, x.answered2, x.right2) for x in got] == [(10, 3, 10, 8), (5, 5, 0, 0), (0, 0, 0, 0)]
    assert got[0].share2 == 0.8 and got[1].share2 is None and got[2].share1 is None
    g = results.gain(got)
    assert g.first_all == 8 / 15 and g.questions_twice == 1 and g.first_twice == 0.3 and g.second_twice == 0.8
    assert results.gain([]).first_all is None


def test_a_participants_score_counts_the_questions_asked_with_the_final_answer():
    rights = [("q1", "a"), ("q2", "b")]  # the questions asked
    mine = {"q1": ("b", "a"), "q2": ("b", None), "q9": ("x", None)}  # changed to right on q1; q9 not asked
    assert results.my_score(rights, mine) == 2
    assert results.my_score(rights, {"q1": ("a", "b")}) == 0  # the second vote counts when there is one


def test_the_csv_has_one_row_per_question_and_option_with_counts_per_vote_and_no_names():
    questions = [("q1", "Which?", [("a", "A"), ("b", "B")], "a"), ("q2", "How long?", [("c", "C"), ("d", "D")], "d")]
    tallies = {("q1", 1): {"a": 1, "b": 2}, ("q1", 2): {"a": 3}, ("q2", 1): {"d": 4}}
    rows = results.option_rows(questions, tallies, "yes", "no")
    assert rows == [[1, "Which?", "A", "yes", 1, 3], [1, "Which?", "B", "no", 2, 0],
                    [2, "How long?", "C", "no", 0, ""], [2, "How long?", "D", "yes", 4, ""]]


def test_look_alike_characters_are_named_and_the_short_address_has_nothing_invisible():
    from latency.room import codes

    assert codes.look_alikes("cf0 hko1") == [("0", "0OQD"), ("O", "0OQD"), ("1", "1IlLJ")]
    assert codes.look_alikes("CFHKMN") == []
    assert codes.short_address("http://10.0.0.5:8501/lesson") == "10.0.0.5:8501/join"
    assert codes.short_address("https://latency.example.com/app/join") == "latency.example.com/app/join"
    assert codes.short_address(None) == "/join"
    assert all(0x21 <= ord(ch) < 0x7F for ch in codes.short_address("http://h\u2060ost:1/lesson"))
