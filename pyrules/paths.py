"""Where the shipped rules and facts are: inside the installed package, or in the checkout;
and whether a folder lies inside a pyrules checkout (whose rules the commands then use)."""
from pathlib import Path

_HERE = Path(__file__).resolve().parent


def _find(name: str) -> Path:
    for candidate in (_HERE / name, _HERE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"pyrules cannot find its {name}/ folder next to {_HERE}")


def rules_dir() -> Path:
    return _find("rules")


def facts_dir() -> Path:
    return _find("facts")


def checkout_root(start: Path | None = None) -> Path | None:
    """The pyrules checkout that holds start (default: the working folder), or None: the
    nearest folder at or above it with a pyproject.toml naming the pyrules project and a
    rules/ folder of its own."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        project = folder / "pyproject.toml"
        if (folder / "rules" / "output.lp").is_file() and project.is_file():
            try:
                text = project.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            if 'name = "pyrules"' in text:
                return folder
    return None


def same_rules(a: Path, b: Path) -> bool:
    """Whether two rules folders hold the same files with the same bytes."""
    if a.resolve() == b.resolve():
        return True
    files_a = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    files_b = sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    if files_a != files_b:
        return False
    pairs = [(a / f, b / f) for f in files_a]
    if any(x.stat().st_size != y.stat().st_size for x, y in pairs):
        return False
    return all(x.read_bytes() == y.read_bytes() for x, y in pairs)
