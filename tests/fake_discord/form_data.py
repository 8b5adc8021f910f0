"""Request bodies as discord.py sends them: JSON, or ``multipart/form-data`` with a
``payload_json`` part and ``files[n]`` parts.

They are parsed from the raw bytes by plain splitting: aiohttp's ``request.content_type`` and
``MultipartReader`` parse every header through the ``email`` package and regular expressions
built per call, which was a third of the benchmark's fake Discord CPU.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qsl

from .world import UploadedFile

_PARAMETER = re.compile(r';\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))')
_ESCAPED = re.compile(r"\\(.)")


def header_value(header: str) -> tuple[str, dict[str, str]]:
    """A header's value in lower case (``multipart/form-data``) and its ``; name=value``
    parameters (names in lower case, quoted strings unquoted)."""
    value = header.partition(";")[0]
    parameters: dict[str, str] = {}
    for match in _PARAMETER.finditer(header, len(value)):
        name, quoted, token = match.groups()
        parameters[name.lower()] = token if quoted is None else _ESCAPED.sub(r"\1", quoted)
    return value.strip().lower(), parameters


def parse_body(content_type: str, raw: bytes) -> tuple[Any, list[UploadedFile]]:
    """The body's JSON (None if empty), or for multipart its ``payload_json`` and ``files[n]``
    parts; ValueError for a multipart body that does not follow its boundary."""
    if not raw:
        return None, []
    kind, parameters = header_value(content_type)
    if kind == "application/x-www-form-urlencoded":  # OAuth2's token requests
        return dict(parse_qsl(raw.decode())), []
    if kind != "multipart/form-data":
        return json.loads(raw), []
    body: Any = None
    files: list[UploadedFile] = []
    for headers, data in _parts(raw, parameters.get("boundary", "")):
        disposition = header_value(headers.get("content-disposition", ""))[1]
        name = disposition.get("name", "")
        if name == "payload_json":
            body = json.loads(data)
        elif name.startswith("files["):
            index = int(name[len("files["):-1])
            files.append(UploadedFile(index, disposition.get("filename") or f"file{index}", data,
                                      headers.get("content-type")))
    return body, files


def _parts(raw: bytes, boundary: str) -> Iterator[tuple[dict[str, str], bytes]]:
    """Each part's headers (names in lower case) and content, between the delimiters
    ``CRLF--boundary`` (the first one without its CRLF) and the closing ``--boundary--``."""
    if not boundary:
        raise ValueError("multipart/form-data without a boundary")
    preamble_and_parts = (b"\r\n" + raw).split(b"\r\n--" + boundary.encode())
    if len(preamble_and_parts) < 2 or not preamble_and_parts[-1].startswith(b"--"):
        raise ValueError("multipart body without its closing boundary")
    for chunk in preamble_and_parts[1:-1]:
        head, blank_line, content = chunk.partition(b"\r\n\r\n")
        if not blank_line:
            raise ValueError("multipart part without a blank line after its headers")
        headers: dict[str, str] = {}
        for line in head.decode().split("\r\n")[1:]:  # [0]: the rest of the delimiter line
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        yield headers, content
