"""What the FTS5 index stores for a chunk, and the MATCH expression for a question.

SQLite's default tokenizer (unicode61) splits text at spaces and punctuation, so a run of
Chinese or Japanese, which has neither between words, becomes one single token:
"今天天气很好" is one term and a search for "天气" finds nothing. The `trigram` tokenizer
matches any substring of three or more characters but nothing shorter, and most Chinese
words are two characters (天气, 下雨, 模型). So, as Lucene's CJK analyzer does, each run of
CJK characters is indexed as its single characters and its overlapping pairs
("今 天 天 气 … 今天 天天 天气 …"), and a question's run becomes its pairs: "天气" is then one
exact term, "天气很好" three, and BM25 ranks the chunk that has more of them first. Other
text goes to unicode61 as it is, with Porter stemming for English ("indexing" finds "index")
and accents folded ("cafe" finds "café").

A question becomes an OR of its terms (quoted, so nothing in it is FTS5 syntax), without the
most common English words, which match nearly every chunk and only cost time. The index
then leaves out the question's terms that are common in the corpus (see
`DocumentIndex.keyword_search`).
"""

from __future__ import annotations

import re

FTS_TOKENIZER = "porter unicode61 remove_diacritics 2"
MAX_QUERY_TERMS = 32

_CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ffff]+")
_WORD = re.compile(r"\w+")
_STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being below between
    both but by can could did do does doing down during each few for from further had has have having he her here
    hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off
    on once only or other our ours ourselves out over own same she should so some such than that the their theirs
    them themselves then there these they this those through to too under until up very was we were what when where
    which while who whom why will with would you your yours yourself yourselves tell please""".split()
)


def index_text(text: str) -> str:
    """The text as the FTS5 table stores it: CJK runs spelled out as characters and pairs."""
    return _CJK_RUN.sub(lambda run: f" {_cjk_terms(run.group(), singles=True)} ", text)


def question_words(question: str, limit: int = MAX_QUERY_TERMS) -> list[str]:
    """The words of a question worth searching for, each once, in order: CJK runs as their pairs."""
    words: list[str] = []
    for word in _question_terms(question):
        if word not in words:
            words.append(word)
        if len(words) == limit:
            break
    return words


def or_expression(words: list[str]) -> str | None:
    """An FTS5 MATCH expression for any of the words, None for no words."""
    if not words:
        return None
    return " OR ".join('"' + word.replace('"', '""') + '"' for word in words)


def match_expression(question: str) -> str | None:
    """An FTS5 MATCH expression for the question, None when it has no term worth searching."""
    return or_expression(question_words(question))


def _question_terms(question: str) -> list[str]:
    terms: list[str] = []
    position = 0
    for run in _CJK_RUN.finditer(question):
        terms += _words(question[position : run.start()])
        terms += _cjk_terms(run.group(), singles=len(run.group()) == 1).split()
        position = run.end()
    terms += _words(question[position:])
    return terms


def _words(text: str) -> list[str]:
    return [word for word in _WORD.findall(text.casefold()) if word not in _STOPWORDS and word != "_"]


def _cjk_terms(run: str, singles: bool) -> str:
    pairs = [run[i : i + 2] for i in range(len(run) - 1)]
    return " ".join([*run, *pairs] if singles else pairs or [run])
