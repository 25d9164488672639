package transcript

import "time"

// Session is what a log says about one agent session.
type Session struct {
	ID        string
	File      string // the file it was first seen in
	CWD       string // the first working directory seen
	GitBranch string // the latest git branch seen
	Version   string // the latest agent version seen
	// Summary is the latest summary line attached to the session (Claude Code
	// writes these without a session id; they are attached to the session they
	// appear with in the same file).
	Summary     string
	First, Last time.Time // earliest and latest message timestamps
	Users       int       // user lines (requests and tool results)
	Assistants  int       // assistant lines
	Other       int       // lines of other types (summary, system, ...)
}

// Merge returns s updated with what o (a later read of the same session) adds:
// counts summed, the time range widened, the later non-empty metadata kept.
func (s Session) Merge(o Session) Session {
	if s.ID == "" {
		s.ID = o.ID
	}
	if s.File == "" {
		s.File = o.File
	}
	if s.CWD == "" {
		s.CWD = o.CWD
	}
	if o.GitBranch != "" {
		s.GitBranch = o.GitBranch
	}
	if o.Version != "" {
		s.Version = o.Version
	}
	if o.Summary != "" {
		s.Summary = o.Summary
	}
	if !o.First.IsZero() && (s.First.IsZero() || o.First.Before(s.First)) {
		s.First = o.First
	}
	if o.Last.After(s.Last) {
		s.Last = o.Last
	}
	s.Users += o.Users
	s.Assistants += o.Assistants
	s.Other += o.Other
	return s
}

// Sessions accumulates Session metadata from messages. The zero value is not
// usable; call NewSessions. It is not safe for concurrent use.
type Sessions struct {
	byID    map[string]*Session
	order   []string
	last    map[string]string   // file -> the session its latest message belonged to
	pending map[string][]string // file -> summaries seen before any session
	pendN   map[string]int      // file -> other lines seen before any session
}

// NewSessions returns an empty tracker.
func NewSessions() *Sessions {
	return &Sessions{
		byID:    map[string]*Session{},
		last:    map[string]string{},
		pending: map[string][]string{},
		pendN:   map[string]int{},
	}
}

// Add counts m into its session. A line without a session id (a summary) is
// attached to the latest session of the same file, or held until one appears.
func (s *Sessions) Add(m Message) {
	id := m.SessionID
	if id == "" {
		id = s.last[m.File]
	}
	if id == "" {
		if m.Type == TypeSummary && m.Text != "" {
			s.pending[m.File] = append(s.pending[m.File], m.Text)
		}
		s.pendN[m.File]++
		return
	}
	ss, ok := s.byID[id]
	if !ok {
		ss = &Session{ID: id, File: m.File}
		s.byID[id] = ss
		s.order = append(s.order, id)
	}
	if m.SessionID != "" {
		s.last[m.File] = id
	}
	if p := s.pending[m.File]; len(p) > 0 {
		ss.Summary = p[len(p)-1]
		delete(s.pending, m.File)
	}
	if n := s.pendN[m.File]; n > 0 {
		ss.Other += n
		delete(s.pendN, m.File)
	}
	// The message is a session of one line, merged in like a later read.
	one := Session{CWD: m.CWD, GitBranch: m.GitBranch, Version: m.Version, First: m.Timestamp, Last: m.Timestamp}
	switch m.Type {
	case TypeUser:
		one.Users = 1
	case TypeAssistant:
		one.Assistants = 1
	default:
		one.Other = 1
	}
	if m.Type == TypeSummary {
		one.Summary = m.Text
	}
	*ss = ss.Merge(one)
}

// Get returns the session with id id.
func (s *Sessions) Get(id string) (Session, bool) {
	ss, ok := s.byID[id]
	if !ok {
		return Session{}, false
	}
	return *ss, true
}

// List returns the sessions in the order they were first seen.
func (s *Sessions) List() []Session {
	out := make([]Session, 0, len(s.order))
	for _, id := range s.order {
		out = append(out, *s.byID[id])
	}
	return out
}
