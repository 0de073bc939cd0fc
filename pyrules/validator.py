"""The small JSON Schema validator of pyrules: every problem with its field path.

It covers the subset the project's schemas use: type, enum, properties, required,
additionalProperties, items, minimum, maximum, minLength, anyOf, $ref.  Schemas are
compiled once into checker functions, each part when a value first reaches it: a snapshot
uses few of the schema's branches (no inline card, no applied effect...), and compiling
all of them took about a millisecond of every `pyrules check`.
"""
from __future__ import annotations

import threading
from typing import Any, Iterator

_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}
_TYPE_WORD = {"object": "a mapping", "array": "a list", "string": "a string", "integer": "an integer",
              "number": "a number", "boolean": "true or false", "null": "null"}


def _describe(v: Any) -> str:
    for name in ("boolean", "integer", "number", "string", "array", "object", "null"):
        if _TYPES[name](v):
            return _TYPE_WORD[name]
    return type(v).__name__


def _shown(v: Any) -> str:
    """A value as a message quotes it: short (a long text or list cut at 60 characters); a whole
    number too large to print (Python refuses more than 4,300 digits) by its size, and a value that
    cannot be printed (such a number inside a list, a failing repr) by its kind."""
    try:
        text = repr(v)
    except Exception:               # noqa: BLE001 (ValueError for the digits; any error of a user's repr)
        if isinstance(v, int) and not isinstance(v, bool):
            return f"a number of about {int(v.bit_length() * 0.30103) + 1:,} digits"
        return _describe(v)
    return text if len(text) <= 60 else text[:57] + "..."


def _fits_type(schema: dict, v: Any) -> bool:
    t = schema.get("type")
    if t is None:
        if "enum" in schema:
            return True
        return True
    types = t if isinstance(t, list) else [t]
    return any(_TYPES[x](v) for x in types)


def validate(value: Any, schema: dict, root: dict, path: str = "") -> Iterator[tuple[str, str]]:
    """Yield (path, message) for every way `value` breaks `schema`."""
    out: list[tuple[Any, str]] = []
    _checker(schema, root)(value, None, out)
    for where, message in out:
        yield _path(where, path), message


# The schema is compiled once into nested checker functions: check(value, where, out) appends
# (where, message) to out for every problem.  `where` is the field path as nested pairs
# (parent, key), made into text only when a problem is reported.
_COMPILED: dict[tuple[int, int], tuple[dict, dict, Any]] = {}     # kept with the schema: ids stay unique
_PENDING: dict[tuple[int, int], Any] = {}       # stand-ins while compiling ($ref cycles call through them)
_COMPILING = threading.RLock()                  # one thread compiles; others see finished checkers only


def _checker(schema: dict, root: dict):
    key = (id(schema), id(root))
    got = _COMPILED.get(key)
    if got is not None:
        return got[2]
    with _COMPILING:
        got = _COMPILED.get(key)
        if got is not None:
            return got[2]
        pending = _PENDING.get(key)
        if pending is not None:                 # a cycle back to a schema being compiled
            return pending
        slot: list = []
        _PENDING[key] = lambda v, w, out: slot[0](v, w, out)
        try:
            check = _compile(schema, root)
        finally:
            del _PENDING[key]
        slot.append(check)
        _COMPILED[key] = (schema, root, check)
        return check


def _resolve(schema: dict, root: dict) -> dict:
    return root["definitions"][schema["$ref"].split("/")[-1]] if "$ref" in schema else schema


def _compile(schema: dict, root: dict):
    """The checker of one schema: a reference, a choice (anyOf), or a node."""
    if "$ref" in schema:
        return _checker(_resolve(schema, root), root)
    if "anyOf" in schema:
        return _compile_any_of(schema, root)
    return _compile_node(schema, root)


def _compile_any_of(schema: dict, root: dict):
    """anyOf: the first branch whose type fits the value checks it; no branch fits: one problem."""
    options = [(_resolve(b, root), b) for b in schema["anyOf"]]
    words = " or ".join(_TYPE_WORD.get(str(r.get("type")), "a value") for r, _ in options)
    branches = [[r, b, None] for r, b in options]   # [its schema, as written, its checker when first used]

    def any_of(v, w, out):
        for branch in branches:
            if _fits_type(branch[0], v):
                check = branch[2]
                if check is None:
                    check = branch[2] = _checker(branch[1], root)
                check(v, w, out)
                return
        out.append((w, f"expected {words}, got {_describe(v)}"))
    return any_of


def _type_test(schema: dict):
    """(the test that a value has the schema's type, its words), or (None, None) without a type."""
    if "type" not in schema:
        return None, None
    t = schema["type"]
    names = t if isinstance(t, list) else [t]
    tests = [_TYPES[x] for x in names]
    fits = tests[0] if len(tests) == 1 else (lambda v: any(f(v) for f in tests))
    return fits, " or ".join(_TYPE_WORD[x] for x in names)


def _compile_node(schema: dict, root: dict):
    """A node: its type first, then its enum, then the step for the value's kind (number, text,
    mapping, list).  A failing type or enum is one problem and ends the check of the value."""
    fits, want = _type_test(schema)
    enum = schema.get("enum")
    if schema.get("type") == "object" and enum is None:     # most nodes: one call per mapping
        return _object_step(schema, root, want)
    enum_has_bool = enum is not None and any(isinstance(e, bool) for e in enum)
    step = _value_step(schema, root)

    def check(v, w, out):
        if fits is not None and not fits(v):
            _wrong_type(v, w, out, want)
            return
        if enum is not None and (v not in enum or (isinstance(v, bool) and not enum_has_bool)):
            out.append((w, f"must be one of {', '.join(map(str, enum))}; got {_shown(v)}"))
            return
        if step is not None:
            step(v, w, out)
    return check


def _value_step(schema: dict, root: dict):
    """The check after type and enum (None: nothing to check).  A type of one kind decides it;
    otherwise it is chosen by the value's class."""
    steps = {int: _bounds_step(schema.get("minimum"), schema.get("maximum")),
             str: _min_length_step(schema.get("minLength")),
             dict: _object_step(schema, root),
             list: _items_step(schema["items"], root) if "items" in schema else None}
    one_kind = _ONE_KIND.get(str(schema.get("type")))
    if one_kind is not None:
        return steps[one_kind]
    if not any(steps.values()):
        return None
    return _by_class(steps)


# The class every value of a type has (subclasses included) when it passes the type test.
_ONE_KIND = {"integer": int, "string": str, "object": dict, "array": list}
_NOTHING_TO_CHECK = (bool, float, type(None))   # no step: true/false, fractions, null


def _by_class(steps: dict):
    """The step for the value's class: int, str, dict or list (or a subclass; bool is no integer here)."""
    exact = {**steps, **{cls: None for cls in _NOTHING_TO_CHECK}}

    def by_class(v, w, out):
        cls = v.__class__
        step = exact[cls] if cls in exact else _step_of_subclass(v, steps)
        if step is not None:
            step(v, w, out)
    return by_class


def _step_of_subclass(v: Any, steps: dict):
    """The step for a value of a subclass of int, str, dict or list."""
    for base in (dict, list, str):
        if isinstance(v, base):
            return steps[base]
    if isinstance(v, int) and not isinstance(v, bool):
        return steps[int]
    return None


def _bounds_step(lo, hi):
    """minimum and maximum of an integer (None: no bounds)."""
    if lo is None and hi is None:
        return None

    def bounds(v, w, out):
        if lo is not None and v < lo:
            out.append((w, f"must be at least {lo}; got {_shown(v)}"))
        if hi is not None and v > hi:
            out.append((w, f"must be at most {hi}; got {_shown(v)}"))
    return bounds


def _min_length_step(min_len):
    """minLength of a string (None: no minimum)."""
    if min_len is None:
        return None

    def min_length(v, w, out):
        if len(v) < min_len:
            out.append((w, "must not be empty"))
    return min_length


def _wrong_type(v: Any, w: Any, out: list, want: str) -> None:
    """The problem of a value whose type is not the schema's."""
    out.append((w, f"expected {want}, got {_describe(v)} ({_shown(v)})"))


def _object_step(schema: dict, root: dict, want: str | None = None):
    """required, properties and additionalProperties of a mapping: every problem of every key.
    With `want` (the words of type: object), it checks the type first."""
    props = _Checkers(schema.get("properties", {}), root)
    required = schema.get("required", [])
    extra = schema.get("additionalProperties", True)
    extra_checker = _later(extra, root) if isinstance(extra, dict) else None

    def walk_object(v, w, out):
        if want is not None and not isinstance(v, dict):
            _wrong_type(v, w, out, want)
            return
        for k in required:
            if k not in v:
                out.append(((w, k), "is required"))
        for k, x in v.items():
            if not isinstance(k, str):
                out.append(((w, str(k)), "keys must be strings"))
                continue
            sub = props[k]
            if sub is not None:
                sub(x, (w, k), out)
            elif extra is False:
                out.append(((w, k), "unknown key"))
            elif extra_checker is not None:
                extra_checker()(x, (w, k), out)
    return walk_object


class _Checkers(dict):
    """A mapping's keys -> the checkers of their schemas, each compiled when first asked for
    (None: a key without a schema)."""

    def __init__(self, schemas: dict, root: dict) -> None:
        super().__init__()
        self.schemas, self.root = schemas, root

    def __missing__(self, key: str) -> Any:
        schema = self.schemas.get(key)
        if schema is None:
            return None
        check = self[key] = _checker(schema, self.root)
        return check


def _later(schema: dict, root: dict):
    """A function that gives the checker of a schema, compiled at its first call."""
    got: list = []

    def checker():
        if not got:
            got.append(_checker(schema, root))
        return got[0]
    return checker


def _items_step(schema: dict, root: dict):
    """items of a list: every element checked, with its index in the path."""
    items = _later(schema, root)

    def walk_items(v, w, out):
        check = items()
        for n, x in enumerate(v):
            check(x, (w, n), out)
    return walk_items


def _path(where: Any, base: str) -> str:
    """The field path text of nested (parent, key) pairs below the path `base`."""
    keys = []
    while where is not None:
        where, k = where
        keys.append(k)
    path = base
    for k in reversed(keys):
        path = f"{path}[{k}]" if isinstance(k, int) else _join(path, k)
    return path


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


