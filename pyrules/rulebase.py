"""The rule base: the one reader of a rules folder.

A `RuleBase` stands for one rules folder.  Making one reads nothing; each part is read
when first asked for, and once (an Engine keeps its own; `RuleBase.of` shares one per
folder while its files stay the same):

  files              the program files a query runs (program_files)
  program()          what each rule statement defines, uses and cites (Program, Rule),
                     parsed with clingo's AST (pyrules/astwalk.py)
  predicates()       the documentation of every predicate: `%*! ... *%` blocks beside the
                     rules (PredicateDoc; the input's in rules/input.lp)
  catalogue()        reasons, problems, readings and sources (rules/catalogue/*.lp), as the
                     engine uses them (Catalogue); catalogue_facts(): the same facts with
                     their file and line, as `pyrules lint` checks them
  reason_sites()     reason id -> the rules that give it (ReasonSite)

The engine, lint and explain read the rules only through it; it decides nothing about
the game (that is the rules' part) and reports no finding (that is lint's).

A predicate's documentation, modelled on mkdoclingo's predicate docstrings, is a block
comment (clingo skips it) that opens with `%*!` and the predicate as the rules write it,
the lines below saying what it means, and `*%` to close:

    %*! opponent(P,Q)
    Q is P's opponent.
    *%

One block may name several predicates that share one text (`%*! level(I,L), atk(I,A)`).
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, NamedTuple

from . import cache
from .errors import InvalidInput
from .limits import read_file

Sig = tuple[str, int]                    # (name, arity), as pyrules.astwalk.Sig
INPUT_FILE = "input.lp"                  # the input predicates' documentation (and #defined)


def program_files(folder: Path) -> list[Path]:
    """The rule files of a query: every .lp under rules/ except the catalogue and search/."""
    return sorted(p for p in folder.rglob("*.lp") if not {"catalogue", "search"} & set(p.relative_to(folder).parts))


def rel(path: Path, folder: Path) -> str:
    """A file's path as findings and explanations name it: from the rules folder's parent
    (rules/turn.lp)."""
    try:
        return str(path.relative_to(folder.parent))
    except ValueError:
        return str(path)


# ---- the catalogue ---------------------------------------------------------------------
class ReadingInfo(NamedTuple):
    """A reading of the catalogue (a named tuple: made faster than a dataclass at import)."""
    name: str
    default: str
    question: str
    source: str
    values: dict[str, str]   # value -> source


class Catalogue:
    """The catalogue's reasons (id -> (text, source)), problems (id -> text), readings,
    sources (a rulings document's stem -> what it is) and text cards (reason id -> whose card
    text a verdict cites: "evidence" or "action", reason_text_card/2)."""
    __slots__ = ("reasons", "problems", "readings", "sources", "text_cards")

    def __init__(self, reasons: dict[str, tuple[str, str]] | None = None, problems: dict[str, str] | None = None,
                 readings: dict[str, ReadingInfo] | None = None, sources: dict[str, str] | None = None,
                 text_cards: dict[str, str] | None = None) -> None:
        self.reasons = {} if reasons is None else reasons
        self.problems = {} if problems is None else problems
        self.readings = {} if readings is None else readings
        self.sources = {} if sources is None else sources
        self.text_cards = {} if text_cards is None else text_cards

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Catalogue) and (self.reasons, self.problems, self.readings, self.sources,
                                                 self.text_cards) == (
            other.reasons, other.problems, other.readings, other.sources, other.text_cards)

    __hash__ = None  # type: ignore[assignment]

    def to_json(self) -> dict[str, Any]:
        return {"reasons": {k: list(v) for k, v in self.reasons.items()}, "problems": self.problems,
                "readings": {k: r._asdict() for k, r in self.readings.items()}, "sources": self.sources,
                "text_cards": self.text_cards}


class CatalogueFact(NamedTuple):
    """One fact of rules/catalogue/*.lp: its predicate, its arguments (a constant, string or
    number as text; None for any other term) and where it is."""
    name: str
    args: tuple[str | None, ...]
    file: Path
    line: int


@dataclass
class ParseProblem:
    """A file that could not be read or parsed: clingo's messages (which name the file and
    line), or one message of our own when clingo gave none."""
    file: Path
    message: str
    messages: list[str] = field(default_factory=list)


def _const(term: Any) -> str | None:
    """A constant, string or number term as text; None for any other term."""
    import clingo
    from clingo.ast import ASTType
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


def _parse(path: Path, problems: list[ParseProblem] | None) -> list[Any] | None:
    """The AST statements of one file; None when it does not parse (a ParseProblem added to
    `problems`, or RuntimeError when `problems` is None)."""
    import clingo.ast as ast
    messages: list[str] = []
    stmts: list[Any] = []
    try:
        ast.parse_files([str(path)], stmts.append, logger=lambda code, msg: messages.append(msg))
    except RuntimeError:
        if problems is None:
            raise RuntimeError("; ".join(m.strip() for m in messages) or f"{path}: cannot parse") from None
        problems.append(ParseProblem(path, "cannot parse", messages))
        return None
    return stmts


def read_catalogue_facts(files: list[Path], problems: list[ParseProblem] | None = None) -> list[CatalogueFact]:
    """Every fact of these catalogue files (each atom of a pool), in file order.  A file that
    does not parse adds a ParseProblem to `problems`, or raises RuntimeError without it."""
    from clingo.ast import ASTType

    from .astwalk import atoms
    out = []
    for path in files:
        for st in _parse(path, problems) or ():
            if st.ast_type == ASTType.Rule and st.head.ast_type == ASTType.Literal:
                for (name, _), fn in atoms(st.head):
                    args = tuple(_const(a) for a in fn.arguments) if fn.ast_type == ASTType.Function else ()
                    out.append(CatalogueFact(name, args, path, st.location.begin.line))
    return out


def catalogue_of(facts: list[CatalogueFact]) -> Catalogue:
    """The Catalogue of these facts: reason/3, problem/2, reading/4 with reading_value/3,
    reason_text_card/2 and source_document/2 (a malformed argument reads as "?": lint names it)."""
    cat = Catalogue()
    values: dict[str, dict[str, str]] = {}
    readings = []
    for f in facts:
        a = tuple("?" if x is None else x for x in f.args)
        if f.name == "reason" and len(a) == 3:
            cat.reasons[a[0]] = (a[1], a[2])
        elif f.name == "problem" and len(a) == 2:
            cat.problems[a[0]] = a[1]
        elif f.name == "reading_value" and len(a) == 3:
            values.setdefault(a[0], {})[a[1]] = a[2]
        elif f.name == "source_document" and len(a) == 2:
            cat.sources[a[0]] = a[1]
        elif f.name == "reading" and len(a) == 4:
            readings.append(a)
        elif f.name == "reason_text_card" and len(a) == 2:
            cat.text_cards[a[0]] = a[1]
    for a in readings:
        cat.readings[a[0]] = ReadingInfo(a[0], a[1], a[2], a[3], values.get(a[0], {}))
    return cat


def load_catalogue(folder: Path) -> Catalogue:
    """The catalogue of a catalogue folder (rules/catalogue/*.lp), read once per catalogue
    version (pyrules/cache.py); RuntimeError when a file does not parse."""
    files = sorted(folder.glob("*.lp"))
    return cache.cached("catalogue", cache.key(files), lambda: catalogue_of(read_catalogue_facts(files)),
                        Catalogue.to_json, _catalogue_of_json)


def _catalogue_of_json(data: dict) -> Catalogue:
    return Catalogue({k: (v[0], v[1]) for k, v in data["reasons"].items()}, dict(data["problems"]),
                     {k: ReadingInfo(**v) for k, v in data["readings"].items()}, dict(data["sources"]),
                     dict(data.get("text_cards", {})))


# ---- the program: what each rule defines, uses and cites -------------------------------
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
    part: str = "base"                # the #program part it belongs to (`#program card.`: lint's card part)


Where = tuple[Path, int]


@dataclass
class Program:
    """What the rule statements of a rules folder define, use, declare and show."""
    folder: Path
    statements: dict[Path, list[Any]] = field(default_factory=dict)   # file -> its AST statements
    rules: list[Rule] = field(default_factory=list)
    defined: dict[Sig, Where] = field(default_factory=dict)    # sig -> first head location
    used: dict[Sig, Where] = field(default_factory=dict)       # sig -> first body location
    declared: dict[Sig, Where] = field(default_factory=dict)   # #defined, #external
    shown: set[Sig] = field(default_factory=set)
    shows: dict[Sig, Where] = field(default_factory=dict)      # sig -> first #show location
    mentions: dict[Path, set[Sig]] = field(default_factory=dict)   # file -> what it defines, uses, declares, shows
    problems: list[ParseProblem] = field(default_factory=list)

    def _note(self, table: dict[Sig, Where], sig: Sig, where: Where) -> None:
        table.setdefault(sig, where)
        self.mentions.setdefault(where[0], set()).add(sig)


def read_program(folder: Path, files: list[Path], text: Callable[[Path], str]) -> Program:
    """Parse every rules file with clingo's AST (`text`: a file's UTF-8 text, or InvalidInput)."""
    from clingo.ast import ASTType
    prog = Program(folder)
    for path in files:
        try:
            lines = text(path).splitlines()
        except InvalidInput as e:           # not UTF-8 text (a binary file): a problem, the rest is still read
            prog.problems.append(ParseProblem(path, e.problems[0].message))
            continue
        stmts = _parse(path, prog.problems)
        if stmts is None:
            continue
        prog.statements[path] = stmts
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
    from clingo.ast import ASTType

    from .astwalk import atoms, term_atoms
    where = (path, st.location.begin.line)
    kind = st.ast_type
    if kind == ASTType.Rule:
        _read_rule(prog, path, lines, st)
    elif kind == ASTType.Defined:
        prog._note(prog.declared, (st.name, st.arity), where)
    elif kind == ASTType.ShowSignature:
        prog.shown.add((st.name, st.arity))
        prog._note(prog.shows, (st.name, st.arity), where)
    elif kind == ASTType.ShowTerm:
        for sig, _ in atoms(list(st.body)):
            prog._note(prog.used, sig, where)
        for sig, _ in term_atoms(st.term):
            prog.shown.add(sig)
            prog._note(prog.shows, sig, where)
    elif kind == ASTType.External:
        for sig, _ in atoms(st.atom):
            prog._note(prog.declared, sig, where)


def _read_rule(prog: Program, path: Path, lines: list[str], st: Any) -> None:
    from clingo.ast import ASTType, Sign

    from .astwalk import atoms, head_body
    line = st.location.begin.line
    heads, used = head_body(st)
    body = sorted(used)
    source, sline, says = block_citation(lines, line)
    positive = [a for b in st.body if b.ast_type == ASTType.Literal and b.sign == Sign.NoSign
                for a in atoms(b)]
    prog.rules.append(Rule(path, line, heads, body, source, sline, says, str(st), positive,
                           [a for b in st.body for a in atoms(b)]))
    for sig, _ in heads:
        prog._note(prog.defined, sig, (path, line))
    for sig in body:
        prog._note(prog.used, sig, (path, line))


# ---- reason sites ------------------------------------------------------------------------
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
    from clingo.ast import ASTType
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
    from clingo.ast import ASTType
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
    from clingo.ast import ASTType
    out: dict[str, list[Rule]] = {}
    for r in prog.rules:
        for s, fn in r.heads:
            if s == sig and fn.ast_type == ASTType.Function:
                c = _const(fn.arguments[pos])
                if c is not None:
                    out.setdefault(c, []).append(r)
    return out


# ---- predicate documentation -----------------------------------------------------------------
@dataclass(frozen=True)
class PredicateDoc:
    """The documentation of one predicate: a `%*! ... *%` block of a rules file."""
    name: str
    arity: int
    signature: str        # the predicate as the block writes it: "zone(I,P,Z)"
    text: str             # what it means: the block's lines joined (a blank line: a new paragraph)
    file: Path            # the rules file of the block
    line: int             # the line of its `%*!`

    @property
    def sig(self) -> Sig:
        return (self.name, self.arity)

    @property
    def indicator(self) -> str:
        """name/arity, as clingo and lint name a predicate."""
        return f"{self.name}/{self.arity}"


_ONE_SIG = re.compile(r"([a-z_][A-Za-z0-9_]*)(\(([^()]*(?:\([^()]*\)[^()]*)*)\))?")
_HEADER = re.compile(rf"{_ONE_SIG.pattern}(?:\s*,\s*{_ONE_SIG.pattern})*")
_DOC_OPEN = re.compile(r"^\s*%\*!(.*)$")


def _arity(args: str | None) -> int:
    if args is None or not args.strip():
        return 0
    depth, n = 0, 1
    for ch in args:
        depth += ch in "(["
        depth -= ch in ")]"
        n += ch == "," and depth == 0
    return n


def _joined(lines: list[str]) -> str:
    """Text lines as one text: lines joined by a space, paragraphs (a blank line) by one."""
    paragraphs = " ".join(x.strip() if x.strip() else "\n\n" for x in lines).split("\n\n")
    return "\n\n".join(" ".join(p.split()) for p in paragraphs if p.strip())


def doc_blocks(path: Path, text: str) -> tuple[list[PredicateDoc], list[tuple[int, str]]]:
    """The predicate documentation blocks of one file's text, and (line, message) of each block
    that cannot be read (no closing `*%`, a first line that names no predicate)."""
    docs: list[PredicateDoc] = []
    problems: list[tuple[int, str]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = _DOC_OPEN.match(lines[i])
        if not m:
            i += 1
            continue
        start = i + 1
        head, closed, _ = m.group(1).partition("*%")
        body: list[str] = []
        while not closed and i + 1 < len(lines):
            i += 1
            part, closed, _ = lines[i].partition("*%")
            body.append(part)
        i += 1
        if not closed:
            problems.append((start, "a `%*!` block without its closing `*%`"))
        if not _HEADER.fullmatch(head.strip()):
            problems.append((start, f"a `%*!` block must name its predicates on its first line as "
                                    f"name(Args), name2(Args): got {head.strip()[:60]!r}"))
            continue
        about = _joined(body)
        for found in _ONE_SIG.finditer(head.strip()):
            name, args = found.group(1), found.group(3)
            arity = _arity(args if found.group(2) else None)
            docs.append(PredicateDoc(name, arity, found.group(0), about, path, start))
    return docs, problems


# ---- the rule base ---------------------------------------------------------------------------
class RuleBase:
    """One rules folder, read once and lazily (see the module's docstring)."""

    _shared: dict[Path, tuple[tuple, RuleBase]] = {}

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self._texts: dict[Path, str | InvalidInput] = {}
        self._program: Program | None = None
        self._docs: tuple[list[PredicateDoc], list[tuple[Path, int, str]]] | None = None
        self._facts: tuple[list[CatalogueFact], list[ParseProblem]] | None = None
        self._catalogue: Catalogue | None = None
        self._sites: dict[str, list[ReasonSite]] | None = None
        self._files: list[Path] | None = None

    @classmethod
    def of(cls, folder: str | Path) -> RuleBase:
        """A RuleBase shared per folder in this process: the same one while no .lp file under
        the folder is added, removed or changed (size, modification time); the references
        (pyrules/reference.py) read every page from one."""
        root = Path(folder).resolve()
        stamp = tuple((str(p), st.st_size, st.st_mtime_ns) for p in sorted(root.rglob("*.lp"))
                      for st in [os.stat(p)])
        known = cls._shared.get(root)
        if known is None or known[0] != stamp:
            known = cls._shared[root] = (stamp, cls(folder))
        return known[1]

    @property
    def files(self) -> list[Path]:
        """The program files a query runs (program_files)."""
        if self._files is None:
            self._files = program_files(self.folder)
        return self._files

    @property
    def catalogue_files(self) -> list[Path]:
        return sorted((self.folder / "catalogue").glob("*.lp"))

    @property
    def input_file(self) -> Path:
        """The file that documents (and #defines) the input predicates: rules/input.lp."""
        return self.folder / INPUT_FILE

    def text(self, path: Path) -> str:
        """A rules file's text (UTF-8, or InvalidInput naming the file), read once."""
        if path not in self._texts:
            try:
                self._texts[path] = read_file(path, None, str(path))
            except InvalidInput as e:
                self._texts[path] = e
        got = self._texts[path]
        if isinstance(got, InvalidInput):
            raise got
        return got

    def program(self) -> Program:
        """The program files parsed: what each rule defines, uses and cites."""
        if self._program is None:
            self._program = read_program(self.folder, self.files, self.text)
        return self._program

    def _read_docs(self) -> tuple[list[PredicateDoc], list[tuple[Path, int, str]]]:
        if self._docs is None:
            docs: list[PredicateDoc] = []
            problems: list[tuple[Path, int, str]] = []
            for path in self.files:
                try:
                    text = self.text(path)
                except InvalidInput:          # not UTF-8: program().problems says so
                    continue
                found, bad = doc_blocks(path, text)
                docs += found
                problems += [(path, line, message) for line, message in bad]
            self._docs = docs, problems
        return self._docs

    def doc_blocks(self) -> list[PredicateDoc]:
        """Every predicate documentation of the program files, in file and line order (a
        predicate documented twice is here twice: lint says so)."""
        return list(self._read_docs()[0])

    def doc_problems(self) -> list[tuple[Path, int, str]]:
        """(file, line, message) of each `%*!` block that cannot be read."""
        return list(self._read_docs()[1])

    def predicates(self) -> dict[Sig, PredicateDoc]:
        """Every documented predicate: (name, arity) -> its PredicateDoc (signature as
        written, text, file, line), in file and line order (the first block, should a
        predicate have two: lint finds it).  role(sig) says input, derived or output.

            rules = RuleBase(rules_dir())
            for sig, doc in rules.predicates().items():
                print(doc.indicator, rules.role(sig), rel(doc.file, rules.folder), doc.line, doc.text)
        """
        out: dict[Sig, PredicateDoc] = {}
        for doc in self._read_docs()[0]:
            out.setdefault(doc.sig, doc)
        return out

    def role(self, sig: Sig) -> str:
        """What a predicate is to a query: "input" (documented and #defined in rules/input.lp:
        facts pyrules/encode.py writes), "output" (#show), else "derived"."""
        doc = self.predicates().get(sig)
        prog = self.program()
        if doc is not None and doc.file == self.input_file and sig in prog.declared:
            return "input"
        return "output" if sig in prog.shown else "derived"

    def _read_facts(self) -> tuple[list[CatalogueFact], list[ParseProblem]]:
        if self._facts is None:
            problems: list[ParseProblem] = []
            self._facts = read_catalogue_facts(self.catalogue_files, problems), problems
        return self._facts

    def catalogue_facts(self, name: str | None = None, arity: int | None = None) -> list[CatalogueFact]:
        """The facts of rules/catalogue/*.lp with their file and line (those of one predicate
        when name and arity are given); files that do not parse are left out
        (catalogue_problems)."""
        return [f for f in self._read_facts()[0] if name is None or (f.name == name and len(f.args) == arity)]

    def catalogue_problems(self) -> list[ParseProblem]:
        return list(self._read_facts()[1])

    def catalogue(self) -> Catalogue:
        """The catalogue as the engine uses it (kept in the cache per catalogue version);
        RuntimeError when a catalogue file does not parse."""
        if self._catalogue is None:
            self._catalogue = load_catalogue(self.folder / "catalogue")
        return self._catalogue

    def reason_sites(self) -> dict[str, list[ReasonSite]]:
        """Reason id -> the rules that give it (reason_sites)."""
        if self._sites is None:
            self._sites = reason_sites(self.program())
        return self._sites
