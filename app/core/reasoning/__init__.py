"""A thinking model's reasoning, told apart from its answer."""
