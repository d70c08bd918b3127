"""A thinking model's reply as each server sends it: recorded streams for a loopback CannedServer.

The same reply ("Let me think. 2 + 2 = 4." then "The answer is 4.") in the shape of each
server, chunk for chunk as they write it: their field names, their opening role chunk, the
fields they add (vLLM's `stop_reason`, OpenRouter's `reasoning_details` and its processing
comment, DeepSeek's keep-alive comment and cache counts), where they put the usage and
whether they count the reasoning tokens in it.

- llama-server (reasoning_format `auto`/`deepseek`, its default): `delta.reasoning_content`,
  usage and `timings` in a chunk of their own, without a reasoning count.
- llama-server asked for `reasoning_format: none`: the raw text, `<think>…</think>` in `content`.
- vLLM with a reasoning parser: `delta.reasoning_content` up to 0.10, `delta.reasoning` since.
- DeepSeek's API (deepseek-reasoner): `reasoning_content` beside a null `content`, then the
  other way round; `usage.completion_tokens_details.reasoning_tokens`.
- OpenRouter: `delta.reasoning` with `reasoning_details`; the reasoning tokens in its usage.
- Ollama's OpenAI endpoint: `delta.reasoning`, every chunk with its role.
"""

from __future__ import annotations

import json
from typing import Any

REASONING = ["Let me", " think.", " 2 + 2", " = 4."]
ANSWER = ["The answer", " is 4."]
REASONING_TEXT = "".join(REASONING)
ANSWER_TEXT = "".join(ANSWER)
COMPLETION_TOKENS = 9  # the server's count: the pieces above, and the markers it does not send
SERVER_REASONING_TOKENS = 6  # what a server that counts them says (the pieces and the markers)
DONE = b"data: [DONE]\n\n"


def sse(payload: dict[str, Any]) -> bytes:
    return b"data: " + json.dumps(payload, separators=(",", ":")).encode() + b"\n\n"


def _llama_server_chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
    return sse(
        {
            "choices": [{"finish_reason": finish, "index": 0, "delta": delta}],
            "created": 1764810000,
            "id": "chatcmpl-Fq2bX9",
            "model": "Qwen3-0.6B-Q8_0.gguf",
            "system_fingerprint": "b7210-6b2fd0c",
            "object": "chat.completion.chunk",
        }
    )


def _llama_server_end() -> bytes:
    usage = {"completion_tokens": COMPLETION_TOKENS, "prompt_tokens": 14, "total_tokens": 14 + COMPLETION_TOKENS}
    timings = {
        "cache_n": 0,
        "prompt_n": 14,
        "prompt_ms": 21.4,
        "prompt_per_second": 654.2,
        "predicted_n": COMPLETION_TOKENS,
        "predicted_ms": 95.1,
        "predicted_per_second": 94.6,
    }
    return (
        _llama_server_chunk({}, "stop")
        + sse(
            {
                "choices": [],
                "created": 1764810000,
                "id": "chatcmpl-Fq2bX9",
                "model": "Qwen3-0.6B-Q8_0.gguf",
                "system_fingerprint": "b7210-6b2fd0c",
                "object": "chat.completion.chunk",
                "usage": usage,
                "timings": timings,
            }
        )
        + DONE
    )


def llama_server() -> bytes:
    """llama-server with its default reasoning_format (auto: the reasoning in `reasoning_content`)."""
    body = _llama_server_chunk({"role": "assistant", "content": None})
    body += b"".join(_llama_server_chunk({"reasoning_content": piece}) for piece in REASONING)
    body += b"".join(_llama_server_chunk({"content": piece}) for piece in ANSWER)
    return body + _llama_server_end()


def llama_server_raw() -> bytes:
    """llama-server asked for `reasoning_format: none`: the model's raw text, its tags in `content`."""
    raw = ["<think>", "\n", *REASONING, "\n", "</think>", "\n\n", *ANSWER]
    body = _llama_server_chunk({"role": "assistant", "content": None})
    body += b"".join(_llama_server_chunk({"content": piece}) for piece in raw)
    return body + _llama_server_end()


def _vllm_chunk(choices: list[dict[str, Any]], **extra: Any) -> bytes:
    return sse(
        {
            "id": "chatcmpl-8c2d0e7f61a94b2b",
            "object": "chat.completion.chunk",
            "created": 1764810000,
            "model": "Qwen/Qwen3-8B",
            "choices": choices,
            **extra,
        }
    )


def _vllm_choice(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    choice: dict[str, Any] = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
    if finish is not None:
        choice["stop_reason"] = None
    return choice


def vllm(field: str = "reasoning_content") -> bytes:
    """vLLM with `--reasoning-parser`: `reasoning_content` up to 0.10, `reasoning` since 0.11."""
    body = _vllm_chunk([_vllm_choice({"role": "assistant", "content": ""})])
    body += b"".join(_vllm_chunk([_vllm_choice({field: piece})]) for piece in REASONING)
    body += b"".join(_vllm_chunk([_vllm_choice({"content": piece})]) for piece in ANSWER)
    body += _vllm_chunk([_vllm_choice({"content": ""}, "stop")])
    usage = {"prompt_tokens": 14, "total_tokens": 14 + COMPLETION_TOKENS, "completion_tokens": COMPLETION_TOKENS}
    return body + _vllm_chunk([], usage=usage) + DONE


def _deepseek_chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> bytes:
    return sse(
        {
            "id": "5d3f8a1c-7b2e-4c9d-a6f0-1e2b3c4d5e6f",
            "object": "chat.completion.chunk",
            "created": 1764810000,
            "model": "deepseek-reasoner",
            "system_fingerprint": "fp_7e0991cad4_prod0820_fp8_kvcache",
            "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
            **extra,
        }
    )


def deepseek() -> bytes:
    """DeepSeek's API: `reasoning_content` beside a null `content`, then the other way round."""
    body = _deepseek_chunk({"role": "assistant", "content": None, "reasoning_content": ""})
    body += b": keep-alive\n\n"
    body += b"".join(_deepseek_chunk({"content": None, "reasoning_content": piece}) for piece in REASONING)
    body += b"".join(_deepseek_chunk({"content": piece, "reasoning_content": None}) for piece in ANSWER)
    usage = {
        "prompt_tokens": 14,
        "completion_tokens": COMPLETION_TOKENS,
        "total_tokens": 14 + COMPLETION_TOKENS,
        "prompt_tokens_details": {"cached_tokens": 0},
        "completion_tokens_details": {"reasoning_tokens": SERVER_REASONING_TOKENS},
        "prompt_cache_hit_tokens": 0,
        "prompt_cache_miss_tokens": 14,
    }
    return body + _deepseek_chunk({"content": "", "reasoning_content": None}, "stop", usage=usage) + DONE


def _openrouter_chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> bytes:
    choice = {
        "index": 0,
        "delta": {"role": "assistant", **delta},
        "finish_reason": finish,
        "native_finish_reason": finish,
        "logprobs": None,
    }
    return sse(
        {
            "id": "gen-1764810000-AbCdEfGh",
            "provider": "DeepInfra",
            "model": "deepseek/deepseek-r1",
            "object": "chat.completion.chunk",
            "created": 1764810000,
            "choices": [choice],
            **extra,
        }
    )


def openrouter() -> bytes:
    """OpenRouter: `delta.reasoning` (and its `reasoning_details`), a processing comment first."""
    body = b": OPENROUTER PROCESSING\n\n"
    for piece in REASONING:
        details = [{"type": "reasoning.text", "text": piece, "format": "unknown", "index": 0}]
        body += _openrouter_chunk({"content": "", "reasoning": piece, "reasoning_details": details})
    body += b"".join(_openrouter_chunk({"content": piece, "reasoning": None}) for piece in ANSWER)
    body += _openrouter_chunk({"content": "", "reasoning": None}, "stop")
    usage = {
        "prompt_tokens": 14,
        "completion_tokens": COMPLETION_TOKENS,
        "total_tokens": 14 + COMPLETION_TOKENS,
        "prompt_tokens_details": {"cached_tokens": 0},
        "completion_tokens_details": {"reasoning_tokens": SERVER_REASONING_TOKENS},
    }
    return body + _openrouter_chunk({"content": ""}, None, usage=usage) + DONE


def _ollama_chunk(choices: list[dict[str, Any]], **extra: Any) -> bytes:
    return sse(
        {
            "id": "chatcmpl-417",
            "object": "chat.completion.chunk",
            "created": 1764810000,
            "model": "qwen3:0.6b",
            "system_fingerprint": "fp_ollama",
            "choices": choices,
            **extra,
        }
    )


def ollama() -> bytes:
    """Ollama's OpenAI endpoint (/v1): `delta.reasoning`, every delta with its role."""
    body = b"".join(
        _ollama_chunk(
            [{"index": 0, "delta": {"role": "assistant", "content": "", "reasoning": piece}, "finish_reason": None}]
        )
        for piece in REASONING
    )
    body += b"".join(
        _ollama_chunk([{"index": 0, "delta": {"role": "assistant", "content": piece}, "finish_reason": None}])
        for piece in ANSWER
    )
    body += _ollama_chunk([{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": "stop"}])
    usage = {"prompt_tokens": 14, "completion_tokens": COMPLETION_TOKENS, "total_tokens": 14 + COMPLETION_TOKENS}
    return body + _ollama_chunk([], usage=usage) + DONE


def llama_server_whole() -> bytes:
    """llama-server's reply to a request without `stream` (a server that ignores `stream: true`)."""
    message = {"role": "assistant", "content": ANSWER_TEXT, "reasoning_content": REASONING_TEXT}
    return json.dumps(
        {
            "choices": [{"finish_reason": "stop", "index": 0, "message": message}],
            "created": 1764810000,
            "model": "Qwen3-0.6B-Q8_0.gguf",
            "system_fingerprint": "b7210-6b2fd0c",
            "object": "chat.completion",
            "id": "chatcmpl-Fq2bX9",
            "usage": {
                "completion_tokens": COMPLETION_TOKENS,
                "prompt_tokens": 14,
                "total_tokens": 14 + COMPLETION_TOKENS,
            },
        }
    ).encode()


STREAMS = {
    "llama-server": llama_server,
    "llama-server reasoning_format none": llama_server_raw,
    "vLLM 0.10 (reasoning_content)": lambda: vllm("reasoning_content"),
    "vLLM 0.11 (reasoning)": lambda: vllm("reasoning"),
    "DeepSeek": deepseek,
    "OpenRouter": openrouter,
    "Ollama": ollama,
}
COUNTS_REASONING = {"DeepSeek", "OpenRouter"}  # the servers whose usage says how many tokens were reasoning
