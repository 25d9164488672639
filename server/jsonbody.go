package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
)

// checkJSONBody refuses, with 400, a JSON request body that names a key twice in one
// object: a decoder keeps the last value silently, so {"value": "a", "value": "b"}
// would mean what the client may not have meant. The body (already bounded by
// limitBody) is read once and handed on. A body that is not valid JSON is left to the
// operation, which names what is wrong with it.
func checkJSONBody(w http.ResponseWriter, r *http.Request) bool {
	if r.Body == nil || r.Body == http.NoBody || !strings.HasPrefix(r.URL.Path, "/v1/") {
		return true
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return true
	}
	body, err := io.ReadAll(r.Body)
	r.Body.Close()
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeProblem(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body is larger than the limit of %d bytes", mbe.Limit))
		} else {
			writeProblem(w, http.StatusBadRequest, "cannot read the request body")
		}
		return false
	}
	r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	if at, ok := duplicateKey(body); ok {
		writeProblem(w, http.StatusBadRequest, fmt.Sprintf("duplicate key %s in the JSON body: send each field once", at))
		return false
	}
	return true
}

// duplicateKey returns where the first key that repeats within one object of the
// JSON document b is ("body.fact.value"), if any. Malformed JSON, and nesting deeper
// than maxJSONDepth, report none: the operation's own decoder refuses them.
func duplicateKey(b []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	at, dup, err := walkJSON(dec, "body", 0)
	return at, dup && err == nil
}

// maxJSONDepth bounds the nesting duplicateKey follows.
const maxJSONDepth = 64

var errTooDeep = errors.New("too deep")

// walkJSON reads one value from dec and checks the keys of every object in it.
func walkJSON(dec *json.Decoder, path string, depth int) (string, bool, error) {
	if depth > maxJSONDepth {
		return "", false, errTooDeep
	}
	tok, err := dec.Token()
	if err != nil {
		return "", false, err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return "", false, nil
	}
	if d == '{' {
		seen := map[string]bool{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return "", false, err
			}
			k, _ := kt.(string)
			if seen[k] {
				return clip(path+"."+k, 120), true, nil
			}
			seen[k] = true
			if at, dup, err := walkJSON(dec, path+"."+k, depth+1); err != nil || dup {
				return at, dup, err
			}
		}
	} else {
		for i := 0; dec.More(); i++ {
			if at, dup, err := walkJSON(dec, fmt.Sprintf("%s[%d]", path, i), depth+1); err != nil || dup {
				return at, dup, err
			}
		}
	}
	_, err = dec.Token() // the closing delimiter
	return "", false, err
}
