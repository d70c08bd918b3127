"""Tools for the model: MCP servers configured in mcp.json, started on first use, listed and called."""
