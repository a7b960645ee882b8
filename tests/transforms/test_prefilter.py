"""The prefilter (transforms.prefilter): selective, and it drops no block a parser or the
hand-made reader would read (rows with and without it are the same)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bench import prefilter as bp
from tests.conftest import ROOT
from transforms.handmade.evidence import has_evidence
from transforms.parsers import PARSERS
from transforms.prefilter import has_figures, prefilter

GEN = ROOT.parent / "shared" / "tools" / "gen_corpus.py"


def names(body: str, subject: str | None = None) -> set[str]:
    return {p.name for p in prefilter(body, subject).parsers}


def test_ordinary_mail_passes_nothing():
    body = ("I ran the regression test to check the local tcp socket average latency using 4; 5; 1.9\n"
            "timing of the final baseline in parallel, see add: and sum: below.\n"
            "Running with a patch, the upstream stream of io= and bw = 3 got better.\n")
    g = prefilter(body, "Re: [PATCH] mm: fix the stream of faults")
    assert g.parsers == () and not g.hand and not g.passed


@pytest.mark.parametrize(("text", "parser"), [
    ("   BYTE UNIX Benchmarks (Version 5.1.2)", "unixbench"),
    ("TEST                BASELINE     RESULT      INDEX", "unixbench"),
    ("Fork (lps)\n  21005", "unixbench"),
    ("TCP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to h", "netperf"),
    ("Local /Remote\nSocket Size   Request  Resp.   Elapsed  Trans.", "netperf"),
    ("Context switching - times in microseconds - smaller is better", "lmbench"),
    ("UDP latency using localhost: 18.5 microseconds", "lmbench"),
    ("Version  1.96       ------Sequential Output------", "bonnie"),
    ("1.96,1.96,host,1,1234,", "bonnie"),
    ("job1: (groupid=0, jobs=1): err= 0: pid=1", "fio"),
    ("/fio/t/io_uring -p0 -d128 -b4096", "fio"),
    ("Average Half load -j 4 Run (std deviation):", "kernbench"),
    ("Running with 10*40 (== 400) tasks.", "hackbench"),
    ("Triad:     11200.1     0.0043", "stream"),
    ("Timing buffered disk reads: 180 MB in  3.01 seconds", "ddhdparm"),
    ("1048576000 bytes (1.0 GB) copied, 3.2 s, 330 MB/s", "ddhdparm"),
])
def test_a_tool_printout_passes_to_its_parser(text, parser):
    assert parser in names(text)
    assert parser in names("> " + text.replace("\n", "\n> "))


def test_capital_keywords_match_as_written():
    assert "netperf" not in names("a regression test to cases and a test from scratch")
    assert "netperf" in names("TCP REQUEST/RESPONSE TEST to 10.0.0.1")
    assert "unixbench" not in names("the baseline kernel")


@pytest.mark.parametrize(("body", "subject"), [
    ("a stream of packets went upstream", None),
    ("tcp_stream numbers", None),
    ("the STREAM benchmark on 2 nodes", None),
    ("stream  benchmark results", None),
    ("stream.c built with -O3", None),
    ("see libfio and --fio options", None),
    ("dd if=/dev/zero of=x", None),
    ("nothing named", "Re: [PATCH] sched: hackbench regression"),
    ("portfolio of bonnie++ runs", None),
    ("lat_ctx -s 0 2", None),
    ("caf\u00e9 netperf", None),
])
def test_the_hand_gate_is_has_evidence_with_a_figure(body, subject):
    evident = has_evidence(body, None) or has_evidence(subject or "", None)
    assert prefilter(body, subject).hand == (evident and has_figures(body))
    assert prefilter(body + "\n3.2\n", subject).hand == evident


@pytest.mark.parametrize("body", [
    "On Sat, May 5, 2007 at 6:12 PM, A Writer <a@b.c> wrote:\n> bonnie was slower on x86_64 and s390\n",
    "> Sent: Mon, 19 Mar 2007 16:20:40 +0200\n> Subject: Re: Disk I/O on Xen 3.4 (bonnie)\nno idea\n",
    "the netperf run hung at commit 0x5dd1b14 in kvm_set_cr3()\n",
    "Alice wrote on 2007-05-05 12:00 wrote:\nhackbench, again\n",
])
def test_attributions_headers_hex_and_words_hold_no_figure(body):
    assert not has_figures(body)
    assert not prefilter(body, "Re: bonnie results").hand


@pytest.mark.parametrize("body", [
    "hackbench: 2.741\n", "940Mbps with the patch\n", "|  base | +3.2% |\n", "real\t0m3.2s\n",
    "> On the patched kernel: 1,234 ops\n",
])
def test_a_number_standing_on_its_own_is_a_figure(body):
    assert has_figures(body)


def test_every_parser_declares_keywords():
    assert all(p.keywords for p in PARSERS.values())


def test_golden_and_damaged_fixtures_lose_nothing():
    for damage in (None, "quote", "wrap", "collapse"):
        t = bp.tally(f"golden {damage}", bp.golden(damage))
        assert t.row_changes == 0, t.changed
        assert t.carrying > 100 and t.recall == 1.0, t.missed


def test_real_posts_lose_nothing():
    for split in ("dev", "test", "negative"):
        t = bp.tally(split, bp.real(split))
        assert t.row_changes == 0, t.changed
        if split != "negative":
            assert t.readable > 50 and t.readable_recall == 1.0, t.missed
    dev = list(bp.real("dev"))
    missed = set(bp.tally("dev", iter(dev)).missed)
    # a post the prefilter drops names no tool at all (its facts come from the thread), so no
    # reader would take it either
    assert len(missed) * 20 < len(dev)
    assert not any(has_evidence(m.body, m.subject) or any(p.signature.search(m.body) for p in PARSERS.values())
                   for m in dev if m.mid in missed)


def test_generated_corpus_recall_and_pass_rate(tmp_path):
    if not GEN.exists():
        pytest.skip("shared/tools/gen_corpus.py not present")
    mbox, truth = tmp_path / "c.mbox", tmp_path / "c.tsv"
    subprocess.run([sys.executable, str(GEN), "-n", "4000", "-f", "0.03", "--seed", "3", "-o", str(mbox),
                    "--truth", str(truth)], check=True, stdout=subprocess.DEVNULL)
    t = bp.tally("generated", bp.generated(mbox, truth), "carrying")
    assert t.carrying > 80
    assert t.recall == 1.0, t.missed
    assert t.row_changes == 0, t.changed
    assert t.pass_ratio <= bp.MAX_PASS_RATIO


def test_old_hdparm_wording_passes_to_its_parser():
    # https://lore.kernel.org/lkml/20030312223516.GA3069@werewolf.able.es/ (its lines):
    # hdparm before 5.x says `buffer-cache reads`, which neither `timing cached` nor `cached reads:` finds
    body = "/dev/sda:\n Timing buffer-cache reads:   128 MB in  0.24 seconds =533.33 MB/sec\n"
    assert "ddhdparm" in {p.name for p in prefilter(body).parsers}
