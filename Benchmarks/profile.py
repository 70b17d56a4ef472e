#!/usr/bin/env python3
"""Instructions per operation of one workload, function by function, under valgrind's callgrind.

    python3 Benchmarks/profile.py callbacks.1e4.effects        # the top 10 functions
    python3 Benchmarks/profile.py read.scoped.1e6.effects --top 20

Builds the `Profile` tool in release and runs the workload under callgrind twice: with 5 runs and
with none (each after one warm-up run). Every count printed is the difference divided by 5 runs
and by the workload's size, so start-up and the warm-up cancel out, and it repeats from run to run
whatever else the machine is doing. Counts are inclusive (a function with all it calls); thread
entry points and the tool's own frames are left out. Needs valgrind (`apt-get install valgrind`).
"""

import argparse
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

BENCHMARKS = pathlib.Path(__file__).resolve().parent
RUNS = 5
# Frames every profile shares: thread entry points, executors' run loops, the tool itself.
GENERIC = re.compile(
    r"clone\.S|start_thread|_dispatch_worker_thread|_dispatch_root_queue|_dispatch_call_block|"
    r"_dispatch_client_callout|_dispatch_continuation_pop|swift_job_run|runJobInEstablishedExecutorContext|"
    r"^partial apply for closure #\d+ in$|^thunk for|Profiler|_dispatch_lane|_dispatch_main_queue|CFRunLoop|"
    r"RunLoop|below main|__libc_start|^main$|^Profile_main$|^0x[0-9a-f]+$|_dispatch_queue_override|"
    r"_dispatch_async_redirect|_dispatch_event_loop|_dispatch_mgr"
)


def build():
    subprocess.run(
        ["swift", "build", "-c", "release", "--package-path", str(BENCHMARKS), "--product", "Profile"],
        check=True, stdout=subprocess.DEVNULL,
    )
    products = pathlib.Path(
        subprocess.run(
            ["swift", "build", "-c", "release", "--package-path", str(BENCHMARKS), "--show-bin-path"],
            check=True, capture_output=True, text=True,
        ).stdout.strip()
    )
    # valgrind 3.19 cannot read the toolchain's DWARF 5: profile a copy without debug information.
    directory = pathlib.Path(tempfile.mkdtemp(prefix="profile-"))
    binary = directory / "Profile"
    shutil.copy(products / "Profile", binary)
    subprocess.run(["strip", "--strip-debug", str(binary)], check=True)
    return binary, products


def callgrind(binary, products, workload, runs):
    """(total instructions, {function: inclusive instructions}) of `runs` runs after a warm-up."""
    output = binary.parent / f"callgrind.{runs}.out"
    environment = dict(os.environ, LD_LIBRARY_PATH=str(products))
    log = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={output}", str(binary), workload, str(runs)],
        capture_output=True, text=True, env=environment,
    ).stderr
    total = re.search(r"I\s+refs:\s+([\d,]+)", log)
    if total is None:
        sys.exit(f"callgrind did not finish:\n{log[-2000:]}")
    annotated = subprocess.run(
        f"callgrind_annotate --inclusive=yes --threshold=100 {output} | swift demangle --simplified",
        shell=True, capture_output=True, text=True, check=True,
    ).stdout
    costs = {}
    for line in annotated.splitlines():
        found = re.match(r"\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(?:\?\?\?|\.?/[^:]*):(.*?)(?: \[[^\]]*\])?$", line)
        if found:
            function = found.group(2).strip()
            costs[function] = max(costs.get(function, 0), int(found.group(1).replace(",", "")))
    return int(total.group(1).replace(",", "")), costs


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("workload", help="a benchmark's name, e.g. callbacks.1e4.effects")
    parser.add_argument("--top", type=int, default=10, help="how many functions to print (10)")
    arguments = parser.parse_args()
    size = re.search(r"\.(\d)e(\d+)\.", arguments.workload)
    if size is None:
        sys.exit("a workload is named workload.1eN.side (or 5eN)")
    size = int(size.group(1)) * 10 ** int(size.group(2))

    binary, products = build()
    total_none, costs_none = callgrind(binary, products, arguments.workload, 0)
    total_runs, costs_runs = callgrind(binary, products, arguments.workload, RUNS)
    shutil.rmtree(binary.parent)

    def per_operation(runs, none):
        return (runs - none) / RUNS / size

    whole = per_operation(total_runs, total_none)
    print(f"{arguments.workload}: {whole:,.0f} instructions per operation")
    rows = sorted(((per_operation(cost, costs_none.get(name, 0)), name) for name, cost in costs_runs.items()),
                  reverse=True)
    shown = 0
    for value, name in rows:
        # A name ending in 'N is callgrind's count for a recursive cycle, not a function's.
        if value <= 0 or GENERIC.search(name) or re.search(r"'\d+$", name):
            continue
        print(f"  {value:>9,.0f}  {100 * value / whole:5.1f}%  {name[:150]}")
        shown += 1
        if shown == arguments.top:
            break


if __name__ == "__main__":
    main()
