package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/factbase/factbase"
)

func (s *Server) registerFacts() {
	addTool(s, tool("get_fact", "Get a fact by id", "Get fact", reads,
		`One fact by its id (the id list_facts, search, ask and the write tools return), current or not: its key, value, whom it is about, when it held and what superseded it.`),
		s.getFact)
	addTool(s, tool("erase_fact", "Erase a fact", "Erase fact", erases,
		`Erase one fact by id from the store, with its references and index entries; a ranked list closes the gap. It cannot be undone (forget with mode retract keeps history instead). Without confirm: true it erases nothing and its error says what would be erased, to show the user before calling again with confirm: true.`),
		s.eraseFact)
}

// GetFactInput is the input of the get_fact tool.
type GetFactInput struct {
	Caller
	ID string `json:"id" maxLength:"100" jsonschema:"The fact's id."`
}

// GetFactOutput is one fact.
type GetFactOutput struct {
	Fact Fact `json:"fact" jsonschema:"The fact."`
}

func (s *Server) getFact(ctx context.Context, user factbase.UserID, in GetFactInput) (GetFactOutput, error) {
	if strings.TrimSpace(in.ID) == "" {
		return GetFactOutput{}, factbase.Errorf(factbase.EINVALID, "id is empty: give the id of the fact")
	}
	f, err := s.e.Fact(ctx, user, in.ID)
	if err != nil {
		return GetFactOutput{}, err
	}
	return GetFactOutput{Fact: factOut(f)}, nil
}

// EraseFactInput is the input of the erase_fact tool.
type EraseFactInput struct {
	Caller
	ID      string `json:"id" maxLength:"100" jsonschema:"The id of the fact to erase."`
	Confirm bool   `json:"confirm,omitempty" jsonschema:"true to erase it. Without it nothing is erased, and the error says what would be."`
	Reason  string `json:"reason,omitempty" maxLength:"1000" jsonschema:"Why it is erased, e.g. \"the user asked\" (optional; written to the server's audit log)."`
}

// EraseFactOutput is what erase_fact did.
type EraseFactOutput struct {
	Summary string `json:"summary" jsonschema:"What happened, in a sentence."`
	Erased  Fact   `json:"erased" jsonschema:"The fact as it was before it was erased."`
	Counts  Counts `json:"counts" jsonschema:"What the store did."`
}

func (s *Server) eraseFact(ctx context.Context, user factbase.UserID, in EraseFactInput) (EraseFactOutput, error) {
	if strings.TrimSpace(in.ID) == "" {
		return EraseFactOutput{}, factbase.Errorf(factbase.EINVALID, "id is empty: give the id of the fact to erase")
	}
	f, err := s.e.Fact(ctx, user, in.ID)
	if err != nil {
		return EraseFactOutput{}, err
	}
	if !in.Confirm {
		return EraseFactOutput{}, factbase.Errorf(factbase.EINVALID,
			"not erased: confirm is not true. This would erase %s, with its references and index entries, and cannot be undone; "+
				"call erase_fact again with confirm: true to erase it", describeFact(f))
	}
	res, err := s.e.Apply(ctx, user, []factbase.Op{{Kind: factbase.OpDelete, ID: in.ID}})
	if err != nil {
		return EraseFactOutput{}, err
	}
	s.log.InfoContext(ctx, "mcp erase_fact", "user", string(user), "id", in.ID, "subject", f.Subject, "key", f.Key,
		"reason", in.Reason, "deleted", res.Deleted)
	return EraseFactOutput{Summary: "Erased " + describeFact(f) + ".", Erased: factOut(f), Counts: countsOf(res)}, nil
}

// describeFact names a fact for a person: its key, value, subject and state.
func describeFact(f factbase.Fact) string {
	var b strings.Builder
	fmt.Fprintf(&b, "fact %s (%s = %q", f.ID, f.Key, f.Value)
	if f.Rank > 0 {
		fmt.Fprintf(&b, ", #%d", f.Rank)
	}
	if f.Subject != factbase.SubjectUser {
		fmt.Fprintf(&b, ", about %s", f.Subject)
	}
	if f.Current {
		b.WriteString(", current)")
	} else {
		b.WriteString(", no longer current)")
	}
	return b.String()
}
