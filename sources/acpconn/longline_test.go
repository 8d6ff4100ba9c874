package acpconn

import (
	"strings"
	"testing"
	"time"
)

// A line from the agent longer than the SDK reads (11 MiB here) ends the
// session with an error that says so, not with an error the agent never
// sent; the agent is stopped, and what came before the line is kept.
func TestLineTooLongSaysWhatHappened(t *testing.T) {
	t.Parallel()
	s := start(t, Options{})
	if stop, err := s.conn.Prompt(ctx10(t), "refuse"); err != nil || stop != "refusal" {
		t.Fatalf("first turn: %q, %v", stop, err)
	}
	_, err := s.conn.Prompt(ctx10(t), "huge 11534336")
	if err == nil {
		t.Fatal("a turn with an 11 MiB line ended well; the SDK reads no line of 10 MiB or more")
	}
	msg := err.Error()
	if strings.Contains(msg, "answered error") || strings.Contains(msg, "-32603") || !strings.Contains(msg, "10 MiB") {
		t.Fatalf("error %q: want one saying the agent sent a message of 10 MiB or more", msg)
	}
	select {
	case <-s.conn.Done():
	case <-time.After(20 * time.Second):
		t.Fatal("the session did not end after the line it could not read")
	}
	if err := s.conn.ExitErr(); err == nil || !strings.Contains(err.Error(), "10 MiB") {
		t.Errorf("ExitErr %v: want the reason the session ended", err)
	}
	if !strings.Contains(s.wire(), `"stopReason":"refusal"`) {
		t.Error("the lines before the long one were not kept")
	}
}
