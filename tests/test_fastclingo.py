"""fastclingo: the fast path is used only when every private name is there and it agrees
with clingo's public API; otherwise, or with PYRULES_PUBLIC_API=1, the public API."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import types

import clingo
import pytest

from pyrules import fastclingo


def test_public_api_gives_the_same_answers():
    """PYRULES_PUBLIC_API=1 runs on clingo's public API (CI runs the whole suite that way
    too); its answers are the fast path's."""
    code = (
        "import sys, json; from pyrules import Engine, fastclingo\n"
        "assert not fastclingo.FAST and fastclingo.FALLBACK == 'PYRULES_PUBLIC_API is set'\n"
        "print(json.dumps([Engine().legal(s, include_forbidden=True).to_json(True) for s in json.loads(sys.argv[1])]))\n")
    snaps = [{"snapshot": 1, "players": {"A": {"hand": [{"id": "skull", "card": "Summoned Skull"}],
                                               "monsters": [{"id": "ox", "card": "Battle Ox", "position": "attack"}]},
                                         "B": {}}},
             {"snapshot": 1, "phase": "battle", "players": {"A": {"monsters": [{"id": "ox", "card": "Battle Ox",
                                                                                "position": "attack"}]},
                                                            "B": {"monsters": [{"id": "bug", "card": "Man-Eater Bug",
                                                                                "position": "defense", "face": "down"}]}},
              "this_turn": [{"event": "normal_summon", "card": "ox"}]}]
    env = {**os.environ, "PYRULES_PUBLIC_API": "1"}
    out = subprocess.run([sys.executable, "-c", code, json.dumps(snaps)], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    from pyrules import Engine, fastclingo
    assert fastclingo.FAST or os.environ.get("PYRULES_PUBLIC_API")
    engine = Engine()
    assert json.loads(out.stdout) == [engine.legal(s, include_forbidden=True).to_json(True) for s in snaps]


def _internal_without(name: str, wrong: bool = False):
    """clingo's cffi layer with one function of _lib missing, or (wrong) doing something else."""
    import clingo._internal as real
    lib = types.SimpleNamespace(**{n: getattr(real._lib, n) for n in fastclingo._LIB_FUNCTIONS})
    if wrong:
        setattr(lib, name, lambda number, out: real._lib.clingo_symbol_create_number(number + 1, out))
    else:
        delattr(lib, name)
    return types.SimpleNamespace(_ffi=real._ffi, _lib=lib, _handle_error=real._handle_error)


@pytest.mark.parametrize("name", fastclingo._LIB_FUNCTIONS)
def test_a_missing_private_name_falls_back_to_the_public_api(monkeypatch, name):
    monkeypatch.setitem(sys.modules, "clingo._internal", _internal_without(name))
    monkeypatch.delenv("PYRULES_PUBLIC_API", raising=False)
    path, why = fastclingo._choose()
    assert path.Function is clingo.Function and name in why


def test_a_private_call_that_misbehaves_falls_back_to_the_public_api(monkeypatch):
    """The import-time self-test compares the fast path with the public API."""
    monkeypatch.setitem(sys.modules, "clingo._internal", _internal_without("clingo_symbol_create_number", wrong=True))
    monkeypatch.delenv("PYRULES_PUBLIC_API", raising=False)
    path, why = fastclingo._choose()
    assert path.Number is clingo.Number and why.startswith("AssertionError")
