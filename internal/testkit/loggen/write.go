package loggen

import "strconv"

// begin opens an event of type typ; finish closes it.
func (g *gen) begin(typ string) {
	g.out = append(g.out, `{"type":"`...)
	g.out = append(g.out, typ...)
	g.out = append(g.out, '"')
}

func (g *gen) key(name string) {
	g.out = append(g.out, ',', '"')
	g.out = append(g.out, name...)
	g.out = append(g.out, '"', ':')
}

func (g *gen) str(name, value string) {
	g.key(name)
	g.out = appendString(g.out, value)
}

// finish writes the timestamp, gapMs after the previous event's, and ends
// the line. Inside a run it sends a STATE_DELTA when one is due.
func (g *gen) finish(gapMs int) {
	g.ts += int64(gapMs)
	g.key("timestamp")
	g.out = strconv.AppendInt(g.out, g.ts, 10)
	g.out = append(g.out, '}', '\n')
	g.n++
	if g.inState {
		g.sinceDelta++
		if g.sinceDelta >= g.deltaEvery {
			g.stateDelta()
		}
	}
}

// gap is a random delay in [lo, hi] milliseconds.
func (g *gen) gap(lo, hi int) int { return lo + g.rng.IntN(hi-lo+1) }

// appendString appends s as a JSON string. Non-ASCII text is written as is
// (valid UTF-8), as JavaScript producers write it.
func appendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\r':
			dst = append(dst, '\\', 'r')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
