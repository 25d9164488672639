package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode/utf8"
)

// Schema is the subset of JSON Schema this package sends to models and checks their
// answers against. Objects are closed: every property is required and no other is
// allowed (what OpenAI's strict structured outputs demand). Null is never allowed.
//
// Limits (MaxLength, MaxItems, Minimum, Maximum) are checked here but not sent in the
// schema, because several servers refuse them in strict mode; Description carries them
// to the model in words.
type Schema struct {
	Type        string // "object", "array", "string", "number", "integer" or "boolean"
	Description string
	Properties  []Property // objects: in the order the model should write them
	Items       *Schema    // arrays
	Enum        []string   // strings: the allowed values
	MaxLength   int        // strings: the most characters; 0: no limit
	MaxItems    int        // arrays: the most items; 0: no limit
	Minimum     *float64   // numbers
	Maximum     *float64   // numbers
}

// Property is one property of an object schema.
type Property struct {
	Name   string
	Schema *Schema
}

// MarshalJSON renders s as a JSON Schema document.
func (s *Schema) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"type":`)
	writeJSON(&b, s.Type)
	if s.Description != "" {
		b.WriteString(`,"description":`)
		writeJSON(&b, s.Description)
	}
	switch s.Type {
	case "object":
		b.WriteString(`,"properties":{`)
		req := make([]string, len(s.Properties))
		for i, p := range s.Properties {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(&b, p.Name)
			b.WriteByte(':')
			sub, err := p.Schema.MarshalJSON()
			if err != nil {
				return nil, err
			}
			b.Write(sub)
			req[i] = p.Name
		}
		b.WriteString(`},"required":`)
		writeJSON(&b, req)
		b.WriteString(`,"additionalProperties":false`)
	case "array":
		if s.Items != nil {
			b.WriteString(`,"items":`)
			sub, err := s.Items.MarshalJSON()
			if err != nil {
				return nil, err
			}
			b.Write(sub)
		}
	case "string":
		if len(s.Enum) > 0 {
			b.WriteString(`,"enum":`)
			writeJSON(&b, s.Enum)
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func writeJSON(b *bytes.Buffer, v any) {
	data, _ := json.Marshal(v) // strings and string slices always marshal
	b.Write(data)
}

// maxDepth bounds the nesting of a decoded document.
const maxDepth = 32

// decodeStrict parses data as exactly one JSON document into a tree of
// map[string]any, []any, string, json.Number and bool values. It refuses duplicate
// object keys, nesting deeper than maxDepth, invalid UTF-8 and trailing data. A
// document that ends too early returns io.ErrUnexpectedEOF in its chain.
func decodeStrict(data []byte) (any, error) {
	if !utf8.Valid(data) {
		return nil, errors.New("not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec, 0)
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("document ends early: %w", io.ErrUnexpectedEOF)
		}
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the JSON document")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder, depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("nested deeper than %d levels", maxDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			obj := map[string]any{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("object key %v is not a string", kt)
				}
				if _, dup := obj[k]; dup {
					return nil, fmt.Errorf("duplicate key %q", k)
				}
				v, err := decodeValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				obj[k] = v
			}
			if _, err := dec.Token(); err != nil { // '}'
				return nil, err
			}
			return obj, nil
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := decodeValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			if _, err := dec.Token(); err != nil { // ']'
				return nil, err
			}
			return arr, nil
		}
		return nil, fmt.Errorf("unexpected %v", t)
	}
	return tok, nil
}

// Validate checks a decoded document against s and returns the first mismatch, named
// by its path ("facts[2].confidence").
func (s *Schema) Validate(v any) error { return s.validate("$", v) }

func (s *Schema) validate(path string, v any) error {
	if v == nil {
		return fmt.Errorf("%s: null is not allowed (want %s)", path, s.Type)
	}
	switch s.Type {
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: %s, want an object", path, typeName(v))
		}
		known := make(map[string]bool, len(s.Properties))
		for _, p := range s.Properties {
			known[p.Name] = true
			pv, ok := obj[p.Name]
			if !ok {
				return fmt.Errorf("%s: missing property %q", path, p.Name)
			}
			if err := p.Schema.validate(path+"."+p.Name, pv); err != nil {
				return err
			}
		}
		for k := range obj {
			if !known[k] {
				return fmt.Errorf("%s: unknown property %q", path, clip(k, 40))
			}
		}
	case "array":
		arr, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%s: %s, want an array", path, typeName(v))
		}
		if s.MaxItems > 0 && len(arr) > s.MaxItems {
			return fmt.Errorf("%s: %d items, more than %d", path, len(arr), s.MaxItems)
		}
		if s.Items != nil {
			for i, it := range arr {
				if err := s.Items.validate(path+"["+strconv.Itoa(i)+"]", it); err != nil {
					return err
				}
			}
		}
	case "string":
		str, ok := v.(string)
		if !ok {
			return fmt.Errorf("%s: %s, want a string", path, typeName(v))
		}
		if n := utf8.RuneCountInString(str); s.MaxLength > 0 && n > s.MaxLength {
			return fmt.Errorf("%s: %d characters, more than %d", path, n, s.MaxLength)
		}
		if len(s.Enum) > 0 {
			found := false
			for _, e := range s.Enum {
				found = found || e == str
			}
			if !found {
				return fmt.Errorf("%s: %q is not one of %v", path, clip(str, 40), s.Enum)
			}
		}
	case "number", "integer":
		num, ok := v.(json.Number)
		if !ok {
			return fmt.Errorf("%s: %s, want a %s", path, typeName(v), s.Type)
		}
		f, err := num.Float64()
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return fmt.Errorf("%s: %s is not a finite number", path, num)
		}
		if s.Type == "integer" {
			if _, err := num.Int64(); err != nil {
				return fmt.Errorf("%s: %s is not an integer", path, num)
			}
		}
		if s.Minimum != nil && f < *s.Minimum {
			return fmt.Errorf("%s: %s is below the minimum %v", path, num, *s.Minimum)
		}
		if s.Maximum != nil && f > *s.Maximum {
			return fmt.Errorf("%s: %s is above the maximum %v", path, num, *s.Maximum)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("%s: %s, want a boolean", path, typeName(v))
		}
	default:
		return fmt.Errorf("%s: schema type %q is not supported", path, s.Type)
	}
	return nil
}

func typeName(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func ptr(f float64) *float64 { return &f }
