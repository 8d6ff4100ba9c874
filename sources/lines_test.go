package sources

import (
	"fmt"
	"strings"
	"testing"
)

// TestLongLinesKeptApart reads JSON Lines events of different contents
// around the sizes where a line stops fitting the read buffer and where it
// stops being read into a reused buffer (keepBytes), big and small in
// turn, with an over-limit line between them and a line that ends the
// input without a newline. Every record is compared only after all are
// read: a line handed over without a copy must not be written by the next.
func TestLongLinesKeptApart(t *testing.T) {
	ev := func(n int, fill string) string {
		head := fmt.Sprintf(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m%d","delta":"`, n)
		return head + strings.Repeat(fill, (n-len(head)-2)/len(fill)+1) + `"}`
	}
	sizes := []int{
		bufferSize - 1, bufferSize, bufferSize + 1, 3*bufferSize + 5,
		keepBytes - 1, keepBytes, keepBytes + 1, 2*keepBytes + 3,
		100, 3*keepBytes + 7, bufferSize + 9, 2 * keepBytes, keepBytes / 2,
	}
	const limit = 4 << 20
	var in strings.Builder
	var want []string
	for i, n := range sizes {
		e := ev(n, string(rune('a'+i)))
		want = append(want, e)
		in.WriteString(e + "\r\n")
		if i == 6 {
			in.WriteString(ev(limit+bufferSize, "z") + "\n")
			want = append(want, "too big")
		}
	}
	last := ev(keepBytes+bufferSize, "q")
	in.WriteString(last)
	want = append(want, last)
	recs, _ := read(t, in.String(), FormatJSONL, limit)
	checkSeq(t, recs)
	if len(recs) != len(want) {
		t.Fatalf("%d records, want %d", len(recs), len(want))
	}
	for i, w := range want {
		got := show(recs[i])
		if w == "too big" {
			if !strings.Contains(got, "larger than 4 MiB; skipped") {
				t.Errorf("record %d: %.100s, want it skipped as too big", i, got)
			}
			continue
		}
		if got != w {
			t.Errorf("record %d (%d bytes): %.60s…%s, want %.60s…", i, len(w), got, got[max(0, len(got)-20):], w)
		}
	}
}

// TestLongSSEFramesKeptApart does the same for SSE frames of one data line
// and of two, whose event is their data joined by a newline.
func TestLongSSEFramesKeptApart(t *testing.T) {
	sizes := []int{bufferSize + 1, keepBytes + 1, 100, 2*keepBytes + 3, keepBytes - 9, 3 * keepBytes, 10}
	var in strings.Builder
	var want []string
	for i, n := range sizes {
		fill := strings.Repeat(string(rune('a'+i)), n)
		head := fmt.Sprintf(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m%d",`, i)
		body := `"delta":"` + fill + `"}`
		if i%2 == 0 {
			in.WriteString("data: " + head + body + "\n\n")
			want = append(want, head+body)
		} else {
			in.WriteString("data: " + head + "\ndata: " + body + "\n\n")
			want = append(want, head+"\n"+body)
		}
	}
	recs, _ := read(t, in.String(), FormatSSE, 8<<20)
	checkSeq(t, recs)
	if len(recs) != len(want) {
		t.Fatalf("%d records, want %d", len(recs), len(want))
	}
	for i, w := range want {
		if got := show(recs[i]); got != w {
			t.Errorf("record %d (%d bytes): %.60s…%s, want %.60s…", i, len(w), got, got[max(0, len(got)-20):], w)
		}
	}
}
