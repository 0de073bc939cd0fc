"""The small JSON Schema validator of pyrules: every problem with its field path.

It covers the subset the project's schemas use: type, enum, properties, required,
additionalProperties, items, minimum, maximum, minLength, anyOf, $ref.  Schemas are
compiled once into checker functions.
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


def _compile(schema: dict, root: dict):  # noqa: C901  (to split into named steps: issue 15)
    if "$ref" in schema:
        return _checker(_resolve(schema, root), root)
    if "anyOf" in schema:
        options = [(_resolve(b, root), b) for b in schema["anyOf"]]
        words = " or ".join(_TYPE_WORD.get(str(r.get("type")), "a value") for r, _ in options)
        branches = [(r, _checker(b, root)) for r, b in options]

        def any_of(v, w, out):
            for r, check in branches:
                if _fits_type(r, v):
                    check(v, w, out)
                    return
            out.append((w, f"expected {words}, got {_describe(v)}"))
        return any_of
    if "type" in schema:
        t = schema["type"]
        want = " or ".join(_TYPE_WORD[x] for x in (t if isinstance(t, list) else [t]))
        tests = [_TYPES[x] for x in (t if isinstance(t, list) else [t])]
        fits = tests[0] if len(tests) == 1 else (lambda v: any(f(v) for f in tests))
    else:
        fits = None
    enum = schema.get("enum")
    enum_has_bool = enum is not None and any(isinstance(e, bool) for e in enum)
    lo, hi, min_len = schema.get("minimum"), schema.get("maximum"), schema.get("minLength")
    props = {k: _checker(v, root) for k, v in schema.get("properties", {}).items()}
    required = schema.get("required", [])
    extra = schema.get("additionalProperties", True)
    extra_check = _checker(extra, root) if isinstance(extra, dict) else None
    items = _checker(schema["items"], root) if "items" in schema else None

    def check(v, w, out):  # noqa: C901  (to split into named steps: issue 15)
        if fits is not None and not fits(v):
            out.append((w, f"expected {want}, got {_describe(v)} ({v!r})"))
            return
        if enum is not None and (v not in enum or (isinstance(v, bool) and not enum_has_bool)):
            out.append((w, f"must be one of {', '.join(map(str, enum))}; got {v!r}"))
            return
        cls = v.__class__
        if cls is int:
            if lo is not None and v < lo:
                out.append((w, f"must be at least {lo}; got {v}"))
            if hi is not None and v > hi:
                out.append((w, f"must be at most {hi}; got {v}"))
        elif cls is str:
            if min_len is not None and len(v) < min_len:
                out.append((w, "must not be empty"))
        elif cls is dict or isinstance(v, dict):
            for k in required:
                if k not in v:
                    out.append(((w, k), "is required"))
            for k, x in v.items():
                if not isinstance(k, str):
                    out.append(((w, str(k)), "keys must be strings"))
                    continue
                sub = props.get(k)
                if sub is not None:
                    sub(x, (w, k), out)
                elif extra is False:
                    out.append(((w, k), "unknown key"))
                elif extra_check is not None:
                    extra_check(x, (w, k), out)
        elif items is not None and (cls is list or isinstance(v, list)):
            for n, x in enumerate(v):
                items(x, (w, n), out)
        elif isinstance(v, int) and not isinstance(v, bool):      # an int subclass
            if lo is not None and v < lo:
                out.append((w, f"must be at least {lo}; got {v}"))
            if hi is not None and v > hi:
                out.append((w, f"must be at most {hi}; got {v}"))
        elif isinstance(v, str) and min_len is not None and len(v) < min_len:
            out.append((w, "must not be empty"))
    return check


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


