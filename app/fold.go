package app

import (
	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// foldRecords folds records read whole; problems are diagnostics in the fold.
func foldRecords(fo fold.Options, recs []model.Record) *fold.Fold {
	f := fold.New(fo)
	_, _ = f.Apply(recs...)
	return f
}
