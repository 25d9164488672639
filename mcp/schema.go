package mcp

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// inputSchema returns the JSON Schema of a tool input In: the SDK's inference (a
// property per field, its description from the jsonschema tag), with the
// constraints the HTTP API states on its own inputs, written in the same struct
// tags huma reads:
//
//	enum:"a,b,c"           the allowed values (of the items, for a list)
//	minimum:"0" maximum:"1" a number's bounds
//	format:"date-time"     a string's format (uuid, date-time)
//	maxLength:"4096"       a string's most characters
//	maxItems:"32"          a list's most items
//
// The SDK then refuses a call outside them before the tool runs (the engine checks
// them too), and clients see them. No "default" goes into a schema: the SDK writes
// defaults into the arguments, and a call whose arguments were null panicked there
// (FuzzToolCall found it; the input is kept as a seed). Defaults are said in the
// descriptions. A tag that does not parse is an error, so that a typo cannot drop a
// bound unseen (TestInputSchemas builds every tool's schema).
func inputSchema[In any]() (*jsonschema.Schema, error) {
	s, err := jsonschema.For[In](nil)
	if err != nil {
		return nil, err
	}
	if err := constrain(s, reflect.TypeFor[In]()); err != nil {
		return nil, fmt.Errorf("mcp: input schema of %v: %w", reflect.TypeFor[In](), err)
	}
	return s, nil
}

// constrain applies the constraint tags of struct type t's fields (and of the
// structs it embeds) to the properties of s.
func constrain(s *jsonschema.Schema, t reflect.Type) error {
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			if err := constrain(s, f.Type); err != nil {
				return err
			}
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		p := s.Properties[name]
		if p == nil {
			continue
		}
		if err := constrainField(p, f); err != nil {
			return fmt.Errorf("field %s: %w", f.Name, err)
		}
	}
	return nil
}

func constrainField(p *jsonschema.Schema, f reflect.StructField) error {
	num := func(tag string) (*float64, error) {
		v, ok := f.Tag.Lookup(tag)
		if !ok {
			return nil, nil
		}
		n, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return nil, fmt.Errorf("%s %q is not a number", tag, v)
		}
		return &n, nil
	}
	count := func(tag string) (*int, error) {
		v, ok := f.Tag.Lookup(tag)
		if !ok {
			return nil, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%s %q is not a count", tag, v)
		}
		return &n, nil
	}
	var err error
	if p.Minimum, err = num("minimum"); err != nil {
		return err
	}
	if p.Maximum, err = num("maximum"); err != nil {
		return err
	}
	if p.MaxLength, err = count("maxLength"); err != nil {
		return err
	}
	if p.MaxItems, err = count("maxItems"); err != nil {
		return err
	}
	p.Format = f.Tag.Get("format")
	if v, ok := f.Tag.Lookup("enum"); ok {
		target := p
		if p.Items != nil { // a list: the enum is its items'
			target = p.Items
		}
		target.Enum = nil
		for e := range strings.SplitSeq(v, ",") {
			target.Enum = append(target.Enum, e)
		}
	}
	return nil
}

// explainRefusal says in a sentence why arguments broke the input schema s, as the
// engine would say it ("rank must be at least 1, got 0", "mode \"shred\" is not one
// of retract, delete", "text is required"): the SDK's own message names schema
// paths and quotes the whole value. It returns "" if it finds nothing wrong (the
// SDK's message stands then).
func explainRefusal(s *jsonschema.Schema, raw json.RawMessage) string {
	args := map[string]any{}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &args); err != nil {
			return "the arguments must be a JSON object"
		}
	}
	for _, name := range s.Required {
		if _, ok := args[name]; !ok {
			return name + " is required"
		}
	}
	names := make([]string, 0, len(args))
	for name := range args {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		p := s.Properties[name]
		if p == nil {
			return fmt.Sprintf("unknown argument %q", clipText(name))
		}
		if msg := explainValue(name, p, args[name]); msg != "" {
			return msg
		}
	}
	return ""
}

// explainValue says why v breaks p, or returns "".
func explainValue(name string, p *jsonschema.Schema, v any) string {
	types := p.Types
	if p.Type != "" {
		types = []string{p.Type}
	}
	if len(types) > 0 && !slices.ContainsFunc(types, func(t string) bool { return hasType(v, t) }) {
		var want []string
		for _, t := range types {
			if w := typeWords[t]; w != "" {
				want = append(want, w)
			}
		}
		return fmt.Sprintf("%s must be %s, not %s", name, strings.Join(want, " or "), typeOf(v))
	}
	switch v := v.(type) {
	case string:
		if len(p.Enum) > 0 && !slices.Contains(p.Enum, any(v)) {
			return fmt.Sprintf("%s %q is not one of %s", name, clipText(v), enumText(p.Enum))
		}
		if n := utf8.RuneCountInString(v); p.MaxLength != nil && n > *p.MaxLength {
			return fmt.Sprintf("%s is %d characters; the limit is %d", name, n, *p.MaxLength)
		}
	case float64:
		if p.Minimum != nil && v < *p.Minimum {
			return fmt.Sprintf("%s must be at least %v, got %v", name, *p.Minimum, v)
		}
		if p.Maximum != nil && v > *p.Maximum {
			return fmt.Sprintf("%s must be at most %v, got %v", name, *p.Maximum, v)
		}
	case []any:
		if p.MaxItems != nil && len(v) > *p.MaxItems {
			return fmt.Sprintf("%s has %d items; the limit is %d", name, len(v), *p.MaxItems)
		}
		if p.Items != nil {
			for i, e := range v {
				if msg := explainValue(fmt.Sprintf("%s[%d]", name, i), p.Items, e); msg != "" {
					return msg
				}
			}
		}
	}
	return ""
}

// hasType reports whether the JSON value v is of JSON Schema type t.
func hasType(v any, t string) bool {
	switch v := v.(type) {
	case nil:
		return t == "null"
	case bool:
		return t == "boolean"
	case string:
		return t == "string"
	case float64:
		return t == "number" || t == "integer" && v == math.Trunc(v)
	case []any:
		return t == "array"
	case map[string]any:
		return t == "object"
	}
	return false
}

// typeWords name the JSON Schema types in a message; null is left out (an optional
// argument is left out rather than sent as null).
var typeWords = map[string]string{"string": "a string", "integer": "a whole number", "number": "a number",
	"boolean": "true or false", "array": "a list", "object": "an object"}

// typeOf names the JSON type of v, for a message.
func typeOf(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case float64:
		if v != math.Trunc(v) {
			return "a fraction"
		}
		return "a number"
	case []any:
		return "a list"
	}
	return "an object"
}

func enumText(values []any) string {
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, ", ")
}

// clipText bounds a value quoted in a message.
func clipText(s string) string {
	const most = 64
	if len(s) <= most {
		return s
	}
	i := most
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "..."
}
