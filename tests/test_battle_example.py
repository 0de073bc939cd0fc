"""The bundled battle example through the command line: permitted attacks in the table,
in `--json` (with the replay flag), and a blocking card named in a reason's text."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from pyrules.cli import main

EXAMPLE = Path(__file__).resolve().parents[1] / "facts" / "examples" / "battle.yaml"
ATTACKS = {("asura", "bug"), ("jinzo", "bug"), ("jinzo", "direct")}


def run(args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_battle_example_table_lists_the_permitted_attacks():
    res = run(["legal", EXAMPLE])
    assert res.exit_code == 0
    for card, target in ATTACKS:
        assert f"declare_attack({card},{target})" in res.stdout
    assert "declare_attack(ox," not in res.stdout


def test_battle_example_json_lists_the_permitted_attacks_and_no_replay():
    res = run(["legal", EXAMPLE, "--json"])
    assert res.exit_code == 0
    out = json.loads(res.stdout)
    assert out["replay"] is False
    got = {(a["card"], a["target"]) for a in out["permitted"] if a["action"] == "declare_attack"}
    assert got == ATTACKS


def test_a_blocking_card_is_named_in_the_reason_text(tmp_path):
    snap = tmp_path / "gb.yaml"
    snap.write_text("snapshot: 1\nturn: 3\nphase: battle\nplayers:\n"
                    "  A: {monsters: [{id: ox, card: Battle Ox, position: attack}]}\n"
                    "  B: {spells_traps: [{id: gb, card: Gravity Bind, face: up}]}\n")
    res = run(["check", snap, "declare_attack(ox,direct)", "--json"])
    assert res.exit_code == 1
    texts = [r["text"] for r in json.loads(res.stdout)["reasons"]]
    assert '"Gravity Bind" (B, id gb) forbids Level 4 or higher monsters to attack.' in texts
