"""Offline play in the terminal: ``python -m bot play`` seats you against bot opponents on the
same table runtime and the same SQLite ledger as the Discord bot."""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import sys
from collections.abc import Mapping, Sequence
from typing import TextIO

from bot.i18n import tr
from bot.process import configure_logging
from bot.terminal.cli import build_parser, parse_options
from bot.terminal.game import play
from bot.terminal.language import command_line_language
from bot.terminal.render import Style, detect_colour

__all__ = ["main"]


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    environ: Mapping[str, str] | None = None,
) -> int:
    """Run ``holdem play [options]``; returns the exit status (0 after leaving the table).
    Bad options, an unknown ``--lang`` included, exit with argparse's usage line and
    status 2."""
    env = os.environ if environ is None else environ
    words = sys.argv[1:] if argv is None else argv
    language, refusal = command_line_language(words, env)
    if refusal is not None:
        build_parser(language).error(language.render(refusal))
    options = parse_options(words, language)
    # Only problems are logged, to stderr, so they never mix with the table on stdout.
    try:
        configure_logging(env.get("LOG_LEVEL", "").strip() or "WARNING")
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    out = sys.stdout if stdout is None else stdout
    source = sys.stdin if stdin is None else stdin
    if stdin is None:
        # Bytes the terminal's encoding cannot read become U+FFFD (a line that gets the
        # menu's hint) instead of ending the input; whatever is typed can be echoed back.
        _forgive(source, "replace")
    if stdout is None:
        _forgive(out, "backslashreplace")
    colour = options.colour if options.colour is not None else detect_colour(out, env)
    try:
        return asyncio.run(play(options, source, out, Style(colour, language)))
    except KeyboardInterrupt:
        # asyncio.run cancelled the game: the table was shut down and the hand refunded.
        out.write("\n" + language.render(
            tr("Interrupted; your chips are back in your balance.")) + "\n")
        return 130


def _forgive(stream: TextIO, errors: str) -> None:
    """Make a text stream of the process handle undecodable or unencodable characters with
    ``errors`` instead of raising (streams that cannot be reconfigured are left as they are)."""
    if isinstance(stream, io.TextIOWrapper):
        with contextlib.suppress(ValueError, OSError):
            stream.reconfigure(errors=errors)
