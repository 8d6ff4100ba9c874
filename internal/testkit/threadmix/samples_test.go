package main

import "testing"

// TestRenameThread: only the event's threadId and its input's change;
// every other byte, layout included, stays.
func TestRenameThread(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"one line", `{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`, `{"type":"RUN_FINISHED","threadId":"x.json","runId":"r"}`},
		{"input and layout",
			"{\"type\": \"RUN_STARTED\",\n  \"threadId\" : \"t\",\n  \"input\": {\"threadId\":\"t\", \"state\": {\"threadId\": \"t\"}}}",
			"{\"type\": \"RUN_STARTED\",\n  \"threadId\" : \"x.json\",\n  \"input\": {\"threadId\":\"x.json\", \"state\": {\"threadId\": \"t\"}}}"},
		{"elsewhere untouched", `{"threadId":"t","result":{"threadId":"t"},"input":[{"threadId":"t"}]}`, `{"threadId":"x.json","result":{"threadId":"t"},"input":[{"threadId":"t"}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := renameThread([]byte(tt.in), "x.json")
			if err != nil || string(got) != tt.want {
				t.Errorf("renameThread:\n  got  %s (%v)\n  want %s", got, err, tt.want)
			}
		})
	}
	for _, bad := range []string{`[1]`, `{"type":"RUN_STARTED","runId":"r"}`} {
		if _, err := renameThread([]byte(bad), "x"); err == nil {
			t.Errorf("renameThread(%s): no error", bad)
		}
	}
}
