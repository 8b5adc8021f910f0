"""A fake Discord (REST API + gateway on 127.0.0.1) for end-to-end tests of the real client."""

from .interaction_data import InteractionRefused
from .records import CallKind, InteractionRecord, RestCall, StoredMessage
from .server import FakeDiscord, NotAnswered

__all__ = [
    "CallKind",
    "FakeDiscord",
    "InteractionRecord",
    "InteractionRefused",
    "NotAnswered",
    "RestCall",
    "StoredMessage",
]
