"""Tool results are kept inert and capped: images as bytes, links not followed, the cap said."""

from __future__ import annotations

import base64

import mcp_types

from app.core.tools.results import PartKind, result_from_mcp

PNG = b"\x89PNG\r\n\x1a\nfake"


def test_text_and_images_are_kept_in_order_with_their_sizes() -> None:
    result = result_from_mcp(
        mcp_types.CallToolResult(
            content=[
                mcp_types.TextContent(type="text", text="héllo"),
                mcp_types.ImageContent(type="image", data=base64.b64encode(PNG).decode(), mime_type="image/png"),
            ]
        )
    )

    assert [part.kind for part in result.parts] == [PartKind.TEXT, PartKind.IMAGE]
    assert result.parts[1].data == PNG
    assert result.size_bytes == len("héllo".encode()) + len(PNG)
    assert not result.truncated
    assert result.text() == "héllo\n[image: image/png, 12 B]"


def test_a_link_is_named_and_never_followed() -> None:
    link = mcp_types.ResourceLink(type="resource_link", name="secret", uri="file:///etc/passwd")

    result = result_from_mcp(mcp_types.CallToolResult(content=[link]))

    assert result.parts[0].kind is PartKind.NOTE
    assert "file:///etc/passwd" in result.parts[0].text
    assert "not followed" in result.parts[0].text


def test_an_image_past_the_cap_is_dropped_and_the_cap_is_said() -> None:
    big = base64.b64encode(b"\x00" * 2048).decode()
    result = result_from_mcp(
        mcp_types.CallToolResult(
            content=[
                mcp_types.TextContent(type="text", text="a" * 100),
                mcp_types.ImageContent(type="image", data=big, mime_type="image/png"),
            ]
        ),
        cap_bytes=1024,
    )

    assert result.truncated
    assert [part.kind for part in result.parts] == [PartKind.TEXT, PartKind.NOTE]
    assert "2.1 KiB" in result.parts[-1].text


def test_text_is_cut_on_a_character_boundary() -> None:
    result = result_from_mcp(mcp_types.CallToolResult(content=[mcp_types.TextContent(type="text", text="é" * 10)]), 5)

    assert result.parts[0].text == "éé"
    assert result.truncated


def test_structured_content_alone_is_shown_as_json() -> None:
    result = result_from_mcp(mcp_types.CallToolResult(content=[], structured_content={"sum": 42}))

    assert result.text() == '{"sum": 42}'


def test_an_error_result_stays_a_result() -> None:
    result = result_from_mcp(
        mcp_types.CallToolResult(content=[mcp_types.TextContent(type="text", text="bad")], is_error=True)
    )

    assert result.is_error
