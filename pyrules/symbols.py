"""clingo symbols and program building: replaying parsed rules, adding facts through the
backend, making symbols and reading the shown atoms.  No game rule is decided here.

Two hot paths use clingo's own handles, private to its Python API (stable since clingo 5.5,
the API being cffi over the C library): every Symbol holds its interned handle as `_rep` (an
int; equal symbols have equal handles), and a Backend holds its C backend.  symbol_key() is
that handle, so that the dict lookups of the answer, the pruner and the decoder hash an int
instead of calling into clingo twice per lookup; add_facts() gives each fact with two C
calls instead of two Python wrappers around them (13k of the 16k machine instructions a fact
cost).  What they buy (benchmarks/tricks.py, docs/performance.md): without them the board of
issue 13 costs 11% more and a batch 12% more, and the board's ratio to the typical query
passes its 2x line.  Where the handles are missing (another clingo), both fall back to the
public API: HANDLES says which is used, and tests/test_symbols.py runs the answers both ways.
"""
from __future__ import annotations

import threading
from operator import attrgetter
from typing import Any, Callable, Iterable, Sequence

from clingo import Function, Number, Symbol, SymbolType

try:                                    # clingo's handles (module docstring)
    from clingo._internal import _ffi, _handle_error, _lib
    HANDLES = (isinstance(Number(1)._rep, int) and Function("f", [Number(1)])._rep == Function("f", [Number(1)])._rep
               and callable(getattr(_lib, "clingo_backend_add_atom", None))
               and callable(getattr(_lib, "clingo_backend_rule", None)))
except (ImportError, AttributeError):   # pragma: no cover (another clingo)
    HANDLES = False

__all__ = ["CLINGO_LOCK", "HANDLES", "Function", "Number", "add_facts", "add_statements", "name_args", "number",
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


def add_facts(backend, symbols: Iterable[Symbol], *, public: bool = False) -> None:
    """Every symbol becomes a fact of the program (through clingo's handles unless `public`
    or they are missing: module docstring; clingo's error, if any, is raised as its API does)."""
    if public or not HANDLES:
        add_atom, add_rule = backend.add_atom, backend.add_rule
        for s in symbols:
            add_rule([add_atom(s)])
        return
    rep, add, rule, null = backend._rep, _lib.clingo_backend_add_atom, _lib.clingo_backend_rule, _ffi.NULL
    sym, atom = _ffi.new("clingo_symbol_t*"), _ffi.new("clingo_atom_t*")
    for s in symbols:
        sym[0] = s._rep
        if not add(rep, sym, atom) or not rule(rep, False, atom, 1, null, 0):
            _handle_error(False)


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


def _itself(sym: Symbol) -> Any:
    return sym


# A dict key for a symbol: its handle (module docstring), else the symbol itself.
symbol_key: Callable[[Symbol], Any] = attrgetter("_rep") if HANDLES else _itself


def value_of(sym: Symbol):
    """The Python value of a number (int) or constant (str) symbol."""
    return sym.number if sym.type == SymbolType.Number else sym.name


def number(n: int, _cache: dict[int, Symbol] = {}) -> Symbol:
    """Number(n), made once per n (a batch's encoding makes the same numbers again and again:
    docs/performance.md)."""
    sym = _cache.get(n)
    if sym is None:
        sym = Number(n)
        if len(_cache) < 100_000:
            _cache[n] = sym
    return sym
