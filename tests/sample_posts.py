"""Sample post bodies used by parser tests and by the lake tests that load them."""

from __future__ import annotations

# https://lore.kernel.org/linux-security-module/202309220851.620EFFCC7C@keescook/
CHANGE_ONLY = """\
Here are the results of the relevant Unixbench system benchmarks with BPF LSM
and SELinux enabled with default policies enabled with and without these
patches.

Benchmark                                               Delta(%): (+ is better)
===============================================================================
Execl Throughput                                             +1.9356
File Write 1024 bufsize 2000 maxblocks                       +6.5953
Pipe Throughput                                              +9.5499
Pipe-based Context Switching                                 +3.0209
Process Creation                                             +2.3246
Shell Scripts (1 concurrent)                                 +1.4975
System Call Overhead                                         +2.7815
System Benchmarks Index Score (Partial Only):                +3.4859
"""


# https://lore.kernel.org/lkml/ (lkml 2003, "Re: gcc -O2 vs gcc -Os performance")
KERNBENCH = """\
Kernbench-2: (make -j N vmlinux, where N = 2 x num_cpus)
                                   Elapsed        User      System         CPU
          2.5.59-mjb3-gcc32-O2       45.86      564.75      110.91     1472.67
          2.5.59-mjb3-gcc32-Os       45.74      563.96      111.06     1475.17
"""


SB10_SERIES = """\
sysbench 1.0.14 (using bundled LuaJIT 2.1.0-beta2)

Running the test with following options:
Number of threads: 8
Report intermediate results every 1 second(s)

Threads started!

[ 1s ] thds: 8 tps: 2379.78 qps: 47704.52 (r/w/o: 33412.84/9524.13/4767.56) lat (ms,95%): 4.74 err/s: 0.00 reconn/s: 0.00
[ 2s ] thds: 8 tps: 2580.37 qps: 51596.35 (r/w/o: 36119.15/10316.47/5160.74) lat (ms,95%): 4.18 err/s 1.20 reconn/s: 0.00
SQL statistics:
    queries performed:
        read:                            575974
        write:                           164564
        other:                           82282
        total:                           822820
    transactions:                        41141  (2741.88 per sec.)
    queries:                             822820 (54837.61 per sec.)

General statistics:
    total time:                          15.0036s
    total number of events:              41141
"""
