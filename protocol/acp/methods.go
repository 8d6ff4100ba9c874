package acp

import (
	"github.com/go-json-experiment/json/jsontext"
)

// The methods of ACP v1 that agentwatch reads.
const (
	MethodInitialize        = "initialize"
	MethodAuthenticate      = "authenticate"
	MethodSessionNew        = "session/new"
	MethodSessionLoad       = "session/load"
	MethodSessionResume     = "session/resume"
	MethodSessionPrompt     = "session/prompt"
	MethodSessionSetMode    = "session/set_mode"
	MethodSessionCancel     = "session/cancel"
	MethodSessionUpdate     = "session/update"
	MethodRequestPermission = "session/request_permission"
	MethodReadTextFile      = "fs/read_text_file"
	MethodWriteTextFile     = "fs/write_text_file"
	MethodTerminalCreate    = "terminal/create"
	MethodTerminalOutput    = "terminal/output"
	MethodTerminalWait      = "terminal/wait_for_exit"
	MethodTerminalKill      = "terminal/kill"
	MethodTerminalRelease   = "terminal/release"
)

// TypeResponse is the EventType of every response.
const TypeResponse = "response"

// RequestBase is what every request carries: its id, its method and the
// direction it travelled (zero when not known).
type RequestBase struct {
	ID     ID
	Method string
	Dir    Direction
}

// EventType returns the request's method.
func (r *RequestBase) EventType() string { return r.Method }

// Req gives access to the id, method and direction of any request.
func (r *RequestBase) Req() *RequestBase { return r }

// Request is any decoded request (a message with a method and an id).
type Request interface {
	EventType() string
	Req() *RequestBase
}

// Initialize is the client's first request: the protocol version it
// speaks, what it can do, and who it is (kept as JSON).
type Initialize struct {
	RequestBase
	ProtocolVersion    jsontext.Value
	ClientCapabilities jsontext.Value
	ClientInfo         jsontext.Value
}

// NewSession asks the agent for a session working in Cwd.
type NewSession struct {
	RequestBase
	Cwd                   string
	AdditionalDirectories []string
}

// LoadSession asks the agent to replay session SessionID, then go on with it.
type LoadSession struct {
	RequestBase
	SessionID string
	Cwd       string
}

// Prompt is the user's turn: content blocks sent to the agent, answered
// with a stop reason when the turn ends.
type Prompt struct {
	RequestBase
	SessionID string
	Prompt    []ContentBlock
}

// SetMode asks the agent to switch the session to mode ModeID.
type SetMode struct {
	RequestBase
	SessionID string
	ModeID    string
}

// RequestPermission is the agent asking the user whether a tool call may go
// ahead; ToolCall may also update the call's fields.
type RequestPermission struct {
	RequestBase
	SessionID string
	ToolCall  ToolCallFields
	Options   []PermissionOption
}

// FSRequest is an agent's fs/read_text_file or fs/write_text_file: Path,
// the lines to read (Line 1-based and Limit, 0 for none) or the Content to write.
type FSRequest struct {
	RequestBase
	SessionID string
	Path      string
	Line      int
	Limit     int
	Content   string
}

// TerminalRequest is an agent's terminal/* request: create (Command, Args,
// Cwd), or output, wait_for_exit, kill, release of TerminalID.
type TerminalRequest struct {
	RequestBase
	SessionID  string
	TerminalID string
	Command    string
	Args       []string
	Cwd        string
}

// OtherRequest is a request of a method this package does not read; Params
// keeps its parameters.
type OtherRequest struct {
	RequestBase
	Params jsontext.Value
}

// Cancel is the client's session/cancel notification: stop the turn.
type Cancel struct {
	SessionID string
	Dir       Direction
}

// EventType returns "session/cancel".
func (*Cancel) EventType() string { return MethodSessionCancel }

// Notification is a notification of a method this package does not read
// (a session/update is decoded to its kind's type instead).
type Notification struct {
	Method string
	Dir    Direction
	Params jsontext.Value
}

// EventType returns the notification's method.
func (n *Notification) EventType() string { return n.Method }

// Response answers the request with the same ID, sent the opposite way:
// Result, or Error when the request failed.
type Response struct {
	ID     ID
	Dir    Direction
	Result jsontext.Value
	Error  *RPCError
}

// EventType returns "response".
func (*Response) EventType() string { return TypeResponse }

// Decode reads the result into v (see the *Result types) with the same
// tolerance as Decode.
func (r *Response) Decode(v any) error {
	if len(r.Result) == 0 {
		return nil
	}
	return unmarshal(r.Result, v)
}

// RPCError is a JSON-RPC error: a code (e.g. -32603, or ACP's -32000 auth
// required), a message and optional data.
type RPCError struct {
	Code    int64          `json:"code"`
	Message string         `json:"message"`
	Data    jsontext.Value `json:"data,omitzero"`
}

// Malformed is a message of a known method or update kind with a field of
// the wrong shape, or a JSON object that is not a JSON-RPC message at all
// (Type ""). The id is kept when there was one.
type Malformed struct {
	Type string
	ID   ID
	Dir  Direction
	Err  error
}

// EventType returns the method or update kind the message claimed.
func (m *Malformed) EventType() string { return m.Type }
