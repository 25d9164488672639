package server

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/chat"
	"github.com/factbase/factbase/memory/people"
)

type entitiesInput struct {
	User   string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	All    bool   `query:"all" doc:"Include entities merged into others."`
	Offset int    `query:"offset" minimum:"0" doc:"Skip this many entities."`
	Limit  int    `query:"limit" minimum:"1" maximum:"1000" default:"100" doc:"At most this many entities."`
}

type entityBody struct {
	Name     string   `json:"name,omitempty" maxLength:"200" doc:"The display name." example:"Martin"`
	Role     string   `json:"role,omitempty" enum:"partner,child,parent,sibling,friend,colleague,pet,service_provider,other" doc:"The role to the user. Default other."`
	Relation string   `json:"relation,omitempty" maxLength:"200" doc:"The relation in words." example:"colleague"`
	Aliases  []string `json:"aliases,omitempty" maxItems:"32" doc:"Other names."`
}

func (b entityBody) entity() factbase.Entity {
	return factbase.Entity{Name: b.Name, Role: factbase.Role(b.Role), Relation: b.Relation, Aliases: b.Aliases}
}

type createEntityInput struct {
	User string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	Body entityBody
}

type entityInput struct {
	User    string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	ID      string `path:"id" maxLength:"200" doc:"The entity's id, or a name or alias only one entity has."`
	History bool   `query:"history" doc:"Every version of the facts, those of merged entities included."`
	Offset  int    `query:"offset" minimum:"0" doc:"Skip this many of the entity's facts."`
	Limit   int    `query:"limit" minimum:"1" maximum:"1000" default:"100" doc:"At most this many of the entity's facts."`
}

type deleteEntityInput struct {
	User string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	ID   string `path:"id" maxLength:"200" doc:"The entity's id, or a name or alias only one entity has."`
}

// entityNameInput gives an entity another name. Its bodies' type names are the
// schema names in the OpenAPI document.
type entityNameInput[B any] struct {
	User string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	ID   string `path:"id" maxLength:"200" doc:"The entity's id, or a name or alias only one entity has."`
	Body B
}

type renameEntityInputBody struct {
	Name string `json:"name" minLength:"1" maxLength:"200" doc:"The new name; the old one becomes an alias."`
}

type aliasEntityInputBody struct {
	Alias string `json:"alias" minLength:"1" maxLength:"200" doc:"Another name the entity goes by."`
}

type mergeEntityInput struct {
	User string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	ID   string `path:"id" maxLength:"200" doc:"The entity to merge into."`
	Body struct {
		From string `json:"from" minLength:"1" maxLength:"200" doc:"The entity merged away: its facts move, its names become aliases."`
	}
}

type splitEntityInput struct {
	User string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	ID   string `path:"id" maxLength:"200" doc:"The entity to split."`
	Body struct {
		FactIDs []string `json:"fact_ids" minItems:"1" maxItems:"1000" doc:"The current facts to move to the new entity."`
		entityBody
	}
}

type conflictsInput struct {
	User   string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	Status string `query:"status" enum:"pending,confirmed,rejected,all" default:"pending" doc:"Which conflicts."`
	Offset int    `query:"offset" minimum:"0" doc:"Skip this many conflicts."`
	Limit  int    `query:"limit" minimum:"1" maximum:"1000" default:"100" doc:"At most this many conflicts."`
}

type conflictInput struct {
	User string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	ID   string `path:"id" maxLength:"100" doc:"The conflict's id."`
}

type recallInput struct {
	User string `path:"user" doc:"The user's id, a UUID." example:"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"`
	Body struct {
		Query            string     `json:"query" minLength:"1" maxLength:"4096" doc:"The question." example:"What does Martin eat?"`
		Limit            int        `json:"limit,omitempty" minimum:"0" maximum:"100" doc:"At most this many facts. Default 10."`
		IncludeSensitive bool       `json:"include_sensitive,omitempty" doc:"Include high-sensitivity facts (health, medical) even when the query does not ask about them."`
		Now              *time.Time `json:"now,omitempty" doc:"The time temporal questions count from (RFC 3339). Default: now."`
	}
}

// registerPeople adds the entity, conflict and recall operations.
func (s *Server) registerPeople() {
	huma.Register(s.api, s.op("list-entities", http.MethodGet, "/v1/users/{user}/entities", tagPeople, "List entities",
		`Lists the people (and pets) the user talks about, oldest first: id, name, role,
relation, aliases (at most 32 each). Messages create them ("my son Leo is 8"). Paged: at
most limit entities (default 100, at most 1000) from offset on; "more" says whether more
follow.`), s.listEntities)
	huma.Register(s.api, s.op("create-entity", http.MethodPost, "/v1/users/{user}/entities", tagPeople, "Create an entity",
		`Creates an entity from a name and/or relation; the relation is recorded as a fact.`), s.createEntity)
	huma.Register(s.api, s.op("get-entity", http.MethodGet, "/v1/users/{user}/entities/{id}", tagPeople, "Get an entity with its facts",
		`Returns the entity and a page of its current facts, oldest first, or of every
version with history (those of entities merged into it included): at most limit facts
(default 100, at most 1000) from offset on; "more" says whether more follow. An id is
looked up directly; a name or alias reads the user's entities to find it.`, http.StatusNotFound, http.StatusConflict), s.getEntity)
	huma.Register(s.api, s.op("rename-entity", http.MethodPost, "/v1/users/{user}/entities/{id}/rename", tagPeople, "Rename an entity",
		`Gives the entity a new display name; the old one becomes an alias.`, http.StatusNotFound, http.StatusConflict), s.renameEntity)
	huma.Register(s.api, s.op("add-entity-alias", http.MethodPost, "/v1/users/{user}/entities/{id}/aliases", tagPeople, "Add an alias",
		`Adds another name the entity goes by; messages naming it resolve to the entity.`, http.StatusNotFound, http.StatusConflict), s.addAlias)
	huma.Register(s.api, s.op("merge-entities", http.MethodPost, "/v1/users/{user}/entities/{id}/merge", tagPeople, "Merge another entity into this one",
		`Moves the other entity's current facts to this one (a single-valued fact only where
it is newer), makes its names aliases, moves its pending conflicts, and keeps it, marked
merged, with the history of its facts.`, http.StatusNotFound, http.StatusConflict), s.mergeEntities)
	huma.Register(s.api, s.op("split-entity", http.MethodPost, "/v1/users/{user}/entities/{id}/split", tagPeople, "Split facts off to a new entity",
		`Moves the chosen current facts to a new entity; the old entity keeps them in history.`, http.StatusNotFound, http.StatusConflict), s.splitEntity)
	huma.Register(s.api, s.op("delete-entity", http.MethodDelete, "/v1/users/{user}/entities/{id}", tagPeople, "Delete an entity",
		`Erases the entity, every version of its facts and its conflicts (entities merged
into it too); the work grows with those facts.`, http.StatusNotFound, http.StatusConflict), s.deleteEntity)
	huma.Register(s.api, s.op("list-conflicts", http.MethodGet, "/v1/users/{user}/conflicts", tagPeople, "List conflicts",
		`Lists changes to single-valued facts that wait for the user, oldest first: the
current fact, the proposed value with its source and time, and why it waits. Paged: at
most limit conflicts (default 100, at most 1000) from offset on; "more" says whether
more follow.`), s.listConflicts)
	huma.Register(s.api, s.op("confirm-conflict", http.MethodPost, "/v1/users/{user}/conflicts/{id}/confirm", tagPeople, "Confirm a conflict",
		`Applies the proposed value through the write path; the old value stays in history.`,
		http.StatusNotFound, http.StatusConflict), s.confirmConflict)
	huma.Register(s.api, s.op("reject-conflict", http.MethodPost, "/v1/users/{user}/conflicts/{id}/reject", tagPeople, "Reject a conflict",
		`Records the rejection; no fact changes.`, http.StatusNotFound, http.StatusConflict), s.rejectConflict)
	huma.Register(s.api, s.op("recall-facts", http.MethodPost, "/v1/users/{user}/recall", tagPeople, "Recall what bears on a question",
		`Merges hybrid search, the facts of the people the query names (boosted), the facts
its words ask about and the facts in the time window it names ("next week", "upcoming
birthdays"; birthdays recur yearly). High-sensitivity facts are left out unless asked for.
Hits are grouped by entity (facts_by_entity) and rendered as a prompt block. At most
limit facts (default 10, at most 100), the best ones; each source contributes a bounded
number of candidates (search 20, an entity's or a key prefix's facts 500, a key 1000).`), s.recall)
}

// entitiesOutputBody is the body of the entity list; the name keeps the schema's
// name in the OpenAPI document.
type entitiesOutputBody struct {
	Entities []factbase.Entity `json:"entities"`
	Offset   int               `json:"offset"`
	Limit    int               `json:"limit"`
	More     bool              `json:"more" doc:"More entities follow this page: ask again with offset+limit."`
}

func (s *Server) listEntities(ctx context.Context, in *entitiesInput) (*output[entitiesOutputBody], error) {
	return forUser(ctx, in.User, func(u factbase.UserID) (entitiesOutputBody, error) {
		p, err := s.opts.Engine.People.Entities(ctx, u, in.All, in.Offset, in.Limit)
		return entitiesOutputBody{Entities: p.Entities, Offset: p.Offset, Limit: p.Limit, More: p.More}, err
	})
}

func (s *Server) createEntity(ctx context.Context, in *createEntityInput) (*output[people.EntityResult], error) {
	return forUser(ctx, in.User, func(u factbase.UserID) (people.EntityResult, error) {
		return s.opts.Engine.People.CreateEntity(ctx, u, in.Body.entity())
	})
}

// forEntity is forUser for an operation on one entity: it resolves ref (an id or a
// name only one entity has) for the user the path names and calls call with the
// entity's id.
func forEntity[T any](ctx context.Context, s *Server, user, ref string, call func(u factbase.UserID, id string) (T, error)) (*output[T], error) {
	return forUser(ctx, user, func(u factbase.UserID) (T, error) {
		en, err := s.opts.Engine.People.FindEntity(ctx, u, ref)
		if err != nil {
			var zero T
			return zero, err
		}
		return call(u, en.ID)
	})
}

func (s *Server) getEntity(ctx context.Context, in *entityInput) (*output[people.EntityView], error) {
	return forEntity(ctx, s, in.User, in.ID, func(u factbase.UserID, id string) (people.EntityView, error) {
		return s.opts.Engine.People.Entity(ctx, u, id, in.History, in.Offset, in.Limit)
	})
}

func (s *Server) renameEntity(ctx context.Context, in *entityNameInput[renameEntityInputBody]) (*output[factbase.Entity], error) {
	return forEntity(ctx, s, in.User, in.ID, func(u factbase.UserID, id string) (factbase.Entity, error) {
		return s.opts.Engine.People.RenameEntity(ctx, u, id, in.Body.Name)
	})
}

func (s *Server) addAlias(ctx context.Context, in *entityNameInput[aliasEntityInputBody]) (*output[factbase.Entity], error) {
	return forEntity(ctx, s, in.User, in.ID, func(u factbase.UserID, id string) (factbase.Entity, error) {
		return s.opts.Engine.People.AddAlias(ctx, u, id, in.Body.Alias)
	})
}

func (s *Server) mergeEntities(ctx context.Context, in *mergeEntityInput) (*output[people.EntityResult], error) {
	return forEntity(ctx, s, in.User, in.ID, func(u factbase.UserID, into string) (people.EntityResult, error) {
		from, err := s.opts.Engine.People.FindEntity(ctx, u, in.Body.From)
		if err != nil {
			return people.EntityResult{}, err
		}
		return s.opts.Engine.People.MergeEntities(ctx, u, into, from.ID)
	})
}

func (s *Server) splitEntity(ctx context.Context, in *splitEntityInput) (*output[people.EntityResult], error) {
	return forEntity(ctx, s, in.User, in.ID, func(u factbase.UserID, id string) (people.EntityResult, error) {
		return s.opts.Engine.People.SplitEntity(ctx, u, id, in.Body.FactIDs, in.Body.entity())
	})
}

func (s *Server) deleteEntity(ctx context.Context, in *deleteEntityInput) (*output[people.EntityResult], error) {
	return forEntity(ctx, s, in.User, in.ID, func(u factbase.UserID, id string) (people.EntityResult, error) {
		return s.opts.Engine.People.DeleteEntity(ctx, u, id)
	})
}

// conflictsOutputBody is the body of the conflict list; the name keeps the schema's
// name in the OpenAPI document.
type conflictsOutputBody struct {
	Conflicts []factbase.Conflict `json:"conflicts"`
	Offset    int                 `json:"offset"`
	Limit     int                 `json:"limit"`
	More      bool                `json:"more" doc:"More conflicts follow this page: ask again with offset+limit."`
}

func (s *Server) listConflicts(ctx context.Context, in *conflictsInput) (*output[conflictsOutputBody], error) {
	st := factbase.ConflictStatus(in.Status)
	if in.Status == "all" {
		st = ""
	}
	return forUser(ctx, in.User, func(u factbase.UserID) (conflictsOutputBody, error) {
		p, err := s.opts.Engine.People.Conflicts(ctx, u, st, in.Offset, in.Limit)
		return conflictsOutputBody{Conflicts: p.Conflicts, Offset: p.Offset, Limit: p.Limit, More: p.More}, err
	})
}

func (s *Server) confirmConflict(ctx context.Context, in *conflictInput) (*output[people.ConflictResult], error) {
	return forUser(ctx, in.User, func(u factbase.UserID) (people.ConflictResult, error) {
		return s.opts.Engine.People.ConfirmConflict(ctx, u, in.ID)
	})
}

func (s *Server) rejectConflict(ctx context.Context, in *conflictInput) (*output[factbase.Conflict], error) {
	return forUser(ctx, in.User, func(u factbase.UserID) (factbase.Conflict, error) {
		return s.opts.Engine.People.RejectConflict(ctx, u, in.ID)
	})
}

func (s *Server) recall(ctx context.Context, in *recallInput) (*output[chat.Recollection], error) {
	o := chat.RecallOptions{Limit: in.Body.Limit, IncludeSensitive: in.Body.IncludeSensitive}
	if in.Body.Now != nil {
		o.Now = *in.Body.Now
	}
	return forUser(ctx, in.User, func(u factbase.UserID) (chat.Recollection, error) {
		return s.opts.Engine.Chat.Recall(ctx, u, in.Body.Query, o)
	})
}
