//go:build unix

package acpconn

import (
	"context"
	"testing"
	"time"
)

// A terminal whose command started its own child is killed whole: the
// child dies with it and the terminal reports its end at once, rather than
// when the child (which held the output open) chose to end.
func TestTerminalKillEndsItsChildren(t *testing.T) {
	t.Parallel()
	f, err := NewFolder(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ts := NewTerminals(f)
	defer ts.Close()
	id, err := ts.Create("sh", []string{"-c", "sleep 60 & echo started; wait"}, nil, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if out, _, _, _ := ts.Output(id); out == "started\n" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the command never started")
		}
	}
	if err := ts.Kill(id); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st, err := ts.WaitForExit(ctx, id)
	if err != nil {
		t.Fatalf("the killed terminal did not end within 5 s (its child holds it open): %v", err)
	}
	if st.Signal == nil {
		t.Errorf("killed terminal: %+v, want a signal", st)
	}
}
