"""Input limits, and reading YAML/JSON text without silent surprises.

Every snapshot, action and batch line passes through here before any per-card work:

- its size in bytes is capped before it is parsed (`max_input_bytes`, default 256 KiB:
  a duel state in YAML is a few KB, and a large one with inline cards some 60 KB);
- once parsed, one walk over the value checks that no list is longer than
  `max_list_items` (1,000: a Deck holds at most 60 cards, an Extra Deck 15, and a whole
  duel's tokens and events stay far below), that nesting stays within `max_depth` (32),
  that the value does not expand to more than `max_values` values (100,000), which is what
  YAML anchors and aliases (`*name`) can make a small file do, and that no value contains
  itself (a YAML alias inside its own anchor), and that no string or key holds a lone surrogate
  (a JSON escape such as \\ud800 without its pair, which could not be printed);
- a key given twice in one mapping (YAML or JSON) is an error, not "the last one wins".

The limits come from `Limits()` (the defaults), overridden by the environment variables
PYRULES_MAX_INPUT_BYTES, PYRULES_MAX_LIST_ITEMS, PYRULES_MAX_DEPTH and PYRULES_MAX_VALUES,
or given to `Engine(limits=Limits(...))`.  A message lists at most `max_problems` (50)
problems, then how many more there were.
"""
from __future__ import annotations

import json
import os
from dataclasses import fields
from typing import IO, Any, Iterator

import yaml

from .errors import InvalidInput, Problem
from .records import Record, record, set_field

_ENV = {"max_input_bytes": "PYRULES_MAX_INPUT_BYTES", "max_list_items": "PYRULES_MAX_LIST_ITEMS",
        "max_depth": "PYRULES_MAX_DEPTH", "max_values": "PYRULES_MAX_VALUES",
        "max_problems": "PYRULES_MAX_PROBLEMS", "max_sets": "PYRULES_MAX_SETS"}
SETS_RANGE = (1_000, 40_000)                    # what max_sets can be (below: the rules skip purposes of 12 cards
                                                # or fewer, whose sets of one size number at most 924; above: the
                                                # rules' arithmetic, M * M, would pass 32 bits)


@record
class Limits(Record):
    """Caps on one input (a snapshot, an action, a batch line).  `max_sets` is read by the rules: legal
    lists every card set of a Fusion, Ritual or procedure Summon, and refuses a snapshot in which the sets
    of one size for one card could number more (the rules read it brought within SETS_RANGE)."""
    max_input_bytes: int = 256 * 1024
    max_list_items: int = 1_000
    max_depth: int = 32
    max_values: int = 100_000
    max_problems: int = 50
    max_sets: int = 40_000

    def __init__(self, max_input_bytes: int = 256 * 1024, max_list_items: int = 1000, max_depth: int = 32,
                 max_values: int = 100000, max_problems: int = 50, max_sets: int = 40000) -> None:
        set_field(self, "max_input_bytes", max_input_bytes)
        set_field(self, "max_list_items", max_list_items)
        set_field(self, "max_depth", max_depth)
        set_field(self, "max_values", max_values)
        set_field(self, "max_problems", max_problems)
        set_field(self, "max_sets", max_sets)

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> "Limits":
        """The defaults, overridden by the PYRULES_MAX_* environment variables."""
        env = os.environ if environ is None else environ
        given: dict[str, int] = {}
        for f in fields(cls):
            text = env.get(_ENV[f.name])
            if text is None or not text.strip():
                continue
            try:
                value = int(text.strip().replace("_", ""))
            except ValueError:
                value = 0
            if value < 1:
                raise InvalidInput(Problem(_ENV[f.name], f"expected a positive whole number, got {text!r}"))
            given[f.name] = value
        return cls(**given)


# ---- reading text -----------------------------------------------------------------
def _size_problem(size: int, limits: Limits, origin: str) -> Problem:
    return Problem(origin, f"the input is {size:,} bytes, more than the limit of {limits.max_input_bytes:,} "
                           f"(set {_ENV['max_input_bytes']} to allow more)")


def check_text_size(text: str | bytes, limits: Limits, origin: str) -> None:
    """InvalidInput when text is over the byte limit (cheap: no copy unless near the limit)."""
    cap = limits.max_input_bytes
    if len(text) > cap:
        raise InvalidInput(_size_problem(len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "replace")),
                                         limits, origin))
    if isinstance(text, str) and len(text) * 4 > cap:
        size = len(text.encode("utf-8", "replace"))
        if size > cap:
            raise InvalidInput(_size_problem(size, limits, origin))


def decode(data: bytes, origin: str) -> str:
    """UTF-8 bytes (a UTF-8 byte order mark allowed) -> text; InvalidInput otherwise."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InvalidInput(Problem(origin, "the input is UTF-16 text; save it as UTF-8"))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise InvalidInput(Problem(origin, f"not UTF-8 text: byte {data[e.start]:#04x} at offset {e.start}")) from None


def read_stream(stream: IO[bytes], limits: Limits, origin: str) -> str:
    """At most max_input_bytes from a binary stream (standard input), decoded."""
    data = stream.read(limits.max_input_bytes + 1)
    if len(data) > limits.max_input_bytes:
        raise InvalidInput(Problem(origin, f"the input is more than the limit of {limits.max_input_bytes:,} bytes "
                                           f"(set {_ENV['max_input_bytes']} to allow more)"))
    return decode(data, origin)


def read_file(path, limits: Limits | None, origin: str) -> str:
    """A file's text; with limits, refused unread when it is over the byte limit."""
    try:
        if limits is not None:
            size = os.stat(path).st_size
            if size > limits.max_input_bytes:
                raise InvalidInput(_size_problem(size, limits, origin))
        with open(path, "rb") as f:
            data = f.read() if limits is None else f.read(limits.max_input_bytes + 1)
    except OSError as e:
        raise InvalidInput(Problem(origin, f"cannot read: {e.strerror or e}")) from None
    if limits is not None and len(data) > limits.max_input_bytes:
        raise InvalidInput(_size_problem(len(data), limits, origin))
    return decode(data, origin)


def read_lines(stream: IO[bytes], limits: Limits) -> Iterator[str | InvalidInput]:
    """The lines of a binary stream (JSON Lines), each as text without its line end, or as an
    InvalidInput when it is over the byte limit (the rest of it is skipped unread into memory)
    or not UTF-8.  Memory stays bounded by the limit whatever the lines are."""
    cap = limits.max_input_bytes
    while True:
        data = stream.readline(cap + 1)
        if not data:
            return
        if len(data) > cap and not data.endswith(b"\n"):
            size = len(data)
            while True:                   # skip to the end of this line, a bounded piece at a time
                more = stream.readline(1 << 16)
                size += len(more)
                if not more or more.endswith(b"\n"):
                    break
            yield InvalidInput(_size_problem(size, limits, "line"))
            continue
        try:
            yield decode(data.rstrip(b"\r\n"), "line")
        except InvalidInput as e:
            yield e


_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
MAX_NUMBER_CHARS = 100      # a whole number written with more characters is refused (Python stops at 4,300 digits)
MAX_MERGED = 100_000        # entries merge keys (<<) may gather in one text (each level or link of merges copies)


def check_nesting(text: str, limit: int, origin: str) -> None:
    """InvalidInput when collections nest more than `limit` deep.  libyaml's composer recurses in C,
    so a few thousand nested brackets overflow the stack and end the process; its parser keeps a stack
    of its own, so the depth is counted over the parse events first (cheap: no values are built).
    Text the parser refuses is left to the loader, which says where."""
    depth = 0
    starts, ends = (yaml.MappingStartEvent, yaml.SequenceStartEvent), (yaml.MappingEndEvent, yaml.SequenceEndEvent)
    try:
        for event in yaml.parse(text, Loader=_BaseLoader):
            if isinstance(event, starts):
                depth += 1
                if depth > limit:
                    mark = event.start_mark
                    where = f" (line {mark.line + 1})" if mark is not None else ""
                    raise InvalidInput(Problem(origin, f"nested more than {limit} levels deep{where}"))
            elif isinstance(event, ends):
                depth -= 1
    except yaml.YAMLError:
        return


class _Loader(_BaseLoader):     # type: ignore[misc,valid-type]
    """The safe YAML loader, noting every key given twice in one mapping; it refuses a whole number of
    more than MAX_NUMBER_CHARS characters and merge keys that gather more than MAX_MERGED entries in all."""

    def __init__(self, stream):
        super().__init__(stream)
        self.duplicates: dict[int, list[tuple[Any, str]]] = {}
        self.merged = 0             # entries gathered through merge keys so far, in the whole text

    def construct_yaml_int(self, node):
        if len(node.value) > MAX_NUMBER_CHARS:
            raise yaml.constructor.ConstructorError(None, None, f"a number of {len(node.value):,} characters is "
                                                    f"more than the {MAX_NUMBER_CHARS} allowed", node.start_mark)
        return super().construct_yaml_int(node)

    def flatten_mapping(self, node):
        merges = any(key.tag == "tag:yaml.org,2002:merge" for key, _ in node.value)
        super().flatten_mapping(node)
        if merges:                  # a mapping merged once has no merge keys left: counted once
            self.merged += len(node.value)
            if self.merged > MAX_MERGED:
                raise yaml.constructor.ConstructorError(None, None, f"merge keys (<<) gather more than "
                                                        f"{MAX_MERGED:,} entries", node.start_mark)

    def construct_yaml_map(self, node):
        data: dict = {}
        yield data
        seen: set = set()
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":     # <<: *base, then keys that override it
                continue
            key = self.construct_object(key_node, deep=False)
            try:
                if key in seen:
                    mark = key_node.start_mark
                    self.duplicates.setdefault(id(data), []).append((key, f"line {mark.line + 1}"))
                seen.add(key)
            except TypeError:         # an unhashable key: construct_mapping reports it
                pass
        data.update(self.construct_mapping(node))


_Loader.add_constructor("tag:yaml.org,2002:map", _Loader.construct_yaml_map)
_Loader.add_constructor("tag:yaml.org,2002:int", _Loader.construct_yaml_int)


def _json_object(duplicates: dict[int, list[tuple[Any, str]]]):
    def hook(pairs: list[tuple[str, Any]]) -> dict:
        data = dict(pairs)
        if len(data) != len(pairs):
            seen: set = set()
            for k, _ in pairs:
                if k in seen:
                    duplicates.setdefault(id(data), []).append((k, ""))
                seen.add(k)
        return data
    return hook


def parse_yaml(text: str, origin: str, limits: Limits | None = None, base: str = "") -> Any:
    """YAML (or JSON) text -> a value, checked (see check_value; field paths start at base).
    Problems with the text itself are reported at origin.  Raises InvalidInput."""
    if limits is not None:
        check_text_size(text, limits, origin)
    if text.lstrip()[:1] in ("{", "["):       # JSON (a YAML subset) reads ten times faster as JSON
        duplicates: dict[int, list[tuple[Any, str]]] = {}
        try:
            value = json.loads(text, object_pairs_hook=_json_object(duplicates))
        except RecursionError:
            raise InvalidInput(Problem(origin, "nested too deeply")) from None
        except ValueError:
            pass                              # YAML flow style, or not valid: the YAML reader says
        else:
            check_value(value, limits or UNLIMITED, duplicates, base)
            return value
    check_nesting(text, max(2 * (limits or UNLIMITED).max_depth, 100), origin)   # deeper still: refused unbuilt
    loader = _Loader(text)
    try:
        value = loader.get_single_data()
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        raise InvalidInput(Problem(origin, f"not valid YAML or JSON{where}: {getattr(e, 'problem', None) or e}")) from None
    except RecursionError:
        raise InvalidInput(Problem(origin, "nested too deeply")) from None
    finally:
        loader.dispose()
    check_value(value, limits or UNLIMITED, loader.duplicates, base)
    return value


def parse_json(text: str, origin: str, limits: Limits | None = None, base: str = "", *,
               walk: bool = True) -> Any:
    """JSON text -> a value, checked (see check_value; with walk=False only for keys given twice,
    when the caller walks the value later).  Raises InvalidInput."""
    if limits is not None:
        check_text_size(text, limits, origin)
    duplicates: dict[int, list[tuple[Any, str]]] = {}
    try:
        value = json.loads(text, object_pairs_hook=_json_object(duplicates))
    except ValueError as e:
        raise InvalidInput(Problem(origin, f"not valid JSON: {e}")) from None
    except RecursionError:
        raise InvalidInput(Problem(origin, "nested too deeply")) from None
    check_value(value, limits or UNLIMITED, duplicates, base, walk)
    return value


UNLIMITED = Limits(max_input_bytes=1 << 62, max_list_items=1 << 62, max_depth=500, max_values=1 << 62)  # card pools, case files


# ---- checking a parsed value ---------------------------------------------------------
class _Refused(Exception):
    """A limit broken somewhere below: the keys of its path are added on the way back up."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        self.keys: list[Any] = []


_NOT_UNICODE = "is not Unicode text: it holds a lone surrogate (a JSON escape such as \\ud800 without its pair)"


def _unicode(text: str) -> bool:
    """Whether text can be written as UTF-8 (a lone surrogate, which JSON's \\uXXXX escapes can make,
    cannot: printing it would fail later)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _refuse_surrogates(key: Any, value: Any) -> None:
    """_Refused when a key or a string value under it holds a lone surrogate."""
    if isinstance(key, str) and not _unicode(key):
        e = _Refused(f"{_NOT_UNICODE} (in this key)")
        e.keys.append(key.encode("utf-8", "backslashreplace").decode("ascii"))
        raise e
    if isinstance(value, str) and not _unicode(value):
        e = _Refused(_NOT_UNICODE)
        e.keys.append(key)
        raise e


def _size(v: Any, depth: int, limits: Limits, sizes: dict[int, int], open_: set[int]) -> int:
    """The number of values in v, counting a shared value (a YAML alias) at every place it is."""
    key = id(v)
    got = sizes.get(key)
    if got is not None:
        return got
    if key in open_:
        raise _Refused("contains itself (a YAML alias inside its own anchor)")
    if depth >= limits.max_depth:
        raise _Refused(f"nested more than {limits.max_depth} levels deep")
    if len(v) > limits.max_list_items:
        raise _Refused(f"has {len(v):,} {'entries' if isinstance(v, list) else 'keys'}, "
                       f"more than the limit of {limits.max_list_items:,}")
    open_.add(key)
    total = 1
    for k, x in (v.items() if isinstance(v, dict) else enumerate(v)):
        if isinstance(x, (dict, list)):
            try:
                total += _size(x, depth + 1, limits, sizes, open_)
            except _Refused as e:
                e.keys.append(k)
                raise
        else:
            total += 1
        if (x.__class__ is str and not x.isascii()) or (k.__class__ is str and not k.isascii()):
            _refuse_surrogates(k, x)
    open_.discard(key)
    if total > limits.max_values:
        raise _Refused(f"expands to more than {limits.max_values:,} values (YAML aliases repeat what they name)")
    sizes[key] = total
    return total


def check_value(value: Any, limits: Limits, duplicates: dict[int, list[tuple[Any, str]]] | None = None,
                base: str = "", walk: bool = True) -> None:
    """InvalidInput when a parsed value breaks the limits, contains itself, or had a key given
    twice (duplicates: from the loaders above).  Shared values (YAML aliases) are measured once
    and counted at every place they appear, so the work is bounded by the text, not by what
    the aliases expand to.  walk=False checks only the keys given twice (the caller walks
    the value later)."""
    if walk and isinstance(value, (dict, list)):
        try:
            _size(value, 0, limits, {}, set())
        except _Refused as e:
            path = base
            for k in reversed(e.keys):
                path = f"{path}[{k}]" if isinstance(k, int) else _join(path, k)
            raise InvalidInput(Problem(path or "snapshot", e.message)) from None
    if duplicates:
        problems: list[Problem] = []
        _find_duplicates(value, base, duplicates, problems, set())
        if problems:
            raise InvalidInput(problems)


def _find_duplicates(v: Any, path: str, duplicates: dict[int, list[tuple[Any, str]]],
                     out: list[Problem], seen: set[int]) -> None:
    if not isinstance(v, (dict, list)) or id(v) in seen:
        return
    seen.add(id(v))
    for k, where in duplicates.get(id(v), ()):
        out.append(Problem(_join(path, k), f"the key is given twice{f' ({where})' if where else ''}; "
                                           f"the last value would silently win: keep one"))
    for k, x in (v.items() if isinstance(v, dict) else enumerate(v)):
        _find_duplicates(x, f"{path}[{k}]" if isinstance(v, list) else _join(path, k), duplicates, out, seen)


def _join(path: str, key: Any) -> str:
    return f"{path}.{key}" if path else str(key)


def _clipped(line: str, width: int = 400) -> str:
    """A problem line no longer than width (a 100,000-character id is not echoed whole)."""
    return line if len(line) <= width else f"{line[:width - 30]}... ({len(line):,} characters)"


def shown(problems: list[Problem], limits: Limits | None = None) -> list[str]:
    """The lines that report problems: at most max_problems, then how many more."""
    cap = (limits or Limits()).max_problems
    lines = [_clipped(str(p)) for p in problems[:cap]]
    if len(problems) > cap:
        lines.append(f"... and {len(problems) - cap:,} more problems")
    return lines
