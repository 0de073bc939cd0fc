"""The designer's tools through click's runner: `pyrules test`, `lint`, `explain` and `show`, failures and bad files included."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pyrules.cases import load_cases
from pyrules.cli import main
from pyrules.errors import InvalidInput
from pyrules.lint import lint
from pyrules.paths import rules_dir

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = str(ROOT / "facts" / "examples" / "main_phase.yaml")

CASES = """
- name: A monster Normal Summoned this turn cannot change its position manually
  source: battle-position-changes, Exception #2
  snapshot:
    players:
      A:
        monsters: [{id: ox, card: Battle Ox, position: attack}]
    this_turn:
      - {event: normal_summon, card: ox}
  checks:
    - action: "change_position(ox,defense)"
      permitted: false
      reasons: [summoned_this_turn]
- name: A monster from an earlier turn can change its position
  source: battle-position-changes, 1. A "manual" change
  snapshot:
    players:
      A:
        monsters: [{id: ox, card: Battle Ox, position: attack}]
  checks:
    - action: "change_position(ox,defense)"
      permitted: true
"""

WRONG = """
- name: Wrongly expects a second Normal Summon to be allowed
  source: faq-basic-gameplay, WHAT ARE THE THREE KINDS OF SUMMON?
  snapshot:
    players:
      A:
        hand: [{id: ox, card: Battle Ox}]
        monsters: [{id: elf, card: Mystical Elf, position: defense}]
    this_turn:
      - {event: normal_summon, card: elf}
  checks:
    - action: "normal_summon(ox)"
      permitted: true
"""


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


# ---- pyrules test -----------------------------------------------------------------------
def test_test_passes_on_good_cases(tmp_path):
    (tmp_path / "good.yaml").write_text(CASES)
    r = run("test", tmp_path)
    assert r.exit_code == 0, r.output
    assert r.output.strip().splitlines()[-1] == "2 passed, 0 failed"


def test_test_reports_each_failing_check(tmp_path):
    (tmp_path / "good.yaml").write_text(CASES)
    (tmp_path / "wrong.yaml").write_text(WRONG)
    r = run("test", tmp_path)
    assert r.exit_code == 1
    lines = r.output.strip().splitlines()
    assert lines[-1] == "2 passed, 1 failed"
    fail = [x for x in lines if x.startswith("FAILED")]
    assert len(fail) == 1
    assert "Wrongly expects a second Normal Summon" in fail[0] and "normal_summon(ox)" in fail[0]
    assert "expected permitted, got forbidden" in fail[0] and "normal_summon_used" in fail[0]


def test_test_k_selects_cases_and_json(tmp_path):
    (tmp_path / "good.yaml").write_text(CASES)
    (tmp_path / "wrong.yaml").write_text(WRONG)
    r = run("test", tmp_path, "-k", "EARLIER TURN", "--json")
    assert r.exit_code == 0
    assert json.loads(r.output) == {"passed": 1, "failed": 0, "failures": []}


def test_a_check_with_evidence_needs_those_lines_among_the_reasons_evidence(tmp_path):
    """`evidence`: each line must be among the evidence the reasons give (as `check` prints it)."""
    good = CASES.replace("reasons: [summoned_this_turn]",
                         "reasons: [summoned_this_turn]\n      evidence: [\"event 1: normal_summon of ox\"]")
    (tmp_path / "good.yaml").write_text(good)
    assert run("test", tmp_path).exit_code == 0
    (tmp_path / "good.yaml").write_text(good.replace("event 1: normal_summon of ox", "event 2: normal_summon of ox"))
    r = run("test", tmp_path)
    assert r.exit_code == 1 and "expected the evidence ['event 2: normal_summon of ox']" in r.output, r.output
    (tmp_path / "good.yaml").write_text(good.replace('evidence: ["event 1: normal_summon of ox"]', "evidence: 5"))
    r = run("test", tmp_path)
    assert r.exit_code == 2 and "evidence" in r.output, r.output


def test_test_with_an_edited_rules_copy(tmp_path):
    (tmp_path / "good.yaml").write_text(CASES)
    rules = tmp_path / "rules"
    shutil.copytree(rules_dir(), rules)
    history = rules / "history.lp"
    history.write_text(history.read_text().replace("summon_kind(normal_summon; set;", "summon_kind("))
    r = run("test", tmp_path / "good.yaml", "--rules", rules)
    assert r.exit_code == 1 and "1 passed, 1 failed" in r.output
    assert "expected forbidden, got permitted" in r.output


@pytest.mark.parametrize("text", ["- name: [unclosed", "just a string", "- 3"])
def test_test_unreadable_files_exit_2(tmp_path, text):
    (tmp_path / "bad.yaml").write_text(text)
    r = run("test", tmp_path / "bad.yaml")
    assert r.exit_code == 2 and "cannot read the case file" in r.output


# Malformed cases: each is refused before any runs (exit 2), the file, the case and the field named.
MALFORMED = [
    ("- name: 5\n  checks: [{action: draw, permitted: false}]", "case 1: name: expected a sentence"),
    ("- name: L\n  legal: 5", "case 1 (L): legal: expected a mapping"),
    ("- name: L\n  legal: {includes: 5}", "case 1 (L): legal.includes: expected a list of actions"),
    ("- name: L\n  legal: {includes: [draw, 7]}", "case 1 (L): legal.includes[1]: expected an action"),
    ("- name: L\n  legal: {excludes: [\"nope(\"]}", "case 1 (L): legal.excludes[0]: not an action"),
    ("- name: L\n  legal: {count: -1}", "case 1 (L): legal.count: expected a number of actions (0 or more), got -1"),
    ("- name: L\n  legal: {count: true}", "case 1 (L): legal.count: expected a number"),
    ("- name: L\n  legal: {cuont: 3}", "case 1 (L): legal.cuont: unknown key"),
    ("- name: R\n  replay: maybe", "case 1 (R): replay: expected true or false"),
    ("- name: C\n  checks: 5", "case 1 (C): checks: expected a list of checks"),
    ("- name: C\n  checks: [5]", "case 1 (C): checks[0]: expected a check"),
    ("- name: C\n  checks: [{permitted: true}]", "case 1 (C): checks[0].action: is required"),
    ("- name: C\n  checks: [{action: draw}]", "case 1 (C): checks[0].permitted: is required"),
    ("- name: C\n  checks: [{action: draw, permitted: 1}]", "case 1 (C): checks[0].permitted: expected true or false"),
    ("- name: C\n  checks: [{action: draw, permitted: false, readings: 3}]",
     "case 1 (C): checks[0].readings: expected a mapping"),
    ("- name: C\n  checks: [{action: draw, permitted: false, reasons: x}]",
     "case 1 (C): checks[0].reasons: expected a list"),
    ("- name: C\n  checks: [{action: draw, permitted: false, reason: [x]}]",
     "case 1 (C): checks[0].reason: unknown key"),
    ("- name: C\n  checks: [{action: {card: x}, permitted: false}]", "case 1 (C): checks[0].action: not an action"),
    ("- name: C\n  readings: {position_change_limit: [a]}",
     "case 1 (C): readings.position_change_limit: expected a value"),
    ("- name: S\n  snapshot: [1]", "case 1 (S): snapshot: expected a mapping"),
    ("- name: U\n  unmodelled: ceal", "case 1 (U): unmodelled: expected a list of strings"),
    ("- name: P\n  invalid: true\n  problems: [3]", "case 1 (P): problems[0]: expected a string"),
    ("- name: I\n  invalid_action: 3", "case 1 (I): invalid_action: expected an action"),
    ("- name: K\n  chekcs: [{action: draw, permitted: false}]\n  replay: false", "case 1 (K): chekcs: unknown key"),
    ("- name: I\n  invalid_action: ''", "case 1 (I): invalid_action: expected an action (term text or mapping, not empty)"),
    ("- checks: []", "case 1: name: is required"),
    ("- name: A\n- name: A\n  1: x", "case 2 (A): 1: expected a key name"),
    ("- name: a\n  name: b", "case 1: name: the key is given twice"),
    ("- name: N\n  source: a passage\n  snapshot: {turn: 3}", "case 1 (N): expects nothing: give at least one of"),
    ("- name: N\n  checks: []\n  invalid: false", "case 1 (N): expects nothing"),
    ("- name: L\n  legal: {}", "case 1 (L): legal: expects nothing"),
    ("- name: P\n  checks: [{action: draw, permitted: false}]\n  problems: [x]",
     "case 1 (P): problems: goes with invalid: true"),
]


@pytest.mark.parametrize("text,problem", MALFORMED)
def test_test_malformed_cases_exit_2_naming_the_field(tmp_path, text, problem):
    (tmp_path / "bad.yaml").write_text(text + "\n")
    r = run("test", tmp_path / "bad.yaml", "-k", "x")
    assert r.exit_code == 2, r.output
    assert f"bad.yaml: cannot read the case file: {problem}" in r.output
    assert "Traceback" not in r.output and "Error:" not in r.output


def test_load_cases_raises_invalid_input_naming_the_field(tmp_path):
    """The Python API refuses a malformed case file as the command does: InvalidInput, one problem a field."""
    (tmp_path / "bad.yaml").write_text("- name: L\n  legal: {includes: 5, count: -1}\n  replay: maybe\n- 3\n")
    with pytest.raises(InvalidInput) as e:
        load_cases(tmp_path / "bad.yaml")
    where = str(tmp_path / "bad.yaml")
    assert [str(p) for p in e.value.problems] == [
        f"{where}: case 1 (L): legal.includes: expected a list of actions, got 5",
        f"{where}: case 1 (L): legal.count: expected a number of actions (0 or more), got -1",
        f"{where}: case 1 (L): replay: expected true or false, got \"maybe\"",
        f"{where}: case 2: expected a case (a mapping with name, snapshot and checks), got 3"]
    with pytest.raises(InvalidInput, match="cannot read"):
        load_cases(tmp_path / "nothing.yaml")


def test_test_missing_path_and_broken_rules_exit_2(tmp_path):
    assert run("test", tmp_path / "nothing.yaml").exit_code == 2
    (tmp_path / "good.yaml").write_text(CASES)
    rules = tmp_path / "rules"
    shutil.copytree(rules_dir(), rules)
    (rules / "turn.lp").write_text((rules / "turn.lp").read_text() + "\nbroken( :- .\n")
    r = run("test", tmp_path / "good.yaml", "--rules", rules)
    assert r.exit_code == 2 and "the rules do not load" in r.output


def test_test_runs_the_project_suite_by_default():
    r = run("test", "-k", "negated")
    m = re.fullmatch(r"(\d+) passed, (\d+) failed", r.output.strip().splitlines()[-1])
    assert m and int(m.group(1)) > 0 and int(m.group(2)) == 0 and r.exit_code == 0


def test_test_with_a_pattern_that_selects_nothing_fails():
    r = run("test", "-k", "nomatchzzz")
    assert r.exit_code == 1 and "0 passed, 0 failed" in r.output


# ---- pyrules lint -----------------------------------------------------------------------
def test_shipped_rules_lint_clean():
    findings = lint(rules_dir())
    assert not findings, "\n".join(map(str, findings))
    r = run("lint")
    assert r.exit_code == 0 and "0 problems" in r.output


def _copy(tmp_path) -> Path:
    rules = tmp_path / "rules"
    shutil.copytree(rules_dir(), rules)
    return rules


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


@pytest.mark.parametrize("edit, expect", [
    (lambda r: _edit(r / "turn.lp", "main_phase :- phase(main1).", "main_phase :- phase(main1"),
     r"rules/turn.lp:\d+: \[parse\] error: syntax error"),
    (lambda r: _edit(r / "turn.lp", "main_phase :- phase(main1).", "main_phase(X) :- not phase(X)."),
     r"rules/turn.lp:11: \[unsafe\] error: unsafe variables .*'X' is unsafe"),
    (lambda r: _edit(r / "turn.lp", "% Source: wiki-position-changes-garbled: Changes (only while", "% Only while"),
     r"rules/turn.lp:\d+: \[source\] rule without a '% Source:' citation"),
    (lambda r: _edit(r / "turn.lp", "% Source: wiki-position-changes-garbled: Changes (only while",
                     "% Source: wiki-position-change: Changes (only while"),
     "[source] cites 'wiki-position-change: Changes"),
    (lambda r: _edit(r / "turn.lp", "forbidden(draw, not_draw_phase, none)", "forbidden(draw, not_the_draw_phase, none)"),
     "not_the_draw_phase: no reason(not_the_draw_phase, ...) entry"),
    (lambda r: _edit(r / "turn.lp", "forbidden(draw, not_draw_phase, none)",      # every atom of a pool is seen
                     "forbidden(draw, not_draw_phase, none; draw, not_the_draw_phase, none)"),
     "not_the_draw_phase: no reason(not_the_draw_phase, ...) entry"),
    (lambda r: _edit(r / "turn.lp", "forbidden(draw, not_draw_phase, none)", "forbidden(draw, already_drew, none)"),
     "not_draw_phase: catalogued but no forbidden/3 rule gives it"),
    (lambda r: _edit(r / "summons.lp", "play_forbidden(I,S, needs_tributes,", "play_forbidden(I,S, needs_tributez,"),
     "needs_tributez: no reason(needs_tributez, ...) entry"),         # a reason relayed to forbidden/3
    (lambda r: [_edit(r / "summons.lp", "needs_tributes, need(N)) :-", "too_many_tributes, need(N)) :-")
                for _ in range(2)],                                   # the pair's rule and the single actions' one
     "needs_tributes: catalogued but no forbidden/3 rule gives it"),
    (lambda r: _edit(r / "turn.lp", "main_phase :- phase(main1).", "main_phase :- phase(main1), mystery."),
     "mystery/0 is not documented"),
    (lambda r: _edit(r / "turn.lp", "main_phase :- phase(main1).", "main_phase :- phase(main1).\nlonely(1)."),
     "lonely/1 is defined but never used"),
    (lambda r: _edit(r / "catalogue" / "reasons.lp", "reason(already_drew,", "reason(already_drew"),
     r"rules/catalogue/reasons.lp:\d+: \[parse\]"),
    (lambda r: (r / "readings" / "first_turn_draw" / "true.lp").unlink(),
     "first_turn_draw=true: no file readings/first_turn_draw/true.lp"),
    (lambda r: _edit(r / "readings" / "first_turn_draw" / "false.lp", "reading(first_turn_draw,false)", "true"),
     "rule not guarded by reading(first_turn_draw,false)"),
    (lambda r: _edit(r / "catalogue" / "readings.lp", "reading(first_turn_draw, false,", "reading(first_turn_draw, maybe,"),
     "first_turn_draw: its default 'maybe' is not one of its reading_value entries"),
    (lambda r: _edit(r / "turn.lp", "% Source: rulebook-turn-and-summons: A. Draw Phase",
                     "% Source: rulebook-turn-and-summons, A. Draw Phase"),
     "write 'stem: section' (a colon after the document's name)"),
    (lambda r: _edit(r / "turn.lp", "main_phase :- phase(main1).", "main_phase :- phase(main1).\n#show main_phase/0."),
     r"rules/turn.lp:\d+: \[output\] #show of main_phase/0 outside output.lp"),
    (lambda r: _edit(r / "output.lp", "#show permitted/1.", "#show permitted/1.\n#show allowed(A) : permitted(A)."),
     "allowed/1 is not documented"),
    (lambda r: _edit(r / "summons.lp", "tributes_required(I,0) :- level(I,L), L <= 4.",         # the card part
                     "tributes_required(I,0) :- level(I,L), L <= 4, zone(I,_,hand)."),
     r"rules/summons.lp:\d+: \[card part\] it reads zone/3, not a card's own data"),
    (lambda r: _edit(r / "validity.lp", "extra_deck_monster(I) :- frame(I,fusion).", "extra_deck_monster(J) :- frame(I,fusion), name(J,I)."),
     "frame/2 is not read of the card J"),
    (lambda r: _edit(r / "validity.lp", "#program card.", "#program cards."),
     "#program cards: only base and card exist"),
    (lambda r: (r / "effects.yaml").write_text("kinds: {foo: {}}\nfilters: {}\nconditions: {}\n"),
     "rules/effects.yaml:0: [effect] cannot read the effect declarations: kinds.foo.meaning: is required"),
])
def test_lint_finds(tmp_path, edit, expect):
    rules = _copy(tmp_path)
    edit(rules)
    r = run("lint", "--rules", rules)
    assert r.exit_code == 1
    assert expect in r.output or re.search(expect, r.output), r.output


RULINGS = {"rulebook-turn-and-summons": "A. Draw Phase During this phase, you draw.\nC. Main Phase 1 You may Set.",
           "battle-position-changes": "\u2022 1. A \u201cmanual\u201d change.\n\u2022 Exception #1: ...\n"}


def test_lint_checks_cited_headings_when_the_rulings_documents_are_there(tmp_path):
    rules = _copy(tmp_path)
    docs = tmp_path / "shared" / "rulings"          # beside the rules, as in a checkout
    docs.mkdir(parents=True)
    for stem, text in RULINGS.items():
        (docs / f"{stem}.txt").write_text(text, encoding="utf-8")
    _edit(rules / "turn.lp", "% Source: rulebook-turn-and-summons: A. Draw Phase",
          "% Source: rulebook-turn-and-summons: Z. Nap Phase")
    findings = [str(f) for f in lint(rules) if "heading" in f.message]
    assert any("turn.lp" in f and "cites section 'Z. Nap Phase'" in f for f in findings), findings
    # headings that are there pass (typographic quotes, spacing and case aside); documents
    # that are missing (three of the five here) are not checked
    assert not [f for f in findings if "'A. Draw Phase'" in f or "'1. A \"manual\" change'" in f]
    assert all("rulebook-turn-and-summons" in f or "battle-position-changes" in f for f in findings)
    r = run("lint", "--rules", rules, "--rulings", tmp_path)     # an explicit folder without them
    assert "Z. Nap Phase" not in r.output


def test_lint_skips_the_heading_check_cleanly_without_the_rulings_documents(tmp_path):
    rules = _copy(tmp_path)
    _edit(rules / "turn.lp", "% Source: rulebook-turn-and-summons: A. Draw Phase",
          "% Source: rulebook-turn-and-summons: Z. Nap Phase")
    assert lint(rules) == []
    r = run("lint", "--rules", rules)
    assert r.exit_code == 0 and "cited section headings not checked" in r.output


# ---- pyrules explain --------------------------------------------------------------------
SUMMONED = """
snapshot: 1
players:
  A:
    monsters: [{id: ox, card: Battle Ox, position: attack}]
  B: {}
this_turn:
  - {event: normal_summon, card: ox}
"""


def test_explain_forbidden(tmp_path):
    snap = tmp_path / "snap.yaml"
    snap.write_text(SUMMONED)
    r = run("explain", snap, "change_position(ox,defense)")
    assert r.exit_code == 1
    assert 'ox ("Battle Ox") was Normal Summoned this turn: event 1' in r.output
    assert "[summoned_this_turn]" in r.output
    assert "rules/positions.lp:" in r.output and "Source: battle-position-changes: Exception #2" in r.output


def test_explain_names_the_rule_of_a_relayed_reason():
    """summons.lp judges a Normal Summon and a Set as one pair (play_forbidden/4, relayed to
    forbidden/3): explain names the pair's rule, not the relaying one."""
    for action in ("normal_summon(skull)", "set(skull)"):
        r = run("explain", EXAMPLE, action)
        assert r.exit_code == 1 and "[needs_tributes]" in r.output
        assert "Exactly the Level's count of Tributes, no fewer" in r.output
        # the pair's rule comes first (the rule judging the single actions of monsters with another count may also give it)
        fired = r.output.split("The rule that fired")[1]
        assert re.match(r"[^\n]*\n   - rules/summons\.lp:\d+: Exactly the Level's count", fired)


def test_explain_names_each_rule_once():
    # the superfluous-Tribute rule once came twice ("one of these") for one line of ritual.lp
    board = ROOT / "benchmarks" / "summons_board.yaml"
    r = run("explain", board, "ritual_summon(bls,[dm,ox,mokey],attack,blr)")
    assert r.exit_code == 1 and "[ritual_superfluous]" in r.output
    fired = r.output.split("The rule that fired")[1].split("Reason text source")[0]
    sites = re.findall(r"- (rules/\S+:\d+):", fired)
    assert sites and len(sites) == len(set(sites)) and "(one of these)" not in r.output


def test_explain_names_only_rules_that_can_judge_the_action(tmp_path):
    # a Fusion Summon outside a Main Phase: the Summons' own guard, not the position changes' rules
    # (a rule whose action comes from `query(A), p(A,...)` is bound by p, not by the query fact)
    import yaml
    board = yaml.safe_load((ROOT / "benchmarks" / "summons_board.yaml").read_text())
    board["phase"], board["battle_step"] = "battle", "battle"
    snap = tmp_path / "board.yaml"
    snap.write_text(yaml.safe_dump(board))
    r = run("explain", snap, "fusion_summon(x1,[bb,dm],attack,poly)")
    assert r.exit_code == 1 and "[not_main_phase]" in r.output
    fired = r.output.split("[not_main_phase]")[1].split("Reason text source")[0]
    assert re.findall(r"- (rules/[a-z_]+\.lp):", fired) == ["rules/summons.lp"]


def test_explain_permitted_and_invalid(tmp_path):
    r = run("explain", EXAMPLE, "change_position(ox,defense)")
    assert r.exit_code == 0 and "is permitted" in r.output
    r = run("explain", EXAMPLE, "flip_summon(nobody)")
    assert r.exit_code == 2 and "no card with id 'nobody'" in r.output
    bad = tmp_path / "bad.yaml"
    bad.write_text("snapshot: 2\n")
    assert run("explain", bad, "draw").exit_code == 2


# ---- pyrules show -----------------------------------------------------------------------
def test_show_draws_both_sides_history_and_actions():
    r = run("show", EXAMPLE)
    assert r.exit_code == 0, r.output
    out = r.output
    assert "A (turn player)" in out and "B   LP 8000" in out
    assert "Man-Eater Bug" in out and "DEF face-down" in out and "ATK face-up" in out
    assert "Summoned Skull [skull]" in out
    assert "had its battle position changed by a card effect this turn: event 2" in " ".join(out.split())
    assert "Permitted actions (" in out and "flip_summon(bug)" in out
    assert out.index("Mystical Elf") < out.index("Battle Ox")      # the opponent on top


def test_show_lists_the_applied_effects_and_a_set_turn(tmp_path):
    snap = tmp_path / "applied.yaml"
    snap.write_text("snapshot: 1\nplayers:\n  A:\n    spells_traps: [{id: poly, card: Polymerization, face: down, set_turn: 3}]\n"
                    "  B: {}\neffects:\n  - {effect: unusable_monster_zones, player: A, count: 2, source: Ojama King}\n")
    r = run("show", snap)
    assert r.exit_code == 0, r.output
    assert "Applied effects:\n  unusable_monster_zones (count 2) on A (from Ojama King)" in r.output
    assert "Set turn 3" in r.output


def test_show_says_who_acts_a_declared_move_and_the_winner(tmp_path):
    snap = tmp_path / "moving.yaml"
    snap.write_text("snapshot: 1\nturn: 3\nphase: main1\nmoving_to: battle\npriority: B\npassed: true\n"
                    "players: {A: {}, B: {}}\n")
    r = run("show", snap)
    assert r.exit_code == 0, r.output
    now = " ".join(r.output.split("Now: ", 1)[1].split("\n\n", 1)[0].split())     # wrapped to the width
    assert now == "B has priority; the other player has just passed; moving to the Battle Phase"
    snap.write_text("snapshot: 1\nwinner: B\nplayers: {A: {life: 0}, B: {}}\n")
    assert "Now: the duel is over: B has won" in run("show", snap).output
    snap.write_text("snapshot: 1\nplayers: {A: {}, B: {}}\n")
    assert "Now:" not in run("show", snap).output

def test_show_invalid(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("snapshot: 1\nplayers: {A: {monsters: [{id: x, card: Nope, position: attack}]}, B: {}}\n")
    r = run("show", bad)
    assert r.exit_code == 2 and "unknown card name 'Nope'" in r.output
    assert "Traceback" not in r.output


def test_show_puts_the_permitted_actions_beside_the_board_when_wide_enough():
    from pyrules import Engine
    from pyrules.show import show
    snap = {"snapshot": 1, "players": {"A": {"monsters": [{"id": "ox", "card": "Battle Ox", "position": "attack"}]},
                                       "B": {}}}
    engine = Engine()
    wide = show(engine, snap, width=200).splitlines()
    narrow = show(engine, snap, width=60).splitlines()
    assert "Permitted actions" in wide[0] and "change_position(ox,defense)" in wide[1]
    assert not any("Permitted actions" in line for line in narrow[:3])
    assert any(line.startswith("Permitted actions") for line in narrow)


LEGAL_ALL = """
- name: In Main Phase 1 the Summon of a second monster is tried and refused, an attack is not tried
  source: faq-basic-gameplay, WHAT ARE THE THREE KINDS OF SUMMON?
  snapshot:
    players:
      A:
        hand: [{id: ox, card: Battle Ox}]
        monsters: [{id: bug, card: Basic Insect, position: attack}]
    this_turn: [{event: normal_summon, card: bug}]
  legal:
    forbidden: ["normal_summon(ox,[])"]
    unconsidered: [%s]
"""


def test_legal_forbidden_and_unconsidered_read_legal_all(tmp_path):
    """legal.forbidden / legal.unconsidered: what `legal --all` lists as forbidden, and what it does
    not try at all; a wrong expectation fails and names the action."""
    good = tmp_path / "good.yaml"
    good.write_text(LEGAL_ALL % '"declare_attack(bug,direct)"')
    r = run("test", good)
    assert r.exit_code == 0 and "1 passed, 0 failed" in r.output, r.output
    bad = tmp_path / "bad.yaml"
    bad.write_text(LEGAL_ALL % '"normal_summon(ox,[])"')
    r = run("test", bad)
    assert r.exit_code == 1 and "considered: normal_summon(ox,[])" in r.output, r.output
    worse = tmp_path / "worse.yaml"
    worse.write_text(LEGAL_ALL.replace('forbidden: ["normal_summon(ox,[])"]', 'forbidden: ["flip_summon(bug)"]')
                     % '"declare_attack(bug,direct)"')
    r = run("test", worse)
    assert r.exit_code == 1 and "not among the forbidden candidates: flip_summon(bug)" in r.output, r.output
