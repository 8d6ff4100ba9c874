package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// agentRoot is one agent's sessions as agentwatch agents follows them:
// the globs that find its files, what of them is passed over, the folder
// they are in (its states are learnt there) and the agent's name, which
// marks its rows.
type agentRoot struct {
	name  string
	root  string
	globs []string
	skip  func(path string) bool
	watch *agentWatch
}

// AllAgentSessions finds every coding agent's sessions on this machine
// that agentwatch reads (Claude Code, Codex, Copilot CLI, Gemini CLI, each
// in its usual folder) as one folder source: with all unset those of the
// current folder's project, or with all every one. Each row's project is
// marked by its agent. Finding none is an InputError that says where it
// looked.
func (a *App) AllAgentSessions(all bool) (*Source, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, BadInput(fmt.Errorf("the current folder: %w", err))
	}
	roots, looked := agentRoots(cwd, all)
	var globs []string
	var paths []string
	for _, r := range roots {
		for _, g := range r.globs {
			found, _ := filepath.Glob(g)
			for _, p := range found {
				if r.skip == nil || !r.skip(p) {
					paths = append(paths, p)
				}
			}
			globs = append(globs, g)
		}
	}
	if len(paths) == 0 {
		what := "no agent's sessions"
		if !all {
			what = "no agent's sessions of " + cwd
		}
		return nil, BadInput(fmt.Errorf("%s: looked in %s; agentwatch agents --all shows every project's", what, strings.Join(looked, ", ")))
	}
	watch := &agentWatch{kind: agentMixed}
	labels := newProjectLabels()
	for _, r := range roots {
		if r.watch != nil {
			r.watch.root = r.root
			watch.parts = append(watch.parts, r.watch)
		}
		labels.marks = append(labels.marks, agentMark{root: r.root, name: r.name})
	}
	skip := func(path string) bool {
		for _, r := range roots {
			if within(r.root, path) {
				return r.skip != nil && r.skip(path)
			}
		}
		return false
	}
	src := &Source{Kind: KindFolder, Arg: "agents", Found: true, follow: globs[0], also: globs[1:], ignore: skip, projects: labels, agents: watch}
	a.lookAll(src, paths)
	return src, nil
}

// agentRoots are the agents' folders of sessions found on this machine,
// and where each was looked for (for a message that finds none).
func agentRoots(cwd string, all bool) (roots []agentRoot, looked []string) {
	sep := string(filepath.Separator)
	for _, c := range claudeConfigFolders() {
		projects := filepath.Join(c.path, "projects")
		if c.path == "" || !isDir(projects) {
			continue
		}
		glob := globEscape(projects) + sep + "*" + sep + "*.jsonl"
		if !all {
			glob = globEscape(filepath.Join(projects, EncodeClaudeProject(cwd))) + sep + "*.jsonl"
		}
		roots = append(roots, agentRoot{name: "claude", root: projects, globs: []string{glob}, skip: claudeIgnored, watch: claudeWatch(projects)})
		break
	}
	looked = append(looked, "Claude Code's projects")
	if home, said := codexHome(); home != "" && isDir(home) {
		skip := codexIgnored
		if !all {
			skip = codexElsewhere(cwd)
		}
		globs := codexGlobs(home)
		roots = append(roots, agentRoot{name: "codex", root: home, globs: globs, skip: codexChildren(skip, globs), watch: codexWatch(home)})
	} else {
		looked = append(looked, said)
	}
	if home, said := copilotHome(); home != "" && isDir(home) {
		var skip func(string) bool
		if !all {
			skip = ranElsewhere(cwd, nil, copilotCwd)
		}
		roots = append(roots, agentRoot{name: "copilot", root: home, globs: []string{copilotGlob(home)}, skip: skip, watch: &agentWatch{kind: agentCopilot}})
	} else {
		looked = append(looked, said)
	}
	if home, said := geminiHome(); home != "" && isDir(filepath.Join(home, "tmp")) {
		tmp := filepath.Join(home, "tmp")
		glob := globEscape(tmp) + sep + "*" + sep + "chats" + sep + "*.jsonl"
		if !all {
			glob = ""
			if p := geminiProject(tmp, cwd); p != "" {
				glob = globEscape(filepath.Join(p, "chats")) + sep + "*.jsonl"
			}
		}
		if glob != "" {
			roots = append(roots, agentRoot{name: "gemini", root: tmp, globs: []string{glob}, watch: &agentWatch{kind: agentGemini}})
		}
	} else {
		looked = append(looked, said)
	}
	return roots, looked
}
