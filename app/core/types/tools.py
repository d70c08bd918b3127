"""A tool the model may call, and a call it made: what crosses the engine's process, the API
server and the turn. Arguments and schemas are kept as JSON text, so the values stay hashable
and picklable; `parameters` and `arguments` parse them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

EMPTY_PARAMETERS = '{"type": "object", "properties": {}}'


@dataclass(frozen=True)
class ToolSpec:
    """A function offered to the model: its name, what it does, the JSON schema of its arguments."""

    name: str
    description: str = ""
    parameters_json: str = EMPTY_PARAMETERS

    @property
    def parameters(self) -> dict[str, Any]:
        value = json.loads(self.parameters_json)
        return value if isinstance(value, dict) else {}

    def as_openai(self) -> dict[str, Any]:
        """The tool as OpenAI's API and chat templates' `tools` variable spell it."""
        function = {"name": self.name, "description": self.description, "parameters": self.parameters}
        return {"type": "function", "function": function}


@dataclass(frozen=True)
class ToolCall:
    """One call the model wrote: `arguments` is the JSON object text it gave."""

    id: str
    name: str
    arguments: str = "{}"

    @property
    def parsed_arguments(self) -> dict[str, Any]:
        """The arguments as an object ({} when the text is not one)."""
        try:
            value = json.loads(self.arguments)
        except ValueError:
            return {}
        return value if isinstance(value, dict) else {}
