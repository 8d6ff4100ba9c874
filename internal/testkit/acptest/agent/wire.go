package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"
)

// wire is the writer the SDK's connection writes to. It exists for two
// things the SDK's typed API cannot do:
//
//   - send a notification the SDK has no type for (an unknown
//     `sessionUpdate` kind, an explicit `"oldText":null`, a replayed
//     history line byte for byte), and
//   - run code right after a given response went out (history replayed
//     after the `session/load` response, `available_commands_update` after
//     the `session/new` response).
//
// The SDK marshals each message and hands it to Write in a single call
// (`Connection.sendMessage`, under its own write mutex), so a mutex here
// around each Write keeps whole lines intact when raw lines are mixed in.
// Everything sent from one goroutine, through the SDK or raw, reaches the
// peer in call order because both paths write synchronously.
type wire struct {
	mu    sync.Mutex
	w     io.Writer
	hooks []responseHook
}

// responseHook runs fn once a response line containing token was written.
type responseHook struct {
	token []byte
	fn    func()
}

func newWire(w io.Writer) *wire { return &wire{w: w} }

// Write writes one JSON-RPC line and fires the hooks it satisfies. Hooks
// start on their own goroutine: the SDK still holds its write mutex here.
func (w *wire) Write(p []byte) (int, error) {
	w.mu.Lock()
	n, err := w.w.Write(p)
	var fire []func()
	if err == nil && len(w.hooks) > 0 && bytes.Contains(p, []byte(`"result":`)) {
		kept := w.hooks[:0]
		for _, h := range w.hooks {
			if bytes.Contains(p, h.token) {
				fire = append(fire, h.fn)
			} else {
				kept = append(kept, h)
			}
		}
		w.hooks = kept
	}
	w.mu.Unlock()
	for _, fn := range fire {
		go fn()
	}
	return n, err
}

// afterResponse runs fn after the response carrying token in its result
// has been written.
func (w *wire) afterResponse(token string, fn func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	quoted, _ := json.Marshal(token)
	w.hooks = append(w.hooks, responseHook{token: quoted, fn: fn})
}

// notifyRaw writes a JSON-RPC notification whose params the SDK never sees.
func (w *wire) notifyRaw(method string, params any) error {
	b, err := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params"`
	}{"2.0", method, params})
	if err != nil {
		return fmt.Errorf("marshal raw %s: %w", method, err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
