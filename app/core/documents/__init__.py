"""Your documents and a long memory: files read, cut into chunks, indexed and retrieved into the prompt.

Everything stays on this machine. Files are read by `readers` (text, Markdown,
reStructuredText, source code, HTML, PDF, DOCX), cut by `chunking` into pieces of a few
hundred tokens, stored by `index` in the chats database (SQLite: FTS5 full text with BM25,
and float32 vectors searched exactly with NumPy when an embedding model is set), kept up
to date by `indexer`, and brought back into a turn's prompt by `retrieval` (documents) and
`long_memory` (the turns the sliding window dropped).
"""
