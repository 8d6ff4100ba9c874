package otlp

import (
	"hash/maphash"
	"sync"
)

// maxRemembered is how many requests a Receiver remembers to know one
// sent again: an exporter retries within seconds, and a request is 16
// bytes here.
const maxRemembered = 4096

// remembered are the requests taken lately, by a hash of their signal,
// encoding and bytes (seeded at random, so a sender cannot make two
// requests collide on purpose). A request sent again once taken (an
// exporter's retry of a request whose answer it lost) is answered as
// taken and not handed on: mapped a second time, a late copy would take
// its run up again, an empty run on the screen.
type remembered struct {
	seed  maphash.Seed
	mu    sync.Mutex
	seen  map[uint64]struct{}
	order []uint64
}

func newRemembered() *remembered {
	return &remembered{seed: maphash.MakeSeed(), seen: map[uint64]struct{}{}}
}

// key is what names a request: its signal, its encoding and its bytes.
func (m *remembered) key(sig Signal, asJSON bool, body []byte) uint64 {
	var h maphash.Hash
	h.SetSeed(m.seed)
	h.WriteByte(byte(sig))
	if asJSON {
		h.WriteByte('j')
	}
	h.Write(body)
	return h.Sum64()
}

// has reports whether the request of key was taken.
func (m *remembered) has(key uint64) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.seen[key]
	return ok
}

// add remembers a request taken, forgetting the oldest past maxRemembered.
func (m *remembered) add(key uint64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.seen[key]; ok {
		return
	}
	m.seen[key] = struct{}{}
	m.order = append(m.order, key)
	if len(m.order) > maxRemembered {
		delete(m.seen, m.order[0])
		m.order = m.order[1:]
	}
}
