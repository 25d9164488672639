"""The API's resources: each method is one route and returns its response body, typed."""
from typing import IO, Any, Iterable, List, Optional, Sequence, Union, cast

from . import types as t
from ._transport import Transport, given as _body

U = "/v1/users/{user}"


class _Resource:
    def __init__(self, transport: Transport) -> None:
        self._t = transport


class Facts(_Resource):
    """Facts: .../facts, .../facts/{id}, .../history/{key}."""

    def set(self, user: str, key: str, value: str, **fields: Any) -> t.Result:
        """Creates or sets a fact, by the key's cardinality. fields: any other of FactBody
        (subject, category, type, confidence, rank, sensitivity, durability, scope,
        said_by, valid_from, text, source, cardinality, value_type)."""
        body = _body(**fields)
        body.update(key=key, value=value)
        return cast(t.Result, self._t.call("POST", U + "/facts", {"user": user}, json_body=body))

    def get(self, user: str, id: str) -> t.Fact:
        return cast(t.Fact, self._t.call("GET", U + "/facts/{id}", {"user": user, "id": id}))

    def list(self, user: str, **query: Any) -> t.FactsPage:
        """query: key, prefix, subject, category, type, min_confidence, history, as_of,
        newest_first, limit, offset."""
        return cast(t.FactsPage, self._t.call("GET", U + "/facts", {"user": user}, query))

    def retract(self, user: str, id: str) -> t.Result:
        """Ends the fact's validity and keeps its history."""
        return cast(t.Result, self._t.call("POST", U + "/facts/{id}/retract", {"user": user, "id": id}))

    def delete(self, user: str, id: str) -> t.Result:
        """Erases the fact, history included."""
        return cast(t.Result, self._t.call("DELETE", U + "/facts/{id}", {"user": user, "id": id}))

    def history(self, user: str, key: str, subject: Optional[str] = None,
                offset: Optional[int] = None, limit: Optional[int] = None) -> t.History:
        """A page of a key's versions, newest first."""
        query = _body(subject=subject, offset=offset, limit=limit)
        return cast(t.History, self._t.call("GET", U + "/history/{key}", {"user": user, "key": key}, query))


class Lists(_Resource):
    """Ranked lists (favorites.*): ranks are kept exactly 1..N."""

    def show(self, user: str, key: str, subject: Optional[str] = None, offset: Optional[int] = None,
             limit: Optional[int] = None, as_of: Optional[str] = None) -> t.ListPage:
        query = _body(subject=subject, offset=offset, limit=limit, as_of=as_of)
        return cast(t.ListPage, self._t.call("GET", U + "/lists/{key}", {"user": user, "key": key}, query))

    def add(self, user: str, key: str, values: Union[str, Sequence[str]], subject: Optional[str] = None) -> t.Result:
        """Appends one value or several in order; values already present come back in duplicates."""
        body = {"value": values} if isinstance(values, str) else {"values": list(values)}
        return cast(t.Result, self._t.call("POST", U + "/lists/{key}", {"user": user, "key": key},
                                           _body(subject=subject), json_body=body))

    def rank(self, user: str, key: str, value: str, rank: int, subject: Optional[str] = None) -> t.Result:
        """Places value at rank: moves a present value, inserts an absent one, appends beyond the end."""
        return cast(t.Result, self._t.call("POST", U + "/lists/{key}/rank", {"user": user, "key": key},
                                           _body(subject=subject), json_body={"value": value, "rank": rank}))

    def remove(self, user: str, key: str, value: str, subject: Optional[str] = None) -> t.Result:
        """Removes value and closes the gap."""
        path = {"user": user, "key": key, "value": value}
        return cast(t.Result, self._t.call("DELETE", U + "/lists/{key}/items/{value}", path, _body(subject=subject)))


class People(_Resource):
    """People (entities): whom facts are about."""

    def list(self, user: str, all: Optional[bool] = None, offset: Optional[int] = None,
             limit: Optional[int] = None) -> t.EntitiesOutputBody:
        query = _body(all=all, offset=offset, limit=limit)
        return cast(t.EntitiesOutputBody, self._t.call("GET", U + "/entities", {"user": user}, query))

    def create(self, user: str, name: str, role: Optional[str] = None, relation: Optional[str] = None,
               aliases: Optional[List[str]] = None) -> t.EntityResult:
        body = _body(name=name, role=role, relation=relation, aliases=aliases)
        return cast(t.EntityResult, self._t.call("POST", U + "/entities", {"user": user}, json_body=body))

    def get(self, user: str, id: str, history: Optional[bool] = None, offset: Optional[int] = None,
            limit: Optional[int] = None) -> t.EntityView:
        """An entity with a page of its facts."""
        query = _body(history=history, offset=offset, limit=limit)
        return cast(t.EntityView, self._t.call("GET", U + "/entities/{id}", {"user": user, "id": id}, query))

    def delete(self, user: str, id: str) -> t.EntityResult:
        """Erases the entity and its facts."""
        return cast(t.EntityResult, self._t.call("DELETE", U + "/entities/{id}", {"user": user, "id": id}))

    def rename(self, user: str, id: str, name: str) -> t.Entity:
        return cast(t.Entity, self._t.call("POST", U + "/entities/{id}/rename", {"user": user, "id": id},
                                           json_body={"name": name}))

    def add_alias(self, user: str, id: str, alias: str) -> t.Entity:
        return cast(t.Entity, self._t.call("POST", U + "/entities/{id}/aliases", {"user": user, "id": id},
                                           json_body={"alias": alias}))

    def merge(self, user: str, id: str, from_id: str) -> t.EntityResult:
        """Merges the entity from_id into id."""
        return cast(t.EntityResult, self._t.call("POST", U + "/entities/{id}/merge", {"user": user, "id": id},
                                                 json_body={"from": from_id}))

    def split(self, user: str, id: str, fact_ids: List[str]) -> t.EntityResult:
        """Moves the given facts to a new entity."""
        return cast(t.EntityResult, self._t.call("POST", U + "/entities/{id}/split", {"user": user, "id": id},
                                                 json_body={"fact_ids": fact_ids}))


class Conflicts(_Resource):
    """Changes waiting for the user to confirm."""

    def list(self, user: str, status: Optional[str] = None, offset: Optional[int] = None,
             limit: Optional[int] = None) -> t.ConflictsOutputBody:
        """status: pending (the default), confirmed, rejected or all."""
        query = _body(status=status, offset=offset, limit=limit)
        return cast(t.ConflictsOutputBody, self._t.call("GET", U + "/conflicts", {"user": user}, query))

    def confirm(self, user: str, id: str) -> t.ConflictResult:
        """Applies the proposed value through the write path (the old one stays in history)."""
        path = {"user": user, "id": id}
        return cast(t.ConflictResult, self._t.call("POST", U + "/conflicts/{id}/confirm", path))

    def reject(self, user: str, id: str) -> t.Conflict:
        """Records the decision and changes nothing."""
        return cast(t.Conflict, self._t.call("POST", U + "/conflicts/{id}/reject", {"user": user, "id": id}))


class Episodes(_Resource):
    """Episodes: narrative records, and the facts extracted from them."""

    def list(self, user: str, **query: Any) -> t.EpisodePage:
        """query: tags, since, until, unextracted, newest_first, limit, offset."""
        return cast(t.EpisodePage, self._t.call("GET", U + "/episodes", {"user": user}, query))

    def add(self, user: str, content: str, **fields: Any) -> t.EpisodeResult:
        """fields: tags, importance, metadata, created_at, no_extract, facts."""
        body = _body(**fields)
        body["content"] = content
        return cast(t.EpisodeResult, self._t.call("POST", U + "/episodes", {"user": user}, json_body=body))

    def get(self, user: str, id: str, offset: Optional[int] = None, limit: Optional[int] = None) -> t.EpisodeWithFacts:
        """An episode with a page of its facts."""
        query = _body(offset=offset, limit=limit)
        return cast(t.EpisodeWithFacts, self._t.call("GET", U + "/episodes/{id}", {"user": user, "id": id}, query))

    def delete(self, user: str, id: str, keep_facts: Optional[bool] = None) -> t.DeleteResult:
        """Deletes the episode and, unless keep_facts, its facts."""
        path = {"user": user, "id": id}
        return cast(t.DeleteResult, self._t.call("DELETE", U + "/episodes/{id}", path, _body(keep_facts=keep_facts)))

    def add_facts(self, user: str, id: str, facts: List[t.EpisodeFactBody]) -> t.Result:
        """Links facts to an episode by hand."""
        path = {"user": user, "id": id}
        return cast(t.Result, self._t.call("POST", U + "/episodes/{id}/facts", path, json_body={"facts": facts}))

    def backfill(self, user: str, limit: Optional[int] = None) -> t.BackfillResult:
        """Extracts facts from episodes stored without extraction."""
        query = _body(limit=limit)
        return cast(t.BackfillResult, self._t.call("POST", U + "/episodes/backfill", {"user": user}, query))


class Sheet(_Resource):
    """The fact sheet: the scored top facts, ready for a prompt."""

    def get(self, user: str) -> t.FactSheet:
        """The latest saved sheet (a FactbaseError with status 404 before the first)."""
        return cast(t.FactSheet, self._t.call("GET", U + "/fact-sheet", {"user": user}))

    def generate(self, user: str) -> t.FactSheet:
        return cast(t.FactSheet, self._t.call("POST", U + "/fact-sheet", {"user": user}))

    def prompt(self, user: str, max_tokens: Optional[int] = None, max_chars: Optional[int] = None) -> t.SheetPrompt:
        """The sheet as a prompt block."""
        query = _body(max_tokens=max_tokens, max_chars=max_chars)
        return cast(t.SheetPrompt, self._t.call("GET", U + "/fact-sheet/prompt", {"user": user}, query))


class Transcripts(_Resource):
    """Agent session transcripts (JSON Lines)."""

    def ingest(self, user: str, file: str, body: Union[str, bytes, IO[bytes], Iterable[bytes]],
               finished: Optional[bool] = None, redact: Optional[bool] = None) -> t.IngestSummary:
        """Ingests a transcript: the whole file each time under the same name; only the
        lines after the last upload's are read. body: text, bytes, a binary file or an
        iterable of bytes (the last two are sent chunked)."""
        query = _body(file=file, finished=finished, redact=redact)
        return cast(t.IngestSummary, self._t.call("POST", U + "/transcripts", {"user": user}, query,
                                                  body=body, content_type="application/x-ndjson"))

    def facts(self, user: str, **query: Any) -> t.TranscriptFactsOutputBody:
        """query: predicate, subject, session, object, min_confidence, limit, offset."""
        return cast(t.TranscriptFactsOutputBody, self._t.call("GET", U + "/transcripts/facts", {"user": user}, query))

    def objects(self, user: str, **query: Any) -> t.TranscriptObjectsOutputBody:
        """Transcript facts grouped by object; query as for facts."""
        return cast(t.TranscriptObjectsOutputBody,
                    self._t.call("GET", U + "/transcripts/objects", {"user": user}, query))

    def sessions(self, user: str, id: Optional[str] = None, offset: Optional[int] = None,
                 limit: Optional[int] = None) -> t.TranscriptSessionsOutputBody:
        query = _body(id=id, offset=offset, limit=limit)
        return cast(t.TranscriptSessionsOutputBody,
                    self._t.call("GET", U + "/transcripts/sessions", {"user": user}, query))
