"""The load options users expect from a llama.cpp front end, checked and turned into llama.cpp's settings.

    flash attention   llama.cpp's fused attention kernel: less memory for the attention's
                      scratch, often faster, and needed for a quantized V cache
    K / V cache type  f16 (llama.cpp's default), q8_0 (half the memory, close to f16) or q4_0
                      (a quarter, noticeably less exact)
    n_ubatch          how many tokens llama.cpp computes at once inside a batch of n_batch: the
                      compute buffers grow with it, prompt processing gets faster up to a point
    mmap / mlock      map the model file instead of reading it (fast start, shared pages); lock
                      it in RAM so the system never swaps it out
    RoPE base / scale the position encoding's frequency base and scale (0: the model's own);
                      raising them stretches the context past the model's training length
    RoPE scaling      how the positions are stretched: the model's own way, none, linear
                      (position interpolation) or YaRN (interpolation that keeps the short-range
                      positions sharp; its original context is the model's training length)
    chat template     a template of the user's own must build a prompt from a sample conversation

Every default is llama-cpp-python's, so a load without options is the load of before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import llama_cpp

from app.core.inference.template_check import template_problem
from app.core.inference.template_choice import CUSTOM
from app.core.support.formatting import fill
from app.core.support.user_text import N_

if TYPE_CHECKING:
    from app.core.types.load import LoadConfig

CACHE_TYPES: dict[str, int] = {
    "f16": llama_cpp.GGML_TYPE_F16,
    "q8_0": llama_cpp.GGML_TYPE_Q8_0,
    "q4_0": llama_cpp.GGML_TYPE_Q4_0,
}


ROPE_SCALING: dict[str, int] = {
    "model": llama_cpp.LLAMA_ROPE_SCALING_TYPE_UNSPECIFIED,
    "none": llama_cpp.LLAMA_ROPE_SCALING_TYPE_NONE,
    "linear": llama_cpp.LLAMA_ROPE_SCALING_TYPE_LINEAR,
    "yarn": llama_cpp.LLAMA_ROPE_SCALING_TYPE_YARN,
}


def load_option_problems(config: LoadConfig) -> list[str]:
    """What is wrong with the options, each as a sentence the user can act on ([] when nothing)."""
    problems = []
    for name, value in (("K", config.type_k), ("V", config.type_v)):
        if value not in CACHE_TYPES:
            problems.append(
                fill(
                    N_("The {name} cache type must be one of {allowed}, not “{value}”."),
                    name=name,
                    allowed=", ".join(CACHE_TYPES),
                    value=value,
                )
            )
    if config.type_v != "f16" and config.type_v in CACHE_TYPES and not config.flash_attn:
        problems.append(
            fill(
                N_("A {type} V cache needs flash attention: turn it on, or keep the V cache at f16."),
                type=config.type_v,
            )
        )
    if config.n_ubatch < 1:
        problems.append(fill(N_("n_ubatch must be at least 1, not {value}."), value=config.n_ubatch))
    if config.rope_scaling not in ROPE_SCALING:
        problems.append(
            fill(
                N_("RoPE scaling must be one of {allowed}, not “{value}”."),
                allowed=", ".join(ROPE_SCALING),
                value=config.rope_scaling,
            )
        )
    if config.rope_freq_base < 0 or config.rope_freq_scale < 0:
        problems.append(N_("The RoPE frequency base and scale must be 0 (the model's own) or positive."))
    if config.chat_template == CUSTOM:
        problem = template_problem(config.chat_template_text)
        if problem:
            problems.append(problem)
    return problems


def llama_options(config: LoadConfig) -> dict[str, Any]:
    """The keyword arguments of `llama_cpp.Llama` for the options (after `load_option_problems` found none)."""
    return {
        "flash_attn": config.flash_attn,
        "type_k": CACHE_TYPES[config.type_k],
        "type_v": CACHE_TYPES[config.type_v],
        "n_ubatch": min(config.n_ubatch, config.n_batch, config.n_ctx),
        "use_mmap": config.use_mmap,
        "use_mlock": config.use_mlock,
        "rope_freq_base": config.rope_freq_base,
        "rope_freq_scale": config.rope_freq_scale,
        "rope_scaling_type": ROPE_SCALING.get(config.rope_scaling, llama_cpp.LLAMA_ROPE_SCALING_TYPE_UNSPECIFIED),
    }
