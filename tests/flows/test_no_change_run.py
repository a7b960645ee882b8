"""A re-run with nothing new is only the check: no parse, no GX, no views rebuild, no read of the
lake's message ids; and the worker pool started ahead answers the first unit."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap

from tests.conftest import ROOT, SEEDS_MBOX, mbox_source, write_config

SECOND_RUN = textwrap.dedent("""
    import json, sys
    from flows import parallel, pipeline, warmup
    from flows.config import load_config
    from warehouse.lake import Lake
    import warehouse.db

    seen = {"parsed": 0, "views_rebuilt": 0, "column_sets": []}

    def no_parse(*a, **k):
        seen["parsed"] += 1
        raise AssertionError("an unchanged unit was parsed")

    parallel.decode_parallel = no_parse
    rebuild = warehouse.db.refresh_views  # every rebuild, the run's own or its background refresher's
    def counted(*a, **k):
        seen["views_rebuilt"] += 1
        return rebuild(*a, **k)
    warehouse.db.refresh_views = counted
    column_set = Lake.column_set
    def watched(self, table, col):
        seen["column_sets"].append(table)
        return column_set(self, table, col)
    Lake.column_set = watched

    cfg = load_config(sys.argv[1])
    warmup.prestart(cfg)  # a lake exists: nothing is started ahead
    from flows import workers
    seen["prestarted"] = sorted(workers._STARTING)
    summary = pipeline.run(cfg).as_dict()
    seen["pools"] = sorted(workers._POOLS)
    seen["status"] = [u["status"] for u in summary["units"]]
    seen["gx"] = "great_expectations" in sys.modules
    seen["gate"] = "expectations.gate" in sys.modules
    print(json.dumps(seen))
""")

FIRST_RUN = textwrap.dedent("""
    import json, sys, time
    from flows import pipeline, warmup, workers
    from flows.config import load_config

    cfg = load_config(sys.argv[1])
    warmup.prestart(cfg)
    started = dict(workers._STARTING)
    summary = pipeline.run(cfg).as_dict()
    print(json.dumps({"prestarted": sorted(started), "pools": sorted(workers._POOLS),
                      "status": [u["status"] for u in summary["units"]],
                      "added": [u["messages_added"] for u in summary["units"]],
                      "gx": "great_expectations" in sys.modules}))
""")


def _run(code: str, cfg) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GX_ANALYTICS_ENABLED": "False"}
    p = subprocess.run([sys.executable, "-c", code, str(cfg)], cwd=ROOT, capture_output=True, text=True,
                       env=env, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    return json.loads(p.stdout.strip().splitlines()[-1])


def test_a_rerun_with_nothing_new_parses_validates_and_rebuilds_nothing(tmp_path):
    shutil.copy(SEEDS_MBOX, tmp_path / "seeds.mbox")
    cfg = write_config(tmp_path, mbox_source("sample", "seeds.mbox", message_timeout_s=30))
    first = _run(FIRST_RUN, cfg)
    assert first["status"] == ["ok"] and first["added"] == [5]
    assert first["prestarted"] and first["gx"]  # a new lake: GX was imported while the pool started
    assert first["pools"] == first["prestarted"]  # the small unit used the pool started ahead
    second = _run(SECOND_RUN, cfg)
    assert second["status"] == ["unchanged"]
    assert second["parsed"] == 0
    assert second["views_rebuilt"] == 1  # once, for the commit of the unit's ledger row (when it was checked)
    assert not second["gx"] and not second["gate"]
    assert second["prestarted"] == [] and second["pools"] == []
    assert "messages" not in second["column_sets"]


# What a run that finds nothing new must not import: Prefect (~2 CPU-s), the parsers, the worker
# pool, GX, Dask and Prefect's server stack. The check-first path records the run over REST.
HEAVY = ("prefect", "great_expectations", "expectations.gate", "flows.ingest", "flows.parallel",
         "flows.workers", "transforms.extract", "transforms.parsers", "transforms.handmade",
         "dask", "distributed", "prefect_dask", "sqlalchemy", "fastapi", "uvicorn")

CLI_RUN = textwrap.dedent("""
    import json, sys
    from flows.cli import app  # not main(): it would end the process once the ingest is done
    sys.argv = ["listbench", "ingest", "-c", sys.argv[1]]
    try:
        app()
        code = 0
    except SystemExit as exc:
        code = exc.code
    print(json.dumps({"code": code, "imported": sorted(m for m in %s if m in sys.modules)}))
""")


def _cli(cfg, api: str, *args: str) -> dict:
    code = CLI_RUN % (HEAVY,)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GX_ANALYTICS_ENABLED": "False", "PREFECT_API_URL": api}
    p = subprocess.run([sys.executable, "-c", code, str(cfg), *args], cwd=ROOT, capture_output=True,
                       text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    return json.loads(p.stdout.strip().splitlines()[-1])


def _api_url() -> str:
    from prefect.settings import PREFECT_API_URL

    url = PREFECT_API_URL.value()
    assert url
    return url


def _no_change_runs(after: str) -> list:
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterTags

    with get_client(sync_client=True) as client:
        runs = client.read_flow_runs(flow_run_filter=FlowRunFilter(tags=FlowRunFilterTags(all_=["no-change"])))
    return [r for r in runs if r.parameters.get("config_path") == after]


def test_a_cli_run_with_nothing_new_imports_no_prefect_and_is_recorded(tmp_path, prefect_api):
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import ArtifactFilter, ArtifactFilterFlowRunId

    from flows.config import load_config
    from tests.conftest import plain_ingest
    from warehouse.db import query

    shutil.copy(SEEDS_MBOX, tmp_path / "seeds.mbox")
    cfg = write_config(tmp_path, mbox_source("sample", "seeds.mbox", message_timeout_s=30))
    assert plain_ingest(cfg)["units"][0]["status"] == "ok"
    api = _api_url()

    second = _cli(cfg, api)
    assert second == {"code": 0, "imported": []}
    db = load_config(cfg).db_path
    ledger = query(db, "SELECT status, ingest_run FROM archives ORDER BY fetched_at")[1]
    assert [s for s, _ in ledger] == ["ok", "unchanged"]  # the check's ledger row, and the views show it
    (run,) = _no_change_runs(str(cfg))
    assert run.state.type.value == "COMPLETED" and run.flow_id
    assert ledger[1][1] in run.state.message and "1 units checked, none changed" in run.state.message
    with get_client(sync_client=True) as client:
        arts = client.read_artifacts(artifact_filter=ArtifactFilter(
            flow_run_id=ArtifactFilterFlowRunId(any_=[run.id])))
    units = next(json.loads(a.data) for a in arts if a.key == "ingest-units")
    assert units == [{"source": "sample", "unit": "seeds.mbox", "status": "unchanged", "messages": 0,
                      "messages_added": 0, "runs": 0, "results": 0, "quarantined": 0, "error": None}]
    assert {a.key for a in arts} == {"ingest-units", "ingest-summary"}

    # a changed unit: the flow runs (Prefect imported), and nothing is recorded as no-change
    with open(tmp_path / "seeds.mbox", "ab") as f:
        f.write(b"From a@b Mon Jan  1 00:00:00 2024\nMessage-ID: <new@x>\nSubject: hi\n\nhello\n")
    third = _cli(cfg, api)
    assert third["code"] == 0 and "prefect" in third["imported"] and "flows.ingest" in third["imported"]
    assert len(_no_change_runs(str(cfg))) == 1
    assert query(db, "SELECT status, messages_added FROM archives ORDER BY fetched_at")[1][-1] == ("ok", 1)


def test_what_the_checks_asked_the_flow_does_not_ask_again(tmp_path, prefect_api, monkeypatch):
    from flows import checkfirst, handover, steps
    from flows.config import load_config
    from tests.conftest import plain_ingest

    for name in ("a", "b"):
        shutil.copy(SEEDS_MBOX, tmp_path / f"{name}.mbox")
    cfg = write_config(tmp_path, mbox_source("a", "a.mbox", message_timeout_s=30)
                       + mbox_source("b", "b.mbox", message_timeout_s=30))
    plain_ingest(cfg)
    with open(tmp_path / "b.mbox", "ab") as f:
        f.write(b"From a@b Mon Jan  1 00:00:00 2024\nMessage-ID: <new@x>\nSubject: hi\n\nhello\n")
    listed, fetched = [], []
    list_units, fetch_unit = steps.list_units, steps.fetch_unit
    monkeypatch.setattr(steps, "list_units", lambda s, *a: listed.append(s.name) or list_units(s, *a))
    monkeypatch.setattr(steps, "fetch_unit", lambda u, *a: fetched.append(u.source) or fetch_unit(u, *a))
    monkeypatch.setenv("PREFECT_API_URL", _api_url())
    result = checkfirst.ingest(load_config(cfg))
    assert [(u["source"], u["status"], u["messages_added"]) for u in result["units"]] == [
        ("a", "unchanged", 0), ("b", "ok", 1)]
    assert listed == ["a", "b"] and fetched == ["a", "b"]  # by the checks only: the flow took them over
    assert handover._HANDED == {}


def test_with_the_temporary_api_a_run_with_nothing_new_is_recorded_without_the_flow(tmp_path):
    """No PREFECT_API_URL: the temporary API starts first and comes up while the checks run; the
    run is recorded over REST like against a running server (no flow engine, no parsers)."""
    import sqlite3

    from tests.conftest import plain_ingest

    shutil.copy(SEEDS_MBOX, tmp_path / "seeds.mbox")
    cfg = write_config(tmp_path, mbox_source("sample", "seeds.mbox", message_timeout_s=30))
    plain_ingest(cfg)
    env = {k: v for k, v in os.environ.items() if k != "PREFECT_API_URL"}
    env.update(PYTHONPATH=str(ROOT), GX_ANALYTICS_ENABLED="False", PREFECT_HOME=str(tmp_path / "prefect-home"),
               PREFECT_SERVER_ANALYTICS_ENABLED="false")
    p = subprocess.run([sys.executable, "-c", CLI_RUN % (HEAVY,), str(cfg)], cwd=ROOT, capture_output=True,
                       text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    out = json.loads(p.stdout.strip().splitlines()[-1])
    assert out == {"code": 0, "imported": ["prefect"]}  # its settings only: the server runs elsewhere
    with sqlite3.connect(tmp_path / "prefect-home" / "prefect.db") as db:
        tags = [json.loads(t) for (t,) in db.execute("SELECT tags FROM flow_run")]
    assert tags == [["no-change"]] or (len(tags) == 1 and "no-change" in tags[0])
