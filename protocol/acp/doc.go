// Package acp holds the Agent Client Protocol v1 wire types agentwatch reads
// (JSON-RPC 2.0 requests, notifications and responses between a client and
// an agent, and every session/update kind) and decodes one message into one
// of them. It also defines the ACP recording line format (recording.go).
//
// Decoding dispatches on each message's own method and each update's own
// sessionUpdate string, never on which fields happen to be present: an
// update of a kind this package does not know becomes *UnknownUpdate with
// its raw JSON, a known one with a malformed field *Malformed, and input
// that is not a JSON object *model.Unreadable. Unknown members are ignored,
// null stands for absent, and request ids keep their exact JSON text.
//
// The package is pure: it knows the wire, not what the fold makes of it.
package acp
