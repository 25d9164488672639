package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzReader feeds arbitrary bytes to a Reader and an Extractor: no panic, no
// error other than *Malformed and io.EOF, offsets and lines that only grow and stay
// within the input, a checksum of exactly the consumed bytes, and storable facts.
func FuzzReader(f *testing.F) {
	// Small seeds (single lines of the fixtures) keep minimisation cheap.
	for _, name := range []string{"basic.jsonl", "malformed.jsonl", "truncated.jsonl"} {
		b, err := os.ReadFile("testdata/sessions/" + name)
		if err != nil {
			f.Fatal(err)
		}
		for i, line := range bytes.SplitAfter(b, []byte("\n")) {
			f.Add(line, uint8(i))
		}
	}
	f.Add([]byte(referenceLine+"\n"+referenceLine), uint8(3))
	f.Add([]byte("\n\n{}\n[]\n{\"type\":\"user\"}\n"), uint8(1))
	f.Add([]byte(`{"type":"user","uuid":"u","message":{"content":[{"type":"tool_result","content":[{"type":"text","text":"Error: x failed badly here ok"}]}]}}`+"\n"), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, knob uint8) {
		opts := Options{AcceptUnterminated: knob&1 == 1}
		if knob&2 == 2 {
			opts.MaxLineSize = 1 + int(knob)
		}
		x := NewExtractor(nil, ExtractorOptions{ScanLimit: 1 + int(knob)*64, SnippetLen: 10 + int(knob)})
		r := NewReader(bytes.NewReader(data), "fuzz", opts)
		var lastEnd int64
		lastLine := 0
		for i := 0; ; i++ {
			if i > len(data)+2 {
				t.Fatalf("Next did not stop after %d calls on %d bytes", i, len(data))
			}
			m, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if r.Offset() < lastEnd || r.Offset() > int64(len(data)) || r.Line() < lastLine {
				t.Fatalf("Offset %d, Line %d after %d, %d (input %d bytes)", r.Offset(), r.Line(), lastEnd, lastLine, len(data))
			}
			lastEnd, lastLine = r.Offset(), r.Line()
			var bad *Malformed
			if errors.As(err, &bad) {
				if bad.Offset < 0 || bad.Offset > int64(len(data)) || bad.Line < 1 {
					t.Fatalf("report %+v out of range", bad)
				}
				continue
			}
			if err != nil {
				t.Fatalf("Next: %v", err)
			}
			if m.Offset < 0 || m.End <= m.Offset || m.End > int64(len(data)) || m.End != r.Offset() || m.Line != r.Line() {
				t.Fatalf("message at [%d,%d) line %d; reader at %d line %d", m.Offset, m.End, m.Line, r.Offset(), r.Line())
			}
			for _, fact := range x.Extract(m) {
				if fact.Subject == "" || fact.Predicate == "" || strings.TrimSpace(fact.Object) == "" {
					t.Fatalf("empty field in %+v", fact)
				}
				if !utf8.ValidString(fact.Object) || strings.IndexByte(fact.Object, 0) >= 0 || len(fact.Object) > 4096 {
					t.Fatalf("unstorable object %q", fact.Object)
				}
				if fact.Confidence < 0 || fact.Confidence > 1 {
					t.Fatalf("confidence %v", fact.Confidence)
				}
			}
		}
		if got, want := r.Sum(), sum(data[:r.Offset()]); !bytes.Equal(got, want) {
			t.Fatalf("Sum() is not the hash of the first %d bytes", r.Offset())
		}
		if r.Offset() > 0 && data[r.Offset()-1] != '\n' && !opts.AcceptUnterminated {
			t.Fatalf("Offset %d is not after a newline", r.Offset())
		}
	})
}

// FuzzLoadRules: any input either loads or is refused with a *RulesError; never a
// panic. A loaded set can be applied to text.
func FuzzLoadRules(f *testing.F) {
	f.Add(builtinRules)
	for _, name := range []string{"custom.json", "bad-syntax.json", "bad-regexp.json", "bad-type.json", "bad-element.json"} {
		b, err := os.ReadFile("testdata/rules/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`[{"predicate":"p","confidence":0.5,"pattern":"(a)(b)?","object":"group:2","applies_to":"any"}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rs, err := LoadRules(bytes.NewReader(data), "fuzz.json")
		if err != nil {
			var re *RulesError
			if !errors.As(err, &re) {
				t.Fatalf("error %v is %T, want *RulesError", err, err)
			}
			if re.Line < 0 || re.Reason == "" {
				t.Fatalf("bad report %+v", re)
			}
			return
		}
		x := NewExtractor(rs, ExtractorOptions{})
		line := `{"type":"assistant","uuid":"a","message":{"content":[{"type":"text","text":"ab error found fix /etc/x/y"},{"type":"tool_use","id":"t","name":"Bash","input":{"command":"ssh r@h ab"}}]}}`
		m, err := NewReader(strings.NewReader(line+"\n"), "f", Options{}).Next()
		if err != nil {
			t.Fatal(err)
		}
		for _, fact := range x.Extract(m) {
			if strings.TrimSpace(fact.Object) == "" {
				t.Fatalf("empty object from %q", fact.Rule)
			}
		}
	})
}

// FuzzScanner checks the line scanner against encoding/json: it accepts exactly
// the inputs json.Valid accepts (as a value), and decodes strings the same way.
func FuzzScanner(f *testing.F) {
	for _, s := range []string{`{"a":[1,-2.5e+3,true,false,null,{}]}`, `"\ud83d\ude00 \ud800 \u00e9 \/"`, `[01]`, `{"a" 1}`,
		"\"a\xffb\"", `1.`, `-`, `[1,]`, `"\x"`, `{"a":"b",}`, " [ ] ", `"unterminated`, `{"k\u0041y":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s := &scanner{data: data}
		s.ws()
		err := s.skip()
		if err == nil {
			s.ws()
			if s.pos != len(data) {
				err = s.unexpected("end")
			}
		}
		if got, want := err == nil, json.Valid(data); got != want {
			t.Fatalf("scanner accepts %q: %v (%v), json.Valid: %v", data, got, err, want)
		}
		if err != nil || len(bytes.TrimSpace(data)) == 0 || bytes.TrimSpace(data)[0] != '"' {
			return
		}
		var want string
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("json.Unmarshal: %v", err)
		}
		s = &scanner{data: bytes.TrimSpace(data)}
		got, err := s.readString()
		if err != nil || got != want {
			t.Fatalf("readString(%q) = %q, %v; json.Unmarshal gives %q", data, got, err, want)
		}
	})
}

// FuzzSnippet: any text and match give a snippet of at most size characters in
// valid UTF-8 (for valid input) without panicking.
func FuzzSnippet(f *testing.F) {
	f.Add("The build failed on the second step.", 10, 16, 40)
	f.Add("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxfailedxxxxxxxxxxxxxxxx yyy", 37, 43, 12)
	f.Add("ü ü ü ü ü ü ü ü ü ü error ü ü ü ü ü ü", 20, 25, 10)
	f.Fuzz(func(t *testing.T, text string, s, e, size int) {
		if len(text) == 0 || !utf8.ValidString(text) {
			return
		}
		s = abs(s) % len(text)
		e = s + abs(e)%(len(text)-s+1)
		for s > 0 && !utf8.RuneStart(text[s]) {
			s--
		}
		for e < len(text) && !utf8.RuneStart(text[e]) {
			e++
		}
		size = 10 + abs(size)%300
		got := snippet(text, s, e, size)
		if n := utf8.RuneCountInString(got); n > size {
			t.Fatalf("snippet(%q, %d, %d, %d) = %q has %d characters", text, s, e, size, got, n)
		}
		if !utf8.ValidString(got) {
			t.Fatalf("snippet %q is not valid UTF-8", got)
		}
	})
}

func abs(n int) int {
	if n < 0 {
		if n == -n {
			return 0
		}
		return -n
	}
	return n
}
