// Package acpconn connects agentwatch to an ACP agent: it spawns the agent
// in a process group of its own (and ends it, group and all, in bounded
// steps), speaks ACP v1 over its stdio through github.com/coder/acp-go-sdk,
// keeps every JSON-RPC line in both directions with its time (for the fold
// and for recordings), asks the screen about permissions, and serves the
// client's fs and terminal methods confined to the session folder (files
// opened through an os.Root of it).
package acpconn
