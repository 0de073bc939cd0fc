"""Batch judging past one machine: a Dask bag of JSON Lines, one Engine per worker process.

Needs the optional extra: pip install "pyrules[dask]".

    from dask.distributed import Client
    from pyrules.daskbatch import judge_files
    Client("tcp://scheduler:8786")
    judge_files("s3://bucket/snapshots-*.jsonl", "s3://bucket/results-*.jsonl")

Each partition is judged by the worker's own Engine (created once per worker process and
kept; clingo objects never travel), with the same shared groundings as `pyrules batch`.
Output records are those of `pyrules batch`; "line" counts from 1 within each partition
and "partition" names the partition.
"""
from __future__ import annotations

import json
from typing import Any, Iterable

_ENGINES: dict[str, Any] = {}


def _engine(config: dict[str, Any]):
    key = json.dumps(config, sort_keys=True)
    engine = _ENGINES.get(key)
    if engine is None:
        from .engine import Engine
        engine = _ENGINES[key] = Engine(**config)
    return engine


def judge_partition(lines: Iterable[str], partition: int | None = None, *, config: dict[str, Any] | None = None,
                    readings: dict[str, str] | None = None, check: Any = None) -> list[dict[str, Any]]:
    """Judge one partition of JSON Lines text: one output record (dict) per line, in order."""
    from .batch import Batch, parse_line, record
    batch = Batch(_engine(config or {}), readings, check)
    snaps = [parse_line(x) for x in lines]
    out = []
    for n, result in enumerate(batch.judge(snaps), start=1):
        rec = record(n, result)
        if partition is not None:
            rec = {"partition": partition, **rec}
        out.append(rec)
    return out


def judge_bag(bag, *, config: dict[str, Any] | None = None, readings: dict[str, str] | None = None,
              check: Any = None):
    """A Dask bag of JSON Lines text -> a bag of output records (dicts), partition by partition."""
    import dask.bag as db   # noqa: F401  (the extra is needed)
    from dask import delayed

    parts = bag.to_delayed()
    judged = [delayed(judge_partition)(p, i, config=config, readings=readings, check=check)
              for i, p in enumerate(parts)]
    from dask.bag import from_delayed
    return from_delayed(judged)


def judge_files(inputs: str | list[str], outputs: str, *, config: dict[str, Any] | None = None,
                readings: dict[str, str] | None = None, check: Any = None, blocksize: Any = None) -> list[str]:
    """Read JSON Lines files (local paths or any fsspec URL, globs allowed), judge them on the
    current Dask scheduler and write one JSON Lines file per partition (outputs has a *)."""
    import dask.bag as db
    bag = db.read_text(inputs, blocksize=blocksize).map(lambda s: s.rstrip("\n"))
    return judge_bag(bag, config=config, readings=readings, check=check).map(json.dumps).to_textfiles(outputs)
