#!/usr/bin/env bash
# Save -> verdict with the warm judge, against the same verdict from fresh interpreters
# (DOJO_WARM=0) and against plain pytest, as whole processes (farm-bench: medians, min, max;
# each paired with a baseline that imports NumPy, pytest and Hypothesis and exits).
#
#   benchmarks/warm_judge.sh [RUNS] [KATA ...]      # default: 10 runs; softmax masked_attention flash_attention
#
# Works in a scratch clone of this checkout (its katas/ hold the reference answers, then a
# known-wrong file for the first kata); needs farm-bench on PATH and the checkout's .venv.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-10}"; shift || true
katas=("${@:-softmax masked_attention flash_attention}")
read -r -a katas <<< "${katas[*]}"
py="$here/.venv/bin/python"
scratch="$(mktemp -d /tmp/dojo-bench-XXXXXX)"
trap '(cd "$scratch/repo" && "$py" -m dojo clean >/dev/null 2>&1) || true; rm -rf "$scratch"' EXIT
git clone -q "$here" "$scratch/repo"
cd "$scratch/repo"
export DOJO_STATE_DIR="$scratch/state" NO_COLOR=1
baseline="$py -c 'import numpy, pytest, hypothesis'"
for kata in "${katas[@]}"; do
  cp "solutions/$kata.py" "katas/$kata.py"
  echo "== $kata, reference answer: dojo test (warm judge)"
  farm-bench -n "$runs" --warmup 2 --timeout 900 --vs "$baseline" -- "$py" -m dojo test "$kata"
  echo "== $kata, reference answer: dojo test with DOJO_WARM=0 (fresh interpreters)"
  DOJO_WARM=0 farm-bench -n "$runs" --warmup 1 --timeout 900 --vs "$baseline" -- "$py" -m dojo test "$kata"
  echo "== $kata, reference answer: plain pytest tests/test_$kata.py --impl solutions"
  farm-bench -n "$runs" --warmup 1 --timeout 900 --vs "$baseline" -- "$py" -m pytest -q -p no:cacheprovider "tests/test_$kata.py" --impl solutions
done
first="${katas[0]}"
wrong="$(ls "tests/meta/wrong/$first/"*.py | head -1)"
cp "$wrong" "katas/$first.py"
echo "== $first, a wrong answer ($(basename "$wrong")): dojo test (warm judge; its failure is retried first from the second run on)"
farm-bench -n "$runs" --warmup 2 --timeout 900 --vs "$baseline" -- "$py" -m dojo test "$first"
