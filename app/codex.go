package app

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/agentwatch/agentwatch/protocol/codex"
)

// Codex keeps a session per file, a rollout, under its home folder
// ($CODEX_HOME, else ~/.codex): sessions/YYYY/MM/DD/rollout-*.jsonl, which
// it may compress into rollout-*.jsonl.zst once idle, and
// archived_sessions/rollout-*.jsonl(.zst). A rollout's first line is its
// session_meta, whose payload.cwd is the folder the session ran in.

// CodexSessions finds the Codex sessions agentwatch codex opens, as a
// folder source: with all unset those whose session_meta names the
// current folder as their cwd (each file's first line alone is read to
// know), or with all every one. folder may name a Codex home folder or a
// folder of rollouts (its sessions or archived_sessions folder) instead of
// $CODEX_HOME or ~/.codex. Finding none is an InputError that says where
// it looked.
func (a *App) CodexSessions(folder string, all bool) (*Source, error) {
	var globs []string
	where := folder
	if folder != "" {
		st, err := os.Stat(folder)
		if err != nil {
			return nil, BadInput(fmt.Errorf("open %s: %s", folder, errCause(err)))
		}
		if !st.IsDir() {
			return nil, BadInput(fmt.Errorf("%s is not a folder: name a Codex home folder or its sessions folder (or open a rollout with agentwatch FILE)", folder))
		}
		globs = codexGlobs(folder)
	} else {
		home, said := codexHome()
		if home == "" || !isDir(home) {
			return nil, BadInput(fmt.Errorf("no Codex sessions: looked in %s; name the folder that holds them: agentwatch codex FOLDER", said))
		}
		folder, where = home, said
		globs = codexGlobs(home)
	}
	var paths []string
	for _, g := range globs {
		found, err := filepath.Glob(g)
		if err != nil {
			return nil, BadInput(fmt.Errorf("%s: %w", g, err))
		}
		paths = append(paths, found...)
	}
	ignore := codexIgnored
	cwd := ""
	if !all {
		var err error
		if cwd, err = os.Getwd(); err != nil {
			return nil, BadInput(fmt.Errorf("the current folder: %w", err))
		}
		ignore = codexElsewhere(cwd)
	}
	ignore = codexChildren(ignore, globs)
	paths = slices.DeleteFunc(paths, ignore)
	if len(paths) == 0 {
		if all {
			return nil, BadInput(fmt.Errorf("no Codex sessions in %s: no rollout-*.jsonl there", where))
		}
		return nil, BadInput(fmt.Errorf("no Codex sessions of %s in %s; agentwatch codex --all shows every one", cwd, where))
	}
	src := &Source{Kind: KindFolder, Arg: folder, Found: true, follow: globs[0], also: globs[1:], ignore: ignore, projects: newProjectLabels(), agents: codexWatch(folder)}
	a.lookAll(src, paths)
	return src, nil
}

// codexHome is Codex's home folder ("" when there is none) and how a
// message says it: $CODEX_HOME when set, as Codex itself decides, else
// ~/.codex.
func codexHome() (path, said string) {
	if env := os.Getenv("CODEX_HOME"); env != "" {
		return env, "$CODEX_HOME (" + env + ")"
	}
	said = "$CODEX_HOME (not set), ~" + string(filepath.Separator) + ".codex"
	home, err := os.UserHomeDir()
	if err != nil {
		return "", said
	}
	return filepath.Join(home, ".codex"), said
}

// codexGlobs are the globs of the rollouts of a folder: a home folder's
// dated sessions and archived ones, or else the folder's own rollouts
// and those in its dated folders (a sessions or archived_sessions folder).
func codexGlobs(dir string) []string {
	const rollout = "rollout-*.jsonl*"
	sep := string(filepath.Separator)
	dated := sep + "*" + sep + "*" + sep + "*" + sep + rollout
	if isDir(filepath.Join(dir, "sessions")) || isDir(filepath.Join(dir, "archived_sessions")) {
		return []string{globEscape(filepath.Join(dir, "sessions")) + dated, globEscape(filepath.Join(dir, "archived_sessions")) + sep + rollout}
	}
	return []string{globEscape(filepath.Clean(dir)) + dated, globEscape(filepath.Clean(dir)) + sep + rollout}
}

// codexIgnored reports whether a file the globs find is passed over
// without a word: one not named as a rollout (rollout-*.jsonl or
// .jsonl.zst), or a compressed rollout beside its plain self, which is the
// one read.
func codexIgnored(path string) bool {
	name := filepath.Base(path)
	switch {
	case strings.HasSuffix(name, ".jsonl"):
		return false
	case strings.HasSuffix(name, ".jsonl.zst"):
		st, err := os.Stat(strings.TrimSuffix(path, ".zst"))
		return err == nil && st.Mode().IsRegular()
	}
	return true
}

// codexElsewhere is codexIgnored for the sessions of cwd alone: it also
// passes over a rollout whose session_meta names another folder, or that
// has none. A rollout whose first line is not written yet is passed over
// until it is; what a first line said is kept, since the folder asks
// again at each listing about every file it passed over.
func codexElsewhere(cwd string) func(path string) bool {
	here := map[string]bool{filepath.Clean(cwd): true}
	if real, err := filepath.EvalSymlinks(cwd); err == nil {
		here[real] = true
	}
	var mu sync.Mutex
	said := map[string]bool{} // by path: whether its session ran here
	return func(path string) bool {
		if codexIgnored(path) {
			return true
		}
		mu.Lock()
		defer mu.Unlock()
		if in, ok := said[path]; ok {
			return !in
		}
		dir, ok := codexCwd(path)
		if !ok {
			return true
		}
		in := dir != "" && here[filepath.Clean(dir)]
		said[path] = in
		return !in
	}
}

// codexChildren is ignore that also passes over the rollout of a subagent
// whose parent's rollout the globs find too: the parent's session shows
// the subagent's lines, under the call that spawned it. A subagent whose
// parent is not there is shown on its own. A rollout whose first line is
// not written yet is passed over until it is; what a first line said is
// kept.
func codexChildren(ignore func(path string) bool, globs []string) func(path string) bool {
	var mu sync.Mutex
	said := map[string]bool{} // by path: whether it is a child shown by its parent
	return func(path string) bool {
		if ignore(path) {
			return true
		}
		mu.Lock()
		defer mu.Unlock()
		if child, ok := said[path]; ok {
			return child
		}
		parent, ok := codexParent(path)
		if !ok {
			return true
		}
		child := parent != "" && codexHas(globs, parent, path)
		said[path] = child
		return child
	}
}

// codexHeadBytes is how much of a rollout's head is read to know its
// parent: session_meta names it before the instructions that make the
// line long.
const codexHeadBytes = 64 << 10

// codexParent is the thread that spawned the session of the rollout at
// path ("" for one nobody spawned); ok is unset while its first line is
// not written.
func codexParent(path string) (parent string, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	head := make([]byte, codexHeadBytes)
	n, _ := io.ReadFull(f, head)
	head = unzstdHead(head[:n])
	if bytes.IndexByte(head, '\n') < 0 && len(head) < codexHeadBytes {
		return "", false
	}
	return codex.ParentThread(head), true
}

// codexHas reports whether the globs find a rollout of thread other than
// the one at path.
func codexHas(globs []string, thread, path string) bool {
	for _, c := range thread {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-') {
			return false
		}
	}
	for _, g := range globs {
		base, ok := strings.CutSuffix(g, "rollout-*.jsonl*")
		if !ok {
			continue
		}
		found, _ := filepath.Glob(base + "rollout-*-" + thread + ".jsonl*")
		for _, p := range found {
			if p != path && !codexIgnored(p) {
				return true
			}
		}
	}
	return false
}

// maxCodexMeta is the most of a rollout read for its first line:
// session_meta carries the session's instructions, which run to tens of
// kilobytes.
const maxCodexMeta = 4 << 20

// codexCwd is the cwd a rollout's session_meta names, "" when its first
// line is another; ok is unset when no whole first line could be read.
func codexCwd(path string) (cwd string, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	in := bufio.NewReader(f)
	var r io.Reader = in
	if magic, _ := in.Peek(len(zstdMagic)); bytes.Equal(magic, zstdMagic) {
		d, err := zstd.NewReader(in, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return "", false
		}
		defer d.Close()
		r = d
	}
	line, err := bufio.NewReader(io.LimitReader(r, maxCodexMeta)).ReadBytes('\n')
	if err != nil {
		return "", false
	}
	var meta struct {
		Type    string `json:"type"`
		Payload struct {
			Cwd string `json:"cwd"`
		} `json:"payload"`
	}
	if json.Unmarshal(line, &meta) != nil || meta.Type != "session_meta" {
		return "", true
	}
	return meta.Payload.Cwd, true
}

// zstdMagic starts every zstd frame.
var zstdMagic = []byte{0x28, 0xB5, 0x2F, 0xFD}

// unzstdHead is a file's head as text: what can be decompressed of it when
// it is zstd (a compressed Codex rollout), else itself.
func unzstdHead(head []byte) []byte {
	if !bytes.HasPrefix(head, zstdMagic) {
		return head
	}
	d, err := zstd.NewReader(bytes.NewReader(head), zstd.WithDecoderConcurrency(1))
	if err != nil {
		return head
	}
	defer d.Close()
	out, _ := io.ReadAll(io.LimitReader(d, maxCodexMeta)) // a cut frame still gives its first blocks
	return out
}
