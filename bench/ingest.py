"""End-to-end ingest benchmark against Python's `mailbox` baseline, measured in the same run.

    python -m bench.ingest                      # 50,000 messages (~250 MB), local file + HTTP
    python -m bench.ingest --messages 5000      # quicker
    python -m bench.ingest --no-http            # local file only

Generates a realistic corpus with shared/tools/gen_corpus.py (cached under bench/out/),
then times, each in its own process (wall time and peak RSS):
  baseline   Python's mailbox.mbox iterating every message and decoding every body part;
  ingest     the real Prefect ingest flow (ephemeral API, orchestration start included) into
             a fresh data dir, from the local file and from a local HTTP server;
  rerun      the same flow again with nothing changed.
Prints messages/s, MB/s, peak RSS, CPU seconds, time per stage (from the flow's own timers), the
ratio ingest/baseline (< 1 means faster than the baseline), the no-change ratio rerun/ingest and
the prefilter's pass rate. `--rss-messages 1000000` also ingests a generated corpus of that size
(in a temporary directory, removed after) for msg/s and peak RSS per GB; `--rss-mbox FILE` does
only that, for a given mbox. `--grown 0.01` does only this: ingest the corpus without its last 1%
of messages, then time the work on the grown unit: in one process against the lake's keys (own
work, CPU seconds) and as a re-run of the flow (wall, CPU with its workers, stages).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# the corpus generator sits in shared/tools beside the checkout (or beside a parent of it)
GEN = next((p / "shared" / "tools" / "gen_corpus.py" for p in ROOT.parents
            if (p / "shared" / "tools" / "gen_corpus.py").exists()), ROOT.parent / "shared" / "tools" / "gen_corpus.py")
OUT = ROOT / "bench" / "out"

BASELINE = r"""
import mailbox, sys
n = 0
for msg in mailbox.mbox(sys.argv[1], create=False):
    for part in msg.walk():
        if not part.is_multipart():
            part.get_payload(decode=True)
    n += 1
print(n)
"""

INGEST = r"""
import json, os, sys
os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "180")
from flows.config import load_config
from flows.checkfirst import ingest
from flows.cli import end_process
print(json.dumps(ingest(load_config(sys.argv[1]))))
end_process(0)  # as `listbench ingest` ends
"""


OWN = r"""
import json, sys, time
from datetime import UTC, datetime
from flows.parallel import decode_batch
from transforms.mbox import split_mbox
t0 = time.perf_counter()
items = []
with open(sys.argv[1], "rb") as f:
    items = [m for m in split_mbox(iter(lambda: f.read(1 << 20), b"")) if isinstance(m, bytes)]
split = time.perf_counter() - t0
c0, w0, rows = time.process_time(), time.perf_counter(), 0
for i in range(0, len(items), 400):
    rows += len(decode_batch(items[i:i + 400], "l", "u", None, "b", datetime.now(UTC))[1].results)
print(json.dumps({"n": len(items), "split": split, "cpu": time.process_time() - c0,
                  "wall": time.perf_counter() - w0, "rows": rows}))
"""


GROWN_OWN = r"""
import json, os, sys, time
from flows import parallel, steps, workers as wk
from flows.archives import kind_for
from flows.archives.base import FetchContext
from flows.config import Source, load_config
from warehouse.lake import Lake

def workers_cpu(pool):  # CPU seconds of the pool's worker processes so far (Linux /proc)
    tick = os.sysconf("SC_CLK_TCK")
    return sum(sum(map(int, open(f"/proc/{w.proc.pid}/stat").read().rsplit(")", 1)[1].split()[11:13])) / tick
               for w in pool.workers)

def main():
    cfg, n = load_config(sys.argv[1]), int(sys.argv[3])
    known = steps.Known.load(Lake(cfg.lake_dir))
    known.accept([], "bench")  # the lake's keys are read before the clock starts
    # one worker: inline (no budget); more: the worker processes, started and warmed up first
    source = Source("bench", "mbox", sys.argv[2], options={"message_timeout_s": 0 if n == 1 else 10})
    ctx = FetchContext(raw_dir=cfg.raw_dir)
    unit, = kind_for("mbox").units(source, ctx)
    fetched = kind_for("mbox").fetch(unit, source, ctx)
    pool = wk.pool(n) if n > 1 else None
    if pool is not None:
        list(pool.map(parallel.ready, [((), {})] * n, 0.0, lambda *a: ((), {}), n))
    before = workers_cpu(pool) if pool is not None else 0.0
    c0, w0 = time.process_time(), time.perf_counter()
    work = steps.extract_unit(fetched, source, known, workers=n)
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    print(json.dumps({"cpu": cpu, "workers": workers_cpu(pool) - before if pool is not None else 0.0,
                      "wall": wall, "messages": work.stats.messages, "added": work.stats.messages_added,
                      "rows": len(work.records.results)}))

if __name__ == "__main__":
    main()
"""


def grown_rerun(mbox: Path, fraction: float) -> None:
    """A unit that grew since the last run (the current month of a list): the corpus less its
    last `fraction` of messages ingested, then the whole corpus under the same unit."""
    import re

    data = mbox.read_bytes()
    starts = [m.start() for m in re.finditer(rb"^From \S+ ", data, re.MULTILINE)]
    keep = len(starts) - max(1, round(len(starts) * fraction))
    tmp = Path(tempfile.mkdtemp(prefix="listbench-grown-"))
    try:
        unit = tmp / "unit.mbox"
        unit.write_bytes(data[:starts[keep]])
        cfg = config(tmp, str(unit), "grown")
        _, _, out = measure(INGEST, str(cfg))
        first = json.loads(out.strip().splitlines()[-1])["units"][0]
        print(f"\n[grown unit] first run: {first['messages']} messages, {first['messages_added']} added, "
              f"CPU {LAST_CPU[0]:.2f} s (with its workers)")
        unit.write_bytes(data)
        script = tmp / "grown_own.py"  # a file: the worker processes (spawned) import it again
        script.write_text(GROWN_OWN, encoding="utf-8")
        for n in (1, 2):
            _, _, out = measure(f"import runpy, sys; runpy.run_path({str(script)!r}, run_name='__main__')",
                                str(cfg), str(unit), str(n))
            d = json.loads(out.strip().splitlines()[-1])
            how = "one process" if n == 1 else f"{n} worker processes"
            print(f"  own work, {how}, the grown unit against the lake's keys: decode+extract+rows "
                  f"{d['cpu'] + d['workers']:.2f} CPU-s (parent {d['cpu']:.2f}, workers {d['workers']:.2f}; "
                  f"wall {d['wall']:.2f} s); {d['messages']} messages, {d['added']} new, {d['rows']} rows kept")
        wall, _, out = measure(INGEST, str(cfg))
        res = json.loads(out.strip().splitlines()[-1])
        u = res["units"][0]
        print(f"  flow re-run (fresh process, ephemeral API): wall {wall:.2f} s, CPU {LAST_CPU[0]:.2f} s (with its "
              f"workers); decode+extract {res['seconds'].get('decode+extract', 0.0):.2f} s; {u['messages']} messages, "
              f"{u['messages_added']} added, {u['results']} rows, status {u['status']}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def own_work(mbox: Path) -> None:
    """Split, then decode + extract + rows in one process, no orchestration: CPU msg/s per core."""
    _, rss, out = measure(OWN, str(mbox))
    d = json.loads(out.strip().splitlines()[-1])
    print(f"\n[own work, one process] split {d['split']:.2f} s; decode+extract+rows {d['cpu']:.2f} CPU-s = "
          f"{d['n'] / d['cpu']:,.0f} msg per CPU-second (wall {d['wall']:.2f} s); {d['rows']} rows; "
          f"peak RSS {rss:.0f} MB")


def corpus(messages: int, fraction: float, seed: int) -> Path:
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"corpus-{messages}-{fraction}-{seed}.mbox"
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        subprocess.run([sys.executable, str(GEN), "-n", str(messages), "-f", str(fraction), "--seed", str(seed),
                        "-o", str(tmp), "--truth", str(path.with_suffix(".truth.tsv"))], check=True,
                       stdout=subprocess.DEVNULL)
        tmp.rename(path)
    return path


def prefect_server(tmp: Path) -> tuple[subprocess.Popen, str]:
    """A persistent Prefect API on 127.0.0.1, as a deployment runs against (not counted)."""
    import socket
    import urllib.request

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "PREFECT_HOME": str(tmp / "prefect-home"), "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
           "PREFECT_SERVER_UI_ENABLED": "false"}
    prefect = Path(sys.executable).with_name("prefect")
    proc = subprocess.Popen([str(prefect), "server", "start", "--host", "127.0.0.1", "--port", str(port)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/api"
    for _ in range(240):
        try:
            with urllib.request.urlopen(url + "/health", timeout=2):
                return proc, url
        except OSError:
            time.sleep(0.5)
    proc.kill()
    raise SystemExit("prefect server did not start")


def measure(code: str, *args: str, env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """(wall seconds, peak RSS MB, stdout) of `python -c code args` in a fresh process; its CPU
    seconds (with the worker processes it waited for) go to LAST_CPU."""
    wrapper = (
        "import resource, subprocess, sys, time, json\n"
        "t = time.perf_counter()\n"
        "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
        "w = time.perf_counter() - t\n"
        "sys.stderr.write(p.stderr[-3000:])\n"
        "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "print(json.dumps({'wall': w, 'rss': u.ru_maxrss / 1024, 'cpu': u.ru_utime + u.ru_stime,"
        " 'out': p.stdout, 'rc': p.returncode}))\n"
    )
    r = subprocess.run([sys.executable, "-c", wrapper, sys.executable, "-c", code, *args], cwd=ROOT,
                       capture_output=True, text=True, env={**os.environ, **(env or {})})
    d = json.loads(r.stdout)
    if d["rc"] != 0:
        raise SystemExit(f"benchmark step failed:\n{r.stderr}")
    LAST_CPU[0] = d["cpu"]
    return d["wall"], d["rss"], d["out"]


LAST_CPU = [0.0]  # CPU seconds of the last `measure` (a shared machine inflates wall, not this much)


def config(tmp: Path, url: str, name: str) -> Path:
    cfg = tmp / f"{name}.toml"
    cfg.write_text(f'data_dir = "{tmp / name}"\n\n[[sources]]\nname = "bench"\nkind = "mbox"\nurl = "{url}"\n\n'
                   '[http]\nrequests_per_second = 0\ntimeout_s = 120\n', encoding="utf-8")
    return cfg


def serve(directory: Path) -> tuple[http.server.ThreadingHTTPServer, int]:
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(directory))
    handler.log_message = lambda *a: None  # type: ignore[assignment]
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv, srv.server_address[1]


def run_case(label: str, cfg: Path, mbox: Path, n: int, base_wall: float, env: dict[str, str]) -> None:
    wall, rss, out = measure(INGEST, str(cfg), env=env)
    cpu = LAST_CPU[0]
    res = json.loads(out.strip().splitlines()[-1])
    unit = res["units"][0]
    mb = mbox.stat().st_size / 1e6
    own = sum(res["seconds"].values())
    work = res["seconds"].get("decode+extract", 0.0)
    print(f"\n[{label}] ingest (Prefect flow, fresh process, orchestration start included)")
    print(f"  wall {wall:7.2f} s   {n / wall:8.0f} msg/s   {mb / wall:6.1f} MB/s   peak RSS {rss:6.0f} MB"
          f"   ratio to baseline {wall / base_wall:5.2f}x time ({base_wall / wall:4.2f}x speed)")
    print(f"  CPU {cpu:7.2f} s (with its workers) = {n / cpu:8.0f} msg per CPU-second; "
          f"orchestration (wall - stages) {wall - own:6.2f} s")
    print(f"  own work (stages) {own:6.2f} s = {n / own:8.0f} msg/s; decode+extract {n / work if work else 0:8.0f} msg/s;"
          " stages: " + ", ".join(f"{k} {v:.2f}s" for k, v in res["seconds"].items()))
    print(f"  messages {unit['messages']}  added {unit['messages_added']}  runs {unit['runs']}  rows {unit['results']}"
          f"  quarantined {unit['quarantined']}  status {unit['status']}")
    wall2, _, out2 = measure(INGEST, str(cfg), env=env)
    res2 = json.loads(out2.strip().splitlines()[-1])
    print(f"  no-change re-run: wall {wall2:.2f} s ({wall2 / wall:.1%} of the first run), CPU {LAST_CPU[0]:.2f} s,"
          f" unit status {res2['units'][0]['status']}, stages {res2['seconds']}")


def prefilter_line(mbox: Path) -> None:
    """The prefilter's pass rate on the corpus (bench.prefilter has every corpus and the row check)."""
    from bench.prefilter import generated
    from transforms.prefilter import prefilter

    n = passed = carrying = recalled = 0
    t = 0.0
    for m in generated(mbox, mbox.with_suffix(".truth.tsv")):
        t0 = time.perf_counter()
        ok = prefilter(m.body, m.subject).passed
        t += time.perf_counter() - t0
        n, passed = n + 1, passed + ok
        carrying += bool(m.carries)
        recalled += bool(m.carries) and ok
    print(f"\n[prefilter] passes {passed} of {n} messages ({passed / n:.1%}); {carrying} carry blocks, "
          f"recall {recalled / max(1, carrying):.3f}, pass/carrying {passed / max(1, carrying):.2f}; "
          f"{n / t:,.0f} msg/s alone")


def big_corpus(messages: int, fraction: float, seed: int) -> None:
    """Ingest `messages` generated messages in a fresh process: msg/s and peak RSS per GB."""
    tmp = Path(tempfile.mkdtemp(prefix="listbench-rss-"))
    try:
        path = tmp / "big.mbox"
        subprocess.run([sys.executable, str(GEN), "-n", str(messages), "-f", str(fraction), "--seed", str(seed),
                        "-o", str(path)], check=True, stdout=subprocess.DEVNULL)
        rss_of(path, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def rss_of(path: Path, tmp: Path | None = None) -> None:
    """Ingest one mbox (one unit) into a fresh data dir in a fresh process: msg/s, peak RSS per GB."""
    own = tmp is None
    tmp = tmp or Path(tempfile.mkdtemp(prefix="listbench-rss-"))
    try:
        gb = path.stat().st_size / 1e9
        wall, rss, out = measure(INGEST, str(config(tmp, str(path), "big")))
        res = json.loads(out.strip().splitlines()[-1])
        unit = res["units"][0]
        print(f"\n[{unit['messages']} messages, {gb:.2f} GB] ingest, fresh process, ephemeral API: wall {wall:.0f} s "
              f"= {unit['messages'] / wall:,.0f} msg/s, CPU {LAST_CPU[0]:.0f} s, peak RSS {rss:.0f} MB "
              f"({rss / gb:.0f} MB per GB of archive); rows {unit['results']}, status {unit['status']}")
    finally:
        if own:
            shutil.rmtree(tmp, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--messages", type=int, default=50000)
    ap.add_argument("--fraction", type=float, default=0.015)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-http", action="store_true")
    ap.add_argument("--rss-messages", type=int, default=0,
                    help="also ingest a corpus of this many messages (e.g. 1000000; generated in a temporary "
                         "directory, removed after) for msg/s and peak RSS per GB")
    ap.add_argument("--rss-mbox", type=Path,
                    help="only ingest this mbox (e.g. a big generated one kept from an earlier run) for msg/s "
                         "and peak RSS per GB, and stop")
    ap.add_argument("--grown", type=float, default=0.0,
                    help="only time a re-run after the unit grew by this fraction of its messages (e.g. "
                         "0.01): own work in one process and the flow, and stop")
    args = ap.parse_args(argv)
    if args.grown:
        mbox = corpus(args.messages, args.fraction, args.seed)
        print(f"command: python -m bench.ingest --messages {args.messages} --fraction {args.fraction} "
              f"--seed {args.seed} --grown {args.grown}")
        grown_rerun(mbox, args.grown)
        return 0
    if args.rss_mbox:
        rss_of(args.rss_mbox)
        return 0
    mbox = corpus(args.messages, args.fraction, args.seed)
    mb = mbox.stat().st_size / 1e6
    print(f"corpus {mbox.name}: {args.messages} messages, {mb:.0f} MB; {os.cpu_count()} CPUs")
    print(f"command: python -m bench.ingest --messages {args.messages} --fraction {args.fraction} --seed {args.seed}")
    base_wall, base_rss, out = measure(BASELINE, str(mbox))
    print("\n[baseline] mailbox.mbox, every message, every body part decoded")
    print(f"  wall {base_wall:7.2f} s   {args.messages / base_wall:8.0f} msg/s   {mb / base_wall:6.1f} MB/s"
          f"   peak RSS {base_rss:6.0f} MB   CPU {LAST_CPU[0]:6.2f} s   ({out.strip()} messages)")
    prefilter_line(mbox)
    own_work(mbox)
    if args.rss_messages:
        big_corpus(args.rss_messages, args.fraction, args.seed)
    tmp = Path(tempfile.mkdtemp(prefix="listbench-bench-"))
    server = None
    try:
        run_case("local file, ephemeral Prefect API", config(tmp, str(mbox), "ephemeral"), mbox, args.messages,
                 base_wall, {})
        server, api = prefect_server(tmp)
        env = {"PREFECT_API_URL": api}
        run_case("local file, running Prefect server", config(tmp, str(mbox), "local"), mbox, args.messages,
                 base_wall, env)
        if not args.no_http:
            srv, port = serve(mbox.parent)
            try:
                run_case("local HTTP server, running Prefect server",
                         config(tmp, f"http://127.0.0.1:{port}/{mbox.name}", "http"), mbox, args.messages,
                         base_wall, env)
            finally:
                srv.shutdown()
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    t = time.perf_counter()
    rc = main()
    print(f"\nbenchmark took {time.perf_counter() - t:.0f} s")
    sys.exit(rc)
