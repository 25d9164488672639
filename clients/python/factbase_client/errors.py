"""FactbaseError: any answer but 2xx, read from its application/problem+json body."""
import json
from typing import Any, Dict, List, Mapping, Optional


class FactbaseError(Exception):
    """A non-2xx answer from Factbase.

    status is the HTTP status; title, detail and errors come from the problem+json body
    (RFC 9457): detail names what was wrong, each of errors has a "location" (path.user,
    body.rank), a "message" and the "value". A body that is not problem+json (a proxy's
    page, say) is kept in detail. request_id is the response's X-Request-Id, which the
    server's log lines carry; retry_after the seconds of Retry-After (a 429, say).
    """

    def __init__(
        self,
        status: int,
        title: str,
        detail: str = "",
        errors: Optional[List[Dict[str, Any]]] = None,
        type: Optional[str] = None,
        instance: Optional[str] = None,
        request_id: Optional[str] = None,
        retry_after: Optional[int] = None,
        problem: Optional[Dict[str, Any]] = None,
    ) -> None:
        super().__init__("%d %s: %s" % (status, title, detail) if detail else "%d %s" % (status, title))
        self.status = status
        self.title = title
        self.detail = detail
        self.errors: List[Dict[str, Any]] = errors or []
        self.type = type
        self.instance = instance
        self.request_id = request_id
        self.retry_after = retry_after
        self.problem = problem

    @classmethod
    def from_response(cls, status: int, headers: Mapping[str, str], body: bytes) -> "FactbaseError":
        text = body.decode("utf-8", "replace")
        problem: Optional[Dict[str, Any]] = None
        if "json" in (headers.get("Content-Type") or "").lower():
            try:
                parsed = json.loads(text)
            except ValueError:
                parsed = None
            if isinstance(parsed, dict):
                problem = parsed
        retry = (headers.get("Retry-After") or "").strip()
        p = problem or {}
        return cls(
            status,
            p.get("title") or "HTTP %d" % status,
            (p.get("detail") or "") if problem is not None else text[:500],
            p.get("errors") or [],
            p.get("type"),
            p.get("instance"),
            headers.get("X-Request-Id"),
            int(retry) if retry.isdigit() else None,
            problem,
        )
