"""The Dask path (optional extra pyrules[dask], in the test extra, so CI runs it) on a local cluster of
two worker processes: the batch's records, each with the input's own file and line, every output line
whole, and files cut by size so that one large file is judged by more than one worker."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmarks.workload import typical

pytest.importorskip("dask.bag")
distributed = pytest.importorskip("dask.distributed")

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def _want(lines: list[str]) -> list[dict]:
    """What `pyrules batch` gives for these lines."""
    from pyrules import Engine
    from pyrules.batch import run
    engine = Engine()
    return [json.loads(x) for x in run(lines, engine=engine, engine_config=engine.config, as_json=True)]


def test_files_cut_by_size_give_the_batch_records_with_their_own_line_numbers(client, tmp_path):
    from pyrules.daskbatch import judge_files
    inputs = {"in-0.jsonl": [json.dumps(typical(i)) for i in range(14)] + ["not json"] +
              [json.dumps(typical(i)) for i in range(14, 20)],
              "in-1.jsonl": [json.dumps(typical(i)) for i in range(9)] + [""] + [json.dumps(typical(40))]}
    for name, lines in inputs.items():
        (tmp_path / name).write_text("\n".join(lines) + "\n")
    with distributed.get_task_stream(client) as stream:
        written = judge_files(str(tmp_path / "in-*.jsonl"), str(tmp_path / "out-*.jsonl"), blocksize=4096)
    total = sum(len(x) for x in inputs.values())
    assert len(written) > len(inputs)                      # the files were cut, not one partition each
    texts = [Path(p).read_text() for p in sorted(written)]
    assert all(t.endswith("\n") for t in texts if t)       # every output line is whole
    catted = "".join(texts).splitlines()                   # what `cat out-*.jsonl` gives
    assert len(catted) == total
    got = [json.loads(x) for x in catted]                  # every line is JSON
    for name, lines in inputs.items():
        mine = [{k: v for k, v in g.items() if k != "file"} for g in got if g["file"] == str(tmp_path / name)]
        assert mine == _want(lines)                        # in input order, "line" its own number
    workers = {t["worker"] for t in stream.data if "judge_block" in str(t["key"])}
    assert len(workers) == 2                               # both workers judged


def test_a_file_larger_than_the_default_block_is_cut_and_its_lines_counted(tmp_path):
    import dask
    from pyrules.daskbatch import DEFAULT_BLOCKSIZE, blocks, first_lines
    from dask.utils import parse_bytes
    line = json.dumps(typical(0))
    n = int(2.5 * parse_bytes(DEFAULT_BLOCKSIZE)) // (len(line) + 1) + 1
    path = tmp_path / "big.jsonl"
    path.write_text("\n".join([line] * n))                 # (no line end after the last line)
    parts = blocks(str(path))
    assert len(parts) >= 2
    data = dask.compute(*[b for _p, b in parts], scheduler="sync")
    assert b"".join(data) == path.read_bytes()             # whole lines, nothing lost or read twice
    assert all(d.endswith(b"\n") for d in data[:-1])
    want, seen = [], 0
    for d in data:
        want.append(seen + 1)
        seen += d.count(b"\n") + (not d.endswith(b"\n"))
    with dask.config.set(scheduler="sync"):
        assert first_lines(parts) == want
    assert seen == n


def test_a_bag_is_numbered_across_its_partitions(client):
    import dask.bag as db
    from pyrules.daskbatch import judge_bag
    lines = [json.dumps(typical(i)) for i in range(7)] + ["[]"]
    got = judge_bag(db.from_sequence(lines, npartitions=3)).compute()
    assert got == _want(lines)
