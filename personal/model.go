package personal

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

// specs give what the extractor writes with each of its keys: type, cardinality,
// value type, category, durability, sensitivity and confidence.
var specs = map[string]keySpec{
	factbase.KeyRelation:    {"relationship", factbase.One, factbase.String, factbase.Core, factbase.Durable, factbase.Low, 0.95},
	factbase.KeyAge:         {"personal", factbase.One, factbase.Number, factbase.Core, factbase.Medium, factbase.Low, 0.9},
	factbase.KeyAllergy:     {"allergy", factbase.Many, factbase.String, factbase.Core, factbase.Durable, factbase.MediumSens, 0.95},
	factbase.KeyDiet:        {"diet", factbase.One, factbase.String, factbase.Core, factbase.Long, factbase.Low, 0.9},
	factbase.KeyAvoid:       {"diet", factbase.Many, factbase.String, factbase.Core, factbase.Long, factbase.Low, 0.9},
	factbase.KeyCondition:   {"health", factbase.Many, factbase.String, factbase.Core, factbase.Long, factbase.High, 0.9},
	factbase.KeyMedication:  {"medical", factbase.Many, factbase.String, factbase.Core, factbase.Long, factbase.High, 0.95},
	factbase.KeyBirthday:    {"birthday", factbase.One, factbase.Date, factbase.Core, factbase.Durable, factbase.Low, 0.95},
	factbase.KeyAnniversary: {"anniversary", factbase.One, factbase.Date, factbase.Core, factbase.Durable, factbase.Low, 0.95},
	factbase.KeyEmployer:    {"work", factbase.One, factbase.String, factbase.Core, factbase.Long, factbase.Low, 0.9},
	factbase.KeyRole:        {"work", factbase.One, factbase.String, factbase.Core, factbase.Long, factbase.Low, 0.9},
	factbase.KeyCity:        {"home", factbase.One, factbase.String, factbase.Core, factbase.Long, factbase.MediumSens, 0.9},
	factbase.KeyOrigin:      {"home", factbase.One, factbase.String, factbase.Core, factbase.Durable, factbase.Low, 0.9},
	factbase.KeyLikes:       {"preference", factbase.Many, factbase.String, factbase.Core, factbase.Long, factbase.Low, 0.85},
	factbase.KeyDislikes:    {"preference", factbase.Many, factbase.String, factbase.Core, factbase.Long, factbase.Low, 0.85},
	factbase.KeyFears:       {"preference", factbase.Many, factbase.String, factbase.Core, factbase.Long, factbase.Low, 0.85},
	factbase.KeySchedule:    {"schedule", factbase.Many, factbase.String, factbase.Project, factbase.Medium, factbase.Low, 0.85},
	factbase.KeyPlan:        {"plan", factbase.Many, factbase.String, factbase.Transient, factbase.Short, factbase.Low, 0.8},
	factbase.KeyTravel:      {"travel", factbase.Many, factbase.String, factbase.Transient, factbase.Short, factbase.Low, 0.85},
	factbase.KeyEmail:       {"contact", factbase.One, factbase.String, factbase.Core, factbase.Long, factbase.MediumSens, 0.95},
	factbase.KeyPhone:       {"contact", factbase.One, factbase.String, factbase.Core, factbase.Long, factbase.MediumSens, 0.95},
	factbase.KeyLanguage:    {"preference", factbase.One, factbase.String, factbase.Core, factbase.Short, factbase.Low, 0.9},
	factbase.KeyLength:      {"preference", factbase.One, factbase.String, factbase.Core, factbase.Short, factbase.Low, 0.9},
	factbase.KeyFormat:      {"preference", factbase.One, factbase.String, factbase.Core, factbase.Short, factbase.Low, 0.9},
	factbase.KeyTone:        {"preference", factbase.One, factbase.String, factbase.Core, factbase.Short, factbase.Low, 0.9},
	factbase.KeyEmoji:       {"preference", factbase.One, factbase.String, factbase.Core, factbase.Short, factbase.Low, 0.9},
	factbase.KeyUnits:       {"preference", factbase.One, factbase.String, factbase.Core, factbase.Short, factbase.Low, 0.9},
	factbase.KeySpeaks:      {"personal", factbase.Many, factbase.String, factbase.Core, factbase.Long, factbase.Low, 0.85},
	factbase.KeyLearning:    {"personal", factbase.Many, factbase.String, factbase.Core, factbase.Medium, factbase.Low, 0.85},
	factbase.KeyBreed:       {"pet", factbase.One, factbase.String, factbase.Core, factbase.Durable, factbase.Low, 0.9},
	factbase.KeySchool:      {"education", factbase.One, factbase.String, factbase.Core, factbase.Long, factbase.Low, 0.85},
	factbase.KeyGrade:       {"education", factbase.One, factbase.String, factbase.Core, factbase.Medium, factbase.Low, 0.85},
	factbase.KeyField:       {"education", factbase.One, factbase.String, factbase.Core, factbase.Long, factbase.Low, 0.85},
	factbase.KeyVehicle:     {"vehicle", factbase.Many, factbase.String, factbase.Core, factbase.Long, factbase.Low, 0.85},
	factbase.KeyHobby:       {"hobby", factbase.Many, factbase.String, factbase.Core, factbase.Long, factbase.Low, 0.85},
	factbase.KeyPrefers:     {"preference", factbase.Many, factbase.String, factbase.Core, factbase.Long, factbase.Low, 0.85},
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
	factbase.KeyCity: true, factbase.KeyEmployer: true, factbase.KeyRole: true,
	factbase.KeyEmail: true, factbase.KeyPhone: true, factbase.KeyBirthday: true,
}
