"""The fake's body parser reads what aiohttp's FormData writes, as discord.py sends it."""

from __future__ import annotations

import aiohttp
import pytest

from tests.fake_discord.form_data import header_value, parse_body
from tests.fake_discord.world import UploadedFile


async def discord_form(files: list[tuple[str, bytes]]) -> tuple[str, bytes]:
    """The Content-Type and body discord.py sends for a message with ``files``."""
    form = aiohttp.FormData(quote_fields=False)
    form.add_field(name="payload_json", value='{"content": "hi", "attachments": []}')
    for index, (filename, data) in enumerate(files):
        form.add_field(name=f"files[{index}]", value=data, filename=filename,
                       content_type="application/octet-stream")
    writer = form()
    return writer.content_type, await writer.as_bytes()


async def test_payload_json_and_files_come_back_as_sent() -> None:
    picture = b"\x89PNG\r\n\x1a\n\r\n\r\n--not a boundary\r\n"
    odd_name = 'a "quoted" \\ name; with=signs.png'
    content_type, body = await discord_form([("table.png", picture), (odd_name, b"")])

    payload, files = parse_body(content_type, body)

    assert payload == {"content": "hi", "attachments": []}
    assert files == [UploadedFile(0, "table.png", picture, "application/octet-stream"),
                     UploadedFile(1, odd_name, b"", "application/octet-stream")]


def test_json_and_empty_bodies() -> None:
    assert parse_body("application/json", b'{"type": 6}') == ({"type": 6}, [])
    assert parse_body("", b"") == (None, [])


async def test_a_multipart_body_cut_short_is_refused() -> None:
    content_type, body = await discord_form([("table.png", b"picture")])
    with pytest.raises(ValueError, match="closing boundary"):
        parse_body(content_type, body[:-10])
    with pytest.raises(ValueError, match="without a boundary"):
        parse_body("multipart/form-data", body)


def test_header_value_and_parameters() -> None:
    assert header_value('Multipart/Form-Data; Boundary="a b"; x=1') == (
        "multipart/form-data", {"boundary": "a b", "x": "1"})
