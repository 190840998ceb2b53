"""One scrubber for every text that could carry a key out: provider error messages (and so the
transcript, the terminal and exports), log lines and what the inspector shows.

It removes the configured key values themselves (whatever their shape: a self-hosted server's
key looks like nothing in particular) and anything shaped like a known provider's key.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

REDACTED = "[redacted]"
MIN_SECRET = 12  # shorter values are stand-ins ("not-needed"), not keys worth hunting for

KEY_SHAPES = re.compile(
    r"\bsk-(?:ant-|proj-|or-)?[A-Za-z0-9_*-]{16,}"  # OpenAI, Anthropic, OpenRouter (or masked)
    r"|\bAIza[0-9A-Za-z_-]{35}"  # Google API keys
    r"|\bya29\.[0-9A-Za-z_-]{20,}"  # Google OAuth access tokens
    r"|\b(?:gsk|hf|ghp|gho|ghu|ghs|ghr|github_pat|glpat|xox[abpr])[_-][A-Za-z0-9_-]{20,}"
    r"|\bxai-[A-Za-z0-9]{20,}"  # xAI
    r"|\b(?:AKIA|ASIA)[A-Z0-9]{16}\b"  # AWS access key ids (sync's S3 remotes)
    r"|\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"  # JWTs
    r"|\b(?:Bearer|Basic)\s+[A-Za-z0-9._~+/-]{12,}=*",
    re.IGNORECASE,
)
# A value right after a credential's name, whatever its shape: "x-api-key: ...", "key=..."
# in a URL, '"api_key": "..."' in JSON. Keys hold digits; words (a tool's "key": "summary") don't.
NAMED = re.compile(
    r"""(\b(?:x-api-key|x-goog-api-key|api[_-]?key|access[_-]?token|client[_-]?secret|key"""
    r"""|(?:aws[_-]?)?secret[_-]?access[_-]?key|session[_-]?token|x-amz-signature"""
    r"""|x-amz-security-token|x-amz-credential|password)"""
    r"""["']?\s*[:=]\s*["']?)((?=[A-Za-z_.~+/-]*\d)[A-Za-z0-9_.~+/-]{12,}=*)""",
    re.IGNORECASE,
)


def scrub(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with every one of ``secrets``, every key-shaped string and every value given
    under a credential's name replaced."""
    for secret in sorted({s for s in secrets if len(s) >= MIN_SECRET}, key=len, reverse=True):
        text = text.replace(secret, REDACTED)
    text = KEY_SHAPES.sub(REDACTED, text)
    return NAMED.sub(lambda m: m.group(1) + REDACTED, text)
