package llm

import (
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/factbase/factbase"
)

// The <think> policy. Reasoning models write their reasoning in a <think> block before
// the answer. Such a block is invalid output (factbase.ModelThink) unless Options.AllowThink is
// set, and even then only one closed block at the very start of the content is
// stripped: what follows must be the whole JSON document, validated as usual. The
// block is found only at the start, so a "<think>" inside a JSON string (a user who
// typed it) is data, not a block.
const (
	thinkOpen  = "<think>"
	thinkClose = "</think>"
)

// stripThink applies the <think> policy to content.
func stripThink(content string, allow bool) (string, *factbase.ModelError) {
	s := strings.TrimLeft(content, " \t\r\n\ufeff")
	if len(s) < len(thinkOpen) || !strings.EqualFold(s[:len(thinkOpen)], thinkOpen) {
		return content, nil
	}
	if !allow {
		return "", newError(factbase.ModelThink, nil, "the model's answer starts with a <think> block (set AllowThink to strip it)")
	}
	rest := s[len(thinkOpen):]
	i := indexASCIIFold(rest, thinkClose)
	if i < 0 {
		return "", newError(factbase.ModelThink, nil, "the model's answer has an unclosed <think> block")
	}
	rest = strings.TrimLeft(rest[i+len(thinkClose):], " \t\r\n")
	if len(rest) >= len(thinkOpen) && strings.EqualFold(rest[:len(thinkOpen)], thinkOpen) {
		return "", newError(factbase.ModelThink, nil, "the model's answer has more than one <think> block")
	}
	return rest, nil
}

// indexASCIIFold is strings.Index ignoring the case of ASCII letters, with offsets in
// s itself: lower-casing s first would move them wherever s holds bytes that are not
// valid UTF-8 (each becomes a three-byte U+FFFD), which a model's output may.
func indexASCIIFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		match := true
		for j := 0; j < len(sub); j++ {
			a, b := s[i+j], sub[j]
			if 'A' <= a && a <= 'Z' {
				a += 'a' - 'A'
			}
			if 'A' <= b && b <= 'Z' {
				b += 'a' - 'A'
			}
			if a != b {
				match = false
				break
			}
		}
		if match {
			return i
		}
	}
	return -1
}

// decode turns a completion's content into out: the <think> policy, the truncation
// check, strict JSON parsing (one document, no duplicate keys), the schema, and only
// then encoding/json into out.
func (c *Client) decode(content, finish string, schema *Schema, out any) *factbase.ModelError {
	if finish == "length" {
		return newError(factbase.ModelTruncated, nil, "the model's answer was cut at the token limit (%d tokens)", c.o.MaxTokens)
	}
	body, e := stripThink(content, c.o.AllowThink)
	if e != nil {
		return e
	}
	if len(body) != len(content) {
		c.stats.thinkStripped.Add(1)
	}
	return decodeInto([]byte(body), schema, out)
}

// decodeInto validates data against schema and decodes it into out.
func decodeInto(data []byte, schema *Schema, out any) *factbase.ModelError {
	// The messages carry the detail (they are what a job record shows); no cause is
	// wrapped, so that it is not repeated.
	v, err := decodeStrict(data)
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return newError(factbase.ModelTruncated, nil, "the model's JSON answer ends early")
		}
		return newError(factbase.ModelNotJSON, nil, "the model's answer is not one JSON document: %s", clip(err.Error(), 200))
	}
	if err := schema.Validate(v); err != nil {
		return newError(factbase.ModelSchema, nil, "the model's answer does not match the schema: %s", clip(err.Error(), 200))
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		// The schema admitted something the Go type cannot hold: a mismatch between
		// the two, reported as a schema error rather than used.
		return newError(factbase.ModelSchema, nil, "the model's answer does not fit: %s", clip(err.Error(), 200))
	}
	return nil
}
