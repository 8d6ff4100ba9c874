// Package jsonwords says what is wrong with a JSON value in words a person
// reading a problem row understands: "messageId is a number, want a
// string", never the decoder's Go types ("cannot unmarshal JSON number into
// Go string").
package jsonwords

import (
	"errors"
	"reflect"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Describe is err, an error of the JSON decoder, in words: where in the
// value it went wrong, what was there and what was wanted. Other errors
// keep their text, without a package prefix.
func Describe(err error) string {
	var sem *json.SemanticError
	if errors.As(err, &sem) && sem.GoType != nil {
		where := "the value"
		if p := string(sem.JSONPointer); p != "" {
			where = strings.TrimPrefix(p, "/")
		}
		want := wanted(sem.GoType)
		got := Kind(sem.JSONKind)
		switch {
		case want != "" && got != "":
			return where + " is " + got + ", want " + want
		case want != "":
			return where + " is not " + want
		}
		if sem.Err != nil {
			return where + ": " + strip(sem.Err.Error())
		}
		return where + " has the wrong type"
	}
	var syn *jsontext.SyntacticError
	if errors.As(err, &syn) {
		msg := strip(syn.Err.Error())
		if p := string(syn.JSONPointer); p != "" {
			msg += " (in " + strings.TrimPrefix(p, "/") + ")"
		}
		return msg
	}
	return strip(err.Error())
}

// strip drops the decoder's package prefixes.
func strip(s string) string {
	for _, p := range []string{"json: ", "jsontext: "} {
		s = strings.TrimPrefix(s, p)
	}
	return s
}

// wanted is what JSON a Go type takes, in words ("" when it takes any).
func wanted(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && t.Kind() == reflect.Slice {
			return "" // raw JSON or bytes: any value
		}
		return "an array"
	}
	return ""
}

// Kind is the kind of JSON value k starts, in words with its article ("an
// object", "a boolean", "null"), to say what a value is; "" for a kind that
// starts no value.
func Kind(k jsontext.Kind) string {
	switch n := Noun(k); n {
	case "", "null":
		return n
	case "object", "array":
		return "an " + n
	default:
		return "a " + n
	}
}

// Noun is the kind of JSON value k starts as a bare noun ("object",
// "boolean", "null"), for words such as "a JSON object"; "" for a kind that
// starts no value.
func Noun(k jsontext.Kind) string {
	switch k {
	case 'n':
		return "null"
	case 't', 'f':
		return "boolean"
	case '"':
		return "string"
	case '0':
		return "number"
	case '{':
		return "object"
	case '[':
		return "array"
	}
	return ""
}
