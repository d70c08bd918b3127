"""A chat template of the user's own is tried before it is saved: a sample conversation is rendered with it.

A template that cannot be rendered (a syntax error, an undefined filter, a `raise_exception` of its own)
or that leaves the messages out of the prompt is refused, with the line of the template that failed
where Jinja knows it. The prompt the sample builds is what the template editor shows.
"""

from __future__ import annotations

import traceback

import jinja2
from llama_cpp import llama_chat_format, llama_types

from app.core.support.formatting import fill
from app.core.support.user_text import N_

MAX_TEMPLATE_CHARS = 200_000  # the longest templates shipped in GGUF files are some 20,000 characters
SAMPLE_BOS, SAMPLE_EOS = "<s>", "</s>"
SAMPLE_LAST = "And what is 2 + 3?"  # the sample's last message: a prompt without it lost the conversation
SAMPLE_CONVERSATION: tuple[llama_types.ChatCompletionRequestMessage, ...] = (
    {"role": "system", "content": "You are a helpful assistant."},
    {"role": "user", "content": "What is 1 + 1?"},
    {"role": "assistant", "content": "1 + 1 is 2."},
    {"role": "user", "content": SAMPLE_LAST},
)


class TemplateProblem(Exception):
    """The template cannot build a prompt; the message says why (and on which line, when known)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def sample_prompt(template: str) -> str:
    """The prompt `template` builds for the sample conversation (TemplateProblem when it builds none)."""
    if not template.strip():
        raise TemplateProblem(N_("The template is empty."))
    try:
        formatter = llama_chat_format.Jinja2ChatFormatter(template=template, eos_token=SAMPLE_EOS, bos_token=SAMPLE_BOS)
        prompt = formatter(messages=list(SAMPLE_CONVERSATION)).prompt
    except jinja2.TemplateSyntaxError as error:
        raise TemplateProblem(_at_line(error.lineno, error.message or str(error))) from None
    except Exception as error:
        raise TemplateProblem(_at_line(_template_line(error), _first_line(error))) from None
    if SAMPLE_LAST not in prompt:
        raise TemplateProblem(
            N_("The template leaves the messages out: the sample conversation's last message is not in its prompt.")
        )
    return prompt


def template_problem(template: str) -> str:
    """Why `template` cannot be used ("" when it can)."""
    try:
        sample_prompt(template)
    except TemplateProblem as problem:
        return problem.message
    return ""


def _template_line(error: BaseException) -> int | None:
    """The template's line the error was raised on: Jinja names its frames "<template>"."""
    lines = [frame.lineno for frame in traceback.extract_tb(error.__traceback__) if frame.filename == "<template>"]
    return lines[-1] if lines else None


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


def _at_line(line: int | None, message: str) -> str:
    if line is None:
        return fill(N_("The template cannot be rendered: {error}"), error=message)
    return fill(N_("The template cannot be rendered, line {line}: {error}"), line=line, error=message)
