"""Hand histories as one person may read them: nobody's hidden cards but their own.

The ledger stores the complete history (everyone's hole cards, for audits and tools). A
person who asks for it sees their own cards, and the cards shown at showdown; the cards of
the others who folded or mucked are taken out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_CARDS = r"\[[^\]]*\]"


def redact_hidden_cards(history: str, hidden_names: Iterable[str]) -> str:
    """``history`` without the "Dealt to" lines and mucked cards of ``hidden_names``.

    >>> text = "Dealt to ann [Ah Kd]\\nDealt to bo [2c 2d]\\nSeat 2: bo (big blind) mucked [2c 2d]"
    >>> print(redact_hidden_cards(text, ["bo"]))
    Dealt to ann [Ah Kd]
    Seat 2: bo (big blind) mucked
    """
    names = [re.escape(name) for name in hidden_names]
    if not names:
        return history
    who = "(?:" + "|".join(names) + ")"
    dealt = re.compile(rf"^Dealt to {who} {_CARDS}$")
    mucked = re.compile(rf"^(Seat \d+: {who} .*?mucked) {_CARDS}")
    lines = []
    for line in history.splitlines():
        if dealt.match(line):
            continue
        lines.append(mucked.sub(r"\1", line))
    return "\n".join(lines)
