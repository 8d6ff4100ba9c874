package fold

import (
	"testing"

	"github.com/go-json-experiment/json"
)

// Codes shared with another fold stay each fold's own as both add to
// them, full chunks are shared rather than copied, and JSON gives the
// same codes back.
func TestCodeChunksShared(t *testing.T) {
	var c codeChunks
	for i := range codeChunk + 904 {
		c.append(uint16(i % 7))
	}
	s := c.share()
	for range 10 {
		c.append(100)
		s.append(200)
	}
	for i := range codeChunk + 904 {
		if c.at(i) != uint16(i%7) || s.at(i) != uint16(i%7) {
			t.Fatalf("code %d: %d and %d, want %d", i, c.at(i), s.at(i), i%7)
		}
	}
	for i := codeChunk + 904; i < c.len(); i++ {
		if c.at(i) != 100 || s.at(i) != 200 {
			t.Fatalf("code %d added after sharing: %d and %d, want 100 and 200", i, c.at(i), s.at(i))
		}
	}
	if &c.chunks[0][0] != &s.chunks[0][0] {
		t.Error("a full chunk was copied")
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var back codeChunks
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.len() != c.len() {
		t.Fatalf("%d codes back from JSON, want %d", back.len(), c.len())
	}
	for i := range c.len() {
		if back.at(i) != c.at(i) {
			t.Fatalf("code %d back from JSON is %d, want %d", i, back.at(i), c.at(i))
		}
	}
}
