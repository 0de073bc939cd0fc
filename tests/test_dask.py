"""The Dask path (optional extra pyrules[dask]) on a local cluster: same records as the batch."""
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
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                       dashboard_address=None)
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def test_dask_bag_gives_the_batch_records(client, tmp_path):
    from pyrules import Engine
    from pyrules.batch import run
    from pyrules.daskbatch import judge_files
    lines = [json.dumps(typical(i)) for i in range(30)] + ["not json"]
    for k in range(2):
        (tmp_path / f"in-{k}.jsonl").write_text("\n".join(lines) + "\n")
    written = judge_files(str(tmp_path / "in-*.jsonl"), str(tmp_path / "out-*.jsonl"))
    assert len(written) == 2
    engine = Engine()
    want = [json.loads(x) for x in run(lines, engine=engine, engine_config=engine.config, as_json=True)]
    for k, path in enumerate(sorted(written)):
        got = [json.loads(x) for x in Path(path).read_text().splitlines()]
        assert [g.pop("partition") for g in got] == [k] * len(lines)
        assert got == want
