"""The lake on object storage: a local S3-compatible server (moto server mode) on 127.0.0.1; Delta
tables written by delta-rs (conditional PUT), read by DuckDB through fsspec."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time

import pytest

from flows.config import ConfigError, load_config
from tests.conftest import (
    ROOT,
    SEEDS_MBOX,
    mbox_source,
    plain_ingest,
    run_cli,
    write_config,
)
from warehouse import storage
from warehouse.lake import Lake

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
    assert Lake(cfg.lake_dir, cfg.storage).options["AWS_ENDPOINT_URL"] == "http://127.0.0.1:9"
    local = load_config(write_config(tmp_path, "").parent / "listbench.toml")
    assert not local.remote and local.lake_dir == tmp_path / "data" / "lake"


def test_loading_a_config_leaves_no_storage_options_behind(tmp_path):
    """Two configs over one bucket in one process: each lake gets its own config's options, and a
    lake opened without options has none (loading a config sets no process-wide state)."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = load_config(_config(tmp_path / "a", "http://127.0.0.1:9", "same"))
    b = load_config(_config(tmp_path / "b", "http://127.0.0.1:10", "same"))
    assert a.lake_dir == b.lake_dir
    assert Lake(a.lake_dir, a.storage).options["AWS_ENDPOINT_URL"] == "http://127.0.0.1:9"
    assert Lake(b.lake_dir, b.storage).options["AWS_ENDPOINT_URL"] == "http://127.0.0.1:10"
    assert "AWS_ENDPOINT_URL" not in (Lake(a.lake_dir).options or {})


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


def test_delta_options_for_s3_use_a_conditional_put_and_no_credentials():
    opts = storage.delta_options("s3://b/p/lake", {"endpoint_url": "http://127.0.0.1:9", "region_name": "eu-west-1"})
    assert opts == {"conditional_put": "etag", "AWS_ENDPOINT_URL": "http://127.0.0.1:9", "AWS_ALLOW_HTTP": "true",
                    "AWS_REGION": "eu-west-1"}
    locked = storage.delta_options("s3://b/p", {"delta": {"AWS_S3_LOCKING_PROVIDER": "dynamodb"}})
    assert locked == {"AWS_S3_LOCKING_PROVIDER": "dynamodb"}
    assert storage.delta_options("/local/lake", {}) is None


# --- against the S3 server ----------------------------------------------------------------------

def test_plain_ingest_into_s3_then_sql_and_rerun_adds_nothing(tmp_path, s3):
    cfg_path = _config(tmp_path, s3, "plain")
    t0 = time.perf_counter()
    first = plain_ingest(cfg_path)
    print(f"\nsample ingest into the S3 lake (plain run): {time.perf_counter() - t0:.2f} s")
    assert first["failed"] == 0
    assert [u["messages_added"] for u in first["units"]] == [5, 0]
    counts = _sql_counts(cfg_path)
    assert counts[:3] == [5, 574, 10] and counts[3] == 2
    keys = _keys(s3, "plain")
    assert any(k.startswith("plain/lake/results/_delta_log/") for k in keys)
    assert any(k.startswith("plain/lake/batches/_delta_log/") for k in keys)
    assert not (tmp_path / "data").exists()  # nothing of the lake written locally
    assert (tmp_path / "local" / "listbench.duckdb").exists()

    second = plain_ingest(cfg_path)
    assert [u["status"] for u in second["units"]] == ["unchanged", "unchanged"]
    assert _sql_counts(cfg_path) == [5, 574, 10, 4]


def test_prefect_flow_into_s3(tmp_path, s3, prefect_api):
    from flows.ingest import run_ingest

    cfg = load_config(_config(tmp_path, s3, "flow"))
    result = run_ingest(cfg)
    assert result["failed"] == 0
    assert _sql_counts(cfg.path)[:3] == [5, 574, 10]


def test_two_writer_processes_race_on_s3(tmp_path, s3):
    from tests.warehouse.lake_race import _check_race, _race

    cfg = load_config(_config(tmp_path, s3, "race"))
    lake = Lake(cfg.lake_dir, cfg.storage).open()
    n = 20
    stats = _race(str(cfg.lake_dir), "-", n, env={"AWS_ENDPOINT_URL": s3, "AWS_ALLOW_HTTP": "true"})
    _check_race(lake, n)
    print(f"\nS3 (moto): two writers x {n} commits: {stats}")


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


@pytest.mark.parametrize("point", ["commit:appended-one", "commit:staged", "commit:published"])
def test_sigkill_mid_commit_on_s3_then_rerun_has_no_loss_and_no_duplicates(tmp_path, s3, point):
    prefix = f"crash-{point.replace(':', '-')}"
    cfg_path = _config(tmp_path, s3, prefix)
    p = subprocess.run([sys.executable, "-m", "tests.crash_ingest", str(cfg_path)], cwd=ROOT,
                       env={**os.environ, "LISTBENCH_FAILPOINT": point}, capture_output=True, timeout=300)
    assert p.returncode == -9, p.stderr.decode()[-2000:]
    cfg = load_config(cfg_path)
    lake = Lake(cfg.lake_dir, cfg.storage)
    assert lake.read("messages").num_rows == (5 if point == "commit:published" else 0)  # the batch whole or not
    plain_ingest(cfg_path)
    counts = _sql_counts(cfg_path)
    assert counts[:3] == [5, 574, 10]
    plain_ingest(cfg_path)
    assert _sql_counts(cfg_path)[:3] == [5, 574, 10]
