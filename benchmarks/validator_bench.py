"""The snapshot validator (pyrules/validator.py, on the path of every query) against its
version at a git revision: the typical workload snapshot validated N times, alternating
the two in one process; prints each median and the ratio this/then.

    python benchmarks/validator_bench.py main            # or any revision
    python benchmarks/validator_bench.py main -n 2000 -r 11
"""
from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from pyrules import validator as this  # noqa: E402
from pyrules.schema import SNAPSHOT_SCHEMA  # noqa: E402
from workload import snapshot  # noqa: E402


def validator_at(rev: str, folder: str):
    """pyrules/validator.py as it was at `rev`, loaded as a module of its own."""
    text = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:pyrules/validator.py"],
                          check=True, capture_output=True, text=True).stdout
    path = Path(folder) / "validator_then.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("validator_then", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def problems(module, snap: dict) -> list:
    return list(module.validate(snap, SNAPSHOT_SCHEMA, SNAPSHOT_SCHEMA))


def seconds(module, snap: dict, n: int) -> float:
    start = time.perf_counter()
    for _ in range(n):
        problems(module, snap)
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rev", help="the git revision to compare with")
    ap.add_argument("-n", type=int, default=2000, help="validations per run")
    ap.add_argument("-r", type=int, default=11, help="runs of each")
    args = ap.parse_args()
    snap = snapshot()
    with tempfile.TemporaryDirectory() as folder:
        then = validator_at(args.rev, folder)
        if problems(then, snap) != problems(this, snap):
            sys.exit("the two validators disagree on the workload snapshot")
        runs: dict[str, list[float]] = {"then": [], "this": []}
        for r in range(args.r):
            order = [("then", then), ("this", this)]
            for name, module in order if r % 2 == 0 else order[::-1]:
                runs[name].append(seconds(module, snap, args.n))
    median = {name: sorted(t)[len(t) // 2] for name, t in runs.items()}
    print(f"{args.n} validations of the typical snapshot, median of {args.r} alternating runs: "
          f"{args.rev} {median['then'] * 1000:.1f} ms, this tree {median['this'] * 1000:.1f} ms, "
          f"ratio this/{args.rev} {median['this'] / median['then']:.3f}")


if __name__ == "__main__":
    main()
