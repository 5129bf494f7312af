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


# --- the HR trial (/work/notes/ROOM_TRIAL.md) --------------------------------------------------------
def test_the_public_address_setting_and_which_addresses_phones_cannot_reach():
    from latency.room import codes

    env = {"LATENCY_PUBLIC_URL": "10.0.0.5:8501"}  # no scheme: http assumed
    assert codes.public_url(env) == "http://10.0.0.5:8501/"
    assert codes.base_url("http://127.0.0.1:8600/lesson", env) == "http://10.0.0.5:8501/"
    assert codes.join_url(codes.base_url("http://127.0.0.1:8600/lesson", env), "CFHKMN") == "http://10.0.0.5:8501/lesson?room=CFHKMN"
    assert codes.short_address(codes.public_url({"LATENCY_PUBLIC_URL": "https://l.example.com/app/"})) == "l.example.com/app/join"
    assert codes.base_url("http://127.0.0.1:8600/lesson", {}) == "http://127.0.0.1:8600/lesson"
    assert codes.public_url({"LATENCY_PUBLIC_URL": "ftp://x"}) is None and codes.public_url({"LATENCY_PUBLIC_URL": " "}) is None
    for local in ("http://127.0.0.1:8600/lesson", "http://localhost:8501/", "http://[::1]:8501/", "http://0.0.0.0:8501/",
                  "http://app.localhost/", None):
        assert codes.is_loopback(local), local
    for reachable in ("http://10.0.0.5:8501/lesson", "https://latency.example.com/", "http://192.168.0.10:8501/"):
        assert not codes.is_loopback(reachable), reachable


def _shapes(fig) -> list:
    return list(fig.layout.shapes)


def test_the_right_answer_stands_on_a_band_also_with_no_votes_and_after_a_second_vote():
    """Trial item 5: nobody chose the right answer (Q2, Q3, Q7, Q9) and the chart showed nothing special;
    after a second vote the right option was never coloured."""
    from latency.charts.room import RIGHT_BAND, vote_bars

    for second in (None, [1, 0, 2]):
        fig = vote_bars(["A. x", "B. y", "C. z"], [3, 0, 1], second, right=1)  # B is right, nobody chose it
        bands = [sh for sh in _shapes(fig) if sh.fillcolor == RIGHT_BAND]
        assert len(bands) == 1, second
        assert (bands[0].y0, bands[0].y1) == (0.5, 1.5)  # rows run bottom-up: B (index 1 of 3) is row 1
    assert not _shapes(vote_bars(["A. x", "B. y"], [3, 0], None))  # before the reveal: nothing marked


def test_results_rows_keep_a_track_for_0_percent_and_the_second_vote_legend_only_after_a_second_vote():
    """Trial item 14: 0% rows had no bar; the "after discussion" legend with only one vote."""
    from latency.charts.room import TRACK_FILL, results_bars

    once = results_bars(["1. a", "2. b", "3. c"], [0.0, 0.5, 1.0], [None, None, None], ["0%", "50%", "100%"],
                        names=("First", "After"), font_size=24)
    assert len([sh for sh in _shapes(once) if sh.fillcolor == TRACK_FILL]) == 3  # the 0% row too
    assert not once.layout.showlegend and [t.name for t in once.data if t.type == "bar"] == ["First"]
    twice = results_bars(["1. a", "2. b"], [0.0, 0.5], [0.5, None], ["0% → 50%", "50%"], names=("First", "After"),
                         font_size=24)
    assert twice.layout.showlegend and {t.name for t in twice.data if t.type == "bar"} == {"First", "After"}
    # bars readable: at 24 px each row is at least two lines of text high (the trial's were hairlines)
    assert once.layout.height >= 24 * 2 * 3


def test_the_csv_rows_count_who_gave_no_answer():
    tallies = {("q1", 1): {"a": 2, "b": 1}, ("q1", 2): {"a": 3}}
    rows = results.option_rows([("q1", "Q one", [("a", "A. x"), ("b", "B. y")], "a")], tallies, "yes", "no",
                               people=5, no_answer="(no answer)")
    assert rows == [[1, "Q one", "A. x", "yes", 2, 3], [1, "Q one", "B. y", "no", 1, 0],
                    [1, "Q one", "(no answer)", "", 2, 2]]  # 5 joined: 3 answered the first vote, 3 the second
