// Package agui holds the AG-UI 1.0 wire types (the 31 event types, the
// Message union, content parts, tool calls, run input, outcomes and usage)
// and decodes one JSON value into one of them.
//
// Decoding is tolerant the way real logs need: unknown fields are kept,
// unknown event types become *Unknown, null stands for absent in optional
// fields, timestamps may be floats or strings, and a malformed known field
// becomes *Malformed instead of an error. The legacy THINKING_* events decode
// to their own types; translating them and expanding *_CHUNK shorthand are
// stateful steps that belong to the fold.
//
// Messages (and their tool calls, content parts and part sources) keep the
// fields their role or kind defines, exactly as sent: a field present with
// an empty value ("", [], {}) is written back, an absent one is not, and one
// the role does not define is dropped, as the reference client's enforcement
// stage strips it (wire.go).
package agui
