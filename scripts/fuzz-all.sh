#!/usr/bin/env bash
# Runs every fuzz target of the module for a short while (FUZZTIME, 3s by
# default: much shorter, and gathering the seed corpus's coverage can
# outrun it). The seed corpora run with every `go test`; this also explores
# past them, so a decoder change that breaks on new input shows in CI.
# Targets are found by name, so a new Fuzz function is included without
# editing this script.
#
# Go 1.26's fuzzing coordinator can report a bare "context deadline
# exceeded" when -fuzztime ends while a worker is busy (golang/go#75804,
# fixed in Go 1.27): nothing was found and no failing input is written.
# Such a run is tried once more; a real finding always writes its input
# under testdata/fuzz/ and prints "Failing input written", and fails.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${FUZZTIME:-3s}"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# only_deadline reports whether the failed run in $log is the
# coordinator's shutdown race and nothing else.
only_deadline() {
  grep -q 'context deadline exceeded' "$log" &&
    ! grep -q -e 'Failing input written' -e 'panic:' -e '_test.go:[0-9]' "$log"
}

found=0
while IFS=: read -r file name; do
  pkg="./$(dirname "$file")"
  echo "-- $pkg $name"
  for try in 1 2; do
    if go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" >"$log" 2>&1; then
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
done < <(git ls-files '*_test.go' | xargs grep -H -o -E '^func Fuzz[A-Za-z0-9_]+' | sed 's/:func /:/' | sort)
echo "ran $found fuzz targets for $fuzztime each"
