"""The failures a backend reports to whoever asked it to load or to generate."""

from __future__ import annotations

from app.core.support.user_text import N_, fill


class EngineError(Exception):
    """A failure the user should read: loading, or generating, went wrong."""


class LoadCancelled(EngineError):
    """The user cancelled a model load."""


class PromptTooLong(EngineError):
    """The prompt leaves no room in the context for even one token; the counts say by how much."""

    def __init__(self, prompt_tokens: int, n_ctx: int) -> None:
        super().__init__(
            fill(
                N_(
                    "The prompt has {prompt_tokens} tokens but the context holds {n_ctx}; "
                    "shorten the conversation or raise the context length."
                ),
                prompt_tokens=prompt_tokens,
                n_ctx=n_ctx,
            )
        )
        self.prompt_tokens = prompt_tokens
        self.n_ctx = n_ctx


IMAGES_NEED_VISION = N_(
    "This model cannot see images: it was loaded without a projector (mmproj) file. "
    "Pick a vision model with its projector, or send the message without images."
)


class ImagesNeedVision(EngineError):
    """A message shows images and the model cannot read them (it was loaded without a projector);
    raised with IMAGES_NEED_VISION."""
