package otlp_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"testing"

	"go.opentelemetry.io/collector/pdata/plog"

	"github.com/agentwatch/agentwatch/internal/testkit/otlptest"
	"github.com/agentwatch/agentwatch/internal/words"
	"github.com/agentwatch/agentwatch/sources/otlp"
)

// aLogRequest is a logs request whose one record says text.
func aLogRequest(text string) otlp.Request {
	ld := plog.NewLogs()
	ld.ResourceLogs().AppendEmpty().ScopeLogs().AppendEmpty().LogRecords().AppendEmpty().Body().SetStr(text)
	return otlp.Request{Signal: otlp.SignalLogs, Logs: ld}
}

// A recording whose disk fills up ends after its last whole request, at
// every byte the disk may fill at: what was written of the request that
// did not fit is taken back, that write and every later one fail, and the
// error says what the file keeps.
func TestRecorderFullDisk(t *testing.T) {
	var lines [][]byte
	for i := range 3 {
		b, err := aLogRequest(fmt.Sprintf("request %d", i)).MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, append(b, '\n'))
	}
	all := bytes.Join(lines, nil)
	for room := range len(all) {
		disk := &otlptest.FullFile{Room: room}
		rec := otlp.NewRecorder("telemetry.jsonl", disk)
		kept, size := 0, 0
		var err error
		for i := range lines {
			if err = rec.Write(aLogRequest(fmt.Sprintf("request %d", i))); err != nil {
				break
			}
			kept, size = i+1, size+len(lines[i])
		}
		if err == nil || !errors.Is(err, syscall.ENOSPC) {
			t.Fatalf("room %d: error %v, want the disk full", room, err)
		}
		if want := fmt.Sprintf("keeps the %d requests written before, whole (%s bytes)", kept, words.Thousands(size)); kept != 1 && !strings.Contains(err.Error(), want) {
			t.Fatalf("room %d: error %q, want it to say %q", room, err, want)
		}
		if got := disk.Bytes(); !bytes.Equal(got, all[:size]) {
			t.Fatalf("room %d: the file holds %q, want the %d whole requests %q", room, got, kept, all[:size])
		}
		if rec.Kept() != kept {
			t.Fatalf("room %d: Kept %d, want %d", room, rec.Kept(), kept)
		}
		if err2 := rec.Write(aLogRequest("later")); err2 == nil {
			t.Fatalf("room %d: a write after the failure succeeded", room)
		}
		if got := disk.Bytes(); !bytes.Equal(got, all[:size]) {
			t.Fatalf("room %d: a write after the failure changed the file to %q", room, got)
		}
	}
}
