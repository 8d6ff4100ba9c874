#!/usr/bin/env bash
# Drives the real agentwatch binary in tmux, as a user would, and checks what
# the screen shows: review of a saved log, stepping, layout switch, the
# demo replayed at 8× (pause, seek with 5, event steps), live following and
# back to live on a tailed file, help, quitting, at 160×48 and 80×24; a log
# of three threads (the list, a thread, its run tree with a branch, back,
# the next thread) and a folder that gets a new log while watched; an
# ACP agent driven live (prompt, permission dialog); a 50 MB message and
# 100,000 tool calls that q quits within a second; a long log scrolled back
# to its start, read back from the file, and opened again where it was
# left; random keys and mouse in every mode (the monkey, with a printed
# seed); Claude Code's sessions followed while a subagent works; fails on
# any panic or crash page.
# Run from anywhere: scripts/smoke-tui.sh (SMOKE_SEED=N repeats a monkey)
set -euo pipefail
cd "$(dirname "$0")/.."

command -v tmux >/dev/null || { echo "smoke: tmux is not installed" >&2; exit 2; }
work=$(mktemp -d)
# Where a screen of a big log keeps where it left off: the script's own.
export XDG_CACHE_HOME=$work/cache
bin=$work/agentwatch
go build -o "$bin" .
session="aw-smoke-$$"
trap 'tmux kill-session -t "$session" 2>/dev/null || true' EXIT

name=smoke
. scripts/smoke-lib.sh

press_until() { # press_until KEY TEXT [TIMES]: press KEY until the screen shows TEXT
	for _ in $(seq "${3:-40}"); do
		screen | grep -qF -- "$2" && return 0
		tmux send-keys -t "$session" "$1"
		sleep 0.1
	done
	expect "$2" 2
}

quit() { # q must end the program, which ends the session
	tmux send-keys -t "$session" q
	ended_within 5 || fail "q did not quit"
}

quit_within() { # quit_within SECONDS: q must end the program that soon
	tmux send-keys -t "$session" q
	ended_within "$1" || fail "q did not quit within $1 s"
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
	expect_re "step ([2-9]|[1-9][0-9]) of" 30 # it moved on (how far, a loaded machine decides)
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
	expect "Keys · replay"
	expect "pause / play"
	tmux send-keys -t "$session" Escape
	sleep 0.3
	quit
done

# Navigation: the selection and the transcript move together (← marks the
# step's row in view; the cursor, moved with j, selects the step under it);
# Tab then ↓ scrolls the computer to the last line of a 200-line output; /
# finds a word of a tool output and n goes to the next match; the failed
# filter keeps the failed steps only; e jumps to a failed step.
long=$work/long-output.jsonl
out=$(for i in $(seq 200); do printf 'out %d\\n' "$i"; done)
{
	printf '{"type":"RUN_STARTED","threadId":"t","runId":"r"}\n'
	for c in "ls" "pwd" "make all" "echo done"; do
		res=ok
		[[ $c == "make all" ]] && res=$out
		printf '{"type":"TOOL_CALL_START","toolCallId":"%s","toolCallName":"bash","metadata":{"category":"execute","location":"%s"}}\n' "$c" "$c"
		printf '{"type":"TOOL_CALL_END","toolCallId":"%s"}\n' "$c"
		printf '{"type":"TOOL_CALL_RESULT","messageId":"m-%s","toolCallId":"%s","content":"%s"}\n' "$c" "$c" "$res"
	done
	printf '{"type":"RUN_FINISHED","threadId":"t","runId":"r"}\n'
} >"$long"
for size in 160x48 80x24; do
	run "$size" assets/demo.jsonl
	expect "step 30 of 30"
	tmux send-keys -t "$session" Left
	expect "step 29 of 30"
	expect "▶ ✓ ❯ Ran command · gotestsum"
	tmux send-keys -t "$session" -N 5 Left
	expect "step 24 of 30"
	expect "▶ ✓ • Used screenshot"
	tmux send-keys -t "$session" g
	press_until j "▶ ✓ ▤ Read · Makefile"
	expect "step 2 of 30"
	press_until j "step 3 of 30"
	tmux send-keys -t "$session" /
	tmux send-keys -t "$session" -l "ParseLength"
	tmux send-keys -t "$session" Enter
	expect "match 1 of"
	tmux send-keys -t "$session" n
	expect "match 2 of"
	tmux send-keys -t "$session" Escape
	sleep 0.5 # an esc followed at once by a key reads as alt+key
	tmux send-keys -t "$session" f
	tmux send-keys -t "$session" -l "failed"
	tmux send-keys -t "$session" Enter
	expect "filter failed · 2 of 30 steps"
	expect "step 1 of 2 · failed"
	tmux send-keys -t "$session" Right
	expect "step 2 of 2 · failed"
	tmux send-keys -t "$session" Escape
	sleep 0.5
	tmux send-keys -t "$session" Home e
	expect "step 3 of 30"
	expect "Command failed (exit 1)"
	quit

	run "$size" "$long"
	expect "step 4 of 4"
	tmux send-keys -t "$session" Left
	expect "make all"
	tmux send-keys -t "$session" Tab
	tmux send-keys -t "$session" -N 250 Down
	expect "out 200"
	expect "of 201"
	quit
done

# Hostile inputs: a 50 MB message and a log of 100,000 tool calls. The
# screen comes up while they are read, shows the end of the message once it
# is read, and q quits within a second at any time.
go run ./internal/testkit/hostile/cmd/hostile -kind message -n 50000000 >"$work/message.jsonl"
go run ./internal/testkit/hostile/cmd/hostile -kind tool-calls -n 100000 >"$work/calls.jsonl"
run 160x48 "$work/message.jsonl"
expect "transcript" 5
quit_within 1
run 160x48 "$work/message.jsonl"
expect "para" 60
tmux send-keys -t "$session" v
sleep 0.2
tmux resize-window -t "$session" -x 100 -y 30
expect "para" 5
quit_within 1
run 160x48 "$work/calls.jsonl"
expect "transcript" 5
sleep 0.5
quit_within 1
run 80x24 "$work/calls.jsonl"
expect "of 100000" 60
quit_within 1

# A long log sheds its oldest items as it is read; scrolling up to the gap
# row they leave reads them back from the file until its start is on
# screen again, and Home shows the first step's content.
go run ./internal/testkit/loggen/cmd/loggen -n 100000 -seed 6 >"$work/long.jsonl"
run 160x48 "$work/long.jsonl"
expect "of 2634" 30
tmux send-keys -t "$session" g
expect "earlier items not kept ·" 5
press_until g "Passes decoder" 20
tmux send-keys -t "$session" Home
expect "step 1 of" 10
expect "func tailW" 20
quit
# Opened again, the log takes up where that screen left off: its end shows
# without reading the log again, and Home still reads the start back.
run 160x48 "$work/long.jsonl"
expect "taken up at" 10
expect "of 2634" 10
tmux send-keys -t "$session" Home
expect "func tailW" 20
quit

# tail: events appended to a growing log reach the screen as they arrive:
# the first step's label shows, with LIVE, before anything more is written.
# (How soon is the benchmarks' to measure; a loaded machine decides it here.)
log=$work/growing.jsonl
: >"$log"
run 160x48 tail "$log"
expect "waiting for the agent" 10
head -n 52 assets/demo.jsonl >>"$log" # up to the first tool call (ls -la)
expect "ls -la" 5
expect "LIVE" 2
tail -n +53 assets/demo.jsonl | while IFS= read -r line; do printf '%s\n' "$line" >>"$log"; done
expect "step 30 of 30" 10
# An older step stops following; L goes back to following the newest. The
# demo's runs have all finished, so the panel says it is watching for more.
tmux send-keys -t "$session" Left
expect "Back to live"
tmux send-keys -t "$session" L
expect "◌ watching"
quit

# threads: a log of three threads opens on the thread list, newest activity
# first; Enter opens a thread, t shows its run tree with a branch drawn as a
# branch, esc goes back, } steps to the next thread without going back.
threads=$work/threads.jsonl
ts=1760000000000
ev() { # ev THREAD OFFSET_S JSON-BODY: one event line
	printf '{%s,"timestamp":%d}\n' "$3" $((ts + $2 * 1000)) >>"$threads"
}
run3() { # run3 THREAD RUN PARENT OFFSET PROMPT TOOL: one run with a user message and a tool call
	local parent=""
	[[ -n $3 ]] && parent=",\"parentRunId\":\"$3\""
	ev "$1" "$4" "\"type\":\"RUN_STARTED\",\"threadId\":\"$1\",\"runId\":\"$2\"$parent"
	ev "$1" "$4" "\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"$2-u\",\"role\":\"user\""
	ev "$1" "$4" "\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"$2-u\",\"delta\":\"$5\""
	ev "$1" "$4" "\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"$2-u\""
	ev "$1" $(($4 + 1)) "\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"$2-c\",\"toolCallName\":\"bash\",\"metadata\":{\"category\":\"execute\",\"location\":\"$6\"}"
	ev "$1" $(($4 + 2)) "\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"$2-c\""
	ev "$1" $(($4 + 3)) "\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"$2-r\",\"toolCallId\":\"$2-c\",\"content\":\"ok\""
	ev "$1" $(($4 + 4)) "\"type\":\"RUN_FINISHED\",\"threadId\":\"$1\",\"runId\":\"$2\""
}
run3 beta b1 "" 0 "write the docs" "make docs"
run3 alpha a1 "" 10 "fix the failing test" "go test ./..."
run3 gamma g1 "" 20 "tidy the imports" "goimports -w ."
run3 alpha a2 a1 30 "and the other one" "go test ./fold/"
run3 alpha a3 a1 40 "no, try again" "go test -run X ./fold/"
for size in 160x48 80x24; do
	run "$size" "$threads"
	expect "threads · 3"
	expect "fix the failing test"
	expect "write the docs"
	tmux send-keys -t "$session" Enter # the newest: alpha
	expect "thread alpha"
	expect "step 3 of 3"
	tmux send-keys -t "$session" t
	expect "↳ a1" # a3 branches off a1 (a2 ran in between)
	tmux send-keys -t "$session" Escape
	expect "threads · 3"
	tmux send-keys -t "$session" Down Enter # gamma
	expect "thread gamma"
	expect "goimports"
	tmux send-keys -t "$session" "}" # the next thread in the list: beta
	expect "thread beta"
	expect "make docs"
	quit
done

# A thread that appears later never takes the screen: tail a log of one
# thread, then append a second thread's run; the screen stays on the first
# thread, marks the new one and says "2 threads".
grow=$work/grow.jsonl
head -n 8 "$threads" >"$grow" # beta's run
run 160x48 tail --layout sheet "$grow"
expect "make docs" 10
sleep 1.5 # the source is open now: what comes next is news, not the first read
sed -n 17,24p "$threads" >>"$grow" # gamma's run
expect "2 threads · { }" 10
expect "◆ 1 new"
lacks "threads · 2 ·"
screen | grep -qF "make docs" || fail "the screen left the first thread"
quit

# A folder of per-thread logs: each file's threads in the list; a file
# created while watching joins within a second or two.
mkdir -p "$work/runs"
go run ./internal/testkit/loggen/cmd/loggen -n 600 -threads 2 -seed 3 -dir "$work/runs"
run 160x48 "$work/runs"
expect "threads · 2" 10
go run ./internal/testkit/loggen/cmd/loggen -n 300 -threads 1 -seed 4 >"$work/runs/new-thread.jsonl"
expect "threads · 3" 3
tmux send-keys -t "$session" Enter
expect "esc threads"
quit

# acp: a live ACP agent (the fixture agent): type a prompt, steps appear,
# the permission dialog is answered, the turn ends, q quits.
go build -o "$work/fixture-agent" ./internal/testkit/acptest/cmd/fixture-agent
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

# Claude Code's own sessions: agentwatch claude --all on a configuration
# folder while a generator appends to one session's running subagent: the
# list shows both projects, the growing session is working, its subagent's
# new steps appear as they are written, under the Task step that started
# it; the subagent's Edit shows its diff.
claude_home=$work/claude
mkdir -p "$claude_home"
cp -r testdata/claude/projects "$claude_home/"
api="$claude_home/projects/-home-dev-api/c41e5d7a-2f0b-4e8a-b6d3-91a7c0f4e2b8"
claude_gen() { # appends the running subagent's steps and the session's progress lines
	local e='"userType":"external","cwd":"/home/dev/api","sessionId":"c41e5d7a-2f0b-4e8a-b6d3-91a7c0f4e2b8","version":"2.1.90"'
	for i in 1 2 3 4 5 6 7 8; do
		sleep 1
		printf '%s\n' "{\"parentUuid\":\"g2\",\"isSidechain\":true,$e,\"agentId\":\"e7f8a9\",\"type\":\"assistant\",\"uuid\":\"gen-a$i\",\"timestamp\":\"2026-11-30T09:03:0$i.000Z\",\"message\":{\"id\":\"msg_gen$i\",\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"toolu_gen$i\",\"name\":\"Bash\",\"input\":{\"command\":\"go test -run TestOrders$i ./api\"}}],\"stop_reason\":\"tool_use\"}}" >>"$api/subagents/agent-e7f8a9.jsonl"
		printf '%s\n' "{\"parentUuid\":\"a7\",\"isSidechain\":false,\"type\":\"progress\",\"data\":{\"type\":\"agent_progress\"},\"uuid\":\"gp$i\",\"timestamp\":\"2026-11-30T09:03:0$i.600Z\",\"sessionId\":\"c41e5d7a-2f0b-4e8a-b6d3-91a7c0f4e2b8\"}" >>"$api.jsonl"
	done
}
for size in 160x48 80x24; do
	tmux new-session -d -s "$session" -x "${size%x*}" -y "${size#*x}" \
		"env HOME=$work/nohome CLAUDE_CONFIG_DIR=$claude_home $bin claude --all 2>>$work/stderr"
	expect "threads · 2" 10
	expect "/home/dev/api"
	expect "/home/dev/app"
	claude_gen &
	expect "working" 10
	# Both sessions may read working (just copied): the list's filter finds this one.
	tmux send-keys -t "$session" / c41e5d7a Enter Enter
	expect "Subagent working · Check the orders handler" 10
	expect "go test -run TestOrders3" 10
	[ "$size" = 160x48 ] && expect "  ◐ ❯ Running command · go test -run TestOrders3"
	wait
	tmux send-keys -t "$session" Home
	expect "step 1 of"
	tmux send-keys -t "$session" Right Right Right Right # step 5: the subagent's Edit
	expect "step 5 of"
	expect "pool.Health()"
	quit
	cp testdata/claude/projects/-home-dev-api/c41e5d7a-2f0b-4e8a-b6d3-91a7c0f4e2b8/subagents/agent-e7f8a9.jsonl "$api/subagents/"
	cp testdata/claude/projects/-home-dev-api/c41e5d7a-2f0b-4e8a-b6d3-91a7c0f4e2b8.jsonl "$api.jsonl"
done

# The monkey: random keys, clicks, releases, drags, wheels, pastes and
# resizes in every mode (review, replay, tail, the thread list, a folder,
# a live agent). None may end the program or show the crash page. The seed
# is printed; SMOKE_SEED=N reruns the same inputs.
seed=${SMOKE_SEED:-$((RANDOM * 32768 + RANDOM))}
echo "smoke: monkey seed $seed"
monkey() { # monkey N: N random inputs to the program in the session
	local keys=(Left Right Up Down Home End PPage NPage Tab BTab Enter Escape BSpace Space C-u C-d)
	local text='abcdefghijklmnoprstuvwxyzAEGLNY0123456789/?{}[].,+-_=!'
	local i x y w=160 h=48 seq
	for ((i = 0; i < $1; i++)); do
		x=$((RANDOM % (w + 2))) y=$((RANDOM % (h + 2)))
		case $((RANDOM % 12)) in
		0 | 1 | 2) tmux send-keys -t "$session" "${keys[RANDOM % ${#keys[@]}]}" ;;
		3 | 4 | 5) tmux send-keys -t "$session" -l "${text:RANDOM%${#text}:1}" ;;
		6) tmux send-keys -t "$session" -l $'\e'"[<$((RANDOM % 3));$x;${y}M" ;;
		7) tmux send-keys -t "$session" -l $'\e'"[<$((RANDOM % 3));$x;${y}m" ;;
		8) # a drag along a row
			seq=$'\e'"[<0;$x;${y}M"$'\e'"[<32;$((x + 3));${y}M"$'\e'"[<32;$((x + 9));${y}M"$'\e'"[<0;$((x + 9));${y}m"
			tmux send-keys -t "$session" -l "$seq" ;;
		9) tmux send-keys -t "$session" -l $'\e'"[<$((64 + RANDOM % 2));$x;${y}M" ;;
		10) tmux send-keys -t "$session" -l $'\e[200~pasted text\n'"$RANDOM"$'\e[201~' ;;
		11)
			w=$((10 + RANDOM % 200)) h=$((3 + RANDOM % 60))
			tmux resize-window -t "$session" -x "$w" -y "$h" ;;
		esac
		if ((i % 40 == 0)); then
			sleep 0.05
			tmux has-session -t "$session" 2>/dev/null || fail "monkey seed $seed: input $i ended the program"
			screen | grep -qF "something went wrong" && fail "monkey seed $seed: the screen crashed by input $i"
		fi
	done
	sleep 0.3
	tmux has-session -t "$session" 2>/dev/null || fail "monkey seed $seed: the inputs ended the program"
	screen | grep -qF "something went wrong" && fail "monkey seed $seed: the screen crashed"
	tmux send-keys -t "$session" C-c
	ended_within 5 || fail "monkey seed $seed: ctrl+c did not quit"
}
RANDOM=$seed
run 160x48 assets/demo.jsonl
expect "step 30 of 30"
monkey 400
run 160x48 replay --speed 16
expect "16×" 10
monkey 400
: >"$log"
run 160x48 tail "$log"
expect "waiting for the agent" 10
(tail -n +1 assets/demo.jsonl | while IFS= read -r line; do printf '%s\n' "$line" >>"$log"; sleep 0.01; done) &
monkey 400
wait
run 160x48 "$threads"
expect "threads · 3"
monkey 400
run 160x48 "$work/runs"
expect "threads · 3" 10
monkey 300
run 160x48 acp --cwd "$work/project" --stderr-log "$work/agent.log" -- "$work/fixture-agent"
expect "ask the agent" 10
tmux send-keys -t "$session" "all" Enter
monkey 400
if [ -n "$(ls -A "$work/cache/agentwatch/crashes" 2>/dev/null)" ]; then
	echo "smoke: a screen crashed:" >&2
	cat "$work/cache/agentwatch/crashes/"* >&2
	exit 1
fi

if grep -q -e "panic" -e "goroutine " "$work/stderr"; then
	echo "smoke: the program panicked:" >&2
	cat "$work/stderr" >&2
	exit 1
fi
echo "smoke: ok"
