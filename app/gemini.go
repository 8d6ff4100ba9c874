package app

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Gemini CLI keeps its sessions under its home folder (~/.gemini, or
// $GEMINI_CLI_HOME/.gemini): tmp/<project>/chats/session-*.jsonl, one
// folder per project, named by a short name of the project's (with a
// .project_root file holding its path) or, in older versions, by the
// SHA-256 of its path. A subagent's file is one folder further down, in
// chats/<parent session>/.

// GeminiSessions finds the Gemini CLI sessions agentwatch gemini opens,
// as a folder source: with all unset those of the project of the current
// folder, or with all every project's. folder may name a Gemini home
// folder, its tmp folder, one project's folder or its chats folder.
// Finding none is an InputError that says where it looked.
func (a *App) GeminiSessions(folder string, all bool) (*Source, error) {
	src, err := a.geminiSessions(folder, all)
	if src != nil {
		src.agents = &agentWatch{kind: agentGemini, root: src.Arg}
	}
	return src, err
}

func (a *App) geminiSessions(folder string, all bool) (*Source, error) {
	where := folder
	if folder == "" {
		home, said := geminiHome()
		if home == "" || !isDir(filepath.Join(home, "tmp")) {
			return nil, BadInput(fmt.Errorf("no Gemini CLI sessions: looked in %s; name the folder that holds them: agentwatch gemini FOLDER", said))
		}
		folder, where = home, said
	} else if err := mustBeFolder(folder, "a Gemini home folder, its tmp folder or a project's folder"); err != nil {
		return nil, err
	}
	sep := string(filepath.Separator)
	var tmp string
	switch {
	case isDir(filepath.Join(folder, "tmp")):
		tmp = filepath.Join(folder, "tmp")
	case isDir(filepath.Join(folder, "chats")):
		return a.agentSessions(globEscape(filepath.Join(folder, "chats"))+sep+"*.jsonl", nil, folder, where, true, "gemini", nil)
	case filepath.Base(filepath.Clean(folder)) == "chats":
		return a.agentSessions(globEscape(filepath.Clean(folder))+sep+"*.jsonl", nil, folder, where, true, "gemini", nil)
	default:
		tmp = folder
	}
	if all {
		return a.agentSessions(globEscape(tmp)+sep+"*"+sep+"chats"+sep+"*.jsonl", nil, folder, where, true, "gemini", nil)
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, BadInput(fmt.Errorf("the current folder: %w", err))
	}
	project := geminiProject(tmp, cwd)
	if project == "" {
		return nil, BadInput(fmt.Errorf("no Gemini CLI sessions of %s in %s; agentwatch gemini --all shows every project's", cwd, where))
	}
	return a.agentSessions(globEscape(filepath.Join(project, "chats"))+sep+"*.jsonl", nil, folder, where, true, "gemini", nil)
}

// geminiHome is Gemini CLI's home folder ("" when there is none) and how
// a message says it.
func geminiHome() (path, said string) {
	if v := os.Getenv("GEMINI_CLI_HOME"); v != "" {
		return filepath.Join(v, ".gemini"), "$GEMINI_CLI_HOME/.gemini (" + filepath.Join(v, ".gemini") + ")"
	}
	said = "$GEMINI_CLI_HOME (not set), ~" + string(filepath.Separator) + ".gemini"
	home, err := os.UserHomeDir()
	if err != nil {
		return "", said
	}
	return filepath.Join(home, ".gemini"), said
}

// geminiProject is the folder of tmp that holds the sessions of the
// project at cwd: the one whose .project_root names it, else the one named
// by its path's SHA-256 (older versions); "" when there is none.
func geminiProject(tmp, cwd string) string {
	want := map[string]bool{filepath.Clean(cwd): true}
	if real, err := filepath.EvalSymlinks(cwd); err == nil {
		want[real] = true
	}
	entries, _ := os.ReadDir(tmp)
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		root, err := os.ReadFile(filepath.Join(tmp, e.Name(), ".project_root"))
		if err == nil && want[filepath.Clean(string(bytes.TrimSpace(root)))] {
			return filepath.Join(tmp, e.Name())
		}
	}
	for dir := range want {
		sum := sha256.Sum256([]byte(dir))
		if p := filepath.Join(tmp, hex.EncodeToString(sum[:])); isDir(p) {
			return p
		}
	}
	return ""
}

// geminiProjectOf is the project a Gemini session file at path belongs to:
// the path its project folder's .project_root holds, else the folder's
// name; "" when path is not in a chats folder.
func geminiProjectOf(path string) string {
	chats := filepath.Dir(path)
	if filepath.Base(chats) != "chats" {
		return ""
	}
	project := filepath.Dir(chats)
	if root, err := os.ReadFile(filepath.Join(project, ".project_root")); err == nil {
		if s := strings.TrimSpace(string(root)); s != "" && len(s) < 4096 {
			return s
		}
	}
	return filepath.Base(project)
}

// geminiSubagentFolder reports whether path is the folder of a Gemini
// session's subagents: in a chats folder, named by the whole id of a
// session whose file (session-<time>-<first 8 of the id>.jsonl) is beside
// it, which reads them.
func geminiSubagentFolder(path string) bool {
	name := filepath.Base(path)
	if len(name) < 8 || filepath.Base(filepath.Dir(path)) != "chats" || !isDir(path) {
		return false
	}
	found, _ := filepath.Glob(globEscape(filepath.Dir(path)) + string(filepath.Separator) + "session-*-" + globEscape(name[:8]) + ".jsonl")
	return len(found) > 0
}

// sessionOwnFolder reports whether path is a folder a session beside it
// reads (a Claude Code session's, a Gemini session's subagents): passed
// over without a word in a folder of sessions.
func sessionOwnFolder(path string) bool { return sessionFolder(path) || geminiSubagentFolder(path) }
