package app

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// Claude Code keeps a session per file, projects/<encoded cwd>/<sessionId>.jsonl,
// under its configuration folder; beside a session file, a folder of the
// same name holds its subagents' files (subagents/agent-<id>.jsonl), and
// older versions put those flat in the project folder (agent-<id>.jsonl).
// Subagents are not shown yet: their files are passed over without a word.

// ClaudeSessions finds the Claude Code sessions agentwatch claude opens, as
// a folder source: with folder "" those of the project of the current
// folder (the projects folder named after it), or with all those of every
// project, in the first configuration folder found ($CLAUDE_CONFIG_DIR,
// ~/.claude, ~/.config/claude). folder may name a configuration folder,
// its projects folder or one project's folder. Finding none is an
// InputError that says where it looked.
func (a *App) ClaudeSessions(folder string, all bool) (*Source, error) {
	projects := ""
	if folder != "" {
		st, err := os.Stat(folder)
		if err != nil {
			return nil, BadInput(fmt.Errorf("open %s: %s", folder, errCause(err)))
		}
		if !st.IsDir() {
			return nil, BadInput(fmt.Errorf("%s is not a folder: name a Claude Code configuration folder, its projects folder or a project's folder (or open a session file with agentwatch FILE)", folder))
		}
		switch {
		case isDir(filepath.Join(folder, "projects")):
			projects = filepath.Join(folder, "projects")
		case isClaudeProjects(folder):
			projects = folder
		default:
			return a.claudeProject(folder) // one project's folder: --all changes nothing
		}
	} else {
		var looked []string
		for _, c := range claudeConfigFolders() {
			looked = append(looked, c.said)
			if c.path != "" && isDir(filepath.Join(c.path, "projects")) {
				projects = filepath.Join(c.path, "projects")
				break
			}
		}
		if projects == "" {
			return nil, BadInput(fmt.Errorf("no Claude Code sessions: looked in %s; name the folder that holds them: agentwatch claude FOLDER", strings.Join(looked, ", ")))
		}
	}
	if all {
		src, err := a.identifyListed(projects, globEscape(projects)+string(filepath.Separator)+"*"+string(filepath.Separator)+"*.jsonl")
		if src != nil {
			src.agents = claudeWatch(projects)
		}
		return src, err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, BadInput(fmt.Errorf("the current folder: %w", err))
	}
	project := filepath.Join(projects, EncodeClaudeProject(cwd))
	if !isDir(project) {
		project = longProject(projects, cwd)
	}
	if !isDir(project) {
		return nil, BadInput(fmt.Errorf("no Claude Code sessions of %s: %s is not there; agentwatch claude --all shows every project's", cwd, project))
	}
	return a.claudeProject(project)
}

// claudeProject is one project's folder of sessions; their states are
// learnt from the registry of the configuration folder it is in, when it
// is in a projects folder.
func (a *App) claudeProject(dir string) (*Source, error) {
	src, err := a.identifyListed(dir, globEscape(dir)+string(filepath.Separator)+"*.jsonl")
	if abs, aerr := filepath.Abs(dir); src != nil && aerr == nil && filepath.Base(filepath.Dir(abs)) == "projects" {
		src.agents = claudeWatch(filepath.Dir(abs))
	}
	return src, err
}

// claudeConfig is a place Claude Code may keep its configuration: its
// path ("" when it has none, as an unset variable) and how a message says
// it.
type claudeConfig struct{ path, said string }

// claudeConfigFolders are where Claude Code may keep its configuration,
// in the order they are looked in.
func claudeConfigFolders() []claudeConfig {
	env := os.Getenv("CLAUDE_CONFIG_DIR")
	out := []claudeConfig{{env, "$CLAUDE_CONFIG_DIR (" + env + ")"}}
	if env == "" {
		out[0].said = "$CLAUDE_CONFIG_DIR (not set)"
	}
	home, err := os.UserHomeDir()
	if err != nil {
		home = ""
	}
	for _, rel := range []string{".claude", filepath.Join(".config", "claude")} {
		c := claudeConfig{said: "~" + string(filepath.Separator) + rel}
		if home != "" {
			c.path = filepath.Join(home, rel)
		}
		out = append(out, c)
	}
	return out
}

// EncodeClaudeProject is the name Claude Code gives the folder of a
// project's sessions: the project's absolute path with every character
// but an ASCII letter or digit made "-".
func EncodeClaudeProject(path string) string {
	b := []byte(path)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			b[i] = '-'
		}
	}
	return string(b)
}

// maxProjectName is the longest name Claude Code gives a project's folder
// whole: a longer one is cut there, and a hash of the path follows it
// ("-" and the hash, which has changed between versions).
const maxProjectName = 200

// longProject is the folder of projects holding the sessions of cwd when
// its name is too long to be the path encoded whole: a folder named by the
// name's first maxProjectName characters, a "-" and anything, one of whose
// sessions ran in cwd (its first line that says names it). "" when there
// is none.
func longProject(projects, cwd string) string {
	name := EncodeClaudeProject(cwd)
	if len(name) <= maxProjectName {
		return ""
	}
	prefix := name[:maxProjectName] + "-"
	entries, _ := os.ReadDir(projects)
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		dir := filepath.Join(projects, e.Name())
		sessions, _ := filepath.Glob(globEscape(dir) + string(filepath.Separator) + "*.jsonl")
		for _, p := range sessions {
			head, err := readHeadBytes(p, 64<<10)
			if err == nil && filepath.Clean(sessionProject(p, head)) == filepath.Clean(cwd) {
				return dir
			}
		}
	}
	return ""
}

// readHeadBytes is the first n bytes of the file at path (fewer when it is
// shorter).
func readHeadBytes(path string, n int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, n)
	k, err := io.ReadFull(f, b)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, err
	}
	return b[:k], nil
}

// isClaudeProjects reports whether dir is a Claude Code projects folder:
// named projects, holding no log of its own and a folder named as Claude
// Code names a project (an absolute path encoded: it begins with "-"), its
// sessions one folder down. Any other folder named projects is a folder of
// logs like another.
func isClaudeProjects(dir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil || filepath.Base(abs) != "projects" {
		return false
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	project := false
	for _, e := range entries {
		switch {
		case e.IsDir() && strings.HasPrefix(e.Name(), "-"):
			project = true
		case !e.IsDir() && strings.HasSuffix(e.Name(), ".jsonl"):
			return false
		}
	}
	return project
}

// isDir reports whether path is a folder.
func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// claudeIgnored reports whether a file of Claude Code's projects is passed
// over without a word: a subagent's, which is not shown yet.
func claudeIgnored(path string) bool {
	name := filepath.Base(path)
	return strings.HasPrefix(name, "agent-") && strings.HasSuffix(name, ".jsonl")
}

// sessionFolder reports whether path is a Claude Code session's own folder
// (its subagents), beside the session file of the same name: a folder
// that is passed over without a word, where any other is skipped with a
// reason.
func sessionFolder(path string) bool {
	if strings.HasSuffix(path, ".jsonl") || !isDir(path) {
		return false
	}
	st, err := os.Stat(path + ".jsonl")
	return err == nil && st.Mode().IsRegular()
}

// globEscape makes path match itself alone as a glob's folder part.
func globEscape(path string) string {
	if runtime.GOOS == "windows" {
		// No escape character there: a pattern character is matched as
		// a class of one.
		r := strings.NewReplacer("*", "[*]", "?", "[?]", "[", "[[]")
		return r.Replace(path)
	}
	r := strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`)
	return r.Replace(path)
}

// projectLabels are the projects of a Claude Code folder's session files,
// by path, for the thread list: learnt as each file's head is read (when
// the folder is identified, or when a file joins it later) and read by the
// screen, on another goroutine.
type projectLabels struct {
	mu sync.Mutex
	of map[string]string
	// marks name the agent of each folder of sessions, when the folder
	// holds several agents' (agentwatch agents): a label starts with it.
	marks []agentMark
	// changed is when each glanced session's file last changed, as the
	// folder's follower saw (bigfolder.go).
	changed map[string]time.Time
}

// shortProject is a project as a list that also names its agent shows it:
// a long path by its last two folders, a folder named by a hash (Gemini
// CLI's older projects) by the hash's start; the list cuts a label from
// its start, which would cut the agent's name.
func shortProject(p string) string {
	if len(p) == 64 && strings.Trim(p, "0123456789abcdef") == "" {
		return p[:8] + "…"
	}
	if len(p) <= 16 {
		return p
	}
	parts := strings.Split(strings.TrimRight(filepath.ToSlash(p), "/"), "/")
	if len(parts) <= 2 {
		return p
	}
	return "…/" + strings.Join(parts[len(parts)-2:], "/")
}

// agentMark is an agent's name and the folder of its sessions.
type agentMark struct{ root, name string }

func newProjectLabels() *projectLabels { return &projectLabels{of: map[string]string{}} }

// learn notes the project of the session file at path from its head.
func (p *projectLabels) learn(path string, head []byte) {
	if p == nil {
		return
	}
	label := sessionProject(path, head)
	for _, m := range p.marks {
		if within(m.root, path) {
			label = m.name + " · " + shortProject(label)
			break
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.of[filepath.Clean(path)] = label
}

// paths are the session files learnt so far.
func (p *projectLabels) paths() []string {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]string, 0, len(p.of))
	for path := range p.of {
		out = append(out, path)
	}
	return out
}

// project is the project of the session file at path, "" when not known.
func (p *projectLabels) project(path string) string {
	if p == nil {
		return ""
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.of[filepath.Clean(path)]
}

// sessionProject is the project of a session file: the folder the first
// line of its head that says names (cwd; a Codex session_meta's
// payload.cwd; a Copilot CLI session.start's data.context.cwd), else a
// Gemini CLI project's .project_root, else the name of the folder the
// file is in (for Claude Code an encoded path, which cannot be decoded:
// "-" stood for any character).
func sessionProject(path string, head []byte) string {
	head = unzstdHead(head)
	sc := bufio.NewScanner(bytes.NewReader(head))
	sc.Buffer(nil, len(head)+1)
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.Contains(line, []byte(`"cwd"`)) {
			continue
		}
		var l struct {
			Cwd     string `json:"cwd"`
			Payload struct {
				Cwd string `json:"cwd"`
			} `json:"payload"` // Codex's session_meta
			Data struct {
				Context struct {
					Cwd string `json:"cwd"`
				} `json:"context"`
			} `json:"data"` // Copilot CLI's session.start
		}
		if json.Unmarshal(line, &l) != nil {
			continue
		}
		for _, cwd := range []string{l.Cwd, l.Payload.Cwd, l.Data.Context.Cwd} {
			if cwd != "" {
				return cwd
			}
		}
	}
	if p := geminiProjectOf(path); p != "" {
		return p
	}
	return filepath.Base(filepath.Dir(path))
}
