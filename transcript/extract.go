package transcript

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/factbase/factbase"
)

// The structural predicates, each with confidence 1.0.
const (
	// PredTaskText links a task to the start of the user's request (at most
	// ExtractorOptions.TaskTextLen characters).
	PredTaskText = "task_text"
	// PredInSession links a task to its session id.
	PredInSession = "in_session"
	// PredPartOfTask links an action to the task it serves.
	PredPartOfTask = "part_of_task"
	// PredUsedTool links an action to the name of a tool it called.
	PredUsedTool = "used_tool"
	// PredExecutedCommand links an action to a shell command it ran, in full.
	PredExecutedCommand = "executed_command"
)

// RuleStructural is the Rule of structural facts.
const RuleStructural = "structural"

// StructuralPredicates lists the structural predicates.
func StructuralPredicates() []string {
	return []string{PredExecutedCommand, PredInSession, PredPartOfTask, PredTaskText, PredUsedTool}
}

// Subject prefixes: a user's request is the task "task_<uuid>", an assistant
// message the action "action_<uuid>".
const (
	TaskPrefix   = "task_"
	ActionPrefix = "action_"
)

// Fact is one extracted statement with its provenance.
type Fact struct {
	Subject    string
	Predicate  string
	Object     string
	Confidence float64
	Rule       string // the rule's name, or RuleStructural
	File       string
	Line       int
	Offset     int64
	UUID       string // the message's uuid
	SessionID  string
	Timestamp  time.Time
}

// Source returns the fact's provenance as a factbase.Source of kind transcript,
// with id "file:line:uuid".
func (f Fact) Source() factbase.Source {
	return factbase.Source{Kind: factbase.SourceTranscript, ID: fmt.Sprintf("%s:%d:%s", f.File, f.Line, f.UUID)}
}

// Defaults of ExtractorOptions.
const (
	DefaultSnippetLen      = 160
	DefaultMinSnippetChars = 12
	DefaultScanLimit       = 64 << 10
	DefaultMemory          = 100_000
	maxInputField          = 4 << 10
)

// ExtractorOptions configure an Extractor. The zero value means the defaults.
type ExtractorOptions struct {
	// SnippetLen is the most characters of a snippet object, "…" marks included;
	// default 160.
	SnippetLen int
	// MinSnippetChars is the fewest letters and digits a snippet must have besides
	// its keyword; shorter ones ("Error.", "Fixed it") are noise and dropped;
	// default 12.
	MinSnippetChars int
	// ScanLimit is how many bytes at the start of each text (a tool result, a
	// command, a text block) the pattern rules scan; default 64 KiB, so that a
	// multi-megabyte tool result costs no more than a small one. Structural
	// facts are not limited by it.
	ScanLimit int
	// MaxObjectLen is the most bytes of an object; longer ones (long heredoc
	// commands) are cut with "…". Default factbase.MaxValueLen.
	MaxObjectLen int
	// TaskTextLen is the most characters of a task_text object; default
	// factbase.MaxTextLen (200).
	TaskTextLen int
	// Redact replaces passwords and tokens in every object with "***": sshpass -p,
	// --password/--token flags, *PASSWORD=/*TOKEN=/*SECRET= assignments, mysql -p,
	// credentials in URLs, bearer tokens. Off by default: executed_command holds the
	// command exactly as run.
	Redact bool
	// Memory is how many message uuids (and as many tool use ids) the Extractor
	// remembers to link actions to tasks; it keeps between Memory and 2*Memory.
	// Default 100000.
	Memory int
}

// Extractor turns messages into facts. It is stateful: it remembers which task
// each message belongs to so that actions can be linked along the parentUuid
// chain, so feed it a file's messages in order (Observe those already ingested, see
// Options.Replay). It is not safe for concurrent use; use one per goroutine.
type Extractor struct {
	rules []*rule
	opts  ExtractorOptions

	taskOf     recent // message uuid -> task subject ("" if none)
	toolAction recent // tool_use id -> action subject
	lastTask   recent // session id -> its latest task subject

	lower []byte
	s     scanner
	kw    [][]int
}

// NewExtractor returns an Extractor applying rules (DefaultRules if nil).
func NewExtractor(rules *Rules, opts ExtractorOptions) *Extractor {
	if rules == nil {
		rules = DefaultRules()
	}
	if opts.SnippetLen <= 0 {
		opts.SnippetLen = DefaultSnippetLen
	}
	if opts.SnippetLen < 10 {
		opts.SnippetLen = 10
	}
	if opts.MinSnippetChars <= 0 {
		opts.MinSnippetChars = DefaultMinSnippetChars
	}
	if opts.ScanLimit <= 0 {
		opts.ScanLimit = DefaultScanLimit
	}
	if opts.MaxObjectLen <= 0 {
		opts.MaxObjectLen = factbase.MaxValueLen
	}
	if opts.MaxObjectLen < 16 {
		opts.MaxObjectLen = 16
	}
	if opts.TaskTextLen <= 0 {
		opts.TaskTextLen = factbase.MaxTextLen
	}
	if opts.Memory <= 0 {
		opts.Memory = DefaultMemory
	}
	x := &Extractor{opts: opts}
	for _, r := range rules.list {
		if !r.Disabled {
			x.rules = append(x.rules, r)
		}
	}
	x.taskOf.max, x.toolAction.max, x.lastTask.max = opts.Memory, opts.Memory, opts.Memory
	return x
}

// Extract returns the facts of m: structural facts first, then pattern facts in
// rule order. A fact is returned once per message (the highest confidence wins).
// Messages other than user and assistant ones yield none.
//
// A user message is a task unless its content is only tool results, it is marked
// meta (agent-injected), it is only an interruption notice ("[Request interrupted
// by user]"), or it is empty. A task yields task_text and in_session; pattern rules
// scan its text (user_text). Tool results yield pattern facts (tool_result) about
// the action that called the tool. An assistant message is an action: part_of_task
// (when its task is known), used_tool for each tool use, executed_command for each
// shell tool use (Bash, or a name containing shell, bash, terminal or exec, with a
// "command" or "cmd" input), and pattern facts from its commands, text, thinking
// and tool inputs.
func (x *Extractor) Extract(m Message) []Fact {
	return x.process(&m, true)
}

// Observe updates what the Extractor knows from m (tasks, tool uses) without
// making facts: for messages already extracted before a resume.
func (x *Extractor) Observe(m Message) {
	x.process(&m, false)
}

func (x *Extractor) process(m *Message, emit bool) []Fact {
	var out []Fact
	switch m.Type {
	case TypeUser:
		if isTask(m) {
			task := TaskPrefix + m.UUID
			x.taskOf.put(m.UUID, task)
			if m.SessionID != "" {
				x.lastTask.put(m.SessionID, task)
			}
			if !emit {
				return nil
			}
			if t := taskText(m.Text, x.opts.TaskTextLen); t != "" {
				x.add(&out, m, task, PredTaskText, t, 1, RuleStructural)
			}
			if m.SessionID != "" {
				x.add(&out, m, task, PredInSession, m.SessionID, 1, RuleStructural)
			}
			x.scan(&out, m, task, srcUserText, m.Text)
		} else {
			x.taskOf.put(m.UUID, x.taskFor(m))
			if !emit {
				return nil
			}
		}
		for i := range m.Blocks {
			b := &m.Blocks[i]
			if b.Type != BlockToolResult || b.Text == "" {
				continue
			}
			subject, ok := x.toolAction.get(b.ToolUseID)
			if !ok && m.ParentUUID != "" {
				subject = ActionPrefix + m.ParentUUID
			}
			if subject != "" {
				x.scan(&out, m, subject, srcToolResult, b.Text)
			}
		}
	case TypeAssistant:
		action := ActionPrefix + m.UUID
		task := x.taskFor(m)
		x.taskOf.put(m.UUID, task)
		for i := range m.Blocks {
			if b := &m.Blocks[i]; b.Type == BlockToolUse && b.ToolUseID != "" {
				x.toolAction.put(b.ToolUseID, action)
			}
		}
		if !emit {
			return nil
		}
		if task != "" {
			x.add(&out, m, action, PredPartOfTask, task, 1, RuleStructural)
		}
		for i := range m.Blocks {
			b := &m.Blocks[i]
			if b.Type == BlockToolUse && b.ToolName != "" {
				x.add(&out, m, action, PredUsedTool, b.ToolName, 1, RuleStructural)
			}
		}
		for i := range m.Blocks {
			b := &m.Blocks[i]
			if b.Type == BlockToolUse && IsShellTool(b.ToolName) && strings.TrimSpace(b.Command) != "" {
				x.add(&out, m, action, PredExecutedCommand, strings.TrimSpace(b.Command), 1, RuleStructural)
			}
		}
		if len(m.Blocks) == 0 {
			x.scan(&out, m, action, srcAssistantText, m.Text)
		}
		for i := range m.Blocks {
			b := &m.Blocks[i]
			switch b.Type {
			case BlockText:
				x.scan(&out, m, action, srcAssistantText, b.Text)
			case BlockThinking:
				x.scan(&out, m, action, srcThinking, b.Text)
			case BlockToolUse:
				if IsShellTool(b.ToolName) {
					x.scan(&out, m, action, srcCommand, b.Command)
				} else {
					x.scanInput(&out, m, action, b.Input)
				}
			}
		}
	}
	return out
}

// taskFor returns the task of m's parent, or else the latest task of its session.
func (x *Extractor) taskFor(m *Message) string {
	if m.ParentUUID != "" {
		if t, ok := x.taskOf.get(m.ParentUUID); ok && t != "" {
			return t
		}
	}
	t, _ := x.lastTask.get(m.SessionID)
	return t
}

// IsShellTool reports whether a tool of this name runs shell commands: Bash, or
// any name containing shell, bash, terminal or exec (case-insensitive).
func IsShellTool(name string) bool {
	if name == "Bash" {
		return true
	}
	n := asciiLower(name)
	return strings.Contains(n, "shell") || strings.Contains(n, "bash") ||
		strings.Contains(n, "terminal") || strings.Contains(n, "exec")
}

// isTask reports whether the user message m is a request from the user.
func isTask(m *Message) bool {
	if m.IsMeta || m.IsToolResult() {
		return false
	}
	text := strings.TrimSpace(m.Text)
	if strings.HasPrefix(text, "[Request interrupted by user") {
		return false
	}
	if text != "" {
		return true
	}
	for i := range m.Blocks {
		if t := m.Blocks[i].Type; t != BlockToolResult && t != BlockText {
			return true // an image or a document on its own
		}
	}
	return false
}

// scanInput applies the input rules to the path-like string fields of a tool input.
func (x *Extractor) scanInput(out *[]Fact, m *Message, subject string, input []byte) {
	if len(input) == 0 || !x.wants(srcInput) {
		return
	}
	s := &x.s
	s.data, s.pos, s.depth = input, 0, 0
	if s.peek() != '{' {
		return
	}
	var fields []string
	_ = s.object(func(key []byte) error {
		k := asciiLower(string(key))
		if s.peek() == '"' && (strings.Contains(k, "path") || strings.Contains(k, "file") ||
			strings.Contains(k, "dir") || strings.Contains(k, "url") || strings.Contains(k, "host")) {
			v, err := s.readString()
			if len(v) <= maxInputField {
				fields = append(fields, v)
			}
			return err
		}
		return s.skip()
	})
	for _, f := range fields {
		x.scan(out, m, subject, srcInput, f)
	}
}

func (x *Extractor) wants(src sources) bool {
	for _, r := range x.rules {
		if r.src&src != 0 {
			return true
		}
	}
	return false
}

// scan applies the rules for src to text, adding facts about subject.
func (x *Extractor) scan(out *[]Fact, m *Message, subject string, src sources, text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	if len(text) > x.opts.ScanLimit {
		cut := x.opts.ScanLimit
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
	}
	lowered := false
	for _, r := range x.rules {
		if r.src&src == 0 {
			continue
		}
		if r.when != nil && (r.whenLit != "" && !strings.Contains(text, r.whenLit) || !r.when.MatchString(text)) {
			continue
		}
		if r.parse != nil {
			n := 0
			for _, obj := range r.parse(text) {
				if r.stop[strings.ToLower(obj)] || r.unless != nil && r.unless.MatchString(obj) {
					continue
				}
				if x.add(out, m, subject, r.Predicate, obj, r.Confidence, r.Name) {
					n++
				}
				if n >= r.limit {
					break
				}
			}
			continue
		}
		var matches [][]int
		if r.re != nil {
			if r.reLit != "" && !strings.Contains(text, r.reLit) {
				continue
			}
			matches = r.re.FindAllStringSubmatchIndex(text, 4*r.limit+4)
		} else {
			if !lowered {
				x.lower = appendLower(x.lower[:0], text)
				lowered = true
			}
			matches = x.findKeywords(x.lower, r.keywords, 4*r.limit+4, r.mode == ObjectSnippet)
		}
		n := 0
		for _, mt := range matches {
			obj, ok := x.object(r, text, mt)
			if !ok {
				continue
			}
			if r.stop[strings.ToLower(obj)] || r.unless != nil && r.unless.MatchString(obj) {
				continue
			}
			if x.add(out, m, subject, r.Predicate, obj, r.Confidence, r.Name) {
				n++
			}
			if n >= r.limit {
				break
			}
		}
	}
}

// object computes the object of rule r for match mt of text.
func (x *Extractor) object(r *rule, text string, mt []int) (string, bool) {
	switch r.mode {
	case ObjectMatch:
		return cleanMatch(text[mt[0]:mt[1]]), true
	case "group":
		if 2*r.group+1 >= len(mt) || mt[2*r.group] < 0 {
			return "", false
		}
		return cleanMatch(text[mt[2*r.group]:mt[2*r.group+1]]), true
	case ObjectSnippet:
		snip := snippet(text, mt[0], mt[1], x.opts.SnippetLen)
		if meaningful(snip)-meaningful(text[mt[0]:mt[1]]) < x.opts.MinSnippetChars {
			return "", false
		}
		return snip, true
	}
	return r.Object, true
}

// add appends a fact unless the message already has it (then the higher
// confidence is kept). It reports whether a new fact was added.
func (x *Extractor) add(out *[]Fact, m *Message, subject, pred, obj string, conf float64, ruleName string) bool {
	obj = x.finish(obj)
	if obj == "" {
		return false
	}
	for i := range *out {
		f := &(*out)[i]
		if f.Subject == subject && f.Predicate == pred && f.Object == obj {
			if conf > f.Confidence {
				f.Confidence, f.Rule = conf, ruleName
			}
			return false
		}
	}
	*out = append(*out, Fact{
		Subject: subject, Predicate: pred, Object: obj, Confidence: conf, Rule: ruleName,
		File: m.File, Line: m.Line, Offset: m.Offset, UUID: m.UUID, SessionID: m.SessionID, Timestamp: m.Timestamp,
	})
	return true
}

// finish makes obj storable: no NUL bytes, valid UTF-8, redacted if asked, at most
// MaxObjectLen bytes, not blank.
func (x *Extractor) finish(obj string) string {
	if strings.IndexByte(obj, 0) >= 0 {
		obj = strings.ReplaceAll(obj, "\x00", "")
	}
	obj = strings.ToValidUTF8(obj, "\uFFFD")
	if x.opts.Redact {
		obj = Redact(obj)
	}
	if len(obj) > x.opts.MaxObjectLen {
		cut := x.opts.MaxObjectLen - len("…")
		for cut > 0 && !utf8.RuneStart(obj[cut]) {
			cut--
		}
		obj = obj[:cut] + "…"
	}
	if strings.TrimSpace(obj) == "" {
		return ""
	}
	return obj
}

// findKeywords returns up to n non-overlapping whole-word occurrences of the
// keywords in lower (the ASCII-lower-cased text), in text order, as [start, end];
// strict word edges (see wordEdge) when strict.
func (x *Extractor) findKeywords(lower []byte, kws [][]byte, n int, strict bool) [][]int {
	x.kw = x.kw[:0]
	for _, k := range kws {
		found := 0
		for from := 0; found < n && from < len(lower); {
			i := bytes.Index(lower[from:], k)
			if i < 0 {
				break
			}
			s := from + i
			e := s + len(k)
			if wordEdge(lower, s, e, strict) {
				x.kw = append(x.kw, []int{s, e})
				found++
			}
			from = s + 1
		}
	}
	if len(x.kw) == 0 {
		return nil
	}
	slices.SortFunc(x.kw, func(a, b []int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return b[1] - a[1] // the longer keyword first
	})
	out := x.kw[:1]
	for _, m := range x.kw[1:] {
		if m[0] >= out[len(out)-1][1] {
			out = append(out, m)
		}
	}
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// recent is a map that forgets: it keeps at least the last max entries put and at
// most 2*max, by swapping in a fresh generation when the current one is full.
type recent struct {
	cur, old map[string]string
	max      int
}

func (r *recent) put(k, v string) {
	if k == "" {
		return
	}
	if r.cur == nil {
		r.cur = make(map[string]string)
	}
	if len(r.cur) >= r.max {
		r.old, r.cur = r.cur, make(map[string]string)
	}
	r.cur[k] = v
}

func (r *recent) get(k string) (string, bool) {
	if v, ok := r.cur[k]; ok {
		return v, true
	}
	v, ok := r.old[k]
	return v, ok
}
