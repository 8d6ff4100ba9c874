#!/usr/bin/env bash
# Drives the real agentwatch binary in tmux, as a user would, and checks what
# the screen shows: review of a saved log, stepping, layout switch, the
# demo replayed at 8× (pause, seek with 5, event steps), live following and
# back to live on a tailed file, help, quitting, at 160×48 and 80×24; an
# ACP agent driven live (prompt, permission dialog); fails on any panic
# output. Run from anywhere: scripts/smoke-tui.sh
set -euo pipefail
cd "$(dirname "$0")/.."

command -v tmux >/dev/null || { echo "smoke: tmux is not installed" >&2; exit 2; }
work=$(mktemp -d)
bin=$work/agentwatch
go build -o "$bin" .
session="aw-smoke-$$"
trap 'tmux kill-session -t "$session" 2>/dev/null || true' EXIT

screen() { tmux capture-pane -p -t "$session"; }
expect() { # expect TEXT [SECONDS]: wait until the screen shows TEXT
	local deadline=$((SECONDS + ${2:-10}))
	until screen | grep -qF -- "$1"; do
		if ((SECONDS >= deadline)); then
			echo "smoke: screen never showed: $1" >&2
			screen >&2
			exit 1
		fi
		sleep 0.2
	done
}

quit() { # q must end the program, which ends the session
	tmux send-keys -t "$session" q
	for _ in $(seq 50); do
		tmux has-session -t "$session" 2>/dev/null || return 0
		sleep 0.1
	done
	echo "smoke: q did not quit" >&2
	exit 1
}

run() { # run SIZE ARGS...: start the binary in a fresh session; stderr is kept
	local size=$1
	shift
	tmux new-session -d -s "$session" -x "${size%x*}" -y "${size#*x}" "$bin $* 2>>$work/stderr"
}

for size in 160x48 80x24; do
	# Review a saved log: everything folded, the last step selected.
	run "$size" assets/demo.jsonl
	expect "step 30 of 30"
	tmux send-keys -t "$session" Left
	expect "step 29 of 30"
	tmux send-keys -t "$session" Home
	expect "step 1 of 30"
	tmux send-keys -t "$session" End
	expect "step 30 of 30"
	tmux send-keys -t "$session" v
	sleep 0.3
	quit

	# The demo plays as a replay: at 8× it moves on by itself; space pauses,
	# 5 seeks to half way (the same step every time), . and , step one event.
	run "$size" replay --speed 8
	expect "8×" 10
	expect "step 2 of" 30
	tmux send-keys -t "$session" space
	expect "❚❚ 8×"
	tmux send-keys -t "$session" 5
	expect "step 19 of 19"
	expect "413/840"
	tmux send-keys -t "$session" .
	expect "414/840"
	tmux send-keys -t "$session" ,
	expect "413/840"
	tmux send-keys -t "$session" "?"
	expect "Help"
	expect "pause / resume"
	tmux send-keys -t "$session" Escape
	sleep 0.3
	quit
done

# tail: events appended to a growing log reach the screen at once: the
# first step's label shows within a second of being written, with LIVE.
log=$work/growing.jsonl
: >"$log"
run 160x48 tail "$log"
expect "waiting for the agent" 10
head -n 52 assets/demo.jsonl >>"$log" # up to the first tool call (ls -la)
expect "ls -la" 1
expect "LIVE" 2
tail -n +53 assets/demo.jsonl | while IFS= read -r line; do printf '%s\n' "$line" >>"$log"; done
expect "step 30 of 30" 10
# An older step stops following; L goes back to live.
tmux send-keys -t "$session" Left
expect "Back to live"
tmux send-keys -t "$session" L
expect "LIVE"
quit

# acp: a live ACP agent (the fixture agent): type a prompt, steps appear,
# the permission dialog is answered, the turn ends, q quits.
go build -o "$work/fixture-agent" ./internal/acptest/cmd/fixture-agent
mkdir -p "$work/project"
run 160x48 acp --cwd "$work/project" --stderr-log "$work/agent.log" --record "$work/acp.jsonl" -- "$work/fixture-agent"
expect "ask the agent" 10
tmux send-keys -t "$session" "all" Enter
expect "Ran command" 10
expect "Permission" 10
expect "[1/y] Allow once"
tmux send-keys -t "$session" y
expect "turn ended: end_turn" 10
expect "Edited"
tmux send-keys -t "$session" Escape # leave the prompt line
sleep 0.5 # an esc followed at once by q reads as alt+q
quit
grep -q '"dir":"recv"' "$work/acp.jsonl" || { echo "smoke: the ACP recording is empty" >&2; exit 1; }

if grep -q -e "panic" -e "goroutine " "$work/stderr"; then
	echo "smoke: the program panicked:" >&2
	cat "$work/stderr" >&2
	exit 1
fi
echo "smoke: ok"
