package sources

import (
	"bytes"
	"fmt"
	"io"
	"testing"
)

// benchEvents is how many events the read benchmarks generate.
const benchEvents = 100_000

// genLog returns benchEvents TEXT_MESSAGE_CONTENT events of about 120 bytes
// each, as JSON Lines and as a JSON array.
func genLog() (jsonl, array []byte) {
	var l, a bytes.Buffer
	a.WriteString("[\n")
	for i := range benchEvents {
		ev := fmt.Sprintf(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"msg_8f3a2c","delta":"token %06d of the answer","timestamp":%d}`,
			i, 1760000000000+int64(i)*7)
		l.WriteString(ev)
		l.WriteByte('\n')
		if i > 0 {
			a.WriteString(",\n")
		}
		a.WriteString(ev)
	}
	a.WriteString("\n]\n")
	return l.Bytes(), a.Bytes()
}

func BenchmarkReadJSONL(b *testing.B) {
	jsonl, _ := genLog()
	benchRead(b, jsonl)
}

func BenchmarkReadJSONArray(b *testing.B) {
	_, array := genLog()
	benchRead(b, array)
}

// benchRead measures a whole Next (reading plus agui.Decode) and the
// reading alone (the format's reader, which is this package's cost).
func benchRead(b *testing.B, data []byte) {
	b.Run("Next", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		n := 0
		for b.Loop() {
			r := NewReader(bytes.NewReader(data))
			for {
				if _, err := r.Next(); err == io.EOF {
					break
				} else if err != nil {
					b.Fatal(err)
				}
				n++
			}
		}
		report(b, n)
	})
	b.Run("read", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		n := 0
		for b.Loop() {
			r := NewReader(bytes.NewReader(data))
			if err := r.start(); err != nil {
				b.Fatal(err)
			}
			for {
				it, err := r.events.next()
				if err == io.EOF {
					break
				} else if err != nil || it.bad != nil {
					b.Fatal(err, it.bad)
				}
				n++
			}
		}
		report(b, n)
	})
}

func report(b *testing.B, n int) {
	if n != benchEvents*b.N {
		b.Fatalf("read %d events, want %d", n, benchEvents*b.N)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/event")
}
