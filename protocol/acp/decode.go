package acp

import (
	"bytes"
	"errors"
	"github.com/agentwatch/agentwatch/internal/jsonwords"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/model"
)

// decodeOptions tolerate what real peers write: a member given twice (the
// last wins, as in JavaScript) and invalid UTF-8 (replaced, not rejected).
var decodeOptions = json.JoinOptions(
	jsontext.AllowDuplicateNames(true),
	jsontext.AllowInvalidUTF8(true),
)

func unmarshal(b []byte, v any) error { return json.Unmarshal(b, v, decodeOptions) }

// Decode turns one JSON-RPC message into an event whose direction is not
// known (see DecodeDir). It never fails and never returns nil.
func Decode(raw []byte) model.Event { return DecodeDir(raw, "") }

// DecodeDir turns one JSON-RPC message that travelled in direction dir
// into an event: a session update of its kind's type (*UnknownUpdate for a
// kind ACP v1 does not define), a request or notification of its method's
// type, or a *Response. A message with a known method or kind whose fields
// have the wrong shape is *Malformed; input that is not a JSON object is
// *model.Unreadable.
func DecodeDir(raw []byte, dir Direction) model.Event {
	raw = bytes.TrimPrefix(raw, []byte("\ufeff"))
	if i := skipSpace(raw); i >= len(raw) || raw[i] != '{' {
		return &model.Unreadable{Reason: "not a JSON object", Offset: -1}
	}
	var env struct {
		ID     jsontext.Value `json:"id"`
		Method jsontext.Value `json:"method"`
		Params jsontext.Value `json:"params"`
		Result jsontext.Value `json:"result"`
		Error  jsontext.Value `json:"error"`
	}
	if err := unmarshal(raw, &env); err != nil {
		return &model.Unreadable{Reason: "not a JSON object: " + cleanErr(err), Offset: -1}
	}
	id := ID{}
	if len(env.ID) > 0 {
		id = NewID(env.ID)
	}
	if present(env.Method) {
		var method string
		if env.Method.Kind() != '"' || unmarshal(env.Method, &method) != nil {
			return &Malformed{ID: id, Dir: dir, Err: errors.New("\"method\" is not a string")}
		}
		params := env.Params
		if !present(params) {
			params = jsontext.Value("{}")
		}
		if params.Kind() != '{' {
			return &Malformed{Type: method, ID: id, Dir: dir, Err: errors.New("\"params\" is not an object")}
		}
		if !id.IsZero() {
			return decodeRequest(RequestBase{ID: id, Method: method, Dir: dir}, params)
		}
		return decodeNotification(method, dir, params)
	}
	if id.IsZero() {
		return &Malformed{Dir: dir, Err: errors.New("not a JSON-RPC message: no \"method\" and no \"id\"")}
	}
	r := &Response{ID: id, Dir: dir}
	if present(env.Error) {
		r.Error = new(RPCError)
		if err := unmarshal(env.Error, r.Error); err != nil {
			return &Malformed{Type: TypeResponse, ID: id, Dir: dir, Err: errors.New("\"error\": " + cleanErr(err))}
		}
		return r
	}
	if len(env.Result) == 0 {
		return &Malformed{Type: TypeResponse, ID: id, Dir: dir, Err: errors.New("a response needs \"result\" or \"error\"")}
	}
	r.Result = env.Result
	return r
}

// present reports whether a member was sent with a value other than null.
func present(v jsontext.Value) bool { return len(v) > 0 && v.Kind() != 'n' }

func decodeNotification(method string, dir Direction, params jsontext.Value) model.Event {
	switch method {
	case MethodSessionUpdate:
		return decodeUpdate(params)
	case MethodSessionCancel:
		var p struct {
			SessionID string `json:"sessionId"`
		}
		if err := unmarshal(params, &p); err != nil {
			return &Malformed{Type: method, Dir: dir, Err: errors.New(cleanErr(err))}
		}
		return &Cancel{SessionID: p.SessionID, Dir: dir}
	}
	return &Notification{Method: method, Dir: dir, Params: params}
}

// MethodDirection returns the direction a request of method travels:
// Recv for the methods an agent calls on its client, Send for the client's
// calls, zero for a method ACP v1 does not define.
func MethodDirection(method string) Direction {
	switch {
	case method == MethodRequestPermission, method == MethodSessionUpdate,
		strings.HasPrefix(method, "fs/"), strings.HasPrefix(method, "terminal/"),
		strings.HasPrefix(method, "elicitation/"):
		return Recv
	case method == MethodInitialize, method == MethodAuthenticate, method == "logout",
		strings.HasPrefix(method, "session/"):
		return Send
	}
	return ""
}

// cleanErr says what the JSON library found wrong in words a user reads
// (where, what was there, what was wanted), without its Go types.
func cleanErr(err error) string { return jsonwords.Describe(err) }

func skipSpace(b []byte) int {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}
