"""Reading a recording of the bot's traffic (``emu.requests``) for what Discord would see.

:func:`audit_v2` answers "was every message the bot posted or edited a Components V2 one,
and did Discord refuse none of those writes?" from the request log alone: each request
that created or edited a message carries the message's id and its flags once written
(``RequestRecord.message_id``/``message_flags``, set by the server).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .model import IS_COMPONENTS_V2, LOADING, RequestRecord

#: the routes that write a message: a channel post or edit, an interaction's callback
#: (a message response, an UPDATE_MESSAGE), a followup, an edit through the token
MESSAGE_WRITES = frozenset(
    {
        ("POST", "/channels/{cid}/messages"),
        ("PATCH", "/channels/{cid}/messages/{mid}"),
        ("POST", "/interactions/{iid}/{token}/callback"),
        ("POST", "/webhooks/{app}/{token}"),
        ("PATCH", "/webhooks/{app}/{token}/messages/{mid}"),
    }
)


def is_message_write(rec: RequestRecord) -> bool:
    template = (rec.route or "").removeprefix("/api/v{version}")
    return (rec.method, template) in MESSAGE_WRITES


@dataclass(frozen=True)
class V2Audit:
    """What :func:`audit_v2` found. ``writes``: the accepted requests that created or
    edited a message in scope; ``not_v2``: those that left it without IS_COMPONENTS_V2;
    ``refused``: the message writes Discord answered 400 (the rule is in the answer)."""

    writes: tuple[RequestRecord, ...]
    not_v2: tuple[RequestRecord, ...]
    refused: tuple[RequestRecord, ...]

    @property
    def ok(self) -> bool:
        """Something was written, every write was V2 and none was refused."""
        return bool(self.writes) and not self.not_v2 and not self.refused

    def __str__(self) -> str:
        lines = [f"{len(self.writes)} message writes, {len(self.not_v2)} not V2"]
        lines += [f"  not V2: {r.method} {r.path} -> message {r.message_id}" for r in self.not_v2]
        lines += [f"  refused: {r.method} {r.path} -> {r.response}" for r in self.refused]
        return "\n".join(lines)


def audit_v2(
    requests: Iterable[RequestRecord], *, messages: Callable[[int], bool] | None = None
) -> V2Audit:
    """Every accepted request that created or edited a message, and whether it left that
    message V2. ``messages`` keeps the messages in scope (a predicate on their id, e.g.
    the table messages and panels); None: every message. A deferral's "thinking" message
    is left out: a type 5 response cannot carry the flag, the edit that fills it does
    (receiving-and-responding.mdx). A refused write is reported whatever its message."""
    writes: list[RequestRecord] = []
    not_v2: list[RequestRecord] = []
    refused: list[RequestRecord] = []
    for rec in requests:
        if not is_message_write(rec):
            continue
        if rec.status == 400:
            refused.append(rec)
            continue
        if rec.message_id is None or rec.message_flags is None or rec.status >= 300:
            continue
        if rec.message_flags & LOADING or (messages is not None and not messages(rec.message_id)):
            continue
        writes.append(rec)
        if not rec.message_flags & IS_COMPONENTS_V2:
            not_v2.append(rec)
    return V2Audit(tuple(writes), tuple(not_v2), tuple(refused))
