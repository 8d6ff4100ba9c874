#!/usr/bin/env bash
# Runs every fuzz target of the module for a short while (FUZZTIME, 3s by
# default: much shorter, and gathering the seed corpus's coverage can
# outrun it). The seed corpora run with every `go test`; this also explores
# past them, so a decoder change that breaks on new input shows in CI.
# Targets are found by name, so a new Fuzz function is included without
# editing this script.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${FUZZTIME:-3s}"

found=0
while IFS=: read -r file name; do
  pkg="./$(dirname "$file")"
  echo "-- $pkg $name"
  go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" >/tmp/fuzz-$$.log 2>&1 || {
    cat /tmp/fuzz-$$.log; rm -f /tmp/fuzz-$$.log
    echo "fuzz target $name in $pkg failed"; exit 1
  }
  found=$((found + 1))
done < <(git ls-files '*_test.go' | xargs grep -H -o -E '^func Fuzz[A-Za-z0-9_]+' | sed 's/:func /:/' | sort)
rm -f /tmp/fuzz-$$.log
echo "ran $found fuzz targets for $fuzztime each"
