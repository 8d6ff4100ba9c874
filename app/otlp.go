package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/agentwatch/agentwatch/internal/words"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/otel"
	"github.com/agentwatch/agentwatch/sources/otlp"
)

// OTLPOptions are how agentwatch otlp listens and keeps what arrives.
type OTLPOptions struct {
	// HTTP and GRPC are the listen addresses ("" turns one off).
	HTTP, GRPC string
	// TokenFile holds the bearer token exporters must send; required for
	// an address that is not loopback.
	TokenFile string
	// Record is a file to keep the requests in, as OTLP/JSON lines ("" for none).
	Record string
	// MaxBody bounds a request (0: otlp.DefaultMaxBody).
	MaxBody int64
	// Ready, when set, is told the addresses once they listen (port 0
	// picks one): for tests, and for a caller that starts exporters.
	Ready func(httpAddr, grpcAddr string)
}

// otlpSource names the receiver's records' source.
const otlpSource = "otlp"

// ReceiveOTLP runs an OTLP receiver and shows what arrives, live, as the
// other live sources do: the screen, or lines with --plain. Each request
// is mapped as it comes (protocol/otel): a thread per conversation, a late
// span updating the step it belongs to. It runs until ctx ends.
func (a *App) ReceiveOTLP(ctx context.Context, o *OTLPOptions) (err error) {
	opts := a.Options
	fo, err := opts.FoldOptions()
	if err != nil {
		return err
	}
	token, err := readToken(o.TokenFile)
	if err != nil {
		return err
	}
	rcv, err := otlp.Listen(otlp.Options{HTTP: o.HTTP, GRPC: o.GRPC, Token: token, MaxBody: o.MaxBody})
	if err != nil {
		return BadInput(err)
	}
	var rec *otlp.Recorder
	if o.Record != "" {
		if rec, err = otlp.CreateRecorder(o.Record); err != nil {
			rcv.Close()
			return BadInput(err)
		}
	}
	rcv.Serve()
	defer rcv.Close()
	if o.Ready != nil {
		o.Ready(rcv.HTTPAddr(), rcv.GRPCAddr())
	}
	title := receiverTitle(rcv)
	if opts.Plain || !opts.screen() {
		fmt.Fprintf(opts.Stderr, "agentwatch: %s\n", title)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	topts := otelOptions(fo.ToolKinds)
	topts.MaxThreads = receiverThreads
	batches := make(chan model.Batch, 64)
	status := make(chan string, 4)
	recErr := make(chan error, 1)
	go func() {
		defer close(batches)
		recErr <- translateArrivals(ctx, cancel, rcv.Arrivals(), rec, otel.New(topts), batches)
	}()
	go reportCounts(ctx, rcv, status)
	// The watch must not hold its own --record: the receiver keeps OTLP.
	watchOpts := *opts
	watchOpts.Record = ""
	err = a.withOptions(&watchOpts).Watch(ctx, title, batches, status)
	cancel()
	rcv.Close()
	for range batches {
	}
	if opts.Plain || !opts.screen() {
		fmt.Fprintf(opts.Stderr, "agentwatch: %s\n", rcv.Counts())
	}
	if rerr := <-recErr; rerr != nil && err == nil {
		err = BadInput(rerr)
	}
	return err
}

// receiverThreads is how many threads the receiver opens: a sender names
// as many conversations as it likes, and each is a fold on the screen.
const receiverThreads = 10_000

// countsEvery is how often the receiver's counts are told to the screen.
const countsEvery = 250 * time.Millisecond

// reportCounts tells status what the receiver took and turned away, when
// it changes, until ctx ends; then it closes status.
func reportCounts(ctx context.Context, rcv *otlp.Receiver, status chan<- string) {
	defer close(status)
	said := "waiting for telemetry"
	status <- said
	tick := time.NewTicker(countsEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		c := rcv.Counts()
		if c == (otlp.Counts{}) {
			continue
		}
		if s := c.String(); s != said {
			select {
			case status <- s:
				said = s
			default:
			}
		}
	}
}

// translateArrivals maps each request as it arrives and sends its records
// on. With rec set, a request is kept in the recording first, and its
// exporter is answered success only once it is there; what the
// translator left out (a conversation past its threads) is answered as a
// partial success that rejects it. A recording that
// cannot be written answers that request with an error, stops the
// receiver (through stop) and is returned, saying what the file keeps:
// a recording asked for and cut silently is worse than none.
func translateArrivals(ctx context.Context, stop context.CancelFunc, in <-chan otlp.Arrival, rec *otlp.Recorder,
	tr *otel.Translator, out chan<- model.Batch) (err error) {
	if rec != nil {
		defer func() {
			if cerr := rec.Close(); err == nil {
				err = cerr
			}
		}()
	}
	for {
		var a otlp.Arrival
		var ok bool
		select {
		case a, ok = <-in:
		case <-ctx.Done():
			return nil
		}
		if !ok {
			return nil
		}
		if rec != nil {
			if err := rec.Write(a.Request); err != nil {
				a.Kept(err)
				stop()
				return err
			}
		}
		switch a.Signal {
		case otlp.SignalTraces:
			tr.AddTraces(a.Traces)
		case otlp.SignalLogs:
			tr.AddLogs(a.Logs)
		}
		before := tr.LeftOut()
		recs := tr.Flush()
		if n := tr.LeftOut() - before; n > 0 {
			a.KeptLeavingOut(n, fmt.Sprintf("agentwatch shows at most %s conversations; %s of new ones left out",
				words.Thousands(receiverThreads), words.Count(n, "span or log record", "spans or log records")))
		} else {
			a.Kept(nil)
		}
		if len(recs) == 0 {
			continue
		}
		select {
		case out <- model.Batch{Source: otlpSource, Records: recs}:
		case <-ctx.Done():
			return nil
		}
	}
}

// receiverTitle says where the receiver listens.
func receiverTitle(rcv *otlp.Receiver) string {
	var parts []string
	if a := rcv.HTTPAddr(); a != "" {
		parts = append(parts, "OTLP/HTTP http://"+a)
	}
	if a := rcv.GRPCAddr(); a != "" {
		parts = append(parts, "OTLP/gRPC "+a)
	}
	return "receiving " + strings.Join(parts, " and ")
}

// readToken reads the bearer token from its file ("" when none is named).
func readToken(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", BadInput(fmt.Errorf("--token-file: %w", err))
	}
	tok := strings.TrimSpace(string(b))
	if tok == "" {
		return "", BadInput(errors.New("--token-file " + path + ": the file is empty"))
	}
	return tok, nil
}
