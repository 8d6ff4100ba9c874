package app

import (
	"context"
	"fmt"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// FoldSource reads a whole source and folds it. A source that cannot be
// read is an InputError; problems in its content are diagnostics in the
// fold.
func FoldSource(opts *Options, src *Source) (*fold.Fold, error) {
	fo, err := opts.FoldOptions()
	if err != nil {
		return nil, err
	}
	if src.Kind == KindMessages || src.Kind == KindACPRecording {
		return foldRecords(fo, src.Records), nil
	}
	in, closeIn, err := src.Open(opts.Stdin)
	if err != nil {
		return nil, err
	}
	defer closeIn()
	f := fold.New(fo)
	// Reading and decoding run beside the fold (sources.Batches).
	batches, wait := sources.Batches(context.Background(), sources.NewReader(in), 512)
	for batch := range batches {
		// Records of another thread are reported as diagnostics by the fold.
		_, _ = f.Apply(batch...)
	}
	if err := wait(); err != nil {
		return nil, BadInput(fmt.Errorf("read %s: %w", src.Name(), err))
	}
	return f, nil
}

// foldRecords folds records read whole; problems are diagnostics in the fold.
func foldRecords(fo fold.Options, recs []model.Record) *fold.Fold {
	f := fold.New(fo)
	_, _ = f.Apply(recs...)
	return f
}
