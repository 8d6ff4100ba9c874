// Package claudegen writes a Claude Code configuration folder as a
// developer's looks after months of use: thousands of session files
// across dozens of projects, most of tens to hundreds of KB, a few of
// tens of MB, their lines shaped as Claude Code writes them (prompts,
// answers, tool calls and their results, bookkeeping), some with a title
// line near their end. It is what the benchmarks and tests of a big
// folder's thread list read.
package claudegen

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Options say what folder Write makes.
type Options struct {
	// Sessions and Projects: how many session files, spread over how many
	// projects.
	Sessions, Projects int
	// Big is how many sessions are of 5–20 MB; the rest are of 20–200 KB.
	Big int
	// Seed makes the folder; the same options write the same bytes.
	Seed int64
}

// Default is the folder the big-folder benchmarks read: 5,000 sessions
// across 50 projects, 8 of them of 5–20 MB.
var Default = Options{Sessions: 5000, Projects: 50, Big: 8, Seed: 1}

// Session is what Write wrote of one session: what its row in a thread
// list should say.
type Session struct {
	// Path is the session's file; ID its session id (the file's name).
	Path, ID string
	// Project is the folder the session ran in (its lines' cwd).
	Project string
	// Title is the title a thread list shows: the custom title, else the
	// AI title or summary, else the first prompt.
	Title string
	// Size is the file's size in bytes.
	Size int64
	// Last is the time of the session's last line that has one.
	Last time.Time
}

// Write makes a configuration folder in dir (dir/projects/<encoded
// cwd>/<id>.jsonl) and returns its sessions, in the order written.
func Write(dir string, o Options) ([]Session, error) { return generate(dir, o, true) }

// Sessions are the sessions Write(dir, o) writes, without writing them:
// what a folder written earlier holds.
func Sessions(dir string, o Options) []Session {
	out, _ := generate(dir, o, false)
	return out
}

func generate(dir string, o Options, write bool) ([]Session, error) {
	r := rand.New(rand.NewSource(o.Seed))
	projects := make([]string, max(o.Projects, 1))
	for i := range projects {
		projects[i] = fmt.Sprintf("/home/dev/work/project-%02d", i)
	}
	base := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	out := make([]Session, 0, o.Sessions)
	bigEvery := 0
	if o.Big > 0 {
		bigEvery = max(o.Sessions/o.Big, 1)
	}
	for i := 0; i < o.Sessions; i++ {
		cwd := projects[i%len(projects)]
		folder := filepath.Join(dir, "projects", encode(cwd))
		if write {
			if err := os.MkdirAll(folder, 0o755); err != nil {
				return nil, err
			}
		}
		size := 20<<10 + r.Intn(180<<10)
		if bigEvery > 0 && i%bigEvery == bigEvery/2 && i/bigEvery < o.Big {
			size = 5<<20 + r.Intn(15<<20)
		}
		id := fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", r.Uint32(), r.Intn(1<<16), r.Intn(1<<12), r.Intn(1<<12), r.Int63n(1<<48))
		s := Session{Path: filepath.Join(folder, id+".jsonl"), ID: id, Project: cwd}
		start := base.Add(time.Duration(i) * 17 * time.Minute)
		var w io.Writer = io.Discard
		var f *os.File
		if write {
			var err error
			if f, err = os.Create(s.Path); err != nil {
				return nil, err
			}
			w = f
		}
		err := writeSession(w, &s, r, start, size, i)
		if f != nil {
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// encode is the name Claude Code gives a project's folder.
func encode(path string) string {
	b := []byte(path)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			b[i] = '-'
		}
	}
	return string(b)
}

var words = strings.Fields("the test fails because the retry loop sleeps on a real clock so read the file and fix the handler then run the suite again with race detection and check the logs for the panic in the queue worker before the deploy")

// text is n bytes or so of words.
func text(r *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[r.Intn(len(words))])
	}
	return b.String()
}

// writeSession writes one session of about size bytes to f, starting at
// start, and notes its title, size and last time in s.
func writeSession(f io.Writer, s *Session, r *rand.Rand, start time.Time, size, n int) error {
	w := bufio.NewWriterSize(f, 256<<10)
	written := 0
	at := start
	put := func(v map[string]any) {
		b, _ := json.Marshal(v)
		written += len(b) + 1
		w.Write(b)
		w.WriteByte('\n')
	}
	common := func(typ, uuid, parent string) map[string]any {
		at = at.Add(time.Duration(500+r.Intn(4000)) * time.Millisecond)
		s.Last = at
		return map[string]any{"parentUuid": parent, "isSidechain": false, "userType": "external", "cwd": s.Project,
			"sessionId": s.ID, "version": "2.1.0", "gitBranch": "main", "entrypoint": "cli", "type": typ, "uuid": uuid,
			"timestamp": at.Format("2006-01-02T15:04:05.000Z")}
	}
	prompt := fmt.Sprintf("session %d: %s", n, text(r, 40+r.Intn(200)))
	s.Title = prompt
	put(map[string]any{"type": "file-history-snapshot", "messageId": "u0", "snapshot": map[string]any{"messageId": "u0", "trackedFileBackups": map[string]any{}, "timestamp": at.Format(time.RFC3339)}, "isSnapshotUpdate": false})
	parent := ""
	turn := 0
	for written < size {
		uuid := fmt.Sprintf("u%d", turn)
		l := common("user", uuid, parent)
		p := prompt
		if turn > 0 {
			p = text(r, 20+r.Intn(300))
		}
		l["message"] = map[string]any{"role": "user", "content": p}
		put(l)
		parent = uuid
		for k := 0; k < 1+r.Intn(6) && written < size; k++ {
			a := fmt.Sprintf("a%d-%d", turn, k)
			l := common("assistant", a, parent)
			call := fmt.Sprintf("toolu_%d_%d", turn, k)
			l["requestId"] = fmt.Sprintf("req_%d", turn)
			l["message"] = map[string]any{"id": fmt.Sprintf("msg_%d", turn), "type": "message", "role": "assistant", "model": "claude-sonnet-4-20250514",
				"content":     []any{map[string]any{"type": "tool_use", "id": call, "name": "Bash", "input": map[string]any{"command": "go test ./... -run " + text(r, 20), "description": "Run tests"}}},
				"stop_reason": "tool_use", "usage": map[string]any{"input_tokens": 10, "output_tokens": 5}}
			put(l)
			res := fmt.Sprintf("r%d-%d", turn, k)
			l = common("user", res, a)
			out := text(r, 200+r.Intn(3000))
			l["message"] = map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": call, "content": out}}}
			l["toolUseResult"] = map[string]any{"stdout": out, "stderr": "", "interrupted": false, "isImage": false}
			l["sourceToolAssistantUUID"] = a
			put(l)
			parent = res
		}
		a := fmt.Sprintf("a%d-end", turn)
		l = common("assistant", a, parent)
		l["requestId"] = fmt.Sprintf("req_%d", turn)
		l["message"] = map[string]any{"id": fmt.Sprintf("msg_%d_end", turn), "type": "message", "role": "assistant", "model": "claude-sonnet-4-20250514",
			"content": []any{map[string]any{"type": "text", "text": text(r, 100+r.Intn(800))}}, "stop_reason": "end_turn", "usage": map[string]any{"input_tokens": 10, "output_tokens": 5}}
		put(l)
		parent = a
		turn++
	}
	put(map[string]any{"type": "last-prompt", "lastPrompt": "again", "sessionId": s.ID})
	switch n % 5 {
	case 1:
		s.Title = fmt.Sprintf("Named session %d", n)
		put(map[string]any{"type": "custom-title", "customTitle": s.Title, "sessionId": s.ID})
		put(map[string]any{"type": "ai-title", "aiTitle": "not this one", "sessionId": s.ID})
	case 2:
		s.Title = fmt.Sprintf("Summary of session %d", n)
		put(map[string]any{"type": "summary", "summary": s.Title, "leafUuid": parent})
	}
	s.Size = int64(written)
	return w.Flush()
}
