"""The failures a backend reports to whoever asked it to load or to generate."""

from __future__ import annotations

from collections.abc import Sequence

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


def images_need_vision(seeing: Sequence[str]) -> str:
    """IMAGES_NEED_VISION, then the models of the library that can see (`seeing`, their names), or that none can."""
    if not seeing:
        return fill(
            N_(
                "{refusal} No model in your library can see images yet: download a vision model (Gemma 3, "
                "Qwen2.5-VL, Mistral Small 3.x …) with its projector."
            ),
            refusal=fill(IMAGES_NEED_VISION),
        )
    return fill(
        N_("{refusal} These models in your library can see: {models}."),
        refusal=fill(IMAGES_NEED_VISION),
        models=", ".join(seeing),
    )


class ImagesNeedVision(EngineError):
    """A message shows images and the model cannot read them (it was loaded without a projector);
    raised with IMAGES_NEED_VISION."""
