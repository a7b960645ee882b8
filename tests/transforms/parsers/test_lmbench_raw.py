"""lmbench raw result lines: result files, single tools run by hand, and captions between them."""

from __future__ import annotations

from tests.transforms.parsers.fixtures_io import rows_of
from tests.transforms.parsers.lmbench_cases import _lm, _rows, _runs


def test_raw_results_file():
    rows = _rows("pkb_raw_results.txt")
    sys = "pkb-72796bca-0 Linux 4.15.0-1014-azure"
    assert {r["system"] for r in rows} == {sys}
    by = {(r["metric"], tuple(sorted(r["params"].items()))): r for r in rows}
    assert by[("null_call", ())]["value"] == 0.2345
    assert by[("select_tcp", ())]["value"] == 6.4521
    assert by[("select_fd", (("fds", "250"),))]["value"] == 2.0069
    assert by[("sh_proc", ())]["value"] == 800.2188
    assert by[("bw_file_write", ())]["unit"] == "KB/s"
    assert by[("bw_tcp", (("size_mb", "10.485760"),))]["value"] == 4676.97
    assert by[("ctxsw_2p_16k", ())]["value"] == 14.21
    assert by[("ctxsw", (("procs", "96"), ("size_kb", "64")))]["value"] == 15.45
    assert by[("file_create_rate", (("size", "10k"),))]["value"] == 73454.0
    assert by[("mmap_latency", (("size_mb", "8.388608"),))]["value"] == 66.0
    assert by[("bw_mem_rdwr_partial", (("size_mb", "8.39"),))]["value"] == 24390.55
    assert ("lat_rpc_udp", ()) not in by  # portmapper failure lines are not results
    run = _runs("pkb_raw_results.txt")[0]
    assert run.tool_version == "3.0"
    assert run.attributes["mhz"] == "3034" and run.attributes["mb"] == "8"

def test_raw_lines_ops_and_bw_mem_pair():
    rows = _rows("lkp_raw_lines_bw_mem.txt")
    by = {(r["metric"], tuple(sorted(r["params"].items()))): r["value"] for r in rows}
    assert by[("int_mod", ())] == 8.12
    assert ("int64_mul", ()) not in by  # -0.02: not a measurement
    assert by[("ctxsw", (("procs", "4"), ("size_kb", "0")))] == 1.51
    assert by[("bw_mem_read", (("size_mb", "268.44"),))] == 13805.57
    assert all(r["system"] is None for r in rows)

def test_lat_mem_rd_by_hand():
    rows = _rows("virtualclient_lat_mem_rd.txt")
    assert len(rows) == 35
    first = rows[0]
    assert (first["metric"], first["unit"], first["params"]) == (
        "lat_mem_rd",
        "ns",
        {"stride": "128", "size_mb": "0.00049"},
    )
    assert rows[-1]["value"] == 32.861

def test_captions_between_raw_lines_name_their_systems():
    # https://lore.kernel.org/lkml/c11e7b8f-3647-c34e-808a-27c0e83b4b1d@huawei.com/ (lat_syscall null)
    text = ("Before:\nSimple syscall: 0.4311 microseconds\nSimple syscall: 0.4313 microseconds\n\n"
            "After:\nSimple syscall: 0.4249 microseconds\n\nbw_mem.c: In function 'main':\n")
    got = [(r["system"], r["value"]) for r in rows_of(text)]
    assert got == [("Before", 0.4311), ("Before", 0.4313), ("After", 0.4249)]

def test_raw_fork_exit_lines_under_before_and_after():
    # https://lore.kernel.org/lkml/20030326015026.GA25091@work.bitmover.com/
    text = ("OK, is a bit more stable now ... before:\n\nProcess fork+exit: 294.4118 microseconds\n"
            "Process fork+exit: 279.1500 microseconds\n\nafter:\n\nProcess fork+exit: 298.4124 microseconds\n")
    got = [(r["system"], r["metric"], r["value"]) for r in rows_of(text)]
    assert got == [("before", "fork_proc", 294.4118), ("before", "fork_proc", 279.15), ("after", "fork_proc", 298.4124)]

def test_raw_lines_after_from_and_to_name_the_two_ends():
    # https://lore.kernel.org/lkml/CAFULd4ZsSKwJ4Dz3cCAgaVsa4ypbb0e2savO-3_Ltbs=1wzgKQ@mail.gmail.com/ (its lines)
    text = ("These go from:\n\nProcess fork+exit: 270.0952 microseconds\n"
            "Pipe bandwidth: 4631.28 MB/sec\n\nto:\n\nProcess fork+exit: 298.6842 microseconds\n"
            "Pipe bandwidth: 4649.96 MB/sec\n\nUros.\n")
    got = [(r["system"], r["metric"], r["value"]) for r in rows_of(text)]
    assert got == [("from", "fork_proc", 270.0952), ("from", "bw_pipe", 4631.28),
                   ("to", "fork_proc", 298.6842), ("to", "bw_pipe", 4649.96)]

def test_retyped_raw_line_under_a_bare_version_line():
    # https://lore.kernel.org/lkml/41FF33E5.4070107@yahoo.com.au/
    text = "in\n2.6.10\n\nI got\nProcess fork+exit:164.8438 microseconds.\n\nin 2.6.11-rc2\nProcess fork+exit:183.8621 microseconds.\n"
    got = [(r["system"], r["metric"], r["value"]) for r in rows_of(text)]
    assert got == [("2.6.10", "fork_proc", 164.8438), ("2.6.11-rc2", "fork_proc", 183.8621)]


def test_fifo_and_page_fault_lines_and_a_lat_fs_table_under_its_command_name():
    # https://lore.kernel.org/lkml/20011010003636Z271005-760+23005@vger.kernel.org/ (2001, lmbench2 output)
    text = ("Pipe latency: 7.9139 microseconds\nlat_fs (ext2)\n0k      1000    36770   123993\n"
            "1k      1000    15526   74383\nFIFO latency: 8.0457 microseconds\n"
            "Pagefaults on /something.avi: 13098 usecs\n")
    got = {(r["metric"], r["params"].get("size"), r["value"], r["unit"]) for r in _lm(text)}
    assert got == {("lat_pipe", None, 7.9139, "us"), ("file_create_rate", "0k", 36770.0, "/sec"),
                   ("file_delete_rate", "0k", 123993.0, "/sec"), ("file_create_rate", "1k", 15526.0, "/sec"),
                   ("file_delete_rate", "1k", 74383.0, "/sec"), ("lat_fifo", None, 8.0457, "us"),
                   ("page_fault", None, 13098.0, "us")}
