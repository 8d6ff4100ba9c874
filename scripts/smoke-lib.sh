# What the smoke scripts share: reading the tmux screen and waiting for it.
# A script sets $name (its name in messages) and $session (its tmux
# session), then sources this file: . scripts/smoke-lib.sh

fail() { # fail MESSAGE: say what went wrong, show the screen, stop
	echo "$name: $1" >&2
	screen >&2 || true
	exit 1
}
screen() { tmux capture-pane -p -t "$session"; }
# Deadlines are kept in microseconds: bash's $SECONDS counts whole seconds,
# so "1 second" from it could end a tenth of a second after it began.
micros() { echo "${EPOCHREALTIME//[!0-9]/}"; }
after() { echo $(($(micros) + $1 * 1000000)); } # after SECONDS: a deadline
expect() { # expect TEXT [SECONDS]: wait until the screen shows TEXT
	local deadline
	deadline=$(after "${2:-10}")
	until screen | grep -qF -- "$1"; do
		(($(micros) < deadline)) || fail "screen never showed: $1"
		sleep 0.2
	done
}
expect_re() { # expect_re REGEX [SECONDS]: wait until the screen matches REGEX
	local deadline
	deadline=$(after "${2:-10}")
	until screen | grep -qE -- "$1"; do
		(($(micros) < deadline)) || fail "screen never matched: $1"
		sleep 0.2
	done
}
lacks() { # lacks TEXT: the screen must not show TEXT now
	if screen | grep -qF -- "$1"; then
		fail "screen shows too early: $1"
	fi
}
ended_within() { # ended_within SECONDS: true when the session ends that soon
	local tries=$(($1 * 10))
	for _ in $(seq "$tries"); do
		tmux has-session -t "$session" 2>/dev/null || return 0
		sleep 0.1
	done
	return 1
}
