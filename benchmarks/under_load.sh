#!/usr/bin/env bash
# Runs the README's test command with N busy processes beside it, as on a shared laptop, and
# prints each run's exit code, wall time, load average and pytest's summary line.
#   benchmarks/under_load.sh N [RUNS]      e.g. benchmarks/under_load.sh 4 3
# N spinning processes on a 2-core machine oversubscribe it (N + the suite's own workers).
# The command is read from README.md (the block after <!-- test-command -->), so this runs
# exactly what a user runs. Exit status: 0 when every run passed.
set -u
cd "$(dirname "$0")/.."
n=${1:?usage: benchmarks/under_load.sh N [RUNS]}
runs=${2:-1}
command=$(python3 - <<'EOF'
import re
readme = open("README.md", encoding="utf-8").read()
print(re.search(r"<!-- test-command -->\s*```sh\n(.+?)\n```", readme).group(1))
EOF
)
busy=()
stop_busy() { [ ${#busy[@]} -gt 0 ] && kill "${busy[@]}" 2>/dev/null; wait 2>/dev/null; busy=(); }
trap stop_busy EXIT INT TERM
log=$(mktemp -d)
failed=0
echo "command: $command"
echo "busy processes: $n on $(nproc) cores; logs in $log"
for i in $(seq "$runs"); do
  for _ in $(seq "$n"); do
    python3 -c "while True: pass" &
    busy+=($!)
  done
  sleep 1  # let the spinners take the cores before the suite starts
  start=$(date +%s.%N)
  bash -c "$command" >"$log/run$i.txt" 2>&1
  code=$?
  end=$(date +%s.%N)
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  stop_busy
  summary=$(grep -E "(passed|failed|error)" "$log/run$i.txt" | tail -n 1)
  printf 'run %d/%d: exit %d, %.0f s wall, load average %s: %s\n' \
    "$i" "$runs" "$code" "$(echo "$end - $start" | bc)" "$load" "$summary"
  if [ "$code" != 0 ]; then
    failed=$((failed + 1))
    grep -E "^FAILED|^ERROR" "$log/run$i.txt" | sed 's/^/    /'
  fi
done
echo "$failed of $runs runs failed"
[ "$failed" = 0 ]
