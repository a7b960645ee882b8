"""The real Prefect ingest flow on the bundled sample, queried in DuckDB; re-runs add nothing."""

from __future__ import annotations

import shutil

import pytest

from flows.config import load_config
from tests.conftest import SEEDS_MBOX, mbox_source, write_config
from warehouse.db import query


@pytest.fixture(scope="module")
def sample_cfg(tmp_path_factory, prefect_api):
    tmp = tmp_path_factory.mktemp("flow")
    shutil.copy(SEEDS_MBOX, tmp / "seeds.mbox")
    return load_config(write_config(tmp, mbox_source("sample", "seeds.mbox")))


def _count(cfg, sql):
    return query(cfg.db_path, sql)[1][0][0]


def test_ingest_sample_then_rerun_adds_nothing(sample_cfg):
    from flows.ingest import run_ingest

    first = run_ingest(sample_cfg)
    assert first["failed"] == 0
    (unit,) = first["units"]
    assert (unit["status"], unit["messages"], unit["messages_added"]) == ("ok", 5, 5)
    rows = _count(sample_cfg, "SELECT count(*) FROM benchmark_results")
    assert rows >= 500
    per_bench = dict(query(sample_cfg.db_path,
                           "SELECT benchmark, count(DISTINCT message_id) FROM benchmark_results GROUP BY 1")[1])
    assert per_bench == {"unixbench": 1, "lmbench": 2, "netperf": 1, "bonnie": 1}
    assert _count(sample_cfg, "SELECT count(*) FROM quarantine") == 0
    assert _count(sample_cfg, "SELECT count(*) FROM messages") == 5

    second = run_ingest(sample_cfg)
    assert second["units"][0]["status"] == "unchanged"
    assert _count(sample_cfg, "SELECT count(*) FROM benchmark_results") == rows
    assert _count(sample_cfg, "SELECT count(*) FROM messages") == 5
    assert _count(sample_cfg, "SELECT count(*) FROM archives") == 2


def test_known_values_reach_duckdb(sample_cfg):
    v = query(sample_cfg.db_path,
              "SELECT value, unit FROM benchmark_results WHERE benchmark = 'unixbench'"
              " AND system = 'Luvalley' AND metric = 'index_score' AND params['copies'] = '1'")[1]
    assert v == [(631.2, "index")]
    v = query(sample_cfg.db_path,
              "SELECT value FROM benchmark_results WHERE benchmark = 'netperf' AND system = 'xen.pv'"
              " AND params['test'] = 'TCP_RR' AND params['size'] = '1'")[1]
    assert v == [(18052.37,)]


def test_progress_events_follow_the_run(sample_cfg):
    from flows import pipeline, summary

    events = []
    stop = summary.observe(lambda e, d: events.append((e, d.get("source"), d.get("units"), d.get("status"))))
    try:
        pipeline.run(sample_cfg)
    finally:
        stop()
    assert events == [("source", "sample", 1, None), ("unit", "sample", None, "unchanged")]


def test_credentials_in_a_source_url_reach_no_prefect_record(tmp_path, prefect_api):
    """Flow and task runs (names, parameters, tags), artifacts and logs hold no password."""
    import json

    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import (
        FlowRunFilter,
        FlowRunFilterId,
        LogFilter,
        LogFilterFlowRunId,
    )

    from flows.ingest import run_ingest
    from tests.httpserver import Site

    secret = "flow-pa55-SECRET"
    site = Site().start()
    try:
        site.add("/list/current.mbox", SEEDS_MBOX.read_bytes(), auth=f"bob:{secret}")
        site.add("/list/gone.mbox", b"", status=404)
        src = "".join(mbox_source(n, site.url(f"/list/{n}.mbox").replace("http://", f"http://bob:{secret}@"))
                      for n in ("current", "gone"))
        cfg = load_config(write_config(tmp_path, src, "[http]\nrequests_per_second = 0\nretries = 0\n"))
        out = run_ingest(cfg)
    finally:
        site.stop()
    assert [u["status"] for u in out["units"]] == ["ok", "failed"]
    assert secret not in json.dumps(out)
    with get_client(sync_client=True) as client:
        (run,) = [r for r in client.read_flow_runs(limit=200) if r.parameters.get("config_path") == str(cfg.path)]
        tasks = client.read_task_runs(flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[run.id])))
        artifacts = client.read_artifacts(flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[run.id])))
        logs = client.read_logs(log_filter=LogFilter(flow_run_id=LogFilterFlowRunId(any_=[run.id])))
    assert tasks and artifacts
    for rec in [run, *tasks, *artifacts, *logs]:
        assert secret not in rec.model_dump_json(), type(rec).__name__


def test_a_planted_slow_message_is_quarantined_and_its_unit_loads(tmp_path, prefect_api, monkeypatch):
    """Through the Prefect flow: the stuck message is stopped after its budget; the unit is ok."""
    from flows import parallel
    from flows.ingest import run_ingest
    from tests import slow_plant
    from tests.mboxes import numbered_mbox, planted

    monkeypatch.setattr(parallel, "decode_batch", slow_plant.decode_batch)
    ids = numbered_mbox(tmp_path / "slow.mbox", 30, {17: planted(17, slow_plant.MARK_SLOW)})
    cfg = load_config(write_config(tmp_path, mbox_source("slow", "slow.mbox"), extra="[limits]\nmessage_timeout_s = 1\n"))
    out = run_ingest(cfg)
    (unit,) = out["units"]
    assert (unit["status"], unit["messages"], unit["messages_added"]) == ("ok", 30, 30)
    assert unit["skipped_reasons"] == ["message 17: extraction timed out (over 1 s)"]
    assert _count(cfg, "SELECT count(*) FROM messages") == 30
    assert query(cfg.db_path, "SELECT expectation, message_id, json_extract(row_json, '$.index')::INT "
                              "FROM quarantine WHERE table_name = 'messages'")[1] == [
        ("extraction timed out", "p17@test", 17)]
    assert _count(cfg, "SELECT count(DISTINCT message_id) FROM runs") == 3
    assert {r[0] for r in query(cfg.db_path, "SELECT message_id FROM messages")[1]} == set(ids)


def test_a_poison_mbox_loads_every_other_message_and_reruns_add_nothing(tmp_path, prefect_api):
    """The issue's case: 451 messages, poison at #420 (1,000-deep MIME, a charset Python refuses)."""
    from flows.ingest import run_ingest
    from tests.mboxes import numbered_mbox

    deep = (b"From: a@test\nMessage-ID: <p420@test>\nSubject: deep\nContent-Type: message/rfc822\n\n"
            + b"From: a@test\nSubject: deeper\nContent-Type: message/rfc822\n\n" * 1000 + b"\n\nbody\n")
    charset = (b"From: a@test\nMessage-ID: <p421@test>\nContent-Type: multipart/mixed; boundary=BB\n\n--BB\n"
               b"Content-Type: text/plain; charset=undefined\n\nhello\n--BB--\n")
    numbered_mbox(tmp_path / "poison.mbox", 451, {420: deep, 421: charset})
    cfg = load_config(write_config(tmp_path, mbox_source("poison", "poison.mbox")))
    first = run_ingest(cfg)
    (unit,) = first["units"]
    assert (first["failed"], unit["status"], unit["messages_added"]) == (0, "ok", 451)
    assert _count(cfg, "SELECT count(*) FROM messages") == 451
    assert query(cfg.db_path, "SELECT message_id, notes FROM messages WHERE message_id IN ('p420@test', 'p421@test')"
                              " ORDER BY 1")[1] == [
        ("p420@test", ["MIME tree cut at depth 50"]), ("p421@test", ["unusable charset 'undefined'"])]
    assert _count(cfg, "SELECT count(DISTINCT message_id) FROM runs") == 45  # re-posted seeds: duplicate_of
    second = run_ingest(cfg)
    assert (second["failed"], second["units"][0]["status"]) == (0, "unchanged")
