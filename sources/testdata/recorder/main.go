// Command recorder is a test helper for sources.Recorder: it records a run
// of n events to a file, slowly, so that a test can kill it mid-write. It
// prints the number of events written after every 100.
//
//	recorder FILE N DELAY
package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
	"github.com/agentwatch/agentwatch/sources"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: recorder FILE N DELAY")
		os.Exit(2)
	}
	n, err := strconv.Atoi(os.Args[2])
	if err != nil {
		fail(err)
	}
	delay, err := time.ParseDuration(os.Args[3])
	if err != nil {
		fail(err)
	}
	r, err := sources.CreateRecorder(os.Args[1], false)
	if err != nil {
		fail(err)
	}
	// Large events make a kill inside a write likely enough to matter.
	pad := strings.Repeat("x", 2000)
	for i := range n {
		var raw string
		switch i {
		case 0:
			raw = `{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`
		case 1:
			raw = `{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`
		default:
			raw = fmt.Sprintf(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"%d %s"}`, i, pad)
		}
		rec := model.Record{Seq: uint64(i + 1), Proto: model.ProtoAGUI, Raw: []byte(raw), Event: agui.Decode([]byte(raw))}
		if err := r.Write(rec); err != nil {
			fail(err)
		}
		if (i+1)%100 == 0 {
			fmt.Println(i + 1)
		}
		time.Sleep(delay)
	}
	if err := r.Close(); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
