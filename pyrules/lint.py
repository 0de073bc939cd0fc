"""`pyrules lint`: checks of the rules folder a rules designer edits.

Every finding names a file and a line.  The checks:
  parse        every .lp file parses (clingo's own parser and message)
  unsafe       no unsafe variables (clingo reports them when grounding)
  source       every rule block cites a rulings document: a `% Source:` line above it,
               in the same paragraph, naming a known source (rules/catalogue/sources.lp)
               as `stem: section`, and (when the rulings documents are found beside the
               rules, find_rulings) the section heading or passage is in that document
  reason       every reason id in a forbidden/3 head (or relayed to one, RuleBase.reason_sites) has
               reason(Id, Text, Source) with text and a known source; no catalogue entry
               is unused
  problem      the same for invalid/2 and problem/2
  vocabulary   every predicate used or shown is documented exactly once, in a `%*! ... *%`
               block (pyrules.rulebase) of a file that defines, uses or declares it: beside
               its rules, the input's in rules/input.lp; every such block can be read
  output       every #show is in output.lp
  undefined    every predicate used in a body is defined by a rule or declared #defined
  unused       no predicate is defined but never used (a #show counts as a use)
  effect       every effect kind, filter and condition declared in rules/effects.yaml is
               read by a rule, and every one a rule reads is declared (pyrules.effects)
  reading      each reading has a default among its values, a question and a source;
               each value a source and a file readings/NAME/VALUE.lp whose rules are
               guarded by reading(NAME,VALUE); no file without a catalogue value

The rules are read through pyrules.rulebase (the one reader of a rules folder: clingo's AST
for the statements and the catalogue, the comments line by line for citations and
predicate documentation, since the AST has no comments); lint only judges what it reads.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import clingo
from clingo.ast import ASTType

from .astwalk import Sig, variable_counts
from .effects import DECLARATION, EFFECT_READERS, load_vocabulary
from .errors import InvalidInput
from .rulebase import CatalogueFact, ParseProblem, Program, Rule, RuleBase, head_constants, rel


@dataclass(frozen=True, order=True)
class Finding:
    file: str
    line: int
    check: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: [{self.check}] {self.message}"


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


def known_sources(rules: RuleBase, rulings: Path | None = None) -> Sources:
    """The catalogue's source_document(Stem, What) facts (rules/catalogue/sources.lp), and
    the documents' text from `rulings` (a folder of STEM.txt files) when given."""
    out = Sources()
    for f in rules.catalogue_facts("source_document", 2):
        if f.args[0] is not None:
            out.names[f.args[0]] = f.args[1] or ""
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


# ---- the checks --------------------------------------------------------------------------
def _parse_findings(problems: list[ParseProblem], folder: Path) -> list[Finding]:
    """A file that could not be read or parsed, as findings (clingo's messages when it gave any)."""
    out = []
    for p in problems:
        out += (_clingo_findings(p.messages, "parse", folder) if p.messages else []) or \
            [Finding(rel(p.file, folder), 0, "parse", p.message)]
    return out


def lint(folder: str | Path, rulings: str | Path | None = None) -> list[Finding]:
    """Every finding of the checks on a rules folder.  `rulings`: the folder of the rulings
    documents (default: find_rulings); cited section headings are checked only when found."""
    folder = Path(folder)
    rulings = Path(rulings) if rulings is not None else find_rulings(folder)
    if not folder.is_dir():
        return [Finding(str(folder), 0, "parse", "no such rules folder")]
    rules = RuleBase(folder)
    prog = rules.program()
    findings = _parse_findings(prog.problems + rules.catalogue_problems(), folder)
    if findings:                       # a file that does not parse: the other checks would mislead
        return sorted(findings)
    findings += check_grounding(rules)
    sources = known_sources(rules, rulings)
    if not sources.names:
        findings.append(Finding(rel(folder / "catalogue" / "sources.lp", folder), 0, "source",
                                "no source_document(Stem, What) facts: the known rulings documents"))
    findings += check_citations(prog, sources)
    findings += check_catalogue(prog, rules, sources, ("forbidden", 3), 1, "reason", 3, "reason",
                                used={k: [x.rule for x in v] for k, v in rules.reason_sites().items()})
    findings += check_catalogue(prog, rules, sources, ("invalid", 2), 0, "problem", 2, "problem")
    findings += check_vocabulary(prog, rules)
    findings += check_readings(prog, rules, sources)
    findings += check_effects(prog, folder)
    findings += check_card_part(prog, folder)
    return sorted(set(findings))


def check_grounding(rules: RuleBase) -> list[Finding]:
    """Unsafe variables and other grounding errors, as clingo reports them."""
    folder = rules.folder
    messages: list[str] = []
    ctl = clingo.Control(["--warn=none"], logger=lambda code, msg: messages.append(msg))
    try:
        for path in rules.files:
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


def check_catalogue(prog: Program, rules: RuleBase, sources: Sources, head: Sig, pos: int,
                    name: str, arity: int, check: str, used: dict[str, list[Rule]] | None = None) -> list[Finding]:
    """Every id catalogued (name/arity facts) is given by a rule, and every id given is
    catalogued; `used` (id -> rules), when given, replaces the constants of head/pos."""
    folder = rules.folder
    out = []
    if used is None:
        used = head_constants(prog, head, pos)
    entries: dict[str, CatalogueFact] = {}
    for fact in rules.catalogue_facts(name, arity):
        ident, line = fact.args[0], fact.line
        f = rel(fact.file, folder)
        if ident is None:
            out.append(Finding(f, line, check, f"{name}/{arity}: the id must be a constant"))
            continue
        if ident in entries:
            out.append(Finding(f, line, check, f"{ident}: catalogued twice (also line {entries[ident].line})"))
        entries[ident] = fact
        out += [Finding(f, line, check, f"{ident}: {m}") for m in _entry_problems(fact.args, arity, sources)]
        if ident not in used:
            out.append(Finding(f, line, check, f"{ident}: catalogued but no {head[0]}/{head[1]} rule gives it"))
    for ident, giving in sorted(used.items()):
        if ident not in entries:
            r = giving[0]
            out.append(Finding(rel(r.file, folder), r.line, check,
                               f"{ident}: no {name}({ident}, ...) entry in rules/catalogue"))
    return out


def _entry_problems(args: tuple[str | None, ...], arity: int, sources: Sources) -> list[str]:
    """What is wrong with a catalogue entry's text and source."""
    texts = list(args[1:])
    out = []
    if any(not t for t in texts):
        out.append("text and source must be non-empty strings")
    problem = citation_problem(texts[-1], sources) if arity == 3 and texts[-1] else None
    if problem:
        out.append(problem)
    return out


def check_vocabulary(prog: Program, rules: RuleBase) -> list[Finding]:
    """Every predicate used, defined, declared or shown documented once, beside its rules
    (check_docs); #show only in output.lp; nothing used but undefined or defined but unused."""
    folder = rules.folder
    out = check_docs(prog, rules)
    out += [Finding(rel(path, folder), line, "output",
                    f"#show of {sig[0]}/{sig[1]} outside output.lp (what a query shows is said in one place)")
            for sig, (path, line) in sorted(prog.shows.items()) if path.name != "output.lp"]
    out += [Finding(rel(path, folder), line, "undefined",
                    f"{sig[0]}/{sig[1]} is used but no rule defines it and it is not #defined")
            for sig, (path, line) in sorted(prog.used.items()) if sig not in prog.defined and sig not in prog.declared]
    out += [Finding(rel(path, folder), line, "unused", f"{sig[0]}/{sig[1]} is defined but never used (nor an output)")
            for sig, (path, line) in sorted(prog.defined.items())
            if sig not in prog.used and sig not in prog.shown]
    return out


def check_docs(prog: Program, rules: RuleBase) -> list[Finding]:
    """The predicate documentation (RuleBase.doc_blocks): every predicate documented, once,
    in a file that defines, uses or declares it (the input's: rules/input.lp); every block
    readable."""
    folder = rules.folder
    blocks = rules.doc_blocks()
    where: dict[Sig, list[str]] = {}
    for doc in blocks:
        where.setdefault(doc.sig, []).append(f"{rel(doc.file, folder)}:{doc.line}")
    everything = {**prog.shows, **prog.declared, **prog.used, **prog.defined}
    out = [Finding(rel(p, folder), line, "vocabulary", message) for p, line, message in rules.doc_problems()]
    out += [Finding(rel(path, folder), line, "vocabulary",
                    f"{sig[0]}/{sig[1]} is not documented: write a `%*! {sig[0]}(...)` block beside a rule "
                    f"that defines it (an input predicate: in rules/{rules.input_file.name})")
            for sig, (path, line) in sorted(everything.items()) if sig not in where]
    seen: set[Sig] = set()
    for doc in blocks:
        f, sig = rel(doc.file, folder), doc.sig
        if sig in seen:
            out.append(Finding(f, doc.line, "vocabulary", f"{doc.indicator} is documented {len(where[sig])} times "
                                                          f"({', '.join(where[sig])})"))
        seen.add(sig)
        if sig not in prog.mentions.get(doc.file, set()):
            out.append(Finding(f, doc.line, "vocabulary",
                               f"{doc.indicator} is documented here, but no rule of this file defines or uses it "
                               f"(nor #defines it): document a predicate beside its rules"))
    return out


def check_readings(prog: Program, rules: RuleBase, sources: Sources) -> list[Finding]:
    """Each reading complete (default, question, sources, one file per value), no stray
    value or file, every rule of a reading's file guarded by its reading."""
    folder = rules.folder
    readings = {f.args[0] or "?": f for f in rules.catalogue_facts("reading", 4)}
    values: dict[str, dict[str, CatalogueFact]] = {}
    for f in rules.catalogue_facts("reading_value", 3):
        values.setdefault(f.args[0] or "?", {})[f.args[1] or "?"] = f
    out = []
    for name, fact in sorted(readings.items()):
        out += _reading_entry(folder, sources, name, fact, values.get(name, {}))
    for name in sorted(set(values) - set(readings)):
        f = next(iter(values[name].values()))
        out.append(Finding(rel(f.file, folder), f.line, "reading", f"{name}: reading_value without a reading/4 entry"))
    return out + _reading_files(prog, folder, values)


def _reading_entry(folder: Path, sources: Sources, name: str, fact: CatalogueFact,
                   values: dict[str, CatalogueFact]) -> list[Finding]:
    """The findings of one reading/4 entry and its reading_value/3 entries."""
    f, line = rel(fact.file, folder), fact.line
    out = []
    default, question, source = fact.args[1:]
    if not question or not source:
        out.append(Finding(f, line, "reading", f"{name}: needs a question and a source"))
    elif citation_problem(source, sources):
        out.append(Finding(f, line, "reading", f"{name}: {citation_problem(source, sources)}"))
    if default not in values:
        out.append(Finding(f, line, "reading", f"{name}: its default {default!r} is not one of its reading_value entries"))
    for value, vfact in sorted(values.items()):
        vf, vline = rel(vfact.file, folder), vfact.line
        vsource = vfact.args[2]
        problem = citation_problem(vsource, sources) if vsource else "needs a source"
        if problem:
            out.append(Finding(vf, vline, "reading", f"{name}={value}: {problem}"))
        if not (folder / "readings" / name / f"{value}.lp").is_file():
            out.append(Finding(vf, vline, "reading", f"{name}={value}: no file readings/{name}/{value}.lp"))
    return out


def _reading_files(prog: Program, folder: Path, values: dict[str, dict[str, CatalogueFact]]) -> list[Finding]:
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
