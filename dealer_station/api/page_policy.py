"""The headers every answer carries: a Content-Security-Policy, no sniffing, no referrer.

The console keeps its croupier token (and a pit boss's session) in this origin's
storage, so nothing but the station's own files may run on it: scripts, styles,
fonts and images come from ``'self'`` only (Swagger UI's too, served from the
package: api/docs_page.py), the only connections are back to the station (its
WebSocket named with the host the page was loaded from, for browsers that do not
count ``ws:`` as ``'self'``), and no other site may frame the console or the docs,
so a click on them cannot be stolen.

The overlay is the exception for framing: a studio may put it in a page of its
own (a web mixer) as well as in an OBS or vMix browser source (which load it as a
top-level page, where ``frame-ancestors`` does not apply). It has no buttons.
"""

from __future__ import annotations

import re

# A Host header is the client's to write: only a plain host[:port] goes into a policy.
_HOST = re.compile(r"^[A-Za-z0-9.-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$")

# Swagger UI draws its icons as data: SVGs in its stylesheet.
_BASE = (
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "form-action 'self'"
)


def content_security_policy(path: str, host: str) -> str:
    connect = "connect-src 'self'"
    if _HOST.match(host):
        connect += f" ws://{host} wss://{host}"
    ancestors = "frame-ancestors *" if path.startswith("/overlay/") else "frame-ancestors 'none'"
    return f"{_BASE}; {connect}; {ancestors}"


def page_headers(path: str, host: str) -> list[tuple[bytes, bytes]]:
    return [
        (b"content-security-policy", content_security_policy(path, host).encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
    ]
