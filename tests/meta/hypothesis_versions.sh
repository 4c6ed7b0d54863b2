#!/usr/bin/env bash
# Checks that Hypothesis versions draw the practice profile's examples that tests/answers/ was
# built for: for each version, the shipped answers must be complete and true
# (python -m tests.answer_store verify, with that version first on the path).
#   tests/meta/hypothesis_versions.sh                 every version pyproject.toml allows
#   tests/meta/hypothesis_versions.sh 6.170.0 6.171.0 these versions (to widen the range)
# Run it from an activated virtualenv of the project. Needs pip to reach PyPI.
set -u
cd "$(dirname "$0")/../.."
if [ $# -eq 0 ]; then
  range=$(python - <<'PY'
import re, tomllib
deps = tomllib.load(open("pyproject.toml", "rb"))["project"]["dependencies"]
print(next(d for d in deps if d.startswith("hypothesis")).removeprefix("hypothesis"))
PY
)
  set -- $(python - "$range" <<'PY'
import re, subprocess, sys
from packaging.specifiers import SpecifierSet
out = subprocess.run([sys.executable, "-m", "pip", "index", "versions", "hypothesis"],
                     capture_output=True, text=True).stdout
versions = re.search(r"Available versions: (.*)", out).group(1).split(", ")
print(" ".join(v for v in versions if v in SpecifierSet(sys.argv[1])))
PY
)
  echo "versions allowed by pyproject.toml ($range): $*"
fi
store=$(mktemp -d)
failed=0
for v in "$@"; do
  python -m pip install --quiet --no-deps --target "$store/$v" "hypothesis==$v" >/dev/null 2>&1 \
    || { echo "hypothesis $v: cannot install"; failed=$((failed + 1)); continue; }
  line=$(PYTHONPATH="$store/$v" python -m tests.answer_store verify 2>&1 | tail -n 1)
  echo "hypothesis $v: $line"
  case "$line" in *"missing 0, different 0"*) ;; *) failed=$((failed + 1)) ;; esac
done
rm -rf "$store"
echo "$failed of $# versions differ"
[ "$failed" = 0 ]
