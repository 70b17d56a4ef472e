#!/usr/bin/env python3
"""Prints the ratio table of one benchmark run: each peer's time over ours, ours over the floor.

    python3 Benchmarks/ratios.py                  # runs the whole suite once (about 10 minutes)
    python3 Benchmarks/ratios.py --save run.csv   # the same, keeping the run's raw export
    python3 Benchmarks/ratios.py --from run.csv   # the table of a saved run, without running

Extra arguments after `--` go to `swift package benchmark` (e.g. `-- --filter 'callbacks.*'`).
Times are medians (p50) of wall-clock time per iteration (`--percentile 0` takes the fastest
iteration instead, steadier on a busy machine); one iteration runs a whole workload of N
operations, so a time per operation is the median divided by N. Compare ratios, not times: the
ratios hold from run to run on a shared machine, the times do not.
"""

import argparse
import csv
import io
import pathlib
import subprocess
import sys

BENCHMARKS = pathlib.Path(__file__).resolve().parent
OURS = "effects"
FLOOR = "floor"
PEERS = ("combine-schedulers", "swift-clocks", "swift-dependencies")

WORKLOADS = [
    ("callbacks", "N callbacks scheduled, then run by one advance"),
    ("callback-steps", "N callbacks, one awaited advance each (floor: the same steps, sync)"),
    ("steps", "N async actions stepped from @MainActor, one advance each"),
    ("sleepers-group", "N sleepers in a task group, one advance"),
    ("sleepers-tasks", "N sleepers in unstructured tasks, one advance"),
    ("read.root", "read the date co-effect, no override"),
    ("read.scoped", "read the date co-effect, inside an override"),
    ("spy-record", "Spy call (Void output, record)"),
    ("interpret", "Interpreter.live perform(.setDefault) into memory"),
    ("diff", "one entry of two lists that differ in one, diffed by assertEffects"),
    ("model-steps", "N ticks of an @Observable model, each recorded by a ModelTester and asserted"),
    ("feature-steps", "the same N ticks as actions a FeatureTester receives"),
    ("explored-scope", "N @MainActor tasks calling an actor 10 times, one explored run (random walk)"),
    ("plain-scope", "the same test, one run in the default order"),
]


def run_suite(extra):
    command = [
        "swift", "package", "--package-path", str(BENCHMARKS), "benchmark",
        "--format", "influx", "--path", "stdout", "--no-progress", *extra,
    ]
    print("running:", " ".join(command), file=sys.stderr)
    result = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=False)
    if result.returncode != 0:
        sys.exit(f"the benchmark run failed (exit {result.returncode})")
    return result.stdout


def medians(export, percentile=50.0):
    """{(workload, size, side): wall-clock ns per iteration at `percentile`} from an influx export."""
    rows = csv.reader(io.StringIO(export))
    found = {}
    for row in rows:
        if len(row) < 11 or row[0].startswith("#") or row[0] == "measurement":
            continue
        metric, test, value = row[6], row[8], row[10]
        if metric != "Time(wallclock)" or float(row[9]) != percentile:
            continue
        workload, size, side = test.rsplit(".", 2)
        found[(workload, size, side)] = float(value)
    return found


def count(size):
    mantissa, exponent = size.split("e")
    return int(mantissa) * 10 ** int(exponent)


def human(size):
    n = count(size)
    return f"{n // 1_000_000}M" if n >= 1_000_000 else f"{n // 1_000}k"


def per_op(ns):
    if ns >= 1_000_000:
        return f"{ns / 1_000_000:,.2f} ms"
    if ns >= 1_000:
        return f"{ns / 1_000:,.1f} µs"
    return f"{ns:,.1f} ns"


def ratio(value):
    return f"{value:,.0f}×" if value >= 100 else f"{value:,.1f}×"


def table(found):
    lines = [
        "| workload | N | swift-effects per op | peer | peer per op | peer / ours | floor per op | ours / floor |",
        "|---|---:|---:|---|---:|---:|---:|---:|",
    ]
    for workload, description in WORKLOADS:
        sizes = sorted({s for (w, s, _) in found if w == workload}, key=count)
        for size in sizes:
            n = count(size)
            ours = found.get((workload, size, OURS))
            floor = found.get((workload, size, FLOOR))
            peers = [(p, found[(workload, size, p)]) for p in PEERS if (workload, size, p) in found]
            cells = [description, human(size), per_op(ours / n) if ours else "—"]
            if peers:
                name, peer = peers[0]
                cells += [name, per_op(peer / n), ratio(peer / ours) if ours else "—"]
            else:
                cells += ["—", "—", "—"]
            if floor:
                cells += [per_op(floor / n), ratio(ours / floor) if ours else "—"]
            else:
                cells += ["—", "—"]
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def targets(found):
    """The ratios issues #16 and #32 ask for, each with its bound; a missing row says so."""

    def per(workload, size, side):
        value = found.get((workload, size, side))
        return value / count(size) if value is not None else None

    def over(a, b):
        return a / b if a is not None and b is not None else None

    def minus(a, b):
        return a - b if a is not None and b is not None else None

    def spread(*values):
        return max(values) / min(values) if all(v is not None for v in values) else None

    checks = [
        ("combine-schedulers / ours per callback, 10k", ">=", 10_000,
         over(per("callbacks", "1e4", "combine-schedulers"), per("callbacks", "1e4", OURS))),
        ("combine-schedulers / ours per async action, 1k", ">=", 1_000,
         over(per("steps", "1e3", "combine-schedulers"), per("steps", "1e3", OURS))),
        ("combine-schedulers / ours per async action, 10k", ">=", 1_000,
         over(per("steps", "1e4", "combine-schedulers"), per("steps", "1e4", OURS))),
        ("swift-clocks / ours per sleeper in a task group, 10k", ">=", 300,
         over(per("sleepers-group", "1e4", "swift-clocks"), per("sleepers-group", "1e4", OURS))),
        ("swift-clocks / ours per unstructured sleeper, 10k", ">=", 300,
         over(per("sleepers-tasks", "1e4", "swift-clocks"), per("sleepers-tasks", "1e4", OURS))),
        ("swift-dependencies / ours per read, no override", ">=", 30,
         over(per("read.root", "1e6", "swift-dependencies"), per("read.root", "1e6", OURS))),
        ("swift-dependencies / ours per read, inside an override", ">=", 30,
         over(per("read.scoped", "1e6", "swift-dependencies"), per("read.scoped", "1e6", OURS))),
        ("ours / heap floor per callback, 10k", "<=", 3,
         over(per("callbacks", "1e4", OURS), per("callbacks", "1e4", FLOOR))),
        ("ours scoped read / plain read (floor, no task-local)", "<=", 5,
         over(per("read.scoped", "1e6", OURS), per("read.root", "1e6", FLOOR))),
        ("awaited advance step / the same step sync, 1k", "<=", 2,
         over(per("callback-steps", "1e3", OURS), per("callback-steps", "1e3", FLOOR))),
        ("awaited advance step / the same step sync, 10k", "<=", 2,
         over(per("callback-steps", "1e4", OURS), per("callback-steps", "1e4", FLOOR))),
        ("sleeper in a task group, 100k / 1k", "<=", 1.3,
         over(per("sleepers-group", "1e5", OURS), per("sleepers-group", "1e3", OURS))),
        ("unstructured sleeper, 100k / 1k", "<=", 1.3,
         over(per("sleepers-tasks", "1e5", OURS), per("sleepers-tasks", "1e3", OURS))),
        # Not targets: how the runtime alone grows from 1k to 100k live tasks (the floor), and
        # how what this library adds to it (ours minus the floor) grows.
        ("the runtime alone (floor): a task-group waiter, 100k / 1k", None, None,
         over(per("sleepers-group", "1e5", FLOOR), per("sleepers-group", "1e3", FLOOR))),
        ("the runtime alone (floor): an unstructured waiter, 100k / 1k", None, None,
         over(per("sleepers-tasks", "1e5", FLOOR), per("sleepers-tasks", "1e3", FLOOR))),
        ("ours minus the floor: a sleeper in a task group, 100k / 1k", None, None,
         over(minus(per("sleepers-group", "1e5", OURS), per("sleepers-group", "1e5", FLOOR)),
              minus(per("sleepers-group", "1e3", OURS), per("sleepers-group", "1e3", FLOOR)))),
        ("ours minus the floor: an unstructured sleeper, 100k / 1k", None, None,
         over(minus(per("sleepers-tasks", "1e5", OURS), per("sleepers-tasks", "1e5", FLOOR)),
              minus(per("sleepers-tasks", "1e3", OURS), per("sleepers-tasks", "1e3", FLOOR)))),
        ("ours / heap floor per callback, 1M", "<=", 3,
         over(per("callbacks", "1e6", OURS), per("callbacks", "1e6", FLOOR))),
        ("@MainActor sleeper step / awaited callback step, 1k", "<=", 3,
         over(per("steps", "1e3", OURS), per("callback-steps", "1e3", OURS))),
        ("@MainActor sleeper step / awaited callback step, 10k", "<=", 3,
         over(per("steps", "1e4", OURS), per("callback-steps", "1e4", OURS))),
        ("@MainActor sleeper step / awaited callback step, 100k", "<=", 3,
         over(per("steps", "1e5", OURS), per("callback-steps", "1e5", OURS))),
        ("ModelTester step / FeatureTester step, 1k", None, None,
         over(per("model-steps", "1e3", OURS), per("feature-steps", "1e3", OURS))),
        ("explored run / plain run of the same test, 100 tasks", None, None,
         over(per("explored-scope", "1e2", OURS), per("plain-scope", "1e2", OURS))),
        ("@MainActor sleeper step, largest / smallest of 1k, 10k, 100k", "<=", 1.2,
         spread(per("steps", "1e3", OURS), per("steps", "1e4", OURS), per("steps", "1e5", OURS))),
    ]
    lines = ["| target (issues #16, #32) | bound | this run | |", "|---|---:|---:|---|"]
    for name, relation, bound, value in checks:
        if bound is None:
            shown = "not run" if value is None else f"{value:,.2f}×"
            lines.append(f"| {name} | (not a target) | {shown} | |")
            continue
        if value is None:
            lines.append(f"| {name} | {relation} {bound:,} | not run | |")
            continue
        met = value >= bound if relation == ">=" else value <= bound
        shown = f"{value:,.0f}×" if value >= 100 else f"{value:,.2f}×"
        lines.append(f"| {name} | {relation} {bound:,}× | {shown} | {'met' if met else 'missed'} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--from", dest="source", help="read a saved influx export instead of running")
    parser.add_argument("--save", help="also write the run's influx export to this file")
    parser.add_argument(
        "--percentile", type=float, default=50.0, choices=[0.0, 25.0, 50.0, 75.0, 90.0, 99.0, 100.0],
        help="which percentile of the iterations' times to compare (default: 50, the median)",
    )
    parser.add_argument("extra", nargs="*", help="arguments for `swift package benchmark` (after --)")
    arguments = parser.parse_args()

    export = pathlib.Path(arguments.source).read_text() if arguments.source else run_suite(arguments.extra)
    if arguments.save:
        pathlib.Path(arguments.save).write_text(export)
    found = medians(export, arguments.percentile)
    if not found:
        sys.exit("no wall-clock results in the export")
    print(table(found))
    print()
    print(targets(found))


if __name__ == "__main__":
    main()
