"""Batch judging past one machine: JSON Lines on a Dask cluster, one Engine per worker process.

Needs the optional extra: pip install "pyrules[dask]".

    from dask.distributed import Client
    from pyrules.daskbatch import judge_files
    Client("tcp://scheduler:8786")
    judge_files("s3://bucket/snapshots-*.jsonl", "s3://bucket/results-*.jsonl")

The input files are cut by size (DEFAULT_BLOCKSIZE, at line ends), so that one large file is
judged by every worker, not by one.  Each block is judged by the worker's own Engine (made once
per worker process and kept; clingo objects never travel), with the same shared groundings and
the same per-line reading (limits, line ends) as `pyrules batch`.  Output records are those of
`pyrules batch` plus "file": "line" is the line's own number in that input file, whichever block
it was judged in.  The line numbers are found by a first, cheap pass that counts the lines of
each block (it reads the input once more, but holds nothing: judging costs far more than reading).
"""
from __future__ import annotations

import io
import json
import threading
from typing import Any, Iterable

DEFAULT_BLOCKSIZE = "1 MiB"   # about 800 typical snapshots: a task of seconds, many tasks for a large file

_ENGINES: dict[str, Any] = {}
_LOCK = threading.Lock()      # a worker with threads makes its Engine once


def _engine(config: dict[str, Any]):
    key = json.dumps(config, sort_keys=True)
    with _LOCK:
        engine = _ENGINES.get(key)
        if engine is None:
            from .engine import Engine
            engine = _ENGINES[key] = Engine(**config)
    return engine


def judge_lines(lines: Iterable[Any], first: int = 1, *, config: dict[str, Any] | None = None,
                readings: dict[str, str] | None = None, check: Any = None,
                extra: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Judge JSON Lines lines (text, or the InvalidInput limits.read_lines gives for an unreadable
    line): one output record (dict) per line, in order, numbered from `first`, each starting
    with the keys of `extra`."""
    from .batch import Batch, parse_line, record
    engine = _engine(config or {})
    batch = Batch(engine, readings, check)
    snaps = [parse_line(x, engine.limits) for x in lines]
    return [{**(extra or {}), **record(first + i, r)} for i, r in enumerate(batch.judge(snaps))]


def _block_lines(block: bytes, limits: Any) -> list[Any]:
    """A block of a JSON Lines file (whole lines) -> its lines, read as `pyrules batch` reads
    them (each within the byte cap, UTF-8, without its line end)."""
    from .limits import read_lines
    return list(read_lines(io.BytesIO(block), limits))


def count_lines(block: bytes) -> int:
    """The number of lines of a block: its line ends, and one more for a last line without one."""
    return block.count(b"\n") + (1 if block and not block.endswith(b"\n") else 0)


def judge_block(block: bytes, path: str, first: int, *, config: dict[str, Any] | None = None,
                readings: dict[str, str] | None = None, check: Any = None) -> list[str]:
    """One block of one input file, whose first line is line `first` of the file -> the output
    records as JSON text."""
    lines = _block_lines(block, _engine(config or {}).limits)
    records = judge_lines(lines, first, config=config, readings=readings, check=check,
                          extra={"file": path})
    return [json.dumps(r) for r in records]


def blocks(inputs: Any, blocksize: Any = DEFAULT_BLOCKSIZE, **storage_options: Any) -> list[tuple[str, Any]]:
    """The blocks the input files are cut into, in order: (path, delayed bytes), each block whole
    lines.  blocksize None keeps each file whole, as it does a compressed file (which cannot be cut)."""
    from dask.bytes import read_bytes
    from fsspec.core import get_fs_token_paths
    from fsspec.implementations.local import LocalFileSystem
    from fsspec.utils import infer_compression
    fs, _token, paths = get_fs_token_paths(inputs, mode="rb", storage_options=storage_options)
    if not paths:
        raise FileNotFoundError(f"{inputs}: no such file")
    out = []
    for path in paths:
        url = path if isinstance(fs, LocalFileSystem) else fs.unstrip_protocol(path)
        size = None if infer_compression(path) else blocksize
        _sample, (bs,) = read_bytes(url, delimiter=b"\n", blocksize=size, sample=False,
                                    compression="infer", **storage_options)
        out += [(url, b) for b in bs]
    return out


def first_lines(parts: list[tuple[str, Any]]) -> list[int]:
    """The number, in its own file, of each block's first line: a pass over the cluster that
    counts the lines of every block."""
    import dask
    from dask import delayed
    counts = dask.compute(*[delayed(count_lines)(b) for _path, b in parts])
    out: list[int] = []
    seen: dict[str, int] = {}
    for (path, _b), n in zip(parts, counts):
        out.append(seen.get(path, 0) + 1)
        seen[path] = seen.get(path, 0) + n
    return out


def judge_bag(bag, *, config: dict[str, Any] | None = None, readings: dict[str, str] | None = None,
              check: Any = None):
    """A Dask bag of JSON Lines text -> a bag of output records (dicts), partition by partition;
    "line" is the line's place in the whole bag, from 1 (a first pass counts each partition)."""
    from dask import delayed
    from dask.bag import from_delayed
    counts = bag.map_partitions(lambda p: [sum(1 for _ in p)]).compute()
    parts = bag.to_delayed()
    judged, first = [], 1
    for p, n in zip(parts, counts):
        judged.append(delayed(judge_lines)(p, first, config=config, readings=readings, check=check))
        first += n
    return from_delayed(judged)


def judge_files(inputs: Any, outputs: Any, *, config: dict[str, Any] | None = None,
                readings: dict[str, str] | None = None, check: Any = None,
                blocksize: Any = DEFAULT_BLOCKSIZE, **storage_options: Any) -> list[str]:
    """Read JSON Lines files (local paths or any fsspec URL, globs allowed), cut them into blocks
    of about `blocksize` bytes (None: one block per file), judge them on the current Dask
    scheduler and write one JSON Lines file per block (outputs: a path with a *, numbered in input
    order, or a list of paths).  Each record carries "file" and "line", the line's number in that
    file; every output line ends with a line end.  Returns the paths written."""
    from dask import delayed
    from dask.bag import from_delayed
    parts = blocks(inputs, blocksize, **storage_options)
    starts = first_lines(parts)
    judged = [delayed(judge_block)(b, path, start, config=config, readings=readings, check=check)
              for (path, b), start in zip(parts, starts)]
    width = len(str(max(len(judged) - 1, 0)))
    return from_delayed(judged).to_textfiles(outputs, name_function=lambda i: f"{i:0{width}d}",
                                             last_endline=True, storage_options=storage_options or None)
