package compact

import (
	"bufio"
	"bytes"
	"io"

	"github.com/agentwatch/agentwatch/model"
)

// Encode writes records as one JSON array, one event per line, each event's
// JSON as it is held (input events exactly as they were read, less a byte
// order mark and surrounding space).
func Encode(w io.Writer, recs []model.Record) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("[")
	for i := range recs {
		if i > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n")
		raw := bytes.TrimPrefix(bytes.TrimSpace(recs[i].Raw), []byte("\ufeff"))
		bw.Write(bytes.TrimSpace(raw))
	}
	if len(recs) > 0 {
		bw.WriteString("\n")
	}
	bw.WriteString("]\n")
	return bw.Flush()
}
