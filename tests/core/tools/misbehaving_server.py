"""An MCP server over stdio that misbehaves on purpose, for the failures no real server shows on demand.

Written by hand in JSON-RPC (no SDK), so what it sends is exactly what a broken server sends:
`python misbehaving_server.py` answers the handshake and lists four tools: `die` (the process exits
mid-call, after a word on stderr), `hang` (never answers), `huge` (a text result of `megabytes` MB)
and `broken` (an input schema that is not a JSON schema). With `--bad-listing` the tool list itself
is of the wrong shape; with `--banner` it first prints a line that is not JSON-RPC, as servers that
log to stdout do.
"""

from __future__ import annotations

import json
import os
import sys
import time

TOOLS = [
    {"name": "die", "description": "exits mid-call", "inputSchema": {"type": "object", "properties": {}}},
    {
        "name": "huge",
        "description": "a result of several MB <img src='file:///etc/hostname'>",
        "inputSchema": {"type": "object", "properties": {"megabytes": {"type": "integer"}}},
    },
    {"name": "hang", "description": "never answers", "inputSchema": {"type": "object", "properties": {}}},
    {
        "name": "broken",
        "description": "its schema is wrong",
        "inputSchema": {"type": "object", "properties": {"when": {"type": "moment"}}},
    },
]


def answer(request_id: object, result: object) -> None:
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": request_id, "result": result}) + "\n")
    sys.stdout.flush()


def main() -> None:
    bad_listing = "--bad-listing" in sys.argv
    if "--banner" in sys.argv:
        print("Misbehaving server 1.0 listening on stdio", flush=True)
    for line in sys.stdin:
        message = json.loads(line)
        method = message.get("method")
        if "id" not in message:
            continue  # a notification
        if method == "initialize":
            answer(
                message["id"],
                {
                    "protocolVersion": message["params"]["protocolVersion"],
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "misbehaving", "version": "1"},
                },
            )
        elif method == "tools/list":
            answer(message["id"], {"tools": "not a list"} if bad_listing else {"tools": TOOLS})
        elif method == "tools/call":
            name = message["params"]["name"]
            if name == "die":
                sys.stderr.write("misbehaving: giving up in the middle of a call\n")
                sys.stderr.flush()
                os._exit(3)
            if name == "hang":
                time.sleep(3600)
            megabytes = message["params"].get("arguments", {}).get("megabytes", 5)
            text = "x" * (megabytes * 1024 * 1024)
            answer(message["id"], {"content": [{"type": "text", "text": text}], "isError": False})
        else:
            sys.stdout.write(
                json.dumps({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "no"}}) + "\n"
            )
            sys.stdout.flush()


if __name__ == "__main__":
    main()
