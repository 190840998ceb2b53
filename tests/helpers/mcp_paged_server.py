"""A lowlevel mcp 2.x Server whose tools/list pages (MCPServer never pages): 5 tools, 2 a page."""

import anyio
from mcp.server import Server
from mcp.server.stdio import stdio_server
from mcp_types import CallToolResult, ListToolsResult, TextContent, Tool

TOOLS = [
    Tool(name=f"t{i}", description=f"tool {i}", input_schema={"type": "object"}) for i in range(5)
]


async def list_tools(ctx, params) -> ListToolsResult:
    start = int(params.cursor) if params and params.cursor else 0
    end = start + 2
    return ListToolsResult(
        tools=TOOLS[start:end], next_cursor=str(end) if end < len(TOOLS) else None
    )


async def call_tool(ctx, params) -> CallToolResult:
    return CallToolResult(content=[TextContent(text=f"called {params.name}")])


server = Server("paged", version="0.1", on_list_tools=list_tools, on_call_tool=call_tool)


async def main() -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


anyio.run(main)
