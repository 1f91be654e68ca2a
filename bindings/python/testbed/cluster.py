"""The Dask cluster that runs a campaign's points: an embedded LocalCluster, or an existing
cluster's scheduler (``--scheduler ADDR``), and the worker plugins that supervise its workers.

The embedded cluster listens on the loopback address only, with Dask's CPU-costly diagnostics off
(LEAN_DASK); its worker processes die with the campaign (campaign_watch) and ignore the terminal's
^C, which the campaign handles (package_path). An external scheduler is reached first with a
bounded TCP connection (reach_scheduler), so a wrong address is one line, not a long retry.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path

from .errors import CampaignError, SchedulerError
from .runner import kill_running


#: How long a campaign on an external cluster waits for a worker (at the start, or when every
#: worker is gone) before it gives up with a message.
WORKER_WAIT_S = 120.0


def package_path(pkg: str):
    """A Dask worker plugin that puts this package on the worker's sys.path at the worker's
    start (every worker, also one that restarts), and makes the worker ignore SIGINT: a ^C in
    the campaign's terminal reaches its process group, and the campaign (not each worker, with
    a traceback) handles it."""
    from distributed.diagnostics.plugin import WorkerPlugin

    campaign = os.getpid()

    class PackagePath(WorkerPlugin):
        name = "testbed-package-path"

        def setup(self, worker):
            if pkg not in sys.path:
                sys.path.insert(0, pkg)
            if os.getpid() == campaign:
                return  # a thread worker of the campaign's own process: its ^C stays
            try:
                signal.signal(signal.SIGINT, signal.SIG_IGN)
            except ValueError:  # not the main thread
                pass

    return PackagePath()


def campaign_watch(pid: int):
    """A Dask worker plugin for the embedded cluster: when the campaign process `pid` disappears
    (killed, even with SIGKILL), the worker kills its running programs and exits."""
    from distributed.diagnostics.plugin import WorkerPlugin

    class CampaignWatch(WorkerPlugin):
        name = "testbed-campaign-watch"

        def setup(self, worker):
            def watch():
                while True:
                    time.sleep(0.5)
                    try:
                        os.kill(pid, 0)
                    except ProcessLookupError:
                        kill_running()
                        try:  # the nanny would start a new worker for a campaign that is gone
                            os.kill(os.getppid(), signal.SIGKILL)
                        finally:
                            os._exit(1)
                    except PermissionError:
                        pass

            threading.Thread(target=watch, daemon=True).start()

        def teardown(self, worker):
            kill_running()

    return CampaignWatch()


def _worker_processes_are_safe() -> bool:
    """Whether the embedded cluster may start worker PROCESSES. Dask starts them with
    multiprocessing's spawn, which imports the parent's ``__main__`` module again: a user's
    script that calls testbed.sweep() at top level, without an ``if __name__ == "__main__":``
    guard, would run again in every worker (and fail with a screen of traceback). Only the
    command line (python -m testbed.cli, which is guarded) gets processes; from any other
    program (a script, a notebook, pytest) the workers are threads of this process, which
    suffices: every point is a subprocess of its own, so the threads only wait for programs."""
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    return spec is not None and spec.name in ("testbed.cli", "testbed.__main__")


# Connecting to an external scheduler (--scheduler ADDR): the TCP connection must open within
# SCHEDULER_CONNECT_S (a scheduler on a LAN answers in milliseconds; Dask's own default retries a
# refused connection for 30 s), and the Dask handshake must finish within the same time.
SCHEDULER_CONNECT_S = 5.0


def _reach_scheduler(address: str) -> None:
    """Open (and close) a TCP connection to a tcp:// or tls:// scheduler address, or raise
    SchedulerError in one sentence: a malformed address, an unknown host, a refused or unanswered
    connection. Other Dask transports are left to Dask's Client."""
    import socket

    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, loc = parse_address(address)
        if scheme == "inproc":  # a scheduler of this very process (the Python API) or none
            from distributed.comm.inproc import global_manager

            try:
                listening = global_manager.get_listener_for(loc) is not None
            except ValueError:  # another process's or a malformed in-process address
                listening = False
            if not listening:
                raise ValueError("an inproc:// address names a scheduler inside this process, "
                                 "and none listens there; give tcp://HOST:PORT")
            return
        if scheme not in ("tcp", "tls"):
            return  # another Dask transport (ucx://, ws://): Dask's Client checks it
        host, port = parse_host_port(loc)
        if port is None:
            raise ValueError("no port (use tcp://HOST:PORT)")
    except (ValueError, TypeError) as e:
        raise SchedulerError(f"--scheduler {address}: not an address ({e})") from None
    try:
        with socket.create_connection((host, port), timeout=SCHEDULER_CONNECT_S):
            pass
    except socket.timeout:
        raise SchedulerError(f"--scheduler {address}: no answer within {SCHEDULER_CONNECT_S:g} s")\
            from None
    except OSError as e:
        raise SchedulerError(f"--scheduler {address}: cannot connect "
                            f"({e.strerror or type(e).__name__})") from None


#: The embedded cluster's Dask settings that cost CPU for nothing a campaign uses: Dask's
#: statistical profiler (a stack sample of every worker thread every 10 ms, for the dashboard,
#: which a campaign does not start), its GIL-contention probe (every 1 ms), the event loops'
#: tick watch (20 ms), the system monitor (500 ms) and the worker memory monitor (100 ms;
#: still on, every 5 s), and work stealing (independent points are queued on the scheduler and
#: handed to the next free worker in priority order; stealing only moved queued tasks around).
#: Measured: an idle embedded cluster of 2 worker processes took 3.47 s of CPU per 30 s with
#: Dask's defaults and 0.35 s with these (doc/campaigns.rst). An external scheduler's workers
#: keep their own configuration.
LEAN_DASK = {"distributed.worker.profile.enabled": False,
             "distributed.admin.system-monitor.gil.enabled": False,
             "distributed.admin.tick.interval": "1s",
             "distributed.admin.system-monitor.interval": "5s",
             "distributed.worker.memory.monitor-interval": "5s",
             "distributed.scheduler.work-stealing": False}


#: The embedded cluster's address, and an HTTP server's address on it (any free port).
LOOPBACK = "127.0.0.1"
LOOPBACK_ANY_PORT = f"{LOOPBACK}:0"


class Cluster:
    """The Dask client: an embedded LocalCluster of `jobs` worker processes, or an existing
    cluster's scheduler."""

    def __init__(self, jobs: int, scheduler: str | None):
        import logging

        import dask
        from distributed import Client, LocalCluster

        dask.config.set({"distributed.scheduler.allowed-failures": 3,
                         "distributed.admin.tick.limit": "60s"})
        if not scheduler:
            dask.config.set(LEAN_DASK)
        self.cluster = None
        if scheduler:
            _reach_scheduler(scheduler)
            try:
                self.client = Client(scheduler, timeout=SCHEDULER_CONNECT_S)
            except (OSError, TimeoutError) as e:
                raise SchedulerError(f"--scheduler {scheduler}: no Dask scheduler answers "
                                    f"within {SCHEDULER_CONNECT_S:g} s ({e})") from None
            except Exception:  # noqa: BLE001  (a server answered, in another protocol)
                raise SchedulerError(f"--scheduler {scheduler}: the server there is not a Dask "
                                    "scheduler (its answer is not Dask's protocol)") from None
        else:
            # Worker processes only where that is safe (see _worker_processes_are_safe), threads
            # otherwise. The scheduler's HTTP server on a free port (":0"), no dashboard:
            # dashboard_address None still bound 8787 and warned "Port 8787 is already in use"
            # for every concurrent campaign. Dask's own log lines only at CRITICAL: its
            # worker processes log at ERROR what an ending campaign causes (a heartbeat that
            # meets the closed scheduler after a ^C printed a traceback: seen once in CI); the
            # campaign reports every point's failure itself.
            # Every server of the embedded cluster listens on the loopback address only: the
            # scheduler and the worker processes (``host``; thread workers talk in-process) and
            # the HTTP servers of the scheduler and of each worker (":0" was every interface).
            self.processes = _worker_processes_are_safe()
            self.cluster = LocalCluster(n_workers=max(1, jobs), threads_per_worker=1,
                                        processes=self.processes, dashboard_address=None,
                                        scheduler_kwargs={"dashboard_address": LOOPBACK_ANY_PORT},
                                        worker_dashboard_address=LOOPBACK_ANY_PORT,
                                        silence_logs=logging.CRITICAL,
                                        **({"host": LOOPBACK} if self.processes else {}))
            self.client = Client(self.cluster)
        # Workers import this module: a worker plugin makes the package importable on every
        # worker, also one that joins or restarts later (client.run reached only the workers of
        # the moment: a restarted worker of an external cluster could not import testbed).
        self.client.register_plugin(package_path(str(Path(__file__).resolve().parents[1])))
        if self.cluster is not None:
            if self.processes:  # thread workers end with this process; the watch would kill it
                self.client.register_plugin(campaign_watch(os.getpid()))
        else:
            try:
                self.client.wait_for_workers(1, timeout=WORKER_WAIT_S)
            except (TimeoutError, OSError):
                self.client.close()
                raise CampaignError(f"--scheduler {scheduler}: no workers for {WORKER_WAIT_S} s")

    def describe(self) -> str:
        """Which scheduler runs the points, in one line for the console."""
        if self.cluster is None:
            n = self.workers()
            return (f"scheduler: {self.client.scheduler.address} (external, "
                    f"{n} worker{'s' if n != 1 else ''} connected)")
        n = len(self.cluster.workers)
        kind = ("process" if self.processes else "thread") + ("es" if self.processes and n != 1
                                                              else "s" if n != 1 else "")
        return (f"scheduler: embedded LocalCluster at {self.client.scheduler.address} "
                f"({n} worker {kind}, listening on {LOOPBACK} only)")

    def workers(self) -> int:
        """Workers connected now."""
        try:
            return len(self.client.scheduler_info().get("workers", {}))
        except Exception:  # noqa: BLE001  (a lost scheduler: no workers)
            return 0

    def close(self):
        try:
            self.client.close()
        finally:
            if self.cluster is not None:
                self.cluster.close()
