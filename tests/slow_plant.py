"""Planted bad inputs for the per-message guards: extraction that never returns, raises or
kills its process, for one marked message. Worker processes import this module by name (spawn),
so a test swaps `flows.parallel.decode_batch` for `decode_batch` below and the plant reaches them."""

from __future__ import annotations

import multiprocessing as mp
import os
from typing import Any

from flows import parallel
from transforms.mail import Mail
from transforms.records import Records, add_mail

MARK_SLOW = "PLANTED-SLOW-MESSAGE"
MARK_CRASH = "PLANTED-CRASHING-MESSAGE"
MARK_DIE = "PLANTED-KILLER-MESSAGE"  # takes its worker process down (a segfault in C code, the OOM killer)
_REAL = parallel.decode_batch


def planted_add_mail(rec: Records, mail: Mail, **kw: Any) -> Any:
    """add_mail, except that it spins forever on MARK_SLOW and raises on MARK_CRASH."""
    if MARK_SLOW in mail.body:
        while True:  # a parser stuck in a loop (no sleep: the worker must be stopped, not wait)
            pass
    if MARK_CRASH in mail.body:
        raise RuntimeError("planted parser bug")
    if MARK_DIE in mail.body and mp.parent_process() is not None:
        os._exit(139)
    return add_mail(rec, mail, **kw)


def decode_batch(*args: Any, **kw: Any) -> Any:
    if mp.parent_process() is not None:  # in a worker: plant there (the parent patches with monkeypatch)
        parallel.add_mail = planted_add_mail
    return _REAL(*args, **kw)
