package loggen

import (
	"fmt"
	"os"
	"path/filepath"
)

// ThreadFiles returns the threads GenerateThreads writes for n, threads
// and seed as an agent keeping one append-only log per thread writes them:
// one JSON Lines log per threadId, holding exactly that thread's events of
// GenerateThreads' log, in the same order and the same bytes.
func ThreadFiles(n, threads int, seed int64) map[string][]byte {
	g := generateThreads(n, threads, seed)
	files := map[string][]byte{}
	for _, s := range g.spans {
		files[s.thread] = append(files[s.thread], g.out[s.lo:s.hi]...)
	}
	return files
}

// WriteThreadFolder writes ThreadFiles(n, threads, seed) into dir, one file
// per thread named <threadId>.jsonl, creating dir if need be: the folder an
// agent that logs each thread to its own file leaves behind.
func WriteThreadFolder(dir string, n, threads int, seed int64) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("thread folder: %w", err)
	}
	for id, log := range ThreadFiles(n, threads, seed) {
		if err := os.WriteFile(filepath.Join(dir, id+".jsonl"), log, 0o644); err != nil {
			return fmt.Errorf("thread folder: %w", err)
		}
	}
	return nil
}
