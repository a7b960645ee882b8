"""Prefect's temporary API server, started so that it dies with the process that needs it.

Without PREFECT_API_URL, Prefect starts a temporary API server (uvicorn, a child
process) on first use and stops it at exit. A `kill -9` of the ingest skips the
exit handlers, and the server ran on, orphaned. Here the server is started up front
(from the calling thread, the CLI's main one) through a two-line launcher that asks
the kernel to SIGKILL it when its parent dies (prctl PR_SET_PDEATHSIG, Linux) and
then execs the server's own command line: the process Prefect tracks and stops is
the server itself. Prefect's later lookups of its temporary server find this one.
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

# argv: -c PARENT_PID COMMAND...; exits at once when the parent is already gone
LAUNCHER = (
    "import ctypes, os, signal, sys\n"
    "ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)\n"  # 1 = PR_SET_PDEATHSIG
    "os.getppid() == int(sys.argv[1]) or os._exit(1)\n"
    "os.execv(sys.argv[2], sys.argv[2:])\n"
)


def dies_with_parent(args: list[str]) -> list[str]:
    """`args` run through the launcher (unchanged off Linux, where prctl does not exist)."""
    if not sys.platform.startswith("linux"):
        return list(args)
    return [sys.executable, "-c", LAUNCHER, str(os.getpid()), *args]


class _Subprocess:
    """`subprocess` as the server module sees it while starting: Popen goes through the launcher."""

    def __getattr__(self, name: str) -> Any:
        return getattr(subprocess, name)

    @staticmethod
    def Popen(args: list[str], *rest: Any, **kw: Any) -> subprocess.Popen[Any]:  # noqa: N802
        return subprocess.Popen(dies_with_parent(args), *rest, **kw)


STARTUP_TIMEOUT_S = 120


def server_class() -> type:
    from prefect.server.api import server as prefect_server

    class DyingServer(prefect_server.SubprocessASGIServer):
        def _run_uvicorn_command(self) -> subprocess.Popen[Any]:
            saved = prefect_server.subprocess
            prefect_server.subprocess = _Subprocess()  # type: ignore[assignment]
            try:
                return super()._run_uvicorn_command()
            finally:
                prefect_server.subprocess = saved

    return DyingServer


def ensure_api() -> str | None:
    """Start the temporary API now unless an API is configured; returns its URL (None when
    PREFECT_API_URL is set). Call it from the thread that lives as long as the run: the kernel
    ties the signal to the thread that started the child."""
    from prefect.settings import (
        PREFECT_SERVER_EPHEMERAL_ENABLED,
        PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS,
        get_current_settings,
    )

    if get_current_settings().api.url or not PREFECT_SERVER_EPHEMERAL_ENABLED.value():
        return None  # a configured API, or none allowed (Prefect then says so itself)
    # the server's modules (FastAPI, SQLAlchemy, its ORM: ~2.5 s) only when one is started here
    from prefect.server.api.server import SubprocessASGIServer

    cls = server_class()
    current = SubprocessASGIServer._instances.get(None)
    if current is not None and current.running:
        return current.api_url  # already up (started earlier in this process)
    if current is not None and not isinstance(current, cls):
        del SubprocessASGIServer._instances[None]
    server = cls()
    # Prefect waits 20 s by default; a loaded machine (CI, a laptop mid-build) needs longer, and
    # failing the run for a slow start helps nobody. A larger setting of the user's wins.
    server.start(timeout=max(STARTUP_TIMEOUT_S, PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS.value()))
    return server.api_url
