package agent

import (
	"fmt"
	"log/slog"
	"os"
	"time"
)

// Environment variables the fixture-agent binary reads (see OptionsFromEnv).
const (
	// EnvAuth set to "1" makes the agent require `authenticate` with
	// AuthMethodID before any session method.
	EnvAuth = "ACPTEST_AUTH"
	// EnvStore names a directory where sessions persist as JSON files, so a
	// second process can `session/list` and `session/load` them.
	EnvStore = "ACPTEST_STORE"
	// EnvLoadSplit chooses where `session/load` replays history relative to
	// its response: "half" (default), "before" or "after" (see LoadSplit).
	EnvLoadSplit = "ACPTEST_LOAD_SPLIT"
	// EnvDelay is a Go duration paused after each update of the `all` and
	// `permission` scripts (default 0: as fast as possible), for watching a
	// turn unfold by eye.
	EnvDelay = "ACPTEST_DELAY"
	// EnvNoLoad=1 advertises loadSession false.
	EnvNoLoad = "ACPTEST_NO_LOAD"
	// EnvInitError makes initialize fail with this message (see
	// Options.InitError).
	EnvInitError = "ACPTEST_INIT_ERROR"
)

// AuthMethodID is the only authentication method the agent offers when it
// requires authentication.
const AuthMethodID = "fixture-token"

// LoadSplit says which part of a stored history `session/load` replays
// before its response and which part after it.
type LoadSplit string

// The load splits. Real agents do all three: Claude, goose and Codex replay
// before answering, Gemini CLI after (its replay is a floating promise).
const (
	// LoadSplitHalf replays the first half of the history (rounded up)
	// before the response and the rest after it.
	LoadSplitHalf LoadSplit = "half"
	// LoadSplitBefore replays the whole history before the response.
	LoadSplitBefore LoadSplit = "before"
	// LoadSplitAfter replays the whole history after the response.
	LoadSplitAfter LoadSplit = "after"
)

// Options configure one agent connection. The zero value is a usable
// default: no auth, an in-memory store of its own, half/half load split.
type Options struct {
	// RequireAuth makes session methods answer -32000 until the client
	// calls `authenticate` with AuthMethodID.
	RequireAuth bool
	// NoLoad makes the agent advertise loadSession false, like agents that
	// cannot replay a session.
	NoLoad bool
	// InitError, when set, makes initialize log it as an error and answer
	// -32603 with it as the message, as an agent without its credentials
	// or its model does.
	InitError string
	// Store holds sessions; share one Store between connections to load in
	// one connection a session made in another. Nil means a fresh
	// in-memory store.
	Store *Store
	// LoadSplit is where `session/load` splits the replay; empty means
	// LoadSplitHalf.
	LoadSplit LoadSplit
	// Delay is paused after each update of the `all` and `permission`
	// scripts.
	Delay time.Duration
	// SlowInterval is the pause between the updates of `slow`; zero means
	// 200 ms.
	SlowInterval time.Duration
	// SlowTicks is how many updates `slow` sends; zero means 50 (~10 s at
	// the default interval).
	SlowTicks int
	// Logger receives the agent's log lines (the binary logs to stderr);
	// nil discards them.
	Logger *slog.Logger
	// Exit ends the process for `crash`; nil means os.Exit. In-process
	// tests pass a function that closes the connection's pipes instead.
	Exit func(code int)
	// Now is the clock for updatedAt fields; nil means time.Now.
	Now func() time.Time
}

// CrashExitCode is the status the `crash` prompt exits with.
const CrashExitCode = 3

// OptionsFromEnv reads the EnvAuth, EnvNoLoad, EnvInitError, EnvStore,
// EnvLoadSplit and EnvDelay variables through getenv (usually os.Getenv).
func OptionsFromEnv(getenv func(string) string) (Options, error) {
	var o Options
	o.RequireAuth = getenv(EnvAuth) == "1"
	o.NoLoad = getenv(EnvNoLoad) == "1"
	o.InitError = getenv(EnvInitError)
	if dir := getenv(EnvStore); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return o, fmt.Errorf("%s=%s: %w", EnvStore, dir, err)
		}
		o.Store = NewStore(dir)
	}
	switch s := LoadSplit(getenv(EnvLoadSplit)); s {
	case "", LoadSplitHalf, LoadSplitBefore, LoadSplitAfter:
		o.LoadSplit = s
	default:
		return o, fmt.Errorf("%s=%s: want half, before or after", EnvLoadSplit, s)
	}
	if d := getenv(EnvDelay); d != "" {
		v, err := time.ParseDuration(d)
		if err != nil {
			return o, fmt.Errorf("%s=%s: %w", EnvDelay, d, err)
		}
		o.Delay = v
	}
	return o, nil
}

// withDefaults fills the zero fields.
func (o Options) withDefaults() Options {
	if o.Store == nil {
		o.Store = NewStore("")
	}
	if o.LoadSplit == "" {
		o.LoadSplit = LoadSplitHalf
	}
	if o.SlowInterval <= 0 {
		o.SlowInterval = 200 * time.Millisecond
	}
	if o.SlowTicks <= 0 {
		o.SlowTicks = 50
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Exit == nil {
		o.Exit = os.Exit
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}
