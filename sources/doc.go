// Package sources reads the world into records: it turns AG-UI event logs
// (a JSON array, an {"events":[…]} object, JSON Lines or raw SSE text) into
// model.Record values, one per event, in the order they were written.
//
// Reading never gives up on bad content. A line that is not JSON, a value
// that is not an object, an event over the size limit or a cut-off tail
// becomes a record whose Event is *model.Unreadable, so the fold can show it
// as a diagnostic row; only real I/O errors end a Reader with an error.
package sources
