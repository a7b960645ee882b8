"""The lake on object storage: a local S3-compatible server (moto server mode) on 127.0.0.1, s3fs, DuckDB via fsspec."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time

import pytest

from flows import pipeline
from flows.config import ConfigError, load_config
from tests.conftest import SEEDS_MBOX, lake_row, mbox_source, plain_ingest, run_cli, write_config
from warehouse import storage
from warehouse.lake import READY, STARTED, Lake
from warehouse.schema import to_table

BUCKET = "listbench-test"
CREDS = {"AWS_ACCESS_KEY_ID": "testing-key", "AWS_SECRET_ACCESS_KEY": "testing-secret",
         "AWS_DEFAULT_REGION": "us-east-1"}
COUNTS = ("SELECT (SELECT count(*) FROM messages) AS m, (SELECT count(*) FROM benchmark_results) AS r,"
          " (SELECT count(*) FROM memberships) AS ms, (SELECT count(*) FROM archives) AS a")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def s3():
    """`moto_server` on 127.0.0.1 (a separate process, like a real object store); yields its endpoint URL."""
    port = _free_port()
    saved = {k: os.environ.get(k) for k in CREDS}
    os.environ.update(CREDS)
    proc = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    endpoint = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("moto_server did not start") from None
                time.sleep(0.1)
        import boto3

        boto3.client("s3", endpoint_url=endpoint).create_bucket(Bucket=BUCKET)  # s3fs mkdir fails on moto
        yield endpoint
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _config(tmp, endpoint: str, prefix: str):
    shutil.copy(SEEDS_MBOX, tmp / "seeds.mbox")
    shutil.copy(SEEDS_MBOX, tmp / "mirror.mbox")
    extra = f'local_dir = "local"\n\n[storage]\nendpoint_url = "{endpoint}"\n'
    text = write_config(tmp, mbox_source("sample", "seeds.mbox") + mbox_source("mirror", "mirror.mbox"), extra)
    body = text.read_text().replace('data_dir = "data"', f'data_dir = "s3://{BUCKET}/{prefix}"')
    text.write_text(body)
    return text


def _keys(endpoint: str, prefix: str) -> list[str]:
    import boto3

    pages = boto3.client("s3", endpoint_url=endpoint).get_paginator("list_objects_v2").paginate(
        Bucket=BUCKET, Prefix=prefix + "/")
    return [o["Key"] for p in pages for o in p.get("Contents", [])]


def _sql_counts(cfg_path) -> list[int]:
    r = run_cli("sql", COUNTS, "--config", str(cfg_path), "--format", "csv")
    assert r.returncode == 0, r.stderr.decode()[-2000:]
    return [int(x) for x in r.stdout.decode().split()[-1].split(",")]


def test_config_with_s3_data_dir_keeps_local_state_local(tmp_path):
    cfg = load_config(_config(tmp_path, "http://127.0.0.1:9", "p"))
    assert cfg.remote and cfg.data_url == f"s3://{BUCKET}/p"
    assert cfg.lake_dir == f"s3://{BUCKET}/p/lake"
    assert cfg.data_dir == tmp_path / "local" and cfg.db_path.parent == tmp_path / "local"
    assert cfg.storage == {"endpoint_url": "http://127.0.0.1:9"}
    assert storage.options_for(f"s3://{BUCKET}/p/lake/messages") == {"endpoint_url": "http://127.0.0.1:9"}
    local = load_config(write_config(tmp_path, "").parent / "listbench.toml")
    assert not local.remote and local.lake_dir == tmp_path / "data" / "lake"


def test_credentials_in_the_config_are_refused(tmp_path):
    p = write_config(tmp_path, "", '[storage]\nsecret = "hunter2"\n')
    p.write_text(p.read_text().replace('data_dir = "data"', 'data_dir = "s3://b/p"'))
    with pytest.raises(ConfigError) as e:
        load_config(p)
    assert "AWS_SECRET_ACCESS_KEY" in str(e.value) and "hunter2" not in str(e.value)


def test_file_url_data_dir_is_a_local_path(tmp_path):
    p = write_config(tmp_path, "")
    p.write_text(p.read_text().replace('data_dir = "data"', f'data_dir = "file://{tmp_path}/d"'))
    cfg = load_config(p)
    assert not cfg.remote and cfg.data_dir == tmp_path / "d"


# --- remote commit protocol on an in-memory fsspec filesystem (no server needed) --------------

def _msg(mid: str) -> dict:
    return lake_row("messages", message_id=mid, list_name="l", batch_id="b")


def test_remote_lake_recovers_like_the_local_one():
    import fsspec

    url = f"memory://recover-{os.getpid()}-{time.monotonic_ns()}/lake"
    lake = Lake(url).open()
    fs = fsspec.filesystem("memory")
    lake.commit("b1", {"messages": to_table("messages", [_msg("a")])})
    assert lake.column_set("messages", "message_id") == {"a"}
    # a READY batch (crash after READY) is rolled forward; an old un-READY one is dropped;
    # a young un-READY one may be another machine's batch in flight and is left alone
    for batch, mid, ready, age in (("b-ready", "kept", True, 0), ("b-old", "lost", False, 7200),
                                   ("b-young", "pending", False, 0)):
        base = f"{lake.staging}/{batch}"
        lake._put(to_table("messages", [_msg(mid)]), lake.staging / batch / "messages.parquet", "messages")
        fs.pipe_file(f"{base}/{STARTED}", json.dumps({"at": time.time() - age}).encode())
        if ready:
            fs.pipe_file(f"{base}/{READY}", json.dumps({"tables": ["messages"]}).encode())
    assert lake.recover() == ["b-ready"]
    assert lake.column_set("messages", "message_id") == {"a", "kept"}
    assert [p.rsplit("/", 1)[-1] for p in fs.ls(str(lake.staging), detail=False)] == ["b-young"]
    # compaction on the remote lake: one part, same rows, the old parts gone
    lake.commit("b2", {"messages": to_table("messages", [_msg("b")])})
    assert lake.compact("messages") == (3, 1)
    assert lake.column_set("messages", "message_id") == {"a", "b", "kept"}


# --- against the S3 server ----------------------------------------------------------------------

def test_plain_ingest_into_s3_then_sql_and_rerun_adds_nothing(tmp_path, s3):
    cfg_path = _config(tmp_path, s3, "plain")
    t0 = time.perf_counter()
    first = plain_ingest(cfg_path)
    print(f"\nsample ingest into the S3 lake (plain run): {time.perf_counter() - t0:.2f} s")
    assert first["failed"] == 0
    assert [u["messages_added"] for u in first["units"]] == [5, 0]
    counts = _sql_counts(cfg_path)
    assert counts[:3] == [5, 567, 10] and counts[3] == 2
    keys = _keys(s3, "plain")
    assert any(k.startswith("plain/lake/results/part-") and "0000-empty" not in k for k in keys)
    assert not [k for k in keys if "/_staging/" in k or "/_lock/" in k], keys
    assert not (tmp_path / "data").exists()  # nothing of the lake written locally
    assert (tmp_path / "local" / "listbench.duckdb").exists()

    second = plain_ingest(cfg_path)
    assert [u["status"] for u in second["units"]] == ["unchanged", "unchanged"]
    assert _sql_counts(cfg_path) == [5, 567, 10, 4]


def test_prefect_flow_into_s3(tmp_path, s3, prefect_api):
    from flows.ingest import run_ingest

    cfg = load_config(_config(tmp_path, s3, "flow"))
    result = run_ingest(cfg)
    assert result["failed"] == 0
    assert _sql_counts(cfg.path)[:3] == [5, 567, 10]


def test_second_writer_is_refused_while_the_marker_is_held(tmp_path, s3):
    cfg = load_config(_config(tmp_path, s3, "locked"))
    with storage.lake_lock(cfg.lake_dir), pytest.raises(pipeline.IngestBusy, match="_lock/writer.json"):
        pipeline.run(cfg)
    assert not [k for k in _keys(s3, "locked") if "/_lock/" in k]  # released
    assert plain_ingest(cfg.path)["failed"] == 0


def test_duckdb_file_records_the_lake_but_no_credentials(tmp_path, s3):
    import duckdb

    cfg = load_config(_config(tmp_path, s3, "nocreds"))
    plain_ingest(cfg.path)
    con = duckdb.connect(str(cfg.db_path), read_only=True)
    try:
        row = con.execute("SELECT lake, options FROM _listbench_storage").fetchone()
    finally:
        con.close()
    assert row == (f"s3://{BUCKET}/nocreds/lake", json.dumps({"endpoint_url": s3}))
    assert b"testing-secret" not in cfg.db_path.read_bytes()


@pytest.mark.parametrize("point", ["commit:staged", "commit:ready", "commit:published-one"])
def test_sigkill_mid_commit_on_s3_then_rerun_has_no_loss_and_no_duplicates(tmp_path, s3, point):
    from tests.conftest import ROOT

    cfg_path = _config(tmp_path, s3, f"crash-{point.replace(':', '-')}")
    p = subprocess.run([sys.executable, "-m", "tests.crash_ingest", str(cfg_path)], cwd=ROOT,
                       env={**os.environ, "LISTBENCH_FAILPOINT": point}, capture_output=True, timeout=300)
    assert p.returncode == -9, p.stderr.decode()[-2000:]
    prefix = f"crash-{point.replace(':', '-')}"
    visible = [k for k in _keys(s3, prefix) if "/_staging/" not in k and "/_lock/" not in k]
    if point == "commit:staged":  # killed before READY: nothing of the batch is visible
        assert not [k for k in visible if "/part-" in k and "part-0000-empty" not in k], visible
    plain_ingest(cfg_path)  # the dead writer's marker is recognised (same host, process gone)
    counts = _sql_counts(cfg_path)
    assert counts[:3] == [5, 567, 10]
    plain_ingest(cfg_path)
    assert _sql_counts(cfg_path)[:3] == [5, 567, 10]
