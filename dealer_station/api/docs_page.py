"""``/docs``: Swagger UI from the package, not from a CDN.

FastAPI's own ``/docs`` page loads Swagger UI from a CDN and starts it with an
inline script. Either would let code from elsewhere run on the origin where the
console keeps its tokens, and the Content-Security-Policy (api/page_policy.py)
allows neither. So the page here names only files this station serves: Swagger
UI 5's dist files as the ``fastapi-offline`` package ships them (MIT; Swagger UI
itself is Apache-2.0; only its static files are used, not its FastAPI subclass),
and a starter script of ours. Swagger UI 5, because FastAPI publishes OpenAPI 3.1,
which Swagger UI 4 cannot draw.
"""

from __future__ import annotations

from importlib import resources

from fastapi import APIRouter
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

ASSETS = "/docs/assets"

router = APIRouter(include_in_schema=False)

assets = StaticFiles(directory=str(resources.files("fastapi_offline") / "static"))

_PAGE = f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>dealer station API</title>
<link rel="stylesheet" href="{ASSETS}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="{ASSETS}/swagger-ui-bundle.js"></script>
<script src="/static/docs.js"></script>
</body>
</html>
"""


@router.get("/docs", response_class=HTMLResponse)
async def docs() -> str:
    return _PAGE
