package otel

import (
	"hash/fnv"
	"strconv"
)

// digest names an observation by what it says, for the ids of what it
// becomes (a message, a row, a call its telemetry names no id for): the
// same telemetry makes the same ids whatever came before it, and sent
// twice it is shown once.
func (o *observation) digest() string {
	h := fnv.New64a()
	for _, s := range []string{strconv.Itoa(int(o.kind)), o.place.id(), o.runKey, o.trace, o.span,
		strconv.FormatInt(o.start.UnixNano(), 36), strconv.FormatInt(o.end.UnixNano(), 36),
		o.name, o.text, o.inputUser, o.errText, o.args, o.result, o.decision} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return strconv.FormatUint(h.Sum64(), 16)
}

// fresh reports whether id was not shown in the thread yet, and notes it.
func (th *threadState) fresh(id string) bool {
	if _, ok := th.shown.get(id); ok {
		return false
	}
	th.shown.put(id, struct{}{})
	return true
}
