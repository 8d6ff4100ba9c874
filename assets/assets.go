// Package assets holds what agentwatch embeds: the demo recording.
package assets

import _ "embed"

// Demo is the AG-UI event log agentwatch shows when started without a file.
//
//go:embed demo.jsonl
var Demo []byte
