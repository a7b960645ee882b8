"""Worker processes whose work can be stopped: a time budget per message.

Why not `ProcessPoolExecutor`: it cannot stop one task. A message whose parser
loops (or a regex in C, which never checks for signals) would hold its worker
for ever, and killing a worker breaks the executor with every batch in flight.
Here each worker has its own pipe and a shared progress slot (which message of
its batch it is on, since when, in which phase). The parent waits on the pipes
with a timeout computed from those slots; a worker over budget is killed and
replaced, and its batch is sent again with the slow message swapped for a
marker the caller chooses (`on_stop`), so the messages around it still load.
The messages before it are redone: cheaper than a pipe message per message, and
rare (batches sent behind it go again unchanged). Batches stay the unit of
work, so throughput is a pool's: no process per message, and each worker holds
its next batch (IN_FLIGHT, read by a thread) so it never waits for the parent.

Why a worker process even for one worker: only a process can be stopped from
outside whatever it is doing. SIGALRM inside the process cannot interrupt C code
and only works on the main thread, which task runners do not promise. One
spawned worker serves every unit of the run (~0.5 s once). Where no child
process can start (a daemonic process such as a Dask worker, a program spawn
cannot re-import), the batches run inline, bounded by SIGALRM on the main
thread as a best effort (`inline_budget`).
"""

from __future__ import annotations

import multiprocessing as mp
import queue
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from multiprocessing.connection import wait
from typing import Any

Task = tuple[tuple[Any, ...], dict[str, Any]]
OnStop = Callable[[tuple[Any, ...], dict[str, Any], int, int, str], Task]

_SLOT: Any = None  # in a worker: [message index, started (monotonic, 0 = idle), phase]
WORKERS_ENV = "LISTBENCH_WORKERS"  # `listbench ingest --workers N`: set for the run and what it starts
_ALARM = 0.0  # inline: seconds per message armed by `mark` (0: none)
MAX_RETRIES = 3  # a batch whose worker dies outside any message is sent again this often
IN_FLIGHT = 2  # batches sent to a worker at once: the next one is there when this one ends


class MessageTimeout(Exception):
    """Raised inside a message's work by the inline budget (SIGALRM)."""


class WorkerUnavailable(Exception):
    """No worker process could start here: run inline."""


def mark(index: int, phase: int) -> None:
    """Called before each message's phase: what the parent reads to enforce the budget."""
    slot = _SLOT
    if slot is not None:
        slot[1] = 0.0  # readers ignore the slot while it changes
        slot[0] = index
        slot[2] = phase
        slot[1] = time.monotonic()
    elif _ALARM:
        signal.setitimer(signal.ITIMER_REAL, _ALARM)


def _serve(conn: Any, slot: Any) -> None:
    """A worker's loop: (seq, fn, args, kw) in, (seq, (ok, result or error text)) out. A thread
    reads the next batch while this one runs, so the worker never waits for the parent."""
    global _SLOT
    _SLOT = slot
    inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()

    def read() -> None:
        while True:
            try:
                task = conn.recv()
            except (EOFError, OSError):
                task = None
            inbox.put(task)
            if task is None:
                return

    threading.Thread(target=read, name="listbench-inbox", daemon=True).start()
    while True:
        task = inbox.get()
        if task is None:
            return
        seq, fn, args, kw = task
        try:
            out: tuple[bool, Any] = (True, fn(*args, **kw))
        except Exception as exc:  # reported to the parent, which fails the unit
            out = (False, f"{type(exc).__name__}: {exc}")
        slot[1] = 0.0
        try:
            conn.send((seq, out))
        except (OSError, ValueError):
            return


class _Worker:
    def __init__(self, ctx: Any) -> None:
        self.slot = ctx.RawArray("d", 3)
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_serve, args=(child, self.slot), daemon=True, name="listbench-extract")
        self.proc.start()
        child.close()
        self.seqs: deque[int] = deque()  # batches sent, the first one in work

    def progress(self) -> tuple[int, int, float] | None:
        """(index, phase, started) of the message in work, None when idle or changing."""
        started = self.slot[1]
        index, phase = self.slot[0], self.slot[2]
        if not started or self.slot[1] != started:
            return None
        return int(index), int(phase), started

    def stop(self) -> None:
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(5)
        self.conn.close()


class WorkerPool:
    """`size` worker processes (spawned: no fork of a threaded parent) reused across calls."""

    def __init__(self, size: int) -> None:
        self.ctx = mp.get_context("spawn")
        self.workers = [_Worker(self.ctx) for _ in range(max(1, size))]
        self.proven = False  # a worker has answered: a later death is the message's doing

    def close(self) -> None:
        for w in self.workers:
            w.stop()

    def _replace(self, w: _Worker) -> _Worker:
        w.stop()
        new = _Worker(self.ctx)
        self.workers[self.workers.index(w)] = new
        return new

    def map(self, fn: Callable[..., Any], tasks: Iterable[Task], budget: float, on_stop: OnStop,
            window: int) -> Iterator[Any]:
        """fn(*args, **kw) per task on the workers, results in task order, at most `window`
        tasks read ahead. A message over `budget` seconds (0: none) or whose worker dies is
        handed to `on_stop(args, kw, index, phase, why)`, which returns the task to send again."""
        tasks = iter(tasks)
        table: dict[int, Task] = {}  # sent or waiting, by sequence number
        waiting: deque[int] = deque()  # waiting to be sent (stopped batches first)
        done: dict[int, Any] = {}
        retries: dict[int, int] = {}
        next_seq = next_out = 0
        exhausted = False
        try:
            while True:
                while not exhausted and next_seq - next_out < window:
                    try:
                        table[next_seq] = next(tasks)
                    except StopIteration:
                        exhausted = True
                        break
                    waiting.append(next_seq)
                    next_seq += 1
                for _ in range(IN_FLIGHT):
                    for w in self.workers:
                        if len(w.seqs) < IN_FLIGHT and waiting:
                            seq = waiting.popleft()
                            w.seqs.append(seq)
                            with suppress(OSError):  # it died (or never started): the wait below finds out
                                w.conn.send((seq, fn, *table[seq]))
                if next_out in done:  # handed out after the idle workers got their next batch
                    while next_out in done:
                        yield done.pop(next_out)
                        next_out += 1
                    continue
                busy = [w for w in self.workers if w.seqs]
                if not busy:
                    if exhausted and not waiting and next_out == next_seq:
                        return
                    continue
                ready = set(wait([w.conn for w in busy] + [w.proc.sentinel for w in busy], _wait_for(busy, budget)))
                now = time.monotonic()
                for w in busy:
                    seq = w.seqs[0]
                    if w.conn in ready:
                        try:
                            got, (ok, result) = w.conn.recv()
                        except (EOFError, OSError):
                            got, ok, result = None, False, None
                        if got == seq:
                            if not ok:
                                raise RuntimeError(f"extraction batch failed in a worker: {result}")
                            self.proven = True
                            done[seq] = result
                            del table[seq]
                            w.seqs.popleft()
                            continue
                    dead = w.proc.sentinel in ready or w.conn in ready or not w.proc.is_alive()
                    p = w.progress()
                    if not dead and not (budget and p and now - p[2] >= budget):
                        continue
                    w.proc.kill()
                    w.proc.join(5)
                    after = w.progress()  # final: the process is gone
                    self._replace(w)
                    waiting.extendleft(reversed(list(w.seqs)[1:]))  # sent behind it: again, as they were
                    if dead and not self.proven and after is None:
                        raise WorkerUnavailable(f"worker process exited with {w.proc.exitcode}")
                    if after is None or (not dead and p is not None and after[2] != p[2]):
                        retries[seq] = retries.get(seq, 0) + 1  # not in a message, or it moved on
                        if retries[seq] > MAX_RETRIES:
                            raise RuntimeError(f"extraction worker died {retries[seq]} times outside any message")
                    else:
                        table[seq] = on_stop(*table[seq], after[0], after[1], "died" if dead else "timeout")
                    waiting.appendleft(seq)
        except WorkerUnavailable:
            self.close()
            for w in self.workers:
                w.seqs.clear()
            _POOLS.pop(len(self.workers), None)
            _UNAVAILABLE.append(True)  # later units go inline at once
            for seq in sorted(set(table) - set(done)):
                done[seq] = _run_inline(fn, *table[seq], budget)
            for seq in sorted(done):
                yield done.pop(seq)
            for args, kw in tasks:
                yield _run_inline(fn, args, kw, budget)
        finally:
            for w in self.workers:  # an abandoned run: its batches must not answer the next one
                if w.seqs:
                    self._replace(w)


def _wait_for(busy: list[_Worker], budget: float) -> float | None:
    """Seconds until the earliest message in work runs out of budget (None: no budget)."""
    if not budget:
        return None
    starts = [p[2] for p in (w.progress() for w in busy) if p is not None]
    if not starts:
        return min(budget, 0.5)
    return max(0.01, min(starts) + budget - time.monotonic())


def _run_inline(fn: Callable[..., Any], args: tuple[Any, ...], kw: dict[str, Any], budget: float) -> Any:
    with inline_budget(budget):
        return fn(*args, **kw)


@contextmanager
def inline_budget(seconds: float) -> Iterator[None]:
    """Arm SIGALRM per message (see `mark`) while work runs in this process; only on the main
    thread of a platform with setitimer, otherwise the work runs unbounded."""
    global _ALARM
    if not seconds or threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def expired(signum: int, frame: Any) -> None:
        raise MessageTimeout(f"over {seconds:g} s")

    old = signal.signal(signal.SIGALRM, expired)
    _ALARM = seconds
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        _ALARM = 0.0
        signal.signal(signal.SIGALRM, old)


_POOLS: dict[int, WorkerPool] = {}
_UNAVAILABLE: list[bool] = []
_STARTING: dict[int, threading.Thread] = {}


def prestart(size: int, warm: Callable[[], Any] | None = None) -> None:
    """Start the pool of `size` workers in a thread, each worker then calling `warm` once (its
    imports), while the caller waits on something else (the Prefect API starting up).
    `pool(size)` waits for it. Never raises: a pool that cannot start is found out by `pool`."""
    size = max(1, size)
    if size in _POOLS or size in _STARTING or _UNAVAILABLE:
        return

    def start() -> None:
        with suppress(Exception):
            p = _pool(size)
            if p is not None and warm is not None:
                n = len(p.workers)
                for _ in p.map(warm, [((), {})] * n, 0.0, lambda *a: ((), {}), n):
                    pass

    t = threading.Thread(target=start, name="listbench-prestart", daemon=True)
    _STARTING[size] = t
    t.start()


def pool(size: int) -> WorkerPool | None:
    """A pool of at least `size` workers, the process's own (spawning costs ~0.5 s: reused across
    units, and a bigger one started ahead serves a smaller need); None where no child process can
    start."""
    size = max(1, size)
    for n in [n for n in _STARTING if n >= size]:
        _STARTING.pop(n).join()
    bigger = sorted(n for n in _POOLS if n >= size)
    return _POOLS[bigger[0]] if bigger and not _UNAVAILABLE else _pool(size)


def _pool(size: int) -> WorkerPool | None:
    if _UNAVAILABLE:
        return None
    if size not in _POOLS:
        try:
            _POOLS[size] = WorkerPool(size)
        except (AssertionError, OSError, ValueError, RuntimeError):  # e.g. inside a daemonic process
            return None
    return _POOLS[size]


@contextmanager
def message_budget(seconds: float) -> Iterator[None]:
    """One piece of in-process work bounded like a message inline (MessageTimeout when over);
    for callers that cannot hand their work to a worker process (reextract)."""
    with inline_budget(seconds):
        mark(0, 0)
        try:
            yield
        finally:
            if _ALARM:
                signal.setitimer(signal.ITIMER_REAL, 0)
