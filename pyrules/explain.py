"""`pyrules explain`: the derivation behind a verdict, as sentences.

Built from Engine.check's output only (each reason with its evidence atoms) plus where
the rules give that reason, as the engine's rule base reads them (RuleBase.reason_sites:
the forbidden(Action, ReasonId, Evidence) heads, and the heads a forbidden/3 rule relays a
reason from), each with its file, line and the `% Source:` of its block.
No explanation framework: the evidence is already in the rules' own output.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from clingo.ast import ASTType

from .engine import Engine
from .results import Verdict
from .rulebase import Program, Rule, RuleBase, rel
from .sentences import ground_sentence


@dataclass
class Site:
    """Where a rule that gives a reason is."""
    file: str
    line: int
    source: str
    says: str
    exact: bool          # its head names the action (not a variable standing for it)


def _term_name(term: Any) -> str | None:
    """The name of a function or constant term; None for a variable (or anything else)."""
    if term.ast_type == ASTType.Function:
        return term.name
    if term.ast_type == ASTType.SymbolicTerm:
        return term.symbol.name
    return None


def _var(term: Any) -> str | None:
    return term.name if term.ast_type == ASTType.Variable else None


def action_names(prog: Program, sig: tuple[str, int], pos: int, depth: int = 0) -> set[str] | None:
    """The action names argument `pos` of predicate `sig` can hold, read from the heads that
    define it (following a variable into the body atom that binds it); None: any action."""
    if depth > 4 or sig == ("candidate", 1):
        return None
    names: set[str] | None = None       # no rule defines it (a given fact, `query/1`): any action
    for r in prog.rules:
        for s, fn in r.heads:
            if s != sig or fn.ast_type != ASTType.Function:
                continue
            names = names or set()
            arg = fn.arguments[pos]
            if arg.ast_type == ASTType.Function:
                names.add(arg.name)
                continue
            if arg.ast_type == ASTType.SymbolicTerm:
                names.add(arg.symbol.name)
                continue
            found = _binding(prog, r, _var(arg), depth)
            if found is None:
                return None
            names |= found
    return names


def _binding(prog: Program, rule: Rule, var: str | None, depth: int) -> set[str] | None:
    """Action names a variable can hold, from the first positive body atom that has it as an
    argument and whose rules say which (`query(A), ritual_play(A,...)`: ritual_play's)."""
    if var is None:
        return None
    for bsig, bfn in rule.positive:
        if bfn.ast_type != ASTType.Function:
            continue
        at = [j for j, a in enumerate(bfn.arguments) if _var(a) == var]
        got = action_names(prog, bsig, at[0], depth + 1) if at else None
        if got is not None:
            return got
    return None


def rule_sites(rules: RuleBase, reason: str, action: str, evidence_kinds: set[str]) -> list[Site]:
    """The rules that can give `reason` to `action`: those whose forbidden/3 head names the
    action if there are any, else those with a variable for it (or that a forbidden/3 rule
    relays, RuleBase.reason_sites) and that can stand for it; same evidence kind."""
    prog = rules.program()
    exact: list[Site] = []
    loose: list[Site] = []
    for site in rules.reason_sites().get(reason, []):
        kind = _term_name(site.evidence) or "?"
        if kind not in (evidence_kinds or {"none"}) and kind != "?":
            continue
        r = site.rule
        name = _term_name(site.action) if site.action is not None else None
        found = Site(rel(r.file, prog.folder), r.line, r.source or "(no source)", r.says or "", name == action)
        if name == action:
            exact.append(found)
        elif name is None:
            holder = site.relay or r          # the forbidden/3 rule whose action variable it is
            head = next(fn for sig, fn in holder.heads if sig == ("forbidden", 3))
            named = _term_name(head.arguments[0])     # a relay that names its action relays for that one only
            could = {named} if named is not None else _binding(prog, holder, _var(head.arguments[0]), 0)
            if could is None or action in could:
                loose.append(found)
    return exact or loose


def explain(engine: Engine, snapshot: Any, action: Any, readings: dict[str, str] | None = None,
            rules: RuleBase | None = None) -> tuple[Verdict, list[str]]:
    """The verdict and the sentences that explain it (`rules`: where the rules that fire are
    read; default: the engine's rule base)."""
    game = engine.game(snapshot, readings)
    verdict = engine.check(game.raw, action, readings)
    rules = rules or engine.rulebase
    term = verdict.action.term()
    lines: list[str] = []
    if verdict.permitted:
        lines.append(f"{term} is permitted: it is judged and no rule forbids it.")
        for key, value in verdict.notes:
            lines.append(f"  Note: {key.replace('_', ' ')}: {value}.")
        return verdict, lines
    lines.append(f"{term} is forbidden, for {len(verdict.reasons)} reason{'s' * (len(verdict.reasons) != 1)}.")
    for n, r in enumerate(verdict.reasons, start=1):
        lines.append("")
        lines.append(f"{n}. {r.text}  [{r.rule}]")
        kinds = {g.kind for g in r.grounds}
        if r.grounds:
            lines.append("   It rests on:")
            lines += [f"   - {ground_sentence(game, g)}" for g in r.grounds]
        else:
            lines.append("   It rests on the state of the game itself (phase, zones, positions), not on one event or card.")
        sites = rule_sites(rules, r.rule, verdict.action.action, kinds)
        if sites:
            lines.append("   The rule that fired" + (" (one of these)" if len(sites) > 1 else "") + ":")
            for s in sites:
                lines.append(f"   - {s.file}:{s.line}: {s.says}")
                lines.append(f"     Source: {s.source}")
        lines.append(f"   Reason text source: {r.source}")
    return verdict, lines
