package agent

import (
	"strconv"

	acp "github.com/coder/acp-go-sdk"
)

// ListPageSize is how many sessions one session/list answer holds; more
// come with a nextCursor.
const ListPageSize = 50

// paginate cuts one page out of infos; the cursor is the decimal offset of
// the page's first entry.
func paginate(infos []acp.SessionInfo, cursor *string) ([]acp.SessionInfo, *string, error) {
	start := 0
	if cursor != nil && *cursor != "" {
		n, err := strconv.Atoi(*cursor)
		if err != nil || n < 0 || n > len(infos) {
			return nil, nil, acp.NewInvalidParams(map[string]any{"cursor": *cursor})
		}
		start = n
	}
	end := min(start+ListPageSize, len(infos))
	var next *string
	if end < len(infos) {
		next = acp.Ptr(strconv.Itoa(end))
	}
	return infos[start:end], next, nil
}
