"""Where the lab's work runs: in this process, in N local processes, or on a dask cluster.

`open_workers(jobs, dask)` gives a `Workers`, whose `executor` is a standard
`concurrent.futures.Executor` in every case: an inline one for one job, a
`ProcessPoolExecutor` for N, and dask.distributed's `Client.get_executor()` for a cluster
(`dask` is the scheduler's address, e.g. tcp://10.0.0.5:8786; the optional `lab` extra).
`Workers.in_order(fn, items)` runs fn on each item and yields the results in the items'
order, keeping a few tasks ahead per worker; a caller that stops reading (a set complete)
has the tasks not yet started cancelled. Results in order are what make `gen`'s files the
same bytes whatever runs them.

Tasks and their arguments must pickle: module-level functions and plain data. A cluster's
workers import them, so each machine needs the same checkout installed (`pip install -e
'.[lab]'`); `open_workers` refuses a cluster whose code differs from this one.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import os
import signal
from collections import deque
from pathlib import Path
from typing import Callable, Iterable, Iterator

CONNECT_TIMEOUT_S = 10
JOBS_PER_CORE = 8
MAX_JOBS = max(32, JOBS_PER_CORE * (os.cpu_count() or 1))
AHEAD_PER_WORKER = 4   # tasks queued per worker: a slow task does not leave the others idle
ROOT = Path(__file__).resolve().parents[2]
CODE_DIRS = ("bot", "referee")


class WorkersError(Exception):
    """The workers cannot be used: one line for the user."""


class InlineExecutor(concurrent.futures.Executor):
    """Runs each task when it is submitted, in this process: no pickling, no start-up."""

    def submit(self, fn, /, *args, **kwargs):
        future = concurrent.futures.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:  # the caller sees it from result(), as with a pool
            future.set_exception(error)
        return future


class Workers:
    """A concurrent.futures executor, how many tasks it runs at once, and how to stop it."""

    def __init__(self, executor: concurrent.futures.Executor, slots: int, where: str,
                 stop: Callable[[], None] | None = None):
        self.executor = executor
        self.slots = slots
        self.where = where        # for messages: "this process", "2 processes", "dask tcp://..."
        self._stop = stop

    def in_order(self, fn: Callable, items: Iterable) -> Iterator:
        """fn(item) for each item, in order; work past what the caller reads is cancelled."""
        ahead = 1 if isinstance(self.executor, InlineExecutor) else self.slots * AHEAD_PER_WORKER
        pending: deque[concurrent.futures.Future] = deque()
        todo = iter(items)
        try:
            while True:
                for item in todo:
                    pending.append(self.executor.submit(fn, item))
                    if len(pending) >= ahead:
                        break
                if not pending:
                    return
                yield pending.popleft().result()
        finally:
            for future in pending:
                future.cancel()

    def close(self) -> None:
        if self._stop is not None:
            self._stop()
        else:
            self.executor.shutdown(wait=True)

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def add_worker_options(parser: argparse.ArgumentParser) -> None:
    """--jobs and --dask, as gen and bench take them."""
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="worker processes (default: 1, this process)")
    parser.add_argument("--dask", default=None, metavar="ADDRESS",
                        help="run the work on the dask.distributed scheduler at ADDRESS, "
                             "e.g. tcp://10.0.0.5:8786 (default: none)")


def workers_from_args(args: argparse.Namespace) -> Workers:
    """The Workers that --jobs/--dask ask for (a UsageError if they cannot be had)."""
    from referee.cli import UsageError

    try:
        return open_workers(args.jobs, args.dask)
    except WorkersError as error:
        raise UsageError(str(error)) from None


def open_workers(jobs: int = 1, dask: str | None = None) -> Workers:
    """Workers for `jobs` local processes (1: this process) or the dask scheduler at `dask`."""
    if dask is not None:
        return _dask_workers(dask)
    if jobs < 1:
        raise WorkersError(f"--jobs must be at least 1, got {jobs}")
    if jobs > MAX_JOBS:   # each is a process started at once: 100000 of them flood the machine
        raise WorkersError(f"--jobs must be at most {MAX_JOBS} here ({JOBS_PER_CORE} per core), "
                           f"got {jobs}")
    if jobs == 1:
        return Workers(InlineExecutor(), 1, "this process")
    pool = concurrent.futures.ProcessPoolExecutor(max_workers=jobs, initializer=_plain_sigterm)
    return Workers(pool, jobs, f"{jobs} processes", lambda: _stop_pool(pool))


def _plain_sigterm() -> None:
    """A worker ends at once on SIGTERM (how `_stop_pool` stops it), not down the referee's
    own SIGTERM path, which it inherits from the fork."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _stop_pool(pool: concurrent.futures.ProcessPoolExecutor) -> None:
    """Cancel what has not started and end the workers now: a task still running (a
    speculative attempt past the last puzzle needed) is not worth waiting for."""
    terminate = getattr(pool, "terminate_workers", None)   # Python 3.14 and later
    if terminate is not None:
        terminate()
        return
    # Before 3.14: shutdown forgets the processes, so take them first.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join()


def _dask_workers(address: str) -> Workers:
    try:
        from distributed import Client
    except ImportError:
        raise WorkersError("--dask needs dask.distributed: pip install -e '.[lab]'") from None
    try:
        _check_address(address)
    except ValueError as error:
        raise WorkersError(f"--dask {address}: cannot reach the scheduler ({error})") from None
    client = Client.__new__(Client)
    try:
        client.__init__(address, timeout=f"{CONNECT_TIMEOUT_S}s", set_as_default=False)
    except Exception as error:   # OSError, a timeout; a MemoryError when the port speaks no dask
        # A Client whose start failed part way waits 20 s to close in its destructor,
        # then prints an ignored TimeoutError: mark it closed, there is nothing to close.
        client.status = "closed"
        raise WorkersError(f"--dask {address}: cannot reach the scheduler ({error})") from None
    try:
        slots = sum(client.nthreads().values())
        if slots < 1:
            raise WorkersError(f"--dask {address}: the cluster has no worker")
        try:
            theirs = set(client.run(code_digest).values())
        except Exception as error:  # a worker without this package cannot even answer
            raise WorkersError(f"--dask {address}: the workers cannot run the lab's code "
                               f"({type(error).__name__}: {error})") from None
        if theirs != {code_digest()}:
            raise WorkersError(f"--dask {address}: the workers run other code than this "
                               "checkout (install the same bot/ and referee/ on every worker)")
    except BaseException:
        client.close()
        raise
    executor = client.get_executor(pure=False)

    def stop() -> None:
        executor.shutdown(wait=False)
        client.close()

    return Workers(executor, slots, f"dask {address} ({slots} threads)", stop)


NETWORK_SCHEMES = ("tcp", "tls", "ws", "wss")   # dask's schemes that need a host and a port


def _check_address(address: str) -> None:
    """ValueError unless `address` could name a scheduler: a known scheme and, for a network
    one, a host and a port 1..65535. Checked before a Client exists (see _dask_workers)."""
    from distributed.comm import get_address_host_port, parse_address
    from distributed.comm.registry import get_backend

    scheme = parse_address(address)[0]
    get_backend(scheme)   # ValueError for an unknown scheme
    if scheme == "inproc":
        raise ValueError("inproc names a scheduler inside this process, which has none")
    if scheme in NETWORK_SCHEMES:
        host, port = get_address_host_port(address)
        if not host or not 0 < port < 65536:
            raise ValueError("expected HOST:PORT with a port 1..65535")


def code_digest() -> str:
    """A digest of the bot's and the referee's sources: equal digests, equal results."""
    digest = hashlib.sha256()
    for name in CODE_DIRS:
        for path in sorted((ROOT / name).rglob("*.py")):
            digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()
