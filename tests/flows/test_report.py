"""`listbench report`: a self-contained page, hostile text shown as text, and charts a real browser draws."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from tests.archive_sites import FAST_HTTP, MHONARC_ROOT, mhonarc_site
from tests.conftest import SEEDS_MBOX, mbox_source, plain_ingest, run_cli, write_config
from tests.httpserver import Site
from tests.transforms.parsers.fixtures_io import FIXTURES, fixture_body

HOSTILE_SUBJECT = "<script>alert(1)</script> lmbench [/bold] :x:"
HOSTILE_HOST = '"><img/src=x/onerror=alert(1)>'
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def hostile_mbox(path: Path) -> None:
    """The Xen lmbench seed with a script in its subject and markup as a host name."""
    body = fixture_body(FIXTURES / "lmbench" / "seed_003.txt").replace("26-nat-sm", HOSTILE_HOST) \
        .replace("26-nat-un", "native-up")  # no block equal to the seed's, so none is a duplicate
    path.write_text(
        "From hostile@example.org Mon Jan  1 00:00:00 2007\n"
        "From: Mallory <mallory@example.org>\nDate: Mon, 01 Jan 2007 00:00:00 +0000\n"
        f"Subject: {HOSTILE_SUBJECT}\nMessage-ID: <hostile-1@example.org>\n\n{body}\n",
        encoding="utf-8",
    )


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory):
    """The seeds, a hostile post, and the MHonArc fixture site over HTTP (its posts have permalinks)."""
    from flows.config import load_config

    tmp = tmp_path_factory.mktemp("report")
    shutil.copy(SEEDS_MBOX, tmp / "seeds.mbox")
    hostile_mbox(tmp / "hostile.mbox")
    site = mhonarc_site(Site()).start()
    try:
        xen = mbox_source("xen-devel", site.url(MHONARC_ROOT), kind="mhonarc", max_page_bytes=20_000)
        cfg = write_config(tmp, mbox_source("sample", "seeds.mbox") + mbox_source("evil", "hostile.mbox") + xen,
                           extra=FAST_HTTP)
        plain_ingest(cfg)
        yield load_config(cfg)
    finally:
        site.stop()


@pytest.fixture(scope="module")
def page(warehouse):
    from flows.report import build
    from warehouse.report_data import Filters

    out = Path(warehouse.db_path).parent / "report.html"
    built = build(warehouse.db_path, out, Filters())
    return built, out.read_text(encoding="utf-8")


def specs_of(html: str) -> dict[str, dict]:
    found = re.findall(r'<script type="application/json" id="spec-([\w-]+)">(.*?)</script>', html, re.S)
    return {k: json.loads(v) for k, v in found}


def rows_of(spec: dict) -> list[dict]:
    """A chart's rows: its named dataset."""
    return spec["datasets"]["rows"]


def test_page_is_self_contained(page):
    built, html = page
    assert built.bytes == len(html.encode("utf-8"))
    assert not re.search(r"<(?:script|img|link|iframe)[^>]*\s(?:src|href)\s*=\s*[\"']?(?:https?:)?//", html, re.I)
    assert "window.vegaEmbed=" in html  # the runtime is inlined, not fetched
    assert "default-src 'none'" in html  # and the page may fetch nothing at all


def test_hostile_text_is_escaped(page):
    _, html = page
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; lmbench [/bold] :x:" in html
    assert "<img/src=x" not in html  # neither in the tables nor in the chart data
    assert "&#34;&gt;&lt;img/src=x/onerror=alert(1)&gt; Linux 2.6.8.1" in html
    specs = specs_of(html)
    systems = {r["system"] for s in specs.values() for r in rows_of(s) if "system" in r}
    assert f"{HOSTILE_HOST} Linux 2.6.8.1" in systems  # the data keeps the text, as text


def test_coverage_and_overhead_values(page):
    _, html = page
    specs = specs_of(html)
    messages = {(r["list_name"], r["year"]): r["messages"] for r in rows_of(specs["cov0"])}
    assert messages == {("sample", 2004): 1, ("sample", 2007): 3, ("sample", 2009): 1, ("evil", 2007): 1,
                        ("xen-devel", 2007): 2, ("xen-devel", 2009): 1, ("xen-devel", 2010): 2}
    blocks: dict[tuple, int] = {}
    for r in rows_of(specs["cov1"]):
        blocks[(r["benchmark"], r["year"])] = blocks.get((r["benchmark"], r["year"]), 0) + r["blocks"]
    assert blocks[("netperf", 2007)] == 2 and blocks[("unixbench", 2009)] == 4
    points = rows_of(specs["overhead"])
    xen_fork = [p for p in points if p["headline"] == "lmbench fork" and p["hypervisor"] == "xen"
                and p["list_name"] == "sample"]
    # seed 003: fork 26-xR1301 (Xen) vs the first native system; lower is better, so native / guest
    assert xen_fork and all(0.1 < p["ratio"] < 1.0 for p in xen_fork)


def test_posts_are_ratios_to_the_first_system(page):
    _, html = page
    specs = specs_of(html)
    netperf = next(s for k, s in specs.items() if k.startswith("post")
                   and any(r["benchmark"] == "netperf" for r in rows_of(s)))
    rows = rows_of(netperf)
    first = {r["ratio"] for r in rows if r["system"] == rows[0]["system"]}
    assert first == {1.0}  # the first system is the yardstick
    assert all(r["ratio"] > 0 for r in rows)


def test_filters_narrow_what_is_built(warehouse, tmp_path):
    from flows.report import build
    from warehouse.report_data import Filters

    built = build(warehouse.db_path, tmp_path / "r.html", Filters(benchmarks=("netperf",)))
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert built.posts == 1
    assert "netperf results for the PV virtio drivers" in html
    assert "lmbench 3.0: Linux 2.6.8.1 native vs on Xen" not in html


def test_cli_report(warehouse, tmp_path):
    cfg = Path(warehouse.db_path).parent.parent / "listbench.toml"
    out = tmp_path / "cli.html"
    r = run_cli("report", "--config", str(cfg), "--out", str(out), "--benchmark", "lmbench", "--since", "2004")
    assert r.returncode == 0, r.stderr.decode()
    assert "report:" in r.stdout.decode() and out.stat().st_size > 100_000
    bad = run_cli("report", "--config", str(cfg), "--since", "2004-13")
    assert bad.returncode == 1 and bad.stderr.decode().count("\n") == 1


def test_cli_report_without_warehouse(tmp_path):
    cfg = write_config(tmp_path, mbox_source("sample", "none.mbox"))
    r = run_cli("report", "--config", str(cfg))
    assert r.returncode == 1 and "run `listbench ingest` first" in r.stderr.decode()


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None and not os.environ.get("CI"), reason="needs Debian's chromium")
def test_report_in_a_real_browser(page, tmp_path):
    """The page loads with no console error, draws every chart, filters offline, runs no injected script."""
    from playwright.sync_api import sync_playwright

    assert CHROMIUM, "CI installs chromium (.ci/run)"
    built, html = page
    n_specs = len(specs_of(html))
    errors: list[str] = []
    dialogs: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"])
        try:
            tab = browser.new_page(viewport={"width": 1200, "height": 900})
            tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            tab.on("pageerror", lambda e: errors.append(str(e)))
            tab.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            tab.goto(built.path.resolve().as_uri())
            tab.wait_for_function(f"document.querySelectorAll('.chart svg').length === {n_specs}",
                                  timeout=30_000)
            marks = tab.eval_on_selector_all(
                ".chart svg", "svgs => svgs.map(s => s.querySelectorAll('.mark-rect path, .mark-symbol path').length)")
            assert len(marks) == n_specs and all(m > 0 for m in marks), marks
            blocks_before = tab.eval_on_selector("#chart-cov1 svg", "s => s.querySelectorAll('.mark-rect path').length")
            tab.select_option("#f-bench", "netperf")
            tab.wait_for_function("document.getElementById('f-status').textContent.startsWith('1 of')")
            tab.wait_for_timeout(300)
            blocks_after = tab.eval_on_selector("#chart-cov1 svg", "s => s.querySelectorAll('.mark-rect path').length")
            assert 0 < blocks_after < blocks_before
            visible = tab.eval_on_selector_all("article.post", "as => as.filter(a => !a.hidden).length")
            assert visible == 1
            tab.select_option("#f-bench", "")
            links = tab.eval_on_selector_all("a.permalink", "as => as.map(a => a.href)")
            assert links and all(h.startswith("http://127.0.0.1:") and h.endswith(".html") for h in links)
            assert tab.eval_on_selector_all("article.post img", "i => i.length") == 0
            tab.screenshot(path=str(tmp_path / "report.png"), full_page=True)
        finally:
            browser.close()
    assert not dialogs, dialogs
    assert not errors, errors
    assert (tmp_path / "report.png").stat().st_size > 10_000
