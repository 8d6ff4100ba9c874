package copilot_test

import (
	"github.com/agentwatch/agentwatch/internal/testkit/translaws"
	"testing"

	"github.com/agentwatch/agentwatch/protocol/copilot"
)

// FuzzTranslate feeds arbitrary bytes as a session file: the translation
// never panics, every record has an event, and the fold of what it makes
// breaks none of AG-UI's rules but where the input itself said nothing
// readable.
func FuzzTranslate(f *testing.F) {
	f.Add(readFixture(f))
	f.Add([]byte(`{"type":"tool.execution_complete","data":{"toolCallId":"x","success":false,"error":{"message":"no"}}}`))
	f.Add([]byte(`{"type":"subagent.started","agentId":"a","data":{"toolCallId":"t"}}` + "\n" +
		`{"type":"tool.execution_start","agentId":"b","data":{"toolCallId":"c","toolName":"bash","arguments":"{\"command\":\"ls\"}"}}` + "\n" +
		`{"type":"subagent.failed","agentId":"a","data":{"toolCallId":"t"}}` + "\n" + `{"type":"session.shutdown","data":{"shutdownType":"error"}}`))
	f.Add([]byte(`{"type":"user.message","id":"u","data":{"content":"hi"}}` + "\n" + `{"type":"abort","data":{"reason":"user_initiated"}}` + "\n" +
		`{"type":"assistant.message","agentId":"z","data":{"content":"x","toolRequests":[{"toolCallId":"q","name":"view"}]}}` + "\n" +
		`{"type":"tool.execution_complete","data":{"toolCallId":"q","success":true,"result":{"content":"a\n<exited with exit code 3>"}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		translaws.FoldsClean(t, translaws.Translate(copilot.New(), b))
	})
}
