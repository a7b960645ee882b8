"""Deployments are created on a real Prefect API with the schedule from the config."""

from __future__ import annotations

import asyncio

import yaml

from flows.config import load_config
from tests.conftest import ROOT, SEEDS_MBOX, mbox_source, write_config


def test_scheduled_deployment_has_configured_cron(tmp_path, prefect_api):
    from prefect.client.orchestration import get_client

    from flows.deploy import deployments

    cfg = load_config(write_config(tmp_path, mbox_source("sample", SEEDS_MBOX), '[schedule]\ncron = "15 2 * * 1"\n'))
    deps = deployments(cfg)
    ids = {d.name + "/" + d.flow_name: d.apply() for d in deps}

    async def read(dep_id):
        async with get_client() as client:
            return await client.read_deployment(dep_id)

    scheduled = asyncio.run(read(ids["scheduled/ingest"]))
    crons = [s.schedule.cron for s in scheduled.schedules]
    assert crons == ["15 2 * * 1"]
    assert scheduled.parameters == {"config_path": str(cfg.path)}
    validate = asyncio.run(read(ids["nightly/validate"]))
    assert [s.schedule.cron for s in validate.schedules] == ["30 4 * * *"]
    assert "on-demand/reextract" in ids and "on-demand/backfill" in ids and "on-demand/ingest-source" in ids


def test_prefect_yaml_entrypoints_exist():
    spec = yaml.safe_load((ROOT / "prefect.yaml").read_text())
    for d in spec["deployments"]:
        path, func = d["entrypoint"].split(":")
        assert f"def {func}(" in (ROOT / path).read_text(), d["entrypoint"]
    assert spec["deployments"][0]["schedules"][0]["cron"] == "0 3 * * *"


def test_prefect_yaml_is_generated_from_the_config():
    """The committed prefect.yaml is what the deployments and listbench.toml's [schedule] give."""
    from flows.deploy import main, prefect_yaml

    cfg = load_config(ROOT / "listbench.toml")
    assert (ROOT / "prefect.yaml").read_text() == prefect_yaml(cfg, "listbench.toml")
    assert main(["--config", str(ROOT / "listbench.toml"), "--out", str(ROOT / "prefect.yaml"), "--check"]) == 0


def test_schedule_changes_reach_prefect_yaml(tmp_path):
    from flows.deploy import DEPLOYMENTS, main

    cfg_path = write_config(tmp_path, mbox_source("sample", SEEDS_MBOX),
                            '[schedule]\ncron = "15 2 * * 1"\nvalidate_cron = "0 5 * * *"\ntimezone = "Europe/Berlin"\n')
    out = tmp_path / "prefect.yaml"
    assert main(["--config", str(cfg_path), "--out", str(out), "--check"]) == 1
    assert main(["--config", str(cfg_path), "--out", str(out)]) == 0
    spec = yaml.safe_load(out.read_text())
    assert [(d["name"], d["entrypoint"]) for d in spec["deployments"]] == \
        [(d.name, d.entrypoint) for d in DEPLOYMENTS]
    by_name = {d["entrypoint"].split(":")[1]: d for d in spec["deployments"]}
    assert by_name["ingest_flow"]["schedules"] == [{"cron": "15 2 * * 1", "timezone": "Europe/Berlin"}]
    assert by_name["validate_flow"]["schedules"] == [{"cron": "0 5 * * *", "timezone": "Europe/Berlin"}]
    assert "schedules" not in by_name["reextract_flow"]
    assert {d["parameters"]["config_path"] for d in spec["deployments"]} == {"listbench.toml"}
    assert main(["--config", str(cfg_path), "--out", str(out), "--check"]) == 0
