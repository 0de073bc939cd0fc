"""clingo symbols and program building, through clingo's public API: replaying parsed
rules, adding facts through the backend, making symbols and reading the shown atoms.

(pyrules once made these calls through clingo's private cffi layer; measured against the
public API in alternating runs, it gained 4% on single queries and nothing on batches, so
it was removed: README, Speed and scale.)  No game rule is decided here.
"""
from __future__ import annotations

import threading
from typing import Any, Iterable, Sequence

from clingo import Function, Number, Symbol, SymbolType

__all__ = ["CLINGO_LOCK", "Function", "Number", "add_facts", "add_statements", "name_args", "number",
           "split_by_first", "symbol_key", "value_of"]

# clingo's program building is not safe to run in two threads at once (seen here: "invalid
# ast" errors and crashes with two Controls in two threads, through clingo's own Python API
# too).  Every place that builds, grounds or solves a program holds this lock, so an Engine
# may be used from several threads (e.g. Dask's threaded workers); processes run in parallel.
CLINGO_LOCK = threading.RLock()

Split = dict[int, dict[tuple[str, int], list[list[Symbol]]]]


def add_statements(builder, statements: Sequence) -> None:
    """Replay parsed AST statements into a ProgramBuilder."""
    add = builder.add
    for stmt in statements:
        add(stmt)


def add_facts(backend, symbols: Iterable[Symbol]) -> None:
    """Every symbol becomes a fact of the program."""
    add_atom, add_rule = backend.add_atom, backend.add_rule
    for s in symbols:
        add_rule([add_atom(s)])


def name_args(sym: Symbol) -> tuple[str, list[Symbol]]:
    """The name and the arguments of a function symbol."""
    return sym.name, sym.arguments


def split_by_first(symbols: Iterable[Symbol]) -> Split:
    """Function symbols whose first argument is a number K, grouped by K and then by
    (name, number of other arguments): a batch's answer split by snapshot number."""
    out: Split = {}
    for s in symbols:
        args = s.arguments
        out.setdefault(args[0].number, {}).setdefault((s.name, len(args) - 1), []).append(args[1:])
    return out


def symbol_key(sym: Symbol) -> Any:
    """A dict key for a symbol (symbols are interned and hashable: the symbol itself)."""
    return sym


_VALUES: dict = {}


def value_of(sym: Symbol):
    """The Python value of a number (int) or constant (str) symbol, cached by the symbol:
    answer atoms repeat the same few numbers and constants many times."""
    v = _VALUES.get(sym)
    if v is None:
        v = sym.number if sym.type == SymbolType.Number else sym.name
        if len(_VALUES) < 100_000:
            _VALUES[sym] = v
    return v


def number(n: int, _cache: dict[int, Symbol] = {}) -> Symbol:
    """Number(n), shared for small n."""
    sym = _cache.get(n)
    if sym is None:
        sym = Number(n)
        if len(_cache) < 100_000:
            _cache[n] = sym
    return sym
