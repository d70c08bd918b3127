"""Tools → MCP servers…: the servers of mcp.json, their state and their tools."""
