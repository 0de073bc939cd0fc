"""The package's seams: its modules import each other without a cycle (counting imports
inside function bodies too), and nothing outside engine.py reaches into the engine's
private names."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "pyrules"
MODULES = sorted(p.stem for p in PACKAGE.glob("*.py"))


def _tree(module: str) -> ast.Module:
    return ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))


def imports(module: str) -> set[str]:
    """The package modules a module imports anywhere in it (top level, functions, TYPE_CHECKING)."""
    out: set[str] = set()
    for node in ast.walk(_tree(module)):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:
                out.add(node.module.split(".")[0])
            elif node.level == 1:
                out |= {a.name for a in node.names}
            elif node.module and node.module.startswith("pyrules"):
                rest = node.module.split(".")[1:]
                out |= {rest[0]} if rest else {a.name for a in node.names}
        elif isinstance(node, ast.Import):
            out |= {a.name.split(".")[1] for a in node.names if a.name.startswith("pyrules.")}
    return out & set(MODULES) - {module}


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of the graph (a path that comes back to its start), or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                return path[path.index(n):] + [n]
            if n not in state:
                found = visit(n)
                if found:
                    return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


def test_the_cycle_finder_finds_a_cycle():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_the_package_imports_have_no_cycle():
    graph = {m: imports(m) for m in MODULES}
    assert graph["engine"] and "engine" in graph["batch"] | graph["cli"]   # the graph is read at all
    assert cycle(graph) is None, " -> ".join(cycle(graph) or [])


def test_no_module_outside_engine_touches_a_private_name_of_it():
    """`from .engine import _x` and `engine._x` / `self.engine._x` are not allowed outside engine.py."""
    found = []
    for module in MODULES:
        if module == "engine":
            continue
        for node in ast.walk(_tree(module)):
            if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("engine"):
                found += [f"{module}: imports {a.name}" for a in node.names if a.name.startswith("_")]
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                owner = node.value
                name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
                if name == "engine":
                    found.append(f"{module}:{node.lineno}: engine.{node.attr}")
    assert found == []


def test_the_rule_base_is_read_in_one_place():
    """pyrules.rulebase reads the rules folder for the engine, lint and explain: the tools do
    not reach the rules through the engine or through each other."""
    graph = {m: imports(m) for m in MODULES}
    assert "rulebase" in graph["engine"] & graph["lint"] & graph["explain"]
    assert "engine" not in graph["lint"] and "lint" not in graph["explain"]
    assert not {"engine", "lint", "explain", "solver"} & graph["rulebase"]
