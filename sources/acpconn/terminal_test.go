package acpconn

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestTerminals(t *testing.T) {
	f, err := NewFolder(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ts := NewTerminals(f)
	defer ts.Close()
	id, err := ts.Create("sh", []string{"-c", "pwd; printf 'é%.0s' $(seq 40); exit 3"}, nil, "", 21)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := ts.WaitForExit(ctx, id)
	if err != nil || st.Code == nil || *st.Code != 3 {
		t.Fatalf("exit %+v, %v; want code 3", st, err)
	}
	out, trunc, _, err := ts.Output(id)
	if err != nil || !trunc || len(out) > 21 || strings.Contains(out, f.Root()) || !strings.HasPrefix(out, "é") {
		t.Fatalf("output %q truncated %v: want the newest ≤ 21 bytes, cut at a character", out, trunc)
	}
	id2, _ := ts.Create("pwd", nil, nil, "", 0)
	ts.WaitForExit(ctx, id2)
	if out, _, _, _ := ts.Output(id2); strings.TrimSpace(out) != f.Root() {
		t.Errorf("ran in %q, want the session folder %q", out, f.Root())
	}
	if _, err := ts.Create("pwd", nil, nil, "/tmp", 0); err == nil {
		t.Error("a cwd outside the folder was allowed")
	}
	long, _ := ts.Create("sleep", []string{"30"}, nil, "", 0)
	if err := ts.Kill(long); err != nil {
		t.Fatal(err)
	}
	if st, _ := ts.WaitForExit(ctx, long); st.Signal == nil {
		t.Errorf("killed terminal: %+v, want a signal", st)
	}
	if err := ts.Release(long); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := ts.Output(long); err == nil {
		t.Error("a released terminal still answers")
	}
}
