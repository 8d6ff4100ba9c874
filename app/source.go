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

// Source is an argument once agentwatch knows what it is, and what
// finding out learned: its head is read once, when it is identified, and
// whoever opens it asks the Source rather than the file again. Messages
// files and OTLP files are read whole when identified; event logs (ACP
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

	// Found is set when Arg named something when it was identified (a
	// file, a folder), Regular when that was a regular file, and Size is
	// its size then: a file's, or what a folder's regular files held
	// together.
	Found, Regular bool
	Size           int64
	// PerLine is set for an OTLP file of a request per line, which is
	// followed as it grows; one written out pretty is not.
	PerLine bool

	// shape is what the file's head said it is.
	shape shape
	// members are a folder's logs (Files) as their heads said, before
	// anything read them whole.
	members []*Source
	// verdicts are what the heads of a folder's files said of following
	// each as a log (logs and skipped files alike), handed to the folder's
	// follower so that it does not read them again.
	verdicts map[string]sources.Verdict
	// follow is the glob a folder is followed by, when it is not Arg's
	// files (Claude Code's sessions, one folder down); ignore says which of
	// its files are passed over without a word (sources.FolderOptions);
	// projects are the projects of its files, when they are Claude Code's
	// sessions or Codex's; also are more globs followed with follow.
	follow   string
	also     []string
	ignore   func(path string) bool
	projects *projectLabels
	// agents is where the state of each of its sessions is learnt, when
	// they are an agent's (agents.go); nil otherwise.
	agents *agentWatch
	// glance says the folder's sessions are listed from glances at their
	// heads and tails and folded only when opened (a screen's, bigfolder.go);
	// its files were not looked at when it was identified.
	glance bool
}

// followed is what a folder source is followed by: its glob, or Arg.
func (s *Source) followed() string {
	if s.follow != "" {
		return s.follow
	}
	return s.Arg
}

// maxMessagesFile is the largest file checked for being messages-only; such
// files are read whole (bigger logs are streamed as event logs).
const maxMessagesFile = 256 << 20

// Identify decides what arg is: the demo (""), standard input ("-"), a URL,
// a folder or glob of logs, a messages file, an OTLP file or an event
// log (AG-UI events, or an ACP recording). A file that holds
// messages but cannot be converted is an InputError naming the bad part; a
// file that does not exist is left for Open to report, the same way for
// every command. A file's head is read once, here: whoever opens the
// source asks the Source what it said.
func (a *App) Identify(arg string) (*Source, error) {
	return a.identify(arg, false)
}

// IdentifyFollowed is Identify for a source to be followed as it grows
// (tail): a file is not read whole when it is followed anyway (a file
// that may hold messages, an OTLP file of a request per line), so a file
// that would not convert is followed, not refused.
func (a *App) IdentifyFollowed(arg string) (*Source, error) {
	return a.identify(arg, true)
}

// identify is Identify, for a source to be followed or not.
func (a *App) identify(arg string, followed bool) (*Source, error) {
	switch {
	case arg == "":
		return &Source{Kind: KindDemo}, nil
	case arg == "-":
		return &Source{Kind: KindStdin, Arg: arg}, nil
	case strings.HasPrefix(arg, "http://") || strings.HasPrefix(arg, "https://"):
		return &Source{Kind: KindURL, Arg: arg}, nil
	}
	if st, err := os.Stat(arg); err == nil && st.IsDir() {
		return a.identifyFolder(arg, false)
	}
	if isGlob(arg) {
		return a.identifyFolder(arg, true)
	}
	return a.identifyFile(arg, followed)
}

// WholeFile reads a folder's file whole when it is a messages file or an
// OTLP file (which are not followed as they grow) and returns its records;
// ok is false for an event log (an ACP recording too), which is tailed.
func (a *App) WholeFile(path string) (recs []model.Record, ok bool) {
	src, err := a.identifyFile(path, false)
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

// Members are the logs of a folder (the files found when it was
// identified), as Identify makes a file: what their heads said then,
// read whole when they must be (messages and OTLP files). A file that
// cannot be identified (a messages file that does not convert) is
// skipped with its reason.
func (s *Source) Members() ([]*Source, []Skipped) {
	var out []*Source
	skipped := slices.Clone(s.Skipped)
	for _, m := range s.members {
		c := *m
		if err := c.readWhole(false); err != nil {
			skipped = append(skipped, Skipped{Path: c.Arg, Reason: err.Error()})
			continue
		}
		out = append(out, &c)
	}
	return out, skipped
}
