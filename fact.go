package factbase

import "time"

// ValueType says how a fact's value is to be read. The value itself is always stored
// as the original text.
type ValueType string

// The value types.
const (
	String ValueType = "string"
	Number ValueType = "number"
	Bool   ValueType = "bool"
	Date   ValueType = "date"
	JSON   ValueType = "json"
)

// Category is a fact's sheet category, which weights it on the fact sheet.
type Category string

// The sheet categories.
const (
	Core      Category = "core"
	Technical Category = "technical"
	Project   Category = "project"
	Transient Category = "transient"
)

// Categories lists the sheet categories in sheet order.
var Categories = []Category{Core, Technical, Project, Transient}

// Durability says how long a fact is expected to stay true.
type Durability string

// The durabilities.
const (
	Durable Durability = "durable"
	Long    Durability = "long"
	Medium  Durability = "medium"
	Short   Durability = "short"
)

// Sensitivity says how private a fact is; a privacy mode hides High.
type Sensitivity string

// The sensitivities.
const (
	Low        Sensitivity = "low"
	MediumSens Sensitivity = "medium"
	High       Sensitivity = "high"
)

// Source says where a fact came from.
type Source struct {
	Kind string `json:"kind"`         // message, transcript, episode, manual
	ID   string `json:"id,omitempty"` // message id, "file:line:uuid", episode id, ...
}

// The source kinds.
const (
	SourceMessage    = "message"
	SourceTranscript = "transcript"
	SourceEpisode    = "episode"
	SourceManual     = "manual"
)

// Fact is one stored statement: subject has key = value. A fact is current until it is
// superseded, retracted or removed; history keeps every version.
type Fact struct {
	ID           string      `json:"id"`   // time-sortable (UUIDv7)
	User         UserID      `json:"user"` // owner
	Subject      string      `json:"subject"`
	Key          string      `json:"key"`
	Cardinality  Cardinality `json:"cardinality"`
	Value        string      `json:"value"` // the original spelling
	ValueType    ValueType   `json:"value_type"`
	Rank         int         `json:"rank,omitempty"` // ranked lists only, 1..N
	Text         string      `json:"text,omitempty"` // natural-language form, <= 200 chars
	Type         string      `json:"type,omitempty"` // schedule, travel, health, allergy, preference, ...
	Category     Category    `json:"category"`
	Confidence   float64     `json:"confidence"`
	Scope        string      `json:"scope,omitempty"` // "" = all workspaces
	Durability   Durability  `json:"durability,omitempty"`
	Sensitivity  Sensitivity `json:"sensitivity,omitempty"`
	SaidBy       string      `json:"said_by,omitempty"`  // who stated it: user, assistant, entity:<id>
	Temporal     string      `json:"temporal,omitempty"` // the temporal marker as said ("next Friday")
	Anchor       *time.Time  `json:"anchor,omitempty"`   // the marker resolved to a time
	Source       Source      `json:"source"`
	Extractor    string      `json:"extractor,omitempty"` // rule name, llm, manual
	RecordedAt   time.Time   `json:"recorded_at"`
	ValidFrom    time.Time   `json:"valid_from"`
	ValidTo      *time.Time  `json:"valid_to,omitempty"`
	Supersedes   string      `json:"supersedes,omitempty"`
	SupersededBy string      `json:"superseded_by,omitempty"`
	Current      bool        `json:"current"`
	// Index, when not empty, is what the store's full-text index holds for the fact
	// in place of its Text, Key and Value: the sealed store's hashed words
	// (internal/seal), so that a store holding sealed texts still ranks by BM25.
	// Set on writes only; never read back, never shown.
	Index string `json:"-"`
}

// MaxTextLen is the most characters a fact's text may hold.
const MaxTextLen = 200

// MaxValueLen is the most bytes a fact's value may hold.
const MaxValueLen = 4096
