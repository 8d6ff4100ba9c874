package app

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/agentwatch/agentwatch/assets"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/sources/otlp"
)

// Kind says what a source is, and so how it is read and shown.
type Kind int

// The kinds of source agentwatch opens.
const (
	// KindDemo is the embedded demo recording (no argument).
	KindDemo Kind = iota
	// KindStdin is standard input ("-"): an event stream that may never end.
	KindStdin
	// KindEventLog is an event log file: AG-UI events in any format the
	// reader takes, or an ACP session as agentwatch acp --record keeps it
	// (sources.FormatACPRecording). Either is read as it goes.
	KindEventLog
	// KindMessages is a file that holds only messages: an AI SDK
	// UIMessage[] file or an AG-UI MESSAGES_SNAPSHOT log.
	KindMessages
	// KindURL is an AG-UI endpoint, for connect.
	KindURL
	// KindFolder is a folder of logs, or a glob pattern naming logs: each
	// file is a source of its own, of one or more threads.
	KindFolder
	// KindOTLP is a file of OpenTelemetry export requests (OTLP/JSON, one
	// per line or one for the file), read whole (app/otlp_file.go).
	KindOTLP
)

// String names the kind for messages.
func (k Kind) String() string {
	switch k {
	case KindDemo:
		return "the embedded demo"
	case KindStdin:
		return "standard input"
	case KindEventLog:
		return "event log"
	case KindMessages:
		return "messages file"
	case KindURL:
		return "URL"
	case KindFolder:
		return "folder"
	case KindOTLP:
		return "OTLP file"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Source is an argument once agentwatch knows what it is. Messages files
// and OTLP files are read whole when identified; event logs (ACP
// recordings too) are read by whoever opens them, as they go.
type Source struct {
	Kind Kind
	// Arg is the argument as given ("" for the demo, "-" for stdin).
	Arg string
	// Records are a messages file's or an OTLP file's records.
	Records []model.Record
	// Format names a messages file's format.
	Format sources.MessagesFormat
	// Files are a folder's logs when it was identified, in name order, and
	// Skipped what it holds that is not opened; Pattern is set for a glob.
	Files   []string
	Skipped []Skipped
	Pattern bool
}

// maxMessagesFile is the largest file checked for being messages-only; such
// files are read whole (bigger logs are streamed as event logs).
const maxMessagesFile = 256 << 20

// Identify decides what arg is: the demo (""), standard input ("-"), a URL,
// a folder or glob of logs, a messages file, an OTLP file or an event
// log (AG-UI events, or an ACP recording). A file that holds
// messages but cannot be converted is an InputError naming the bad part; a
// file that does not exist is left for Open to report, the same way for
// every command.
func Identify(arg string) (*Source, error) {
	switch {
	case arg == "":
		return &Source{Kind: KindDemo}, nil
	case arg == "-":
		return &Source{Kind: KindStdin, Arg: arg}, nil
	case strings.HasPrefix(arg, "http://") || strings.HasPrefix(arg, "https://"):
		return &Source{Kind: KindURL, Arg: arg}, nil
	}
	if st, err := os.Stat(arg); err == nil && st.IsDir() {
		files, skipped, err := listFolder(arg)
		if err != nil {
			return nil, BadInput(fmt.Errorf("open %s: %s", arg, errCause(err)))
		}
		return &Source{Kind: KindFolder, Arg: arg, Files: files, Skipped: skipped}, nil
	}
	if isGlob(arg) {
		files, skipped, err := listGlob(arg)
		if err != nil {
			return nil, BadInput(err)
		}
		return &Source{Kind: KindFolder, Arg: arg, Files: files, Skipped: skipped, Pattern: true}, nil
	}
	return identifyFile(arg)
}

// identifyFile decides what the file at path is: a messages file, an OTLP
// file or (by default, and for a path that does not exist yet) an event
// log, which an ACP recording is too.
func identifyFile(arg string) (*Source, error) {
	src := &Source{Kind: KindEventLog, Arg: arg}
	st, err := os.Stat(arg)
	if err != nil || !st.Mode().IsRegular() {
		return src, nil
	}
	head, err := readHead(arg)
	if err != nil {
		return src, nil // Open says what is wrong
	}
	if otlp.LooksLikeOTLP(head) {
		return identifyOTLP(src)
	}
	if sources.LooksLikeACPRecording(head) || !mayBeWhole(head) {
		return src, nil
	}
	if st.Size() <= maxMessagesFile {
		b, err := os.ReadFile(arg)
		if err != nil {
			return nil, BadInput(err)
		}
		recs, format, ok, err := sources.DetectMessages(b)
		if err != nil {
			return nil, BadInput(fmt.Errorf("%s: %w", arg, err))
		}
		if ok {
			src.Kind, src.Records, src.Format = KindMessages, recs, format
			return src, nil
		}
	}
	return src, nil
}

// headBytes is how much of a file mayBeWhole looks at.
const headBytes = 64 << 10

// readHead returns the first headBytes of the file at path (less when it is
// shorter).
func readHead(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, headBytes)
	n, err := io.ReadFull(f, b)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, err
	}
	return b[:n], nil
}

// mayBeWhole tells from a file's first bytes whether it may be a messages
// file, which is read whole; an ordinary event log (most files, and the
// big ones) is then not read twice. A messages file names
// MESSAGES_SNAPSHOT or has a first message with "role" and "parts" well
// within the head.
func mayBeWhole(head []byte) bool {
	return bytes.Contains(head, []byte("MESSAGES_SNAPSHOT")) ||
		(bytes.Contains(head, []byte(`"role"`)) && bytes.Contains(head, []byte(`"parts"`)))
}

// WholeFile reads a folder's file whole when it is a messages file or an
// OTLP file (which are not followed as they grow) and returns its records;
// ok is false for an event log (an ACP recording too), which is tailed.
func WholeFile(path string) (recs []model.Record, ok bool) {
	src, err := identifyFile(path)
	if err != nil || (src.Kind != KindMessages && src.Kind != KindOTLP) {
		return nil, false
	}
	return src.Records, true
}

// Name is the source as a person calls it, for titles and messages; a
// URL's password or token is not shown (sources.RedactURL).
func (s *Source) Name() string {
	switch s.Kind {
	case KindDemo:
		return "the embedded demo"
	case KindStdin:
		return "standard input"
	case KindURL:
		return sources.RedactURL(s.Arg)
	}
	return s.Arg
}

// Open opens an event log, standard input or the demo for reading; close
// it when done. Errors are InputErrors that name the file.
func (s *Source) Open(stdin io.Reader) (io.Reader, func(), error) {
	switch s.Kind {
	case KindDemo:
		return bytes.NewReader(assets.Demo), func() {}, nil
	case KindStdin:
		return stdin, func() {}, nil
	case KindURL:
		return nil, nil, BadInput(fmt.Errorf("%s is a URL: agentwatch connect %s runs the agent there", s.Name(), s.Name()))
	case KindFolder:
		return nil, nil, BadInput(fmt.Errorf("%s is a folder of logs: open one of its files", s.Arg))
	}
	f, err := sources.Open(s.Arg)
	if err != nil {
		return nil, nil, BadInput(err)
	}
	return f, func() { f.Close() }, nil
}

// Members identifies each log of a folder (the files found when it was
// identified). A file that cannot be identified (a messages file that does
// not convert) is skipped with its reason.
func (s *Source) Members() ([]*Source, []Skipped) {
	var out []*Source
	skipped := slices.Clone(s.Skipped)
	for _, p := range s.Files {
		m, err := identifyFile(p)
		if err != nil {
			skipped = append(skipped, Skipped{Path: p, Reason: err.Error()})
			continue
		}
		out = append(out, m)
	}
	return out, skipped
}
