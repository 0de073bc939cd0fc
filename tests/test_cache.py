"""pyrules/cache.py: what is computed once per rules version is kept in the user's cache
folder, keyed by the files' hashes; a stale, corrupt or unwritable cache is never a wrong
answer; `--help` does not load clingo."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pyrules import Engine, InvalidInput, cache
from pyrules.paths import rules_dir

SNAP = {"snapshot": 1, "players": {"A": {"monsters": [{"id": "ox", "card": "Battle Ox", "position": "attack"}]},
                                   "B": {}}}


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("PYRULES_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture(scope="session")
def filled_once(tmp_path_factory):
    """A cache folder as Engine() fills it, made once (the tests that start from a filled
    folder get a copy of it: the same entries, without computing them again)."""
    where = tmp_path_factory.mktemp("filled") / "cache"
    with pytest.MonkeyPatch.context() as m:
        m.setenv("PYRULES_CACHE_DIR", str(where))
        Engine()
    return where


@pytest.fixture
def filled(folder, filled_once):
    """`folder`, holding what Engine() puts in an empty cache folder."""
    shutil.copytree(filled_once, folder)
    return folder


def test_an_engine_fills_the_cache_and_a_second_one_reads_it(folder):
    first = Engine()
    names = sorted(p.name.split("-")[0] for p in folder.glob("*.json"))
    assert {"rules", "catalogue"} <= set(names)     # the cards: facts/goat/cards.jsonl, read raw (no cache)
    second = Engine()
    assert second.names.reads == first.names.reads and second.catalogue == first.catalogue
    assert list(second.cards.by_name) == list(first.cards.by_name)
    assert second.legal(SNAP).to_json() == first.legal(SNAP).to_json()


def _edited(tmp_path, text: str):
    """A copy of the shipped rules with `text` added to turn.lp."""
    rules = tmp_path / "rules"
    shutil.copytree(rules_dir(), rules)
    with open(rules / "turn.lp", "a", encoding="utf-8") as f:
        f.write(text)
    return rules


def test_an_edited_rule_file_gets_a_new_entry(filled, tmp_path):
    folder = filled
    edited = Engine(rules=_edited(tmp_path, "\nstrong(I) :- atk(I,A), A > 2000.\n"))
    assert ("strong", 1) in edited.names.reads and ("strong", 1) not in Engine().names.reads
    assert len(list(folder.glob("rules-*.json"))) == 2


def test_an_edited_file_with_broken_rules_is_still_reported(filled, tmp_path):
    """The cache only skips the grounding check for files known to ground."""
    from pyrules import InvalidInput
    with pytest.raises(InvalidInput, match="unsafe"):
        Engine(rules=_edited(tmp_path, "\nunsafe(X) :- not turn(X).\n"))


def test_corrupt_or_foreign_entries_are_ignored(filled):
    folder = filled
    want = Engine().names.reads
    for p in folder.glob("*.json"):
        p.write_text("{not json" if p.name.startswith("rules") else json.dumps({"key": "other", "value": 1}))
    assert Engine().names.reads == want
    for p in folder.glob("rules-*.json"):          # a well-formed entry of the wrong shape
        p.write_text(json.dumps({"key": p.stem.split("-", 1)[1], "value": 7}))
    assert Engine().names.reads == want


def test_an_unwritable_cache_folder_or_cache_off_is_no_error(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("PYRULES_CACHE_DIR", str(blocker / "cache"))
    assert Engine().check(SNAP, "draw").permitted is False
    monkeypatch.setenv("PYRULES_CACHE_DIR", "off")
    assert cache.cache_dir() is None and Engine().check(SNAP, "draw").permitted is False


def test_help_does_not_load_clingo():
    code = ("import sys\nfrom pyrules.cli import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "assert not [m for m in sys.modules if m.startswith('clingo')], 'clingo loaded'\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "Usage" in out.stdout


def test_a_query_answered_from_the_kept_texts_does_not_parse_the_rules(filled):
    """With the rules' analysis and texts in the cache, a new Engine's check does not parse the
    rules (solver.Statements)."""
    code = ("import sys\nfrom pyrules import Engine\n"
            "e = Engine()\n"
            "assert e.check({'snapshot': 1, 'players': {'A': {}, 'B': {}}}, 'draw').permitted is False\n"
            "assert not e.statements.is_parsed, 'parsed'\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


def test_rule_texts_garbled_in_the_cache_are_invalid_input_not_a_traceback(filled):
    folder = filled
    for p in folder.glob("rules-*.json"):
        entry = json.loads(p.read_text())
        entry["value"]["texts"] = ["p(." for _ in entry["value"]["texts"]]
        p.write_text(json.dumps(entry))
    eng = Engine()
    with pytest.raises(InvalidInput, match="delete the cache folder"):
        eng.check(SNAP, "draw")
    with pytest.raises(InvalidInput, match="delete the cache folder"):
        list(eng.statements)


def test_only_the_newest_entries_of_a_name_are_kept(folder):
    """Every edit of a rule file makes a new key: the oldest entries of that name go."""
    import os
    keys = [f"{n:032x}" for n in range(cache.KEEP + 3)]
    for n, k in enumerate(keys):
        cache.store("thing", k, n)
        os.utime(folder / f"thing-{k}.json", (n, n))        # (distinct ages, oldest first)
    cache.store("other", keys[0], "x")
    assert sorted(p.name for p in folder.glob("thing-*.json")) == [f"thing-{k}.json" for k in keys[3:]]
    assert [cache.load("thing", k) for k in keys[-2:]] == [cache.KEEP + 1, cache.KEEP + 2]
    assert cache.load("other", keys[0]) == "x"


def test_a_process_that_parsed_the_rules_exits_quietly(tmp_path):
    """clingo's AST objects free themselves through clingo.ast's module globals, and clingo.ast
    is loaded only at the first parse, after the modules that hold an Engine: at exit, what
    pyrules holds of the parsed statements is dropped before the modules are torn down
    (pyrules/solver.py).  Without that, a process that froze its objects out of the
    collector's sight (as the `pyrules` command does) printed "Exception ignored in
    AST.__del__" for each statement.  A one-shot query on the kept texts does not load
    clingo.ast at all."""
    example = Path(__file__).resolve().parents[1] / "facts" / "examples" / "main_phase.yaml"
    (tmp_path / "holder.py").write_text(
        "import gc, sys\nfrom pathlib import Path\nfrom pyrules import Engine\n"
        "ENGINE = Engine()\n"
        f"ENGINE.legal(Path({str(example)!r}))\n"
        "print('ast', 'clingo.ast' in sys.modules)\n"
        "ENGINE.statements.parsed\n"
        "ENGINE.prepared('copy', list)\n"
        "gc.freeze()\n")
    env = {**os.environ, "PYRULES_CACHE_DIR": str(tmp_path / "cache")}
    for first in ("ast True", "ast False"):     # (an empty cache: the rules are parsed at once; then a filled one)
        out = subprocess.run([sys.executable, "-c", "import holder"], capture_output=True, text=True, env=env,
                             cwd=tmp_path)
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == first
        assert out.stderr == ""
