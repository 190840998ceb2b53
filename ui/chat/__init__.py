"""The chat in the centre of the window: the transcript drawn as rich text and the live reply,
find in the chat, editing a sent message, the actions under a message, comparing models, the
attachments a message shows, and the controller that runs turns and tells widgets what happened.

May import ``ui.common``.
"""
