"""One Factbase server over urllib.request: JSON in, JSON out, FactbaseError on non-2xx."""
import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, Mapping, Optional

from .errors import FactbaseError

DEFAULT_URL = "http://127.0.0.1:7411"


def given(**fields: Any) -> Dict[str, Any]:
    """The fields that were given: None means "not sent"."""
    return {k: v for k, v in fields.items() if v is not None}


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class Transport:
    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        api_key: Optional[str] = None,
        timeout: float = 30.0,
        headers: Optional[Mapping[str, str]] = None,
        opener: Optional[urllib.request.OpenerDirector] = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout
        self.headers = dict(headers or {})
        self.opener = opener or urllib.request.build_opener()

    def url(self, template: str, path: Mapping[str, str], query: Optional[Mapping[str, Any]] = None) -> str:
        """Fills template ("/v1/users/{user}/facts/{id}"), percent-encoding each value."""
        for name, value in path.items():
            if not value:
                raise ValueError("%s needs %s" % (template, name))
            template = template.replace("{%s}" % name, urllib.parse.quote(str(value), safe=""))
        pairs = []
        for name, value in (query or {}).items():
            if value is None:
                continue
            for v in value if isinstance(value, (list, tuple)) else [value]:
                pairs.append((name, _query_value(v)))
        qs = urllib.parse.urlencode(pairs)
        return self.base_url + template + ("?" + qs if qs else "")

    def call(
        self,
        method: str,
        template: str,
        path: Mapping[str, str],
        query: Optional[Mapping[str, Any]] = None,
        json_body: Any = None,
        body: Any = None,
        content_type: Optional[str] = None,
    ) -> Any:
        headers: Dict[str, str] = {"Accept": "application/json, application/problem+json"}
        headers.update(self.headers)
        if self.api_key:
            headers["Authorization"] = "Bearer " + self.api_key
        data = None
        if json_body is not None:
            data = json.dumps(json_body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        elif body is not None:
            data = body.encode("utf-8") if isinstance(body, str) else body
            headers["Content-Type"] = content_type or "application/octet-stream"
        elif method not in ("GET", "HEAD"):
            # A server without keys refuses a state-changing request with another content type.
            headers["Content-Type"] = "application/json"
        req = urllib.request.Request(self.url(template, path, query), data=data, headers=headers, method=method)
        try:
            with self.opener.open(req, timeout=self.timeout) as res:
                raw = res.read()
        except urllib.error.HTTPError as err:
            try:
                problem = err.read() if err.fp else b""
            finally:
                err.close()
            raise FactbaseError.from_response(err.code, err.headers, problem) from None
        return json.loads(raw) if raw else None
