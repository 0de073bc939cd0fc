"""What can be computed once per rules version, kept in the user's cache folder.

An entry is JSON, stored under a key made from a hash (BLAKE2) of the files it was computed
from (the rule files, the card file, ...), of pyrules' own source files and of clingo's
version: an edited file gives a new key, so a stale entry is never read.  Entries are written atomically (a
temporary file renamed into place); an unreadable, foreign or corrupt entry is ignored and
computed again (except rule texts that no longer parse, found only when a query uses them:
invalid input that names the cache); a cache folder that cannot be written is not an error.  At most KEEP
entries of each name are kept (the newest).

Where: $PYRULES_CACHE_DIR, else $XDG_CACHE_HOME/pyrules, else ~/.cache/pyrules.
PYRULES_CACHE_DIR=off turns the cache off.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Callable, Iterable, TypeVar

T = TypeVar("T")
FORMAT = 1            # bump when the shape of an entry changes
KEEP = 8              # entries kept per name: older ones (of earlier rules or code versions) are removed


def cache_dir() -> Path | None:
    """The cache folder, or None when the cache is off."""
    where = os.environ.get("PYRULES_CACHE_DIR")
    if where == "off":
        return None
    if where:
        return Path(where)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "pyrules"


def _hash(data: bytes) -> Any:
    try:
        from _blake2 import blake2b          # what hashlib.blake2b is, without loading OpenSSL
    except ImportError:                      # pragma: no cover
        from hashlib import blake2b
    return blake2b(data, digest_size=16)


_CODE: list[str] = []


def _code() -> str:
    """A hash of what identifies pyrules' own source files (the code that computes the
    entries: each file's name, size, modification time and inode change time, which any
    edit, reinstall or unpacking changes even when an archive keeps the modification times,
    so the files need not be read at every start) and clingo's version."""
    if not _CODE:
        from clingo import __version__ as clingo_version
        h = _hash(f"{FORMAT}|{clingo_version}".encode())
        for path in sorted(Path(__file__).parent.glob("*.py")):
            st = path.stat()
            h.update(f"{path.name}|{st.st_size}|{st.st_mtime_ns}|{st.st_ctime_ns}\0".encode())
        _CODE.append(h.hexdigest())
    return _CODE[0]


def key(files: Iterable[Path], *extra: str) -> str:
    """A key for what is computed from these files (their paths and contents) and `extra`,
    by this version of pyrules' code (its source files) and of clingo."""
    h = _hash(f"{_code()}|{'|'.join(extra)}".encode())
    for path in files:
        h.update(str(path).encode())
        h.update(b"\0")
        h.update(Path(path).read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def load(name: str, k: str) -> Any | None:
    """The entry `name` stored under key k, or None."""
    folder = cache_dir()
    if folder is None:
        return None
    try:
        with open(folder / f"{name}-{k}.json", encoding="utf-8") as f:
            got = json.load(f)
    except (OSError, ValueError):
        return None
    return got.get("value") if isinstance(got, dict) and got.get("key") == k else None


def store(name: str, k: str, value: Any) -> None:
    """Keep `value` (JSON data) as the entry `name` under key k; silently skipped when the
    folder cannot be written."""
    folder = cache_dir()
    if folder is None:
        return
    import tempfile
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{name}-", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"key": k, "value": value}, f)
        os.replace(tmp, folder / f"{name}-{k}.json")
        _forget_old(folder, name)
    except OSError:
        return


def _forget_old(folder: Path, name: str) -> None:
    """Remove all but the KEEP newest entries of this name (each edit of a rule file or of
    pyrules makes a new key: the folder would otherwise grow without end)."""
    import re
    shape = re.compile(re.escape(name) + r"-[0-9a-f]{32}\.json")
    entries = [p for p in folder.glob(f"{name}-*.json") if shape.fullmatch(p.name)]
    if len(entries) <= KEEP:
        return
    entries.sort(key=lambda p: p.stat().st_mtime)
    for p in entries[:-KEEP]:
        try:
            p.unlink()
        except OSError:
            pass


def cached(name: str, k: str, make: Callable[[], T], to_json: Callable[[T], Any] = lambda v: v,
           from_json: Callable[[Any], T] = lambda v: v) -> T:
    """The value under key k: read from the cache, or made (and then stored)."""
    got = load(name, k)
    if got is not None:
        try:
            return from_json(got)
        except (TypeError, ValueError, KeyError, AttributeError):
            pass                          # a malformed entry: make it again
    value = make()
    store(name, k, to_json(value))
    return value
