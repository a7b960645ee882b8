"""A post's own page in its archive, computed from the archive's base URL and the Message-ID.

Only archives whose message pages are addressed by the Message-ID can be linked without a
crawl: public-inbox (`<inbox>/<message-id>/`) and HyperKitty (`<list root>message/<hash>/`,
the hash being HyperKitty's base32 of the id's SHA-1). Archives that number their pages
(MHonArc) set `Mail.url` from the page they read instead.
"""

from __future__ import annotations

import base64
import hashlib
from urllib.parse import quote

STYLES = ("public-inbox", "hyperkitty")


def bare_id(message_id: str) -> str:
    return message_id.strip().removeprefix("<").removesuffix(">").strip()


def hyperkitty_hash(message_id: str) -> str:
    """HyperKitty's `get_message_id_hash`: base32 of the SHA-1 of the id without `<>`."""
    return base64.b32encode(hashlib.sha1(bare_id(message_id).encode("utf-8")).digest()).decode("ascii")


def permalink(style: str | None, base: str | None, message_id: str) -> str | None:
    """The message's page, or None when the archive has none or the id is one listbench made up."""
    if not style or not base or not base.startswith(("http://", "https://")):
        return None
    if message_id.endswith("@listbench"):  # a stable id for a message that had none
        return None
    root = base if base.endswith("/") else base + "/"
    if style == "public-inbox":
        return root + quote(bare_id(message_id), safe="@!$&'()*+,;=:~-._") + "/"
    if style == "hyperkitty":
        return f"{root}message/{hyperkitty_hash(message_id)}/"
    raise ValueError(f"unknown permalink style {style!r} (have: {', '.join(STYLES)})")
