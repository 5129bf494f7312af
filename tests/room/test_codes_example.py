"""The loopback warning's example address: this app's own address with only the host changed
(presenter trial, round 3: the example said port 8501 on an app at 8600). Expected: by hand."""

import pytest

from latency.room import codes


@pytest.mark.parametrize("seen, port, want", [
    ("http://127.0.0.1:8600/lesson?room=X&present=1", None, "http://192.168.0.10:8600"),
    ("http://localhost:8501/", None, "http://192.168.0.10:8501"),
    ("https://localhost/app/lesson?x=1", None, "https://192.168.0.10/app"),  # no port, a base path kept
    ("http://[::1]:9000/join", None, "http://192.168.0.10:9000"),
    (None, 8700, "http://192.168.0.10:8700"),  # no browser address: the server's own port
])
def test_the_example_keeps_scheme_port_and_base_path_and_changes_only_the_host(seen, port, want):
    assert codes.lan_example(seen, port) == want
