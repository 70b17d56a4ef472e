#!/usr/bin/env bash
# The stored thresholds (Benchmarks/Thresholds/): the p90 of each deterministic metric of this
# library's own benchmarks — allocations, and instructions where the machine counts them. Wall and
# CPU time are never stored, so they never gate.
#
#   bash Benchmarks/thresholds.sh check    # runs every benchmark, fails on a regression (CI runs it
#                                          # with BENCHMARK_SMOKE=1: three iterations each)
#   bash Benchmarks/thresholds.sh update   # stores this run's values: after a change that
#                                          # allocates differently on purpose, commit Thresholds/
#
# Further arguments go to `swift package benchmark` (e.g. `check --filter 'callbacks.*'`).
#
# Stored: every `*.effects` benchmark but `steps.*`, `model-steps.*`, `feature-steps.*`,
# `explored-scope.*` and `plain-scope.*`, whose
# allocations vary from run to run (how often the main queue's thread must be woken decides what
# Dispatch allocates), and `report.*`,
# whose allocations are the symbolicator's. Peers and floors
# are run by `check` but not judged: a regression is ours.
set -euo pipefail
cd "$(dirname "$0")"

metrics=(--metric mallocCountTotal --metric instructions)
operation=${1:-}
shift || true

case "$operation" in
update)
  rm -rf Thresholds
  swift package --allow-writing-to-package-directory benchmark thresholds update "${metrics[@]}" \
    --filter '.*\.effects' --skip 'steps\..*' --skip 'model-steps\..*' --skip 'feature-steps\..*' \
    --skip 'explored-scope\..*' --skip 'plain-scope\..*' \
    --skip 'report\..*' --path Thresholds --no-progress "$@"
  ;;
check)
  # `swift package` exits 1 whichever way the check fails; BenchmarkTool's last line says which.
  log=$(mktemp)
  status=0
  swift package benchmark thresholds check "${metrics[@]}" --path Thresholds --no-progress "$@" 2>&1 | tee "$log" ||
    status=${PIPESTATUS[0]}
  if [ "$status" -ne 0 ] && grep -q "is BETTER than the defined thresholds" "$log" &&
    ! grep -q "is WORSE than the defined thresholds" "$log"; then
    echo "Allocations fell below the stored thresholds: lock the improvement in with" \
      "'bash Benchmarks/thresholds.sh update', and commit Benchmarks/Thresholds/."
    status=0
  fi
  rm -f "$log"
  exit "$status"
  ;;
*)
  echo "usage: bash Benchmarks/thresholds.sh check|update" >&2
  exit 64
  ;;
esac
