"""Factbase: a client of one Factbase server."""
import urllib.request
from typing import Any, Dict, List, Mapping, Optional, cast

from . import types as t
from ._transport import DEFAULT_URL, Transport, given as _body
from .resources import Conflicts, Episodes, Facts, Lists, People, Sheet, Transcripts

U = "/v1/users/{user}"


class Factbase:
    """A client of one Factbase server (standard library only, synchronous).

    Users are UUIDs and every method takes the user first; each returns the response
    body (a dict, typed by the TypedDicts of factbase_client.types) and raises
    FactbaseError (status, title, detail, errors) on any answer but 2xx.

        fb = Factbase("http://127.0.0.1:7411", api_key=os.environ["FACTBASE_KEY"])
        fb.say(user, "My favorite cryptos are BTC, ETH and XMR")
        fb.ask(user, "What's my second favorite crypto?")["reply"]
    """

    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        api_key: Optional[str] = None,
        timeout: float = 30.0,
        headers: Optional[Mapping[str, str]] = None,
        opener: Optional[urllib.request.OpenerDirector] = None,
    ) -> None:
        """api_key: from "factbase keys create"; None for "factbase serve --no-auth".
        timeout: seconds for each request. headers: sent with every request.
        opener: the urllib opener (proxies, TLS); default urllib.request.build_opener()."""
        self.transport = Transport(base_url, api_key, timeout, headers, opener)
        self.facts = Facts(self.transport)
        self.lists = Lists(self.transport)
        self.people = People(self.transport)
        self.conflicts = Conflicts(self.transport)
        self.episodes = Episodes(self.transport)
        self.sheet = Sheet(self.transport)
        self.transcripts = Transcripts(self.transport)

    def _post(self, path: str, user: str, body: Any) -> Any:
        return self.transport.call("POST", U + path, {"user": user}, json_body=body)

    def say(self, user: str, text: str, time: Optional[str] = None, session: Optional[str] = None,
            speaker: Optional[str] = None) -> t.SayResult:
        """Remembers what a user's message states (rules, no model). time: RFC 3339."""
        return cast(t.SayResult, self._post("/messages", user, _body(text=text, time=time, session=session,
                                                                     speaker=speaker)))

    def say_messages(self, user: str, messages: List[Dict[str, str]], time: Optional[str] = None,
                     session: Optional[str] = None) -> t.SayResult:
        """Remembers a conversation's turns ([{"role", "content"}], as chat APIs write
        them): user turns state the user's facts, assistant turns never do, system and
        tool turns are skipped."""
        return cast(t.SayResult, self._post("/messages", user, _body(messages=messages, time=time, session=session)))

    def ask(self, user: str, text: str, time: Optional[str] = None) -> t.AskResult:
        """Answers a question from the stored facts, citing them; "I don't know" rather than a guess."""
        return cast(t.AskResult, self._post("/questions", user, _body(text=text, time=time)))

    def remember(self, user: str, text: str, **fields: Any) -> t.Remembered:
        """Stores a message's rule facts at once, and queues it for the model when one is
        configured. fields: as for say (time, session, speaker)."""
        return cast(t.Remembered, self._post("/memories", user, _body(text=text, **fields)))

    def recall(self, user: str, query: str, limit: Optional[int] = None, now: Optional[str] = None,
               include_sensitive: Optional[bool] = None) -> t.Recollection:
        """What bears on a question, grouped by person, with a prompt block."""
        body = _body(query=query, limit=limit, now=now, include_sensitive=include_sensitive)
        return cast(t.Recollection, self._post("/recall", user, body))

    def search(self, user: str, query: str, kinds: Optional[List[str]] = None, limit: Optional[int] = None,
               **filters: Any) -> t.SearchResult:
        """Hybrid search over facts and episodes. kinds: "fact", "episode". filters: category,
        include_superseded, key_prefix, min_confidence, since, until, subject, tags, threshold, type."""
        body = _body(query=query, kinds=kinds, limit=limit, **filters)
        return cast(t.SearchResult, self._post("/search", user, body))

    def query(self, user: str, question: str, prefer: Optional[str] = None,
              passages: Optional[int] = None) -> t.QueryAnswer:
        """The hybrid query: facts first, else episodes. prefer: auto, fact or narrative."""
        body = _body(question=question, prefer=prefer, passages=passages)
        return cast(t.QueryAnswer, self._post("/query", user, body))

    def lookup(self, user: str, **query: Any) -> t.LookupOutputBody:
        """Direct fact look-up. query: type, key, prefix, tags, since, until, limit, offset."""
        return cast(t.LookupOutputBody, self.transport.call("GET", U + "/lookup", {"user": user}, query))

    def me(self) -> t.Me:
        """Which key this client carries and whose data it opens."""
        return cast(t.Me, self.transport.call("GET", "/v1/me", {}))

    def health(self) -> t.Status:
        """Liveness and the server's build (needs no key)."""
        return cast(t.Status, self.transport.call("GET", "/healthz", {}))
