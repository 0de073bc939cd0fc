"""Hostile input (issue 14): every bad input is refused with exit status 2 and a one-line
message naming the field, never a traceback, never a silent wrong answer, and the work
stays bounded (a loose alarm against hangs; these are not speed tests)."""
from __future__ import annotations

import json
import pickle
import signal
import time
import tracemalloc
from contextlib import contextmanager
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from pyrules import Engine, InvalidInput
from pyrules.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "facts" / "examples" / "main_phase.yaml"
EMPTY = {"snapshot": 1, "players": {"A": {}, "B": {}}}
_OBJ: dict = {}          # engines shared by the in-process runs


@contextmanager
def bounded(seconds: float = 20.0):
    """Fails the test (instead of hanging the suite) when the work takes longer than this."""
    def alarm(*_):
        raise TimeoutError(f"took more than {seconds}s: the work is not bounded")
    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def cli(args, stdin=None, fresh=False):
    """Runs pyrules in this process (fresh: with new engines, as a new process would have)."""
    with bounded():
        res = CliRunner().invoke(main, [str(a) for a in args], input=stdin, obj={} if fresh else _OBJ)
    assert "Traceback" not in res.output + res.stderr
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    return res


def refused(args, field: str, words: str = "", stdin=None, fresh=False):
    """Exit 2, and a problem line `invalid input: FIELD...: ...WORDS...` on standard error."""
    res = cli(args, stdin, fresh)
    assert res.exit_code == 2, (res.exit_code, res.output, res.stderr)
    lines = res.stderr.strip().splitlines()
    assert lines and all(line.startswith("invalid input: ") for line in lines), res.stderr
    assert any(line.startswith(f"invalid input: {field}") and words in line for line in lines), res.stderr
    return res


@pytest.fixture(scope="module")
def engine():
    return Engine()


def write(tmp_path, name, text: str | bytes) -> Path:
    p = tmp_path / name
    (p.write_bytes if isinstance(text, bytes) else p.write_text)(text)
    return p


# ---- tracebacks that became exit 2 --------------------------------------------------------
@pytest.mark.parametrize("action", ['{"action":["draw"]}', '{"action":{"a":1}}', '{"action":null}'])
def test_an_action_name_that_is_not_a_string(action):
    refused(["check", EXAMPLE, action], "action.action", "expected an action name")


def test_an_action_name_that_is_not_a_string_in_batch(tmp_path):
    infile = write(tmp_path, "in.jsonl", json.dumps(EMPTY) + "\n")
    refused(["batch", infile, "--check", '{"action":["draw"]}'], "action.action", "expected an action name")


def batch_lines(res) -> list[dict]:
    return [json.loads(x) for x in res.stdout.splitlines()]


def test_a_batch_line_nested_5000_deep_is_an_error_record_and_the_next_lines_are_judged(tmp_path):
    deep = '{"snapshot":1,"x":' + "[" * 5000 + "]" * 5000 + "}"
    infile = write(tmp_path, "in.jsonl", "\n".join([json.dumps(EMPTY), deep, json.dumps(EMPTY)]) + "\n")
    res = cli(["batch", infile])
    assert res.exit_code == 2
    out = batch_lines(res)
    assert [r["line"] for r in out] == [1, 2, 3]
    assert out[1]["error"] == ["line: nested too deeply"]
    assert "permitted" in out[0] and "permitted" in out[2]
    assert "3 lines: 2 judged, 1 with errors" in res.stderr


def test_a_batch_line_that_is_not_utf8_is_an_error_record(tmp_path):
    good = json.dumps(EMPTY).encode()
    infile = write(tmp_path, "in.jsonl", good + b"\n" + b'{"snapshot": 1, "turn_player": "\xff"}\n' + good + b"\n")
    res = cli(["batch", infile])
    assert res.exit_code == 2
    out = batch_lines(res)
    assert len(out) == 3 and "permitted" in out[0] and "permitted" in out[2]
    assert out[1]["error"][0].startswith("line: not UTF-8 text: byte 0xff")


@pytest.mark.parametrize("where", ["missing/out.jsonl", "."])
def test_batch_output_into_a_missing_folder_or_onto_a_folder(tmp_path, where):
    infile = write(tmp_path, "in.jsonl", json.dumps(EMPTY) + "\n")
    refused(["batch", infile, "-o", tmp_path / where], "--output", "cannot open")


def test_utf16_on_standard_input():
    refused(["legal", "-"], "-", "UTF-16", stdin="snapshot: 1".encode("utf-16"))


def test_bytes_that_are_not_utf8_on_standard_input():
    refused(["legal", "-"], "-", "not UTF-8", stdin=b"snapshot: 1\nturn_player: \xff\n")


@pytest.mark.parametrize("extra", [["legal"], ["show"], ["check", "normal_summon(x)"]])
def test_a_json_escape_of_a_lone_surrogate_is_refused(tmp_path, extra):
    # json.loads turns "\\ud800" into a str that cannot be written as UTF-8: printing the table failed
    snap = '{"snapshot": 1, "players": {"A": {"hand": [{"id": "x\\ud800", "card": "Battle Ox"}]}, "B": {}}}'
    command, *rest = extra
    refused([command, write(tmp_path, "s.json", snap), *rest], "players.A.hand[0].id", "lone surrogate")


def test_a_lone_surrogate_in_a_key_or_an_action_is_refused(tmp_path):
    snap = '{"snapshot": 1, "players": {"A\\udfff": {}, "B": {}}}'
    refused(["legal", write(tmp_path, "s.json", snap)], "players.A\\udfff", "lone surrogate")
    refused(["check", EXAMPLE, '{"action": "normal_summon", "card": "\\ud800"}'], "action.card", "lone surrogate")
    with pytest.raises(InvalidInput, match="lone surrogate"):
        Engine().legal({"snapshot": 1, "players": {"A": {"hand": [{"id": "\ud800", "card": "Battle Ox"}]}, "B": {}}})
    assert Engine().legal({"snapshot": 1, "players": {"A": {"hand": [{"id": "\u00e9", "card": "Battle Ox"}]},
                                                      "B": {}}}).permitted     # other non-ASCII text is fine


def test_a_folder_or_a_device_as_the_snapshot_says_what_it_is(tmp_path):
    refused(["legal", tmp_path], str(tmp_path), "is a folder, not a snapshot file")
    refused(["legal", "/dev/null"], "/dev/null", "is not a regular file")
    refused(["legal", tmp_path / "none.yaml"], str(tmp_path / "none.yaml"), "no such snapshot file")


# ---- runaway input ------------------------------------------------------------------------
def alias_bomb() -> str:
    keys = ", ".join(f"k{i}: {i}" for i in range(1000))
    lines = ["snapshot: 1", "players:", "  B: {}", "  A:", "    hand:", f"      - &c {{id: x, card: {{{keys}}}}}"]
    return "\n".join(lines + ["      - *c"] * 999) + "\n"


def test_a_yaml_alias_bomb_is_refused_with_one_line(tmp_path):
    text = alias_bomb()
    assert len(text) < 25_000
    res = refused(["legal", write(tmp_path, "bomb.yaml", text)], "players.A.hand", "expands to more than")
    assert len(res.stderr.splitlines()) == 1


def test_a_value_that_contains_itself(tmp_path):
    refused(["legal", write(tmp_path, "loop.yaml", "snapshot: 1\nplayers: &p\n  A: *p\n  B: {}\n")],
            "players.A", "contains itself")


def test_a_snapshot_over_the_byte_limit_is_refused_unread_with_bounded_memory(tmp_path):
    path = write(tmp_path, "huge.json", json.dumps({"snapshot": 1, "players": {"A": {"hand": ["Battle Ox"] * 400_000},
                                                                               "B": {}}}))
    tracemalloc.start()
    try:
        refused(["legal", path], str(path), "more than the limit of 262,144")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20_000_000          # the 5 MB file is never read, let alone parsed


def test_the_byte_limit_is_configurable(tmp_path, monkeypatch):
    path = write(tmp_path, "snap.json", json.dumps(EMPTY))
    monkeypatch.setenv("PYRULES_MAX_INPUT_BYTES", "20")
    refused(["legal", path], str(path), "more than the limit of 20 ", fresh=True)
    with pytest.raises(InvalidInput, match="more than the limit of 20 "):
        Engine().legal(json.dumps(EMPTY))
    assert Engine(limits={"max_input_bytes": 10_000}).legal(json.dumps(EMPTY)).permitted


def test_a_hand_of_50000_cards_under_the_byte_limit_is_refused_before_any_card_is_read(tmp_path, engine):
    snap = {"snapshot": 1, "players": {"A": {"hand": ["O"] * 50_000}, "B": {}}}
    refused(["legal", write(tmp_path, "many.json", json.dumps(snap))], "players.A.hand",
            "has 50,000 entries, more than the limit of 1,000")
    with bounded(), pytest.raises(InvalidInput, match="players.A.hand: has 50,000 entries"):
        engine.legal(snap)            # from Python too: before any per-card work


def ritual_hand(level_ones: int) -> dict:
    """"Black Luster Soldier", its Set Ritual Spell and some Level 1 monsters in the hand: C(N,8) Tribute sets."""
    hand = [{"id": "bls", "card": "Black Luster Soldier"}, *[{"id": f"k{i}", "card": "Kuriboh"} for i in range(level_ones)]]
    return {"snapshot": 1, "turn": 3, "phase": "main1",
            "players": {"A": {"hand": hand, "spells_traps": [{"id": "blr", "card": "Black Luster Ritual", "face": "down"}]},
                        "B": {}}}


def test_card_sets_that_would_run_away_are_refused_naming_their_card(tmp_path, engine):
    # legal lists every Tribute set: 30 Level 1 monsters would make C(30,8) = 5,852,925 of them
    refused(["legal", write(tmp_path, "r.json", json.dumps(ritual_hand(30)))], "players.A.hand[0]", "PYRULES_MAX_SETS")
    # and every cost set: 200 LIGHT and 200 DARK monsters would make C(400,2) pairs to sort out for "Chaos Sorcerer"
    gy = [{"id": f"l{i}", "card": "Mystical Elf"} for i in range(200)] + [
        {"id": f"d{i}", "card": "Dark Magician"} for i in range(200)]
    chaos = {"snapshot": 1, "turn": 3, "phase": "main1",
             "players": {"A": {"hand": [{"id": "cs", "card": "Chaos Sorcerer"}], "graveyard": gy}, "B": {}}}
    with bounded(), pytest.raises(InvalidInput, match=r"players\.A\.hand\[0\]: legal would list more sets"):
        engine.legal(chaos)
    # check judges one set of the same snapshot
    tributes = [f"k{i}" for i in range(8)]
    with bounded():
        assert engine.check(ritual_hand(30), {"action": "ritual_summon", "card": "bls", "tributes": tributes,
                                              "position": "attack"}).permitted


def test_the_set_limit_is_configurable_and_just_allows_its_own_count(monkeypatch, engine):
    # 14 Level 1 monsters: the largest size has C(14,7) = 3,432 candidate sets, under the default 40,000
    def rituals(engine):
        return sum(a.action == "ritual_summon" for a in engine.legal(ritual_hand(14)).permitted)
    assert rituals(engine) == 2 * 3003                                     # C(14,8) sets, in 2 positions
    with pytest.raises(InvalidInput, match="PYRULES_MAX_SETS"):
        rituals(Engine(limits={"max_sets": 3431}))
    assert rituals(Engine(limits={"max_sets": 3432})) == 2 * 3003
    monkeypatch.setenv("PYRULES_MAX_SETS", "3431")
    refused(["legal", "-"], "players.A.hand[0]", "PYRULES_MAX_SETS", stdin=json.dumps(ritual_hand(14)), fresh=True)
    with pytest.raises(InvalidInput, match="PYRULES_MAX_SETS"):                # read as 1,000: 3,432 is past it
        rituals(Engine(limits={"max_sets": 1}))
    with pytest.raises(InvalidInput, match="PYRULES_MAX_SETS"):                # read as 40,000 (32-bit arithmetic):
        Engine(limits={"max_sets": 10**9}).legal(ritual_hand(18))             # C(18,9) = 48,620 is past it


def test_fifteen_candidates_with_few_real_sets_are_listed_under_the_default_limit(engine):
    # 5 Level 1 and 5 Level 4 monsters in the hand, 5 Level 4 on the field: C(15,K) subsets, 60 real Tribute sets
    snap = ritual_hand(5)
    snap["players"]["A"]["hand"] += [{"id": f"e{i}", "card": "Mystical Elf"} for i in range(5)]
    snap["players"]["A"]["monsters"] = [{"id": f"f{i}", "card": "Mystical Elf", "position": "defense"} for i in range(5)]
    assert sum(a.action == "ritual_summon" for a in engine.legal(snap).permitted) > 0


def test_more_candidates_than_the_set_limit_itself_are_refused_too():
    # 1,003 candidate Tributes against a limit of 1,000: single cards already pass it, and so does every larger size
    snap = ritual_hand(998)
    snap["players"]["A"]["monsters"] = [{"id": f"f{i}", "card": "Kuriboh", "position": "attack"} for i in range(5)]
    with bounded(), pytest.raises(InvalidInput, match=r"players\.A\.hand\[0\]: legal would list more sets"):
        Engine(limits={"max_sets": 1000}).legal(snap)


def test_the_problems_printed_are_capped(tmp_path):
    snap = {"snapshot": 1, "players": {"A": {"hand": [f"No Such Card {i}" for i in range(500)]}, "B": {}}}
    res = cli(["legal", write(tmp_path, "s.json", json.dumps(snap))])
    lines = res.stderr.splitlines()
    assert res.exit_code == 2 and len(lines) == 51 and lines[-1] == "invalid input: ... and 450 more problems"


def test_a_batch_line_over_the_byte_limit_is_skipped_unread(tmp_path, monkeypatch):
    monkeypatch.setenv("PYRULES_MAX_INPUT_BYTES", "1000")
    long = json.dumps({"snapshot": 1, "players": {"A": {"hand": ["Battle Ox"] * 5000}, "B": {}}})
    infile = write(tmp_path, "in.jsonl", "\n".join([long, json.dumps(EMPTY)]) + "\n")
    res = cli(["batch", infile], fresh=True)
    out = batch_lines(res)
    assert out[0]["error"][0].startswith(f"line: the input is {len(long) + 1:,} bytes, more than the limit of 1,000")
    assert "permitted" in out[1] and res.exit_code == 2


# ---- silent wrong answers that became invalid input ---------------------------------------
def test_a_key_given_twice_in_yaml(tmp_path):
    text = ("snapshot: 1\nturn: 3\nturn: 1\nplayers:\n  A: {monsters: [{id: ox, card: Battle Ox, position: attack}]}\n"
            "  A: {}\n  B: {}\n")
    res = refused(["legal", write(tmp_path, "dup.yaml", text)], "turn", "given twice (line 3)")
    assert "invalid input: players.A: the key is given twice (line 6)" in res.stderr


def test_a_key_given_twice_in_json(tmp_path, engine):
    text = '{"snapshot": 1, "players": {"A": {"deck": 3}, "A": {}, "B": {}}}'
    refused(["legal", write(tmp_path, "dup.json", text)], "players.A", "given twice")
    infile = write(tmp_path, "in.jsonl", text + "\n")
    assert batch_lines(cli(["batch", infile]))[0]["error"][0].startswith("players.A: the key is given twice")
    with pytest.raises(InvalidInput, match="action.card: the key is given twice"):
        engine.check(EMPTY, '{"action": "flip_summon", "card": "a", "card": "b"}')


def test_a_yaml_merge_key_overridden_is_not_a_key_given_twice(engine):
    text = ("snapshot: 1\nplayers:\n  A:\n    monsters:\n      - &m {id: ox, card: Battle Ox, position: attack}\n"
            "      - {<<: *m, id: ox2}\n  B: {}\n")
    assert engine.legal(text).permitted is not None


def test_a_key_given_twice_in_a_card_pool(tmp_path):
    pool = write(tmp_path, "pool.yaml", "- {name: X, kind: monster, level: 4, level: 8}\n")
    refused(["legal", EXAMPLE, "--cards", pool], "pool.yaml[0].level", "given twice")


@pytest.mark.parametrize("name, text", [
    ("pool.yaml", "- {name: Levelless, kind: monster}\n"),
    ("pool.json", json.dumps({"data": [{"id": 1, "name": "Levelless", "type": "Normal Monster", "level": "four",
                                         "race": "Warrior", "attribute": "EARTH", "atk": 1, "def": 1}]})),
])
def test_a_pool_monster_without_a_level_is_refused(tmp_path, name, text):
    refused(["legal", EXAMPLE, "--cards", write(tmp_path, name, text)], "pool", "level: is required for a monster card")


# ---- the Python API ------------------------------------------------------------------------
def test_an_invalid_input_keeps_its_problems_through_a_worker_process():
    e = InvalidInput([__import__("pyrules").errors.Problem("players", "exactly two players are needed")])
    back = pickle.loads(pickle.dumps(e))
    assert back.problems == e.problems and str(back) == "players: exactly two players are needed"


def test_legal_many_with_two_workers_reports_whole_problems(engine):
    out = engine.legal_many([EMPTY, {"snapshot": 1, "players": {"A": {}}}], workers=2)
    assert out[1].problems[0].path == "players" and "exactly two players" in str(out[1])


def test_legal_many_reads_yaml_text_as_legal_does(engine):
    text = EXAMPLE.read_text()
    out = engine.legal_many([text, EXAMPLE])
    want = engine.legal(text).to_json()
    assert [r.to_json() for r in out] == [want, want]


def test_readings_given_as_text_instead_of_a_mapping(engine):
    with pytest.raises(InvalidInput, match=r"^readings: expected a mapping of reading names to values"):
        engine.legal(EMPTY, "first_turn_draw=true")
    with pytest.raises(InvalidInput, match=r"^readings: expected a mapping"):
        engine.check(EMPTY, "draw", ["first_turn_draw"])


# ---- more files that are not text ------------------------------------------------------------
def test_a_binary_rules_file_for_verify(tmp_path):
    path = write(tmp_path, "bin.lp", bytes(range(200, 256)) * 4)
    refused(["verify", "--rules-file", path], str(path), "not UTF-8 text")


# ---- a batch stopped by a signal -----------------------------------------------------------
def test_a_batch_stopped_by_sigterm_ends_its_workers_quietly(tmp_path):
    import subprocess
    import sys
    line = json.dumps({"snapshot": 1, "players": {"A": {"monsters": [{"id": "ox", "card": "Battle Ox",
                                                                        "position": "attack"}]}, "B": {}}})
    infile = write(tmp_path, "in.jsonl", (line + "\n") * 20_000)
    out, err = tmp_path / "out.jsonl", tmp_path / "err.txt"
    with open(err, "wb") as stderr:
        proc = subprocess.Popen([sys.executable, "-m", "pyrules", "batch", str(infile), "--workers", "2", "-o", str(out)],
                                stderr=stderr, stdout=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and (not out.exists() or out.stat().st_size < 50_000):
                time.sleep(0.05)
            proc.send_signal(signal.SIGTERM)
            rc = proc.wait(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
    time.sleep(1.0)                       # a worker left behind would write its traceback now
    text = err.read_text()
    assert rc == 128 + signal.SIGTERM and "Traceback" not in text and "BrokenPipe" not in text, text
    assert text.startswith("pyrules batch: stopped by SIGTERM after ")


# ---- the physical limits: an attack in progress belongs to the Battle Phase ----------------
@pytest.mark.parametrize("phase", ["main1", "main2", "end"])
def test_an_attack_in_progress_outside_the_battle_phase(tmp_path, phase):
    snap = {"snapshot": 1, "phase": phase,
            "players": {"A": {"monsters": [{"id": "ox", "card": "Battle Ox", "position": "attack"}]}, "B": {}},
            "this_turn": [{"event": "attack", "card": "ox", "target": "direct"}],
            "attack": {"attacker": "ox", "target": "direct", "targets_at_declaration": []}}
    refused(["check", write(tmp_path, "s.json", json.dumps(snap)), "enter_battle_phase"], "attack",
            "only in the battle phase")


# ---- verify: the scope and the time limit ----------------------------------------------------
def test_verify_scope_keys_go_over_the_propertys_own_scope():
    res = cli(["verify", "revival_needs_proper_summon", "--scope", "monsters=1", "--json"])
    scope = json.loads(res.stdout)["properties"][0]["scope"]
    assert res.exit_code == 0 and scope["monsters"] == 1 and scope["banished"] == 1   # its own banished=1 kept


def test_verify_timeout_is_for_the_whole_run():
    # once the run's time is spent, every property after is reported unknown without a search (how
    # many come first depends on what this process has grounded before: its searches are cached)
    res = cli(["verify", "--timeout", "0.05", "--json"])
    props = json.loads(res.stdout)["properties"]
    first_skipped = next(k for k, p in enumerate(props) if p["seconds"] == 0)
    assert len(props) >= 10 and first_skipped <= len(props) // 2, [(p["property"], p["seconds"]) for p in props]
    assert all(p["seconds"] == 0 and p["holds"] is None and "time limit" in p["summary"]
               for p in props[first_skipped:])
    assert res.exit_code == 1


# ---- which rules: the checkout's, inside a checkout --------------------------------------------
def test_inside_a_checkout_its_rules_and_cases_are_used(tmp_path, monkeypatch):
    import shutil
    shutil.copytree(ROOT / "rules", tmp_path / "rules")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "tests" / "cases").mkdir(parents=True)
    shutil.copy(ROOT / "tests" / "cases" / "turn_phases.yaml", tmp_path / "tests" / "cases")
    reasons = tmp_path / "rules" / "catalogue" / "reasons.lp"
    text = reasons.read_text()
    start = text.index('reason(not_main_phase, "') + len('reason(not_main_phase, "')
    reasons.write_text(text[:start] + "Edited in the checkout. " + text[start:])
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    res = cli(["reasons", "--json"], fresh=True)
    edited = {r["rule"]: r["text"] for r in json.loads(res.stdout)}["not_main_phase"]
    assert edited.startswith("Edited in the checkout. ")
    assert f"using the rules of the checkout {tmp_path / 'rules'}" in res.stderr
    res = cli(["test"], fresh=True)
    assert res.exit_code == 0 and res.stdout.splitlines()[0] == f"rules: {tmp_path / 'rules'}"
    assert res.stdout.strip().endswith("passed, 0 failed") and not res.stdout.strip().startswith("0 passed")
    monkeypatch.chdir(tmp_path.parent)          # outside any checkout: the installed rules
    res = cli(["reasons", "--json"], fresh=True)
    assert not {r["rule"]: r["text"] for r in json.loads(res.stdout)}["not_main_phase"].startswith("Edited")


# ---- pyrules schema is a JSON Schema ------------------------------------------------------------
def test_schema_prints_a_json_schema_that_validates_a_snapshot():
    schema = json.loads(cli(["schema"]).stdout)
    assert schema["$schema"].startswith("http://json-schema.org/draft-07/") and schema["type"] == "object"
    assert "card" in schema["definitions"] and "players" in schema["properties"]
    both = json.loads(cli(["schema", "--all"]).stdout)
    assert both == {"snapshot": schema, "card": json.loads(cli(["schema", "--card"]).stdout)}
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft7Validator.check_schema(schema)
    jsonschema.validate(yaml.safe_load(EXAMPLE.read_text()), schema)


# ---- one right error for a string where a list belongs; nearest card names -------------------
@pytest.mark.parametrize("key, value, field", [
    ("hand", "Battle Ox", "players.A.hand"), ("chain", "ox", "chain"), ("this_turn", "ox", "this_turn")])
def test_a_string_where_a_list_belongs_gives_one_problem(tmp_path, key, value, field):
    snap = {"snapshot": 1, "players": {"A": {}, "B": {}}}
    if key == "hand":
        snap["players"]["A"]["hand"] = value
    else:
        snap[key] = value
    res = refused(["legal", write(tmp_path, "s.json", json.dumps(snap))], field, "expected a list, got a string")
    assert len(res.stderr.splitlines()) == 1, res.stderr


def test_an_unknown_card_name_suggests_the_nearest(tmp_path):
    snap = {"snapshot": 1, "players": {"A": {"hand": ["battle ox", "Sumoned Skull", "Qwertyuiop"]}, "B": {}}}
    res = refused(["legal", write(tmp_path, "s.json", json.dumps(snap))], "players.A.hand[0].card",
                  "unknown card name 'battle ox' (did you mean 'Battle Ox'")      # the nearest first
    assert "unknown card name 'Sumoned Skull' (did you mean 'Summoned Skull'" in res.stderr
    assert "unknown card name 'Qwertyuiop'\n" in res.stderr


# ---- terminal width ------------------------------------------------------------------------------
def test_reasons_and_show_fit_the_terminal_width():
    with bounded():
        runner = CliRunner(env={"COLUMNS": "100"})
        reasons = runner.invoke(main, ["reasons"], obj=_OBJ)
        show = CliRunner(env={"COLUMNS": "60"}).invoke(main, ["show", str(EXAMPLE)], obj=_OBJ)
    assert reasons.exit_code == 0 and max(map(len, reasons.stdout.splitlines())) <= 100
    assert "not_main_phase" in reasons.stdout
    assert show.exit_code == 0 and max(map(len, show.stdout.splitlines())) <= 60
    assert "Magician of Faith" in show.stdout and "flip_summon(bug)" in show.stdout


# ---- exit statuses the click way ---------------------------------------------------------------
def test_named_exit_statuses_and_the_invalid_input_exception():
    import click

    from pyrules import cli as cli_module
    assert (cli_module.PERMITTED, cli_module.FORBIDDEN, cli_module.FAILED, cli_module.INVALID) == (0, 1, 1, 2)
    error = cli_module.InvalidInputError(InvalidInput(__import__("pyrules").errors.Problem("turn", "bad")))
    assert isinstance(error, click.ClickException) and error.exit_code == 2 and error.problems[0].path == "turn"


def test_batch_counts_errors_from_its_results_and_closes_its_input(tmp_path, engine):
    import gc
    import warnings

    from pyrules.batch import run
    lines = [json.dumps(EMPTY), "not json", json.dumps({"snapshot": 1, "players": {"A": {}}})]
    out = list(run(lines, engine=engine, engine_config=engine.config, as_json=True))
    assert [x.error for x in out] == [False, True, True]
    assert [x.error for x in pickle.loads(pickle.dumps(out))] == [False, True, True]
    infile = write(tmp_path, "in.jsonl", "\n".join(lines) + "\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        res = cli(["batch", infile, "--json"])
        gc.collect()
    assert json.loads(res.stderr) == {"lines": 3, "judged": 1, "errors": 2}
    assert not [w for w in caught if issubclass(w.category, ResourceWarning) and "in.jsonl" in str(w.message)]


def test_a_binary_file_in_a_rules_folder(tmp_path):
    import shutil
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    (rules / "zz_binary.lp").write_bytes(bytes(range(128, 256)))
    refused(["legal", EXAMPLE, "--rules", rules], str(rules / "zz_binary.lp"), "not UTF-8 text", fresh=True)
    res = cli(["lint", "--rules", rules])
    assert res.exit_code == 1 and "zz_binary.lp:0: [parse] not UTF-8 text: byte 0x80 at offset 0" in res.stdout


def test_a_problem_line_does_not_echo_a_huge_value_whole():
    res = refused(["check", EXAMPLE, "flip_summon(" + "x" * 100_000 + ")"], "action.card", "no card with id")
    assert max(map(len, res.stderr.splitlines())) < 450 and "characters)" in res.stderr


def test_a_card_pool_whose_bad_card_is_aliased_a_thousand_times(tmp_path):
    keys = ", ".join(f"k{i}: {i}" for i in range(1000))
    pool = write(tmp_path, "pool.yaml", f"- &c {{name: X, kind: monster, level: 4, {keys}}}\n" + "- *c\n" * 999)
    res = refused(["legal", EXAMPLE, "--cards", pool], "pool.yaml[0].k0", "unknown key")
    last = res.stderr.splitlines()[-1]
    more = int(last.removeprefix("invalid input: ... and ").removesuffix(" more problems").replace(",", ""))
    assert more < 1_000              # the check stopped after 1,000 problems (not a million: one per key and alias)


def test_cards_import_into_a_missing_folder(tmp_path):
    refused(["cards", "import", ROOT / "facts" / "cards.yaml", "-o", tmp_path / "missing" / "x.yaml"], "--output",
            "cannot open")


@pytest.mark.parametrize("scope, words", [("events=100000", "events is at most 30 (far above"),
                                          ("attack=2", "attack is at most 1"), ("hand=11", "hand is at most 10")])
def test_a_search_scope_far_past_the_game_is_refused_before_grounding(scope, words):
    refused(["diff", "first_turn_draw", "--scope", scope], "--scope", words)
    refused(["verify", "draw_rules", "--scope", scope], "--scope", words)


@pytest.mark.parametrize("value", ["abc", "0", "-5"])
def test_a_limit_variable_that_is_not_a_positive_number(monkeypatch, value):
    monkeypatch.setenv("PYRULES_MAX_LIST_ITEMS", value)
    refused(["legal", EXAMPLE], "PYRULES_MAX_LIST_ITEMS", "expected a positive whole number", fresh=True)


def test_only_the_first_unknown_names_get_suggestions(tmp_path):
    snap = {"snapshot": 1, "players": {"A": {"hand": ["battle ox"] * 200}, "B": {}}}
    res = cli(["legal", write(tmp_path, "s.json", json.dumps(snap))], fresh=False)
    assert res.exit_code == 2 and res.stderr.count("did you mean 'Battle Ox'") == 10


# ---- found by a fuzzing review (session of 2026-12-02) ----------------------------------------
@pytest.mark.parametrize("tail", ["[" * 25_000, "{a: " * 40_000, "\n" + "- " * 60_000 + "x"],
                         ids=["brackets", "braces", "dashes"])
def test_yaml_nested_thousands_deep_is_refused_before_it_is_built(tmp_path, tail):
    # libyaml's composer recurses in C: 25,000 brackets used to end the process (SIGSEGV), a size the byte
    # limit lets through; the depth is now counted over the parser's events first
    path = write(tmp_path, "deep.yaml", "snapshot: 1\nplayers: " + tail + "\n")
    res = refused(["legal", path], str(path))
    # (PyYAML 6.0.4's own scanner stops at 1,000 levels: its message then)
    assert "nested more than 100 levels deep" in res.stderr or "maximum nesting depth" in res.stderr, res.stderr


def test_yaml_merge_keys_that_multiply_are_refused(tmp_path):
    lines = ["snapshot: 1", "x0: &a0 {" + ", ".join(f"k{i}: {i}" for i in range(10)) + "}"]
    lines += [f"x{i}: &a{i} {{<<: [{', '.join([f'*a{i - 1}'] * 10)}]}}" for i in range(1, 8)]
    text = "\n".join(lines + ["players: {A: {}, B: {}}"]) + "\n"
    assert len(text) < 600                     # 600 bytes that once took minutes and gigabytes
    path = write(tmp_path, "merge.yaml", text)
    res = refused(["legal", path], "")       # bounded (refused() fails past 20 s)
    # (PyYAML 6.0.4 merges without copying: the file is then read, and its stray keys are refused)
    assert "merge keys (<<) gather more than" in res.stderr or "x0: unknown key" in res.stderr, res.stderr


def test_yaml_merge_keys_chained_are_refused_in_all(tmp_path):
    # each link merges the one before: no mapping is large, but together they copy about N*N/2 entries
    links = [f"  a{i}: &a{i} {{<<: *a{i - 1}, k{i}: 1}}" for i in range(1, 2000)]
    text = "\n".join(["snapshot: 1", "x:", "  a0: &a0 {k0: 1}"] + links + ["players: {A: {}, B: {}}"]) + "\n"
    path = write(tmp_path, "chain.yaml", text)
    refused(["legal", path], str(path), "merge keys (<<) gather more than 100,000 entries")


@pytest.mark.parametrize("number", ["1" * 4301, "0x" + "f" * 3600, "0b" + "1" * 15_000], ids=["decimal", "hex", "binary"])
def test_a_number_too_long_to_read(tmp_path, number):
    path = write(tmp_path, "big.yaml", f"snapshot: 1\nplayers: {{A: {{}}, B: {{}}}}\nturn: {number}\n")
    refused(["legal", path], str(path), "characters is more than the 100 allowed")
    path = write(tmp_path, "big.json", f'{{"snapshot": 1, "players": {{"A": {{}}, "B": {{}}}}, "turn": {"1" * 4301}}}')
    refused(["legal", path], str(path), "4,301 characters")


def test_a_huge_number_from_python_is_named_by_its_size(engine):
    with pytest.raises(InvalidInput) as e:
        engine.legal({"snapshot": 1, "players": {"A": {"life": 10 ** 5000}, "B": {}}})
    assert "players.A.life: must be at most" in str(e.value) and "a number of about 5,001 digits" in str(e.value)
    with pytest.raises(InvalidInput) as e:                    # inside a list, where its repr fails too
        engine.legal({"snapshot": 1, "turn": [10 ** 5000], "players": {"A": {}, "B": {}}})
    assert "turn: expected" in str(e.value)


def test_a_card_text_longer_than_any_cards_is_not_read_and_flagged(tmp_path):
    card = {"name": "Long Text", "type": "Effect Monster", "race": "Warrior", "attribute": "DARK", "level": 4,
            "atk": 1, "def": 1, "desc": "this card cannot attack " * 4000}     # 96,000 characters
    pool = write(tmp_path, "ygo.json", json.dumps({"data": [card]}))
    res = cli(["cards", "audit", pool])          # (its topic expressions once took half a minute on it)
    assert res.exit_code == 0 and "Long Text" in res.output and "NOT MODELLED" in res.output


def test_verify_timeout_holds_while_clingo_grounds(monkeypatch):
    # a scope within the ceilings whose grounding alone once took 35 s and 1.7 GB past --timeout 5
    import pyrules.supervise as supervise
    monkeypatch.setattr(supervise, "GRACE", 0.5)
    started = time.monotonic()
    res = cli(["verify", "verdict_exclusive", "--timeout", "1", "--scope", "monsters=5,hand=10,graveyard=10"])
    assert res.exit_code == 1 and "unknown: the search was still at work" in res.stderr
    assert time.monotonic() - started < 15
    res = cli(["verify", "verdict_exclusive", "--timeout", "1", "--scope", "monsters=5,hand=10,graveyard=10", "--json"])
    assert res.exit_code == 1 and "still at work" in json.loads(res.stdout)["unknown"]


def test_a_search_in_its_child_process_ends_with_the_command(tmp_path):
    # killing `pyrules verify --timeout ...` must not leave its search grounding on (an orphan)
    import subprocess
    import sys
    proc = subprocess.Popen([sys.executable, "-m", "pyrules", "verify", "verdict_exclusive", "--timeout", "60",
                             "--scope", "monsters=5,hand=10,graveyard=10"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    children: list[int] = []
    with bounded(30):
        while not children:
            time.sleep(0.2)
            children = [int(c) for c in Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()]
        proc.terminate()
        proc.wait()
        child = Path(f"/proc/{children[0]}/stat")
        while child.exists() and child.read_text().split(") ")[-1][0] != "Z":   # gone, or dead and not yet reaped
            time.sleep(0.1)


def test_verify_with_a_timeout_answers_as_without(tmp_path):
    plain = cli(["verify", "draw_rules", "--json"])
    timed = cli(["verify", "draw_rules", "--json", "--timeout", "60"])
    assert timed.exit_code == plain.exit_code == 0
    strip = lambda r: [{k: v for k, v in p.items() if k not in ("seconds", "summary")}  # noqa: E731 (times differ)
                       for p in json.loads(r.output)["properties"]]
    assert strip(timed) == strip(plain)
    refused(["verify", "no_such_property", "--timeout", "60"], "NAME", "unknown property")


def test_the_forked_search_reports_a_plain_exit_as_success():
    # sys.exit() with no code is status 0, in the child as in a process
    import os
    import sys as _sys
    from pyrules.supervise import child_run as _child_run
    read_end, write_end = os.pipe()
    assert _child_run(write_end, lambda: _sys.exit()) == 0
    with os.fdopen(read_end, "rb") as f:
        assert json.loads(f.read())["code"] == 0


def test_the_forked_search_draws_its_progress_on_the_terminal_as_it_goes(monkeypatch):
    # with --timeout the search's output is kept until it ends; its progress lines are not: they go
    # to the stderr it had (a terminal), where a long search shows that it is at work
    import io
    import os
    import sys as _sys
    from pyrules.supervise import child_run as _child_run, progress_stream as _progress_stream
    from pyrules.search import Progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr(_sys, "stderr", terminal)

    def work():
        Progress(_progress_stream())("verify draw_rules: searching, 2.0s")
        print("kept", file=_sys.stderr)

    read_end, write_end = os.pipe()
    assert _child_run(write_end, work) == 0
    with os.fdopen(read_end, "rb") as f:
        reply = json.loads(f.read())
    assert "searching, 2.0s" in terminal.getvalue() and "searching" not in reply["err"]
    assert reply["err"] == "kept\n" and "kept" not in terminal.getvalue()
    assert _progress_stream() is terminal                 # outside a forked search: stderr itself
