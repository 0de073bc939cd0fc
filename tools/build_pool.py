#!/usr/bin/env python3
"""Build the bundled Goat pool: facts/goat/cards.jsonl and facts/goat/audit.json.

Reads ../shared/data/goat-format-en.cdb (or --cdb PATH) with the text patterns
(facts/patterns/) and the curated overlay (facts/overlay/), puts the rulings' cards of
facts/cards.yaml in place of the imported ones, and writes the cards' facts (no card
texts) and the audit.  tests/test_pool.py checks that the shipped files are exactly what
this produces, so rerun it after changing a pattern, the overlay or facts/cards.yaml.

Usage: python tools/build_pool.py [--cdb PATH] [--check]
  --check   write nothing; exit 1 when the shipped files differ from what would be built
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from pyrules.errors import InvalidInput  # noqa: E402
from pyrules.pool import pool_files  # noqa: E402

SHARED = Path(os.environ.get("PYRULES_SHARED") or REPO.parent / "shared")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cdb", type=Path, default=SHARED / "data" / "goat-format-en.cdb")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    try:
        files = pool_files(args.cdb)
    except InvalidInput as e:
        for p in e.problems:
            print(f"{p.path}: {p.message}", file=sys.stderr)
        return 2
    stale = []
    for rel, text in files.items():
        path = REPO / "facts" / rel
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(rel)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    verb = "differ" if args.check else "written"
    print(f"{len(stale)} file(s) {verb}: {', '.join(stale) or '-'}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
