"""`pyrules lint`: checks of the rules folder a rules designer edits.

Every finding names a file and a line.  The checks:
  parse        every .lp file parses (clingo's own parser and message)
  unsafe       no unsafe variables (clingo reports them when grounding)
  source       every rule block cites a rulings document: a `% Source:` line above it,
               in the same paragraph, naming a known source (rules/catalogue/sources.lp)
  reason       every reason id in a forbidden/3 head (or relayed to one, reason_sites) has
               reason(Id, Text, Source) with text and a known source; no catalogue entry
               is unused
  problem      the same for invalid/2 and problem/2
  vocabulary   every predicate used is documented exactly once in rules/vocabulary.lp
  undefined    every predicate used in a body is defined by a rule or declared #defined
  unused       no predicate is defined but never used (outputs: vocabulary's Output
               section and #show count as used)
  effect       every effect kind, filter and condition declared in rules/effects.yaml is
               read by a rule, and every one a rule reads is declared (pyrules.effects)
  reading      each reading has a default among its values, a question and a source;
               each value a source and a file readings/NAME/VALUE.lp whose rules are
               guarded by reading(NAME,VALUE); no file without a catalogue value

The rules are read with clingo's AST (clingo.ast.parse_files); comments (citations,
vocabulary) are read line by line since the AST has none.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import clingo
import clingo.ast as ast
from clingo.ast import ASTType

import yaml

from .astwalk import Sig, atoms, head_body, term_atoms
from .effects import DECLARATION, EFFECT_READERS, load_vocabulary
from .engine import program_files


@dataclass(frozen=True, order=True)
class Finding:
    file: str
    line: int
    check: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: [{self.check}] {self.message}"


@dataclass
class Rule:
    """One rule statement of a rules file, with the citation of its block."""
    file: Path
    line: int
    heads: list[tuple[Sig, Any]]      # (signature, the head atom's Function AST)
    body: list[Sig]
    source: str | None                # the text after "% Source:" of its block
    source_line: int | None
    says: str | None                  # the comment line under the Source line
    text: str
    positive: list[tuple[Sig, Any]] = field(default_factory=list)   # positive body atoms
    body_atoms: list[tuple[Sig, Any]] = field(default_factory=list)  # every body atom, with its term


@dataclass
class Program:
    """What lint and explain need to know about a rules folder."""
    folder: Path
    rules: list[Rule] = field(default_factory=list)
    defined: dict[Sig, tuple[Path, int]] = field(default_factory=dict)   # sig -> first head location
    used: dict[Sig, tuple[Path, int]] = field(default_factory=dict)      # sig -> first body location
    declared: dict[Sig, tuple[Path, int]] = field(default_factory=dict)  # #defined
    shown: set[Sig] = field(default_factory=set)
    findings: list[Finding] = field(default_factory=list)


# ---- comments: citations ------------------------------------------------------------
SOURCE_RE = re.compile(r"^\s*%\s*Source:\s*(.*\S)\s*$")


def block_citation(lines: list[str], line: int) -> tuple[str | None, int | None, str | None]:
    """The nearest `% Source:` line above `line` (1-based) in the same paragraph, and the
    comment line under it.  A blank line ends the paragraph."""
    i = line - 2
    while i >= 0 and lines[i].strip():
        m = SOURCE_RE.match(lines[i])
        if m:
            text = m.group(1)
            j = i + 1       # a citation may run on over more comment lines ending in ';'
            while text.endswith(";") and j < len(lines) and lines[j].lstrip().startswith("%"):
                text += " " + lines[j].lstrip()[1:].strip()
                j += 1
            says = lines[j].lstrip()[1:].strip() if j < len(lines) and lines[j].lstrip().startswith("%") else None
            return text, i + 1, says
        i -= 1
    return None, None, None


def known_sources(folder: Path) -> dict[str, str]:
    """source_document(Stem, What) facts of rules/catalogue/sources.lp."""
    out: dict[str, str] = {}
    path = folder / "catalogue" / "sources.lp"
    if not path.is_file():
        return out
    ctl = clingo.Control(["--warn=none"])
    ctl.load(str(path))
    ctl.ground([("base", [])])
    for a in ctl.symbolic_atoms.by_signature("source_document", 2):
        out[a.symbol.arguments[0].string] = a.symbol.arguments[1].string
    return out


_STEM_SHAPE = re.compile(r"^([a-z][a-z0-9]*(?:-[a-z0-9]+)+)\s*[,:(]?")
GENERIC = ("official rules", "CONTRACT", "card text of \"")    # a card's own text is a source


def citation_problem(text: str, sources: dict[str, str]) -> str | None:
    """Why a citation does not name a known source, or None."""
    parts = [p.strip() for p in text.split(";") if p.strip()]
    if not parts:
        return "the Source line is empty"
    first = parts[0]
    if not (any(first.startswith(g) for g in GENERIC) or _stem_of(first) in sources):
        return f"cites {first[:60]!r}: not a rulings document stem ({', '.join(sorted(sources))}), " \
               f"'official rules: ...', 'CONTRACT ...' or 'card text of \"NAME\"'"
    for p in parts[1:]:
        m = _STEM_SHAPE.match(p)
        if m and m.group(1) not in sources and not any(p.startswith(g) for g in GENERIC):
            return f"cites {m.group(1)!r}: not a rulings document stem"
    return None


def _stem_of(text: str) -> str | None:
    m = _STEM_SHAPE.match(text)
    return m.group(1) if m else None


# ---- reading a rules folder ----------------------------------------------------------
def rel(path: Path, folder: Path) -> str:
    try:
        return str(path.relative_to(folder.parent))
    except ValueError:
        return str(path)


_LOC_RE = re.compile(r"^(?P<file>[^\n]*?):(?P<line>\d+):(?P<col>\d+)(?:-\d+(?::\d+)?)?: (?P<msg>.*)$", re.S)


def _clingo_findings(messages: list[str], check: str, folder: Path) -> list[Finding]:
    out = []
    for m in messages:
        first, *rest = m.strip().split("\n")
        loc = _LOC_RE.match(first)
        detail = " ".join(x.strip() for x in rest if x.strip() and "note:" not in x)
        notes = [x.split("note:", 1)[1].strip() for x in rest if "note:" in x]
        if loc:
            msg = loc.group("msg") + (f" {detail}" if detail else "") + (f" ({'; '.join(notes)})" if notes else "")
            out.append(Finding(rel(Path(loc.group("file")), folder), int(loc.group("line")), check, msg))
        else:
            out.append(Finding(str(folder), 0, check, m.strip()))
    return out


def read_program(folder: Path) -> Program:
    """Parse every rules file (catalogue apart) with clingo's AST."""
    prog = Program(folder)
    for path in program_files(folder):
        lines = path.read_text(encoding="utf-8").splitlines()
        messages: list[str] = []
        stmts: list[Any] = []
        try:
            ast.parse_files([str(path)], stmts.append, logger=lambda code, msg: messages.append(msg))
        except RuntimeError:
            prog.findings += _clingo_findings(messages, "parse", folder) or \
                [Finding(rel(path, folder), 0, "parse", "cannot parse")]
            continue
        for st in stmts:
            line = st.location.begin.line
            if st.ast_type == ASTType.Rule:
                heads, used = head_body(st)
                body = sorted(used)
                source, sline, says = block_citation(lines, line)
                positive = [a for b in st.body if b.ast_type == ASTType.Literal and b.sign == ast.Sign.NoSign
                            for a in atoms(b)]
                prog.rules.append(Rule(path, line, heads, body, source, sline, says, str(st), positive,
                                       [a for b in st.body for a in atoms(b)]))
                for s, _ in heads:
                    prog.defined.setdefault(s, (path, line))
                for s in body:
                    prog.used.setdefault(s, (path, line))
            elif st.ast_type == ASTType.Defined:
                prog.declared.setdefault((st.name, st.arity), (path, line))
            elif st.ast_type == ASTType.ShowSignature:
                prog.shown.add((st.name, st.arity))
            elif st.ast_type == ASTType.ShowTerm:
                for b in st.body:
                    for s, _ in atoms(b):
                        prog.used.setdefault(s, (path, line))
                prog.shown |= {sig for sig, _ in term_atoms(st.term)}
            elif st.ast_type in (ASTType.External,):
                for s, _ in atoms(st.atom):
                    prog.declared.setdefault(s, (path, line))
    return prog


# ---- the vocabulary ---------------------------------------------------------------------
_DOC_ENTRY = re.compile(r"^% (?! )(?P<sigs>[a-z_][A-Za-z0-9_]*(?:\([^)]*(?:\([^)]*\)[^)]*)*\))?"
                        r"(?:,\s*[a-z_][A-Za-z0-9_]*(?:\([^)]*\))?)*)(?:(?<=\))\s+\S|\s{2,}\S|\s*$)")
_ONE_SIG = re.compile(r"([a-z_][A-Za-z0-9_]*)(\(([^()]*(?:\([^()]*\)[^()]*)*)\))?")


def _arity(args: str | None) -> int:
    if args is None or not args.strip():
        return 0
    depth, n = 0, 1
    for ch in args:
        depth += ch in "(["
        depth -= ch in ")]"
        n += ch == "," and depth == 0
    return n


def vocabulary(folder: Path) -> tuple[dict[Sig, list[int]], set[Sig]]:
    """Documented signatures of rules/vocabulary.lp (with their lines) and those of its
    Output section."""
    path = folder / "vocabulary.lp"
    docs: dict[Sig, list[int]] = {}
    outputs: set[Sig] = set()
    if not path.is_file():
        return docs, outputs
    section = None
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("% ----"):
            section = line.strip("-% ").lower()
            continue
        if section is None:
            continue
        m = _DOC_ENTRY.match(line)
        if not m:
            continue
        for name, _, args in _ONE_SIG.findall(m.group("sigs")):
            sig = (name, _arity(args if _ else None))
            docs.setdefault(sig, []).append(n)
            if section.startswith("output"):
                outputs.add(sig)
    return docs, outputs


# ---- the catalogue --------------------------------------------------------------------
def catalogue_facts(folder: Path, name: str, arity: int) -> list[tuple[Path, int, list[Any]]]:
    """(file, line, argument ASTs) of each fact name(...)/arity in rules/catalogue/*.lp."""
    out = []
    for path in sorted((folder / "catalogue").glob("*.lp")):
        stmts: list[Any] = []
        try:
            ast.parse_files([str(path)], stmts.append, logger=lambda c, m: None)
        except RuntimeError:
            continue
        for st in stmts:
            if st.ast_type == ASTType.Rule and st.head.ast_type == ASTType.Literal:
                for sig, fn in atoms(st.head):
                    if sig == (name, arity) and fn.ast_type == ASTType.Function:
                        out.append((path, st.location.begin.line, list(fn.arguments)))
    return out


def _const(term: Any) -> str | None:
    if term.ast_type == ASTType.SymbolicTerm:
        s = term.symbol
        if s.type == clingo.SymbolType.Function and not s.arguments:
            return s.name
        if s.type == clingo.SymbolType.String:
            return s.string
        if s.type == clingo.SymbolType.Number:
            return str(s.number)
    if term.ast_type == ASTType.Function and not term.arguments:
        return term.name
    return None


@dataclass
class ReasonSite:
    """A rule that gives a reason: its head, and there the action and the evidence terms."""
    rule: Rule
    head: Any                 # the head atom (Function AST)
    action: Any | None        # the action term of a forbidden/3 head; None when relayed
    evidence: Any             # the evidence term
    relay: Rule | None        # the forbidden/3 rule that passes the reason on, if any


def reason_sites(prog: Program) -> dict[str, list[ReasonSite]]:
    """Reason id -> every rule that gives it: the forbidden(Action, Id, Evidence) heads, and,
    where a forbidden/3 rule relays a reason from a body atom (forbidden(A,R,E) :- ...,
    p(..., R, ..., E)), the heads of p with the id as a constant in R's place (summons.lp
    judges a Normal Summon and a Set of the same monster and Tributes once, that way)."""
    out: dict[str, list[ReasonSite]] = {}
    for r in prog.rules:
        for s, fn in r.heads:
            if s != ("forbidden", 3) or fn.ast_type != ASTType.Function:
                continue
            action, reason, evidence = fn.arguments
            c = _const(reason)
            if c is not None:
                out.setdefault(c, []).append(ReasonSite(r, fn, action, evidence, None))
                continue
            if reason.ast_type != ASTType.Variable:
                continue
            for bsig, bfn in r.positive:
                if bfn.ast_type != ASTType.Function:
                    continue
                names = [a.name if a.ast_type == ASTType.Variable else None for a in bfn.arguments]
                if reason.name not in names:
                    continue
                at = names.index(reason.name)
                ev_at = names.index(evidence.name) if (evidence.ast_type == ASTType.Variable
                                                       and evidence.name in names) else None
                for r2 in prog.rules:
                    for s2, fn2 in r2.heads:
                        if s2 == bsig and fn2.ast_type == ASTType.Function:
                            c2 = _const(fn2.arguments[at])
                            if c2 is not None:
                                ev2 = fn2.arguments[ev_at] if ev_at is not None else evidence
                                out.setdefault(c2, []).append(ReasonSite(r2, fn2, None, ev2, r))
    return out


def head_constants(prog: Program, sig: Sig, pos: int) -> dict[str, list[Rule]]:
    """Constant values of argument `pos` of head atoms with signature `sig` -> their rules."""
    out: dict[str, list[Rule]] = {}
    for r in prog.rules:
        for s, fn in r.heads:
            if s == sig and fn.ast_type == ASTType.Function:
                c = _const(fn.arguments[pos])
                if c is not None:
                    out.setdefault(c, []).append(r)
    return out


# ---- the checks --------------------------------------------------------------------------
def lint(folder: str | Path) -> list[Finding]:
    folder = Path(folder)
    if not folder.is_dir():
        return [Finding(str(folder), 0, "parse", "no such rules folder")]
    prog = read_program(folder)
    findings = list(prog.findings)
    for path in sorted((folder / "catalogue").glob("*.lp")):
        messages: list[str] = []
        try:
            ast.parse_files([str(path)], lambda st: None, logger=lambda code, msg: messages.append(msg))
        except RuntimeError:
            findings += _clingo_findings(messages, "parse", folder) or [Finding(rel(path, folder), 0, "parse",
                                                                                "cannot parse")]
    if findings:                       # a file that does not parse: the other checks would mislead
        return sorted(findings)
    findings += check_grounding(folder)
    sources = known_sources(folder)
    if not sources:
        findings.append(Finding(rel(folder / "catalogue" / "sources.lp", folder), 0, "source",
                                "no source_document(Stem, What) facts: the known rulings documents"))
    findings += check_citations(prog, sources)
    findings += check_catalogue(prog, folder, sources, ("forbidden", 3), 1, "reason", 3, "reason",
                                used={k: [x.rule for x in v] for k, v in reason_sites(prog).items()})
    findings += check_catalogue(prog, folder, sources, ("invalid", 2), 0, "problem", 2, "problem")
    findings += check_vocabulary(prog, folder)
    findings += check_readings(prog, folder, sources)
    findings += check_effects(prog, folder)
    return sorted(set(findings))


def check_grounding(folder: Path) -> list[Finding]:
    """Unsafe variables and other grounding errors, as clingo reports them."""
    messages: list[str] = []
    ctl = clingo.Control(["--warn=none"], logger=lambda code, msg: messages.append(msg))
    try:
        for path in program_files(folder):
            ctl.load(str(path))
        ctl.ground([("base", [])])
    except RuntimeError:
        return _clingo_findings(messages, "unsafe", folder) or [Finding(str(folder), 0, "unsafe", "grounding failed")]
    return []


def check_citations(prog: Program, sources: dict[str, str]) -> list[Finding]:
    out = []
    seen: set[int] = set()
    for r in prog.rules:
        f = rel(r.file, prog.folder)
        if r.source is None:
            out.append(Finding(f, r.line, "source", "rule without a '% Source:' citation in its block"))
            continue
        key = hash((f, r.source_line))
        if key in seen:
            continue
        seen.add(key)
        problem = citation_problem(r.source, sources)
        if problem:
            out.append(Finding(f, r.source_line or r.line, "source", problem))
        if not r.says:
            out.append(Finding(f, r.source_line or r.line, "source",
                               "the Source line needs a comment line under it saying what the block encodes"))
    return out


def check_catalogue(prog: Program, folder: Path, sources: dict[str, str], head: Sig, pos: int,
                    name: str, arity: int, check: str, used: dict[str, list[Rule]] | None = None) -> list[Finding]:
    """Every id catalogued (name/arity facts) is given by a rule, and every id given is
    catalogued; `used` (id -> rules), when given, replaces the constants of head/pos."""
    out = []
    if used is None:
        used = head_constants(prog, head, pos)
    entries: dict[str, tuple[Path, int, list[Any]]] = {}
    for path, line, args in catalogue_facts(folder, name, arity):
        ident = _const(args[0])
        f = rel(path, folder)
        if ident is None:
            out.append(Finding(f, line, check, f"{name}/{arity}: the id must be a constant"))
            continue
        if ident in entries:
            out.append(Finding(f, line, check, f"{ident}: catalogued twice (also line {entries[ident][1]})"))
        entries[ident] = (path, line, args)
        texts = [_const(a) for a in args[1:]]
        if any(not t for t in texts):
            out.append(Finding(f, line, check, f"{ident}: text and source must be non-empty strings"))
        if arity == 3 and texts[-1]:
            problem = citation_problem(texts[-1], sources)
            if problem:
                out.append(Finding(f, line, check, f"{ident}: {problem}"))
        if ident not in used:
            out.append(Finding(f, line, check, f"{ident}: catalogued but no {head[0]}/{head[1]} rule gives it"))
    for ident, rules in sorted(used.items()):
        if ident not in entries:
            r = rules[0]
            out.append(Finding(rel(r.file, folder), r.line, check,
                               f"{ident}: no {name}({ident}, ...) entry in rules/catalogue"))
    return out


def check_vocabulary(prog: Program, folder: Path) -> list[Finding]:
    out = []
    docs, outputs = vocabulary(folder)
    vocab = rel(folder / "vocabulary.lp", folder)
    everything = {**prog.declared, **prog.used, **prog.defined}
    for sig, (path, line) in sorted(everything.items()):
        n = len(docs.get(sig, []))
        if n == 0:
            out.append(Finding(rel(path, folder), line, "vocabulary",
                               f"{sig[0]}/{sig[1]} is not documented in vocabulary.lp"))
    for sig, lines in sorted(docs.items()):
        if len(lines) > 1:
            out.append(Finding(vocab, lines[1], "vocabulary",
                               f"{sig[0]}/{sig[1]} is documented {len(lines)} times (lines {', '.join(map(str, lines))})"))
    for sig, (path, line) in sorted(prog.used.items()):
        if sig not in prog.defined and sig not in prog.declared:
            out.append(Finding(rel(path, folder), line, "undefined",
                               f"{sig[0]}/{sig[1]} is used but no rule defines it and it is not #defined"))
    for sig, (path, line) in sorted(prog.defined.items()):
        if sig not in prog.used and sig not in outputs and sig not in prog.shown:
            out.append(Finding(rel(path, folder), line, "unused",
                               f"{sig[0]}/{sig[1]} is defined but never used (nor an output)"))
    return out


def check_readings(prog: Program, folder: Path, sources: dict[str, str]) -> list[Finding]:
    out = []
    readings = {_const(a[0]): (p, l, a) for p, l, a in catalogue_facts(folder, "reading", 4)}
    values: dict[str, dict[str, tuple[Path, int, list[Any]]]] = {}
    for p, l, a in catalogue_facts(folder, "reading_value", 3):
        values.setdefault(_const(a[0]), {})[_const(a[1])] = (p, l, a)
    for name, (p, l, a) in sorted(readings.items()):
        f = rel(p, folder)
        default, question, source = (_const(x) for x in a[1:])
        if not question or not source:
            out.append(Finding(f, l, "reading", f"{name}: needs a question and a source"))
        elif citation_problem(source, sources):
            out.append(Finding(f, l, "reading", f"{name}: {citation_problem(source, sources)}"))
        if default not in values.get(name, {}):
            out.append(Finding(f, l, "reading", f"{name}: its default {default!r} is not one of its reading_value entries"))
        for value, (vp, vl, va) in sorted(values.get(name, {}).items()):
            vf = rel(vp, folder)
            vsource = _const(va[2])
            if not vsource:
                out.append(Finding(vf, vl, "reading", f"{name}={value}: needs a source"))
            elif citation_problem(vsource, sources):
                out.append(Finding(vf, vl, "reading", f"{name}={value}: {citation_problem(vsource, sources)}"))
            if not (folder / "readings" / name / f"{value}.lp").is_file():
                out.append(Finding(vf, vl, "reading", f"{name}={value}: no file readings/{name}/{value}.lp"))
    for name in sorted(set(values) - set(readings)):
        p, l, _ = next(iter(values[name].values()))
        out.append(Finding(rel(p, folder), l, "reading", f"{name}: reading_value without a reading/4 entry"))
    rdir = folder / "readings"
    for path in sorted(rdir.glob("*/*.lp")) if rdir.is_dir() else ():
        name, value = path.parent.name, path.stem
        if value not in values.get(name, {}):
            out.append(Finding(rel(path, folder), 1, "reading",
                               f"no reading_value({name}, {value}, ...) in the catalogue for this file"))
    for r in prog.rules:
        try:
            parts = r.file.relative_to(rdir).parts
        except ValueError:
            continue
        if len(parts) == 2:
            name, value = parts[0], Path(parts[1]).stem
            guard = f"reading({name},{value})"
            if guard not in r.text.replace(" ", ""):
                out.append(Finding(rel(r.file, folder), r.line, "reading", f"rule not guarded by {guard}"))
    return out


# ---- the effect vocabulary ----------------------------------------------------------------
# where the rules read a declared word: (predicate, arity) -> (argument position, which list)
EFFECT_WORD_READERS: dict[Sig, tuple[int, str]] = {
    **{sig: (pos, "kinds") for sig, pos in EFFECT_READERS.items()},
    ("effect_to", 3): (2, "filters"), ("effect_while", 3): (2, "conditions"),
}
# filter words the encoder always writes: the side (or players) a continuous entry covers
_IMPLIED_FILTERS = {"side", "player"}


def _functor(term: Any) -> str | None:
    """The name of a term's functor (a constant or a function), None for a variable."""
    if term.ast_type == ASTType.Function:
        return term.name
    if term.ast_type == ASTType.SymbolicTerm and term.symbol.type == clingo.SymbolType.Function:
        return term.symbol.name
    return None


def check_effects(prog: Program, folder: Path) -> list[Finding]:
    """Declared kinds, filters and conditions are read by some rule; the rules read no other."""
    path = folder / DECLARATION
    if not path.exists():
        return []
    try:
        voc = load_vocabulary(folder)
    except (OSError, KeyError, TypeError, AttributeError, yaml.YAMLError) as e:
        return [Finding(rel(path, folder), 0, "effect", f"cannot read the effect declarations: {e}")]
    declared = {"kinds": set(voc.kinds), "filters": set(voc.filters) | _IMPLIED_FILTERS,
                "conditions": set(voc.conditions)}
    read: dict[str, set[str]] = {k: set() for k in declared}
    out = []
    for rule in prog.rules:
        for sig, term in rule.body_atoms:
            where = EFFECT_WORD_READERS.get(sig)
            if where is None or term.ast_type != ASTType.Function:
                continue
            name = _functor(term.arguments[where[0]])
            if name is None:
                continue
            read[where[1]].add(name)
            if name not in declared[where[1]]:
                out.append(Finding(rel(rule.file, folder), rule.line, "effect",
                                   f"{sig[0]}/{sig[1]} reads {name!r}, which rules/effects.yaml does not declare "
                                   f"among its {where[1]}"))
    for what, names in declared.items():
        for name in sorted(names - read[what] - (_IMPLIED_FILTERS if what == "filters" else set())):
            out.append(Finding(rel(path, folder), 0, "effect",
                               f"{name!r} is declared among the {what} but no rule reads it"))
    return out
