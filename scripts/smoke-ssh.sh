#!/usr/bin/env bash
# Drives `agentwatch serve` with the OpenSSH client in tmux, as a viewer
# would: the demo plays over SSH; space pauses, 5 seeks half way, ← steps
# back, L goes to the end; q ends the session and the server keeps running
# for the next viewer; a key that is not listed is refused. Fails on any
# panic in the server's log. Run from anywhere: scripts/smoke-ssh.sh
set -euo pipefail
cd "$(dirname "$0")/.."

command -v tmux >/dev/null || { echo "smoke-ssh: tmux is not installed" >&2; exit 2; }
if ! command -v ssh >/dev/null || ! command -v ssh-keygen >/dev/null; then
	(apt-get update -qq && apt-get install -y -qq openssh-client) >/dev/null
fi
work=$(mktemp -d)
bin=$work/agentwatch
go build -o "$bin" .
session="aw-smoke-ssh-$$"
server=
cleanup() {
	tmux kill-session -t "$session" 2>/dev/null || true
	if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
}
trap cleanup EXIT

ssh-keygen -q -t ed25519 -N '' -C viewer -f "$work/viewer"
ssh-keygen -q -t ed25519 -N '' -C stranger -f "$work/stranger"
cp "$work/viewer.pub" "$work/authorized_keys"

# Port 0: the server picks a free port and says which in its log.
"$bin" serve --listen 127.0.0.1:0 --host-key "$work/host_key" \
	--authorized-keys "$work/authorized_keys" 2>"$work/serve.log" &
server=$!
port=
for _ in $(seq 100); do
	port=$(sed -n 's/.* on 127\.0\.0\.1:\([0-9]*\) (host key .*/\1/p' "$work/serve.log")
	[ -n "$port" ] && break
	sleep 0.1
done
if [ -z "$port" ]; then
	echo "smoke-ssh: the server did not start" >&2
	cat "$work/serve.log" >&2
	exit 1
fi
[ "$(stat -c %a "$work/host_key")" = 600 ] || { echo "smoke-ssh: the host key is not mode 0600" >&2; exit 1; }

ssh_opts=(-p "$port" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null
	-o IdentitiesOnly=yes -o BatchMode=yes -o LogLevel=ERROR)

name=smoke-ssh
. scripts/smoke-lib.sh
view() { # view SIZE: a viewer logs in with ssh in a fresh tmux session
	local size=$1
	tmux new-session -d -s "$session" -x "${size%x*}" -y "${size#*x}" \
		"ssh -tt -i $work/viewer ${ssh_opts[*]} 127.0.0.1 2>>$work/ssh.err"
}
quit() { # q must end the session, and the server must keep running
	tmux send-keys -t "$session" q
	ended_within 5 || fail "q did not end the session"
	kill -0 "$server" 2>/dev/null || fail "the server stopped with the session"
}

for size in 160x48 80x24; do
	view "$size"
	expect "transcript · the embedded demo"
	expect "step 2 of" 30 # the demo plays by itself
	tmux send-keys -t "$session" space
	expect "❚❚ 1×"
	tmux send-keys -t "$session" 5
	expect_re " 4[0-9][0-9]/840" # half way through the demo's events
	at=$(screen | sed -n 's/.*step \([0-9]*\) of \1.*/\1/p' | head -1)
	[ -n "$at" ] || { echo "smoke-ssh: no step shown after seeking" >&2; screen >&2; exit 1; }
	tmux send-keys -t "$session" Left # in a replay, back to where the step before began
	expect "step $((at - 1)) of $((at - 1))"
	tmux send-keys -t "$session" L
	expect "840/840"
	expect "step 30 of 30"
	quit
done
grep -q "left after" "$work/serve.log" || { echo "smoke-ssh: the log does not say the viewer left" >&2; cat "$work/serve.log" >&2; exit 1; }

# A key that is not listed is refused, and so is a password.
if ssh -i "$work/stranger" "${ssh_opts[@]}" 127.0.0.1 true 2>"$work/stranger.err"; then
	echo "smoke-ssh: a key that is not listed got in" >&2
	exit 1
fi
grep -q "Permission denied (publickey)" "$work/stranger.err" || { echo "smoke-ssh: the stranger was told:" >&2; cat "$work/stranger.err" >&2; exit 1; }
grep -q "refused: not in" "$work/serve.log" || { echo "smoke-ssh: the refusal is not in the log" >&2; exit 1; }

if grep -qi "panic" "$work/serve.log" "$work/ssh.err"; then
	echo "smoke-ssh: panic output:" >&2
	cat "$work/serve.log" "$work/ssh.err" >&2
	exit 1
fi
echo "smoke-ssh: ok"
