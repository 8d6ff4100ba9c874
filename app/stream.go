package app

import (
	"context"
	"fmt"
	"os"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/tui"
	"github.com/agentwatch/agentwatch/window"
)

// Stream is a source opened once for a server that shows it to many
// viewers: the batches it sends and how it is doing, in the words of the
// title bar. Whoever opens it must read both channels to their end.
type Stream struct {
	// Name is the source as a person calls it: a path, a URL, "standard input".
	Name string
	// Batches closes when the source ends; a followed file or folder
	// ends only with the context it was opened with.
	Batches <-chan model.Batch
	// Status closes when the source has nothing more to say.
	Status <-chan string
}

// OpenStream starts reading src until ctx ends, as the screen would show
// it: an event log or a folder is followed as tail follows it (a file not
// there yet is waited for), standard input and a URL (run once, with co)
// are read as they arrive, and a messages file is one batch, for review;
// an ACP recording is an event log. An OTLP file of a request per line is followed
// too, each line mapped as it comes (liveOTLP); one written out pretty is
// one batch. The demo is not a stream: OpenRecording plays it.
func (a *App) OpenStream(ctx context.Context, src *Source, co sources.ConnectOptions) (*Stream, error) {
	opts := a.Options
	st := &Stream{Name: src.Name()}
	switch src.Kind {
	case KindDemo:
		return nil, BadInput(fmt.Errorf("the embedded demo is replayed, not followed"))
	case KindEventLog:
		batches, events := sources.TailBatches(ctx, src.Arg, sources.TailOptions{})
		st.Batches, st.Status = liveOTLP(ctx, opts, batches), tailStatuses(events)
	case KindOTLP:
		if src.PerLine {
			batches, events := sources.TailBatches(ctx, src.Arg, sources.TailOptions{})
			st.Batches, st.Status = liveOTLP(ctx, opts, batches), tailStatuses(events)
			break
		}
		if err := withToolKinds(opts, src); err != nil {
			return nil, err
		}
		st.Batches, st.Status = wholeStream(src)
	case KindFolder:
		batches, events := sources.FollowFolder(ctx, src.followed(), a.folderOptions(src))
		st.Batches, st.Status = liveOTLP(ctx, opts, batches), folderStatus(events, nil)
	case KindMessages:
		st.Batches, st.Status = wholeStream(src)
	case KindStdin:
		batches, _ := sources.Batches(ctx, sources.NewReader(opts.Stdin), 512)
		st.Batches = liveOTLP(ctx, opts, oneSource(ctx, src.Name(), batches))
	case KindURL:
		r, closeBody, err := sources.Connect(ctx, src.Arg, co)
		if err != nil {
			return nil, BadInput(fmt.Errorf("connect %s: %w", src.Name(), err))
		}
		st.Batches, st.Status = connected(ctx, src.Name(), r, closeBody)
	default:
		return nil, BadInput(fmt.Errorf("%s: cannot be followed", src.Name()))
	}
	return st, nil
}

// wholeStream is a source read whole as one batch, for review: a
// messages file, an OTLP file written out pretty.
func wholeStream(src *Source) (<-chan model.Batch, <-chan string) {
	batches := make(chan model.Batch, 1)
	batches <- model.Batch{Source: src.Name(), Records: src.Records}
	close(batches)
	status := make(chan string, 1)
	status <- messagesNote(src)
	close(status)
	return batches, status
}

// connected reads an agent's event stream until it ends, saying in the
// status whether it ended or the connection was lost.
func connected(ctx context.Context, url string, r *sources.Reader, closeBody func() error) (<-chan model.Batch, <-chan string) {
	batches, wait := sources.Batches(ctx, r, 512)
	status := make(chan string, 2)
	out := make(chan model.Batch, streamRoom)
	go func() {
		defer closeBody()
		defer close(out)
		defer close(status)
		for b := range batches {
			select {
			case out <- model.Batch{Source: url, Records: b}:
			case <-ctx.Done():
				return
			}
		}
		if err := wait(); err != nil {
			status <- "connection lost: " + err.Error()
		}
	}()
	return out, status
}

// LiveScreen is one viewer's screen of live batches: threads of its own,
// folded from what arrives on batches (which name their sources), a shed
// step read back from its source when that is a file.
func (a *App) LiveScreen(title string, batches <-chan model.Batch) (*tui.App, error) {
	opts := a.Options
	if err := opts.CheckLayout(); err != nil {
		return nil, err
	}
	fo, err := opts.FoldOptions()
	if err != nil {
		return nil, err
	}
	file := func(source string) string {
		if st, err := os.Stat(source); err == nil && st.Mode().IsRegular() {
			return source
		}
		return ""
	}
	// A server's viewers keep no archive of what their windows let go:
	// each would keep a copy of the same log's text (tui.AppOptions).
	return tui.NewThreadsApp(fold.NewThreads(fo), batches, tui.AppOptions{Layout: opts.Layout, Images: opts.Images, Title: title, Filter: opts.Filter,
		Window: window.Options{Reader: a.fileReaders(file)}, ArchiveBudget: -1}), nil
}
