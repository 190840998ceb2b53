"""What one sync did: counts for the window to word in its own language, and a summary in
English for the command line and the log (``<data>/sync/last.json``)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from app.notes import Note, english


@dataclass
class SyncReport:
    received_conversations: int = 0
    received_entries: int = 0
    created: int = 0
    branches: list[tuple[str, int]] = field(default_factory=list)  # (conversation, seq)
    sent_conversations: int = 0
    sent_entries: int = 0
    events_received: int = 0
    events_sent: int = 0
    blobs_received: int = 0
    blobs_sent: int = 0
    settings_received: bool = False  # another device's settings were taken (``[sync] settings``)
    settings_sent: bool = False
    devices: int = 0  # other devices on the remote
    requests: int = 0
    dry_run: bool = False
    warnings: list[Note] = field(default_factory=list)  # SyncWarning, or the library's Text

    def as_json(self) -> dict[str, object]:
        """As ``crosstalk sync --json`` writes it: the warnings in English."""
        return asdict(self) | {"warnings": [english(warning) for warning in self.warnings]}

    def counts(self) -> dict[str, int]:
        """What the window words in its own language (the summary is English)."""
        return {
            "received": self.received_entries,
            "sent": self.sent_entries,
            "branches": len(self.branches),
            "events": self.events_received + self.events_sent,
            "settings": int(self.settings_received) + int(self.settings_sent),
        }

    def summary(self) -> str:
        would = "would be " if self.dry_run else ""
        parts = []
        if self.received_entries or self.events_received:
            words = f"{would}received {_count(self.received_entries, 'entry', 'entries')}"
            words += f" in {_count(self.received_conversations, 'conversation')}"
            extra = []
            if self.created:
                extra.append(f"{self.created} new")
            if self.branches:
                extra.append(_count(len(self.branches), "new branch", "new branches"))
            if self.events_received:
                extra.append(_count(self.events_received, "pin, delete or restore",
                                    "pins, deletes or restores"))  # fmt: skip
            parts.append(words + (f" ({', '.join(extra)})" if extra else ""))
        if self.sent_entries or self.events_sent:
            words = f"{would}sent {_count(self.sent_entries, 'entry', 'entries')}"
            words += f" in {_count(self.sent_conversations, 'conversation')}"
            if self.events_sent:
                words += f" ({_count(self.events_sent, 'pin, delete or restore', 'pins, deletes or restores')})"  # noqa: E501
            parts.append(words)
        if self.settings_received:
            parts.append(f"{would}received the settings of another device")
        if self.settings_sent:
            parts.append(f"{would}sent this device's settings")
        text = "; ".join(parts) if parts else "up to date: nothing to receive or send"
        if self.dry_run:
            text += " (dry run: nothing was changed)"
        return text


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"
