package agui

import (
	"fmt"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/go-json-experiment/json/jsontext"
)

// ApplyPatch applies an RFC 6902 patch (a STATE_DELTA or ACTIVITY_DELTA) to
// doc atomically, as the reference client does: on any failure, a failed
// `test` included, doc is unchanged and the error says why; `add` does not
// create missing parents.
func ApplyPatch(doc, patch jsontext.Value) (out jsontext.Value, err error) {
	defer func() {
		// The patch library is not written for hostile input; a panic there
		// must not take the caller down.
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("patch could not be applied: %v", p)
		}
	}()
	p, err := jsonpatch.DecodePatch(patch)
	if err != nil {
		return nil, err
	}
	opts := jsonpatch.NewApplyOptions()
	opts.EnsurePathExistsOnAdd = false
	res, err := p.ApplyWithOptions(doc, opts)
	if err != nil {
		return nil, err
	}
	return jsontext.Value(res), nil
}

// CheckPatch returns the error ApplyPatch gives for patch whatever the
// document, when patch is not a JSON Patch it can apply (an unknown op, a
// path that is not a string…), and nil when it is one.
func CheckPatch(patch jsontext.Value) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("patch could not be applied: %v", p)
		}
	}()
	_, err = jsonpatch.DecodePatch(patch)
	return err
}
