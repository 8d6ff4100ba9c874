#!/usr/bin/env bash
# Drives agentwatch's OpenTelemetry side in tmux, as a user would: the
# receiver (agentwatch otlp) on the screen while a script sends a Claude
# Code run through it with the OpenTelemetry Go SDK, stage by stage (the
# prompt and a running command show before the command's result is sent);
# the run it recorded, in the Collector's file-exporter format, opened on
# the screen and replayed; the Collector file of testdata/otlp opened on
# the screen (its thread list). Fails on any panic output.
# Run from anywhere: scripts/smoke-otlp.sh
set -euo pipefail
cd "$(dirname "$0")/.."

command -v tmux >/dev/null || { echo "smoke-otlp: tmux is not installed" >&2; exit 2; }
work=$(mktemp -d)
bin=$work/agentwatch
go build -o "$bin" .
go build -o "$work/otlpsend" ./internal/testkit/otlpsend
session="aw-otlp-smoke-$$"
sender=""
cleanup() {
	tmux kill-session -t "$session" 2>/dev/null || true
	if [ -n "$sender" ]; then kill "$sender" 2>/dev/null || true; fi
}
trap cleanup EXIT

name=smoke-otlp
. scripts/smoke-lib.sh
quit() { # q must end the program, which ends the session
	tmux send-keys -t "$session" q
	ended_within 5 || fail "q did not quit"
}
run() { # run SIZE ARGS...: start the binary in a fresh session; stderr is kept
	local size=$1
	shift
	tmux new-session -d -s "$session" -x "${size%x*}" -y "${size#*x}" "$bin $* 2>>$work/stderr"
}

# The receiver, live, on a port the kernel picks: its title says which.
run 160x48 otlp --listen 127.0.0.1:0 --grpc-listen "''" --record "$work/telemetry.jsonl"
expect "receiving OTLP/HTTP http://127.0.0.1:"
port=$(screen | grep -oE 'http://127\.0\.0\.1:[0-9]+' | head -1 | cut -d: -f3)
"$work/otlpsend" -addr "127.0.0.1:$port" -pause 3s &
sender=$!
# Stage 1: the prompt and the accepted command, running, its result not sent yet.
expect "run the smoke tests"
expect "Running command"
lacks "Ran command"
# Stage 2: the result finishes the step; stage 3: a refused Edit.
expect "Ran command" 8
expect "Edit cancelled" 8
wait "$sender"
sender=""
quit
test -s "$work/telemetry.jsonl" || { echo "smoke-otlp: nothing recorded" >&2; exit 1; }

# The recording is a Collector file-exporter file: it opens on the screen
# and replays at its recorded pace.
run 160x48 "$work/telemetry.jsonl"
expect "run the smoke tests"
expect "Edit cancelled"
quit
"$bin" replay --plain --speed 16 "$work/telemetry.jsonl" >"$work/replay.out"
grep -qF "step 2 edit cancelled · Edit cancelled" "$work/replay.out" ||
	{ echo "smoke-otlp: the replay did not play the run" >&2; cat "$work/replay.out" >&2; exit 1; }

# A Collector file of two services: the thread list, at 80×24 too.
for size in 160x48 80x24; do
	run "$size" testdata/otlp/fleet.jsonl
	expect "why does the build fail?"
	expect "Where is my order 4411?"
	quit
done

if grep -q "panic" "$work/stderr" 2>/dev/null; then
	echo "smoke-otlp: panic output:" >&2
	cat "$work/stderr" >&2
	exit 1
fi
echo "smoke-otlp: ok"
