"""lmbench's metric registry, shared by the summary-table and the raw-line readers."""

from __future__ import annotations

from transforms.model import MetricSpec

BENCH = "lmbench"


def _us(low: float = 0.001, high: float = 1e8) -> MetricSpec:
    return MetricSpec("us", False, low, high)


def _ns(low: float = 0.0001, high: float = 1e7) -> MetricSpec:
    return MetricSpec("ns", False, low, high)


def _mbs(low: float = 0.001, high: float = 1e7) -> MetricSpec:
    return MetricSpec("MB/s", True, low, high)


_CTX_NAMED = [(2, 0), (2, 16), (2, 64), (8, 0), (8, 16), (8, 64), (16, 0), (16, 16), (16, 64)]
_OPS = {
    "int": ("bit", "add", "mul", "div", "mod"),
    "int64": ("bit", "add", "mul", "div", "mod"),
    "uint64": ("bit", "add", "mul", "div", "mod"),
    "float": ("add", "mul", "div", "bogo"),
    "double": ("add", "mul", "div", "bogo"),
}

METRICS: dict[str, MetricSpec] = {
    # the clock lmbench's `mhz` helper measured, printed in the summary's Mhz columns
    "cpu_mhz": MetricSpec("MHz", None, 1.0, 1e5),
    # Processor, Processes (and the raw lat_syscall / lat_proc / lat_sig lines)
    "null_call": _us(),
    "null_io": _us(),
    "syscall_read": _us(),
    "syscall_write": _us(),
    "stat": _us(),
    "fstat": _us(),
    "open_close": _us(),
    "select_tcp": _us(),
    "select_tcp_fd": _us(),
    "select_100fd": _us(),
    "select_fd": _us(),
    "sig_inst": _us(),
    "sig_hndl": _us(),
    "fork_proc": _us(),
    "exec_proc": _us(),
    "sh_proc": _us(),
    # context switching: named columns of the summaries, generic `ctxsw` (params) otherwise
    **{f"ctxsw_{p}p_{k}k": _us() for p, k in _CTX_NAMED},
    "ctxsw": _us(),
    # *Local* / *Remote* communication latencies
    "lat_ctxsw_2p_0k": _us(),
    "lat_pipe": _us(),
    "lat_fifo": _us(),
    "lat_unix": _us(),
    "lat_udp": _us(),
    "lat_rpc_udp": _us(),
    "lat_tcp": _us(),
    "lat_rpc_tcp": _us(),
    "lat_tcp_conn": _us(),
    "lat_udp_remote": _us(),
    "lat_rpc_udp_remote": _us(),
    "lat_tcp_remote": _us(),
    "lat_rpc_tcp_remote": _us(),
    "lat_tcp_conn_remote": _us(),
    # File & VM system latencies
    "file_create_0k": _us(),
    "file_delete_0k": _us(),
    "file_create_10k": _us(),
    "file_delete_10k": _us(),
    "file_create_rate": MetricSpec("/sec", True, 0.01, 1e9),
    "file_delete_rate": MetricSpec("/sec", True, 0.01, 1e9),
    "mmap_latency": _us(),
    "prot_fault": _us(),
    "page_fault": _us(),
    # bandwidths
    "bw_pipe": _mbs(),
    "bw_unix": _mbs(),
    "bw_tcp": _mbs(),
    "bw_file_reread": _mbs(),
    "bw_file_open2close": _mbs(),
    "bw_mmap_reread": _mbs(),
    "bw_mmap_open2close": _mbs(),
    "bw_bcopy_libc": _mbs(),
    "bw_bcopy_libc_aligned": _mbs(),
    "bw_bcopy_hand": _mbs(),
    "bw_bcopy_hand_partial": _mbs(),
    "bw_bzero": _mbs(),
    "bw_mem_read": _mbs(),
    "bw_mem_read_partial": _mbs(),
    "bw_mem_write": _mbs(),
    "bw_mem_write_partial": _mbs(),
    "bw_mem_rdwr": _mbs(),
    "bw_mem_rdwr_partial": _mbs(),
    "bw_mem_cp": _mbs(),
    "bw_mem_bcopy": _mbs(),
    "bw_mem_fwr": _mbs(),
    "bw_mem_frd": _mbs(),
    "bw_mem_fcp": _mbs(),
    "bw_file_write": MetricSpec("KB/s", True, 1, 1e10),
    # memory latencies
    "lat_l1": _ns(),
    "lat_l2": _ns(),
    "lat_main_mem": _ns(),
    "lat_rand_mem": _ns(),
    "lat_tlb": _ns(),
    "lat_mem_rd": _ns(),
    "lat_mem_rand": _ns(),
    # basic CPU operations
    **{f"{t}_{op}": _ns() for t, ops in _OPS.items() for op in ops},
}

# Plausible ranges tight enough that a value read from the neighbouring column (a
# collapsed-whitespace shift) falls outside: e.g. a null call is 0.01..1000 us on any
# machine from a 1995 workstation to a nested guest, a fork is never under 10 us.
_PLAUSIBLE: dict[str, tuple[float, float]] = {
    **dict.fromkeys(("null_call", "null_io", "syscall_read", "syscall_write", "stat", "fstat",
                     "sig_inst", "sig_hndl"), (0.01, 1000.0)),
    "open_close": (0.05, 5000.0),
    **dict.fromkeys(("select_tcp", "select_tcp_fd", "select_100fd", "select_fd"), (0.1, 20000.0)),
    "fork_proc": (10.0, 1e6),  # 144 ms seen on a sanitizer-instrumented kernel
    "exec_proc": (30.0, 1e6),
    "sh_proc": (100.0, 1e6),
    **{f"ctxsw_{p}p_{k}k": (0.01, 1e5) for p, k in _CTX_NAMED},
    "ctxsw": (0.01, 1e5),
    **dict.fromkeys(("lat_ctxsw_2p_0k", "lat_pipe", "lat_fifo", "lat_unix", "lat_udp", "lat_rpc_udp", "lat_tcp",
                     "lat_rpc_tcp"), (0.1, 1e5)),
    "lat_tcp_conn": (1.0, 1e6),
    **dict.fromkeys(("file_create_0k", "file_delete_0k", "file_create_10k", "file_delete_10k"), (0.1, 1e6)),
    "mmap_latency": (0.1, 1e8),  # getsummary prints `76.7M` (us) for a slow mapping: it expects such sizes
    "prot_fault": (0.01, 1e4),
    "page_fault": (0.01, 1e5),
    **dict.fromkeys(("bw_pipe", "bw_unix", "bw_tcp", "bw_file_reread", "bw_mmap_reread", "bw_bcopy_libc",
                     "bw_bcopy_hand", "bw_mem_read", "bw_mem_write"), (0.5, 1e6)),
    "lat_l1": (0.05, 100.0),
    "lat_l2": (0.2, 500.0),
    "lat_main_mem": (2.0, 5000.0),
}
for _name, (_lo, _hi) in _PLAUSIBLE.items():
    METRICS[_name] = MetricSpec(METRICS[_name].unit, METRICS[_name].higher_is_better, _lo, _hi)

# the summary's `Basic <type> operations` titles and the raw `<type> <op>:` lines name types alike
_OP_PREFIX = {
    "integer": "int",
    "int64": "int64",
    "uint64": "uint64",
    "float": "float",
    "double": "double",
}
