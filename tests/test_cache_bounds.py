"""Every cache has a bound (issue 15, item 6): `st.cache_data` / `st.cache_resource` with
`max_entries`, `functools.lru_cache` with a `maxsize` that is not None, no `functools.cache`
(a cached function without arguments holds one entry and needs no bound).
A static scan of the app's code, so a new unbounded cache fails here the moment it is added.
"""

from __future__ import annotations

import ast

from latency.language.content_check import code_files
from latency.language.errors import PROJECT_DIR

# Unbounded caches in files another branch is rewriting right now (issue 15 report); remove each
# entry when its file is fixed. Nothing may be added here.
PENDING: set[str] = set()


def unbounded_caches(files=None, root=PROJECT_DIR) -> set[str]:
    found = set()
    for path in code_files() if files is None else files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            if not (fn.args.args or fn.args.kwonlyargs or fn.args.vararg or fn.args.kwarg):
                continue  # no arguments: one entry at most (e.g. a process-wide lock), bounded by nature
            for dec in fn.decorator_list:
                call = dec if isinstance(dec, ast.Call) else None
                name = ast.unparse(call.func if call else dec)
                kwargs = {k.arg: k.value for k in call.keywords} if call else {}
                where = f"{path.relative_to(root).as_posix()}:{fn.name}"
                if name.endswith(("cache_data", "cache_resource")) and "max_entries" not in kwargs:
                    found.add(where)
                elif name.endswith("lru_cache"):
                    size = kwargs.get("maxsize", call.args[0] if call and call.args else None)
                    if size is None or (isinstance(size, ast.Constant) and size.value is None):
                        found.add(where)
                elif name in ("cache", "functools.cache"):
                    found.add(where)
    return found


def test_every_cache_has_a_bound():
    assert unbounded_caches() - PENDING == set()


def test_the_scan_finds_an_unbounded_cache(tmp_path):
    # written outside the package: a file in latency/ would be seen, for its moment, by the house-plan
    # test (it imports streamlit) running beside this one under pytest-xdist
    bad = tmp_path / "latency" / "_unbounded_probe.py"
    bad.parent.mkdir()
    source = "import functools\nimport streamlit as st\n@st.cache_data\ndef a(x): pass\n@functools.lru_cache(maxsize=None)\ndef b(x): pass\n@functools.cache\ndef c(x): pass\n@functools.lru_cache(maxsize=8)\ndef d(x): pass\n@st.cache_resource\ndef e(): pass\n"
    bad.write_text(source, encoding="utf-8")
    assert unbounded_caches([bad], tmp_path) == {f"latency/_unbounded_probe.py:{n}" for n in "abc"}
