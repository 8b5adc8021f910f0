"""Running ``python -m bot`` with its output into a pipe its reader closes, like ``| head``."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Mapping

EXIT_TIMEOUT = 180.0
"""Generous: the condition waited for is the process's exit; a hang fails the test."""


def run_into_closed_pipe(args: list[str], *, lines: int, stdin: str = "",
                         env: Mapping[str, str] | None = None) -> tuple[int, str]:
    """Run ``python -m bot *args``, read ``lines`` lines of its output, then close the pipe
    (``lines=0``: before it writes anything); returns its exit status and its stderr."""
    with tempfile.TemporaryFile("w+", encoding="utf-8") as errors:
        process = subprocess.Popen(
            [sys.executable, "-m", "bot", *args], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=errors, env=dict(os.environ if env is None else env))
        assert process.stdin is not None and process.stdout is not None
        try:
            if lines == 0:
                process.stdout.close()
            process.stdin.write(stdin.encode())
            process.stdin.close()
            for _ in range(lines):
                process.stdout.readline()
            process.stdout.close()
            status = process.wait(timeout=EXIT_TIMEOUT)
        finally:
            if process.returncode is None:
                process.kill()
                process.wait()
        errors.seek(0)
        return status, errors.read()
