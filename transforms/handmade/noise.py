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
    # a setting made before a run (`ip link set dev eth0 mtu 9000`, `ethtool -K eth0 gro off`, `sysctl -w ...`)
    r"|(?:sudo\s++)?(?:ip\s++(?:link|addr|address|route|netns|-\w++)|ethtool\s++-|sysctl\s++-|tc\s++(?:qdisc|class|filter)"
    r"|modprobe\s|insmod\s|tuned-adm\s|cpupower\s))",
    re.I,
)
_BLOCK = re.compile(
    r"procs\s++-++memory|r\s++b\s++(?:w\s++)?swpd\s++free|avg-cpu:|rrqm/s|Device:?\s++tps|Performance counter stats"
    r"|task-clock|cpu-migrations|page-faults\s|PID\s++USER\s++PR|total\s++used\s++free|slabinfo"
    r"|total:\s++used:\s++free:|MemTotal:|Active\(anon\)|CPU\s++%usr|%user\s++%nice|\bkB_read/s|instructions\s++#"
    r"|\bcycles\s++#|Reported-by:|Signed-off-by:|^[^\S\n]*+Bug\s++\d|\bCVE-\d{4}"
    r"|^[^\S\n]*+(?:Name|Status|Assignee|Priority|Severity|Component)[^\S\n]*+\|"
    r"|^(?:raid[56]|xor):\s|\bchecksumm?ing speed\b|\bDownload speed from\b"  # boot calibration, VPS scripts
    r"|^[^\S\n]*+(?:Tgid|PPid|TracerPid|FDSize|VmSize|VmRSS|VmPeak|SigPnd|SigBlk|CapEff|voluntary_ctxt_switches)"
    r":"  # /proc/<pid>/status
    r"|\b(?:[ER]AX|[ER]BX|[ER]CX|[ER]IP|[ER]SP|CR[0-4]):\s*+(?:[0-9a-f]{4}:)?[0-9a-f]{8}"  # an oops' registers
    r"|\b(?:NIP|LR|CTR|MSR|CFAR|DAR|DSISR|GPR\d\d|REGS|x\d{1,2}|pc|lr|sp)[^\S\n]*+:[^\S\n]*+[0-9a-f]{8}"  # powerpc, arm64
    r"|\bOops:|\bFaulting instruction address\b|\bUnable to handle kernel\b|\bBUG: (?:kernel|Kernel|unable|KASAN)\b"
    r"|\bSanity Checks[^\S\n]*+:|\bRedzoning[^\S\n]*+:|\bSlabObj:|\bSizes \(bytes\)[^\S\n]++Slabs"  # slabinfo -r
    r"|^[^\S\n]*+(?:Arch|CPUs|Model name|CPU family|Stepping|BogoMIPS|Thread\(s\) per core):"  # the machine
    r"|\bANSI SCSI revision\b|\bVendor:[^\S\n]++\S[^\n]{0,40}+Model:"  # a SCSI device listing
    r"|^[^\S\n]*+(?:raiddev|nr-raid-disks|persistent-superblock|chunk-size|nr-spare-disks)\b"  # raidtab
    r"|^[^\S\n]*+cpu[^\S\n]++\d++[^\S\n]++(?:hot|cold):[^\S\n]*+low\b|\boom-killer:|\bMem-Info:"  # an OOM report
    r"|^[^\S\n]*+Partition check:|\bFloppy drive\(s\):|\bFDC \d is a\b|\bCalibrating delay loop\b"  # boot messages
    r"|\bKernel command line:|\bBIOS-provided physical RAM map\b|\bFreeing unused kernel memory\b"
    r"|\bFound IRQ \d++ for device\b"
    r"|^[^\S\n]*+(?:Raid Level|Array Size|Used Dev Size|Raid Devices|Persistence|Failed Devices)[^\S\n]*+:"  # mdadm -D
    r"|\bCycle time:[^\S\n]*+(?:min=|no flow control=)"  # hdparm -I's drive identity
    r"|\btrack-to-track\b|\bspindle speed\b|\baverage seek time\b|\bformatted int\w{0,6}+ transfer rate\b"  # a drive's datasheet
    r"|^[^\S\n]*+(?:Address Setup|Cmd Active|Cmd Recovery|Data Recovery|Read DMA FIFO flush|Post Write Buffer)"
    r"[^\S\n]*+:",  # an IDE chipset's timings (/proc/ide/via and kin)
    re.I | re.M,
)


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


def noise_line(line: str) -> bool:
    """Log, diff, prompt and address lines never hold a result row."""
    if _LINE.match(line) or _ANYWHERE.search(line):
        return True
    m = _LOG_LINE.match(line)
    return bool(m and len(m.group(1).split()) >= 3)


# `aqa     : 1f001f`, `cap: 0x2078030fff`: a register or id read out in hex (a digit and a letter a-f)
_HEX_LINE = re.compile(r"^[^\S\n]*+\w[\w .-]{0,30}+:[^\S\n]*+(?:0x)?+(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{4,}+"
                       r"[^\S\n]*+$", re.M)


def noise_block(text: str) -> str | None:
    """Why a block is not benchmark output (a short name), or None."""
    m = _BLOCK.search(text)
    if m:
        return m.group(0).strip()
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
