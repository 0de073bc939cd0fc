"""The package's seams: its modules stand in layers (LAYERS: a module imports only its own
layer or lower ones), import each other without a cycle (counting imports inside function
bodies too), and nothing outside engine.py reaches into the engine's private names.
docs/architecture.md says the same in prose."""
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


# The layers, lowest first: each module's layer.  Two layers on one line are one rank: they may
# import each other (a snapshot's schema holds cards and effect entries, and the effect
# vocabulary is read with the input's limits and validator).
LAYERS: list[dict[str, set[str]]] = [
    {"base": {"errors", "records", "paths", "words", "cache"}},
    {"input": {"limits", "validator", "schema", "model"},
     "cards and effects": {"effects", "cards", "patterns", "importers", "pool"}},
    {"solving and speed": {"solver", "symbols", "prune", "dependencies", "astwalk", "rulebase"}},
    {"codec": {"actions", "encode", "terms", "sentences", "readback"}},
    {"API": {"__init__", "engine", "results"}},
    {"tools": {"batch", "daskbatch", "search", "steps", "supervise", "cases", "lint", "explain", "show", "draw", "render",
               "reference", "play", "mutate"}},
    {"command line": {"cli", "console", "__main__"}},
]
RANK = {m: n for n, layers in enumerate(LAYERS) for modules in layers.values() for m in modules}
FUTURE: set[str] = set()   # modules the table names ahead of their branch (none now)

# The named exceptions to "own layer or lower": (importer, imported) and why.
UPWARD = {
    # Engine.legal_many is the API's way to judge many snapshots: it hands itself to batch.run
    # (imported inside the method); batch.py itself never imports the engine.
    ("engine", "batch"),
}


def test_every_module_has_a_layer():
    assert set(MODULES) - set(RANK) == set(), "add the new module to LAYERS (and to docs/architecture.md)"
    assert set(RANK) - set(MODULES) <= FUTURE, "a module of LAYERS is gone"


def test_a_module_imports_only_its_own_layer_or_lower_ones():
    upward = {(m, n) for m in MODULES for n in imports(m) if RANK[n] > RANK[m]}
    assert upward == UPWARD


def test_the_layers_are_documented():
    doc = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    missing = [m for m in MODULES if f"`{m}.py`" not in doc]
    assert missing == [], "docs/architecture.md names every module"


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
