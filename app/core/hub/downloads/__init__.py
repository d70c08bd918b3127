"""Downloads from the Hugging Face Hub: a queue with progress, pause/resume/cancel, retries
with backoff, Range resume and SHA-256 checks.

`hf_hub_download` deletes partial files, cannot be cancelled and never checks SHA-256, so the
bytes move here, on huggingface_hub's own HTTP session with its headers and token:

- job.py: one download and its states (queued, downloading, paused, verifying, installed,
  failed, cancelled); pause and cancel are events checked between chunks.
- transfer.py: the resume protocol: HTTP Range requests, retries with backoff, and the
  SHA-256 computed while the bytes arrive (a resumed download hashes only the bytes already
  on disk, once; within one process, not even that).
- sidecar.py: the plan kept beside the partial file (`downloads/<key>-<name>.part` and
  `<key>-<name>.json`: pinned URL, expected SHA-256 and size, ETag), so a download resumes
  after a pause, a dropped connection or a restart of the app.
- disk.py: room on disk, checked before the bytes move.
- install.py: only a file whose size and SHA-256 match the Hub's LFS record is moved
  (atomically) into the models folder, and its hash recorded in the verified index.
- manager.py: the queue; callers poll `snapshot()` (the UI on a timer, the CLI in its loop).

Qt-free: each running job is a plain thread.
"""
