"""clingo's handles (pyrules/symbols.py): facts given through them make the same program as
through the public API, symbol_key() is one key per symbol, and `legal --all` of the issue 13
board and of the bundled examples is the same both ways."""
from __future__ import annotations

import importlib
from pathlib import Path

import clingo
import pytest
import yaml
from clingo import Function, Number, String, parse_term

from pyrules import Engine, symbols
from pyrules.solver import BASE, CLINGO_ARGS

ROOT = Path(__file__).resolve().parents[1]
BOARDS = [ROOT / "benchmarks" / "summons_board.yaml", *sorted((ROOT / "facts" / "examples").glob("*.yaml"))]


def test_this_clingo_has_the_handles():
    """The clingo pyproject.toml allows (>=5.7,<6) keeps them: if this fails, the fallback runs."""
    assert symbols.HANDLES


def test_equal_symbols_share_one_key_and_different_ones_do_not():
    made = Function("zone", [Number(3), Number(1), Function("hand", [])])
    parsed = parse_term("zone(3,1,hand)")
    assert made is not parsed
    assert symbols.symbol_key(made) == symbols.symbol_key(parsed)
    others = [parse_term("zone(3,1,deck)"), parse_term("zone(4,1,hand)"), Number(3), String("3"),
              Function("zone", [Number(3), Number(1)])]
    assert len({symbols.symbol_key(s) for s in [made, *others]}) == 1 + len(others)
    assert symbols.value_of(Number(7)) == 7 and symbols.value_of(Function("attack", [])) == "attack"


def _model(facts: list, public: bool) -> set[str]:
    ctl = clingo.Control(CLINGO_ARGS)
    ctl.add("base", [], "q(X) :- p(X,_). r :- s.")
    with ctl.backend() as backend:
        symbols.add_facts(backend, facts, public=public)
    ctl.ground(BASE)
    out: list = []
    ctl.solve(on_model=lambda m: out.extend(m.symbols(atoms=True)))
    return {str(s) for s in out}


def test_facts_through_the_handles_make_the_public_program():
    facts = [parse_term(t) for t in ("p(1,a)", "p(2,f(b,\"x\"))", "p(1,a)", "s", "t(-3)")]
    fast = _model(facts, public=False)
    assert fast == _model(facts, public=True)
    assert {"q(1)", "q(2)", "r", "t(-3)", "s"} <= fast
    assert _model([], public=False) == set()


@pytest.mark.parametrize("path", BOARDS, ids=lambda p: p.stem)
def test_answers_are_the_same_through_the_public_api(path, monkeypatch):
    """legal (with the forbidden candidates and their reasons) of a board, by an Engine using the
    handles and by one whose facts go through the public API and whose keys are the symbols."""
    snap = yaml.safe_load(path.read_text(encoding="utf-8"))
    fast = Engine().legal(snap, include_forbidden=True)
    monkeypatch.setattr(symbols, "HANDLES", False)
    modules = {m: importlib.import_module(f"pyrules.{m}") for m in ("symbols", "solver", "prune", "terms", "search")}
    for module in modules.values():
        monkeypatch.setattr(module, "symbol_key", symbols._itself)
    monkeypatch.setattr(modules["solver"], "_READ", {})      # (the caches, keyed the other way)
    monkeypatch.setattr(modules["prune"], "_KEYS", {})
    monkeypatch.setattr(modules["terms"], "_SHAPES", {})
    slow = Engine().legal(snap, include_forbidden=True)
    assert fast.permitted and fast == slow
