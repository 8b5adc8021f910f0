"""Finding every catalog message in the code, and bringing the catalogs up to date.

``python -m bot.discord_ui.translator`` extracts the messages with Babel (the ``tr``, ``tr_n``
and ``tr_c`` markers) and the slash commands' names and descriptions, and merges them into
every ``locales/*.po``: new messages
arrive untranslated, removed ones become obsolete. Translate the new entries in any PO editor.
To add a language, copy a catalog to ``locales/<identifier>.po``, change its ``Language:``
header and translate it.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

KEYWORDS = {"tr": None, "tr_n": (1, 2), "tr_c": ((1, "c"), 2)}
"""The markers and where their message ids are (Babel's keyword spec)."""
PACKAGE_ROOT = Path(__file__).resolve().parents[1]
LOCALES = Path(__file__).resolve().parent / "locales"
GENERATED_BY = re.compile(rb'^"Generated-By: [^"\n]*"$', re.MULTILINE)
"""The header line naming the Babel version that wrote a catalog."""


@dataclass(frozen=True, slots=True)
class Found:
    """One message found in the code."""

    msgid: str | tuple[str, ...]
    """The id, or the singular and plural of a plural message."""
    context: str | None
    path: str
    """Where it was found (a file, or a slash command), for translators and error messages."""
    line: int = 0


def messages_in_code(root: Path = PACKAGE_ROOT) -> Iterator[Found]:
    """Every ``tr``/``tr_n``/``tr_c`` message under ``root``."""
    for filename, line, message, _comments, context in extract_from_dir(
            root, method_map=[("**.py", "python")], keywords=KEYWORDS):
        yield Found(message, context, f"{root.name}/{filename}", line)


def template(found: list[Found]) -> Catalog:
    """A catalog template (``.pot``) of ``found``."""
    catalog = Catalog(project="holdem-discord", fuzzy=False, msgid_bugs_address="",
                      last_translator="", language_team="")
    for item in found:
        catalog.add(item.msgid, locations=[(item.path, item.line)], context=item.context)
    return catalog


def update_catalogs(extra: list[Found]) -> list[Path]:
    """Merge the code's messages and ``extra`` ones into every catalog; the files written."""
    pot = template([*messages_in_code(), *extra])
    written = []
    for path in sorted(LOCALES.glob("*.po")):
        original = path.read_bytes()
        catalog = read_po(io.BytesIO(original), locale=path.stem)
        created = catalog.creation_date
        catalog.update(pot, no_fuzzy_matching=True)
        # Only the entries change: the header stays as it was, so a rerun rewrites nothing.
        catalog.creation_date = catalog.revision_date = created
        catalog.project, catalog.version = "holdem-discord", "1"
        catalog.msgid_bugs_address = catalog.last_translator = "holdem-discord developers"
        catalog.language_team = path.stem
        updated = io.BytesIO()
        write_po(updated, catalog, width=100, ignore_obsolete=True, include_lineno=False)
        # Babel writes its own version there: keep the file's, or every upgrade rewrites it.
        text = updated.getvalue()
        kept, made = GENERATED_BY.search(original), GENERATED_BY.search(text)
        if kept and made:
            text = text[:made.start()] + kept.group() + text[made.end():]
        path.write_bytes(text)
        written.append(path)
    return written
