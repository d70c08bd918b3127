"""A thinking model's reasoning, told apart from its answer; the tool calls in its answer, in its template's format."""
