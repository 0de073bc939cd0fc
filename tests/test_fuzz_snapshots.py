"""Fuzzing (issue 14): snapshots made by mutating valid ones (keys dropped or given twice,
values of the wrong type, ids that name nothing, huge lists, unknown keys) are each either
judged or refused as invalid input with a field path on every problem; never a traceback.

Through the Python API (InvalidInput) and the in-process command line (exit status 2,
`invalid input: PATH: MESSAGE` lines).  A fixed, bounded number of examples (derandomized,
so CI sees the same ones every run)."""
from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st

from pyrules import Engine, InvalidInput
from pyrules.cases import DEFAULTS, load_cases, merge
from pyrules.cli import main

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = settings(max_examples=120, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _seeds() -> list[dict]:
    """Valid snapshots: the bundled examples and one snapshot of every ruling case file."""
    seeds = [yaml.safe_load(p.read_text()) for p in sorted((ROOT / "facts" / "examples").glob("*.yaml"))]
    for path in sorted((ROOT / "tests" / "cases").glob("*.yaml")):
        for case in load_cases(path):
            if not case.get("invalid") and case.get("snapshot"):
                seeds.append(merge(DEFAULTS, case["snapshot"]))
                break
    return seeds


SEEDS = _seeds()
ENGINE = Engine()
WRONG = [None, 0, -1, 10**12, 1.5, True, "", "x", "ghost", [], [1, "a"], {}, {"k": 1}, "Battle Ox"]
ID_KEYS = {"id", "card", "target", "attacker", "equipped_to", "to", "player", "turn_player", "owner"}
MOST_VALUES = 1_000_000     # far over every input cap (pyrules/limits.py): a larger snapshot checks nothing more


def paths(value, prefix=()) -> list[tuple]:
    """Every place in a value: a tuple of keys (strings) and list indexes."""
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths(v, prefix + (k,))
    elif isinstance(value, list):
        for n, v in enumerate(value):
            out += paths(v, prefix + (n,))
    return out


def size(value, walked: dict | None = None) -> int:
    """How many values (mappings, lists and scalars) a value holds, each entry of a list
    counted (a value that a list repeats is walked once)."""
    if not isinstance(value, (dict, list)):
        return 1
    walked = {} if walked is None else walked
    got = walked.get(id(value))
    if got is None:
        got = walked[id(value)] = 1 + sum(size(v, walked) for v in (value.values() if isinstance(value, dict) else value))
    return got


def get(value, path):
    for k in path:
        value = value[k]
    return value


def put(value, path, new):
    get(value, path[:-1])[path[-1]] = new


def mutate(snap: dict, data) -> dict:
    """One to three mutations of a copy of snap."""
    snap = copy.deepcopy(snap)
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        places = [p for p in paths(snap) if p]
        if not places:
            break
        path = data.draw(st.sampled_from(places), label="path")
        kind = data.draw(st.sampled_from(["drop", "wrong_type", "dangling", "huge_list", "unknown_key"]),
                         label="kind")
        parent = get(snap, path[:-1])
        if kind == "drop":
            del parent[path[-1]]
        elif kind == "wrong_type":
            put(snap, path, copy.deepcopy(data.draw(st.sampled_from(WRONG), label="value")))
        elif kind == "dangling":
            strings = [p for p in places if isinstance(get(snap, p), str)
                       and (set(p) & ID_KEYS or isinstance(p[-1], int))]
            if strings:
                put(snap, data.draw(st.sampled_from(strings), label="id"), "ghost")
        elif kind == "huge_list":
            item = get(snap, path)
            n = data.draw(st.sampled_from([6, 61, 1_001, 5_000]), label="length")
            put(snap, path, [copy.deepcopy(item) for _ in range(min(n, 61))] + [item] * max(0, n - 61))
            if size(snap) > MOST_VALUES:    # a huge list put in the repeated entries of another: n² values
                put(snap, path, item)       # (25 million, a minute to write out as text); the first one stays
        else:
            target = get(snap, path) if isinstance(get(snap, path), dict) else parent
            if isinstance(target, dict):
                target[data.draw(st.sampled_from(["extra", "Turn", "cards", "id"]), label="key")] = 1
    return snap


def judged_or_refused(call, snap: dict) -> None:
    """The call either answers or raises InvalidInput whose every problem names a field of the
    snapshot (one that is there, or a missing key of a mapping that is there)."""
    try:
        call()
    except InvalidInput as e:
        assert e.problems
        for p in e.problems:
            assert p.path and "\n" not in str(p), p
            assert p.path == "snapshot" or names_a_field(snap, p.path), (p, snap)


def names_a_field(snap: dict, path: str) -> bool:
    """Whether a field path (`players.A.hand[0].card`) leads to a value of snap, or to a key
    missing from a mapping that is there; an entry given as a bare card name stands for
    `{card: NAME}`, so `.card` below it names that name."""
    keys: list = []
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", path):
        keys.append(int(part[1:-1]) if part.startswith("[") else part)
    value = snap
    for n, k in enumerate(keys):
        if isinstance(value, dict) and k in value:
            value = value[k]
        elif isinstance(value, list) and isinstance(k, int) and k < len(value):
            value = value[k]
        elif isinstance(value, str) and k == "card" and n == len(keys) - 1:
            return True
        else:
            return n == len(keys) - 1 and isinstance(value, dict)
    return True


@SETTINGS
@given(st.sampled_from(range(len(SEEDS))), st.data())
def test_mutated_snapshots_are_judged_or_refused_with_a_field_path(seed, data):
    snap = mutate(SEEDS[seed], data)
    judged_or_refused(lambda: ENGINE.legal(snap), snap)
    judged_or_refused(lambda: ENGINE.check(snap, "draw"), snap)


def with_duplicate(value, path: tuple, key: str) -> str:
    """JSON text of value in which the mapping at path gives `key` a second time."""
    def text(v, here: tuple) -> str:
        if isinstance(v, dict):
            items = [f"{json.dumps(k)}: {text(x, here + (k,))}" for k, x in v.items()]
            if here == path:
                items.append(f"{json.dumps(key)}: {json.dumps(v.get(key, 0))}")
            return "{" + ", ".join(items) + "}"
        if isinstance(v, list):
            return "[" + ", ".join(text(x, here + (n,)) for n, x in enumerate(v)) + "]"
        return json.dumps(v)
    return text(value, ())


@SETTINGS
@given(st.sampled_from(range(len(SEEDS))), st.data())
def test_mutated_snapshot_text_on_the_command_line(seed, data):
    snap = mutate(SEEDS[seed], data) if data.draw(st.booleans(), label="mutate") else SEEDS[seed]
    maps = [p for p in paths(snap) if isinstance(get(snap, p), dict) and get(snap, p)]
    where = data.draw(st.sampled_from(maps), label="mapping")
    keys = list(get(snap, where))
    text = with_duplicate(snap, where, data.draw(st.sampled_from(keys), label="key"))
    res = CliRunner().invoke(main, ["check", "-", "draw"], input=text, obj=_OBJ)
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    assert "Traceback" not in res.output + res.stderr
    assert res.exit_code == 2, res.stdout          # a key given twice is never judged
    lines = res.stderr.splitlines()
    assert lines and all(line.startswith("invalid input: ") and ": " in line[15:] for line in lines), res.stderr
    assert any("the key is given twice" in line or "more than the limit" in line for line in lines), lines


_OBJ: dict = {}
