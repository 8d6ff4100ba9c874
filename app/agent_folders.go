package app

import (
	"path/filepath"
)

// agentFolder is the source of a folder that is an agent's own (a Claude
// Code configuration folder, a Codex, Copilot CLI or Gemini CLI home, or a
// part of one that holds sessions a level or more down): its sessions, as
// the agent's command opens them with --all. ok is false for any other
// folder, which is a folder of logs like another.
func (a *App) agentFolder(dir string) (src *Source, ok bool, err error) {
	dir = filepath.Clean(dir)
	has := func(glob string) bool {
		found, _ := filepath.Glob(glob)
		return len(found) > 0
	}
	sep := string(filepath.Separator)
	switch {
	case isDir(filepath.Join(dir, "projects")) && isClaudeProjects(filepath.Join(dir, "projects")):
		src, err = a.ClaudeSessions(dir, true)
	case (isDir(filepath.Join(dir, "sessions")) || isDir(filepath.Join(dir, "archived_sessions")) || isCodexDated(dir)) && hasAny(codexGlobs(dir)):
		src, err = a.CodexSessions(dir, true)
	case (isDir(filepath.Join(dir, "session-state")) || filepath.Base(dir) == "session-state") && has(copilotGlob(dir)):
		src, err = a.CopilotSessions(dir, true)
	case isDir(filepath.Join(dir, "tmp")) && has(globEscape(filepath.Join(dir, "tmp"))+sep+"*"+sep+"chats"+sep+"*.jsonl"),
		isDir(filepath.Join(dir, "chats")) && has(globEscape(filepath.Join(dir, "chats"))+sep+"*.jsonl"):
		src, err = a.GeminiSessions(dir, true)
	default:
		return nil, false, nil
	}
	return src, true, err
}

// isCodexDated reports whether dir is a Codex sessions folder: named
// sessions or archived_sessions.
func isCodexDated(dir string) bool {
	base := filepath.Base(dir)
	return base == "sessions" || base == "archived_sessions"
}

// hasAny reports whether any of globs matches a file.
func hasAny(globs []string) bool {
	for _, g := range globs {
		if found, _ := filepath.Glob(g); len(found) > 0 {
			return true
		}
	}
	return false
}
