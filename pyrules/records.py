"""Frozen records: the classes of what pyrules gives back (Action, Verdict, Reason, Evidence,
Legal, Unmodelled, Problem, Limits).

Each is a dataclass (dataclasses.fields, asdict, astuple, replace and is_dataclass work on
it, and `match` takes positional patterns), equal to another of its class with the same
fields, hashable, printed field by field, and it refuses assignment to its fields
(FrozenInstanceError), as a frozen dataclass does; type checkers see a frozen dataclass
(dataclass_transform).  What differs is only how the class is made: @dataclass(frozen=True)
writes six methods of each class as source text and compiles them when the module is
imported (about 0.6 ms a class: 6% of the instructions of a `pyrules check` for these
eight, docs/performance.md), whereas a record writes its __init__ in its own source,
compiled once into the module's bytecode and as fast as the generated one, and shares the
other methods, written once below.  One
difference remains: dataclasses reads a record as not frozen (__dataclass_params__), so a
subclass made with @dataclass(frozen=True) is refused; a plain subclass works.
tests/test_records.py checks every record's __init__ against its fields and its behaviour
against a frozen dataclass's.
"""
from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass, fields
from operator import attrgetter
from typing import Any, Callable, ClassVar, TypeVar, dataclass_transform

__all__ = ["Record", "record", "set_field"]

C = TypeVar("C", bound=type)

set_field = object.__setattr__
"""What a record's __init__ sets each field with (its own __setattr__ refuses)."""


class Record:
    """The methods every record shares; a subclass is made a record by @record."""
    __slots__ = ()
    _names: tuple[str, ...] = ()                # the fields, in order (set by @record)
    _values: Callable[[Any], tuple]             # the fields' values, in order (set by @record)
    _record: type                               # the class @record made
    __dataclass_fields__: ClassVar[dict[str, Any]]

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in self._names)})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._values(self) == self._values(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values(self))

    def __setattr__(self, name: str, value: Any) -> None:
        if self.__class__ is self._record or name in self._names:   # (as a frozen dataclass refuses)
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if self.__class__ is self._record or name in self._names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        object.__delattr__(self, name)


@dataclass_transform(frozen_default=True)
def record(cls: C) -> C:
    """The class as a dataclass whose fields dataclasses knows, with no method generated (its
    own __init__, the rest from Record)."""
    made: Any = dataclass(init=False, repr=False, eq=False)(cls)
    names = tuple(f.name for f in fields(made))
    made._names = names
    get = attrgetter(*names)
    made._values = staticmethod(get if len(names) > 1 else (lambda obj: (get(obj),)))
    made._record = made
    return made
