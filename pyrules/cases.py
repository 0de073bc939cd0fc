"""Ruling cases: YAML files of named situations with expected verdicts.

The project's own ruling suite (tests/cases/*.yaml), `pyrules test` and the pytest
plugin all run cases through `run_case`.  The format extends the contract's worked
examples (../shared/spec/examples):

    - name: a sentence saying what the case shows
      source: battle-position-changes, Exception #3     # the passage it checks
      snapshot: {...}          # merged over DEFAULTS below
      readings: {name: value}  # optional: as --reading, for every check of the case
      checks:
        - action: "flip_summon(bug)"         # term form or JSON object
          permitted: true
        - action: "change_position(bug,defense)"
          permitted: false
          reasons: [already_changed_this_turn]   # optional: ids that must be among the reasons
          notes: {materials_go_to: banished}     # optional: derived facts the verdict must report
          readings: {position_change_limit: any_change}   # optional, per check
      replay: true             # optional: `legal` must report this replay flag
      unmodelled: [ceal]       # optional: `legal` and every check must list exactly these ids as unmodelled
      legal:                   # optional: what `legal` must (not) list
        includes: ["flip_summon(bug)"]
        excludes: ["normal_summon(skull,[])"]
        count: 3
      invalid: true            # optional: the snapshot must be rejected
      problems: ["players.B.monsters"]   # optional: substrings the problems must contain
      invalid_action: "flip_summon(nobody)"   # optional: this action must be rejected
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from .actions import parse_action
from .cards import load_yaml
from .limits import read_file
from .errors import InvalidInput

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
    data = load_yaml(read_file(path, None, str(path)), str(path))
    if not isinstance(data, list):
        raise InvalidInput([])
    return data


CASE_KEYS = {"name", "source", "snapshot", "readings", "checks", "replay", "legal", "invalid", "problems",
             "invalid_action", "note", "cards", "unmodelled"}


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
    """legal: the permitted actions include and exclude these, and number `count`."""
    want = case["legal"]
    terms = [a.term() for a in engine.legal(snap, case_readings).permitted]
    problems = [f"missing {t}" for t in want.get("includes") or [] if parse_action(t).term() not in terms]
    problems += [f"unexpected {t}" for t in want.get("excludes") or [] if parse_action(t).term() in terms]
    if "count" in want and len(terms) != want["count"]:
        problems.append(f"expected {want['count']} permitted actions, got {len(terms)}")
    return not problems, "; ".join(problems) + f" (permitted: {', '.join(terms)})"


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
    notes = dict(v.notes)
    wrong = {k: notes.get(k) for k, want_v in (chk.get("notes") or {}).items() if notes.get(k) != str(want_v)}
    if wrong:
        return False, f"expected notes {chk['notes']}, got {notes}"
    return True, ""


# The checks by kind (case_checks): the first two expect input to be rejected; the others expect
# judgements, and a rejected input fails them.
_EXPECT_INVALID = {"invalid": _expect_invalid, "invalid_action": _expect_invalid_action}
_JUDGED = {"replay": _expect_replay, "unmodelled": _expect_unmodelled, "legal": _expect_legal}


def run_file(engine, path: str | Path, pattern: str | None = None) -> Iterator[Outcome]:
    path = Path(path)
    for case in load_cases(path):
        if pattern and pattern.lower() not in case.get("name", "").lower():
            continue
        for label, spec in case_checks(case):
            try:
                ok, msg = run_check(engine, case, spec)
            except Exception as e:   # a broken case file must not stop the run
                ok, msg = False, f"{type(e).__name__}: {e}"
            yield Outcome(str(path), case.get("name", "?"), label, ok, "" if ok else msg)


def case_files(paths: list[str | Path]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out += sorted(list(p.rglob("*.yaml")) + list(p.rglob("*.yml")))
        else:
            out.append(p)
    return out
