package procmem

import (
	"os"
	"runtime"
	"testing"
)

// The peak of this process is at least what it holds now, and both are
// more than the megabytes it just touched.
func TestField(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc")
	}
	held := make([]byte, 64<<20)
	for i := range held {
		held[i] = 1
	}
	rss, err := Field("self", "VmRSS")
	if err != nil {
		t.Fatal(err)
	}
	peak, err := Field("self", "VmHWM")
	if err != nil {
		t.Fatal(err)
	}
	if rss < 64<<20 || peak < rss {
		t.Fatalf("VmRSS %d, VmHWM %d with 64 MiB held", rss, peak)
	}
	runtime.KeepAlive(held)
	if _, err := Field("self", "NoSuchField"); err == nil {
		t.Fatal("a field /proc does not have was found")
	}
}
