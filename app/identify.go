package app

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/sources/otlp"
)

// shape is what a file's first bytes say it is, before anything reads it
// whole: a Source keeps it, so nothing reads the head again to ask.
type shape int

const (
	// shapeLog is an event log, an ACP recording among them (and a file
	// not read: not there, not regular).
	shapeLog shape = iota
	// shapeMessages may be a messages file: reading it whole tells.
	shapeMessages
	// shapeOTLP is OTLP/JSON written out pretty: one request for the file.
	shapeOTLP
	// shapeOTLPLines is OTLP/JSON of a request per line (the Collector's
	// file exporter), followed as it grows.
	shapeOTLPLines
)

// shapeOf decides from a file's first bytes.
func shapeOf(head []byte) shape {
	switch {
	case otlp.LooksLikeOTLP(head) && otlp.PerLine(head):
		return shapeOTLPLines
	case otlp.LooksLikeOTLP(head):
		return shapeOTLP
	case sources.LooksLikeACPRecording(head) || !mayBeWhole(head):
		return shapeLog
	}
	return shapeMessages
}

// headBytes is how much of a file identification reads.
const headBytes = 64 << 10

// look stats path and, when it is a regular file with something in it
// and read is set, reads its first headBytes: the one read of a file's
// head that identifying it makes.
func (a *App) look(path string, read bool) sources.Look {
	var l sources.Look
	l.Info, l.Err = os.Stat(path)
	if l.Err == nil && read && l.Info.Mode().IsRegular() && l.Info.Size() > 0 {
		l.Head, l.Err = a.readHead(path)
	}
	return l
}

// readHead returns the first headBytes of the file at path (less when it
// is shorter), opened through a.openHead.
func (a *App) readHead(path string) ([]byte, error) {
	f, err := a.openHead(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, headBytes)
	n, err := io.ReadFull(f, b)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, err
	}
	return b[:n], nil
}

// identifyFile decides what the file at path is: a messages file, an OTLP
// file or (by default, and for a path that does not exist yet) an event
// log, which an ACP recording is too. Its head is read once, here. A file
// to be followed (tail) is not read whole when it is followed anyway: one
// that may hold messages stays an event log (Source.resolveMessages reads
// it when it must know), and an OTLP file of a request per line has no
// records.
func (a *App) identifyFile(path string, followed bool) (*Source, error) {
	src := looked(path, a.look(path, true))
	if err := src.readWhole(followed); err != nil {
		return nil, err
	}
	return src, nil
}

// looked is what a look at the file at path says it is, before anything
// reads it whole.
func looked(path string, l sources.Look) *Source {
	src := &Source{Kind: KindEventLog, Arg: path, Found: l.Info != nil}
	if l.Info != nil {
		src.Size, src.Regular = l.Info.Size(), l.Info.Mode().IsRegular()
	}
	if l.Err != nil || !src.Regular {
		return src // Open says what is wrong
	}
	src.shape = shapeOf(l.Head)
	switch src.shape {
	case shapeOTLPLines:
		src.Kind, src.PerLine = KindOTLP, true
	case shapeOTLP:
		src.Kind = KindOTLP
	}
	return src
}

// readWhole reads what a source looked at must be read whole to be known:
// an OTLP file's records, and whether a file that may hold messages does.
// A followed source leaves what it follows anyway (see identifyFile).
func (s *Source) readWhole(followed bool) error {
	switch {
	case s.Kind == KindOTLP && (!s.PerLine || !followed):
		recs, err := readOTLP(s.Arg, nil)
		if err != nil {
			return BadInput(err)
		}
		s.Records = recs
	case s.shape == shapeMessages && !followed:
		return s.resolveMessages()
	}
	return nil
}

// resolveMessages reads a file whose head says it may hold messages whole,
// and makes it a messages file when it is one; a file that holds messages
// but cannot be converted is an InputError naming the bad part. Any other
// source is left as it is.
func (s *Source) resolveMessages() error {
	if s.Kind != KindEventLog || s.shape != shapeMessages || s.Size > maxMessagesFile {
		return nil
	}
	s.shape = shapeLog // asked once
	b, err := os.ReadFile(s.Arg)
	if err != nil {
		return BadInput(err)
	}
	recs, format, ok, err := sources.DetectMessages(b)
	if err != nil {
		return BadInput(fmt.Errorf("%s: %w", s.Arg, err))
	}
	if ok {
		s.Kind, s.Records, s.Format = KindMessages, recs, format
	}
	return nil
}

// mayBeWhole tells from a file's first bytes whether it may be a messages
// file, which is read whole; an ordinary event log (most files, and the
// big ones) is then not read twice. A messages file names
// MESSAGES_SNAPSHOT or has a first message with "role" and "parts" well
// within the head.
func mayBeWhole(head []byte) bool {
	return bytes.Contains(head, []byte("MESSAGES_SNAPSHOT")) ||
		(bytes.Contains(head, []byte(`"role"`)) && bytes.Contains(head, []byte(`"parts"`)))
}

// identifyFolder lists the logs of a folder, or of a glob pattern, each
// looked at once: what it is, or why it is skipped. A Claude Code projects
// folder is its projects' sessions, one folder down, and a folder in it is
// one project's sessions (claude.go); in any folder, a Claude Code
// session's own folder, beside its file, is passed over without a word.
func (a *App) identifyFolder(arg string, pattern bool) (*Source, error) {
	if !pattern && isClaudeProjects(arg) {
		return a.identifyListed(arg, globEscape(filepath.Clean(arg))+string(filepath.Separator)+"*"+string(filepath.Separator)+"*.jsonl")
	}
	if !pattern && isClaudeProjects(filepath.Dir(filepath.Clean(arg))) {
		return a.claudeProject(filepath.Clean(arg))
	}
	if !pattern {
		if src, ok, err := a.agentFolder(arg); ok {
			return src, err
		}
	}
	var paths []string
	if pattern {
		var err error
		if paths, err = filepath.Glob(arg); err != nil {
			return nil, BadInput(fmt.Errorf("%s: %w", arg, err))
		}
	} else {
		entries, err := os.ReadDir(arg)
		if err != nil {
			return nil, BadInput(fmt.Errorf("open %s: %s", arg, errCause(err)))
		}
		for _, e := range entries {
			paths = append(paths, filepath.Join(arg, e.Name()))
		}
	}
	src := &Source{Kind: KindFolder, Arg: arg, Pattern: pattern, Found: true, ignore: sessionOwnFolder}
	a.lookAll(src, paths)
	return src, nil
}

// identifyListed is a set of Claude Code session files, named by a glob,
// as one folder named arg: every file the glob names but a subagent's is a
// session, and a thread of its project (projectLabels).
func (a *App) identifyListed(arg, glob string) (*Source, error) {
	paths, err := filepath.Glob(glob)
	if err != nil {
		return nil, BadInput(fmt.Errorf("%s: %w", glob, err))
	}
	paths = slices.DeleteFunc(paths, claudeIgnored)
	src := &Source{Kind: KindFolder, Arg: arg, Found: true, follow: glob, ignore: claudeIgnored, projects: newProjectLabels()}
	if a.glancing() {
		listGlanced(src, paths)
		return src, nil
	}
	a.lookAll(src, paths)
	return src, nil
}

// lookAll looks at each file of a folder once: a log becomes one of its
// members, anything else is skipped with its reason.
func (a *App) lookAll(src *Source, paths []string) {
	src.verdicts = make(map[string]sources.Verdict, len(paths))
	slices.Sort(paths)
	for _, p := range paths {
		hidden := strings.HasPrefix(filepath.Base(p), ".")
		l := a.look(p, !hidden)
		if l.Info != nil && l.Info.IsDir() && src.ignore != nil && src.ignore(p) {
			continue
		}
		if l.Info != nil && l.Info.Mode().IsRegular() {
			src.Size += l.Info.Size()
		}
		v := l.Verdict(p)
		src.verdicts[p] = v
		if why := v.NotALog(); why != "" {
			src.Skipped = append(src.Skipped, Skipped{Path: p, Reason: why})
			continue
		}
		src.projects.learn(p, l.Head)
		src.Files = append(src.Files, p)
		src.members = append(src.members, looked(p, l))
	}
}
