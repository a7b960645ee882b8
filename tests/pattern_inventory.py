"""Every regular expression the parsers and archive readers compile, with the way each is used.

Module-level patterns are found by importing the modules and walking their globals (into
tuples, lists, dicts and dataclass instances); patterns written inline in functions are found
in the source as `re.<function>(<literal>, ...)` calls. An inline pattern built at run time
cannot be checked statically and is reported, so that it is either moved to module level or
listed with its reason in `DYNAMIC`.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("transforms", "flows/archives")
_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")
_MODE_OF = {"match": "match", "fullmatch": "fullmatch"}  # every other method searches
_RANK = {"fullmatch": 0, "match": 1, "search": 2}
_CALL_AFTER = re.compile(r"[^\n()]*+\)\.(\w+)\(")
# `from .x import NAME`: a module of a package taking a pattern from another runs it nowhere
_IMPORT = re.compile(r"^from\s++\S++\s++import\s++(?:\([^)]*+\)|[^\n]*+)", re.M)


@dataclass(frozen=True, slots=True)
class Found:
    where: str  # module.NAME[...] or path:line
    pattern: re.Pattern
    mode: str  # how the code runs it: "search", "match" or "fullmatch"


def source_files() -> list[Path]:
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py"))


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _walk(obj, path: str, seen: set[int]) -> Iterator[tuple[str, re.Pattern]]:
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, re.Pattern):
        yield path, obj
    elif isinstance(obj, (list, tuple, set, frozenset)):
        for i, x in enumerate(obj):
            yield from _walk(x, f"{path}[{i}]", seen)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from _walk(v, f"{path}[{k!r}]", seen)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from _walk(getattr(obj, f.name), f"{path}.{f.name}", seen)


def _mode_of_name(name: str, texts: list[str]) -> str:
    """The most permissive way any source runs `name`; handed on or stored means search."""
    modes = set()
    define = re.compile(rf"^{re.escape(name)}\s*(?::[^=\n]*)?=[^=]", re.M)
    use = re.compile(rf"(?<![\w]){re.escape(name)}\b(?:\.(\w+)\()?")
    for text in texts:
        defined_at = {m.start() for m in define.finditer(text)}
        for m in use.finditer(text):
            if m.start() in defined_at:
                continue
            method = m.group(1)
            if method is None:  # `(A if c else B).match(...)`: the call that closes the expression
                after = _CALL_AFTER.match(text, m.end())
                method = after.group(1) if after else None
            if method is None or method in _METHODS:
                modes.add(_MODE_OF.get(method or "", "search"))
    return max(modes, key=_RANK.__getitem__) if modes else "search"


def module_patterns() -> list[Found]:
    texts = [_IMPORT.sub("", p.read_text()) for p in source_files()]
    out: list[Found] = []
    seen: set[int] = set()
    for path in source_files():
        mod = importlib.import_module(_module_name(path))
        for name, value in vars(mod).items():
            if isinstance(value, (type(re), type)):
                continue
            for where, pat in _walk(value, f"{mod.__name__}.{name}", seen):
                mode = _mode_of_name(name, texts) if where == f"{mod.__name__}.{name}" else "search"
                out.append(Found(where, pat, mode))
    return out


def _flags(node: ast.expr | None) -> int | None:
    if node is None:
        return 0
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "re":
        return int(getattr(re, node.attr))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        a, b = _flags(node.left), _flags(node.right)
        return None if a is None or b is None else a | b
    return None


def inline_patterns() -> tuple[list[Found], list[str]]:
    """(literal patterns compiled inside functions, `path:function`s that build one at run time)."""
    found: list[Found] = []
    dynamic: list[str] = []
    for path in source_files():
        rel = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text())
        done: set[int] = set()
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            for node in ast.walk(fn):
                if id(node) in done or not isinstance(node, ast.Call):
                    continue
                done.add(id(node))
                f = node.func
                if not (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name)):
                    continue
                if f.value.id != "re" or f.attr not in (*_METHODS, "compile") or not node.args:
                    continue
                where = f"{rel}:{node.lineno}"
                name = getattr(fn, "name", "<lambda>")
                arg = node.args[0]
                flag_node = next((k.value for k in node.keywords if k.arg == "flags"), None)
                if flag_node is None:
                    position = {"compile": 1, "sub": 4, "subn": 4, "split": 3}.get(f.attr, 2)
                    flag_node = node.args[position] if len(node.args) > position else None
                flags = _flags(flag_node)
                if not isinstance(arg, ast.Constant) or flags is None:
                    dynamic.append(f"{rel}:{name}")
                    continue
                mode = _MODE_OF.get(f.attr, "search") if f.attr != "compile" else "search"
                found.append(Found(where, re.compile(arg.value, flags), mode))
    return found, dynamic
