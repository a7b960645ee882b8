"""Numbers in mail that are never benchmark results: diffstats, patch hunks, kernel logs,
vmstat/iostat/perf stat/top/free dumps, /proc files, config listings, ping and lspci lines.

A block that reads as one of these gives no rows even when the post names a benchmark.
"""

from __future__ import annotations

import re

_LINE = re.compile(
    r"^\s*(?:\[\s*\d+\.\d+\]|<\d>\[|\d+\.\d+:\s|[\w./-]++\s++\|\s++\d++\s*+[-+]*+$|\d+ files? changed"
    r"|@@ |diff --git|index [0-9a-f]{7}|--- a/|\+\+\+ b/|CONFIG_\w+[=\s]|# CONFIG_|\w+:\s+\d+ kB$"
    r"|\d+ bytes from |PING |[0-9a-f]{2,4}:[0-9a-f]{2}\.\d|Call Trace|RIP:|Code:|\w+\+0x[0-9a-f]+/"
    r"|(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun),? \d|\d{1,2}:\d{2}:\d{2}\s|#\s+name\s+<"
    r"|\d{1,4}\s++\d{1,4}\s++[a-z][\w-]{0,30}+(?:\s++\d++){11}"  # /proc/diskstats: major minor name counters
    r"|(?:TcpExt|IpExt|MPTcpExt|Tcp|Udp6?|UdpLite|Ip6?|Icmp6?)[a-z]{3,40}+\s++\d++\s++\d++\.\d++\s*+$"  # nstat
    r"|\d++,[ \t]*+\d++,[ \t]*+[012],[ \t]*+\d++(?:,[ \t]*+\d++){0,2}+[ \t]*+$"  # a fio log entry: time, value, direction, bs[, offset, prio]
    # a setting made before a run (`ip link set dev eth0 mtu 9000`, `ethtool -K eth0 gro off`, `sysctl -w ...`)
    r"|(?:sudo\s++)?(?:ip\s++(?:link|addr|address|route|netns|-\w++)|ethtool\s++-|sysctl\s++-|tc\s++(?:qdisc|class|filter)"
    r"|modprobe\s|insmod\s|tuned-adm\s|cpupower\s))",
    re.I,
)
# What each kind of dump prints, with the words (lower case) any text it matches holds: a block is
# searched for a kind only when one of its words is in it, so most blocks cost a few `in` tests,
# not one case-blind pass per kind.
_KINDS: list[tuple[tuple[str, ...], str]] = [
    (("procs",), r"procs\s++-++memory"),
    (("swpd",), r"r\s++b\s++(?:w\s++)?swpd\s++free"),
    (("avg-cpu:",), r"avg-cpu:"),
    (("rrqm/s",), r"rrqm/s"),
    (("device",), r"Device:?\s++tps"),
    (("performance counter stats",), r"Performance counter stats"),
    (("runtime ms",), r"\bTask[^\S\n]*+\|[^\S\n]*+Runtime ms[^\S\n]*+\|"),  # perf sched latency
    (("task-clock",), r"task-clock"),
    (("cpu-migrations",), r"cpu-migrations"),
    (("page-faults",), r"page-faults\s"),
    (("pid",), r"PID\s++USER\s++PR"),
    (("used",), r"total\s++used\s++free"),
    (("slabinfo",), r"slabinfo"),
    (("used:",), r"total:\s++used:\s++free:"),
    (("memtotal:",), r"MemTotal:"),
    (("active(anon)",), r"Active\(anon\)"),
    (("%usr",), r"CPU\s++%usr"),
    (("%nice",), r"%user\s++%nice"),
    (("kb_read/s",), r"\bkB_read/s"),
    (("instructions",), r"instructions\s++#"),
    (("cycles",), r"\bcycles\s++#"),
    (("reported-by:",), r"Reported-by:"),
    (("signed-off-by:",), r"Signed-off-by:"),
    (("bug",), r"^[^\S\n]*+Bug\s++\d"),
    (("cve-",), r"\bCVE-\d{4}"),
    (("|",), r"^[^\S\n]*+(?:Name|Status|Assignee|Priority|Severity|Component)[^\S\n]*+\|"),  # a bug tracker's
    (("raid5:", "raid6:", "xor:"), r"^(?:raid[56]|xor):\s"),  # boot calibration
    (("ing speed",), r"\bchecksumm?ing speed\b"),
    (("download speed from",), r"\bDownload speed from\b"),  # VPS scripts
    (("tgid:", "ppid:", "tracerpid:", "fdsize:", "vmsize:", "vmrss:", "vmpeak:", "sigpnd:", "sigblk:", "capeff:",
      "voluntary_ctxt_switches:"),
     r"^[^\S\n]*+(?:Tgid|PPid|TracerPid|FDSize|VmSize|VmRSS|VmPeak|SigPnd|SigBlk|CapEff|voluntary_ctxt_switches):"),
    ((":",), r"\b(?:[ER]AX|[ER]BX|[ER]CX|[ER]IP|[ER]SP|CR[0-4]):\s*+(?:[0-9a-f]{4}:)?[0-9a-f]{8}"),  # an oops' registers
    ((":",), r"\b(?:NIP|LR|CTR|MSR|CFAR|DAR|DSISR|GPR\d\d|REGS|x\d{1,2}|pc|lr|sp)[^\S\n]*+:[^\S\n]*+[0-9a-f]{8}"),
    (("oops:",), r"\bOops:"),
    (("faulting instruction address",), r"\bFaulting instruction address\b"),
    (("unable to handle kernel",), r"\bUnable to handle kernel\b"),
    (("bug: ",), r"\bBUG: (?:kernel|Kernel|unable|KASAN)\b"),
    (("sanity checks",), r"\bSanity Checks[^\S\n]*+:"),  # slabinfo -r
    (("redzoning",), r"\bRedzoning[^\S\n]*+:"),
    (("slabobj:",), r"\bSlabObj:"),
    (("sizes (bytes)",), r"\bSizes \(bytes\)[^\S\n]++Slabs"),
    (("arch:", "cpus:", "model name:", "cpu family:", "stepping:", "bogomips:", "thread(s) per core:"),
     r"^[^\S\n]*+(?:Arch|CPUs|Model name|CPU family|Stepping|BogoMIPS|Thread\(s\) per core):"),  # the machine
    (("ansi scsi revision",), r"\bANSI SCSI revision\b"),  # a SCSI device listing
    (("vendor:",), r"\bVendor:[^\S\n]++\S[^\n]{0,40}+Model:"),
    (("raiddev", "nr-raid-disks", "persistent-superblock", "chunk-size", "nr-spare-disks"),
     r"^[^\S\n]*+(?:raiddev|nr-raid-disks|persistent-superblock|chunk-size|nr-spare-disks)\b"),  # raidtab
    (("hot:", "cold:"), r"^[^\S\n]*+cpu[^\S\n]++\d++[^\S\n]++(?:hot|cold):[^\S\n]*+low\b"),  # an OOM report
    (("oom-killer:",), r"\boom-killer:"),
    (("mem-info:",), r"\bMem-Info:"),
    (("partition check:",), r"^[^\S\n]*+Partition check:"),  # boot messages
    (("floppy drive(s):",), r"\bFloppy drive\(s\):"),
    (("fdc ",), r"\bFDC \d is a\b"),
    (("calibrating delay loop",), r"\bCalibrating delay loop\b"),
    (("kernel command line:",), r"\bKernel command line:"),
    (("bios-provided physical ram map",), r"\bBIOS-provided physical RAM map\b"),
    (("freeing unused kernel memory",), r"\bFreeing unused kernel memory\b"),
    (("found irq ",), r"\bFound IRQ \d++ for device\b"),
    (("raid level", "array size", "used dev size", "raid devices", "persistence", "failed devices"),
     r"^[^\S\n]*+(?:Raid Level|Array Size|Used Dev Size|Raid Devices|Persistence|Failed Devices)[^\S\n]*+:"),  # mdadm -D
    (("cycle time:",), r"\bCycle time:[^\S\n]*+(?:min=|no flow control=)"),  # hdparm -I's drive identity
    (("track-to-track",), r"\btrack-to-track\b"),  # a drive's datasheet
    (("spindle speed",), r"\bspindle speed\b"),
    (("average seek time",), r"\baverage seek time\b"),
    (("transfer rate",), r"\bformatted int\w{0,6}+ transfer rate\b"),
    (("address setup", "cmd active", "cmd recovery", "data recovery", "read dma fifo flush", "post write buffer"),
     r"^[^\S\n]*+(?:Address Setup|Cmd Active|Cmd Recovery|Data Recovery|Read DMA FIFO flush|Post Write Buffer)"
     r"[^\S\n]*+:"),  # an IDE chipset's timings (/proc/ide/via and kin)
]
_BLOCK = [(words, re.compile(rx, re.I | re.M)) for words, rx in _KINDS]
# the registers' kinds need `:` then eight hex digits; most blocks have a colon but no such run
_HEX_AFTER_COLON = re.compile(r":\s*+(?:[0-9a-f]{4}:)?[0-9a-f]{8}", re.I)
# what a case-blind search takes for an ASCII letter besides the ASCII letters themselves
_FOLDS_TO_ASCII = re.compile("[\u212a\u017f\u0130\u0131]")


_ANYWHERE = re.compile(
    r"\b\d{1,2}:\d{2}:\d{2}\b|ping statistics|packets transmitted|[0-9a-f]{2}(?::[0-9a-f]{2}){5}"
    r"|^[^\S\n]*+(?:[$#]\s|Index: |---\s|\+\+\+\s|[^\s@]{1,64}+@[^\s:~]{1,64}+[:~][^\s$#]{0,64}+\s*+[$#]\s)|\\$|https?://"
    r"|\b(?:warmup|execute|cleanup)\s+\d+\s+sec\b|\b(?:failed|error|cannot|unable)\b"
    r"|\b(?:bytes|packets|pkts|dropped|overruns|collisions)\b\s*+:?\s*+\d"
    r"|\(\d{3}\)[-\s]?\d{3}-\d{4}\b",  # a telephone number in a signature
    re.I,
)


# `subsystem: three or more words ... ,` or `(`: a kernel or daemon log line (words counted in code)
_LOG_LINE = re.compile(r"^[^\S\n]*+[\w.-]++: ([^\n,(]*+)[,(]")


# `# queues | 1q | 4qs | 1q | 4qs |`: the corner of a pipe table's heads, no root prompt
_CORNER_HASH = re.compile(r"^[^\S\n]*+#(?=[^\S\n][^|\n]{1,30}+\|(?:[^|\n]*+\|){3,}+[^\S\n]*+$)")


# `CPU max MHz:   5879.8818`, `BogoMIPS:  4800.00`: lscpu's description of the machine, no result
_LSCPU = re.compile(r"^[ \t>]*+(?:CPU (?:max |min )?MHz|BogoMIPS|Model name|Thread\(s\) per core|Core\(s\) per socket"
                    r"|Socket\(s\)|NUMA node\d{0,3}+ CPU\(s\)|L[123][di]? cache)[ \t]*+:")


def noise_line(line: str) -> bool:
    """Log, diff, prompt and address lines never hold a result row."""
    if _LINE.match(line) or _LSCPU.match(line) or _ANYWHERE.search(_CORNER_HASH.sub("", line, 1)):
        return True
    m = _LOG_LINE.match(line)
    return bool(m and len(m.group(1).split()) >= 3)


# `aqa     : 1f001f`, `cap: 0x2078030fff`: a register or id read out in hex (a digit and a letter a-f)
_HEX_LINE = re.compile(r"^[^\S\n]*+\w[\w .-]{0,30}+:[^\S\n]*+(?:0x)?+(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{4,}+"
                       r"[^\S\n]*+$", re.M)


def noise_block(text: str) -> str | None:
    """Why a block is not benchmark output (a short name), or None."""
    # a case-blind search also takes `K` (Kelvin), `ſ`, `İ` and `ı` for ASCII letters: search every kind then
    low = text.lower() if text.isascii() or not _FOLDS_TO_ASCII.search(text) else None
    hexes = low is None or _HEX_AFTER_COLON.search(text) is not None
    first = None
    for words, rx in _BLOCK:
        if low is not None and not any(w in low for w in words) or words == (":",) and not hexes:
            continue
        m = rx.search(text)
        if m and (first is None or m.start() < first.start()):
            first = m  # the earliest match, the first kind on a tie: as one alternation would find
    if first:
        return first.group(0).strip()
    hexes = _HEX_LINE.findall(text)
    return f"register dump ({' '.join(hexes[0].split())})" if len(hexes) >= 2 else None


def hunk_lines(lines: list[str]) -> set[int]:
    """Lines of patch hunks (from an `@@` or `diff --git` line to the next blank or prose line)."""
    out: set[int] = set()
    inside = False
    for i, line in enumerate(lines):
        if line.startswith(("@@ ", "diff --git", "--- a/", "+++ b/", "index ")):
            inside = True
            out.add(i)
            continue
        if inside and (line[:1] in ("+", "-", " ") or not line):
            out.add(i)
            continue
        inside = False
    return out
