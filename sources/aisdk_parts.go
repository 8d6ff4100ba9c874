package sources

// Values inside UIMessage parts turned into AG-UI content: tool inputs and
// outputs, files and data URLs, sources and data parts.

import (
	"encoding/base64"
	"net/url"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/protocol/agui"
)

// argumentsText is a tool input as AG-UI argument text: its JSON, compact,
// or "" when the part has none (input still streaming).
func argumentsText(input jsontext.Value) string {
	if len(input) == 0 || input.Kind() == 'n' {
		return ""
	}
	v := input.Clone()
	if v.Compact() != nil {
		return string(input)
	}
	return string(v)
}

// outputItem is one entry of a tool output's content list, in MCP's shape
// ({type, text} / {type:"image", data, mimeType}) or the AI SDK's
// ({type:"media"|"image-data"|"file-data", data, mediaType}).
type outputItem struct {
	Type      string `json:"type"`
	Text      string `json:"text"`
	Data      string `json:"data"`
	MimeType  string `json:"mimeType"`
	MediaType string `json:"mediaType"`
}

// outputContent turns a tool output into a tool message's content: a
// string as it is; a content list — an MCP tool result {content:[…],
// isError?}, as MCP (dynamic) tools return, or the AI SDK's
// {type:"content", value:[…]} — as text and image parts, so screenshots
// reach the step; anything else as its JSON. errText is set when an MCP
// result says isError.
func outputContent(v jsontext.Value) (content agui.Content, errText string) {
	switch v.Kind() {
	case 0, 'n':
		return agui.TextContent(""), ""
	case '"':
		var s string
		_ = agui.UnmarshalValue(v, &s)
		return agui.TextContent(s), ""
	case '{':
		var out struct {
			Type    string         `json:"type"`
			Value   jsontext.Value `json:"value"`
			Content jsontext.Value `json:"content"`
			IsError bool           `json:"isError"`
		}
		if agui.UnmarshalValue(v, &out) == nil {
			list, isError := out.Content, out.IsError
			if out.Type == "content" {
				list, isError = out.Value, false
			}
			if parts, ok := contentParts(list); ok {
				c := agui.Content{Parts: parts, IsParts: true, Present: true}
				if isError {
					errText = strings.TrimSpace(c.String())
					if errText == "" {
						errText = "the tool reported an error"
					}
				}
				return c, errText
			}
		}
	}
	return agui.TextContent(argumentsText(v)), ""
}

// contentParts reads a content list; false when list is not an array of
// objects that each have a "type".
func contentParts(list jsontext.Value) ([]agui.ContentPart, bool) {
	if list.Kind() != '[' {
		return nil, false
	}
	var items []jsontext.Value
	if agui.UnmarshalValue(list, &items) != nil || len(items) == 0 {
		return nil, false
	}
	parts := make([]agui.ContentPart, 0, len(items))
	texts := 0
	for _, raw := range items {
		var typed struct {
			Type string `json:"type"`
		}
		if raw.Kind() != '{' || agui.UnmarshalValue(raw, &typed) != nil || typed.Type == "" {
			return nil, false
		}
		var it outputItem
		if agui.UnmarshalValue(raw, &it) != nil {
			it = outputItem{Type: typed.Type + "?"} // members of another shape: kept as JSON below
		}
		mime := it.MimeType
		if mime == "" {
			mime = it.MediaType
		}
		switch {
		case it.Type == "text":
			text := it.Text
			if texts > 0 {
				text = "\n" + text // text parts are shown joined
			}
			texts++
			parts = append(parts, agui.ContentPart{Type: "text", Text: text})
		case (it.Type == "image" || it.Type == "media" || it.Type == "image-data" || it.Type == "file-data") && it.Data != "":
			parts = append(parts, agui.ContentPart{Type: mediaPartType(mime), Source: &agui.PartSource{Type: "data", Value: it.Data, MimeType: mime}})
		default:
			text := argumentsText(raw)
			if texts > 0 {
				text = "\n" + text
			}
			texts++
			parts = append(parts, agui.ContentPart{Type: "text", Text: text})
		}
	}
	return parts, true
}

// mediaPartType is the AG-UI part type for a media type: image, audio,
// video, or document for anything else.
func mediaPartType(mediaType string) string {
	for _, t := range []string{"image", "audio", "video"} {
		if strings.HasPrefix(mediaType, t+"/") {
			return t
		}
	}
	return "document"
}

// filePart turns a file part into a content part: the file's bytes when its
// URL is a data: URL, else text naming the file and its URL, which is
// never fetched.
func filePart(p uiPart) agui.ContentPart {
	if mt, data, ok := dataURL(p.URL); ok {
		if p.MediaType != "" {
			mt = p.MediaType
		}
		return agui.ContentPart{Type: mediaPartType(mt), Source: &agui.PartSource{Type: "data", Value: data, MimeType: mt}}
	}
	label := "[file"
	if p.Filename != "" {
		label += " " + p.Filename
	}
	if p.MediaType != "" {
		label += " (" + p.MediaType + ")"
	}
	if p.URL != "" {
		label += ": " + p.URL
	}
	return agui.ContentPart{Type: "text", Text: label + "]"}
}

// dataURL splits a data: URL (RFC 2397) into its media type and its bytes
// as standard base64; false for any other URL or a broken one.
func dataURL(u string) (mediaType, b64 string, ok bool) {
	if len(u) < 5 || !strings.EqualFold(u[:5], "data:") {
		return "", "", false
	}
	head, data, found := strings.Cut(u[5:], ",")
	if !found {
		return "", "", false
	}
	params := strings.Split(head, ";")
	mediaType = strings.TrimSpace(params[0])
	if strings.EqualFold(strings.TrimSpace(params[len(params)-1]), "base64") {
		return mediaType, data, true
	}
	raw, err := url.PathUnescape(data)
	if err != nil {
		return "", "", false
	}
	return mediaType, base64.StdEncoding.EncodeToString([]byte(raw)), true
}

// sourceLine is a cited source as a line of text: its title and where it is.
func sourceLine(title, where string) string {
	title = strings.TrimSpace(title)
	switch {
	case title == "":
		return "Source: " + where
	case where == "":
		return "Source: " + title
	}
	return "Source: " + title + " — " + where
}

// activityContent is a data part's data as an activity message's content,
// which must be an object: the data itself, or {"value": data}.
func activityContent(data jsontext.Value) agui.Content {
	switch data.Kind() {
	case '{':
		return agui.Content{Object: data.Clone(), Present: true}
	case 0:
		return agui.Content{Object: jsontext.Value(`{}`), Present: true}
	}
	return agui.Content{Object: jsontext.Value(`{"value":` + argumentsText(data) + `}`), Present: true}
}
