package app

import (
	"fmt"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/sources/otlp"
)

// otlpNote says what an OTLP file is, for titles and headers.
const otlpNote = "OpenTelemetry (OTLP/JSON) · agentwatch replay plays it at its recorded pace"

// readOTLP reads an OTLP/JSON file whole and maps it to records (see
// docs/OTEL.md); kinds are the user's --tool-kinds, which take over the
// builtin categories of Claude Code's and Codex's tools.
func readOTLP(path string, kinds fold.ToolKinds) ([]model.Record, error) {
	f, err := sources.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	file, err := otlp.Read(f, otelOptions(kinds))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return file.Records, nil
}

// withToolKinds reads an OTLP file again when --tool-kinds is given: its
// records were made when the file was identified, before the options
// were known.
func withToolKinds(opts *Options, src *Source) error {
	if src.Kind != KindOTLP || opts.ToolKinds == "" {
		return nil
	}
	fo, err := opts.FoldOptions()
	if err != nil {
		return err
	}
	recs, err := readOTLP(src.Arg, fo.ToolKinds)
	if err != nil {
		return BadInput(err)
	}
	src.Records = recs
	return nil
}
