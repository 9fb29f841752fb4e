"""Run every fuzz target for a bounded time; exit non-zero on any finding.

Each target runs under libFuzzer (atheris) from its seed corpus ``fuzz/corpus/<target>``;
what it finds new goes to a working corpus in a temporary folder (the repository's corpus
is only read), and a finding -- an input that makes the target fail -- is written there
and printed with the target's report.  Per target this prints the runs, the executions
per second, the corpus size at the end and the crash file, if any.

    python fuzz/run.py                          # CI: every target, ~3 minutes in all
    python fuzz/run.py --seconds-per-target 3600 --keep /tmp/fuzz   # hours, locally
    python fuzz/run.py --targets saves records --runs 20000

Needs the ``fuzz`` extra (``pip install -e ".[fuzz]"``) and the compiled cores.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

FUZZ_DIR = Path(__file__).resolve().parent
#: The targets, in the order they run (each is fuzz/fuzz_<name>.py).
TARGETS = ["moves", "saves", "signed_saves", "records", "board_files", "core", "positions"]
#: CI's default: all targets together take about three minutes on a 2-core machine
#: (each target also spends a few seconds importing the games and reading its corpus).
DEFAULT_SECONDS = 20
#: Targets that read text get the dictionary of tricky characters (fuzz/text.dict).
TEXT_TARGETS = {"moves", "positions"}
#: One input running longer than this is a finding (a denial of service).
INPUT_TIMEOUT = 60


@dataclass
class Result:
    target: str
    returncode: int
    runs: int
    execs_per_second: int
    corpus: str
    seconds: float
    finding: Path | None
    log: Path
    notes: list[str]  # what the target says of itself (lines "<target>: ...")

    @property
    def failed(self) -> bool:
        return self.returncode != 0 or self.finding is not None


def stat(log: str, name: str) -> int:
    """A ``stat::<name>`` line of libFuzzer's final stats (-print_final_stats=1)."""
    found = re.findall(rf"^stat::{name}:\s+(\d+)", log, re.M)
    return int(found[-1]) if found else 0


def corpus_size(log: str) -> str:
    """The corpus at the end, as libFuzzer's last status line gives it (``135/256Kb``)."""
    found = re.findall(r"corp: (\d+/\d+\w*)", log)
    return found[-1] if found else "?"


def run_target(target: str, work: Path, seconds: int, runs: int | None,
               preload: Path | None = None) -> Result:
    corpus = work / "corpus" / target
    corpus.mkdir(parents=True, exist_ok=True)
    artifacts = work / "findings"
    artifacts.mkdir(parents=True, exist_ok=True)
    log_path = work / f"{target}.log"
    command = [sys.executable, str(FUZZ_DIR / f"fuzz_{target}.py"), str(corpus),
               str(FUZZ_DIR / "corpus" / target), f"-max_total_time={seconds}",
               "-print_final_stats=1", f"-timeout={INPUT_TIMEOUT}",
               f"-artifact_prefix={artifacts}/{target}-"]
    if runs is not None:
        command.append(f"-runs={runs}")
    if target in TEXT_TARGETS:
        command.append(f"-dict={FUZZ_DIR / 'text.dict'}")
    started = time.monotonic()
    before = set(artifacts.iterdir())
    env = dict(os.environ)
    if preload is not None:  # a libFuzzer runtime for natively instrumented cores
        env["LD_PRELOAD"] = str(preload)
    with log_path.open("w") as log:
        done = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, check=False, env=env)
    text = log_path.read_text(errors="replace")
    new = sorted(set(artifacts.iterdir()) - before)
    notes = [line for line in text.splitlines() if line.startswith(f"{target}: ")]
    return Result(target, done.returncode, stat(text, "number_of_executed_units"),
                  stat(text, "average_exec_per_sec"), corpus_size(text),
                  time.monotonic() - started, new[0] if new else None, log_path, notes)


def report(result: Result) -> None:
    status = "FINDING" if result.failed else "ok"
    print(f"{result.target:13} {result.runs:9,} runs {result.execs_per_second:6,} exec/s "
          f"corpus {result.corpus:>11} {result.seconds:6.1f} s  {status}", flush=True)
    for note in result.notes:
        print(f"  {note}")
    if result.failed:
        print(f"  crash file: {result.finding or '(none written)'}  "
              f"exit code {result.returncode}; log: {result.log}")
        tail = result.log.read_text(errors="replace").splitlines()
        start = next((i for i, line in enumerate(tail) if "Uncaught Python exception" in line
                      or "ERROR: libFuzzer" in line or "ERROR: AddressSanitizer" in line),
                     max(0, len(tail) - 40))
        print("\n".join("  | " + line for line in tail[start:start + 40]))
        if result.finding is not None:
            print(f"  reproduce: python {FUZZ_DIR / ('fuzz_' + result.target + '.py')} "
                  f"{result.finding}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds-per-target", type=int, default=DEFAULT_SECONDS,
                        help=f"libFuzzer -max_total_time per target (default "
                             f"{DEFAULT_SECONDS}, about 3 minutes in all)")
    parser.add_argument("--runs", type=int, default=None,
                        help="also stop each target after this many inputs (-runs)")
    parser.add_argument("--targets", nargs="+", choices=TARGETS, default=TARGETS)
    parser.add_argument("--keep", type=Path, default=None,
                        help="working folder to keep (corpora grown, findings, logs); "
                             "default: a temporary one, kept only when something is found")
    parser.add_argument("--preload", type=Path, default=None,
                        help="a libFuzzer shared library to LD_PRELOAD into each target, "
                             "for cores built with clang -fsanitize=fuzzer-no-link "
                             "(fuzz/native.sh)")
    args = parser.parse_args(argv)
    if args.seconds_per_target < 1:
        parser.error("--seconds-per-target must be at least 1")
    work = args.keep or Path(tempfile.mkdtemp(prefix="boardrules-fuzz-"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"fuzz: {len(args.targets)} targets, {args.seconds_per_target} s each, "
          f"work in {work}", flush=True)
    results = []
    for target in args.targets:
        results.append(run_target(target, work, args.seconds_per_target, args.runs,
                                  args.preload))
        report(results[-1])
    failed = [r.target for r in results if r.failed]
    total = sum(r.runs for r in results)
    print(f"fuzz: {total:,} runs in {sum(r.seconds for r in results):.0f} s, "
          f"{len(failed)} target(s) with findings{': ' + ', '.join(failed) if failed else ''}")
    if not failed and args.keep is None:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
