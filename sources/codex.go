package sources

import (
	"bufio"
	"bytes"

	"github.com/klauspost/compress/zstd"
)

// LooksLikeCodexRollout tells from a file's first line that it is a Codex
// rollout: an object whose "type" is "session_meta" beside a "timestamp"
// (a rollout's every line is {"timestamp", "type", "payload"}, and its
// first describes the session). The line may be cut short: the members
// before the cut decide.
func LooksLikeCodexRollout(first []byte) bool {
	d := firstObject(first)
	if d == nil {
		return false
	}
	stamped, meta := false, false
	for !(stamped && meta) {
		tok, err := d.ReadToken()
		if err != nil || tok.Kind() != '"' {
			return false
		}
		switch tok.String() {
		case "timestamp":
			stamped = d.PeekKind() == '"'
		case "type":
			v, err := d.ReadToken()
			if err != nil || v.Kind() != '"' || v.String() != "session_meta" {
				return false
			}
			meta = true
			continue
		}
		if d.SkipValue() != nil {
			return false
		}
	}
	return true
}

// zstdMagic starts every zstd frame. Codex compresses a rollout idle for
// days into rollout-*.jsonl.zst, and a reader that skipped those would
// skip the older sessions.
var zstdMagic = []byte{0x28, 0xB5, 0x2F, 0xFD}

// unzstd returns a reader of the decompressed input when in starts with a
// zstd frame, and in itself otherwise. A frame that does not decode ends
// the input with the decoder's error.
func unzstd(in *bufio.Reader) *bufio.Reader {
	if head, _ := in.Peek(len(zstdMagic)); !bytes.Equal(head, zstdMagic) {
		return in
	}
	d, err := zstd.NewReader(in, zstd.WithDecoderConcurrency(1))
	if err != nil {
		return in
	}
	return bufio.NewReaderSize(d.IOReadCloser(), bufferSize)
}
