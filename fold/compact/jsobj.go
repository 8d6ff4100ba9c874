package compact

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// lenient reads what real producers write: a member given twice, invalid UTF-8.
var lenient = json.JoinOptions(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))

// object is a JSON object's members in order, as JavaScript's JSON.parse keeps
// them: a name given twice keeps its first place and takes its last value.
type object struct {
	names  []string
	values map[string]jsontext.Value
}

// parseObject reads raw as an object; false when it is not one.
func parseObject(raw []byte) (*object, bool) {
	d := jsontext.NewDecoder(bytes.NewReader(raw), lenient)
	tok, err := d.ReadToken()
	if err != nil || tok.Kind() != '{' {
		return nil, false
	}
	o := &object{values: map[string]jsontext.Value{}}
	for d.PeekKind() != '}' {
		tok, err := d.ReadToken()
		if err != nil {
			return nil, false
		}
		name := tok.String() // the token is void after the next read
		v, err := d.ReadValue()
		if err != nil {
			return nil, false
		}
		o.set(name, v.Clone())
	}
	return o, true
}

// get returns the member's value; nil when there is none (JavaScript's undefined).
func (o *object) get(name string) jsontext.Value {
	if o == nil {
		return nil
	}
	return o.values[name]
}

// set replaces a member where it stands, or appends it.
func (o *object) set(name string, v jsontext.Value) {
	if _, ok := o.values[name]; !ok {
		o.names = append(o.names, name)
	}
	o.values[name] = v
}

// del removes a member.
func (o *object) del(name string) {
	if _, ok := o.values[name]; !ok {
		return
	}
	delete(o.values, name)
	for i, n := range o.names {
		if n == name {
			o.names = append(o.names[:i:i], o.names[i+1:]...)
			break
		}
	}
}

// encode writes the object on one line, members in order.
func (o *object) encode() jsontext.Value {
	b := []byte{'{'}
	for i, n := range o.names {
		if i > 0 {
			b = append(b, ',')
		}
		b, _ = jsontext.AppendQuote(b, n)
		b = append(b, ':')
		v := o.values[n].Clone()
		_ = v.Compact()
		b = append(b, v...)
	}
	return append(b, '}')
}

// member returns one member of raw (nil when raw is no object or lacks it).
func member(raw []byte, name string) jsontext.Value {
	o, _ := parseObject(raw)
	return o.get(name)
}

// quote encodes s as a JSON string.
func quote(s string) jsontext.Value {
	b, _ := jsontext.AppendQuote(nil, s)
	return b
}

// spread is JavaScript's object spread `{...v}` of a parsed JSON value: an
// object's members, an array's or a string's elements under their indices,
// nothing for null, numbers and booleans.
func spread(v jsontext.Value) *object {
	o := &object{values: map[string]jsontext.Value{}}
	switch v.Kind() {
	case '{':
		if p, ok := parseObject(v); ok {
			return p
		}
	case '[':
		d := jsontext.NewDecoder(bytes.NewReader(v), lenient)
		if _, err := d.ReadToken(); err != nil {
			return o
		}
		for i := 0; d.PeekKind() != ']'; i++ {
			e, err := d.ReadValue()
			if err != nil {
				return o
			}
			o.set(strconv.Itoa(i), e.Clone())
		}
	case '"':
		for i, u := range utf16.Encode([]rune(unquote(v))) {
			o.set(strconv.Itoa(i), codeUnit(u))
		}
	}
	return o
}

// codeUnit is one UTF-16 code unit as a JSON string; a lone surrogate is
// escaped as JSON.stringify does.
func codeUnit(u uint16) jsontext.Value {
	if utf16.IsSurrogate(rune(u)) {
		return jsontext.Value(`"\u` + strconv.FormatUint(uint64(u), 16) + `"`)
	}
	return quote(string(rune(u)))
}

// unquote returns a JSON string's text ("" for anything else).
func unquote(v jsontext.Value) string {
	if v.Kind() != '"' {
		return ""
	}
	d := jsontext.NewDecoder(bytes.NewReader(v), lenient)
	tok, err := d.ReadToken()
	if err != nil {
		return ""
	}
	return tok.String()
}

// mergeMetadata is the reference mergeMetadata on parsed JSON: incoming
// absent keeps existing as it is; otherwise `{...existing, ...incoming}`.
// nil stands for JavaScript's undefined.
func mergeMetadata(existing, incoming jsontext.Value) jsontext.Value {
	if incoming == nil {
		return existing
	}
	if existing == nil {
		return spread(incoming).encode()
	}
	o := spread(existing)
	in := spread(incoming)
	for _, n := range in.names {
		o.set(n, in.values[n])
	}
	return o.encode()
}

// jsString is JavaScript's String(v) as Array.prototype.join applies it:
// undefined and null become "", arrays join their elements with commas.
func jsString(v jsontext.Value) string {
	switch v.Kind() {
	case 0, 'n':
		return ""
	case '"':
		return unquote(v)
	case 't':
		return "true"
	case 'f':
		return "false"
	case '0':
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil {
			return string(v)
		}
		if f == float64(int64(f)) && f < 1e21 && f > -1e21 {
			return strconv.FormatFloat(f, 'f', -1, 64)
		}
		return strconv.FormatFloat(f, 'g', -1, 64)
	case '[':
		d := jsontext.NewDecoder(bytes.NewReader(v), lenient)
		if _, err := d.ReadToken(); err != nil {
			return ""
		}
		var parts []string
		for d.PeekKind() != ']' {
			e, err := d.ReadValue()
			if err != nil {
				break
			}
			parts = append(parts, jsString(e))
		}
		return strings.Join(parts, ",")
	}
	return "[object Object]"
}

// idKey is how a JavaScript Map tells ids apart: strings by their text,
// anything else by its JSON, undefined on its own.
func idKey(v jsontext.Value) string {
	switch v.Kind() {
	case 0:
		return "u"
	case '"':
		return "s" + unquote(v)
	}
	c := v.Clone()
	_ = c.Compact()
	return "j" + string(c)
}
