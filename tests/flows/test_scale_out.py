"""Scale-out: the ingest flow on a Dask LocalCluster (prefect-dask) gives the same warehouse as the default runner."""

from __future__ import annotations

import copy
import shutil
import time
from pathlib import Path

import pytest

from flows import runners, steps
from flows.archives import kind_for
from flows.archives.base import FetchContext, Unit
from flows.config import Source, load_config
from tests.conftest import SEEDS_MBOX, mbox_source, run_cli, write_config
from warehouse.db import query
from warehouse.lake import Lake

# map key order is not compared: run attributes are filled from a set (order varies with the hash seed)
RESULT_SQL = ("SELECT * EXCLUDE (params, run_attributes), CAST(list_sort(map_entries(params)) AS VARCHAR),"
              " CAST(list_sort(map_entries(run_attributes)) AS VARCHAR) FROM benchmark_results")
TIMINGS: dict[str, float] = {}


def _rows(cfg, sql: str) -> list[tuple]:
    return sorted(query(cfg.db_path, sql)[1], key=repr)


def _messages(tmp) -> list[bytes]:
    text = SEEDS_MBOX.read_bytes()
    parts = text.split(b"\nFrom ")
    return [parts[0] + b"\n"] + [b"From " + p + b"\n" for p in parts[1:]]


# --- reconcile: extraction without the lake's keys, then keys applied in order ---------------

def _norm(rec) -> dict[str, list]:
    drop = {"batch_id", "extracted_at", "detected_at"}
    return {name: sorted(repr(sorted((k, v) for k, v in r.items() if k not in drop)) for r in rows)
            for name, rows in rec.tables().items()}


def test_reconcile_equals_sequential_extraction(tmp_path):
    msgs = _messages(tmp_path)
    assert len(msgs) == 5
    (tmp_path / "a.mbox").write_bytes(b"".join(msgs[0:3]))
    (tmp_path / "b.mbox").write_bytes(b"".join(msgs[1:5]))  # overlaps a on two messages
    source = Source("s", "mbox", str(tmp_path / "a.mbox"))
    ctx = FetchContext(raw_dir=tmp_path / "raw")
    fetched = [kind_for("mbox").fetch(Unit("s", n, str(tmp_path / n)), source, ctx) for n in ("a.mbox", "b.mbox")]
    last_id = runners.extract_on_worker(fetched[1], source).records.messages[-1]["message_id"]
    known0 = steps.Known({last_id}, {(last_id, "other-list")})  # one message already in the lake

    seq_known = copy.deepcopy(known0)
    sequential = [steps.extract_unit(f, source, seq_known) for f in fetched]
    dist_known = copy.deepcopy(known0)
    distributed = [runners.reconcile(runners.extract_on_worker(f, source), dist_known, "s") for f in fetched]

    assert [w.stats.messages_added for w in distributed] == [w.stats.messages_added for w in sequential] == [3, 1]
    for s, d in zip(sequential, distributed, strict=True):
        assert _norm(d.records) == _norm(s.records)
    assert (dist_known.message_ids, dist_known.memberships) == (seq_known.message_ids, seq_known.memberships)
    # the known message gained only its membership of list "s"
    assert [r["message_id"] for r in distributed[1].records.messages].count(last_id) == 0
    assert (last_id, "s") in {(r["message_id"], r["list_name"]) for r in distributed[1].records.memberships}


def test_worker_parts_spilled_then_reconciled_equal_in_process_parts(tmp_path):
    from tests.mboxes import PART, big_mbox

    path = big_mbox(tmp_path / "big.mbox")
    source = Source("s", "mbox", str(path), options={"part_messages": PART})
    fetched = kind_for("mbox").fetch(Unit("s", "big.mbox", str(path)), source, FetchContext(raw_dir=tmp_path / "raw"))
    first = runners.extract_on_worker(fetched, source).records.messages[0]["message_id"]
    known0 = steps.Known({first}, {(first, "other-list")})  # one message already in the lake

    seq_known = copy.deepcopy(known0)
    sequential = list(steps.extract_parts(fetched, source, seq_known))
    with runners.spill_dir(tmp_path / "data") as spill:
        last = runners.extract_on_worker(fetched, source, spill)
        assert len(last.spilled) == 6 and all(Path(f).exists() for f in last.spilled)
        dist_known = copy.deepcopy(known0)
        distributed = list(runners.parts_of(last, dist_known, "s"))
        assert list(Path(spill).iterdir()) == []  # each file is deleted once read back
    assert not (tmp_path / "data" / "spill" / Path(spill).name).exists()

    assert [(w.part, w.last) for w in distributed] == [(w.part, w.last) for w in sequential]
    for s, d in zip(sequential, distributed, strict=True):
        assert _norm(d.records) == _norm(s.records)
        assert {r["batch_id"] for rows in d.records.tables().values() for r in rows} <= {d.batch_id}
    assert distributed[-1].stats.messages_added == sequential[-1].stats.messages_added == 39
    assert (dist_known.message_ids, dist_known.memberships) == (seq_known.message_ids, seq_known.memberships)


def test_a_worker_told_the_known_ids_extracts_only_the_new_ones_and_reconciles_the_same(tmp_path):
    import pickle

    from tests.mboxes import numbered_mbox

    path = tmp_path / "s.mbox"
    ids = numbered_mbox(path, 44, {})  # a unit that grew: p0..p39 in the lake, p40 (results) new
    source = Source("s", "mbox", str(path), options={"part_messages": 8})
    fetched = kind_for("mbox").fetch(Unit("s", "s.mbox", str(path)), source, FetchContext(raw_dir=tmp_path / "raw"))
    known0 = steps.Known(ids[:40], [(m, "s") for m in ids[:30]] + [(m, "other-list") for m in ids[30:40]])

    seq_known = copy.deepcopy(known0)
    sequential = list(steps.extract_parts(fetched, source, seq_known))
    with runners.spill_dir(tmp_path / "data") as spill:
        dist_known = copy.deepcopy(known0)
        hint = dist_known.hint(True, spill)
        assert hint is not None and Path(hint.path).parent == Path(spill)
        last = runners.extract_on_worker(fetched, source, spill, hint)
        worker = [pickle.loads(Path(f).read_bytes())[2] for f in last.spilled] + [last.records]
        # every message came back with its message and membership rows; only p40 was extracted
        assert [r["message_id"] for rec in worker for r in rec.messages] == ids
        assert [r["message_id"] for rec in worker for r in rec.memberships] == ids
        assert {r["message_id"] for rec in worker for r in rec.runs + rec.extractions} == {"p40@test"}
        distributed = list(runners.parts_of(last, dist_known, "s"))

    assert [(w.part, w.last) for w in distributed] == [(w.part, w.last) for w in sequential]
    for s, d in zip(sequential, distributed, strict=True):
        assert _norm(d.records) == _norm(s.records)
    assert distributed[-1].stats.messages_added == sequential[-1].stats.messages_added == 4
    joined = {r["message_id"] for w in distributed for r in w.records.memberships}
    assert joined == set(ids[30:])  # the known messages of another list gain list "s"
    assert (dist_known.message_ids, dist_known.memberships) == (seq_known.message_ids, seq_known.memberships)


def test_runner_choice_errors_are_one_line():
    with pytest.raises(runners.RunnerError, match="unknown task runner"):
        runners.check_runner("ray")
    with pytest.raises(runners.RunnerError, match="needs --task-runner dask"):
        runners.check_runner("default", "tcp://127.0.0.1:8786")
    with pytest.raises(runners.RunnerError, match="scheduler address"):
        runners.check_runner("dask", "127.0.0.1:8786")
    assert runners.make_task_runner("default") is None


def test_cli_rejects_bad_runner(tmp_path):
    shutil.copy(SEEDS_MBOX, tmp_path / "seeds.mbox")
    cfg = write_config(tmp_path, mbox_source("sample", "seeds.mbox"))
    r = run_cli("ingest", "--config", str(cfg), "--task-runner", "spark")
    assert r.returncode == 1
    assert r.stderr.decode().strip().splitlines() == ["listbench: unknown task runner 'spark' (use one of: default, dask)"]


# --- the whole flow: default runner vs a two-worker Dask LocalCluster ------------------------

def _sample(tmp):
    """The sample plus a second copy as another list (so the second source only adds memberships);
    the first is committed in parts of two messages (on Dask: two of them spilled by the worker)."""
    shutil.copy(SEEDS_MBOX, tmp / "seeds.mbox")
    shutil.copy(SEEDS_MBOX, tmp / "mirror.mbox")
    return load_config(write_config(tmp, mbox_source("sample", "seeds.mbox", part_messages=2)
                                    + mbox_source("mirror", "mirror.mbox")))


@pytest.mark.slow
def test_dask_local_cluster_gives_the_same_warehouse(tmp_path, prefect_api):
    from flows.ingest import run_ingest

    (tmp_path / "default").mkdir()
    (tmp_path / "dask").mkdir()
    cfg_default, cfg_dask = _sample(tmp_path / "default"), _sample(tmp_path / "dask")

    t0 = time.perf_counter()
    a = run_ingest(cfg_default)
    t1 = time.perf_counter()
    b = run_ingest(cfg_dask, task_runner="dask")
    t2 = time.perf_counter()
    TIMINGS.update(default=t1 - t0, dask=t2 - t1)
    print(f"\nsample ingest: default runner {t1 - t0:.1f} s, Dask LocalCluster(2) {t2 - t1:.1f} s")

    assert a["failed"] == b["failed"] == 0
    strip = ("status", "messages", "messages_added", "results", "runs", "quarantined")
    assert [{k: u[k] for k in ("source", "unit", *strip)} for u in b["units"]] == \
           [{k: u[k] for k in ("source", "unit", *strip)} for u in a["units"]]
    assert [u["messages_added"] for u in b["units"]] == [5, 0]
    res_a, res_b = _rows(cfg_default, RESULT_SQL), _rows(cfg_dask, RESULT_SQL)
    assert len(res_a) >= 500
    assert res_b == res_a
    for sql in ("SELECT message_id, list_name, lists, posted_at, subject FROM messages",
                "SELECT message_id, list_name, unit FROM memberships",
                "SELECT run_id, benchmark, system, duplicate_of FROM runs",
                "SELECT source, unit, status, sha256, messages, messages_added FROM archives"):
        assert _rows(cfg_dask, sql) == _rows(cfg_default, sql), sql
    assert _rows(cfg_dask, "SELECT count(*) FROM memberships") == [(10,)]
    for cfg in (cfg_default, cfg_dask):  # the sample in three parts, the mirror in one
        assert Lake(cfg.lake_dir).read("batches").num_rows == 4
    assert list((cfg_dask.data_dir / "spill").iterdir()) == []  # the run's spill folder is gone

    again = run_ingest(cfg_dask, task_runner="dask")  # a re-run on Dask adds nothing either
    assert [u["status"] for u in again["units"]] == ["unchanged", "unchanged"]
    assert _rows(cfg_dask, RESULT_SQL) == res_a

    # the mirror grows by one post: its known messages are hinted to the worker, the rows agree
    first = SEEDS_MBOX.read_bytes().split(b"\nFrom ")[0]
    envelope, rest = first.split(b"\n", 1)
    for cfg in (cfg_default, cfg_dask):
        with open(cfg.data_dir.parent / "mirror.mbox", "ab") as f:
            f.write(envelope + b"\nMessage-ID: <grown@listbench.test>\n" + rest.rstrip(b"\n") + b"\n\n")
    a2, b2 = run_ingest(cfg_default), run_ingest(cfg_dask, task_runner="dask")
    assert [(u["status"], u["messages"], u["messages_added"]) for u in b2["units"]] == \
           [(u["status"], u["messages"], u["messages_added"]) for u in a2["units"]] == \
           [("unchanged", 0, 0), ("ok", 6, 1)]
    assert _rows(cfg_dask, RESULT_SQL) == _rows(cfg_default, RESULT_SQL)
    assert _rows(cfg_dask, "SELECT count(*) FROM runs WHERE message_id = 'grown@listbench.test'") > [(0,)]
    for sql in ("SELECT message_id, list_name, unit FROM memberships", "SELECT run_id, message_id FROM runs"):
        assert _rows(cfg_dask, sql) == _rows(cfg_default, sql), sql
    assert list((cfg_dask.data_dir / "spill").iterdir()) == []  # the digests file went with the folder
