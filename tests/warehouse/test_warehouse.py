"""Crash safety (SIGKILL mid-write), concurrent readers and writers, re-extraction, compaction."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys

import pytest

from flows.config import load_config
from tests.conftest import ROOT, SEEDS_MBOX, mbox_source, plain_ingest, run_cli, write_config
from tests.mboxes import _setup
from warehouse.db import query

COUNTS = ("SELECT (SELECT count(*) FROM lake_messages), (SELECT count(DISTINCT message_id) FROM lake_messages),"
          " (SELECT count(*) FROM results), (SELECT count(*) FROM lake_runs), (SELECT count(*) FROM archives"
          " WHERE status = 'ok')")


@pytest.fixture(scope="module")
def clean_counts(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("clean")
    cfg = _setup(tmp)
    plain_ingest(cfg)
    return query(load_config(cfg).db_path, COUNTS)[1][0]


@pytest.mark.parametrize("point", ["commit:appended-one", "commit:staged", "commit:published"])
def test_sigkill_mid_write_then_rerun_has_no_loss_and_no_duplicates(tmp_path, clean_counts, point):
    cfg = _setup(tmp_path)
    env = {**os.environ, "LISTBENCH_FAILPOINT": point}
    p = subprocess.run([sys.executable, "-m", "tests.crash_ingest", str(cfg)], cwd=ROOT, env=env,
                       capture_output=True, timeout=300)
    assert p.returncode == -signal.SIGKILL, p.stderr.decode()[-2000:]
    from warehouse.lake import Lake

    lake = Lake(tmp_path / "data" / "lake")
    # nothing half-written is visible: every file of the tables' current versions is complete,
    # and the first batch (five messages with their runs) is there whole or not at all
    import pyarrow.parquet as pq

    for t in ("messages", "runs", "results", "archives"):
        for f in lake.parts(t):
            pq.read_metadata(f)
    visible = lake.read("messages").num_rows, lake.read("runs").num_rows, lake.read("archives").num_rows
    assert visible == ((5, 17, 1) if point == "commit:published" else (0, 0, 0))
    if point == "commit:staged":  # every table written, the batch not committed: its rows stay invisible
        assert lake.table("messages").to_pyarrow_table().num_rows == 5
    plain_ingest(cfg)
    got = query(load_config(cfg).db_path, COUNTS)[1][0]
    assert got[0] == got[1], "duplicate messages"
    assert got == clean_counts
    plain_ingest(cfg)  # and a third run adds nothing
    assert query(load_config(cfg).db_path, COUNTS)[1][0] == clean_counts


def test_two_ingests_at_once_both_load_and_a_source_in_both_is_loaded_once(tmp_path, clean_counts):
    """Two `ingest` processes on one lake at the same moment: s0+s1 and s1+s2 (s1 in both)."""
    base = _setup(tmp_path)
    text = base.read_text()
    blocks = text.split("[[sources]]")
    head, srcs = blocks[0], ["[[sources]]" + b for b in blocks[1:]]
    cfgs = []
    for k, pick in enumerate(((0, 1), (1, 2))):
        p = tmp_path / f"w{k}.toml"
        p.write_text(head + "".join(srcs[i] for i in pick))
        cfgs.append(p)
    procs = [subprocess.Popen([sys.executable, "-m", "tests.crash_ingest", str(c)], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for c in cfgs]
    for p in procs:
        _, err = p.communicate(timeout=600)
        assert p.returncode == 0, err.decode()[-3000:]
    got = query(load_config(base).db_path, COUNTS)[1][0]
    assert got[:4] == clean_counts[:4]  # every message, run and result once
    assert got[4] in (3, 4)  # s1's fetch is in the ledger once per process that loaded it
    plain_ingest(base)
    assert query(load_config(base).db_path, COUNTS)[1][0][:4] == clean_counts[:4]


def test_reextract_after_parser_change_swaps_runs(tmp_path, monkeypatch):
    shutil.copy(SEEDS_MBOX, tmp_path / "seeds.mbox")
    cfg_path = write_config(tmp_path, mbox_source("sample", "seeds.mbox"))
    plain_ingest(cfg_path)
    cfg = load_config(cfg_path)
    before = query(cfg.db_path, "SELECT count(*) FROM benchmark_results")[1][0][0]
    from flows.reextract import reextract
    from transforms.parsers import PARSERS

    assert reextract(cfg).messages == 0  # same parsers: nothing to do
    real = PARSERS["bonnie"].parse

    def lossy(seg):  # a "parser change": bonnie now reads one value differently and drops seeks
        runs = real(seg)
        for run in runs:
            run.results = [r for r in run.results if not r.metric.startswith("random_seeks")]
            for r in run.results:
                if r.metric == "seq_output_block":
                    r.value += 1
        return runs

    import dataclasses

    monkeypatch.setitem(PARSERS, "bonnie", dataclasses.replace(PARSERS["bonnie"], parse=lossy))
    from tests.receivers import WebhookReceiver

    hook = WebhookReceiver()
    monkeypatch.setenv("LISTBENCH_WEBHOOK_URL", hook.url)
    try:
        rep = reextract(cfg, benchmark="bonnie")
    finally:
        hook.close()
    assert len(hook.posts) == 1
    assert hook.posts[0]["failures"][-1]["expectation"] == "rows per message not fewer than before (same parser version)"
    assert rep.messages == 1
    assert (rep.changed, rep.removed, rep.added) == (4, 8, 0)
    assert rep.lost_rows and rep.lost_rows[0]["before"] == 48 and rep.lost_rows[0]["after"] == 40
    after = query(cfg.db_path, "SELECT count(*) FROM benchmark_results")[1][0][0]
    assert after == before - 8
    vals = query(cfg.db_path, "SELECT value FROM benchmark_results WHERE benchmark = 'bonnie'"
                              " AND metric = 'seq_output_block' AND system = 'Pardus'")[1]
    assert vals == [(81597.0,)]
    # other benchmarks of the same messages are untouched
    assert query(cfg.db_path, "SELECT count(*) FROM benchmark_results WHERE benchmark <> 'bonnie'")[1][0][0] == before - 48
    # time travel: the lake as it was before the re-extraction, by version and by time
    import json

    r = run_cli("history", "--config", str(cfg_path), "--format", "json")
    assert r.returncode == 0, r.stderr.decode()
    hist = json.loads(r.stdout)
    assert [h["command"] for h in hist] == ["reextract:bonnie", "ingest"]
    assert "results+40" in hist[0]["added"] and "extractions+1" in hist[0]["added"]
    count = "SELECT count(*) AS n FROM benchmark_results"
    for point in (str(hist[1]["version"]), hist[1]["at"]):
        r = run_cli("sql", count, "--as-of", point, "--config", str(cfg_path), "--format", "csv")
        assert r.returncode == 0, r.stderr.decode()
        assert r.stdout.decode().split() == ["n", str(before)]
    r = run_cli("sql", count, "--as-of", str(hist[0]["version"]), "--config", str(cfg_path), "--format", "csv")
    assert r.stdout.decode().split() == ["n", str(after)]
    r = run_cli("sql", count, "--as-of", "yesterday", "--config", str(cfg_path))
    assert r.returncode == 1 and "not a version number nor an ISO 8601 time" in r.stderr.decode()


def test_compact_merges_parts_and_keeps_rows(tmp_path):
    cfg_path = _setup(tmp_path)
    plain_ingest(cfg_path)
    cfg = load_config(cfg_path)
    before = query(cfg.db_path, COUNTS)[1][0]
    r = run_cli("compact", "--config", str(cfg_path))
    assert r.returncode == 0, r.stderr.decode()
    out = r.stdout.decode()
    assert "results: 3 -> 1 files" in out and "vacuum: 0 files older than 7 days deleted" in out
    assert query(cfg.db_path, COUNTS)[1][0] == before
    r = run_cli("compact", "--config", str(cfg_path), "--z-order", "--retention-days", "0")
    assert r.returncode == 0, r.stderr.decode()
    assert "vacuum: 0 files" not in r.stdout.decode()  # the files compaction superseded are gone
    assert query(cfg.db_path, COUNTS)[1][0] == before


def test_ingest_compacts_a_fragmented_lake(tmp_path, clean_counts):
    cfg_path = _setup(tmp_path)
    cfg_path.write_text(cfg_path.read_text().replace('data_dir = "data"', 'data_dir = "data"\n[quality]\ncompact_after_parts = 2\n', 1))
    plain_ingest(cfg_path)
    cfg = load_config(cfg_path)
    from warehouse.lake import Lake

    assert len(Lake(cfg.lake_dir).parts("results")) == 1
    assert query(cfg.db_path, COUNTS)[1][0] == clean_counts


def test_a_grown_archive_adds_only_its_new_messages(tmp_path):
    from tests.httpserver import Site

    site = Site().start()
    try:
        first, rest = SEEDS_MBOX.read_bytes().split(b"\nFrom listbench-sample ", 1)
        route = site.add("/list/current.mbox", first + b"\n")
        cfg_path = write_config(tmp_path, mbox_source("grow", site.url("/list/current.mbox")),
                                "[http]\nrequests_per_second = 0\nretries = 0\n")
        one = plain_ingest(cfg_path)["units"][0]
        assert (one["status"], one["messages_added"]) == ("ok", 1)
        route.body = first + b"\nFrom listbench-sample " + rest  # the month grew by four posts
        two = plain_ingest(cfg_path)["units"][0]
        assert (two["status"], two["messages"], two["messages_added"]) == ("ok", 5, 4)
        three = plain_ingest(cfg_path)["units"][0]
        assert three["status"] == "unchanged"
        cfg = load_config(cfg_path)
        assert query(cfg.db_path, "SELECT count(*), count(DISTINCT message_id) FROM messages")[1] == [(5, 5)]
    finally:
        site.stop()


@pytest.mark.parametrize("name", ["d*ta 1", "d*t{a}%x"])
def test_glob_characters_in_data_dir_are_plain_characters(tmp_path, name):
    shutil.copy(SEEDS_MBOX, tmp_path / "seeds.mbox")
    (tmp_path / "dXta 1").mkdir()  # what `d*ta 1` would match as a glob
    cfg_path = write_config(tmp_path, mbox_source("sample", "seeds.mbox"))
    cfg_path.write_text(cfg_path.read_text().replace('data_dir = "data"', f'data_dir = "{name}"'))
    out = plain_ingest(cfg_path)
    assert out["failed"] == 0
    cfg = load_config(cfg_path)
    assert cfg.data_dir.name == name
    assert query(cfg.db_path, "SELECT count(*) FROM messages")[1] == [(5,)]
    r = run_cli("sql", "SELECT count(*) AS n FROM benchmark_results", "--config", str(cfg_path), "--format", "csv")
    assert r.returncode == 0, r.stderr.decode()
    assert int(r.stdout.decode().split()[1]) > 500


def test_a_question_mark_in_data_dir_is_one_clear_line(tmp_path):
    cfg_path = write_config(tmp_path, mbox_source("sample", SEEDS_MBOX))
    cfg_path.write_text(cfg_path.read_text().replace('data_dir = "data"', 'data_dir = "data?1"'))
    r = run_cli("ingest", "--config", str(cfg_path))
    err = r.stderr.decode()
    assert r.returncode == 1 and "has a '?', which DuckDB cannot keep a database under" in err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "data?1").exists()


def _tagged_servers(tag: str) -> list[int]:
    """Pids of Prefect API servers whose environment carries `tag` (inherited from one test's ingest)."""
    from pathlib import Path

    found = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            env = (d / "environ").read_bytes()
            cmd = (d / "cmdline").read_bytes()
        except OSError:
            continue
        if f"LISTBENCH_TEST_TAG={tag}".encode() in env.split(b"\0") and b"create_app" in cmd:
            found.append(int(d.name))
    return found


def test_kill_9_of_a_first_ingest_leaves_a_queryable_warehouse_and_no_prefect_server(tmp_path):
    import time
    import uuid

    cfg_path = _setup(tmp_path)
    tag = uuid.uuid4().hex
    env = {k: v for k, v in os.environ.items() if k != "PREFECT_API_URL"}
    env.update({"LISTBENCH_FAILPOINT": "commit:published", "LISTBENCH_TEST_TAG": tag})
    err = tmp_path / "stderr.txt"
    try:
        with open(err, "wb") as f:  # a file, not a pipe: a server left behind would hold a pipe open
            p = subprocess.run([sys.executable, "-m", "flows.cli", "ingest", "--config", str(cfg_path)], cwd=ROOT,
                               env=env, stdout=subprocess.DEVNULL, stderr=f, timeout=600)
        assert p.returncode == -signal.SIGKILL, err.read_text()[-2000:]
        deadline = time.monotonic() + 5
        while _tagged_servers(tag) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _tagged_servers(tag) == []
    finally:
        for pid in _tagged_servers(tag):  # what this test started, should the assertion fail
            os.kill(pid, signal.SIGKILL)
    # the first unit was committed before the kill: it can be queried already
    r = run_cli("sql", "SELECT count(*) AS n FROM messages", "--config", str(cfg_path), "--format", "csv")
    assert r.returncode == 0, r.stderr.decode()
    assert r.stdout.decode().split() == ["n", "5"]


def test_the_temporary_api_dies_with_its_parent(tmp_path):
    import time
    from pathlib import Path

    code = ("import os, sys, time\nfrom flows.cli import quiet_prefect\nquiet_prefect()\n"
            "from flows.prefect_api import ensure_api, server_pid\nurl = ensure_api()\n"
            "print(server_pid(), url, flush=True)\ntime.sleep(600)\n")
    env = {k: v for k, v in os.environ.items() if k != "PREFECT_API_URL"}
    parent = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
    server = None
    try:
        line = parent.stdout.readline().decode().split()
        assert line, parent.stderr.read().decode()[-2000:]
        server, url = int(line[0]), line[1]
        import httpx

        assert httpx.get(f"{url}/health", timeout=10).status_code == 200
        cmdline = Path(f"/proc/{server}/cmdline").read_bytes().split(b"\0")
        assert b"uvicorn" in cmdline and b"-c" not in cmdline  # the launcher exec'd the server itself
        parent.kill()
        parent.wait(10)
        deadline = time.monotonic() + 5
        while _alive(server) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(server)
    finally:
        if parent.poll() is None:
            parent.kill()
        if server and _alive(server):
            os.kill(server, signal.SIGKILL)


def _alive(pid: int) -> bool:
    """Running (a zombie waiting for a reaper is gone already)."""
    from pathlib import Path

    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_reextract_stops_a_message_over_its_budget_and_goes_on(tmp_path, monkeypatch):
    """A message that timed out at ingest keeps its body for reextract, which is bounded too."""
    from flows import parallel, reextract
    from tests import slow_plant
    from tests.mboxes import numbered_mbox, planted

    monkeypatch.setattr(parallel, "decode_batch", slow_plant.decode_batch)
    numbered_mbox(tmp_path / "slow.mbox", 12, {3: planted(3, slow_plant.MARK_SLOW)})
    cfg_path = write_config(tmp_path, mbox_source("slow", "slow.mbox"), extra="[limits]\nmessage_timeout_s = 0.5\n")
    plain_ingest(cfg_path)
    cfg = load_config(cfg_path)
    real = reextract.extract_runs

    def changed_parsers(body, mid, **kw):  # every message differs from its stored extraction; p3 loops
        if slow_plant.MARK_SLOW in body:
            while True:
                pass
        return real(body, mid, **kw)[:-1]

    monkeypatch.setattr(reextract, "extract_runs", changed_parsers)
    rep = reextract.reextract(cfg)
    assert rep.timed_out == ["p3@test"]
    assert rep.messages == 2  # the two seed posts lost their last run
