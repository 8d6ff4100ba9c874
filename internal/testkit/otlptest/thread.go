package otlptest

import (
	"testing"

	"github.com/agentwatch/agentwatch/fold"
)

// Thread is the one thread of ts that telemetry named id; it fails t,
// naming the threads there are, when there is none or more than one.
func Thread(t testing.TB, ts *fold.Threads, id string) *fold.Thread {
	t.Helper()
	if found := ts.Find(id); len(found) == 1 {
		return found[0]
	}
	var ids []string
	for _, th := range ts.List() {
		ids = append(ids, th.ID)
	}
	t.Fatalf("no one thread %q; threads %q", id, ids)
	return nil
}
