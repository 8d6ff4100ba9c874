package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

// Store keeps sessions for `session/list` and `session/load`: always in
// memory, and also as one JSON file per session when it has a directory.
// It is safe for concurrent use by several connections.
type Store struct {
	dir      string
	mu       sync.Mutex
	sessions map[acp.SessionId]*session
}

// NewStore returns a store that also writes `<dir>/<sessionId>.json`; an
// empty dir keeps sessions in memory only.
func NewStore(dir string) *Store {
	return &Store{dir: dir, sessions: map[acp.SessionId]*session{}}
}

// storedSession is the file form of a session.
type storedSession struct {
	SessionID acp.SessionId     `json:"sessionId"`
	Cwd       string            `json:"cwd"`
	Title     string            `json:"title,omitempty"`
	UpdatedAt time.Time         `json:"updatedAt"`
	Mode      acp.SessionModeId `json:"mode"`
	History   []json.RawMessage `json:"history"`
}

var errNoSession = errors.New("no such session")

func (st *Store) add(s *session) {
	st.mu.Lock()
	st.sessions[s.id] = s
	st.mu.Unlock()
}

// get finds a session in memory or, failing that, in the directory.
func (st *Store) get(id acp.SessionId) (*session, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if s, ok := st.sessions[id]; ok {
		return s, nil
	}
	if st.dir == "" || !validID(id) {
		return nil, errNoSession
	}
	s, err := st.read(filepath.Join(st.dir, string(id)+".json"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, errNoSession
	}
	if err != nil {
		return nil, err
	}
	st.sessions[id] = s
	return s, nil
}

// validID keeps a client-chosen id from naming a file outside the store.
func validID(id acp.SessionId) bool {
	return id != "" && !strings.ContainsAny(string(id), `/\`) && !strings.HasPrefix(string(id), ".")
}

func (st *Store) read(path string) (*session, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f storedSession
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("read session %s: %w", path, err)
	}
	return &session{id: f.SessionID, cwd: f.Cwd, title: f.Title, updatedAt: f.UpdatedAt, mode: f.Mode, history: f.History}, nil
}

// save writes the session's file; without a directory it does nothing.
func (st *Store) save(s *session) error {
	if st.dir == "" {
		return nil
	}
	s.mu.Lock()
	b, err := json.Marshal(storedSession{SessionID: s.id, Cwd: s.cwd, Title: s.title, UpdatedAt: s.updatedAt, Mode: s.mode, History: s.history})
	s.mu.Unlock()
	if err != nil {
		return fmt.Errorf("save session %s: %w", s.id, err)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	path := filepath.Join(st.dir, string(s.id)+".json")
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return fmt.Errorf("save session %s: %w", s.id, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("save session %s: %w", s.id, err)
	}
	return nil
}

// list returns every known session in cwd (all of them if cwd is empty),
// most recently updated first.
func (st *Store) list(cwd string) ([]acp.SessionInfo, error) {
	st.mu.Lock()
	if st.dir != "" {
		entries, err := os.ReadDir(st.dir)
		if err != nil {
			st.mu.Unlock()
			return nil, fmt.Errorf("list sessions in %s: %w", st.dir, err)
		}
		for _, e := range entries {
			id := acp.SessionId(strings.TrimSuffix(e.Name(), ".json"))
			if !strings.HasSuffix(e.Name(), ".json") || st.sessions[id] != nil {
				continue
			}
			s, err := st.read(filepath.Join(st.dir, e.Name()))
			if err != nil {
				continue // a file being written by another process
			}
			st.sessions[id] = s
		}
	}
	all := make([]*session, 0, len(st.sessions))
	for _, s := range st.sessions {
		all = append(all, s)
	}
	st.mu.Unlock()

	infos := make([]acp.SessionInfo, 0, len(all))
	for _, s := range all {
		in := s.info()
		if cwd == "" || in.Cwd == cwd {
			infos = append(infos, in)
		}
	}
	sort.Slice(infos, func(i, j int) bool {
		if *infos[i].UpdatedAt != *infos[j].UpdatedAt {
			return *infos[i].UpdatedAt > *infos[j].UpdatedAt
		}
		return infos[i].SessionId < infos[j].SessionId
	})
	return infos, nil
}
