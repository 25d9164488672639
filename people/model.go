package people

import (
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/when"
)

// User is the About (and SaidBy) index that stands for the speaker's user: facts about
// the user have About == User.
const User = -1

// The speakers of a message.
const (
	SpeakerUser      = "user"
	SpeakerAssistant = "assistant"
)

// Options configure Extract. The zero value reads a user's message with no time
// anchors (markers are kept as said, unresolved).
type Options struct {
	// Now is the time the message was said; temporal markers resolve against it.
	// Zero: markers are kept as said with no anchor.
	Now time.Time
	// Speaker is who wrote the message: SpeakerUser (the default) or SpeakerAssistant
	// (then "you"/"your" is the user, and facts are said by the assistant).
	Speaker string
	// UserBasics also extracts the user's own home city, employer, job title, contact
	// details and birthday, which the router already handles for Say. Default false.
	UserBasics bool
	// Known are the user's entities; their names and aliases are recognised even when
	// written in lower case ("leo loves lego").
	Known []factbase.Entity
}

// Mention is a person (or pet) a message talks about, as far as the message tells.
type Mention struct {
	Name     string        `json:"name,omitempty"`
	Relation string        `json:"relation,omitempty"` // "son", "son's friend", "accountant"
	Role     factbase.Role `json:"role,omitempty"`     // "" when the message gives no relation
	Gender   string        `json:"gender,omitempty"`   // "male", "female" or ""
	Age      string        `json:"age,omitempty"`
	// Unique relations name one person at a time ("my wife", "my mom").
	Unique bool `json:"unique,omitempty"`
	// Owner is the mention whose relation this one is ("my son's friend": the son);
	// User when the relation is the user's own.
	Owner int `json:"owner"`
	// Pronoun reports a mention known only from a pronoun or a bare role word that
	// did not match anything earlier in the message.
	Pronoun bool   `json:"pronoun,omitempty"`
	Span    string `json:"span"`
}

// Fact is one personal fact a message states, before attribution: About and SaidBy
// index Extraction.Mentions (or are User).
type Fact struct {
	About       int                  `json:"about"`
	SaidBy      int                  `json:"said_by"`
	Key         string               `json:"key"`
	Value       string               `json:"value"`
	Cardinality factbase.Cardinality `json:"cardinality"`
	ValueType   factbase.ValueType   `json:"value_type"`
	Type        string               `json:"type"`
	Category    factbase.Category    `json:"category"`
	Confidence  float64              `json:"confidence"`
	Durability  factbase.Durability  `json:"durability"`
	Sensitivity factbase.Sensitivity `json:"sensitivity"`
	Temporal    string               `json:"temporal,omitempty"` // the marker as said
	Anchor      *time.Time           `json:"anchor,omitempty"`
	Recur       when.Recurrence      `json:"recur,omitempty"`
	// Correction reports an explicit change ("Sarah now works at ...", "moved to"):
	// it applies directly instead of waiting for confirmation.
	Correction bool   `json:"correction,omitempty"`
	Rule       string `json:"rule"`
	Span       string `json:"span"`
	// text renders the fact's text given the subject's label.
	text func(subject string) string
}

// Text renders the fact as a sentence about subject (a label such as "Leo" or
// "User").
func (f Fact) Text(subject string) string {
	if f.text == nil {
		return subject + " " + f.Key + ": " + f.Value
	}
	return f.text(subject)
}

// Skip is a statement the extractor recognised but did not turn into facts, with the
// reason: a question, a negation, a hypothetical, a past state, a group, a pronoun
// with nobody to refer to.
type Skip struct {
	Span   string `json:"span"`
	Reason string `json:"reason"`
}

// Extraction is what Extract found in one message.
type Extraction struct {
	Mentions []Mention `json:"mentions"`
	Facts    []Fact    `json:"facts"`
	Skips    []Skip    `json:"skips"`
}

// keySpec holds what every fact of a key shares.
type keySpec struct {
	typ  string
	card factbase.Cardinality
	vt   factbase.ValueType
	cat  factbase.Category
	dur  factbase.Durability
	sens factbase.Sensitivity
	conf float64
}

// The keys of personal facts.
const (
	KeyRelation    = "relation"
	KeyAge         = "age"
	KeyAllergy     = "allergy"
	KeyDiet        = "diet"
	KeyAvoid       = "diet.avoid"
	KeyCondition   = "health.condition"
	KeyMedication  = "medical.medication"
	KeyBirthday    = "birthday"
	KeyAnniversary = "anniversary"
	KeyEmployer    = "work.employer"
	KeyRole        = "work.role"
	KeyCity        = "home.city"
	KeyOrigin      = "home.origin"
	KeyLikes       = "likes"
	KeyDislikes    = "dislikes"
	KeyFears       = "fears"
	KeySchedule    = "schedule"
	KeyPlan        = "plan"
	KeyTravel      = "travel"
	KeyEmail       = "contact.email"
	KeyPhone       = "contact.phone"
	KeyLanguage    = "comm.language"
	KeyLength      = "comm.length"
	KeyFormat      = "comm.format"
	KeyTone        = "comm.tone"
	KeyEmoji       = "comm.emoji"
	KeyUnits       = "comm.units"
	KeySpeaks      = "languages"
)

// CommPrefix starts the keys of communication preferences.
const CommPrefix = "comm."

var specs = map[string]keySpec{
	KeyRelation:    {"relationship", factbase.One, factbase.String, factbase.Core, factbase.Durable, factbase.Low, 0.95},
	KeyAge:         {"personal", factbase.One, factbase.Number, factbase.Core, factbase.Medium, factbase.Low, 0.9},
	KeyAllergy:     {"allergy", factbase.Many, factbase.String, factbase.Core, factbase.Durable, factbase.MediumSens, 0.95},
	KeyDiet:        {"diet", factbase.One, factbase.String, factbase.Core, factbase.Long, factbase.Low, 0.9},
	KeyAvoid:       {"diet", factbase.Many, factbase.String, factbase.Core, factbase.Long, factbase.Low, 0.9},
	KeyCondition:   {"health", factbase.Many, factbase.String, factbase.Core, factbase.Long, factbase.High, 0.9},
	KeyMedication:  {"medical", factbase.Many, factbase.String, factbase.Core, factbase.Long, factbase.High, 0.95},
	KeyBirthday:    {"birthday", factbase.One, factbase.Date, factbase.Core, factbase.Durable, factbase.Low, 0.95},
	KeyAnniversary: {"anniversary", factbase.One, factbase.Date, factbase.Core, factbase.Durable, factbase.Low, 0.95},
	KeyEmployer:    {"work", factbase.One, factbase.String, factbase.Core, factbase.Long, factbase.Low, 0.9},
	KeyRole:        {"work", factbase.One, factbase.String, factbase.Core, factbase.Long, factbase.Low, 0.9},
	KeyCity:        {"home", factbase.One, factbase.String, factbase.Core, factbase.Long, factbase.MediumSens, 0.9},
	KeyOrigin:      {"home", factbase.One, factbase.String, factbase.Core, factbase.Durable, factbase.Low, 0.9},
	KeyLikes:       {"preference", factbase.Many, factbase.String, factbase.Core, factbase.Long, factbase.Low, 0.85},
	KeyDislikes:    {"preference", factbase.Many, factbase.String, factbase.Core, factbase.Long, factbase.Low, 0.85},
	KeyFears:       {"preference", factbase.Many, factbase.String, factbase.Core, factbase.Long, factbase.Low, 0.85},
	KeySchedule:    {"schedule", factbase.Many, factbase.String, factbase.Project, factbase.Medium, factbase.Low, 0.85},
	KeyPlan:        {"plan", factbase.Many, factbase.String, factbase.Transient, factbase.Short, factbase.Low, 0.8},
	KeyTravel:      {"travel", factbase.Many, factbase.String, factbase.Transient, factbase.Short, factbase.Low, 0.85},
	KeyEmail:       {"contact", factbase.One, factbase.String, factbase.Core, factbase.Long, factbase.MediumSens, 0.95},
	KeyPhone:       {"contact", factbase.One, factbase.String, factbase.Core, factbase.Long, factbase.MediumSens, 0.95},
	KeyLanguage:    {"preference", factbase.One, factbase.String, factbase.Core, factbase.Short, factbase.Low, 0.9},
	KeyLength:      {"preference", factbase.One, factbase.String, factbase.Core, factbase.Short, factbase.Low, 0.9},
	KeyFormat:      {"preference", factbase.One, factbase.String, factbase.Core, factbase.Short, factbase.Low, 0.9},
	KeyTone:        {"preference", factbase.One, factbase.String, factbase.Core, factbase.Short, factbase.Low, 0.9},
	KeyEmoji:       {"preference", factbase.One, factbase.String, factbase.Core, factbase.Short, factbase.Low, 0.9},
	KeyUnits:       {"preference", factbase.One, factbase.String, factbase.Core, factbase.Short, factbase.Low, 0.9},
	KeySpeaks:      {"personal", factbase.Many, factbase.String, factbase.Core, factbase.Long, factbase.Low, 0.85},
}

// Cardinalities returns the cardinality of every key the extractor writes, to
// declare on an engine (the many-valued keys are sets).
func Cardinalities() map[string]factbase.Cardinality {
	out := make(map[string]factbase.Cardinality, len(specs))
	for k, s := range specs {
		out[k] = s.card
	}
	return out
}

// Spec returns the type, cardinality, category, durability, sensitivity and
// confidence the extractor gives facts of key; ok is false for keys it never writes.
func Spec(key string) (typ string, card factbase.Cardinality, cat factbase.Category, dur factbase.Durability, sens factbase.Sensitivity, conf float64, ok bool) {
	s, ok := specs[key]
	return s.typ, s.card, s.cat, s.dur, s.sens, s.conf, ok
}

// routerKeys are the user's own keys the router already writes for Say.
var routerKeys = map[string]bool{
	KeyCity: true, KeyEmployer: true, KeyRole: true, KeyEmail: true, KeyPhone: true, KeyBirthday: true,
}
