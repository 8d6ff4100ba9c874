// Package agent is a scripted ACP v1 agent built on the agent side of
// github.com/coder/acp-go-sdk, for testing ACP clients without a model.
// Serve runs it on any reader and writer (io.Pipes in-process, stdio in the
// fixture-agent binary); the prompt's first word picks what it does:
//
//	all          every update kind, ten tool kinds, one permission (default)
//	permission   only the permission flow
//	fs PATH      fs/read_text_file PATH, outcome reported as a message
//	burst [N]    N updates as fast as possible (default 20000)
//	calls [N]    N tool calls, each with a message (default 5000)
//	slow         an update every 200 ms for about 10 s
//	crash        exit the process mid-turn (status 3)
//	refuse       stopReason refusal
//	huge N       one message of N bytes, on one JSON-RPC line
//
// Usage is the full description (the binary's --help); the package
// documentation of internal/testkit/acptest gives the exact update sequences.
package agent
