package agui

import (
	"errors"
	"fmt"
	"strings"

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
	if err := aliasing(p); err != nil {
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

// errAliasing is the error of a patch with a move or copy the patch
// library would carry out by putting a container inside itself.
var errAliasing = errors.New("patch could not be applied: a move or copy through an empty key is not applied")

// aliasing refuses the patches the library cannot apply safely: it takes
// an empty key ("/", "/a//b") as the container itself, so a move or copy
// through one can put a container inside itself, and the next operation
// to copy or encode it recurses until the stack is gone, a fault no
// recover catches (a four-line log did it). Such keys are what no agent
// writes.
func aliasing(p jsonpatch.Patch) error {
	for _, o := range p {
		if k := o.Kind(); k != "move" && k != "copy" {
			continue
		}
		for _, get := range []func() (string, error){o.Path, o.From} {
			if ref, err := get(); err == nil && EmptyKey(ref) {
				return errAliasing
			}
		}
	}
	return nil
}

// EmptyKey reports whether the JSON Pointer ref names an empty key
// anywhere on its way ("/", "/a//b", "/a/"): a move or copy through one
// is refused, whatever its other operations (ApplyPatch).
func EmptyKey(ref string) bool { return strings.Contains(ref+"/", "//") }
