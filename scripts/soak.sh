#!/usr/bin/env bash
# The soak test (serve/soak_test.go): agentwatch serve with 20
# viewers on a log growing by 1,000 events a second for a minute, and a
# viewer that never reads, while the OTLP receiver takes 1,000 requests
# from four exporters, all in one process on loopback. It checks that no
# reading viewer is dropped and each ends on the log's last step, that the
# stalled viewer is dropped, that every event and span arrived, and that
# memory is flat after the first 10 s; the heap samples are printed.
# About a minute and a half. AGENTWATCH_SOAK_PROFILES=DIR also writes a
# heap profile at each sample, to see what grew (go tool pprof -diff_base).
# Run from anywhere: scripts/soak.sh
set -euo pipefail
cd "$(dirname "$0")/.."
AGENTWATCH_SOAK=1 go test -count=1 -run TestSoak -timeout 6m -v ./serve/
