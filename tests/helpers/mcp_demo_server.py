"""A test MCP server (mcp 2.x: FastMCP is now MCPServer).

Run: python mcp_demo_server.py [stdio | http PORT]. Each tool exercises one kind of result.
"""

import asyncio
import base64
import os
import sys

from mcp.server.mcpserver import Context, Image, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel

mcp = MCPServer("demo", version="1.2.3", instructions="A demo server for Crosstalk's tests")

# a 1x1 PNG
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


class Weather(BaseModel):
    city: str
    celsius: float


@mcp.tool(description="Add two integers")
def add(a: int, b: int) -> int:  # structured: {"result": a+b} plus a text block
    return a + b


@mcp.tool()
def weather(city: str) -> Weather:
    """Structured result with an output schema."""
    return Weather(city=city, celsius=21.5)


@mcp.tool(structured_output=False)
def echo(text: str) -> str:
    """Plain text only."""
    return text


@mcp.tool()
def picture() -> Image:
    """An image result."""
    return Image(data=PNG, format="png")


@mcp.tool()
async def slow(seconds: float) -> str:
    """Sleeps, for timeout tests."""
    await asyncio.sleep(seconds)
    return f"slept {seconds}"


@mcp.tool()
def boom() -> str:
    """Raises: becomes a result with isError."""
    raise ValueError("the tool broke")


@mcp.tool()
def die() -> str:
    """Exits the server process mid-call."""
    print("dying now", file=sys.stderr, flush=True)
    os._exit(3)


@mcp.tool()
def whoami(ctx: Context) -> str:
    """The Authorization header (HTTP) or DEMO_TOKEN (stdio): checks keyring: values."""
    headers = ctx.headers or {}
    return headers.get("authorization") or os.environ.get("DEMO_TOKEN", "(none)")


@mcp.tool()
def refuse() -> str:
    """ToolError: its message reaches the client (a plain exception's does not)."""
    raise ToolError("refused on purpose")


@mcp.prompt(description="Review some code")
def review(code: str, language: str = "python") -> str:
    return f"Please review this {language} code:\n{code}"


@mcp.resource("file:///notes.txt", name="notes", mime_type="text/plain")
def notes() -> str:
    return "my notes"


@mcp.resource("file:///pixel.png", name="pixel", mime_type="image/png")
def pixel() -> bytes:
    return PNG


if __name__ == "__main__":
    print("demo server starting", file=sys.stderr, flush=True)
    if len(sys.argv) > 1 and sys.argv[1] == "http":
        mcp.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        mcp.run()  # stdio
