#!/usr/bin/env bash
# Runs every fuzz target of the module for a short while (FUZZTIME, 3s by
# default: much shorter, and gathering the seed corpus's coverage can
# outrun it). The seed corpora run with every `go test`; this also explores
# past them, so a decoder change that breaks on new input shows in CI.
# Targets are found by name, so a new Fuzz function is included without
# editing this script.
#
# A target that checks laws on every input (FuzzFold, FuzzIndex, ...) runs a
# few executions a second and never leaves its seeds in a few seconds; its
# light twin, named the same with "Light" after it in the same package
# (decode and fold, small inputs, no laws), is fuzzed instead, and the
# heavy one is left to be run by hand (its doc comment says how).
#
# The fuzzer minimises each input that finds new code, by default for up to
# a minute: time a short run would spend on one input. FUZZMINIMIZETIME
# (50x by default: fifty executions) bounds it; a failing input is written
# whole or nearly so, and minimising it further is one run away by hand.
#
# Go 1.26's fuzzing coordinator can report a bare "context deadline
# exceeded" when -fuzztime ends while a worker is busy (golang/go#75804,
# fixed in Go 1.27): nothing was found and no failing input is written.
# Such a run is tried once more; a real finding always writes its input
# under testdata/fuzz/ and prints "Failing input written", and fails.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${FUZZTIME:-3s}"
minimizetime="${FUZZMINIMIZETIME:-50x}"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# only_deadline reports whether the failed run in $log is the
# coordinator's shutdown race and nothing else.
only_deadline() {
  grep -q 'context deadline exceeded' "$log" &&
    ! grep -q -e 'Failing input written' -e 'panic:' -e '_test.go:[0-9]' "$log"
}

# Every target as its package's folder and its name: "fold:FuzzFold".
targets=$(git ls-files '*_test.go' | xargs grep -H -o -E '^func Fuzz[A-Za-z0-9_]+' |
  awk -F: '{ dir = $1; if (!sub(/\/[^\/]*$/, "", dir)) dir = "."; sub(/^func /, "", $2); print dir ":" $2 }' | sort -u)

found=0
while IFS=: read -r dir name; do
  pkg="./$dir"
  if grep -qx "$dir:${name}Light" <<<"$targets"; then
    echo "-- $pkg $name: fuzzed through ${name}Light"
    continue
  fi
  echo "-- $pkg $name"
  for try in 1 2; do
    if go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" -fuzzminimizetime "$minimizetime" >"$log" 2>&1; then
      break
    fi
    if only_deadline && [ "$try" = 1 ]; then
      echo "   (the fuzzing coordinator's shutdown race, golang/go#75804: nothing found; once more)"
      continue
    fi
    if only_deadline; then
      echo "   (the shutdown race again: nothing found in either run)"
      break
    fi
    cat "$log"
    echo "fuzz target $name in $pkg failed"
    exit 1
  done
  found=$((found + 1))
done <<<"$targets"
echo "ran $found fuzz targets for $fuzztime each"
