"""The command line (CONTRACT 3): legal, check, schema, readings, reasons, --version, --help."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from boards import main_phase_board
from pyrules import __version__
from pyrules.cli import main
from pyrules.paths import rules_dir

SNAP = main_phase_board({"event": "normal_summon", "card": "ox"})
_OBJ: dict = {}


def run(args, stdin=None):
    try:
        runner = CliRunner(mix_stderr=False)
    except TypeError:
        runner = CliRunner()
    res = runner.invoke(main, [str(a) for a in args], input=stdin, obj=_OBJ)
    assert "Traceback" not in res.stdout + res.stderr
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        raise res.exception
    return res


@pytest.fixture
def snap(tmp_path) -> Path:
    p = tmp_path / "snap.yaml"
    p.write_text(yaml.safe_dump(SNAP), encoding="utf-8")
    return p


# ---- legal ------------------------------------------------------------------------
def test_legal_table(snap):
    res = run(["legal", snap])
    assert res.exit_code == 0
    out = res.stdout
    assert "permitted action" in out
    assert "normal_summon" not in out                 # the Normal Summon is used
    assert "flip_summon(bug)" in out and "enter_battle_phase" in out
    assert "change_position(ox" not in out            # Summoned this turn
    assert re.search(r"^\d+ permitted\.$", out, re.M)


def test_legal_json_shape(snap):
    res = run(["legal", snap, "--json"])
    assert res.exit_code == 0
    out = json.loads(res.stdout)
    assert set(out) == {"permitted", "replay"}
    assert out["replay"] is False
    assert {"action": "flip_summon", "card": "bug"} in out["permitted"]
    assert {"action": "enter_battle_phase"} in out["permitted"]
    assert all(set(a) >= {"action"} for a in out["permitted"])
    # one entry per distinct action, in a stable order
    dumped = [json.dumps(a, sort_keys=True) for a in out["permitted"]]
    assert len(set(dumped)) == len(dumped)
    assert json.loads(run(["legal", snap, "--json"]).stdout) == out


def test_legal_json_fills_defaults_and_sorts_ids(tmp_path):
    s = json.loads(json.dumps(SNAP))
    s["this_turn"] = []
    s["players"]["A"]["hand"] = [{"id": "dm", "card": "Dark Magician"}, {"id": "gs", "card": "Giant Soldier of Stone"}]
    p = tmp_path / "s.yaml"
    p.write_text(yaml.safe_dump(s), encoding="utf-8")
    out = json.loads(run(["legal", p, "--json"]).stdout)["permitted"]
    assert {"action": "normal_summon", "card": "dm", "tributes": ["bug", "ox"]} in out
    assert {"action": "normal_summon", "card": "gs", "tributes": []} in out


def test_legal_all_lists_forbidden_candidates(snap):
    res = run(["legal", snap, "--all"])
    assert res.exit_code == 0
    assert "forbidden action" in res.stdout and "summoned_this_turn" in res.stdout
    assert "normal_summon_used" in res.stdout
    assert re.search(r"\d+ permitted, \d+ forbidden\.", res.stdout)


def test_legal_all_json(snap):
    out = json.loads(run(["legal", snap, "--all", "--json"]).stdout)
    assert set(out) >= {"permitted", "replay", "forbidden"}
    f = {json.dumps(v["action"], sort_keys=True): v for v in out["forbidden"]}
    v = f[json.dumps({"action": "change_position", "card": "ox", "to": "defense"}, sort_keys=True)]
    assert v["permitted"] is False and "summoned_this_turn" in [r["rule"] for r in v["reasons"]]


def test_legal_with_reading(tmp_path):
    p = tmp_path / "s.yaml"
    p.write_text(yaml.safe_dump({"snapshot": 1, "turn": 1, "phase": "draw", "players": {"A": {}, "B": {}}}))
    # turn 1 has no draw by default: the Draw Phase is left at once (the draw, when owed, comes first)
    assert json.loads(run(["legal", p, "--json"]).stdout)["permitted"] == [{"action": "enter_phase", "phase": "standby"}]
    out = run(["legal", p, "--json", "--reading", "first_turn_draw=true"]).stdout
    assert json.loads(out)["permitted"] == [{"action": "draw"}]
    res = run(["legal", p, "--reading", "first_turn_draw"])
    assert res.exit_code == 2 and "--reading" in res.stderr


def test_a_reading_given_twice_with_two_values_is_invalid(tmp_path):
    p = tmp_path / "s.yaml"
    p.write_text(yaml.safe_dump({"snapshot": 1, "turn": 1, "phase": "draw", "players": {"A": {}, "B": {}}}))
    for command in (["legal", p], ["check", p, "draw"]):
        res = run([*command, "--reading", "first_turn_draw=true", "--reading", "first_turn_draw=false"])
        assert res.exit_code == 2 and "--reading: first_turn_draw is given twice" in res.stderr, res.stderr
    out = run(["legal", p, "--json", "--reading", "first_turn_draw=true", "--reading", "first_turn_draw = true"])
    assert out.exit_code == 0 and json.loads(out.stdout)["permitted"] == [{"action": "draw"}]


def test_legal_nothing_permitted(tmp_path):
    p = tmp_path / "s.yaml"
    p.write_text("snapshot: 1\nturn: 1\nphase: end\nwinner: B\nplayers: {A: {}, B: {}}\n")   # the duel is over
    res = run(["legal", p])
    assert res.exit_code == 0 and "No action is permitted" in res.stdout


def test_legal_bundled_example():
    example = Path(__file__).resolve().parents[1] / "facts" / "examples" / "main_phase.yaml"
    res = run(["legal", example])
    assert res.exit_code == 0 and "permitted" in res.stdout


# ---- check --------------------------------------------------------------------------
def test_check_permitted_exit_0(snap):
    res = run(["check", snap, "flip_summon(bug)"])
    assert res.exit_code == 0
    assert "flip_summon(bug): PERMITTED" in res.stdout


def test_check_forbidden_exit_1_with_reasons_and_sources(snap):
    res = run(["check", snap, "change_position(ox,defense)"])
    assert res.exit_code == 1
    assert "FORBIDDEN" in res.stdout
    assert "summoned_this_turn" in res.stdout and "battle-position-changes: Exception #2" in res.stdout
    assert "event 1: normal_summon of ox" in res.stdout


def test_check_invalid_exit_2(snap):
    res = run(["check", snap, "flip_summon(nobody)"])
    assert res.exit_code == 2 and "action.card" in res.stderr and res.stdout == ""


def test_check_json_permitted(snap):
    res = run(["check", snap, "flip_summon(bug)", "--json"])
    assert res.exit_code == 0
    assert json.loads(res.stdout) == {"action": {"action": "flip_summon", "card": "bug"}, "permitted": True,
                                      "reasons": []}


def test_check_json_forbidden(snap):
    res = run(["check", snap, '{"action":"normal_summon","card":"skull","tributes":["bug"]}', "--json"])
    assert res.exit_code == 1
    out = json.loads(res.stdout)
    assert out["action"] == {"action": "normal_summon", "card": "skull", "tributes": ["bug"]}
    assert out["permitted"] is False
    assert [r["rule"] for r in out["reasons"]] == ["normal_summon_used"]
    assert all(set(r) >= {"rule", "text", "source"} for r in out["reasons"])


def test_check_with_reading(tmp_path):
    p = tmp_path / "s.yaml"
    p.write_text(yaml.safe_dump({"snapshot": 1, "turn": 1, "phase": "draw", "players": {"A": {}, "B": {}},
                                 "readings": {"first_turn_draw": True}}))
    assert run(["check", p, "draw"]).exit_code == 0
    assert run(["check", p, "draw", "--reading", "first_turn_draw=false"]).exit_code == 1
    res = run(["check", p, "draw", "--reading", "nonsense=1"])
    assert res.exit_code == 2 and "nonsense" in res.stderr


def test_check_from_stdin():
    res = run(["check", "-", "flip_summon(bug)", "--json"], stdin=yaml.safe_dump(SNAP))
    assert res.exit_code == 0 and json.loads(res.stdout)["permitted"] is True


# ---- schema, readings, reasons, version, help ---------------------------------------
def test_schema_prints_json_schema():
    res = run(["schema", "--all"])
    assert res.exit_code == 0
    out = json.loads(res.stdout)
    assert set(out) == {"snapshot", "card"}
    assert out["snapshot"]["required"] == ["snapshot"]
    assert "players" in out["snapshot"]["properties"] and "this_turn" in out["snapshot"]["properties"]
    assert {"name", "kind"} <= set(out["card"]["required"])
    for flag in ("normal", "effect", "fusion", "ritual", "synchro", "tuner", "token", "flip", "toon", "spirit",
                 "special_summon_only"):
        assert out["card"]["properties"][flag] == {"type": "boolean"}
    card = json.loads(run(["schema", "--card"]).stdout)
    assert card == out["card"]


def test_readings_command():
    res = run(["readings"])
    assert res.exit_code == 0
    assert "first_turn_draw" in res.stdout and "(default: false)" in res.stdout
    assert "position_change_limit" in res.stdout and "(default: manual_only)" in res.stdout
    assert "faq-basic-gameplay" in res.stdout and "battle-position-changes" in res.stdout
    out = json.loads(run(["readings", "--json"]).stdout)
    assert out["first_turn_draw"]["default"] == "false"
    assert set(out["position_change_limit"]["values"]) == {"manual_only", "any_change"}


def _reason_ids_in_rules() -> set[str]:
    ids = set()
    for p in rules_dir().rglob("*.lp"):
        ids |= set(re.findall(r"forbidden\([^:]*?,\s*([a-z][a-z0-9_]*)\s*,\s*(?:none|event\(|card\(|need\()",
                              p.read_text(encoding="utf-8")))
    return ids


def test_reasons_command_lists_every_reason():
    res = run(["reasons"])
    assert res.exit_code == 0 and "reason id" in res.stdout
    out = json.loads(run(["reasons", "--json"]).stdout)
    listed = {r["rule"] for r in out}
    assert all(r["text"] and r["source"] for r in out)
    for rid in ("summoned_this_turn", "needs_tributes", "no_draw_on_first_turn", "first_turn_no_battle_phase",
                "token_cannot_be_face_down", "special_summon_only", "no_free_monster_zone"):
        assert rid in listed and rid in res.stdout
    missing = _reason_ids_in_rules() - listed
    assert not missing, f"reason ids used in rules/ without a catalogue entry: {sorted(missing)}"


def test_version():
    res = run(["--version"])
    assert res.exit_code == 0 and __version__ in res.stdout and "pyrules" in res.stdout


@pytest.mark.parametrize("command", [[], ["legal"], ["check"], ["schema"], ["readings"], ["reasons"]])
def test_help_has_an_example(command):
    res = run([*command, "--help"])
    assert res.exit_code == 0
    assert "Example" in res.stdout


def _commands(group, prefix=()):
    """Every command and command group below `group` (`cards` and `cards import` alike)."""
    import click
    for name, cmd in group.commands.items():
        yield prefix + (name,)
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, prefix + (name,))


def test_every_command_has_help_with_an_example():
    for path in _commands(main):
        res = run([*path, "--help"])
        assert res.exit_code == 0 and "Example" in res.stdout, " ".join(path)


def test_installed_command_runs_as_a_process(snap):
    """The console script (or python -m pyrules) works outside click's test runner."""
    proc = subprocess.run([sys.executable, "-m", "pyrules", "check", str(snap), "flip_summon(bug)", "--json"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["permitted"] is True
    proc = subprocess.run([sys.executable, "-m", "pyrules", "legal", "-"], input="snapshot: [",
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "YAML" in proc.stderr


def test_the_console_command_freezes_what_lives_for_the_run_and_keeps_its_exit_status():
    """run() (the `pyrules` script, `python -m pyrules`: pyrules/console.py) is main() with the
    cyclic collector paused until the Engine is made, then gc.freeze and the collector
    resumed; a query command then ends the process at once (os._exit) with its exit status,
    its output flushed.  (os._exit is watched here: it reports what it sees, then exits.)"""
    example = Path(__file__).resolve().parents[1] / "facts" / "examples" / "main_phase.yaml"
    code = ("import gc, os, sys\n"
            "from pyrules.console import run\n"
            "from pyrules import cli\n"
            "seen = []\n"
            "made = cli._started\n"
            "cli._started = lambda: (seen.append(gc.isenabled()), made(), seen.append(gc.isenabled()))\n"
            "end = os._exit\n"
            "os._exit = lambda code: (print('exit', code, 'frozen', gc.get_freeze_count() > 1000, 'collector', seen,"
            " flush=True), end(code))\n"
            f"sys.argv = ['pyrules', 'check', {str(example)!r}, 'draw']\n"
            "run()\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 1
    assert out.stdout.strip().splitlines()[-1] == "exit 1 frozen True collector [False, True]"
    assert "draw: FORBIDDEN" in out.stdout


@pytest.mark.parametrize("args, status, shown", [
    (["check", "{example}", "draw"], 1, "draw: FORBIDDEN"),
    (["check", "{example}", "change_position(ox,defense)", "--json"], 0, '"permitted": true'),
    (["legal", "{example}"], 0, "permitted"),
    (["explain", "{example}", "draw"], 1, "draw"),
    (["show", "{example}", "--no-actions"], 0, "Battle Ox"),
])
def test_a_query_command_ends_with_its_output_and_status(args, status, shown):
    """The query commands end the process at once once their output is flushed (cli._done):
    the whole output arrives through a pipe, with the command's exit status."""
    example = Path(__file__).resolve().parents[1] / "facts" / "examples" / "main_phase.yaml"
    argv = [a.format(example=example) for a in args]
    out = subprocess.run([sys.executable, "-m", "pyrules", *argv], capture_output=True, text=True, timeout=120)
    assert out.returncode == status, out.stderr
    assert shown in out.stdout and out.stdout.endswith("\n")


def test_a_query_command_with_its_output_closed_ends_quietly():
    """Standard output closed before the start (sys.stdout is None): the query commands still
    end with their exit status and no traceback (cli._done flushes only the streams there are)."""
    example = Path(__file__).resolve().parents[1] / "facts" / "examples" / "main_phase.yaml"
    for action, status in (("change_position(ox,defense)", 0), ("draw", 1)):
        out = subprocess.run(["sh", "-c", f'"{sys.executable}" -m pyrules check "{example}" "{action}" >&-'],
                             capture_output=True, text=True, timeout=120)
        assert (out.returncode, out.stderr) == (status, "")


def test_a_command_that_parsed_the_rules_exits_quietly(tmp_path):
    """With an empty cache the rules are parsed at once; `pyrules test` then holds parsed
    statements until the end, and the process still exits without "Exception ignored in
    AST.__del__" (pyrules/solver.py drops them at exit, before the modules are torn down)."""
    cases = Path(__file__).resolve().parent / "cases" / "control_exchange.yaml"
    env = {**os.environ, "PYRULES_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-m", "pyrules", "test", str(cases)], capture_output=True, text=True,
                         env=env, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "passed" in out.stdout
    assert out.stderr.count("Exception ignored") == 0, out.stderr[:400]      # (a short message on failure)


# ---- pyrules actions -------------------------------------------------------------------------
def test_actions_lists_every_action_from_the_one_table():
    from pyrules.actions import ABOUT, OPTIONAL, ORDER, SIGNATURES, parse_action
    assert list(ABOUT) == ORDER, "pyrules/actions.py: ABOUT describes each action of SIGNATURES once, in order"
    res = run(["actions", "--json"])
    assert res.exit_code == 0, res.output
    items = json.loads(res.stdout)
    assert [a["action"] for a in items] == ORDER
    for a in items:
        assert [arg["key"] for arg in a["arguments"]] == [k for k, _ in SIGNATURES[a["action"]]]
        assert parse_action(a["example"]).to_json() == a["example_json"] == parse_action(a["example_json"]).to_json()
        assert a["term"].startswith(a["action"]) and a["json"].startswith('{"action": "' + a["action"])
        for arg in a["arguments"]:
            assert arg["required"] is ((a["action"], arg["key"]) not in OPTIONAL)
    normal = items[ORDER.index("normal_summon")]
    assert normal["term"] == "normal_summon(CARD[,[TRIBUTES...]])"
    assert normal["arguments"][1]["default"] == [] and normal["arguments"][1]["left_out"] == "[]"
    activate = items[ORDER.index("activate")]
    assert activate["term"] == "activate(CARD[,EFFECT[,PLAYER]])"
    assert [arg["left_out"] for arg in activate["arguments"][1:]] == ["1", "the player with priority"]


def test_actions_prints_each_action_with_its_forms_and_an_example():
    from pyrules.actions import ORDER
    res = run(["actions"])
    assert res.exit_code == 0, res.output
    for name in ORDER:
        assert re.search(rf"^{name}\b", res.stdout, re.M), name
    assert re.search(r"example: +normal_summon\(skull,\[ox\]\)", res.stdout)
    assert re.search(r"tributes: +a list of card ids, in any order; optional, default \[\]", res.stdout)
    assert '{"action": "draw"}' in res.stdout
