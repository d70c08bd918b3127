"""The context window for a model on a server: the same sliding window, with the server's counts.

A server does not share its chat template, so a prompt's size is its messages' tokens (counted
by the server where it can, `/tokenize`; estimated otherwise) plus a typical template's few
tokens around each message. The plan says which of the two it is, so the context meter can
mark an estimate as one.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace

from app.core.backends.remote import RemoteBackend
from app.core.chat.context_window import (
    ContextWindow,
    PlanRequest,
    PlanResult,
    WindowError,
    refused,
    reply_reserve,
)
from app.core.types.messages import ChatMessage
from app.core.types.tools import ToolSpec

MESSAGE_OVERHEAD = 4  # role markers and separators a chat template adds around each message
REPLY_PRIMER = 3  # the assistant header that opens the reply
DEFAULT_CONTEXT = 4096  # when the server does not say its context length
ESTIMATE_NOTICE = "Token counts are estimates: this server does not count tokens for other programs."
TEMPLATE_NOTICE = "Counted with the server's tokenizer; its chat template adds a few tokens Glassbox cannot see."


class RemotePromptCounter:
    """A TokenCounter for the context window: one count of all the messages' text per call (the tools
    offered counted as the JSON they are sent as; the server's template wraps them in a few more)."""

    def __init__(self, backend: RemoteBackend) -> None:
        self._backend = backend

    def count_tokens(self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = ()) -> int:
        definitions = [json.dumps(tool.as_openai(), ensure_ascii=False) for tool in tools]
        text = "\n".join([*(message.content for message in messages), *definitions])
        counted = self._backend.count_tokens(text).tokens if text else 0
        return counted + REPLY_PRIMER + MESSAGE_OVERHEAD * len(messages)


class RemotePlanner:
    """Plans turns for one model on one server, with its context length (or DEFAULT_CONTEXT)."""

    def __init__(self, backend: RemoteBackend, n_ctx: int | None) -> None:
        self._window = ContextWindow(RemotePromptCounter(backend))
        self._exact = backend.capabilities.tokenization
        self.n_ctx = n_ctx or DEFAULT_CONTEXT

    def plan(self, request: PlanRequest) -> PlanResult:
        reserve = reply_reserve(request.reserve, self.n_ctx)
        try:
            plan = self._window.plan(
                request.system_prompt, request.messages, self.n_ctx, reserve, request.policy, tools=request.tools
            )
        except WindowError as error:
            return refused(request, error)
        counted = TEMPLATE_NOTICE if self._exact else ESTIMATE_NOTICE
        return PlanResult(request, replace(plan, notice=" ".join(filter(None, (plan.notice, counted)))))
