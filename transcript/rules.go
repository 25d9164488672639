package transcript

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/factbase/factbase"
)

//go:embed rules.json
var builtinRules []byte

// MaxRulesFileSize is the largest rules file LoadRules reads.
const MaxRulesFileSize = 1 << 20

// The kinds of text a rule can apply to (Rule.AppliesTo).
const (
	// AppliesCommand is each shell command an assistant ran (a shell tool's
	// "command" or "cmd").
	AppliesCommand = "command"
	// AppliesUserText is the text of a user's request (a task).
	AppliesUserText = "user_text"
	// AppliesAssistantText is the text blocks of an assistant message.
	AppliesAssistantText = "assistant_text"
	// AppliesText is user_text and assistant_text.
	AppliesText = "text"
	// AppliesThinking is an assistant's thinking blocks.
	AppliesThinking = "thinking"
	// AppliesToolResult is the content of tool results; the facts' subject is the
	// action whose tool use produced them.
	AppliesToolResult = "tool_result"
	// AppliesInput is the string fields of a non-shell tool's input whose name
	// contains path, file, dir, url or host (Read's file_path, WebFetch's url...),
	// each at most 4 KiB.
	AppliesInput = "input"
	// AppliesAny is all of the above.
	AppliesAny = "any"
)

// The object modes of a rule (Rule.Object); any other value is a fixed object.
const (
	ObjectMatch   = "match"   // the matched text
	ObjectSnippet = "snippet" // a bounded snippet of text around the match
	ObjectGroup   = "group:"  // "group:N", the Nth capture group of the pattern
)

type sources uint8

const (
	srcCommand sources = 1 << iota
	srcUserText
	srcAssistantText
	srcThinking
	srcToolResult
	srcInput
	srcAny = srcCommand | srcUserText | srcAssistantText | srcThinking | srcToolResult | srcInput
)

var sourceNames = map[string]sources{
	AppliesCommand:       srcCommand,
	AppliesUserText:      srcUserText,
	AppliesAssistantText: srcAssistantText,
	AppliesText:          srcUserText | srcAssistantText,
	AppliesThinking:      srcThinking,
	AppliesToolResult:    srcToolResult,
	AppliesInput:         srcInput,
	AppliesAny:           srcAny,
}

// Rule is one entry of a rules file: when its pattern or one of its keywords
// matches a text it applies to, it yields the fact (subject, Predicate, object) with
// its Confidence. The JSON field names are the rules file's.
type Rule struct {
	// Name names the rule; with Predicate it identifies the rule, so that a rules
	// file entry with the same predicate and name replaces a built-in one. It
	// defaults to the predicate.
	Name       string  `json:"name,omitempty"`
	Predicate  string  `json:"predicate"`
	Confidence float64 `json:"confidence"`
	// Pattern is an RE2 regular expression (Go's regexp syntax). A rule has one
	// of Pattern, Keywords and Parser.
	Pattern string `json:"pattern,omitempty"`
	// Keywords are matched case-insensitively (ASCII letters) as whole words. For
	// a snippet rule a keyword must also not touch a slash, nor a dot or hyphen
	// that joins it to another word ("error.log", "non-error"): such rules look
	// for prose, not identifiers.
	Keywords []string `json:"keywords,omitempty"`
	// Parser names a built-in parser whose findings are the objects, for facts a
	// pattern cannot state precisely: ssh_targets, url_hosts and host_options
	// read shell commands for the hosts they connect to (ParserSSHTargets ...).
	// Its object is "match" (the finding).
	Parser string `json:"parser,omitempty"`
	// AppliesTo lists the kinds of text the rule scans: command, user_text,
	// assistant_text, text, thinking, tool_result, input, any. In a file it may be
	// one string or a list; it defaults to any.
	AppliesTo AppliesTo `json:"applies_to,omitempty"`
	// Object says what the fact's object is: "match" (the default), "group:N",
	// "snippet", or any other string, which is used as it is.
	Object string `json:"object,omitempty"`
	// When, an RE2 expression, must also match somewhere in the text for the rule
	// to apply (e.g. an ssh command for a user@host pattern).
	When string `json:"when,omitempty"`
	// Unless, an RE2 expression, drops an object it matches (e.g. "no errors").
	Unless string `json:"unless,omitempty"`
	// Stop lists objects never stored (compared case-insensitively).
	Stop []string `json:"stop,omitempty"`
	// Limit is the most facts the rule yields from one text; 0 means 2 for
	// snippets and 20 otherwise.
	Limit int `json:"limit,omitempty"`
	// Disabled turns the rule off; an entry that only names a built-in rule's
	// predicate and name and sets disabled removes it.
	Disabled bool `json:"disabled,omitempty"`
	// Description is free text for the reader of the file.
	Description string `json:"description,omitempty"`
}

// AppliesTo is the list of text kinds a rule scans. In JSON it is a string or a
// list of strings.
type AppliesTo []string

// UnmarshalJSON accepts a string or a list of strings.
func (a *AppliesTo) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*a = AppliesTo{one}
		return nil
	}
	var list []string
	if err := json.Unmarshal(b, &list); err != nil {
		return errors.New("applies_to must be a string or a list of strings")
	}
	*a = list
	return nil
}

// RulesError reports a bad rules file: where and what.
type RulesError struct {
	File   string
	Line   int    // 1-based; 0 if not known
	Rule   string // the rule's name, "#N" (1-based position) if it has none, "" for the file
	Reason string
}

// Error implements error as "file:line: rule "name": reason".
func (e *RulesError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Rule != "" {
		if strings.HasPrefix(e.Rule, "#") {
			fmt.Fprintf(&b, "rule %s: ", e.Rule)
		} else {
			fmt.Fprintf(&b, "rule %q: ", e.Rule)
		}
	}
	b.WriteString(e.Reason)
	return b.String()
}

// Unwrap returns an EINVALID *factbase.Error with the same message, so that
// factbase.ErrorCode classifies a bad rules file as invalid input.
func (e *RulesError) Unwrap() error {
	return &factbase.Error{Code: factbase.EINVALID, Message: e.Error()}
}

// Rules is an ordered, compiled set of rules. It is immutable and safe for
// concurrent use.
type Rules struct {
	list []*rule
}

// rule is a compiled Rule.
type rule struct {
	Rule
	src      sources
	re       *regexp.Regexp
	reLit    string   // a literal every match of re contains, or ""
	whenLit  string   // likewise for when
	keywords [][]byte // lower-cased
	parse    func(string) []string
	when     *regexp.Regexp
	unless   *regexp.Regexp
	mode     string // match, snippet, group, fixed
	group    int
	stop     map[string]bool
	limit    int
}

func (r *rule) key() string { return r.Predicate + "\x00" + r.Name }

// defaultRules compiles the embedded rules once; Rules are immutable, so the one
// value is shared.
var defaultRules = sync.OnceValues(func() (*Rules, error) {
	return parseRules(builtinRules, "rules.json")
})

// DefaultRules returns the built-in rules, the embedded rules.json.
func DefaultRules() *Rules {
	rs, err := defaultRules()
	if err != nil {
		// The embedded file is tested to load; an empty set is all that is left.
		return &Rules{}
	}
	return rs
}

// BuiltinRulesJSON returns the built-in rules file, to show users the format or
// to start their own from.
func BuiltinRulesJSON() []byte { return bytes.Clone(builtinRules) }

// LoadRules reads a rules file: a JSON list of rules (see Rule). name is the file
// name used in errors. A bad file is refused as a whole with a *RulesError naming
// the line, the rule and the reason: a JSON syntax error, an unknown field, a
// missing or out-of-range value, an invalid regular expression, or a rule that
// appears twice.
func LoadRules(r io.Reader, name string) (*Rules, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxRulesFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("transcript: read rules %s: %w", name, err)
	}
	if len(data) > MaxRulesFileSize {
		return nil, &RulesError{File: name, Reason: fmt.Sprintf("file is larger than %d bytes", MaxRulesFileSize)}
	}
	return parseRules(data, name)
}

// ruleJSON is Rule as decoded, telling a missing confidence from zero.
type ruleJSON struct {
	Rule
	Confidence *float64 `json:"confidence"`
}

func parseRules(data []byte, name string) (*Rules, error) {
	var probe any
	if err := json.Unmarshal(data, &probe); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			line, col := lineCol(data, int(syn.Offset))
			return nil, &RulesError{File: name, Line: line, Reason: fmt.Sprintf("column %d: %v", col, syn)}
		}
		return nil, &RulesError{File: name, Reason: err.Error()}
	}
	if _, ok := probe.([]any); !ok {
		line, _ := lineCol(data, firstNonSpace(data, 0))
		return nil, &RulesError{File: name, Line: line, Reason: fmt.Sprintf("want a JSON list of rules, got %s", jsonKind(probe))}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // '['
		return nil, &RulesError{File: name, Reason: err.Error()}
	}
	rs := &Rules{}
	seen := map[string]int{} // key -> line
	for i := 1; dec.More(); i++ {
		start := firstNonSpace(data, int(dec.InputOffset()))
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, &RulesError{File: name, Reason: err.Error()}
		}
		r, err := compileRule(raw, data, start, i, name)
		if err != nil {
			return nil, err
		}
		if prev, dup := seen[r.key()]; dup {
			line, _ := lineCol(data, start)
			return nil, &RulesError{File: name, Line: line, Rule: r.Name,
				Reason: fmt.Sprintf("predicate %q and name %q are already used by the rule at line %d", r.Predicate, r.Name, prev)}
		}
		seen[r.key()], _ = lineCol(data, start)
		rs.list = append(rs.list, r)
	}
	return rs, nil
}

// compileRule decodes and validates the rule raw, the i-th of the file, which
// starts at byte start of data.
func compileRule(raw json.RawMessage, data []byte, start, i int, file string) (*rule, error) {
	var probe struct {
		Name      string `json:"name"`
		Predicate string `json:"predicate"`
	}
	_ = json.Unmarshal(raw, &probe) // only for naming the rule in errors
	label := probe.Name
	if label == "" {
		label = probe.Predicate
	}
	if label == "" {
		label = "#" + strconv.Itoa(i)
	}
	// fail reports reason at the line of field (or of the rule if field is "").
	fail := func(field, reason string) error {
		off := start
		if field != "" {
			if k := bytes.Index(raw, []byte(`"`+field+`"`)); k >= 0 {
				off = start + k
			}
		}
		line, _ := lineCol(data, off)
		return &RulesError{File: file, Line: line, Rule: label, Reason: reason}
	}

	var rj ruleJSON
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rj); err != nil {
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &typ) && typ.Field == "":
			return nil, fail("", fmt.Sprintf("a rule must be a JSON object, not %s", typ.Value))
		case errors.As(err, &typ):
			line, _ := lineCol(data, start+int(typ.Offset)-1)
			return nil, &RulesError{File: file, Line: line, Rule: label,
				Reason: fmt.Sprintf("field %s is %s, want %s", typ.Field, article(typ.Value), goTypeName(typ.Type.String()))}
		case strings.Contains(err.Error(), "applies_to"):
			return nil, fail("applies_to", err.Error())
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			field, _ := strconv.Unquote(strings.TrimPrefix(err.Error(), "json: unknown field "))
			return nil, fail(field, fmt.Sprintf("unknown field %q", field))
		default:
			return nil, fail("", err.Error())
		}
	}
	r := &rule{Rule: rj.Rule}
	if rj.Confidence != nil {
		r.Confidence = *rj.Confidence
	}
	if err := factbase.ValidateKey(r.Predicate); err != nil {
		if r.Predicate == "" {
			return nil, fail("", "predicate is missing")
		}
		return nil, fail("predicate", "bad predicate: "+factbase.ErrorMessage(err))
	}
	if strings.ContainsAny(r.Predicate, " \t") {
		return nil, fail("predicate", fmt.Sprintf("predicate %q contains white space", r.Predicate))
	}
	if r.Name == "" {
		r.Name = r.Predicate
	}
	if rj.Confidence == nil && !r.Disabled {
		return nil, fail("", "confidence is missing")
	}
	if r.Confidence < 0 || r.Confidence > 1 {
		return nil, fail("confidence", fmt.Sprintf("confidence %v is outside 0..1", r.Confidence))
	}
	switch {
	case r.Pattern != "" && len(r.Keywords) > 0:
		return nil, fail("keywords", "a rule has a pattern or keywords, not both")
	case r.Parser != "" && (r.Pattern != "" || len(r.Keywords) > 0):
		return nil, fail("parser", "a rule has a parser, a pattern or keywords, only one")
	case r.Pattern == "" && len(r.Keywords) == 0 && r.Parser == "" && !r.Disabled:
		return nil, fail("", "pattern or keywords is missing")
	}
	if r.Parser != "" {
		if r.parse = parsers[r.Parser]; r.parse == nil {
			return nil, fail("parser", fmt.Sprintf("parser %q is not one of %s, %s, %s", r.Parser, ParserSSHTargets, ParserURLHosts, ParserHostOptions))
		}
		if r.Object != "" && r.Object != ObjectMatch {
			return nil, fail("object", fmt.Sprintf("object %q: a parser's object is what it finds (match)", r.Object))
		}
	}
	var err error
	if r.Pattern != "" {
		if r.re, err = regexp.Compile(r.Pattern); err != nil {
			return nil, fail("pattern", fmt.Sprintf("bad pattern %q: %v", r.Pattern, err))
		}
		r.reLit = requiredLiteral(r.Pattern)
	}
	for _, k := range r.Keywords {
		if strings.TrimSpace(k) == "" {
			return nil, fail("keywords", "a keyword is empty")
		}
		r.keywords = append(r.keywords, []byte(asciiLower(k)))
	}
	if r.When != "" {
		if r.when, err = regexp.Compile(r.When); err != nil {
			return nil, fail("when", fmt.Sprintf("bad when %q: %v", r.When, err))
		}
		r.whenLit = requiredLiteral(r.When)
	}
	if r.Unless != "" {
		if r.unless, err = regexp.Compile(r.Unless); err != nil {
			return nil, fail("unless", fmt.Sprintf("bad unless %q: %v", r.Unless, err))
		}
	}
	if len(r.AppliesTo) == 0 {
		r.AppliesTo = AppliesTo{AppliesAny}
	}
	for _, a := range r.AppliesTo {
		s, ok := sourceNames[a]
		if !ok {
			return nil, fail("applies_to", fmt.Sprintf("applies_to %q is not one of command, text, user_text, assistant_text, thinking, tool_result, input, any", a))
		}
		r.src |= s
	}
	if r.Object == "" {
		r.Object = ObjectMatch
	}
	switch {
	case r.Object == ObjectMatch || r.Object == ObjectSnippet:
		r.mode = r.Object
	case strings.HasPrefix(r.Object, ObjectGroup):
		n, err := strconv.Atoi(strings.TrimPrefix(r.Object, ObjectGroup))
		if err != nil || n < 0 {
			return nil, fail("object", fmt.Sprintf("object %q: want group:N with N a capture group number", r.Object))
		}
		if r.re == nil {
			if !r.Disabled {
				return nil, fail("object", fmt.Sprintf("object %q needs a pattern with capture groups", r.Object))
			}
		} else if n > r.re.NumSubexp() {
			return nil, fail("object", fmt.Sprintf("object %q: the pattern has only %d capture group(s)", r.Object, r.re.NumSubexp()))
		}
		r.mode, r.group = "group", n
	default:
		r.mode = "fixed"
	}
	if r.Limit < 0 {
		return nil, fail("limit", fmt.Sprintf("limit %d is negative", r.Limit))
	}
	r.limit = r.Limit
	if r.limit == 0 {
		r.limit = 20
		if r.mode == ObjectSnippet {
			r.limit = 2
		}
	}
	if len(r.Stop) > 0 {
		r.stop = make(map[string]bool, len(r.Stop))
		for _, s := range r.Stop {
			r.stop[strings.ToLower(s)] = true
		}
	}
	return r, nil
}

// Merge returns the rules of r followed by those of o, where a rule of o with the
// same predicate and name as one of r replaces it in place (a disabled one turns it
// off). Neither r nor o is changed; either may be nil.
func (r *Rules) Merge(o *Rules) *Rules {
	if r == nil {
		r = &Rules{}
	}
	out := &Rules{list: slices.Clone(r.list)}
	if o == nil {
		return out
	}
	at := make(map[string]int, len(out.list))
	for i, x := range out.list {
		at[x.key()] = i
	}
	for _, x := range o.list {
		if i, ok := at[x.key()]; ok {
			out.list[i] = x
			continue
		}
		at[x.key()] = len(out.list)
		out.list = append(out.list, x)
	}
	return out
}

// List returns the rules in order, disabled ones included, with defaults filled in.
func (r *Rules) List() []Rule {
	if r == nil {
		return nil
	}
	out := make([]Rule, len(r.list))
	for i, x := range r.list {
		out[i] = x.Rule
	}
	return out
}

// Predicates returns the predicates of the enabled rules, sorted, each once.
func (r *Rules) Predicates() []string {
	if r == nil {
		return nil
	}
	var out []string
	for _, x := range r.list {
		if !x.Disabled {
			out = append(out, x.Predicate)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// requiredLiteral returns the longest case-sensitive literal that every match of
// the regular expression expr must contain ("" if it finds none), so that texts
// without it can be skipped with a fast substring search instead of running the
// expression.
func requiredLiteral(expr string) string {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return ""
	}
	return mustContain(re.Simplify())
}

func mustContain(re *syntax.Regexp) string {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return ""
		}
		return string(re.Rune)
	case syntax.OpCapture, syntax.OpPlus:
		return mustContain(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return mustContain(re.Sub[0])
		}
	case syntax.OpConcat:
		best := ""
		for _, sub := range re.Sub {
			if lit := mustContain(sub); len(lit) > len(best) {
				best = lit
			}
		}
		return best
	}
	return ""
}

// lineCol returns the 1-based line and column of byte off of data.
func lineCol(data []byte, off int) (line, col int) {
	off = max(0, min(off, len(data)))
	line = 1 + bytes.Count(data[:off], []byte{'\n'})
	col = off - bytes.LastIndexByte(data[:off], '\n')
	return line, col
}

// firstNonSpace returns the offset of the first byte at or after off that is not
// white space or a comma.
func firstNonSpace(data []byte, off int) int {
	for off < len(data) {
		switch data[off] {
		case ' ', '\t', '\n', '\r', ',':
			off++
		default:
			return off
		}
	}
	return off
}

func jsonKind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return "something else"
}

// goTypeName names a Go type of Rule in rules-file terms.
func goTypeName(t string) string {
	switch t {
	case "float64", "*float64", "int":
		return "a number"
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "[]string":
		return "a list of strings"
	}
	return t
}

func article(v string) string {
	switch v {
	case "object", "array":
		return "an " + v
	case "null":
		return v
	}
	return "a " + v
}

// asciiLower lower-cases the ASCII letters of s and leaves every other byte, so
// that byte offsets in the result are offsets in s.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; c >= 'A' && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
