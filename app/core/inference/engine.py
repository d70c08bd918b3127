"""llama.cpp behind one small interface: load a GGUF, render chat prompts, stream replies.

The token loop lives here and talks to llama.cpp directly, so that little but llama.cpp's
own decode happens per token (llama-cpp-python's `Llama` still loads the model, owns the
context and tokenizes). What it leans on lives beside it: decode_batch.py (one reused
llama_batch), sampler_chain.py (llama.cpp's sampler chain), logits.py (the logits rows read
in place), token_texts.py (each token's bytes), drafting.py and exact_batch.py (speculative
decoding by prompt lookup), stop_strings.py (cutting the reply at a stop string),
kv_shift.py (reusing the KV cache after the context window dropped turns), load_options.py
(flash attention, cache types, ...), load_progress.py (progress and cancel during the
weight load), chat_format.py (the chat template, ChatML as the fallback), thinking.py (a
thinking model's reasoning told from its answer, switched off, and closed at its budget).

The engine is not thread-safe by design: one owner (the LLM worker thread, or the
command line) calls it. The only cross-thread input is the stop `threading.Event`, which
is checked between tokens and, through llama.cpp's abort callback, inside prompt
processing.
"""

from __future__ import annotations

import codecs
import ctypes
import logging
import os
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import llama_cpp
from llama_cpp import llama_chat_format

from app.core.inference import llama_log
from app.core.inference.chat_format import chat_formatter
from app.core.inference.decode_batch import DecodeAborted, DecodeBatch, DecodeError
from app.core.inference.draft_model import DraftModel, DraftModelError
from app.core.inference.drafting import Drafting, DraftRecord
from app.core.inference.exact_batch import PROBE_LENGTH, BatchProbe, probe_batches
from app.core.inference.kv_shift import reusable_prefix, shift_kv_cache_to
from app.core.inference.llama_log import install_llama_logging
from app.core.inference.load_options import llama_options, load_option_problems
from app.core.inference.load_progress import LoadProgress, TimedModelLoad
from app.core.inference.logits import LogitsRows, SampledLogits
from app.core.inference.probe_memory import probe_key, remember_probe, remembered_probe
from app.core.inference.projector import Projector, is_image_token, whole_image_start
from app.core.inference.prompt_cache import CachedPrompt, explain_reuse
from app.core.inference.prompt_images import image_markers, shown, with_images
from app.core.inference.prompt_parts import (
    PromptPart,
    PromptTokenizer,
    RenderedPrompt,
    TemplateCutsContent,
    render_parts,
)
from app.core.inference.sampler_chain import InvalidGrammar, TokenSampler, token_sampler
from app.core.inference.sampling import SamplingParams
from app.core.inference.stop_strings import StopStringFilter
from app.core.inference.template_choice import choose_template
from app.core.inference.thinking import ReplyThinking, marker_tokens
from app.core.inference.token_texts import TokenTexts
from app.core.models.gguf_info import GgufInfoError
from app.core.models.projector_file import ModelShape, ProjectorFile, check_projector_file
from app.core.models.validation import ModelFileError, check_model_file
from app.core.reasoning.families import ReasoningSupport, reasoning_support, template_variables
from app.core.reasoning.tool_formats import FALLBACK, ToolFormat, messages_for_template, template_message, tool_format
from app.core.support.formatting import fill, format_bytes
from app.core.support.user_text import N_, text_of
from app.core.types.errors import IMAGES_NEED_VISION, EngineError, ImagesNeedVision, LoadCancelled, PromptTooLong
from app.core.types.load import LoadConfig, LoadReport, LoadStage, Speculative
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, ReplyEvent, TokenPiece, final_reply
from app.core.types.stats import CacheMiss, ReplyStats, StopReason
from app.core.types.tools import ToolSpec

log = logging.getLogger(__name__)


# Called after each sampled token with (token id, the logits it was sampled from); the
# logits row is read in place and only valid during the call (the token-probability
# inspector takes what it needs from it).
TokenObserver = Callable[[int, SampledLogits], None]
# llama.cpp asks the abort callback between the nodes of every compute graph (some 600 a
# token for a 30-layer model), each call a trip into Python: it is installed only while a
# prompt is evaluated (or the load's warm-up decode runs); during generation Stop is
# checked between tokens.
NO_ABORT_CALLBACK = llama_cpp.ggml_abort_callback(0)


def default_threads() -> int:
    """Physical cores (llama.cpp gets slower with hyper-threads), at least one."""
    try:
        import psutil

        cores = psutil.cpu_count(logical=False)
    except Exception:  # psutil cannot tell on some containers
        cores = None
    return max(1, cores or os.cpu_count() or 1)


class Engine:
    """Owns one `llama_cpp.Llama`; close() frees it deterministically."""

    def __init__(self) -> None:
        install_llama_logging()
        self._llama: llama_cpp.Llama | None = None
        self._config: LoadConfig | None = None
        self._formatter: llama_chat_format.Jinja2ChatFormatter | None = None
        self.template_note = ""  # which chat template the prompt is built with, and why (template_choice.py)
        self.chat_template = ""  # that template's text
        self._prompt_tokenizer: PromptTokenizer | None = None
        self._reasoning: ReasoningSupport | None = None  # None: the loaded model does not reason
        self._template_variables: dict[str, object] = {}  # the thinking switch of the chat rendered now
        self._tool_format: ToolFormat = FALLBACK  # how the loaded model's template offers tools and writes calls
        self._abort_requested: threading.Event | None = None
        # The cancel event of the load that the next warm_up() finishes.
        self._load_cancel: threading.Event | None = None
        # Kept alive for as long as the context uses it.
        self._abort_callback = llama_cpp.ggml_abort_callback(self._should_abort)
        self._cached: CachedPrompt | None = None  # what the KV cache was last filled from; None: nothing yet
        # What the token loop reuses for every reply of the loaded model.
        self._batch: DecodeBatch | None = None
        self._rows: LogitsRows | None = None
        self._texts: TokenTexts | None = None
        self._batch_probe: BatchProbe | None = None  # see exact_batch.py
        self._probe_memory_read = False  # whether the probe memory was asked this load (once: it is a file)
        # Per chat (keyed by its opening messages): what drafting brought there, for Auto.
        self._draft_records: OrderedDict[Hashable, DraftRecord] = OrderedDict()
        self._draft_model: DraftModel | None = None
        self._projector: Projector | None = None  # reads a message's images; None: the model is text only

    # ---- loading -------------------------------------------------------------------

    @property
    def is_loaded(self) -> bool:
        return self._llama is not None

    @property
    def config(self) -> LoadConfig | None:
        return self._config

    @property
    def llama(self) -> llama_cpp.Llama:
        if self._llama is None:
            raise EngineError(N_("No model is loaded."))
        return self._llama

    @property
    def n_ctx(self) -> int:
        return self.llama.n_ctx()

    def load(
        self,
        config: LoadConfig,
        progress: LoadProgress | None = None,
        cancel: threading.Event | None = None,
    ) -> LoadReport:
        """Load a model, replacing any loaded one. Raises ModelFileError or EngineError."""
        self.close()
        self._cached = None
        problems = load_option_problems(config)
        if problems:
            raise EngineError(" ".join(problems))
        report = LoadReport(config=config, started_at=time.perf_counter())
        path = check_model_file(config.model_path)
        projector = self._check_projector(config.mmproj, path) if config.mmproj is not None else None
        checked = time.perf_counter() - report.started_at
        report.stages.append(LoadStage("check file", checked, N_("GGUF header and tensor table")))

        weights = TimedModelLoad(progress, cancel)
        try:
            with weights:
                llama = llama_cpp.Llama(
                    model_path=str(path),
                    n_ctx=config.n_ctx,
                    n_gpu_layers=config.n_gpu_layers,
                    n_threads=config.n_threads or default_threads(),
                    n_batch=min(config.n_batch, config.n_ctx),
                    verbose=False,
                    **llama_options(config),
                )
        except ValueError as error:  # llama-cpp-python raises ValueError for failed loads
            if cancel is not None and cancel.is_set():
                raise LoadCancelled(fill(N_("Loading {name} was cancelled."), name=path.name)) from error
            raise ModelFileError(path, fill(N_("llama.cpp could not load it ({error})"), error=error)) from error
        weights_start = weights.started_at - report.started_at
        weights_end = weights.started_at + weights.seconds
        report.stages.append(
            LoadStage(
                "load weights",
                weights.seconds,
                fill(N_("{layers} layers on GPU"), layers=config.n_gpu_layers),
                weights_start,
            )
        )
        context_at = weights_end - report.started_at
        report.stages.append(
            LoadStage(
                "create context",
                time.perf_counter() - weights_end,
                fill(N_("n_ctx {n_ctx}"), n_ctx=config.n_ctx),
                context_at,
            )
        )

        if projector is not None:
            try:
                self._projector = self._open_projector(config, projector, llama, report)
            except EngineError:
                llama.close()
                raise
        if config.draft_model is not None and config.speculative is not Speculative.OFF:
            self._draft_model = self._open_draft_model(config, llama, report)
        started = time.perf_counter()
        self._batch = DecodeBatch(llama.ctx, llama.n_batch)
        self._rows = LogitsRows(llama.ctx, llama.n_vocab())
        choice = choose_template(
            llama.metadata,
            config.chat_template,
            lambda text: _is_special_token(llama, text),
            config.chat_template_text,
        )
        template = choice.template
        self._reasoning = reasoning_support(template, config.reasoning)
        self._tool_format = tool_format(template)
        self._texts = TokenTexts(llama._model.vocab, marker_tokens(llama, self._reasoning))
        self._formatter = chat_formatter(llama, template)
        self.template_note = choice.note
        self.chat_template = template
        self._prompt_tokenizer = PromptTokenizer(llama)
        self._llama = llama
        self._config = config
        self._load_cancel = cancel
        report.n_layers = int(llama.metadata.get(f"{llama.metadata.get('general.architecture', '')}.block_count", 0))
        report.n_ctx_train = llama._model.n_ctx_train()
        report.chat_template = template
        report.template_note = choice.note
        report.template_warning = choice.warning
        if self._reasoning is not None:
            report.reasoning_family = self._reasoning.family
            report.thinking_switch = self._reasoning.switch.value
        report.stages.append(LoadStage("chat template", time.perf_counter() - started, "", started - report.started_at))
        return report

    @staticmethod
    def _open_draft_model(config: LoadConfig, llama: llama_cpp.Llama, report: LoadReport) -> DraftModel | None:
        """The draft model beside the loaded `llama`, or None with the reason in `report.draft_refused`:
        the model itself loads either way (it drafts by prompt lookup then)."""
        assert config.draft_model is not None
        started = time.perf_counter()
        try:
            path = check_model_file(config.draft_model)
            draft = DraftModel.open(
                path,
                llama,
                n_gpu_layers=MAX_DRAFT_GPU_LAYERS if config.n_gpu_layers else 0,
                n_threads=config.n_threads or default_threads(),
                flash_attn=config.flash_attn,
            )
        except DraftModelError as error:
            report.draft_refused = text_of(error)
        except ModelFileError as error:
            report.draft_refused = fill(N_("The draft model cannot be used. {error}"), error=error)
        else:
            report.stages.append(
                LoadStage("draft model", time.perf_counter() - started, path.name, started - report.started_at)
            )
            return draft
        log.info("Draft model refused: %s", report.draft_refused)
        return None

    @staticmethod
    def _check_projector(projector: Path, model: Path) -> ProjectorFile:
        """The projector file if it reads images for `model`; EngineError with the reason, before either loads."""
        try:
            shape = ModelShape.of(model)
        except GgufInfoError as error:
            raise ModelFileError(model, error.reason) from error
        return check_projector_file(projector, shape)

    @staticmethod
    def _open_projector(
        config: LoadConfig, checked: ProjectorFile, llama: llama_cpp.Llama, report: LoadReport
    ) -> Projector:
        """The checked projector beside the loaded `llama`, with its stage in `report`."""
        started = time.perf_counter()
        projector = Projector.open(
            checked.path,
            llama,
            n_threads=config.n_threads or default_threads(),
            use_gpu=config.n_gpu_layers > 0,
            flash_attn=config.flash_attn,
        )
        report.stages.append(
            LoadStage(
                "load projector",
                time.perf_counter() - started,
                fill(
                    N_("{file}: {kind} projector, {size}"),
                    file=checked.path.name,
                    kind=checked.projector_type,
                    size=format_bytes(checked.bytes),
                ),
                started - report.started_at,
            )
        )
        return projector

    @property
    def sees_images(self) -> bool:
        """Whether the loaded model reads images (it was loaded with a projector)."""
        return self._projector is not None

    def close(self) -> None:
        """Free the model and its context now (never left to garbage collection)."""
        draft, self._draft_model = self._draft_model, None
        if draft is not None:
            draft.close()
        projector, self._projector = self._projector, None
        if projector is not None:
            projector.close()
        llama, self._llama = self._llama, None
        batch, self._batch = self._batch, None
        self._rows = self._texts = None
        self._draft_records.clear()
        self._batch_probe = None
        self._probe_memory_read = False
        self._config = None
        self._formatter = None
        self.template_note = ""
        self.chat_template = ""
        self._prompt_tokenizer = None
        self._reasoning = None
        self._load_cancel = None
        if batch is not None:
            batch.close()
        if llama is not None:
            llama.close()

    def warm_up(self) -> None:
        """Decode one token now, so memory that runs out on the first decode fails the load
        (where the offload fallback can retry with fewer GPU layers), not the first reply.

        The decode is the last step of the load, so it honours the load's cancel event: set
        before the decode, the decode is skipped; set during it, llama.cpp's abort callback
        ends it. Either way the model is freed and LoadCancelled raised. Raises RuntimeError
        when llama.cpp's decode fails otherwise.

        With speculative decoding on Auto it then finds out whether batches decode like single
        tokens here (exact_batch.py), which Auto needs before it drafts."""
        llama = self.llama
        cancel, self._load_cancel = self._load_cancel, None
        if cancel is None or not cancel.is_set():
            self._decode_one_token(llama, cancel)
        config = self._config
        if config is not None and config.speculative is Speculative.AUTO and not (cancel and cancel.is_set()):
            self._probe_batches(llama, cancel)
        if cancel is not None and cancel.is_set():
            name = self._config.model_path.name if self._config else "the model"
            self.close()
            raise LoadCancelled(fill(N_("Loading {name} was cancelled."), name=name))

    def _decode_one_token(self, llama: llama_cpp.Llama, cancel: threading.Event | None) -> None:
        token = llama.token_bos()
        try:
            with self._abortable(llama, cancel):
                llama.eval([token if token >= 0 else 0])
        except RuntimeError:
            if cancel is None or not cancel.is_set():
                raise
            # Aborted by the cancel event; the caller raises LoadCancelled.
        finally:
            llama.reset()

    def _probe_batches(self, llama: llama_cpp.Llama, cancel: threading.Event | None) -> None:
        assert self._batch is not None and self._rows is not None
        if self._remembered_probe():
            return
        probe = self.tokenize(PROBE_TEXT, special=False)[:PROBE_LENGTH]
        memory = llama_cpp.llama_get_memory(llama.ctx)
        llama_cpp.llama_memory_seq_rm(memory, -1, 0, -1)  # the warm-up token is still cached
        try:
            with self._abortable(llama, cancel):
                found = probe_batches(self._batch, self._rows, memory, 0, probe)
        except DecodeAborted:
            return  # the load was cancelled; warm_up says so
        finally:
            llama.reset()
        self._found(found)

    @contextmanager
    def _abortable(self, llama: llama_cpp.Llama, stop: threading.Event | None) -> Iterator[None]:
        """Decodes inside may be ended by `stop`, through llama.cpp's abort callback."""
        self._abort_requested = stop
        llama_cpp.llama_set_abort_callback(llama.ctx, self._abort_callback, None)
        try:
            yield
        finally:
            llama_cpp.llama_set_abort_callback(llama.ctx, NO_ABORT_CALLBACK, None)
            self._abort_requested = None
            llama_log.abort_handled()

    # ---- prompts -------------------------------------------------------------------

    @property
    def reasoning(self) -> ReasoningSupport | None:
        """What the loaded model's template says about its reasoning (None: it does not reason)."""
        return self._reasoning

    @contextmanager
    def thinking(self, params: SamplingParams | None) -> Iterator[None]:
        """Prompts rendered inside are rendered with `params`' thinking switch and reasoning effort (the
        template's `enable_thinking` and `reasoning_effort`), as the reply to them will be; None: the defaults."""
        if params is None or self._reasoning is None:
            yield
            return
        before = self._template_variables
        self._template_variables = template_variables(
            self._reasoning, thinking=params.thinking, effort=params.reasoning_effort
        )
        try:
            yield
        finally:
            self._template_variables = before

    def render_prompt(self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = ()) -> str:
        """The exact text the model sees, after the chat template, ready for the reply (each image as
        llama.cpp's media marker)."""
        return shown(self._render(messages, tools).text)

    def prompt_tokens(self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = ()) -> list[int]:
        """The prompt's token ids: messages' content as plain text, only the template's markers as special
        tokens (prompt_parts.py), so no content can open a turn of its own. `tools` are offered to the
        model as its template offers them (tool_formats.py)."""
        if self._prompt_tokenizer is None:
            raise EngineError(N_("No model is loaded."))
        rendered = self._render(messages, tools)
        images = [path for message in messages for path in message.images]
        if not images:
            return self._prompt_tokenizer.tokenize(rendered)
        assert self._projector is not None  # _render refused images without one
        return self._prompt_tokenizer.tokenize(with_images(rendered, [self._projector.image(path) for path in images]))

    def count_tokens(self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = ()) -> int:
        return len(self.prompt_tokens(messages, tools))

    def tokenize(self, text: str, special: bool = True) -> list[int]:
        return self.llama.tokenize(text.encode("utf-8"), add_bos=False, special=special)

    def _render(self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = ()) -> RenderedPrompt:
        if self._formatter is None:
            raise EngineError(N_("No model is loaded."))
        if self._projector is None and any(m.images for m in messages):
            raise ImagesNeedVision(IMAGES_NEED_VISION)
        try:
            written, tool_variables = messages_for_template(messages, tools, self._tool_format)
            turns = [
                (m.role, image_markers(len(m.images)) + m.content, m.reasoning, template_message(m)) for m in written
            ]
            variables = self._template_variables or template_variables(self._reasoning)
            rendered = render_parts(self._formatter, turns, {**variables, **tool_variables})
        except TemplateCutsContent as error:
            raise EngineError(text_of(error)) from None
        prefill = self._reasoning.off_prefill() if self._reasoning and variables.get("enable_thinking") is False else ""
        if not prefill:
            return rendered
        # Thinking off where the template has no switch: the reply starts after an empty block.
        return replace(rendered, parts=(*rendered.parts, PromptPart(prefill, content=False)))

    # ---- generation ----------------------------------------------------------------

    def stream_chat(
        self,
        messages: Sequence[ChatMessage],
        params: SamplingParams,
        stop: threading.Event,
        observer: TokenObserver | None = None,
        grammar: str = "",
        speculative: Speculative | None = None,
    ) -> Iterator[ReplyEvent]:
        """Yield TokenPiece events, then exactly one ReplyDone (also on stop and on error).

        `grammar` (GBNF text, e.g. from llama_cpp's json_schema_to_gbnf) constrains every
        sampled token to it; "" samples freely. `speculative` overrides the load's setting for
        this reply (None: the load's). Raises PromptTooLong when the prompt fills the context."""
        with self.thinking(params):
            prompt = self.prompt_tokens(messages)
        return self.stream_tokens(
            prompt, params, stop, observer, grammar, speculative, conversation_key(messages), tuple(messages), chat=True
        )

    def stream_tokens(
        self,
        prompt: list[int],
        params: SamplingParams,
        stop: threading.Event,
        observer: TokenObserver | None = None,
        grammar: str = "",
        speculative: Speculative | None = None,
        conversation: Hashable | None = None,
        messages: tuple[ChatMessage, ...] | None = None,
        *,
        chat: bool = False,
    ) -> Iterator[ReplyEvent]:
        """The reply to `prompt`; `conversation` names the chat whose drafting record Auto uses
        (None: this reply judges alone); `messages`, the conversation `prompt` was rendered from,
        says why the cache missed when it did. `chat`: `prompt` is a chat rendered by the model's template
        (under `thinking(params)`), so a thinking model's reasoning is told from its answer, switched off
        and budgeted as `params` say (a raw completion is left as the model writes it)."""
        llama = self.llama
        thinking = None
        if chat and self._reasoning is not None:
            thinking = ReplyThinking.start(self._reasoning, params, self.tokenize)
        stats = ReplyStats(prompt_tokens=len(prompt), image_tokens=sum(map(is_image_token, prompt)))
        room = llama.n_ctx() - len(prompt)
        if room <= 0:
            raise PromptTooLong(len(prompt), llama.n_ctx())
        cached = self._cached if llama.n_tokens > 0 else None
        shifted = shift_kv_cache_to(llama, prompt)
        stats.cached_prompt_tokens = reusable_prefix(llama, prompt)
        stats.cache_miss = explain_reuse(cached, messages, len(prompt), stats.cached_prompt_tokens, shifted)
        self._cached = CachedPrompt(messages, len(prompt))
        if stats.cache_miss is not CacheMiss.NONE:
            log.debug(
                "Prompt cache: %d of %d tokens reused (%s)", stats.cached_prompt_tokens, len(prompt), stats.cache_miss
            )
        max_tokens = min(params.max_tokens, room) if params.max_tokens > 0 else room
        seed = params.seed if params.seed is not None else random.randint(0, 2**31 - 1)
        mode = speculative if speculative is not None else self._config.speculative if self._config else Speculative.OFF
        if mode is Speculative.AUTO and self._batch_probe is not None and not self._batch_probe.exact:
            mode = Speculative.OFF  # drafting would change the reply here (exact_batch.py)
        if stats.image_tokens:
            mode = Speculative.OFF  # a lookup in the prompt could propose an image's placeholder ids
        drafting = (
            None
            if mode is Speculative.OFF
            else Drafting(mode, self._draft_record(conversation), prompt, self._draft_model)
        )
        assert self._rows is not None
        try:
            sampler = token_sampler(params, seed, self._rows, llama.ctx, grammar)
        except InvalidGrammar as error:
            raise EngineError(text_of(error)) from None
        reply = _Reply(prompt, params, sampler, max_tokens, stop, observer, stats, drafting, thinking)
        return self._generate(llama, reply)

    def _draft_record(self, conversation: Hashable | None) -> DraftRecord:
        if conversation is None:
            return DraftRecord()
        record = self._draft_records.pop(conversation, None) or DraftRecord()
        self._draft_records[conversation] = record  # the latest chat last
        while len(self._draft_records) > MAX_DRAFT_RECORDS:
            self._draft_records.popitem(last=False)
        return record

    def _generate(self, llama: llama_cpp.Llama, reply: _Reply) -> Iterator[ReplyEvent]:
        """The token loop: evaluate the prompt, then sample, show and decode one token at a time
        (or a token and the tokens drafted after it, kept for as long as the model picks them).

        llama-cpp-python's bookkeeping is kept as its own loop keeps it: `input_ids[:n_tokens]`
        are the tokens in the KV cache (kv_shift.py and the prefix reuse read them). The last
        token sampled is never decoded, so it is not among them.
        """
        assert self._batch is not None and self._rows is not None and self._texts is not None
        batch, texts, stats, stop, observer = self._batch, self._texts, reply.stats, reply.stop, reply.observer
        drafting, max_tokens, n_ctx = reply.drafting, reply.max_tokens, llama.n_ctx()
        thinking = reply.thinking
        forced: list[int] = []  # tokens the engine writes itself (the thinking budget's closing), last first
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        stop_strings = StopStringFilter(reply.params.stop)
        sampler = reply.sampler
        sampled = SampledLogits(self._rows)
        memory = llama_cpp.llama_get_memory(llama.ctx)
        text_parts: list[str] = []
        started = time.perf_counter()
        first_token_at = 0.0
        input_ids = llama.input_ids
        position = 0
        proposal: list[int] = []  # drafted tokens decoded after `position`, not yet confirmed
        confirmed = 0  # how many of them the model picked so far
        checked_s = 0.0  # how long the proposal's batch took
        completed = 0  # reply tokens sampled
        stats.stop_reason = StopReason.LENGTH if max_tokens == reply.params.max_tokens else StopReason.CONTEXT_FULL
        try:
            stats.cached_prompt_tokens = self._evaluate_prompt(
                llama, reply.prompt, stats.cached_prompt_tokens, stop, stats.image_encode_s
            )
            position = llama.n_tokens
            # Bound once: each lookup of an attribute is time after every decode.
            sample, piece_of, decode_text, decode_one = sampler.sample, texts.piece, decoder.decode, batch.decode_one
            feed, watch_stop_strings = stop_strings.feed, stop_strings.active
            stopped, keep = stop.is_set, text_parts.append
            while True:
                token = -1
                if forced and not sampler.accept(token := forced.pop()):
                    forced, token = [], -1  # the grammar forbids the closing: the model goes on as it samples
                if token < 0:
                    token = sample(sampled.index)
                if not first_token_at:
                    first_token_at = time.perf_counter()
                piece = piece_of(token)
                if piece is None:
                    stats.stop_reason = StopReason.END_OF_TEXT
                    break
                completed += 1
                if observer is not None:
                    observer(token, sampled)
                text = decode_text(piece)
                visible, hit = feed(text) if watch_stop_strings else (text, False)
                if thinking is not None:
                    if visible:
                        yield from thinking.pieces(visible, token, completed, keep)
                    elif text == "" or hit:
                        yield TokenPiece("", token, thinking.part_now)
                    forced = forced or thinking.budget_spent(completed)[::-1]
                elif visible:
                    keep(visible)
                    yield TokenPiece(visible, token)
                elif text == "" or hit:
                    yield TokenPiece("", token)
                if hit:
                    stats.stop_reason = StopReason.STOP_STRING
                    break
                if stopped():
                    stats.stop_reason = StopReason.USER
                    break
                if completed >= max_tokens:
                    break
                if drafting is None:
                    decode_one(token, position)
                    input_ids[position] = token
                    position += 1
                    llama.n_tokens = position
                    continue
                drafting.append(token)
                if proposal:
                    if confirmed < len(proposal) and token == proposal[confirmed]:
                        confirmed += 1  # the model picked the drafted token: it is in the KV cache already
                        position += 1
                        llama.n_tokens = position
                        sampled.index = confirmed  # the next token comes from the drafted token's logits
                        continue
                    self._end_round(drafting, memory, position, proposal, confirmed, checked_s)
                    proposal = []
                # `token` is not in the KV cache: decode it, with what the lookup proposes after it.
                limit = min(max_tokens - completed, n_ctx - position, batch.capacity) - 1
                proposal = drafting.propose(limit)
                if proposal and drafting.mode is Speculative.AUTO:
                    probe = self._probe(reply.prompt, position)
                    if probe is not None and probe.exact:
                        proposal = drafting.worth_checking(proposal[: probe.largest - 1], probe)
                    else:
                        proposal = []
                decode_started = time.perf_counter()
                if proposal:
                    batch.decode([token, *proposal], position, every_logit=True)
                    checked_s = time.perf_counter() - decode_started
                    input_ids[position : position + 1 + len(proposal)] = [token, *proposal]
                    confirmed = 0
                    sampled.index = 0
                else:
                    batch.decode_one(token, position)
                    drafting.plain(time.perf_counter() - decode_started)
                    input_ids[position] = token
                    sampled.index = -1
                position += 1
                llama.n_tokens = position
        except DecodeAborted:
            stats.stop_reason = StopReason.USER
        except DecodeError as error:
            if stop.is_set():
                stats.stop_reason = StopReason.USER
            else:
                stats.stop_reason = StopReason.ERROR
                stats.error = text_of(error)
                log.error("Generation failed: %s", error)
        finally:
            stats.completion_tokens = completed
            sampler.close()
            if proposal and drafting is not None:
                self._end_round(drafting, memory, position, proposal, confirmed, checked_s)
        if drafting is not None:
            stats.drafted_tokens, stats.accepted_tokens = drafting.drafted, drafting.accepted
            stats.draft_speedup = drafting.speedup()
        if stats.stop_reason is not StopReason.STOP_STRING:
            # Bytes of a character the reply stopped in the middle of (Stop, the token limit) are
            # dropped: decoding them would end the reply in U+FFFD, in the history and exports too.
            decoder.reset()
            tail = stop_strings.flush()
            if tail and thinking is not None:
                yield from thinking.pieces(tail, -1, completed + 1, text_parts.append)
            elif tail:
                text_parts.append(tail)
                yield TokenPiece(tail, -1)
        if thinking is not None:
            yield from thinking.finish(completed, text_parts.append)
        finished = time.perf_counter()
        fill_timing(stats, started, first_token_at, finished)
        if thinking is None:
            yield ReplyDone("".join(text_parts), stats)
            return
        thinking.fill(stats, completed, first_token_at, finished)
        yield ReplyDone("".join(text_parts), stats, reasoning=thinking.text)

    def _probe(self, prompt: list[int], position: int) -> BatchProbe | None:
        """Whether batches decode like single tokens with this model and these settings, and what they
        cost (asked once per load, at the warm-up or here); None when there is no room to find out now.

        Auto drafts only where they match, so that its replies are those of plain decoding."""
        if self._batch_probe is None and not self._remembered_probe():
            assert self._batch is not None and self._rows is not None
            probe = prompt[-PROBE_LENGTH:]
            if len(probe) < 2 or position + len(probe) > self.llama.n_ctx():
                return None
            memory = llama_cpp.llama_get_memory(self.llama.ctx)
            self._found(probe_batches(self._batch, self._rows, memory, position, probe))
        return self._batch_probe

    def _remembered_probe(self) -> bool:
        """Take the probe an earlier load of this model with these settings found (probe_memory.py), if any;
        the memory is read once a load (the token loop asks again while no probe is known)."""
        if self._probe_memory_read:
            return False
        self._probe_memory_read = True
        key = self._probe_key()
        found = remembered_probe(key) if key else None
        if found is not None:
            self._found(found, remembered=True)
        return found is not None

    def _probe_key(self) -> str:
        """What this load's probe is remembered under ("" when the file cannot be read now)."""
        config = self._config
        if config is None:
            return ""
        try:
            return probe_key(config, config.n_threads or default_threads())
        except OSError:
            return ""

    def _found(self, probe: BatchProbe, remembered: bool = False) -> None:
        self._batch_probe = probe
        log.debug("Batch probe%s: exact %s, cost %s", " (remembered)" if remembered else "", probe.exact, probe.cost)
        if not remembered and (key := self._probe_key()):
            remember_probe(key, probe)
        if not probe.exact:
            log.info(
                "Batches of tokens decode slightly differently from single tokens with these settings "
                "(flash attention off?): speculative decoding on Auto does not draft, so replies stay "
                "those of plain decoding"
            )

    @staticmethod
    def _end_round(
        drafting: Drafting,
        memory: llama_cpp.llama_memory_t | None,
        position: int,
        proposal: list[int],
        confirmed: int,
        seconds: float,
    ) -> None:
        """A proposal's check is over: record it, and drop the drafted tokens the model did not pick."""
        drafting.checked(len(proposal), confirmed, seconds)
        if confirmed < len(proposal):
            llama_cpp.llama_memory_seq_rm(memory, 0, position, -1)

    def _evaluate_prompt(
        self, llama: llama_cpp.Llama, prompt: list[int], reuse: int, stop: threading.Event, encoded: list[float]
    ) -> int:
        """Decode what the KV cache lacks of `prompt`, in chunks of n_batch and each image whole (its encoding
        time appended to `encoded`); `stop` aborts inside a chunk. Returns how many prompt tokens were reused
        from the cache (never part of an image)."""
        assert self._batch is not None
        memory = llama_cpp.llama_get_memory(llama.ctx)
        reuse = whole_image_start(prompt, reuse, self._projector)
        if reuse and not llama_cpp.llama_memory_seq_rm(memory, -1, reuse, -1):
            reuse = 0  # this model's memory cannot drop a tail: evaluate everything again
        if not reuse:
            llama_cpp.llama_memory_seq_rm(memory, -1, 0, -1)  # removing whole sequences never fails
        llama.n_tokens = reuse
        with self._abortable(llama, stop):
            for start, end in self._runs(prompt, reuse):
                if is_image_token(prompt[start]):
                    assert self._projector is not None
                    encoded.append(self._projector.decode(llama, prompt[start], start))
                else:
                    self._batch.decode(prompt[start:end], start)
                llama.input_ids[start:end] = prompt[start:end]
                llama.n_tokens = end
        return reuse

    def _runs(self, prompt: list[int], start: int) -> Iterator[tuple[int, int]]:
        """prompt[start:] as (start, end) spans: text in chunks of n_batch, and each image whole."""
        assert self._batch is not None
        capacity = self._batch.capacity
        if self._projector is None:  # text only: no token to look at
            yield from ((at, min(at + capacity, len(prompt))) for at in range(start, len(prompt), capacity))
            return
        while start < len(prompt):
            if is_image_token(prompt[start]):
                assert self._projector is not None
                end = start + max(1, self._projector.image_length(prompt[start]))
            else:
                end = start
                while end < len(prompt) and end - start < capacity and not is_image_token(prompt[end]):
                    end += 1
            yield start, end
            start = end

    def complete_chat(self, messages: Sequence[ChatMessage], params: SamplingParams) -> ReplyDone:
        """The whole reply at once (same path as streaming)."""
        return final_reply(self.stream_chat(messages, params, threading.Event()))

    def _should_abort(self, _data: ctypes.c_void_p) -> bool:
        requested = self._abort_requested
        if requested is None or not requested.is_set():
            return False
        llama_log.abort_requested()
        return True


@dataclass(frozen=True)
class _Reply:
    """What one reply's token loop works with."""

    prompt: list[int]
    params: SamplingParams
    sampler: TokenSampler  # built for this reply (its seed, its grammar); the loop closes it
    max_tokens: int
    stop: threading.Event
    observer: TokenObserver | None
    stats: ReplyStats
    drafting: Drafting | None
    thinking: ReplyThinking | None  # a thinking model's chat reply: its parts, switch and budget


MAX_DRAFT_RECORDS = 64  # chats whose drafting record is kept
MAX_DRAFT_GPU_LAYERS = 1024  # a draft model is small: all of it on the GPU when the model uses one
# Decoded once a load (with speculative decoding on Auto) to compare batches with single tokens.
PROBE_TEXT = "The keeper climbed the stairs at dusk, trimmed the wick and wrote the wind and the sea into the log."


def conversation_key(messages: Sequence[ChatMessage]) -> Hashable:
    """What tells one chat from another for the drafting record: its messages up to the first user message."""
    opening: list[tuple[str, str]] = []
    for message in messages:
        opening.append((message.role, message.content))
        if message.role == "user":
            break
    return hash(tuple(opening))


def fill_timing(stats: ReplyStats, started: float, first_token_at: float, finished: float) -> None:
    stats.total_s = finished - started
    if not first_token_at:
        return
    stats.time_to_first_token_s = first_token_at - started
    if stats.time_to_first_token_s > 0:
        stats.prompt_eval_tokens_per_s = max(stats.evaluated_prompt_tokens, 1) / stats.time_to_first_token_s
    generating = finished - first_token_at
    if stats.completion_tokens > 1 and generating > 0:
        stats.generation_tokens_per_s = (stats.completion_tokens - 1) / generating


def _is_special_token(llama: llama_cpp.Llama, text: str) -> bool:
    """Whether the model's vocabulary has `text` as one (special) token."""
    return len(llama.tokenize(text.encode("utf-8"), add_bos=False, special=True)) == 1
