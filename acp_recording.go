package main

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// acpRecordingFile reads path when it is an ACP recording (as acp --record
// writes) and returns its records; ok is false for anything else, standard
// input and the demo.
func acpRecordingFile(path string) (recs []model.Record, ok bool, err error) {
	if path == "" || path == "-" {
		return nil, false, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, false, nil // the ordinary reader says what is wrong
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, false, nil
	}
	br := bufio.NewReaderSize(f, 64<<10)
	first, err := br.Peek(64 << 10)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, false, nil
	}
	if !sources.LooksLikeACPRecording(first) {
		return nil, false, nil
	}
	recs, err = sources.ReadACPRecording(br)
	if err != nil {
		return nil, false, &exitError{code: exitUnreadable, err: fmt.Errorf("%s: %w", path, err)}
	}
	return recs, true, nil
}
