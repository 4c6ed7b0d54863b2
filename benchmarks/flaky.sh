#!/usr/bin/env bash
# Runs the tool's tests that read a live terminal or a child's output many times in a row and
# prints every failure: 0 failures is the bar. Usage: benchmarks/flaky.sh [RUNS] [pytest -k expr]
#   benchmarks/flaky.sh 20
set -u
cd "$(dirname "$0")/.."
runs=${1:-20}
files="tests/tool/test_practice.py tests/tool/test_interview.py tests/tool/test_loop.py"
expr=${2:-}
failed=0
log=$(mktemp -d)/flaky
for i in $(seq "$runs"); do
  start=$(date +%s)
  if [ -n "$expr" ]; then
    python -m pytest --impl solutions $files -q -p no:cacheprovider -k "$expr" >"$log.$i" 2>&1
  else
    python -m pytest --impl solutions $files -q -p no:cacheprovider >"$log.$i" 2>&1
  fi
  code=$?
  summary=$(tail -n 1 "$log.$i")
  echo "run $i/$runs: exit $code, $summary ($(( $(date +%s) - start )) s)"
  if [ "$code" != 0 ]; then
    failed=$((failed + 1))
    grep -E "^FAILED|^ERROR" "$log.$i" | sed 's/^/    /'
  fi
done
echo "$failed of $runs runs failed  (logs: $log.*)"
[ "$failed" = 0 ]
