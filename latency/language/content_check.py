"""The code's UI strings against content/ui/*.yaml: every key the code asks for exists, and every
``{placeholder}`` in its text is one the code fills (both languages; `python -m latency.content check`
runs this after the term files).

A static scan (``ast``, nothing is imported or run) of app.py, pages/, ui/ and latency/:

- String tables: a name (or ``self.<attr>``) assigned from ``page_strings("<area>")``,
  ``strings("<area>", ...)`` or ``ui("<area>")`` reads that area; a parameter annotated ``Strings``
  (the sections in ui/ take ``s`` from their page) reads one of the areas that the module itself or a
  module importing it names (``strings("<area>")`` anywhere in it); a function or lambda that passes its first parameter on as a key to a
  table (``def m(key, **fmt): ... s[key] ...``) is a lookup on that table too.
- Keys: a string literal is checked exactly; an f-string (``s(f"stage_{k}")``) must match at least
  one key of the area (its literal parts in place, anything for each ``{...}``); a local name assigned
  only string literals (``key = "a" if x else "b"``) is checked for each; anything else (a key
  computed at run time) cannot be checked statically and is left to the app's own safe path
  (ui.shell.strings shows a named message for a missing key, the rest of the page works).
- Placeholders: for an exact key called with keyword arguments only, every ``{name}`` in its text
  must be among them (``s("key")`` with no arguments returns the raw template, filled later).
- ``PageSpec(file, url_path, nav_key, icon, section)`` in ui/shell.py: nav_key and section are keys
  of ``common``.
"""

from __future__ import annotations

import ast
import re
import string
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from latency.language.errors import PROJECT_DIR, ContentError
from latency.language.i18n import LANGS, UI_DIR, load_area, ui_areas, ui_file

CODE_DIRS = ("pages", "ui", "latency")
CODE_FILES = ("app.py",)
AREA_FUNCS = {"page_strings", "strings", "ui"}
ANY = "*"  # an accessor whose area is not known from its own module (a parameter)


@dataclass
class Lookup:
    file: str
    line: int
    accessor: str
    keys: list[str] | None = None       # exact keys, or
    pattern: re.Pattern | None = None   # an f-string's shape
    shown: str = ""                     # the key as written, for messages
    filled: set[str] | None = None      # keyword arguments given (None = unknown: **kwargs, or a subscript)


@dataclass
class Module:
    file: str
    name: str
    tables: dict[str, str] = field(default_factory=dict)   # accessor -> area (ANY = a parameter)
    imports: set[str] = field(default_factory=set)
    named: set[str] = field(default_factory=set)                  # every area the module names
    lookups: list[Lookup] = field(default_factory=list)
    nav_keys: list[tuple[int, str]] = field(default_factory=list)


def _area_of(expr: ast.AST) -> str | None:
    """The area named by a strings-producing call anywhere in `expr` (``strings("x")``...)."""
    for node in ast.walk(expr):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name in AREA_FUNCS:
                return node.args[0].value
    return None


def _accessor(expr: ast.AST) -> str | None:
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == "self":
        return f"self.{expr.attr}"
    return None


def _strings_annotation(arg: ast.arg) -> bool:
    return arg.annotation is not None and ast.unparse(arg.annotation).split(".")[-1].strip("'\"") == "Strings"


def _literal_strings(expr: ast.AST) -> list[str] | None:
    """All values of an expression made only of string literals and conditionals, else None."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return [expr.value]
    if isinstance(expr, ast.IfExp):
        a, b = _literal_strings(expr.body), _literal_strings(expr.orelse)
        return a + b if a is not None and b is not None else None
    return None


def _pattern(expr: ast.JoinedStr) -> re.Pattern:
    parts = [re.escape(v.value) if isinstance(v, ast.Constant) else ".+" for v in expr.values]
    return re.compile("".join(parts))


def _module_name(path: Path) -> str:
    rel = path.relative_to(PROJECT_DIR).with_suffix("")
    return ".".join(rel.parts)


def _scan(path: Path) -> Module:
    return _scan_cached(path, path.stat().st_mtime_ns)


@lru_cache(maxsize=256)  # one entry per code file (and edit); the scan is what takes the time
def _scan_cached(path: Path, mtime_ns: int) -> Module:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    mod = Module(path.relative_to(PROJECT_DIR).as_posix(), _module_name(path))
    wrappers: dict[str, str] = {}   # wrapper function -> the accessor it passes its key to
    functions: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            mod.imports.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            mod.imports.add(node.module)
            mod.imports.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            value = node.value
            if value is None:
                continue
            area = _area_of(value)
            for target in targets:
                name = _accessor(target)
                if name and area:
                    mod.tables[name] = area
                elif name and isinstance(value, ast.Name) and name.startswith("self."):
                    mod.tables.setdefault(name, f"param:{value.id}")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            functions.append(node)
        if isinstance(node, ast.Call) and (area := _area_of(node)):
            mod.named.add(area)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "PageSpec" and len(node.args) >= 5:
            for arg in (node.args[2], node.args[4]):
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    mod.nav_keys.append((node.lineno, arg.value))
    # parameters annotated Strings, and self.<attr> = such a parameter
    annotated = {a.arg for f in functions for a in (f.args.args + f.args.kwonlyargs) if _strings_annotation(a)}
    for name in annotated:
        mod.tables.setdefault(name, ANY)
    for name, area in list(mod.tables.items()):
        if isinstance(area, str) and area.startswith("param:"):
            mod.tables[name] = ANY if area[6:] in annotated else ""
    mod.tables = {k: v for k, v in mod.tables.items() if v}
    # wrappers: def m(key, **fmt) / lambda key: ... that look their first parameter up in a table
    for f in functions:
        if not f.args.args:
            continue
        first = f.args.args[0].arg
        for node in ast.walk(f):
            target = None
            if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Name) and node.args[0].id == first:
                target = _accessor(node.func)
            elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Name) and node.slice.id == first:
                target = _accessor(node.value)
            if target in mod.tables:
                name = getattr(f, "name", None) or _lambda_name(tree, f)
                if name:
                    wrappers[name] = target
                break
    for name, target in wrappers.items():
        mod.tables.setdefault(name, mod.tables[target])
    # lookups
    parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
    assigned_in: dict[int, dict[str, list[str]]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args:
            acc, key = _accessor(node.func), node.args[0]
            # s("key") with no arguments returns the raw template (filled later, e.g. by plotly)
            plain = node.keywords and not any(k.arg is None for k in node.keywords) and len(node.args) == 1
            filled = {k.arg for k in node.keywords} if plain else None
        elif isinstance(node, ast.Subscript) and _accessor(node.value) not in wrappers:
            acc, key, filled = _accessor(node.value), node.slice, None
        else:
            continue
        if acc not in mod.tables:
            continue
        lookup = Lookup(mod.file, node.lineno, acc, shown=ast.unparse(key), filled=filled)
        if isinstance(key, ast.JoinedStr):
            lookup.pattern = _pattern(key)
        elif (values := _literal_strings(key)) is not None:
            lookup.keys = values
        elif isinstance(key, ast.Name):
            scope = _scope(node, parents, tree)
            assigned = assigned_in.setdefault(id(scope), _assigned_literals(scope))
            if key.id not in assigned:
                continue  # computed at run time: the app's safe path covers it
            lookup.keys = assigned[key.id]
        else:
            continue
        mod.lookups.append(lookup)
    return mod


def _scope(node: ast.AST, parents: dict, tree: ast.AST) -> ast.AST:
    while node in parents:
        node = parents[node]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return node
    return tree


def _lambda_name(tree: ast.AST, lam: ast.Lambda) -> str | None:
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            if any(n is lam for n in ast.walk(node.value)):
                return node.targets[0].id
    return None


def _assigned_literals(scope: ast.AST) -> dict[str, list[str]]:
    """Local names in `scope` assigned only string literals (every assignment), with their values."""
    out: dict[str, list[str] | None] = {}
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    values = _literal_strings(node.value)
                    prev = out.get(target.id, [])
                    out[target.id] = None if values is None or prev is None else prev + values
    return {k: v for k, v in out.items() if v}


def code_files(root: Path = PROJECT_DIR) -> list[Path]:
    files = [root / f for f in CODE_FILES if (root / f).exists()]
    for d in CODE_DIRS:
        files += sorted(p for p in (root / d).rglob("*.py") if "__pycache__" not in p.parts)
    return files


def _fields(text: str) -> set[str]:
    return {re.split(r"[.\[]", f)[0] for _, f, _, _ in string.Formatter().parse(text) if f}


def check_ui(root: Path = PROJECT_DIR, ui_dir: Path = UI_DIR) -> list[ContentError]:
    """Every missing key and every unknown placeholder of the code's UI lookups, both languages."""
    modules = [_scan(p) for p in code_files(root)]
    errors: list[ContentError] = []
    tables: dict[str, dict[str, dict[str, str]]] = {}
    for area in sorted({a for m in modules for a in m.tables.values() if a != ANY} | set(ui_areas(ui_dir))):
        try:
            tables[area] = load_area(area, ui_dir)
        except ContentError as err:
            errors.append(err)
    for mod in modules:
        importers = [m for m in modules if mod.name in m.imports]
        nearby = sorted({a for m in [mod, *importers] for a in m.named if a in tables})
        lookups = mod.lookups + [Lookup(mod.file, line, "PageSpec", keys=[key], shown=repr(key)) for line, key in mod.nav_keys]
        for lk in lookups:
            area = "common" if lk.accessor == "PageSpec" else mod.tables.get(lk.accessor)
            candidates = [area] if area != ANY else (nearby or sorted(tables))
            candidates = [a for a in candidates if a in tables]
            if not candidates:
                continue
            where = f"{lk.file}:{lk.line}"
            if lk.pattern is not None:
                if not any(lk.pattern.fullmatch(k) for a in candidates for k in tables[a]):
                    errors.append(ContentError(" or ".join(ui_file(a) for a in candidates), lk.shown,
                                               f"missing key: no key matches {lk.shown} (asked for at {where})"))
                continue
            for key in lk.keys or []:
                found = next((a for a in candidates if key in tables[a]), None)
                if found is None:
                    where_file = ui_file(candidates[0]) if len(candidates) == 1 else " or ".join(ui_file(a) for a in candidates)
                    errors.append(ContentError(where_file, key, f"missing key (asked for at {where}; add it in {', '.join(LANGS)})"))
                    continue
                if lk.filled is None:
                    continue
                for lang in LANGS:
                    unknown = sorted(_fields(tables[found][key][lang]) - lk.filled)
                    for name in unknown:
                        errors.append(ContentError(ui_file(found), f"{key}.{lang}",
                                                   f"unknown placeholder {{{name}}}: the code at {where} fills "
                                                   f"{', '.join(sorted(lk.filled)) or 'nothing'}"))
    return errors
