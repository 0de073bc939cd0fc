"""The result classes are records (pyrules/records.py): dataclasses made without generated
code, each with its own __init__.  Each must take exactly its fields, in order, with their
defaults, and behave as the frozen dataclass of the same fields would: equality, hash,
repr, refused assignment, dataclasses.replace and asdict, pickling."""
from __future__ import annotations

import dataclasses
import inspect
import pickle

import pytest

from pyrules import Action, Evidence, Legal, Problem, Reason, Unmodelled, Verdict
from pyrules.limits import Limits

RECORDS = [Action, Evidence, Legal, Problem, Reason, Unmodelled, Verdict, Limits]


def _value(f: dataclasses.Field, k: int):
    """A value for field f, its own (two fields of a type never get the same value, so that an
    __init__ that swaps two fields is seen); k makes values differ from one call to the next."""
    t = str(f.type)
    if t.startswith("tuple"):
        return (f"{f.name}{k}",)
    if t.startswith("int"):
        return 2 + k + 100 * sum(map(ord, f.name))
    if t.startswith("bool"):
        return k % 2 == 1
    return f"{f.name}{k}"


def _twin(cls):
    """The frozen dataclass of the same fields (what @dataclass(frozen=True) would have made)."""
    specs = [(f.name, f.type, dataclasses.field(default=f.default)) if f.default is not dataclasses.MISSING
             else (f.name, f.type) for f in dataclasses.fields(cls)]
    return dataclasses.make_dataclass(cls.__qualname__, specs, frozen=True)


@pytest.mark.parametrize("cls", RECORDS, ids=lambda c: c.__name__)
def test_a_records_init_takes_its_fields_in_order_with_their_defaults(cls):
    assert dataclasses.is_dataclass(cls)
    params = list(inspect.signature(cls).parameters.values())
    fields = dataclasses.fields(cls)
    assert [p.name for p in params] == [f.name for f in fields]
    assert [p.default for p in params] == [inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default
                                           for f in fields]
    assert [p.annotation for p in params] == [f.type for f in fields]
    assert cls.__match_args__ == tuple(f.name for f in fields)     # (positional patterns of `match`)


@pytest.mark.parametrize("cls", RECORDS, ids=lambda c: c.__name__)
def test_a_record_behaves_as_the_frozen_dataclass_of_its_fields(cls):
    twin = _twin(cls)
    values = {f.name: _value(f, 1) for f in dataclasses.fields(cls)}
    made, same, their = cls(**values), cls(**values), twin(**values)
    assert repr(made) == repr(their)
    assert list(made.__dict__.items()) == list(their.__dict__.items())     # (Evidence.to_json reads it)
    assert cls.__match_args__ == twin.__match_args__
    assert made == same and hash(made) == hash(same) and hash(made) == hash(their)
    assert made != their                                    # another class, the same values
    first = dataclasses.fields(cls)[0].name
    other = dataclasses.replace(made, **{first: _value(dataclasses.fields(cls)[0], 2)})
    assert other != made and getattr(other, first) != getattr(made, first)
    assert dataclasses.asdict(made) == dataclasses.asdict(their)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(made, first, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        delattr(made, first)
    assert pickle.loads(pickle.dumps(made)) == made
    positional = cls(*values.values())
    assert positional == made
    with pytest.raises(TypeError):
        cls(**values, no_such_field=1)


def test_records_nest_and_compare_by_value():
    """A Verdict holds an Action and Reasons holding Evidence: equal when all of it is."""
    def verdict(card: str) -> Verdict:
        return Verdict(Action("normal_summon", card=card), False,
                       (Reason("r", "t", "s", ("e",), (Evidence("event", event=1, card=card),)),))
    assert verdict("a") == verdict("a") and hash(verdict("a")) == hash(verdict("a"))
    assert verdict("a") != verdict("b")
    assert Legal((Action("draw"),), False) == Legal(permitted=(Action("draw"),), replay=False)


def test_a_plain_subclass_of_a_record_may_add_attributes_but_not_change_fields():
    """As with a frozen dataclass: the record's own fields stay frozen in a subclass, which may
    set attributes of its own."""
    class Noted(Verdict):
        pass
    v = Noted(Action("draw"), True)
    v.note = "mine"
    assert v.note == "mine"
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.permitted = False
    with pytest.raises(dataclasses.FrozenInstanceError):
        Verdict(Action("draw"), True).note = "x"
