package factbase

// OpKind is what an Op does.
type OpKind string

// The op kinds.
const (
	// OpSet writes Fact according to its key's cardinality: One supersedes the current
	// fact, Many adds a member unless present, Ranked appends (Fact.Rank == 0) or places
	// the value at Fact.Rank (MOVE / INSERT / NOOP / APPEND).
	OpSet OpKind = "set"
	// OpRemove removes Fact.Value from the list or set Fact.Key; ranks close up. The
	// removed fact stays in history, no longer current.
	OpRemove OpKind = "remove"
	// OpRetract ends the validity of the fact ID (or of the current facts of
	// Fact.Subject/Fact.Key when ID is empty); history is kept.
	OpRetract OpKind = "retract"
	// OpDelete erases the fact ID (or every version of Fact.Subject/Fact.Key when ID is
	// empty) from the store, history included.
	OpDelete OpKind = "delete"
)

// Op is one requested change. Fact is a template: the write path fills in id, user,
// cardinality, times and the current flag.
type Op struct {
	Kind OpKind `json:"kind"`
	ID   string `json:"id,omitempty"`
	Fact Fact   `json:"fact"`
}

// Action is what a ranked write did to a list.
type Action string

// The ranked-list actions.
const (
	Move   Action = "MOVE"
	Insert Action = "INSERT"
	NoOp   Action = "NOOP"
	Append Action = "APPEND"
	Remove Action = "REMOVE"
)

// Duplicate reports a write that was blocked because the value was already present.
type Duplicate struct {
	Key    string `json:"key"`
	Value  string `json:"value"`
	Rank   int    `json:"rank,omitempty"` // the existing rank, for ranked lists
	FactID string `json:"fact_id"`        // the existing fact
}

// Mutation reports a change of rank in a ranked list.
type Mutation struct {
	Key     string `json:"key"`
	Value   string `json:"value"`
	Action  Action `json:"action"`
	From    int    `json:"from"`    // 0 when the value was not in the list
	To      int    `json:"to"`      // 0 when the value left the list
	Shifted int    `json:"shifted"` // how many other members' ranks changed
}

// Result reports what Apply did, counted from what the statements did.
type Result struct {
	Stored     int         `json:"stored"`          // new fact rows written
	Updated    int         `json:"updated"`         // facts superseded by a new value
	Retracted  int         `json:"retracted"`       // facts whose validity was ended
	Deleted    int         `json:"deleted"`         // fact rows erased
	Duplicates []Duplicate `json:"duplicates"`      // writes blocked as already present
	Mutations  []Mutation  `json:"mutations"`       // rank changes
	Facts      []Fact      `json:"facts,omitempty"` // the facts written or touched, in op order
}

// Add folds r2 into r.
func (r *Result) Add(r2 Result) {
	r.Stored += r2.Stored
	r.Updated += r2.Updated
	r.Retracted += r2.Retracted
	r.Deleted += r2.Deleted
	r.Duplicates = append(r.Duplicates, r2.Duplicates...)
	r.Mutations = append(r.Mutations, r2.Mutations...)
	r.Facts = append(r.Facts, r2.Facts...)
}
