"""Jobs played in this process, in local worker processes or on a Ray cluster: what a
match, a tournament and the self-play generator share.

Each backend calls ``setup(*setup_args)`` once per worker (the game and the bots, rebuilt
there), then ``work(context, job)`` for each job, and hands each result to ``on_result``
in this process as the jobs finish.  The jobs go out in batches of consecutive jobs, two
per worker at a time (one running, one waiting), each as many jobs as take about
:data:`BATCH_SECONDS` at the pace so far: one at a time when jobs are slow, so that the
progress moves with each, many when they are quick, so that handing them over costs
little.  On any exception (Ctrl-C included) the workers are ended at once, mid-job:
waiting for the jobs under way could take as long as the jobs do.

The results do not depend on the backend: a job is a function of its own seeds.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterable, Iterator, Sized
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, Generic, Literal, TypeVar

JobT = TypeVar("JobT")
ResultT = TypeVar("ResultT")

#: Where the jobs run: ``"local"`` (this process or local worker processes) or ``"ray"``.
Backend = Literal["local", "ray"]
BACKENDS: tuple[str, ...] = ("local", "ray")

#: A batch of jobs sent to a worker should take about this long (seconds): long enough
#: that sending it and its results costs little, short enough that the progress moves.
BATCH_SECONDS = 0.05


def check_backend(backend: object) -> Backend:
    if not isinstance(backend, str):
        raise TypeError(f"backend must be a str, not {type(backend).__name__}")
    if backend == "local":
        return "local"
    if backend == "ray":
        return "ray"
    raise ValueError(f"unknown backend {backend!r}; backends: {', '.join(BACKENDS)}")


def check_processes(processes: object) -> int | None:
    """``processes`` checked: an int of at least 1, or None (every core; on Ray, every CPU
    of the cluster)."""
    if processes is None:
        return None
    if isinstance(processes, bool) or not isinstance(processes, int):
        raise TypeError("processes must be an int or None")
    if processes < 1:
        raise ValueError("processes must be at least 1")
    return processes


def ray_module() -> Any:
    """Ray, imported (ImportError naming the extra when it is not installed)."""
    try:
        import ray
    except ImportError as exc:
        raise ImportError("backend='ray' needs Ray: pip install 'boardrules[ray]'") from exc
    return ray


def ray_started() -> Any:
    """Ray, connected: the cluster the caller joined with ``ray.init(address=...)``, the
    one ``RAY_ADDRESS`` names, or else a local one started here for this process."""
    ray = ray_module()
    if not ray.is_initialized():
        ray.init(include_dashboard=False, log_to_driver=False)
    return ray


def worker_count(processes: int | None, backend: Backend, jobs: int) -> int:
    """The workers to start: as asked, or one per core (on Ray, per CPU of the cluster),
    never more than there are jobs."""
    if processes is None:
        if backend == "ray":
            processes = max(1, int(ray_started().cluster_resources().get("CPU", 1)))
        else:
            processes = os.cpu_count() or 1
    return max(1, min(processes, jobs))


class _Pace:
    """The seconds a job takes in a worker, over the batches so far."""

    def __init__(self) -> None:
        self.jobs = 0
        self.seconds = 0.0

    def add(self, jobs: int, seconds: float) -> None:
        self.jobs += jobs
        self.seconds += seconds

    def batch_size(self, waiting: int, workers: int) -> int:
        """Jobs for the next batch: :data:`BATCH_SECONDS` of them at this pace, but no
        more than a share of those left (so the workers finish together), and one when
        jobs are slow."""
        per_job = self.seconds / self.jobs if self.jobs else BATCH_SECONDS
        wanted = int(BATCH_SECONDS / per_job) if per_job > 0 else waiting
        return max(1, min(wanted, waiting // (2 * workers)))


class Runner(Generic[JobT, ResultT]):
    """Runs ``work(context, job)`` for every job on a backend (see the module's text).

    * ``setup`` / ``setup_args`` -- build each worker's context (module-level, picklable);
    * ``work`` -- a module-level function of the context and one job;
    * ``on_start`` -- called once the workers exist, before the first result;
    * ``on_result`` -- called with each job and its result as they finish (an exception
      it raises stops the run and propagates).
    """

    def __init__(self, setup: Callable[..., Any], setup_args: tuple[Any, ...],
                 work: Callable[[Any, JobT], ResultT], *, backend: Backend = "local",
                 processes: int | None = None) -> None:
        self.setup = setup
        self.setup_args = setup_args
        self.work = work
        self.backend = backend
        self.processes = processes

    def run(self, jobs: Iterable[JobT], on_result: Callable[[JobT, ResultT], object],
            on_start: Callable[[], object] = lambda: None, *,
            count: int | None = None) -> None:
        """Run ``jobs``: a sequence, or any iterable (a generator) with its ``count``.
        A job is taken from it only as its batch is sent, so a run of any length starts
        at once and holds only the jobs under way, never a list of them all."""
        if count is None:
            if not isinstance(jobs, Sized):
                raise TypeError("jobs that are not a sequence need their count")
            count = len(jobs)
        total = count
        if total <= 0:
            on_start()
            return
        workers = worker_count(self.processes, self.backend, total)
        waiting = _Waiting(jobs, total)
        if self.backend == "ray":
            self._run_on_ray(waiting, workers, on_result, on_start)
        elif workers == 1:
            context = self.setup(*self.setup_args)
            on_start()
            for job in waiting.take(total):
                on_result(job, self.work(context, job))
        else:
            self._run_in_pool(waiting, workers, on_result, on_start)

    def _run_in_pool(self, waiting: _Waiting[JobT], workers: int,
                     on_result: Callable[[JobT, ResultT], object],
                     on_start: Callable[[], object]) -> None:
        pool = ProcessPoolExecutor(workers, initializer=_init_worker,
                                   initargs=(self.setup, self.setup_args))
        running: set[Future[_Batch[JobT, ResultT]]] = set()
        pace = _Pace()
        done = False
        try:
            for _ in range(2 * workers):
                running |= self._submit(pool, waiting, 1)
            on_start()  # after the first submissions: the workers exist from here on
            while running:
                finished, running = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    results, seconds = future.result()
                    for job, result in results:
                        on_result(job, result)
                    pace.add(len(results), seconds)
                    running |= self._submit(pool, waiting,
                                            pace.batch_size(waiting.left, workers))
            done = True
        finally:
            if done:
                pool.shutdown()
            else:
                _stop_now(pool, running)

    def _submit(self, pool: ProcessPoolExecutor, waiting: _Waiting[JobT],
                size: int) -> set[Future[_Batch[JobT, ResultT]]]:
        """The next ``size`` waiting jobs sent to the pool as one batch (none left:
        nothing)."""
        batch = list(waiting.take(size))
        return {pool.submit(_run_batch, self.work, batch)} if batch else set()

    def _run_on_ray(self, waiting: _Waiting[JobT], workers: int,
                    on_result: Callable[[JobT, ResultT], object],
                    on_start: Callable[[], object]) -> None:
        """The same batches, each sent to one of ``workers`` Ray actors (one CPU each),
        which built its context once as a pool's worker does."""
        ray = ray_started()
        actor_class = ray.remote(num_cpus=1)(_RayWorker)
        actors = [actor_class.remote(self.setup, self.setup_args) for _ in range(workers)]
        running: dict[Any, Any] = {}  # a batch's result ref -> the actor running it
        pace = _Pace()
        try:
            for actor in actors:
                for _ in range(2):
                    self._send(actor, waiting, 1, running)
            on_start()
            while running:
                finished, _ = ray.wait(list(running), num_returns=1)
                for ref in finished:
                    actor = running.pop(ref)
                    results, seconds = ray.get(ref)
                    for job, result in results:
                        on_result(job, result)
                    pace.add(len(results), seconds)
                    self._send(actor, waiting, pace.batch_size(waiting.left, workers),
                               running)
        finally:
            # done or not, the actors go: each holds a CPU of the cluster, and killing
            # one ends the batch it is running (Ray cancels no actor task by force)
            for actor in actors:
                ray.kill(actor)

    def _send(self, actor: Any, waiting: _Waiting[JobT], size: int,
              running: dict[Any, Any]) -> None:
        batch = list(waiting.take(size))
        if batch:
            running[actor.run.remote(self.work, batch)] = actor


class _Waiting(Generic[JobT]):
    """The jobs not yet sent, taken from their iterable a batch at a time (so that only
    the jobs under way exist), and how many are left."""

    def __init__(self, jobs: Iterable[JobT], count: int) -> None:
        self._jobs = iter(jobs)
        self.left = count

    def take(self, size: int) -> Iterator[JobT]:
        """Up to ``size`` more jobs, built as they are asked for."""
        for _ in range(min(size, self.left)):
            try:
                job = next(self._jobs)
            except StopIteration:  # fewer jobs than counted: none is left
                self.left = 0
                return
            self.left -= 1
            yield job

#: A batch's (job, result) pairs and the seconds the worker took over them.
_Batch = tuple[list[tuple[JobT, ResultT]], float]

_CONTEXT: dict[str, Any] = {}


def _init_worker(setup: Callable[..., Any], setup_args: tuple[Any, ...]) -> None:
    # Ctrl-C at a terminal signals the whole process group; the parent alone decides
    # what it means (it ends the workers itself), so a worker never dies of it mid-reply
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _CONTEXT["context"] = setup(*setup_args)


def _run_batch(work: Callable[[Any, JobT], ResultT],
               batch: list[JobT]) -> _Batch[JobT, ResultT]:
    start = time.perf_counter()
    context = _CONTEXT["context"]
    results = [(job, work(context, job)) for job in batch]
    return results, time.perf_counter() - start


class _RayWorker:
    """A Ray actor holding one worker's context (made a Ray actor class at run time, so
    that importing this module never imports Ray)."""

    def __init__(self, setup: Callable[..., Any], setup_args: tuple[Any, ...]) -> None:
        self.context = setup(*setup_args)

    def run(self, work: Callable[[Any, JobT], ResultT],
            batch: list[JobT]) -> _Batch[JobT, ResultT]:
        start = time.perf_counter()
        results = [(job, work(self.context, job)) for job in batch]
        return results, time.perf_counter() - start


def _stop_now(pool: ProcessPoolExecutor, futures: Iterable[Future[Any]]) -> None:
    """Cancel the batches not started and end the workers without waiting for theirs."""
    for future in futures:
        future.cancel()
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14 and later
    # before 3.14 the pool does not name its processes publicly; ending them makes its
    # manager thread find the pool broken and let go of it as terminate_workers does
    workers = list((getattr(pool, "_processes", None) or {}).values())
    if callable(terminate):
        terminate()
    else:
        pool.shutdown(wait=False, cancel_futures=True)
        for process in workers:
            process.terminate()
    # and any the pool had not yet listed when it was asked (a worker it was starting)
    workers += [p for p in (getattr(pool, "_processes", None) or {}).values()
                if p not in workers]
    deadline = time.monotonic() + 0.5
    for process in workers:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():  # a bot of its own kept SIGTERM from ending it
            process.kill()
            process.join()
