package sources

// This file reads what agents keep about their running sessions beside
// the sessions' files: Claude Code's registry of running sessions
// (<config>/sessions/<pid>.json) and Codex's thread locks
// (<home>/thread-writer-locks/<thread id>.lock). Both are small folders,
// read whole at each look; what they say is true only while the process
// that wrote them runs, so each entry is checked against the live
// processes (process_*.go).

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ClaudeSession is one entry of Claude Code's registry of running
// sessions: a file <pid>.json that a Claude Code process writes when it
// starts, updates as its status changes and removes when it exits.
type ClaudeSession struct {
	// PID is the process that runs the session.
	PID int `json:"pid"`
	// SessionID names the session: its file is <SessionID>.jsonl.
	SessionID string `json:"sessionId"`
	// Cwd is the folder the session runs in.
	Cwd string `json:"cwd"`
	// StartedAt and StatusUpdatedAt are milliseconds since 1970.
	StartedAt       int64 `json:"startedAt"`
	StatusUpdatedAt int64 `json:"statusUpdatedAt"`
	// ProcStart is the process's start time as the system counts it
	// (Linux: /proc/<pid>/stat's starttime), which tells a reused pid
	// from the process that wrote the file; "" when not written.
	ProcStart string `json:"procStart"`
	// Version is Claude Code's version.
	Version string `json:"version"`
	// Kind is "interactive" or "bg"; Entrypoint how it was started
	// ("cli", "sdk-ts", …).
	Kind       string `json:"kind"`
	Entrypoint string `json:"entrypoint"`
	// Status is "busy", "shell", "idle" or "waiting" (for the person's
	// answer); "" when the process never writes one.
	Status string `json:"status"`
	// Name is the name the session was given, if any.
	Name string `json:"name"`
	// Live is whether the process runs: Alive, or LivenessUnknown where
	// the system cannot tell (then the file's being there is all that is
	// known).
	Live Liveness `json:"-"`
}

// ReadClaudeRegistry reads the registry of running Claude Code sessions in
// dir (a configuration folder's sessions folder) and returns the entries
// whose process runs now (or may: Live says), by session id. A file that
// is not an entry (not named <pid>.json, not JSON, naming another pid, or
// of the older kind without a sessionId) is passed over, and so is one
// whose process is gone or not the one that wrote it: a crash leaves its
// file behind. A missing folder is no sessions, not an error.
func ReadClaudeRegistry(dir string) (map[string]ClaudeSession, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]ClaudeSession{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := make(map[string]ClaudeSession, len(entries))
	for _, e := range entries {
		name := e.Name()
		pid, err := strconv.Atoi(strings.TrimSuffix(name, ".json"))
		if !strings.HasSuffix(name, ".json") || err != nil || pid <= 0 || !e.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue // removed meanwhile: its process exited
		}
		var s ClaudeSession
		if json.Unmarshal(b, &s) != nil || s.PID != pid || s.SessionID == "" {
			continue
		}
		if s.Live = ProcessAlive(pid, s.ProcStart); s.Live == Dead {
			continue
		}
		if old, ok := out[s.SessionID]; ok && old.StatusUpdatedAt > s.StatusUpdatedAt {
			continue // two processes of one session: the newer word counts
		}
		out[s.SessionID] = s
	}
	return out, nil
}

// Liveness is whether a process is running, as far as this system can
// tell.
type Liveness uint8

const (
	// LivenessUnknown: this system gives no cheap way to ask.
	LivenessUnknown Liveness = iota
	// Alive: the process runs (and, when its start time was given, is the
	// one that started then).
	Alive
	// Dead: no such process, or another one under a reused pid.
	Dead
)

// ReadCodexLocks lists the threads that Codex processes hold open in dir
// (a Codex home's thread-writer-locks folder): a file <thread id>.lock
// that a process holds a lock on. Codex leaves the file behind when it
// lets the thread go, so a file counts only while it is locked, where this
// system can tell (LockHeld); where it cannot, a file counts. A missing
// folder is no threads, not an error.
func ReadCodexLocks(dir string) (map[string]bool, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]bool{}, nil
	}
	if err != nil {
		return nil, err
	}
	held := heldLocks()
	out := map[string]bool{}
	for _, e := range entries {
		name := e.Name()
		id, ok := strings.CutSuffix(name, ".lock")
		if !ok || id == "" || strings.HasPrefix(name, ".") || !e.Type().IsRegular() {
			continue // .coordination.lock is Codex's own, not a thread's
		}
		if held != nil {
			info, err := e.Info()
			if err != nil || !held(info) {
				continue
			}
		}
		out[id] = true
	}
	return out, nil
}
