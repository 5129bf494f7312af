"""The Streamlit layer reads UI strings through `ui.shell.strings`, whose parsed tables are cached
per file version (`st.cache_resource` keyed by the file's mtime: one shared read-only table per language), never through the loaders that parse
the YAML again (`i18n.strings`, `i18n.load_area`, `errors.read_yaml`).

Why it matters: one uncached `i18n.strings("common", ...)` on the room's path (pages/lesson.py)
parsed common.yaml on every run of every phone, about 40% of a phone's run. When the presenter moves
on, every phone reruns at once, so 60 phones waited about 2.4 s to follow (benchmarks/room_load.py;
goal 2 s). A static scan, so a new uncached read fails here the moment it is added.
"""

from __future__ import annotations

import ast

from latency.language.errors import PROJECT_DIR

UNCACHED = {"strings", "load_area", "read_yaml"}
# The one place allowed to parse: the cached loader itself.
ALLOWED = {("ui/shell.py", "_load_area")}


def streamlit_files(root=PROJECT_DIR):
    return [root / "app.py", *sorted((root / "pages").glob("*.py")), *sorted((root / "ui").glob("*.py"))]


def uncached_reads(files=None, root=PROJECT_DIR) -> set[str]:
    found = set()
    for path in streamlit_files(root) if files is None else files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        rel = path.relative_to(root).as_posix()
        # names imported from the loaders' modules: `from latency.language.i18n import strings`
        direct = {a.asname or a.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                  and node.module in ("latency.language.i18n", "latency.language.errors")
                  for a in node.names if a.name in UNCACHED}
        parent = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            if not ((isinstance(f, ast.Attribute) and f.attr in UNCACHED and isinstance(f.value, ast.Name)
                     and f.value.id in ("i18n", "errors")) or (isinstance(f, ast.Name) and f.id in direct)):
                continue
            up = parent.get(node)
            while up is not None and not isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef)):
                up = parent.get(up)
            if (rel, up.name if up is not None else "<module>") not in ALLOWED:
                found.add(f"{rel}:{node.lineno}")
    return found


def test_the_streamlit_layer_reads_strings_through_the_cache():
    assert uncached_reads() == set()


def test_the_scan_finds_an_uncached_read(tmp_path):
    (tmp_path / "pages").mkdir()
    (tmp_path / "ui").mkdir()
    (tmp_path / "app.py").write_text("", encoding="utf-8")
    page = tmp_path / "pages" / "probe.py"
    page.write_text(
        "from latency.language import i18n\n"
        "from latency.language.errors import read_yaml\n"
        "t = i18n.strings('common', 'ko')('app_title')\n"
        "def f():\n    return read_yaml('x.yaml')\n"
        "ok = shell.strings('common', 'ko')\n",
        encoding="utf-8")
    assert uncached_reads(root=tmp_path) == {"pages/probe.py:3", "pages/probe.py:5"}
