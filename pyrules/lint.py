"""`pyrules lint`: checks of the rules folder a rules designer edits.

Every finding names a file and a line.  The checks:
  parse        every .lp file parses (clingo's own parser and message)
  unsafe       no unsafe variables (clingo reports them when grounding)
  source       every rule block cites a rulings document: a `% Source:` line above it,
               in the same paragraph, naming a known source (rules/catalogue/sources.lp)
               as `stem: section`, and (when the rulings documents are found beside the
               rules, find_rulings) the section heading or passage is in that document
  reason       every reason id in a forbidden/3 head (or relayed to one, reason_sites) has
               reason(Id, Text, Source) with text and a known source; no catalogue entry
               is unused
  problem      the same for invalid/2 and problem/2
  vocabulary   every predicate used or shown is documented exactly once in rules/vocabulary.lp
  output       every #show is in output.lp
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
from typing import Any, Iterator

import clingo
import clingo.ast as ast
from clingo.ast import ASTType

from .astwalk import Sig, atoms, head_body, term_atoms, variable_counts
from .effects import DECLARATION, EFFECT_READERS, load_vocabulary
from .engine import program_files
from .errors import InvalidInput
from .limits import read_file
from .solver import atoms_of

Fact = tuple[Path, int, list[Any]]        # a catalogue fact: file, line, argument ASTs


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
    part: str = "base"                # the #program part it belongs to (card: see check_card_part)


@dataclass
class Program:
    """What lint and explain need to know about a rules folder."""
    folder: Path
    rules: list[Rule] = field(default_factory=list)
    defined: dict[Sig, tuple[Path, int]] = field(default_factory=dict)   # sig -> first head location
    used: dict[Sig, tuple[Path, int]] = field(default_factory=dict)      # sig -> first body location
    declared: dict[Sig, tuple[Path, int]] = field(default_factory=dict)  # #defined
    shown: set[Sig] = field(default_factory=set)
    shows: dict[Sig, tuple[Path, int]] = field(default_factory=dict)        # sig -> first #show location
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


@dataclass
class Sources:
    """The rulings documents a citation may name: source_document(Stem, What) facts of
    rules/catalogue/sources.lp, and the text of each document when the documents are there
    (then a cited section heading must be in it)."""
    names: dict[str, str] = field(default_factory=dict)
    documents: dict[str, str] | None = None        # stem -> squashed text; None: not checked


def find_rulings(folder: Path) -> Path | None:
    """The rulings documents beside the rules: shared/rulings in the first folder above the
    rules folder that has one (a checkout has ../shared beside it; an installed package
    usually has none: then section headings are not checked)."""
    for up in Path(folder).resolve().parents:
        candidate = up / "shared" / "rulings"
        if candidate.is_dir():
            return candidate
    return None


def _squash(text: str) -> str:
    """Text compared without case, spaces or typographic quotes."""
    return re.sub(r"\s+", "", text.replace("\u2019", "'").replace("\u201c", '"').replace("\u201d", '"')).lower()


def known_sources(folder: Path, rulings: Path | None = None) -> Sources:
    """source_document(Stem, What) facts of rules/catalogue/sources.lp, and the documents'
    text from `rulings` (a folder of STEM.txt files) when given."""
    out = Sources()
    path = folder / "catalogue" / "sources.lp"
    if not path.is_file():
        return out
    for s in atoms_of(files=[path]):
        if s.name == "source_document" and len(s.arguments) == 2:
            out.names[s.arguments[0].string] = s.arguments[1].string
    if rulings is not None:
        out.documents = {stem: _squash(p.read_text(encoding="utf-8", errors="replace"))
                         for stem in out.names for p in [rulings / f"{stem}.txt"] if p.is_file()}
    return out


_STEM_SHAPE = re.compile(r"^([a-z][a-z0-9]*(?:-[a-z0-9]+)+)\s*([,:(]?)")
GENERIC = ("official rules", "CONTRACT", "card text of \"")    # a card's own text is a source


def _parts(text: str) -> list[str]:
    """A citation's parts: split at ';' outside parentheses."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if ch == ";" and depth <= 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    return [p.strip() for p in parts + [cur] if p.strip()]


def section_of(part: str) -> str | None:
    """The section heading (or passage label) a citation part names after 'stem: ': up to
    a parenthesis, and before ', ' (a step or an example inside the section)."""
    m = _STEM_SHAPE.match(part)
    if not m or m.group(2) != ":":
        return None
    rest = part[m.end():].split(" (", 1)[0].strip().rstrip(".")
    return rest.split(", ", 1)[0].strip() or None


def citation_problem(text: str, sources: Sources) -> str | None:
    """Why a citation does not name a known source as 'stem: section', or None."""
    parts = _parts(text)
    if not parts:
        return "the Source line is empty"
    first = parts[0]
    if not (any(first.startswith(g) for g in GENERIC) or _stem_of(first) in sources.names):
        return f"cites {first[:60]!r}: not a rulings document stem ({', '.join(sorted(sources.names))}), " \
               f"'official rules: ...', 'CONTRACT ...' or 'card text of \"NAME\"'"
    for p in parts:
        m = _STEM_SHAPE.match(p)
        if not m or any(p.startswith(g) for g in GENERIC):
            continue
        stem = m.group(1)
        if stem not in sources.names:
            return f"cites {stem!r}: not a rulings document stem"
        if m.group(2) != ":":
            return f"cites {p[:40]!r}: write 'stem: section' (a colon after the document's name)"
        section = section_of(p)
        doc = (sources.documents or {}).get(stem)
        if doc is not None and section and _squash(section) not in doc:
            return f"cites section {section!r}: no such heading or passage in {stem}.txt"
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
        try:
            lines = read_file(path, None, str(path)).splitlines()
        except InvalidInput as e:           # not UTF-8 text (a binary file): a finding, the rest is still read
            prog.findings.append(Finding(rel(path, folder), 0, "parse", e.problems[0].message))
            continue
        messages: list[str] = []
        stmts: list[Any] = []
        try:
            ast.parse_files([str(path)], stmts.append, logger=lambda code, msg: messages.append(msg))
        except RuntimeError:
            prog.findings += _clingo_findings(messages, "parse", folder) or \
                [Finding(rel(path, folder), 0, "parse", "cannot parse")]
            continue
        part = "base"
        for st in stmts:
            if st.ast_type == ASTType.Program:
                part = st.name
            _read_statement(prog, path, lines, st)
            if st.ast_type == ASTType.Rule:
                prog.rules[-1].part = part
    return prog


def _read_statement(prog: Program, path: Path, lines: list[str], st: Any) -> None:
    """What one statement defines, uses, declares and shows."""
    where = (path, st.location.begin.line)
    kind = st.ast_type
    if kind == ASTType.Rule:
        _read_rule(prog, path, lines, st)
    elif kind == ASTType.Defined:
        prog.declared.setdefault((st.name, st.arity), where)
    elif kind == ASTType.ShowSignature:
        prog.shown.add((st.name, st.arity))
        prog.shows.setdefault((st.name, st.arity), where)
    elif kind == ASTType.ShowTerm:
        for sig, _ in atoms(list(st.body)):
            prog.used.setdefault(sig, where)
        for sig, _ in term_atoms(st.term):
            prog.shown.add(sig)
            prog.shows.setdefault(sig, where)
    elif kind == ASTType.External:
        for sig, _ in atoms(st.atom):
            prog.declared.setdefault(sig, where)


def _read_rule(prog: Program, path: Path, lines: list[str], st: Any) -> None:
    line = st.location.begin.line
    heads, used = head_body(st)
    body = sorted(used)
    source, sline, says = block_citation(lines, line)
    positive = [a for b in st.body if b.ast_type == ASTType.Literal and b.sign == ast.Sign.NoSign
                for a in atoms(b)]
    prog.rules.append(Rule(path, line, heads, body, source, sline, says, str(st), positive,
                           [a for b in st.body for a in atoms(b)]))
    for sig, _ in heads:
        prog.defined.setdefault(sig, (path, line))
    for sig in body:
        prog.used.setdefault(sig, (path, line))


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
            elif reason.ast_type == ASTType.Variable:
                for rid, site in _relayed(prog, r, reason.name, evidence):
                    out.setdefault(rid, []).append(site)
    return out


def _relayed(prog: Program, relay: Rule, reason: str, evidence: Any) -> Iterator[tuple[str, ReasonSite]]:
    """(id, site) of each reason the forbidden/3 rule `relay` passes on from a positive body
    atom that binds its reason variable: the heads of that atom's predicate with a constant there."""
    for bsig, bfn in relay.positive:
        if bfn.ast_type != ASTType.Function:
            continue
        names = [a.name if a.ast_type == ASTType.Variable else None for a in bfn.arguments]
        if reason not in names:
            continue
        at = names.index(reason)
        ev_at = names.index(evidence.name) if (evidence.ast_type == ASTType.Variable
                                               and evidence.name in names) else None
        for r2 in prog.rules:
            for s2, fn2 in r2.heads:
                c2 = _const(fn2.arguments[at]) if s2 == bsig and fn2.ast_type == ASTType.Function else None
                if c2 is not None:
                    yield c2, ReasonSite(r2, fn2, None, fn2.arguments[ev_at] if ev_at is not None else evidence, relay)


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
def lint(folder: str | Path, rulings: str | Path | None = None) -> list[Finding]:
    """Every finding of the checks on a rules folder.  `rulings`: the folder of the rulings
    documents (default: find_rulings); cited section headings are checked only when found."""
    folder = Path(folder)
    rulings = Path(rulings) if rulings is not None else find_rulings(folder)
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
    sources = known_sources(folder, rulings)
    if not sources.names:
        findings.append(Finding(rel(folder / "catalogue" / "sources.lp", folder), 0, "source",
                                "no source_document(Stem, What) facts: the known rulings documents"))
    findings += check_citations(prog, sources)
    findings += check_catalogue(prog, folder, sources, ("forbidden", 3), 1, "reason", 3, "reason",
                                used={k: [x.rule for x in v] for k, v in reason_sites(prog).items()})
    findings += check_catalogue(prog, folder, sources, ("invalid", 2), 0, "problem", 2, "problem")
    findings += check_vocabulary(prog, folder)
    findings += check_readings(prog, folder, sources)
    findings += check_effects(prog, folder)
    findings += check_card_part(prog, folder)
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


def check_citations(prog: Program, sources: Sources) -> list[Finding]:
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


def check_catalogue(prog: Program, folder: Path, sources: Sources, head: Sig, pos: int,
                    name: str, arity: int, check: str, used: dict[str, list[Rule]] | None = None) -> list[Finding]:
    """Every id catalogued (name/arity facts) is given by a rule, and every id given is
    catalogued; `used` (id -> rules), when given, replaces the constants of head/pos."""
    out = []
    if used is None:
        used = head_constants(prog, head, pos)
    entries: dict[str, Fact] = {}
    for path, line, args in catalogue_facts(folder, name, arity):
        ident = _const(args[0])
        f = rel(path, folder)
        if ident is None:
            out.append(Finding(f, line, check, f"{name}/{arity}: the id must be a constant"))
            continue
        if ident in entries:
            out.append(Finding(f, line, check, f"{ident}: catalogued twice (also line {entries[ident][1]})"))
        entries[ident] = (path, line, args)
        out += [Finding(f, line, check, f"{ident}: {m}") for m in _entry_problems(args, arity, sources)]
        if ident not in used:
            out.append(Finding(f, line, check, f"{ident}: catalogued but no {head[0]}/{head[1]} rule gives it"))
    for ident, rules in sorted(used.items()):
        if ident not in entries:
            r = rules[0]
            out.append(Finding(rel(r.file, folder), r.line, check,
                               f"{ident}: no {name}({ident}, ...) entry in rules/catalogue"))
    return out


def _entry_problems(args: list[Any], arity: int, sources: Sources) -> list[str]:
    """What is wrong with a catalogue entry's text and source."""
    texts = [_const(a) for a in args[1:]]
    out = []
    if any(not t for t in texts):
        out.append("text and source must be non-empty strings")
    problem = citation_problem(texts[-1], sources) if arity == 3 and texts[-1] else None
    if problem:
        out.append(problem)
    return out


def check_vocabulary(prog: Program, folder: Path) -> list[Finding]:
    """Every predicate used, defined, declared or shown documented once; #show only in
    output.lp; nothing used but undefined or defined but unused."""
    out = []
    docs, outputs = vocabulary(folder)
    vocab = rel(folder / "vocabulary.lp", folder)
    everything = {**prog.shows, **prog.declared, **prog.used, **prog.defined}
    out += [Finding(rel(path, folder), line, "vocabulary", f"{sig[0]}/{sig[1]} is not documented in vocabulary.lp")
            for sig, (path, line) in sorted(everything.items()) if not docs.get(sig)]
    out += [Finding(vocab, lines[1], "vocabulary",
                    f"{sig[0]}/{sig[1]} is documented {len(lines)} times (lines {', '.join(map(str, lines))})")
            for sig, lines in sorted(docs.items()) if len(lines) > 1]
    out += [Finding(rel(path, folder), line, "output",
                    f"#show of {sig[0]}/{sig[1]} outside output.lp (what a query shows is said in one place)")
            for sig, (path, line) in sorted(prog.shows.items()) if path.name != "output.lp"]
    out += [Finding(rel(path, folder), line, "undefined",
                    f"{sig[0]}/{sig[1]} is used but no rule defines it and it is not #defined")
            for sig, (path, line) in sorted(prog.used.items()) if sig not in prog.defined and sig not in prog.declared]
    out += [Finding(rel(path, folder), line, "unused", f"{sig[0]}/{sig[1]} is defined but never used (nor an output)")
            for sig, (path, line) in sorted(prog.defined.items())
            if sig not in prog.used and sig not in outputs and sig not in prog.shown]
    return out


def check_readings(prog: Program, folder: Path, sources: Sources) -> list[Finding]:
    """Each reading complete (default, question, sources, one file per value), no stray
    value or file, every rule of a reading's file guarded by its reading."""
    readings = {_const(a[0]) or "?": (p, n, a) for p, n, a in catalogue_facts(folder, "reading", 4)}
    values: dict[str, dict[str, Fact]] = {}
    for p, n, a in catalogue_facts(folder, "reading_value", 3):
        values.setdefault(_const(a[0]) or "?", {})[_const(a[1]) or "?"] = (p, n, a)
    out = []
    for name, fact in sorted(readings.items()):
        out += _reading_entry(folder, sources, name, fact, values.get(name, {}))
    for name in sorted(set(values) - set(readings)):
        p, n, _ = next(iter(values[name].values()))
        out.append(Finding(rel(p, folder), n, "reading", f"{name}: reading_value without a reading/4 entry"))
    return out + _reading_files(prog, folder, values)


def _reading_entry(folder: Path, sources: Sources, name: str, fact: Fact,
                   values: dict[str, Fact]) -> list[Finding]:
    """The findings of one reading/4 entry and its reading_value/3 entries."""
    p, line, args = fact
    f = rel(p, folder)
    out = []
    default, question, source = (_const(x) for x in args[1:])
    if not question or not source:
        out.append(Finding(f, line, "reading", f"{name}: needs a question and a source"))
    elif citation_problem(source, sources):
        out.append(Finding(f, line, "reading", f"{name}: {citation_problem(source, sources)}"))
    if default not in values:
        out.append(Finding(f, line, "reading", f"{name}: its default {default!r} is not one of its reading_value entries"))
    for value, (vp, vline, vargs) in sorted(values.items()):
        vf = rel(vp, folder)
        vsource = _const(vargs[2])
        problem = citation_problem(vsource, sources) if vsource else "needs a source"
        if problem:
            out.append(Finding(vf, vline, "reading", f"{name}={value}: {problem}"))
        if not (folder / "readings" / name / f"{value}.lp").is_file():
            out.append(Finding(vf, vline, "reading", f"{name}={value}: no file readings/{name}/{value}.lp"))
    return out


def _reading_files(prog: Program, folder: Path, values: dict[str, dict[str, Fact]]) -> list[Finding]:
    """No file of readings/ without its catalogue value; every rule there guarded by it."""
    out = []
    rdir = folder / "readings"
    for path in sorted(rdir.glob("*/*.lp")) if rdir.is_dir() else ():
        name, value = path.parent.name, path.stem
        if value not in values.get(name, {}):
            out.append(Finding(rel(path, folder), 1, "reading",
                               f"no reading_value({name}, {value}, ...) in the catalogue for this file"))
    for r in prog.rules:
        parts = r.file.relative_to(rdir).parts if r.file.is_relative_to(rdir) else ()
        if len(parts) == 2:
            guard = f"reading({parts[0]},{Path(parts[1]).stem})"
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
    except InvalidInput as e:          # each problem at "PATH: field" (pyrules.effects.read_declaration)
        return [Finding(rel(path, folder), 0, "effect", "cannot read the effect declarations: "
                        + str(p).removeprefix(f"{path}: "))
                for p in e.problems]
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


# ---- the card part ----------------------------------------------------------------------
def check_card_part(prog: Program, folder: Path) -> list[Finding]:
    """The rules of the card part (`#program card.`) are grounded once per card with that
    card's facts alone (pyrules.engine.Engine.derive_card_facts): each reads only card
    predicates (encode.CARD_PREDICATES and the card part's own heads) of one card, the
    variable that is the first argument of its head, which stands nowhere else in the head.
    Only parts base and card exist."""
    from .encode import CARD_PREDICATES
    card_rules = [r for r in prog.rules if r.part == "card"]
    known = set(CARD_PREDICATES.items()) | {sig for r in card_rules for sig, _ in r.heads}
    out = [Finding(rel(r.file, folder), r.line, "card part", f"#program {r.part}: only base and card exist")
           for r in prog.rules if r.part not in ("base", "card")]
    for r in card_rules:
        problems = []
        cards = {_first_variable(term) for _, term in r.heads}
        card = cards.pop() if len(cards) == 1 else None
        if card is None:
            problems.append("its head does not name one card (a variable) as the first argument")
        elif any(card in variable_counts(a) for _, term in r.heads for a in term.arguments[1:]):
            problems.append(f"its head names the card {card} again after the first argument")
        for sig, term in r.body_atoms:
            if sig not in known:
                problems.append(f"it reads {sig[0]}/{sig[1]}, not a card's own data")
            elif card is not None and _first_variable(term) != card:
                problems.append(f"{sig[0]}/{sig[1]} is not read of the card {card}")
        out += [Finding(rel(r.file, folder), r.line, "card part", p) for p in problems]
    return out


def _first_variable(term: Any) -> str | None:
    """The name of the variable a function term has as its first argument (None otherwise)."""
    if term.ast_type != ASTType.Function or not term.arguments:
        return None
    first = term.arguments[0]
    return first.name if first.ast_type == ASTType.Variable else None
