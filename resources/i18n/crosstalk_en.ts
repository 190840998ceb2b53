<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
  <context>
    <name>AttachmentStrip</name>
    <message numerus="yes">
      <location filename="../../ui/composer/attachment_chips.py" line="+278" />
      <source>(and %n more file(s) refused)</source>
      <translation>
        <numerusform>(and %n more file refused)</numerusform>
        <numerusform>(and %n more files refused)</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>ChatHtml</name>
    <message numerus="yes">
      <location filename="../../ui/chat/html.py" line="+347" />
      <source>%n page(s)</source>
      <translation>
        <numerusform>%n page</numerusform>
        <numerusform>%n pages</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>ChatText</name>
    <message numerus="yes">
      <location filename="../../ui/chat/document.py" line="+421" />
      <source>(%n earlier message(s))</source>
      <translation>
        <numerusform>(%n earlier message)</numerusform>
        <numerusform>(%n earlier messages)</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>Chip</name>
    <message numerus="yes">
      <location filename="../../ui/composer/attachment_chips.py" line="-152" />
      <source>%n page(s)</source>
      <translation>
        <numerusform>%n page</numerusform>
        <numerusform>%n pages</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>CompareStrip</name>
    <message numerus="yes">
      <location filename="../../ui/chat/compare_strip.py" line="+101" />
      <source>Comparing %n models: the replies are kept as branches</source>
      <translation>
        <numerusform>Comparing %n models: the replies are kept as branches</numerusform>
        <numerusform>Comparing %n models: the replies are kept as branches</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>Composer</name>
    <message numerus="yes">
      <location filename="../../ui/composer/composer.py" line="+360" />
      <source>%n left out (View &gt; Inspector, Next request)</source>
      <translation>
        <numerusform>%n left out (View &gt; Inspector, Next request)</numerusform>
        <numerusform>%n left out (View &gt; Inspector, Next request)</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>CompressDialog</name>
    <message numerus="yes">
      <location filename="../../ui/inspector/compress_dialog.py" line="+292" />
      <source>Summarising seq {first}-{last} with {model} (%n summary(s))…</source>
      <translation>
        <numerusform>Summarising seq {first}-{last} with {model} (%n summary)…</numerusform>
        <numerusform>Summarising seq {first}-{last} with {model} (%n summaries)…</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>ConversationRows</name>
    <message numerus="yes">
      <location filename="../../ui/conversations/row_data.py" line="+83" />
      <source>%n token(s)</source>
      <translation>
        <numerusform>%n token</numerusform>
        <numerusform>%n tokens</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location line="+24" />
      <source>%n call(s)</source>
      <translation>
        <numerusform>%n call</numerusform>
        <numerusform>%n calls</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>ExportDialog</name>
    <message numerus="yes">
      <location filename="../../ui/transfer/dialog.py" line="+225" />
      <source>Exported %Ln conversation(s) to {path}</source>
      <translation>
        <numerusform>Exported %Ln conversation to {path}</numerusform>
        <numerusform>Exported %Ln conversations to {path}</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>FindBar</name>
    <message numerus="yes">
      <location filename="../../ui/chat/find_bar.py" line="+200" />
      <source>%n more in messages not shown</source>
      <translation>
        <numerusform>%n more in messages not shown</numerusform>
        <numerusform>%n more in messages not shown</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>ImportDialog</name>
    <message numerus="yes">
      <location filename="../../ui/transfer/dialog.py" line="+89" />
      <source>Would import %Ln conversation(s), skipped {skipped}, failed {failed}</source>
      <translation>
        <numerusform>Would import %Ln conversation, skipped {skipped}, failed {failed}</numerusform>
        <numerusform>Would import %Ln conversations, skipped {skipped}, failed {failed}</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location line="+2" />
      <source>Imported %Ln conversation(s), skipped {skipped}, failed {failed}</source>
      <translation>
        <numerusform>Imported %Ln conversation, skipped {skipped}, failed {failed}</numerusform>
        <numerusform>Imported %Ln conversations, skipped {skipped}, failed {failed}</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>ImportProgress</name>
    <message numerus="yes">
      <location line="-201" />
      <source>{file}: %Ln conversation(s) so far</source>
      <translation>
        <numerusform>{file}: %Ln conversation so far</numerusform>
        <numerusform>{file}: %Ln conversations so far</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>KnowledgeDialog</name>
    <message numerus="yes">
      <location filename="../../ui/knowledge/dialog.py" line="+362" />
      <source>%n file(s) read</source>
      <translation>
        <numerusform>%n file read</numerusform>
        <numerusform>%n files read</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location line="+7" />
      <source>%n could not be read</source>
      <translation>
        <numerusform>%n could not be read</numerusform>
        <numerusform>%n could not be read</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>McpServersPage</name>
    <message numerus="yes">
      <location filename="../../ui/settings/tools_tab.py" line="+508" />
      <source>%n tool(s)</source>
      <translation>
        <numerusform>%n tool</numerusform>
        <numerusform>%n tools</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location line="+1" />
      <source>%n prompt(s)</source>
      <translation>
        <numerusform>%n prompt</numerusform>
        <numerusform>%n prompts</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location line="+1" />
      <source>%n resource(s)</source>
      <translation>
        <numerusform>%n resource</numerusform>
        <numerusform>%n resources</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>ModelPopup</name>
    <message numerus="yes">
      <location filename="../../ui/composer/model_popup.py" line="+209" />
      <source>%n served by {url} at {time}</source>
      <translation>
        <numerusform>%n served by {url} at {time}</numerusform>
        <numerusform>%n served by {url} at {time}</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>MoveDialog</name>
    <message numerus="yes">
      <location filename="../../ui/projects/move_dialog.py" line="+41" />
      <source>Move %n conversation(s) to:</source>
      <translation>
        <numerusform>Move %n conversation to:</numerusform>
        <numerusform>Move %n conversations to:</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>NextRequestTab</name>
    <message numerus="yes">
      <location filename="../../ui/inspector/next_request_tab.py" line="+270" />
      <source>{model}, the first request of a new chat: %n part(s), {tokens} tokens</source>
      <translation>
        <numerusform>{model}, the first request of a new chat: %n part, {tokens} tokens</numerusform>
        <numerusform>{model}, the first request of a new chat: %n parts, {tokens} tokens</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location line="+3" />
      <source>{model}, the next request: %n part(s), {tokens} tokens</source>
      <translation>
        <numerusform>{model}, the next request: %n part, {tokens} tokens</numerusform>
        <numerusform>{model}, the next request: %n parts, {tokens} tokens</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>Opening</name>
    <message numerus="yes">
      <location filename="../../ui/shell/opening.py" line="+99" />
      <source>(%n more in the log)</source>
      <translation>
        <numerusform>(%n more in the log)</numerusform>
        <numerusform>(%n more in the log)</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>ProblemDialog</name>
    <message numerus="yes">
      <location filename="../../ui/shell/unexpected.py" line="+65" />
      <source>It happened %n time(s).</source>
      <translation>
        <numerusform>It happened %n time.</numerusform>
        <numerusform>It happened %n times.</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>ProjectActions</name>
    <message numerus="yes">
      <location filename="../../ui/shell/project_actions.py" line="+205" />
      <source>Moved the project “{name}” and %n conversation(s) to the trash.</source>
      <translation>
        <numerusform>Moved the project “{name}” and %n conversation to the trash.</numerusform>
        <numerusform>Moved the project “{name}” and %n conversations to the trash.</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location line="+17" />
      <source>Brought back the project “{name}” and %n conversation(s).</source>
      <translation>
        <numerusform>Brought back the project “{name}” and %n conversation.</numerusform>
        <numerusform>Brought back the project “{name}” and %n conversations.</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>ProjectRows</name>
    <message numerus="yes">
      <location filename="../../ui/conversations/projects_model.py" line="+193" />
      <source>%n conversation(s)</source>
      <translation>
        <numerusform>%n conversation</numerusform>
        <numerusform>%n conversations</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>ResourcePicker</name>
    <message numerus="yes">
      <location filename="../../ui/mcp/resource_picker.py" line="+126" />
      <source>%n resource(s)</source>
      <translation>
        <numerusform>%n resource</numerusform>
        <numerusform>%n resources</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location line="+81" />
      <source>Could not attach %n resource(s):</source>
      <translation>
        <numerusform>Could not attach %n resource:</numerusform>
        <numerusform>Could not attach %n resources:</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>RetrievalTab</name>
    <message numerus="yes">
      <location filename="../../ui/inspector/retrieval_tab.py" line="+168" />
      <source>%n passage(s) found</source>
      <translation>
        <numerusform>%n passage found</numerusform>
        <numerusform>%n passages found</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>SearchResults</name>
    <message numerus="yes">
      <location filename="../../ui/conversations/search_results.py" line="+71" />
      <location line="+16" />
      <source>%n match(es)</source>
      <translation>
        <numerusform>%n match</numerusform>
        <numerusform>%n matches</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location line="-15" />
      <source>%n conversation(s)</source>
      <translation>
        <numerusform>%n conversation</numerusform>
        <numerusform>%n conversations</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location line="+19" />
      <source>%n more in this conversation: open it and press Ctrl+F</source>
      <translation>
        <numerusform>%n more in this conversation: open it and press Ctrl+F</numerusform>
        <numerusform>%n more in this conversation: open it and press Ctrl+F</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>Searching</name>
    <message numerus="yes">
      <location filename="../../ui/chat/searching.py" line="+49" />
      <source>%n passage(s) from your documents</source>
      <translation>
        <numerusform>%n passage from your documents</numerusform>
        <numerusform>%n passages from your documents</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>SyncLine</name>
    <message numerus="yes">
      <location filename="../../ui/sync/status.py" line="+125" />
      <source>(retrying in %n min)</source>
      <translation>
        <numerusform>(retrying in %n min)</numerusform>
        <numerusform>(retrying in %n min)</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location line="+12" />
      <source>%n conversation(s) to send</source>
      <translation>
        <numerusform>%n conversation to send</numerusform>
        <numerusform>%n conversations to send</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location line="+16" />
      <source>%n min ago</source>
      <translation>
        <numerusform>%n min ago</numerusform>
        <numerusform>%n min ago</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>SyncResult</name>
    <message numerus="yes">
      <location line="-110" />
      <source>received %n entry(s)</source>
      <translation>
        <numerusform>received %n entry</numerusform>
        <numerusform>received %n entries</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location line="+2" />
      <source>%n new branch(es) from another device</source>
      <translation>
        <numerusform>%n new branch from another device</numerusform>
        <numerusform>%n new branches from another device</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location line="+2" />
      <source>sent %n entry(s)</source>
      <translation>
        <numerusform>sent %n entry</numerusform>
        <numerusform>sent %n entries</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location line="+2" />
      <source>%n pin(s), delete(s) or restore(s)</source>
      <translation>
        <numerusform>%n pin, delete or restore</numerusform>
        <numerusform>%n pins, deletes or restores</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>SyncTab</name>
    <message numerus="yes">
      <location filename="../../ui/settings/sync_tab.py" line="+303" />
      <source>%n conversation(s)</source>
      <translation>
        <numerusform>%n conversation</numerusform>
        <numerusform>%n conversations</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>ToolsMenu</name>
    <message numerus="yes">
      <location filename="../../ui/composer/tools_menu.py" line="+148" />
      <source>%n tool(s)</source>
      <translation>
        <numerusform>%n tool</numerusform>
        <numerusform>%n tools</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>WindowSync</name>
    <message numerus="yes">
      <location filename="../../ui/sync/window_sync.py" line="+64" />
      <source>A new branch came from another device in %n conversation(s): {titles}</source>
      <translation>
        <numerusform>A new branch came from another device in %n conversation: {titles}</numerusform>
        <numerusform>A new branch came from another device in %n conversations: {titles}</numerusform>
      </translation>
    </message>
  </context>
</TS>
