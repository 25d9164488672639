"""factbase_client: a client for the Factbase HTTP API, standard library only.

    from factbase_client import Factbase, FactbaseError
    fb = Factbase("http://127.0.0.1:7411", api_key="fb_...")
    fb.say(user, "My favorite cryptos are BTC, ETH and XMR")

Responses are dicts typed by the TypedDicts of factbase_client.types (generated from the
server's OpenAPI document); errors raise FactbaseError.
"""
from . import types
from .client import Factbase
from .errors import FactbaseError
from .resources import Conflicts, Episodes, Facts, Lists, People, Sheet, Transcripts

__version__ = "0.1.0"
__all__ = [
    "Factbase",
    "FactbaseError",
    "Facts",
    "Lists",
    "People",
    "Conflicts",
    "Episodes",
    "Sheet",
    "Transcripts",
    "types",
]
