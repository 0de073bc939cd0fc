"""The lean per-query calls into clingo: replaying parsed rules, adding facts through the
backend, reading the shown atoms, and prefixing facts with a snapshot number (batch).

clingo's Python wrapper allocates a few cffi objects on every call (Function, add_atom,
name, arguments).  A query makes hundreds of such calls, so this module makes the same
C calls with buffers allocated once.  It uses clingo's cffi layer (clingo._internal,
stable across clingo 5.5-5.8); when that layer is missing it falls back to the public API
with identical results.  No game rule is decided here.
"""
from __future__ import annotations

from typing import Iterable, Sequence

from clingo import Function, Number, Symbol

try:   # pragma: no branch
    from clingo._internal import _ffi, _handle_error, _lib
    _RAW = all(hasattr(_lib, f) for f in ("clingo_backend_add_atom", "clingo_backend_rule",
                                          "clingo_symbol_name", "clingo_symbol_arguments",
                                          "clingo_symbol_create_function", "clingo_program_builder_add"))
except ImportError:   # pragma: no cover
    _RAW = False

_NAMES: dict[bytes, str] = {}


if _RAW:
    _ATOM = _ffi.new("clingo_atom_t[1]")
    _SYM = _ffi.new("clingo_symbol_t[1]")
    _OUT = _ffi.new("clingo_symbol_t[1]")
    _NAME = _ffi.new("char const**")
    _ARGS = _ffi.new("clingo_symbol_t const**")
    _SIZE = _ffi.new("size_t*")
    _BUF = _ffi.new("clingo_symbol_t[64]")
    _EMPTY = _ffi.NULL
    _add_atom, _rule = _lib.clingo_backend_add_atom, _lib.clingo_backend_rule
    _sym_name, _sym_args = _lib.clingo_symbol_name, _lib.clingo_symbol_arguments
    _create = _lib.clingo_symbol_create_function
    _builder_add = _lib.clingo_program_builder_add
    _string = _ffi.string

    def add_statements(builder, statements: Sequence) -> None:
        """Replay parsed AST statements into a ProgramBuilder."""
        rep = builder._rep
        for stmt in statements:
            if not _builder_add(rep, stmt._rep):
                _handle_error(False)

    def add_facts(backend, symbols: Iterable[Symbol]) -> None:
        """Every symbol becomes a fact of the program."""
        rep, atom, sym = backend._rep, _ATOM, _SYM
        for s in symbols:
            sym[0] = s._rep
            if not (_add_atom(rep, sym, atom) and _rule(rep, False, atom, 1, _EMPTY, 0)):
                _handle_error(False)

    def _name_args(rep: int) -> tuple[str, list[Symbol]]:
        _sym_name(rep, _NAME)
        raw = _string(_NAME[0])
        name = _NAMES.get(raw)
        if name is None:
            name = _NAMES[raw] = raw.decode()
        _sym_args(rep, _ARGS, _SIZE)
        arr, n = _ARGS[0], _SIZE[0]
        return name, [Symbol(arr[i]) for i in range(n)]

    def name_args(sym: Symbol) -> tuple[str, list[Symbol]]:
        """The name and the arguments of a function symbol."""
        return _name_args(sym._rep)

    def prefixed(symbols: Iterable[Symbol], first: Symbol) -> list[Symbol]:
        """f(X,...) -> f(first,X,...) for every (positive function) symbol."""
        out = []
        append, frep = out.append, first._rep
        for s in symbols:
            _sym_name(s._rep, _NAME)
            name = _NAME[0]
            _sym_args(s._rep, _ARGS, _SIZE)
            arr, n = _ARGS[0], _SIZE[0]
            buf = _BUF if n < 63 else _ffi.new("clingo_symbol_t[]", n + 1)
            buf[0] = frep
            for i in range(n):
                buf[i + 1] = arr[i]
            if not _create(name, buf, n + 1, True, _OUT):
                _handle_error(False)
            append(Symbol(_OUT[0]))
        return out

else:   # pragma: no cover - the public API, slower but the same results
    def add_statements(builder, statements: Sequence) -> None:
        for stmt in statements:
            builder.add(stmt)

    def add_facts(backend, symbols: Iterable[Symbol]) -> None:
        add_atom, add_rule = backend.add_atom, backend.add_rule
        for s in symbols:
            add_rule([add_atom(s)])

    def name_args(sym: Symbol) -> tuple[str, list[Symbol]]:
        return sym.name, sym.arguments

    def prefixed(symbols: Iterable[Symbol], first: Symbol) -> list[Symbol]:
        return [Function(s.name, [first, *s.arguments]) for s in symbols]


def number(n: int, _cache: dict[int, Symbol] = {}) -> Symbol:
    """Number(n), shared for small n."""
    sym = _cache.get(n)
    if sym is None:
        sym = Number(n)
        if len(_cache) < 100_000:
            _cache[n] = sym
    return sym
