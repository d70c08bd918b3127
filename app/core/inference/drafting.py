"""Speculative decoding by prompt lookup: guess the next tokens from the conversation itself.

When a reply repeats text the conversation already holds (a paragraph to correct, code
to change, names and phrases from the question), the tokens after the reply's last few
tokens are often the tokens that followed the same few tokens earlier. `PromptLookup`
finds the latest earlier occurrence of the last 3 (else 2) tokens and proposes what came
after it. The engine decodes the sampled token and the proposal in one batch and keeps
the proposed tokens for as long as the model, sampling each position as it would have
without a proposal, picks exactly them. So the reply is the one plain decoding gives,
token for token (greedy, and sampled with the same seed: each kept token is a draw from
the model's distribution at its position, made with the same random number), and every
accepted token saves one pass over the weights.

A proposal that fails costs the extra positions in the batch. `DraftRecord` keeps, per
chat, what drafting brought: in Auto, it turns drafting off for the chat when a token
costs more with drafting than without, and grows or shrinks the proposal length with the
acceptance.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.core.types.load import Speculative

if TYPE_CHECKING:
    from app.core.inference.draft_model import DraftModel
    from app.core.inference.exact_batch import BatchProbe

NGRAM_SIZES = (3, 2)  # the suffix lengths looked up, longest first
MAX_DRAFT = 16  # tokens proposed at most in one batch
FIRST_DRAFT = 2  # proposal length of a chat's first drafts (Auto and On); it doubles while taken whole
MIN_DRAFT = 2
# Auto: judged after this many verification batches and this many plain decodes.
JUDGE_AFTER_ROUNDS = 3
JUDGE_AFTER_PLAIN = 8
PROVEN_AFTER_ROUNDS = 2  # Auto drafts after 2-token matches too once this many batches kept half their drafts
KEEP_IF_AT_LEAST = 1.0
# Auto's guess, before a chat has shown anything, that a drafted token is taken when the ones
# before it were; it counts as this many drafted tokens seen.
PRIOR_TAKEN = 0.75
PRIOR_WEIGHT = 4  # drafting stays on while plain time per token / drafted time per token is this or more
RETRY_AFTER_PLAIN = 1024  # Auto looks again at a chat it turned drafting off for after this many plain tokens


class PromptLookup:
    """An index of the conversation's n-grams that proposes continuations of its last tokens."""

    def __init__(self, tokens: Sequence[int], sizes: Sequence[int] = NGRAM_SIZES) -> None:
        self._tokens: list[int] = []
        self._sizes = tuple(sizes)
        self._next: dict[tuple[int, ...], int] = {}  # n-gram -> where the text after its latest occurrence starts
        for token in tokens:
            self.append(token)

    def append(self, token: int) -> None:
        """Add the next token of the conversation (the prompt's, then the reply's)."""
        tokens = self._tokens
        end = len(tokens)  # the n-grams ending at the token before this one become findable now
        for size in self._sizes:
            if end >= size:
                self._next[tuple(tokens[end - size : end])] = end
        tokens.append(token)

    def draft(self, limit: int, shortest: int = 1) -> list[int]:
        """Up to `limit` tokens that followed an earlier occurrence of the last tokens (at least
        `shortest` of them), [] when none did."""
        tokens = self._tokens
        for size in self._sizes:
            if shortest <= size < len(tokens):
                start = self._next.get(tuple(tokens[-size:]))
                if start is not None:
                    return tokens[start : start + limit]
        return []


@dataclass
class DraftRecord:
    """What drafting brought in one chat, and whether Auto keeps it on there."""

    rounds: int = 0  # verification batches
    drafted: int = 0
    accepted: int = 0
    rejected: int = 0  # batches in which the model turned a drafted token down
    drafted_s: float = 0.0  # wall time of the verification batches
    plain_tokens: int = 0  # single-token decodes
    plain_s: float = 0.0
    length: int = FIRST_DRAFT  # how many tokens the next proposal may have
    enabled: bool = True
    plain_since_off: int = 0

    def plain(self, seconds: float) -> None:
        """One single-token decode (no proposal, or drafting off)."""
        self.plain_tokens += 1
        self.plain_s += seconds
        if not self.enabled:
            self.plain_since_off += 1
            if self.plain_since_off >= RETRY_AFTER_PLAIN:  # a fresh look: the chat may have turned to repeating text
                self.rounds = self.drafted = self.accepted = self.rejected = self.plain_since_off = 0
                self.drafted_s = 0.0
                self.length = FIRST_DRAFT
                self.enabled = True

    def checked(self, drafted: int, accepted: int, seconds: float) -> None:
        """One verification batch: `drafted` tokens proposed, the first `accepted` of them kept."""
        self.rounds += 1
        self.drafted += drafted
        self.accepted += accepted
        self.rejected += accepted < drafted
        self.drafted_s += seconds
        if accepted == drafted:
            self.length = min(MAX_DRAFT, self.length * 2)
        else:
            self.length = max(MIN_DRAFT, accepted + 1)

    @property
    def taken(self) -> float:
        """How likely a drafted token is taken when the ones before it were, in this chat (with a prior)."""
        return (self.accepted + PRIOR_TAKEN * PRIOR_WEIGHT) / (self.accepted + self.rejected + PRIOR_WEIGHT)

    @property
    def proven(self) -> bool:
        """Proposals were taken here: at least half of the drafted tokens, over a few batches."""
        return self.rounds >= PROVEN_AFTER_ROUNDS and self.accepted * 2 >= self.drafted

    @property
    def gain(self) -> float | None:
        """Plain time per token over drafted time per token (above 1: drafting pays); None until both were seen."""
        if not self.rounds or not self.plain_tokens or self.drafted_s <= 0:
            return None
        per_drafted_token = self.drafted_s / (self.accepted + self.rounds)  # each batch also decodes its own token
        return (self.plain_s / self.plain_tokens) / per_drafted_token

    def judge(self) -> None:
        """Auto: turn drafting off for this chat once it is seen not to pay."""
        if not self.enabled or self.rounds < JUDGE_AFTER_ROUNDS or self.plain_tokens < JUDGE_AFTER_PLAIN:
            return
        gain = self.gain
        if gain is not None and gain < KEEP_IF_AT_LEAST:
            self.enabled = False
            self.plain_since_off = 0


class Drafting:
    """One reply's drafting: the lookup over the conversation so far, or the draft model given
    (draft_model.py), and the chat's record."""

    def __init__(
        self, mode: Speculative, record: DraftRecord, prompt: Sequence[int], draft_model: DraftModel | None = None
    ) -> None:
        self.mode = mode
        self.record = record
        self._prompt = prompt
        self._lookup: PromptLookup | None = None  # built with the first reply token, off the prompt's clock
        self._draft_model = draft_model
        self._tokens: list[int] = []  # the conversation so far, for the draft model
        self._proposing_s = 0.0  # what the draft model took for the proposal being checked
        # This reply's share, for its stats.
        self.rounds = self.drafted = self.accepted = self.plain_tokens = 0
        self.drafted_s = self.plain_s = 0.0

    def append(self, token: int) -> None:
        """A token of the reply was sampled."""
        if self._draft_model is not None:
            if not self._tokens:
                self._tokens.extend(self._prompt)
            self._tokens.append(token)
            return
        if self._lookup is None:
            self._lookup = PromptLookup(self._prompt)
        self._lookup.append(token)

    def propose(self, limit: int) -> list[int]:
        """The tokens to check after the last one, [] when drafting is off here or nothing matches.

        Auto trusts a short match only in a chat where proposals were seen to be taken. A draft
        model's proposal costs a decode a token, so it is as long as the record's length in Auto too."""
        if self.mode is not Speculative.AUTO or self._draft_model is not None:
            limit = min(limit, self.record.length)  # On: grows while taken whole (Auto weighs it instead)
        if limit <= 0 or not self.record.enabled:
            return []
        if self._draft_model is not None:
            started = time.perf_counter()
            proposal = self._draft_model.propose(self._tokens, limit)
            self._proposing_s = time.perf_counter() - started
            return proposal
        if self._lookup is None:
            return []
        cautious = self.mode is Speculative.AUTO and not self.record.proven
        return self._lookup.draft(limit, NGRAM_SIZES[0] if cautious else 1)

    def worth_checking(self, proposal: list[int], probe: BatchProbe) -> list[int]:
        """Auto: the start of `proposal` whose check is expected to save the most time, [] when no
        length is expected to beat decoding one token at a time. A batch of 1 + k tokens costs what
        the probe measured and yields 1 + (p + p² + ... + p^k) tokens, p being `DraftRecord.taken`."""
        taken = self.record.taken
        best, best_gain = 0, 1.0
        expected, chance = 1.0, 1.0
        for length in range(1, len(proposal) + 1):
            chance *= taken
            expected += chance
            gain = expected / probe.cost_of(length + 1)
            if gain > best_gain:
                best, best_gain = length, gain
        return proposal[:best]

    def plain(self, seconds: float) -> None:
        """A token was decoded alone (a draft model that proposed nothing spent its time for this one)."""
        seconds += self._proposing_s
        self._proposing_s = 0.0
        self.plain_tokens += 1
        self.plain_s += seconds
        self.record.plain(seconds)

    def checked(self, drafted: int, accepted: int, seconds: float) -> None:
        """A proposal's check took `seconds` (the draft model's time for it is added here)."""
        seconds += self._proposing_s
        self._proposing_s = 0.0
        self.rounds += 1
        self.drafted += drafted
        self.accepted += accepted
        self.drafted_s += seconds
        self.record.checked(drafted, accepted, seconds)
        if self.mode is Speculative.AUTO:
            self.record.judge()

    def speedup(self) -> float:
        """The reply's decode time with one token a batch (estimated from plain decodes, this reply's or
        else the chat's) over the time it took; 0.0 when there is nothing to compare."""
        plain_tokens, plain_s = (
            (self.plain_tokens, self.plain_s) if self.plain_tokens else (self.record.plain_tokens, self.record.plain_s)
        )
        spent = self.plain_s + self.drafted_s
        if not self.rounds or not plain_tokens or spent <= 0:
            return 0.0
        decoded = self.plain_tokens + self.accepted + self.rounds
        return decoded * (plain_s / plain_tokens) / spent
