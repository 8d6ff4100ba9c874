package app

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// GitHub Copilot CLI keeps a session per folder under its home folder
// ($COPILOT_HOME, else ~/.copilot): session-state/<id>/events.jsonl, whose
// first line (session.start) names the folder the session ran in
// (data.context.cwd).

// CopilotSessions finds the Copilot CLI sessions agentwatch copilot
// opens, as a folder source: with all unset those whose session.start
// names the current folder (each file's first line alone is read to
// know), or with all every one. folder may name a Copilot home folder, its
// session-state folder or one session's folder. Finding none is an
// InputError that says where it looked.
func (a *App) CopilotSessions(folder string, all bool) (*Source, error) {
	where := folder
	if folder == "" {
		home, said := copilotHome()
		if home == "" || !isDir(home) {
			return nil, BadInput(fmt.Errorf("no Copilot CLI sessions: looked in %s; name the folder that holds them: agentwatch copilot FOLDER", said))
		}
		folder, where = home, said
	} else if err := mustBeFolder(folder, "a Copilot home folder, its session-state folder or a session's folder"); err != nil {
		return nil, err
	}
	src, err := a.agentSessions(copilotGlob(folder), nil, folder, where, all, "copilot", copilotCwd)
	if src != nil {
		src.agents = &agentWatch{kind: agentCopilot, root: folder}
	}
	return src, err
}

// copilotHome is Copilot CLI's home folder ("" when there is none) and how
// a message says it.
func copilotHome() (path, said string) {
	return envHome("COPILOT_HOME", ".copilot")
}

// copilotGlob is the glob of the session files of a folder: a home
// folder's, a session-state folder's, or one session's own.
func copilotGlob(dir string) string {
	sep := string(filepath.Separator)
	switch {
	case isDir(filepath.Join(dir, "session-state")):
		return globEscape(filepath.Join(dir, "session-state")) + sep + "*" + sep + "events.jsonl"
	case isFile(filepath.Join(dir, "events.jsonl")):
		return globEscape(filepath.Join(dir, "events.jsonl"))
	}
	return globEscape(filepath.Clean(dir)) + sep + "*" + sep + "events.jsonl"
}

// copilotCwd is the folder a session's first line (session.start) names;
// ok is unset when no whole first line could be read.
func copilotCwd(path string) (cwd string, ok bool) {
	line, ok := firstLineOf(path)
	if !ok {
		return "", false
	}
	var start struct {
		Type string `json:"type"`
		Data struct {
			Context struct {
				Cwd string `json:"cwd"`
			} `json:"context"`
		} `json:"data"`
	}
	if json.Unmarshal(line, &start) != nil || start.Type != "session.start" {
		return "", true
	}
	return start.Data.Context.Cwd, true
}

// maxFirstLine is the most of a session file read for its first line.
const maxFirstLine = 4 << 20

// firstLineOf is the first whole line of the file at path.
func firstLineOf(path string) ([]byte, bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	line, err := bufio.NewReader(io.LimitReader(f, maxFirstLine)).ReadBytes('\n')
	if err != nil {
		return nil, false
	}
	return line, true
}

// envHome is an agent's home folder: $env when set, else ~/<rel>; and how
// a message says where it looked.
func envHome(env, rel string) (path, said string) {
	if v := os.Getenv(env); v != "" {
		return v, "$" + env + " (" + v + ")"
	}
	said = "$" + env + " (not set), ~" + string(filepath.Separator) + rel
	home, err := os.UserHomeDir()
	if err != nil {
		return "", said
	}
	return filepath.Join(home, rel), said
}

// mustBeFolder is the error for a FOLDER argument that is not one.
func mustBeFolder(folder, what string) error {
	st, err := os.Stat(folder)
	if err != nil {
		return BadInput(fmt.Errorf("open %s: %s", folder, errCause(err)))
	}
	if !st.IsDir() {
		return BadInput(fmt.Errorf("%s is not a folder: name %s (or open a session file with agentwatch FILE)", folder, what))
	}
	return nil
}

// isFile reports whether path is a regular file.
func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// agentSessions is the folder source of the session files glob finds
// (skip passes some over without a word): all of them, or those whose
// session ran in the current folder as cwdOf tells from each file's
// head. agent names the agent in messages.
func (a *App) agentSessions(glob string, skip func(string) bool, folder, where string, all bool, agent string, cwdOf func(string) (string, bool)) (*Source, error) {
	paths, err := filepath.Glob(glob)
	if err != nil {
		return nil, BadInput(fmt.Errorf("%s: %w", glob, err))
	}
	ignore := skip
	cwd := ""
	if !all {
		if cwd, err = os.Getwd(); err != nil {
			return nil, BadInput(fmt.Errorf("the current folder: %w", err))
		}
		ignore = ranElsewhere(cwd, skip, cwdOf)
	}
	if ignore != nil {
		paths = slices.DeleteFunc(paths, ignore)
	}
	if len(paths) == 0 {
		if all {
			return nil, BadInput(fmt.Errorf("no %s sessions in %s", agent, where))
		}
		return nil, BadInput(fmt.Errorf("no %s sessions of %s in %s; agentwatch %s --all shows every one", agent, cwd, where, agent))
	}
	src := &Source{Kind: KindFolder, Arg: folder, Found: true, follow: glob, ignore: ignore, projects: newProjectLabels()}
	a.lookAll(src, paths)
	return src, nil
}

// ranElsewhere passes over (as skip does) a session file whose head says
// it ran in another folder than cwd, or says none. A file whose first line
// is not written yet is passed over until it is; what a first line said is
// kept, since a followed folder asks again about every file it passed
// over.
func ranElsewhere(cwd string, skip func(string) bool, cwdOf func(string) (string, bool)) func(string) bool {
	here := map[string]bool{filepath.Clean(cwd): true}
	if real, err := filepath.EvalSymlinks(cwd); err == nil {
		here[real] = true
	}
	var mu sync.Mutex
	said := map[string]bool{}
	return func(path string) bool {
		if skip != nil && skip(path) {
			return true
		}
		mu.Lock()
		defer mu.Unlock()
		if in, ok := said[path]; ok {
			return !in
		}
		dir, ok := cwdOf(path)
		if !ok {
			return true
		}
		in := dir != "" && here[filepath.Clean(strings.TrimRight(dir, string(filepath.Separator)))]
		said[path] = in
		return !in
	}
}
