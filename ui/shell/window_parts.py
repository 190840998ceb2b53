"""What the main window is filled with after its first paint (``MainWindow.complete``).

``ui/shell/after_paint.py`` imports this module on a worker thread while the frame is on
screen, so every heavy module the filled window needs (the chat view and markdown, the
composer, the inspector, settings, sync, MCP, and the dialogs its menus open: Compress,
Export, Import, the project dialogs) is loaded there and never on the window's thread;
``ui/shell/main_window.py`` itself imports only light modules (docs/architecture.md, "The
light shell").
"""

from __future__ import annotations

from app.inspect.fit import measure
from app.model_catalog import ModelCatalog
from app.tools import BUILTIN
from app.tuning import remembered
from ui.chat.attachment_files import AttachmentFiles
from ui.chat.branch_actions import BranchActions
from ui.chat.compare_strip import CompareStrip
from ui.chat.view import ChatView
from ui.composer.composer import Composer
from ui.composer.drafts import Drafts
from ui.composer.fit_prompt import FitPrompt
from ui.composer.system_dialog import SystemDialog
from ui.inspector.compress_dialog import CompressDialog
from ui.inspector.dock import InspectorDock
from ui.inspector.request_watch import RequestWatch
from ui.mcp.approval_card import ApprovalCard
from ui.mcp.approvals import Approvals
from ui.mcp.prompt_commands import PromptCommands
from ui.mcp.resource_picker import ResourceAttach
from ui.projects.move_dialog import MoveDialog
from ui.projects.project_dialog import ProjectDialog
from ui.projects.tags_dialog import TagsDialog
from ui.settings.window_settings import WindowSettings
from ui.shell.conversation_actions import ConversationActions
from ui.shell.error_banner import ErrorBanner
from ui.shell.opening import Opening
from ui.shell.other_writers import OtherWriters
from ui.shell.project_actions import ProjectActions
from ui.shell.stall_monitor import StallMonitor
from ui.shell.turn_display import TurnDisplay
from ui.shell.welcome import WelcomeView
from ui.sync.window_sync import WindowSync
from ui.transfer.dialog import ExportDialog, ImportDialog
from ui.transfer.runner import TransferRunner

__all__ = [
    "BUILTIN",
    "ApprovalCard",
    "Approvals",
    "AttachmentFiles",
    "BranchActions",
    "ChatView",
    "CompareStrip",
    "Composer",
    "CompressDialog",
    "ConversationActions",
    "Drafts",
    "ErrorBanner",
    "ExportDialog",
    "FitPrompt",
    "ImportDialog",
    "InspectorDock",
    "ModelCatalog",
    "MoveDialog",
    "Opening",
    "OtherWriters",
    "ProjectActions",
    "ProjectDialog",
    "PromptCommands",
    "RequestWatch",
    "ResourceAttach",
    "StallMonitor",
    "SystemDialog",
    "TagsDialog",
    "TransferRunner",
    "TurnDisplay",
    "WelcomeView",
    "WindowSettings",
    "WindowSync",
    "measure",
    "remembered",
]
