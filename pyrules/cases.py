"""Ruling cases: YAML files of named situations with expected verdicts.

The project's own ruling suite (tests/cases/*.yaml), `pyrules test` and the pytest
plugin all run cases through `run_case`.  The format extends the contract's worked
examples (../shared/spec/examples):

    - name: a sentence saying what the case shows         # required
      source: battle-position-changes, Exception #3     # the passage it checks
      snapshot: {...}          # merged over DEFAULTS below
      readings: {name: value}  # optional: as --reading, for every check of the case
      checks:
        - action: "flip_summon(bug)"         # term form or JSON object (each check: action and permitted)
          permitted: true
        - action: "change_position(bug,defense)"
          permitted: false
          reasons: [already_changed_this_turn]   # optional: ids that must be among the reasons
          exact: true                            # optional: ... and no other reason is given
          notes: {materials_go_to: banished}     # optional: derived facts the verdict must report (that one value each)
          cites: [Toon Summoned Skull]           # optional: exactly the cards whose text its reasons cite
          evidence: ["event 1: attack of ox"]    # optional: evidence lines the reasons must give (as `check` prints them)
          readings: {position_change_limit: any_change}   # optional, per check
      replay: true             # optional: `legal` must report this replay flag
      unmodelled: [ceal]       # optional: `legal` and every check must list exactly these ids as unmodelled
      legal:                   # optional: what `legal` must (not) list
        includes: ["flip_summon(bug)"]
        excludes: ["normal_summon(skull,[])"]
        count: 3
        forbidden: ["normal_summon(ox,[])"]     # `legal --all` lists these among the forbidden candidates
        unconsidered: ["declare_attack(ox,direct)"]   # ... and these neither as permitted nor as forbidden
      invalid: true            # optional: the snapshot must be rejected
      problems: ["players.B.monsters"]   # optional: substrings the problems must contain
      invalid_action: "flip_summon(nobody)"   # optional: this action must be rejected
      next:                    # optional: successors (pyrules next), step by step from the snapshot
        - action: "declare_attack(skull,ox)"
          expect:              # the successor, field by field (NEXT_FIELDS: what each key reads)
            zones: {ox: B.graveyard}
            life: {B: 7200}
            events: [{event: destroyed, card: ox, by: battle}]   # the events this step appended
        - action: pass         # a step without expect only moves on
        - {action: "normal_summon(ox)", permitted: false, reasons: [event_window_open]}

`load_cases` checks the shape of every key when the file is read (case_problems): a value
of the wrong type, an action that does not parse, a negative count or a key a check or
`legal` does not know is InvalidInput naming the file, the case and the field
(`cases.yaml: case 3 (...): legal.includes: expected a list of actions, got 5`), and so is a
key the case itself does not know.
"""
from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from .actions import parse_action
from .cards import load_yaml
from .limits import read_file
from .errors import InvalidInput, Problem

DEFAULTS = {"snapshot": 1, "turn": 3, "turn_player": "A", "phase": "main1", "players": {"A": {}, "B": {}}}


def merge(base: dict, over: dict | None) -> dict:
    out = copy.deepcopy(base)
    for k, v in (over or {}).items():
        out[k] = merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else copy.deepcopy(v)
    return out


@dataclass
class Outcome:
    """The result of one check of one case."""
    file: str
    case: str
    check: str
    ok: bool
    message: str = ""

    @property
    def id(self) -> str:
        return f"{self.case} :: {self.check}"


def load_cases(path: str | Path) -> list[dict]:
    """The cases of a case file, each of the shape case_problems checks.  Raises InvalidInput:
    a file that cannot be read names the file; a malformed case names the file, the case
    (its number from 1 and its name) and the field, as `cases.yaml: case 3 (...): legal.count`."""
    origin = str(path)
    try:
        data = load_yaml(read_file(path, None, origin), origin)
    except InvalidInput as e:      # the file in every problem (a key given twice has only its field path)
        raise InvalidInput([p if p.path == origin else Problem(f"{origin}: {_in_case(p.path)}", p.message)
                            for p in e.problems]) from None
    if not isinstance(data, list):
        raise InvalidInput(Problem(origin, f"expected a list of cases, got {_got(data)}"))
    problems = [Problem(f"{origin}: {_case_label(n, case)}" + (f": {p.path}" if p.path else ""), p.message)
                for n, case in enumerate(data) for p in case_problems(case)]
    if problems:
        raise InvalidInput(problems)
    return data


def _in_case(path: str) -> str:
    """A field path in the file's list (`[2].checks[0]`) as the case and the path in it (`case 3: checks[0]`)."""
    m = re.fullmatch(r"\[(\d+)\]\.?(.*)", path, re.S)
    return f"case {int(m.group(1)) + 1}" + (f": {m.group(2)}" if m.group(2) else "") if m else path


def _case_label(n: int, case: Any) -> str:
    """`case N (name)` for the n-th case (from 0), the name shortened; without one, `case N`."""
    name = case.get("name") if isinstance(case, dict) else None
    if not isinstance(name, str) or not name.strip():
        return f"case {n + 1}"
    return f"case {n + 1} ({name if len(name) <= 60 else name[:57] + '...'})"


# ---- the shape of a case: each key it may hold, checked when the file is read --------------
# Each checker takes the value and its field path and returns the problems.  What the value
# means (a snapshot's content, a reading's name, whether an action is permitted) is for the
# engine to judge when the case runs.
Shape = Callable[[Any, str], list[Problem]]


def _got(value: Any) -> str:
    """The value a problem names: a scalar as written (JSON), else its kind."""
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None or isinstance(value, (bool, int, float, str)):
        text = json.dumps(value)
        return text if len(text) <= 40 else text[:37] + "..."
    return type(value).__name__


def _expected(path: str, what: str, value: Any) -> list[Problem]:
    return [Problem(path, f"expected {what}, got {_got(value)}")]


def _or_null(shape: Shape) -> Shape:
    """The shape, or null (read as empty, as an empty `checks:` or `readings:` line is)."""
    return lambda v, path: [] if v is None else shape(v, path)


def _string(v: Any, path: str) -> list[Problem]:
    return [] if isinstance(v, str) else _expected(path, "a string", v)


def _name(v: Any, path: str) -> list[Problem]:
    return [] if isinstance(v, str) and v.strip() else _expected(path, "a sentence saying what the case shows", v)


def _flag(v: Any, path: str) -> list[Problem]:
    return [] if isinstance(v, bool) else _expected(path, "true or false", v)


def _count(v: Any, path: str) -> list[Problem]:
    ok = isinstance(v, int) and not isinstance(v, bool) and v >= 0
    return [] if ok else _expected(path, "a number of actions (0 or more)", v)


def _mapping(v: Any, path: str) -> list[Problem]:
    return [] if isinstance(v, dict) else _expected(path, "a mapping", v)


def _list_of(item: Shape, what: str) -> Shape:
    """A list (else "expected a list of WHAT") each of whose entries has the shape `item`."""
    def check(v: Any, path: str) -> list[Problem]:
        if not isinstance(v, list):
            return _expected(path, f"a list of {what}", v)
        return [p for i, x in enumerate(v) for p in item(x, f"{path}[{i}]")]
    return check


_strings = _list_of(_string, "strings")


def _words(v: Any, path: str) -> list[Problem]:
    """A mapping of names to words (readings, notes): each value a string, number or true/false."""
    if not isinstance(v, dict):
        return _expected(path, "a mapping of names to values", v)
    return [p for k, x in v.items()
            for p in ([] if isinstance(k, str) else [Problem(f"{path}.{k}", "expected a name (a string)")])
            + ([] if isinstance(x, (str, bool, int, float)) else _expected(f"{path}.{k}", "a value", x))]


def _action(v: Any, path: str) -> list[Problem]:
    """An action the engine can read (term text or mapping); whether it is permitted is not asked."""
    if not isinstance(v, (str, dict)):
        return _expected(path, "an action (term text or mapping)", v)
    try:
        parse_action(v)
    except InvalidInput as e:
        return [Problem(path, "not an action: " + "; ".join(map(str, e.problems)))]
    return []


def _action_value(v: Any, path: str) -> list[Problem]:
    """invalid_action: text or a mapping (that it is rejected is what the case checks)."""
    ok = (isinstance(v, str) and v.strip()) or (isinstance(v, dict) and v)    # "" or {} would expect nothing
    return [] if ok else _expected(path, "an action (term text or mapping, not empty)", v)


_actions = _list_of(_action, "actions")


def _keys(v: dict, path: str, shapes: dict[str, Shape], required: tuple[str, ...] = ()) -> list[Problem]:
    """The problems of a mapping's keys: each known key's shape, the required ones present, no other."""
    known = ", ".join(shapes)
    out = [Problem(f"{path}.{k}".lstrip("."), f"unknown key (known: {known})") for k in v if k not in shapes]
    out += [Problem(f"{path}.{k}".lstrip("."), "is required") for k in required if k not in v]
    return out + [p for k, x in v.items() if k in shapes for p in shapes[k](x, f"{path}.{k}".lstrip("."))]


CHECK_SHAPES: dict[str, Shape] = {"action": _action, "permitted": _flag, "reasons": _or_null(_strings),
                                  "exact": _flag, "readings": _or_null(_words), "notes": _or_null(_words),
                                  "cites": _or_null(_strings), "evidence": _or_null(_strings)}
LEGAL_SHAPES: dict[str, Shape] = {"includes": _or_null(_actions), "excludes": _or_null(_actions), "count": _count,
                                  "forbidden": _or_null(_actions), "unconsidered": _or_null(_actions)}


def _check(v: Any, path: str) -> list[Problem]:
    if not isinstance(v, dict):
        return _expected(path, "a check (a mapping with action and permitted)", v)
    return _keys(v, path, CHECK_SHAPES, ("action", "permitted"))


_checks = _list_of(_check, "checks")


def _legal(v: Any, path: str) -> list[Problem]:
    if not isinstance(v, dict):
        return _expected(path, f"a mapping of {', '.join(LEGAL_SHAPES)}", v)
    out = _keys(v, path, LEGAL_SHAPES)
    if not any(v.get(k) is not None for k in LEGAL_SHAPES):        # legal: {} would check nothing
        out.append(Problem(path, f"expects nothing: give at least one of {', '.join(LEGAL_SHAPES)}"))
    return out


# next: what each key of a step's `expect` reads in the successor snapshot (docs/ruling-cases.md)
NEXT_FIELDS = ("zones", "lists", "positions", "faces", "cards", "equipped", "life", "deck", "events", "this_turn", "phase", "battle_step", "turn",
               "turn_player", "priority", "window", "passed", "attack", "chain", "winner", "moving_to",
               "unresolved", "unmodelled", "effects")
STEP_SHAPES: dict[str, Shape] = {"action": _action, "permitted": _flag, "reasons": _or_null(_strings),
                                 "readings": _or_null(_words), "expect": _mapping}


def _step(v: Any, path: str) -> list[Problem]:
    if not isinstance(v, dict):
        return _expected(path, "a step (a mapping with action, and expect or permitted)", v)
    out = _keys(v, path, STEP_SHAPES, ("action",))
    if isinstance(v.get("expect"), dict):
        out += [Problem(f"{path}.expect.{k}", f"unknown key (known: {', '.join(NEXT_FIELDS)})")
                for k in v["expect"] if k not in NEXT_FIELDS]
    return out


def _steps(v: Any, path: str) -> list[Problem]:
    """next: a list of steps (a single mapping is one step)."""
    if isinstance(v, dict):
        return _step(v, path)
    return _list_of(_step, "steps")(v, path)


CASE_SHAPES: dict[str, Shape] = {
    "name": _name, "source": _string, "note": _string, "snapshot": _or_null(_mapping),
    "readings": _or_null(_words), "checks": _or_null(_checks), "replay": _flag, "legal": _legal,
    "invalid": _flag, "problems": _or_null(_strings), "invalid_action": _action_value,
    "unmodelled": _strings, "cards": lambda v, path: [], "next": _steps}
CASE_KEYS = set(CASE_SHAPES)


def case_problems(case: Any) -> list[Problem]:
    """The problems of one case's shape, each with its field path in the case (`checks[0].readings`),
    a key the case format does not know among them (case_checks also fails a case given to run_case
    without load_cases on such a key)."""
    if not isinstance(case, dict):
        return _expected("", "a case (a mapping with name, snapshot and checks)", case)
    out = [Problem(_got(k), "expected a key name (a string)") for k in case if not isinstance(k, str)]
    out += _keys({k: v for k, v in case.items() if isinstance(k, str)}, "", CASE_SHAPES, ("name",))
    return out + _expects_something(case)


EXPECTATIONS = ("checks", "legal", "invalid", "invalid_action", "replay", "unmodelled", "next")


def _expects_something(case: dict) -> list[Problem]:
    """A case that expects nothing would pass whatever the rules say: it needs a check, a legal
    expectation, invalid: true, invalid_action, replay or unmodelled; `problems` goes with invalid: true."""
    out = []
    if case.get("problems") and case.get("invalid") is not True:
        out.append(Problem("problems", "goes with invalid: true (the problems a rejected snapshot names)"))
    given = [k for k in EXPECTATIONS if k in case and (k == "replay" or case[k] not in (None, [], False))]
    if not given:
        out.append(Problem("", f"expects nothing: give at least one of {', '.join(EXPECTATIONS)}"))
    return out


def case_checks(case: dict) -> list[tuple[str, dict]]:
    """(label, spec) of each check a case makes, in order."""
    out = []
    unknown = sorted(set(case) - CASE_KEYS)
    if unknown:      # a misspelt key would otherwise check nothing and pass
        out.append((f"unknown key(s) {', '.join(unknown)}", {"kind": "unknown_keys", "keys": unknown}))
    if case.get("invalid"):
        out.append(("invalid", {"kind": "invalid"}))
    if "invalid_action" in case:
        out.append((f"invalid action {case['invalid_action']}", {"kind": "invalid_action"}))
    if "replay" in case:
        out.append((f"replay is {case['replay']}", {"kind": "replay"}))
    if "unmodelled" in case:
        out.append((f"unmodelled are {case['unmodelled']}", {"kind": "unmodelled"}))
    if "legal" in case:
        out.append(("legal", {"kind": "legal"}))
    if case.get("next"):
        steps = case["next"] if isinstance(case["next"], list) else [case["next"]]
        label = " then ".join(a if isinstance(a := st["action"], str) else parse_action(a).term() for st in steps)
        out.append((f"next: {label}", {"kind": "next", "steps": steps}))
    for n, chk in enumerate(case.get("checks") or []):
        act = chk["action"]
        label = act if isinstance(act, str) else parse_action(act).term()
        want = "permitted" if chk.get("permitted") else "forbidden"
        rd = chk.get("readings") or {}
        suffix = "".join(f" [{k}={v}]" for k, v in rd.items())
        out.append((f"{label} is {want}{suffix}", {"kind": "check", "spec": chk}))
    return out


def _readings(*maps) -> dict[str, str]:
    out: dict[str, str] = {}
    for m in maps:
        for k, v in (m or {}).items():
            out[k] = "true" if v is True else "false" if v is False else str(v)
    return out


def run_check(engine, case: dict, spec: dict) -> tuple[bool, str]:
    """Run one check of a case; (ok, message)."""
    snap = merge(DEFAULTS, case.get("snapshot"))
    kind = spec["kind"]
    if kind == "unknown_keys":
        return False, f"unknown case key(s) {spec['keys']} (known: {', '.join(sorted(CASE_KEYS))})"
    case_readings = _readings(case.get("readings"))
    if kind in _EXPECT_INVALID:
        return _EXPECT_INVALID[kind](engine, case, snap, case_readings)
    try:
        return _JUDGED.get(kind, _expect_verdict)(engine, case, spec, snap, case_readings)
    except InvalidInput as e:
        return False, "invalid input: " + "; ".join(map(str, e.problems))


def _expect_invalid(engine, case: dict, snap: dict, case_readings: dict) -> tuple[bool, str]:
    """invalid: the snapshot is rejected, with problems that mention each of `problems`."""
    try:
        engine.legal(snap, case_readings)
    except InvalidInput as e:
        text = "\n".join(map(str, e.problems))
        missing = [p for p in case.get("problems") or [] if p not in text]
        if missing:
            return False, f"rejected, but the problems do not mention {missing}: {text}"
        return True, ""
    return False, "expected the snapshot to be rejected, but it was accepted"


def _expect_invalid_action(engine, case: dict, snap: dict, case_readings: dict) -> tuple[bool, str]:
    """invalid_action: the action is rejected as input (no verdict)."""
    try:
        v = engine.check(snap, case["invalid_action"], case_readings)
    except InvalidInput:
        return True, ""
    return False, f"expected invalid input, got a verdict (permitted={v.permitted})"


def _expect_replay(engine, case: dict, spec: dict, snap: dict, case_readings: dict) -> tuple[bool, str]:
    """replay: `legal` reports this replay flag."""
    got = engine.legal(snap, case_readings).replay
    return got is case["replay"], f"replay expected {case['replay']}, got {got}"


def _expect_unmodelled(engine, case: dict, spec: dict, snap: dict, case_readings: dict) -> tuple[bool, str]:
    """unmodelled: `legal` lists exactly these ids as unmodelled."""
    got = [u.id for u in engine.legal(snap, case_readings).unmodelled]
    return got == list(case["unmodelled"]), f"unmodelled expected {case['unmodelled']}, got {got}"


def _expect_legal(engine, case: dict, spec: dict, snap: dict, case_readings: dict) -> tuple[bool, str]:
    """legal: the permitted actions include and exclude these, and number `count`; with `forbidden`
    or `unconsidered`, `legal --all` (include_forbidden) lists these as forbidden candidates, and
    those neither as permitted nor as forbidden (candidates its legal mode does not try)."""
    want = case["legal"]
    every = want.get("forbidden") is not None or want.get("unconsidered") is not None
    got = engine.legal(snap, case_readings, include_forbidden=every)
    terms = [a.term() for a in got.permitted]
    refused = [v.action.term() for v in got.forbidden]
    problems = [f"missing {t}" for t in want.get("includes") or [] if parse_action(t).term() not in terms]
    problems += [f"unexpected {t}" for t in want.get("excludes") or [] if parse_action(t).term() in terms]
    if "count" in want and len(terms) != want["count"]:
        problems.append(f"expected {want['count']} permitted actions, got {len(terms)}")
    problems += [f"not among the forbidden candidates: {t}" for t in want.get("forbidden") or []
                 if parse_action(t).term() not in refused]
    problems += [f"considered: {t}" for t in want.get("unconsidered") or []
                 if parse_action(t).term() in terms + refused]
    shown = f" (permitted: {', '.join(terms)}" + (f"; forbidden: {', '.join(refused)})" if every else ")")
    return not problems, "; ".join(problems) + shown


def _expect_verdict(engine, case: dict, spec: dict, snap: dict, case_readings: dict) -> tuple[bool, str]:
    """One entry of checks: the verdict, then its reasons, unmodelled ids and notes."""
    chk = spec["spec"]
    v = engine.check(snap, chk["action"], _readings(case.get("readings"), chk.get("readings")))
    want = bool(chk.get("permitted"))
    got_ids = [r.rule for r in v.reasons]
    if v.permitted is not want:
        return False, f"expected {'permitted' if want else 'forbidden'}, got " + \
            ("permitted" if v.permitted else f"forbidden {got_ids}")
    if not v.permitted and not v.reasons:
        return False, "forbidden without a reason"
    return _verdict_details(case, chk, v, got_ids)


def _verdict_details(case: dict, chk: dict, v, got_ids: list[str]) -> tuple[bool, str]:
    """A verdict's unmodelled ids (the case's), reasons (the check's among them) and notes."""
    if "unmodelled" in case and [u.id for u in v.unmodelled] != list(case["unmodelled"]):
        return False, f"unmodelled expected {case['unmodelled']}, got {[u.id for u in v.unmodelled]}"
    missing = [r for r in chk.get("reasons") or [] if r not in got_ids]
    if missing:
        return False, f"expected reasons {missing} among {got_ids}"
    if chk.get("exact") and sorted(set(got_ids)) != sorted(set(chk.get("reasons") or [])):
        return False, f"expected exactly the reasons {chk.get('reasons') or []}, got {got_ids}"
    notes: dict[str, list[str]] = {}
    for key, value in v.notes:      # a key given two values (banished and graveyard) is wrong whichever is asked
        notes.setdefault(key, []).append(value)
    wrong = {k: notes.get(k) for k, want_v in (chk.get("notes") or {}).items() if notes.get(k) != [str(want_v)]}
    if wrong:
        return False, f"expected notes {chk['notes']}, got {notes}"
    return _expect_evidence(chk, v)


def _expect_evidence(chk: dict, v) -> tuple[bool, str]:
    """evidence: lines that must be among the evidence the verdict's reasons give (then cites)."""
    got = [line for r in v.reasons for line in r.evidence]
    missing = [line for line in chk.get("evidence") or [] if line not in got]
    if missing:
        return False, f"expected the evidence {missing} among {got}"
    return _expect_cites(chk, v)


CITED_CARD = re.compile(r'card text of "([^"]*)"')


def _expect_cites(chk: dict, v) -> tuple[bool, str]:
    """cites: the cards whose text the verdict's reasons cite (`card text of "Name"` in their sources)
    are exactly these."""
    if chk.get("cites") is None:
        return True, ""
    got = sorted({n for r in v.reasons for n in CITED_CARD.findall(r.source)})
    return got == sorted(chk["cites"]), f"expected the reasons to cite the text of {sorted(chk['cites'])}, got {got}"


# The checks by kind (case_checks): the first two expect input to be rejected; the others expect
# judgements, and a rejected input fails them.
_EXPECT_INVALID = {"invalid": _expect_invalid, "invalid_action": _expect_invalid_action}
_JUDGED = {"replay": _expect_replay, "unmodelled": _expect_unmodelled, "legal": _expect_legal,
           "next": lambda engine, case, spec, snap, rd: _expect_next(engine, case, spec, snap, rd)}


# ---- next: successors asserted field by field ------------------------------------------------
def _expect_next(engine, case: dict, spec: dict, snap: dict, case_readings: dict) -> tuple[bool, str]:
    """next: each step's action is done on the successor of the step before (the first on the case's
    snapshot); a step with permitted: false must be forbidden (with `reasons` among its reasons) and
    ends the sequence; a step's `expect` is compared field by field (successor_mismatches)."""
    for n, step in enumerate(spec["steps"], start=1):
        r = engine.next(snap, step["action"], _readings(case.get("readings"), step.get("readings")))
        where = f"step {n} ({step['action']})"
        want = step.get("permitted", True)
        if r.permitted is not bool(want):
            return False, f"{where}: expected {'permitted' if want else 'forbidden'}, got " + \
                ("permitted" if r.permitted else f"forbidden {[x.rule for x in r.verdict.reasons]}")
        if not r.permitted:
            missing = [x for x in step.get("reasons") or [] if x not in [y.rule for y in r.verdict.reasons]]
            return (not missing), f"{where}: expected reasons {missing}" if missing else ""
        wrong = successor_mismatches(snap, r, step.get("expect") or {})
        if wrong:
            return False, f"{where}: " + "; ".join(wrong)
        snap = r.snapshot
    return True, ""


def _places(snap: dict) -> dict[str, tuple[str, dict]]:
    """card id -> ("P.zone", entry) in a snapshot."""
    out: dict[str, tuple[str, dict]] = {}
    for p, side in (snap.get("players") or {}).items():
        for zone, items in (side or {}).items():
            for e in [items] if isinstance(items, dict) else items if isinstance(items, list) else ():
                if isinstance(e, dict):
                    out[e["id"]] = (f"{p}.{zone}", e)
    return out


def _side_value(snap: dict, key: str, player: str, default: int) -> Any:
    return ((snap.get("players") or {}).get(player) or {}).get(key, default)


_WHO_DEFAULTS = {"window": "open", "passed": False, "attack": None, "chain": [], "winner": None, "moving_to": None,
                 "effects": []}


def _card_name(card: Any) -> Any:
    """The name of a snapshot entry's card: a name, or an inline card's `name`."""
    return card.get("name") if isinstance(card, dict) else card


def _zone_ids(snap: dict, where: str) -> list[str]:
    """The ids of a zone list ("A.graveyard"), in the snapshot's order (a single entry as a list of one)."""
    player, _, zone = str(where).partition(".")
    items = ((snap.get("players") or {}).get(player) or {}).get(zone) or []
    return [str(e.get("id")) for e in ([items] if isinstance(items, dict) else items) if isinstance(e, dict)]


def successor_mismatches(before: dict, r, expect: dict) -> list[str]:
    """What of `expect` the successor r (Engine.next) does not show: zones (id -> "P.zone"), lists ("P.zone" -> its
    ids in order), positions and
    faces (id -> word), cards (id -> the card's name), equipped (Equip Card id -> the monster's id, or None), life and deck (player -> number), events (the ones this step appended, in full),
    this_turn (the successor's whole this_turn, in full), the top-level keys (absent: their defaults; priority: the
    turn player; effects: the applied effects in full), unresolved and unmodelled ids."""
    after = r.snapshot
    places = _places(after)
    got: dict[str, Any] = {
        "zones": {i: places[i][0] if i in places else None for i in expect.get("zones") or {}},
        "lists": {z: _zone_ids(after, z) for z in expect.get("lists") or {}},
        "positions": {i: places.get(i, ("", {}))[1].get("position") for i in expect.get("positions") or {}},
        "faces": {i: places.get(i, ("", {}))[1].get("face") for i in expect.get("faces") or {}},
        "cards": {i: _card_name(places.get(i, ("", {}))[1].get("card")) for i in expect.get("cards") or {}},
        "equipped": {i: places.get(i, ("", {}))[1].get("equipped_to") for i in expect.get("equipped") or {}},
        "life": {p: _side_value(after, "life", p, 8000) for p in expect.get("life") or {}},
        "deck": {p: _side_value(after, "deck", p, 30) for p in expect.get("deck") or {}},
        "events": (after.get("this_turn") or [])[len(before.get("this_turn") or []):]
        if after.get("turn") == before.get("turn", 3) else after.get("this_turn") or [],
        "this_turn": after.get("this_turn") or [],
        "priority": after.get("priority", after.get("turn_player", "A")),
        "unresolved": list(r.unresolved), "unmodelled": [u.id for u in r.unmodelled]}
    for key in ("phase", "battle_step", "turn", "turn_player"):
        got[key] = after.get(key)
    for key, default in _WHO_DEFAULTS.items():
        got[key] = after.get(key, default)
    return [f"{key}: expected {want!r}, got {got[key]!r}" for key, want in expect.items() if got[key] != want]


def run_file(engine, path: str | Path, pattern: str | None = None) -> Iterator[Outcome]:
    path = Path(path)
    for case in load_cases(path):
        if pattern and pattern.lower() not in case["name"].lower():
            continue
        for label, spec in case_checks(case):
            try:
                ok, msg = run_check(engine, case, spec)
            except Exception as e:   # a broken case file must not stop the run
                ok, msg = False, f"{type(e).__name__}: {e}"
            yield Outcome(str(path), case["name"], label, ok, "" if ok else msg)


def case_files(paths: list[str | Path]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out += sorted(list(p.rglob("*.yaml")) + list(p.rglob("*.yml")))
        else:
            out.append(p)
    return out
