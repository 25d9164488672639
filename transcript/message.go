package transcript

import (
	"encoding/json"
	"strings"
	"time"
)

// The message types a transcript line may have. Lines of any other type are
// delivered too (their Type says what they are); the Extractor makes no facts of
// them and Sessions counts them as Other.
const (
	TypeUser      = "user"
	TypeAssistant = "assistant"
	TypeSummary   = "summary"
	TypeSystem    = "system"
)

// The content block types the parser knows. Blocks of other types are kept with
// their Type (and Text, if they have a "text" field) and otherwise ignored.
const (
	BlockText       = "text"
	BlockToolUse    = "tool_use"
	BlockToolResult = "tool_result"
	BlockThinking   = "thinking"
)

// Message is one line of a session log.
type Message struct {
	File   string // the file name given to the Reader
	Line   int    // 1-based line number
	Offset int64  // byte offset of the line's first byte
	End    int64  // byte offset just past the line's newline

	Type       string // user, assistant, summary, system, ...
	UUID       string
	ParentUUID string
	SessionID  string
	CWD        string
	GitBranch  string
	Version    string // the agent's version
	Timestamp  time.Time
	// IsSidechain marks a sub-agent's messages (Claude Code's Task tool).
	IsSidechain bool
	// IsMeta marks a user message the agent injected itself (Claude Code's
	// caveats and command notices): not something the user asked.
	IsMeta bool
	// LeafUUID is a summary line's pointer to the last message it summarises.
	LeafUUID string

	// Role is message.role ("user", "assistant"), when present.
	Role string
	// Text is the message's prose: the string content, or the text blocks joined
	// by newlines; for a summary line its summary, for a system line its content.
	// Tool results and thinking are in Blocks, not here.
	Text string
	// Blocks are the content blocks, when message.content is a list.
	Blocks []Block
}

// Block is one content block of a message.
type Block struct {
	Type string // text, tool_use, tool_result, thinking, or an unknown type
	// Text is the block's text: a text block's text, a thinking block's thinking,
	// a tool result's content (a string, or its text blocks joined by newlines).
	Text      string
	ToolName  string          // tool_use: the tool's name
	ToolUseID string          // tool_use: its id; tool_result: the id it answers
	Input     json.RawMessage // tool_use: the input, verbatim
	// Command is a tool_use input's "command" (or "cmd") field: a string, or a list
	// of strings joined by spaces. It is set for any tool; whether the tool is a
	// shell is the Extractor's business.
	Command string
	IsError bool // tool_result: is_error
}

// IsToolResult reports whether m is a user message whose content is only
// tool_result blocks: the output of tools the assistant ran, not a user's request.
func (m *Message) IsToolResult() bool {
	if m.Type != TypeUser || len(m.Blocks) == 0 {
		return false
	}
	for i := range m.Blocks {
		if m.Blocks[i].Type != BlockToolResult {
			return false
		}
	}
	return true
}

// parser turns one line into a Message. It keeps the previous line's repeated
// strings so that they are shared rather than allocated for every line.
type parser struct {
	s    scanner
	prev Message
	text []string // scratch for joining text blocks
}

// errNotObject is reported for a line that is JSON but not an object.
type lineError string

func (e lineError) Error() string { return string(e) }

// parse decodes line into m. The returned error is a *syntaxError or a lineError.
func (p *parser) parse(line []byte, m *Message) error {
	s := &p.s
	s.data, s.pos, s.depth = line, 0, 0
	s.ws()
	if s.peek() != '{' {
		if err := s.skip(); err != nil {
			return err
		}
		return lineError("line is not a JSON object")
	}
	var ts string
	var hasType bool
	err := s.object(func(key []byte) error {
		var err error
		switch string(key) {
		case "type":
			if s.peek() != '"' {
				start := s.pos
				if err := s.skip(); err != nil {
					return err
				}
				return &syntaxError{off: start, msg: "field type is " + kindOf(s.data[start]) + ", want a string"}
			}
			m.Type, err = s.readStringSame(p.prev.Type)
			hasType = true
		case "uuid":
			m.UUID, err = s.readStringOrNull("uuid", "")
		case "parentUuid":
			m.ParentUUID, err = s.readStringOrNull("parentUuid", "")
		case "sessionId":
			m.SessionID, err = s.readStringOrNull("sessionId", p.prev.SessionID)
		case "cwd":
			m.CWD, err = s.readStringOrNull("cwd", p.prev.CWD)
		case "gitBranch":
			m.GitBranch, err = s.readStringOrNull("gitBranch", p.prev.GitBranch)
		case "version":
			m.Version, err = s.readStringOrNull("version", p.prev.Version)
		case "timestamp":
			ts, err = s.readStringOrNull("timestamp", "")
		case "leafUuid":
			m.LeafUUID, err = s.readStringOrNull("leafUuid", "")
		case "isSidechain":
			m.IsSidechain, err = s.readBool()
		case "isMeta":
			m.IsMeta, err = s.readBool()
		case "summary":
			if s.peek() == '"' {
				m.Text, err = s.readString()
			} else {
				err = s.skip()
			}
		case "content":
			// A system line's text; other types may carry other shapes here.
			if s.peek() == '"' && m.Text == "" {
				m.Text, err = s.readString()
			} else {
				err = s.skip()
			}
		case "message":
			if s.peek() == '{' {
				err = p.message(m)
			} else {
				err = s.skip()
			}
		default:
			err = s.skip()
		}
		return err
	})
	if err != nil {
		return err
	}
	s.ws()
	if s.pos < len(s.data) {
		return s.unexpected("end of line")
	}
	if !hasType {
		return lineError("line has no type")
	}
	if (m.Type == TypeUser || m.Type == TypeAssistant) && m.UUID == "" {
		return lineError(m.Type + " line has no uuid")
	}
	if ts != "" {
		// An unreadable timestamp leaves Timestamp zero; the message is still useful.
		if t, err := time.Parse(time.RFC3339Nano, ts); err == nil {
			m.Timestamp = t
		}
	}
	p.prev.Type, p.prev.SessionID, p.prev.CWD = m.Type, m.SessionID, m.CWD
	p.prev.GitBranch, p.prev.Version = m.GitBranch, m.Version
	return nil
}

// message reads the "message" object of a line.
func (p *parser) message(m *Message) error {
	s := &p.s
	return s.object(func(key []byte) error {
		switch string(key) {
		case "role":
			var err error
			m.Role, err = s.readStringOrNull("message.role", p.prev.Role)
			p.prev.Role = m.Role
			return err
		case "content":
			m.Text, m.Blocks = "", nil // a repeated key: the last one wins
			switch s.peek() {
			case '"':
				var err error
				m.Text, err = s.readString()
				return err
			case '[':
				return p.blocks(m)
			}
			return s.skip() // null or an unknown shape: tolerated
		}
		return s.skip()
	})
}

// blocks reads message.content as a list of blocks and sets m.Blocks and m.Text.
func (p *parser) blocks(m *Message) error {
	s := &p.s
	p.text = p.text[:0]
	err := s.array(func() error {
		if s.peek() != '{' {
			return s.skip() // not a block: tolerated
		}
		var b Block
		if err := p.block(&b); err != nil {
			return err
		}
		if b.Type == BlockText && b.Text != "" {
			p.text = append(p.text, b.Text)
		}
		m.Blocks = append(m.Blocks, b)
		return nil
	})
	if err != nil {
		return err
	}
	switch len(p.text) {
	case 0:
	case 1:
		m.Text = p.text[0]
	default:
		m.Text = strings.Join(p.text, "\n")
	}
	return nil
}

func (p *parser) block(b *Block) error {
	s := &p.s
	return s.object(func(key []byte) error {
		var err error
		switch string(key) {
		case "type":
			if s.peek() == '"' {
				b.Type, err = s.readString()
				b.Type = internBlockType(b.Type)
			} else {
				err = s.skip()
			}
		case "text", "thinking":
			if s.peek() == '"' {
				b.Text, err = s.readString()
			} else {
				err = s.skip()
			}
		case "name":
			b.ToolName, err = s.readStringOrNull("name", "")
		case "id", "tool_use_id":
			b.ToolUseID, err = s.readStringOrNull(string(key), "")
		case "is_error":
			b.IsError, err = s.readBool()
		case "input":
			err = p.input(b)
		case "content":
			switch s.peek() {
			case '"':
				b.Text, err = s.readString()
			case '[':
				b.Text, err = p.resultBlocks()
			default:
				err = s.skip()
			}
		default:
			err = s.skip()
		}
		return err
	})
}

func internBlockType(t string) string {
	switch t {
	case BlockText:
		return BlockText
	case BlockToolUse:
		return BlockToolUse
	case BlockToolResult:
		return BlockToolResult
	case BlockThinking:
		return BlockThinking
	}
	return t
}

// resultBlocks reads a tool result's list content and returns its text blocks
// joined by newlines; images and other blocks are skipped.
func (p *parser) resultBlocks() (string, error) {
	s := &p.s
	var parts []string
	err := s.array(func() error {
		if s.peek() != '{' {
			return s.skip()
		}
		var typ, text string
		err := s.object(func(key []byte) error {
			var err error
			switch string(key) {
			case "type":
				if s.peek() == '"' {
					typ, err = s.readString()
					return err
				}
			case "text":
				if s.peek() == '"' {
					text, err = s.readString()
					return err
				}
			}
			return s.skip()
		})
		if err == nil && typ == BlockText && text != "" {
			parts = append(parts, text)
		}
		return err
	})
	return strings.Join(parts, "\n"), err
}

// input reads a tool_use input verbatim and picks out its command.
func (p *parser) input(b *Block) error {
	s := &p.s
	start := s.pos
	var err error
	if s.peek() == '{' {
		err = s.object(func(key []byte) error {
			switch string(key) {
			case "command", "cmd":
				if b.Command != "" {
					break // "command" and "cmd" both present: the first wins
				}
				switch s.peek() {
				case '"':
					var err error
					b.Command, err = s.readString()
					return err
				case '[':
					var parts []string
					err := s.array(func() error {
						if s.peek() != '"' {
							return s.skip()
						}
						v, err := s.readString()
						parts = append(parts, v)
						return err
					})
					b.Command = strings.Join(parts, " ")
					return err
				}
			}
			return s.skip()
		})
	} else {
		err = s.skip()
	}
	if err != nil {
		return err
	}
	b.Input = append(json.RawMessage(nil), s.data[start:s.pos]...)
	return nil
}
