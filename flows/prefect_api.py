"""Prefect's temporary API server, started early and so that it dies with the process that needs it.

Without PREFECT_API_URL, Prefect starts a temporary API server (uvicorn, a child
process) on first use and stops it at exit. A `kill -9` of the ingest skips the
exit handlers, and the server ran on, orphaned. Here the server is started up front
(from the calling thread, the CLI's main one) through a two-line launcher that asks
the kernel to SIGKILL it when its parent dies (prctl PR_SET_PDEATHSIG, Linux) and
then execs the server's own command line: the process stopped at exit is the server
itself. It is started before the work that needs no API (the checks, the worker pool,
GX's import), which goes on while it comes up.
"""

from __future__ import annotations

import os
import subprocess
import sys
from contextlib import AbstractContextManager, nullcontext
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


STARTUP_TIMEOUT_S = 120
PORT_IN_USE = 3  # uvicorn's exit code when its port is taken (Prefect picks another port then)

_SERVER: dict[str, Any] = {}  # the temporary API this process started: "proc", "url", "ready"


def ensure_api(wait: bool = True) -> str | None:
    """Start the temporary API now unless an API is configured; returns its URL (None when one is
    configured). With `wait=False` it returns at once and the server comes up while the caller
    does work that needs no API; the next `ensure_api()` waits until it answers. Call it from
    the thread that lives as long as the run: the kernel ties the signal to the thread that
    started the child.

    Prefect would start the same server itself (`SubprocessASGIServer`), but it imports the
    server's modules (FastAPI, SQLAlchemy, its ORM: ~4 s of CPU) in this process first, which
    only the server process needs. Here the server's command line is Prefect's own, and its
    URL becomes this process's PREFECT_API_URL, so that every thread's client uses it."""
    if "url" not in _SERVER:
        from prefect.settings import PREFECT_SERVER_EPHEMERAL_ENABLED, get_current_settings

        if get_current_settings().api.url or not PREFECT_SERVER_EPHEMERAL_ENABLED.value():
            return None  # a configured API, or none allowed (Prefect then says so itself)
        _start()
    if wait and not _SERVER.get("ready"):
        _wait_until_up()
    return _SERVER["url"]


def run_settings() -> AbstractContextManager[Any]:
    """Settings for a flow run of this process. On the temporary API, no flow run heartbeats: they
    exist so that a server outliving a crashed run can mark it crashed, and this server ends with
    the process. Their thread sleeps in one-second steps and is joined as the flow ends, which
    cost every run up to a second of waiting. A configured API keeps them."""
    if "url" not in _SERVER:
        return nullcontext()
    from prefect.settings import PREFECT_FLOWS_HEARTBEAT_FREQUENCY, temporary_settings

    return temporary_settings(updates={PREFECT_FLOWS_HEARTBEAT_FREQUENCY: None})


def started_up() -> None:
    """Wait for the temporary API if this process started one (no import of Prefect otherwise)."""
    if "url" in _SERVER and not _SERVER.get("ready"):
        _wait_until_up()


def server_pid() -> int | None:
    proc = _SERVER.get("proc")
    return None if proc is None else proc.pid


def _start() -> None:
    import atexit
    import socket

    import prefect
    from prefect.context import refresh_global_settings_context
    from prefect.settings import get_current_settings

    env = {**os.environ, "PREFECT_UI_ENABLED": "0", "PREFECT__SERVER_EPHEMERAL": "1", "PREFECT__SERVER_FINAL": "1",
           **get_current_settings().to_environment_variables(exclude_unset=True)}
    env.pop("PREFECT_API_URL", None)  # a port taken: started again, and not told its last address
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    args = [sys.executable, "-m", "uvicorn", "--app-dir", str(prefect.__module_path__.parent), "--factory",
            "prefect.server.api.server:create_app", "--host", "127.0.0.1", "--port", str(port),
            "--log-level", "error", "--lifespan", "on"]
    if "proc" not in _SERVER:
        atexit.register(_stop)
    _SERVER.update(proc=subprocess.Popen(dies_with_parent(args), env=env), url=f"http://127.0.0.1:{port}/api",
                   ready=False)
    os.environ["PREFECT_API_URL"] = _SERVER["url"]
    refresh_global_settings_context()


def _wait_until_up() -> None:
    import time
    import urllib.request

    from prefect.settings import PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS

    # Prefect waits 20 s by default; a loaded machine (CI, a laptop mid-build) needs longer, and
    # failing the run for a slow start helps nobody. A larger setting of the user's wins.
    deadline = time.monotonic() + max(STARTUP_TIMEOUT_S, PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS.value())
    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # 127.0.0.1: never through a proxy
    while time.monotonic() < deadline:
        code = _SERVER["proc"].poll()
        if code == PORT_IN_USE:
            _start()
            continue
        if code is not None:
            raise RuntimeError(f"the temporary Prefect API server exited with code {code} while starting")
        try:
            with direct.open(_SERVER["url"] + "/health", timeout=2) as r:
                if r.status == 200:
                    _SERVER["ready"] = True
                    return
        except OSError:
            pass
        time.sleep(0.05)
    raise RuntimeError("timed out while waiting for the temporary Prefect API server to start")


def _stop() -> None:
    proc = _SERVER.get("proc")
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
