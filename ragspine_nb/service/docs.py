"""``/docs`` served from the package, so the API page works offline.

FastAPI's own ``/docs`` loads Swagger UI from a CDN (blank without a network) and its
``/redoc`` does the same with ReDoc. Here ``/docs`` is Swagger UI from files shipped in
the package (``static/swagger-ui``: ``swagger-ui-bundle.js`` and ``swagger-ui.css`` of
swagger-ui-dist 5.35.0, Apache-2.0, with its LICENSE and NOTICE), its validator badge
(which calls validator.swagger.io) is off, and ``/redoc`` is not served.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

__all__ = ["add_docs_routes", "STATIC_URL", "SWAGGER_DIR", "SWAGGER_VERSION"]

#: Where the package's Swagger UI files are served.
STATIC_URL = "/static/swagger-ui"
#: The folder they are served from (package data).
SWAGGER_DIR = Path(__file__).parent / "static" / "swagger-ui"
#: The swagger-ui-dist release the files come from.
SWAGGER_VERSION = "5.35.0"


def add_docs_routes(app: FastAPI) -> None:
    """``GET /docs`` (Swagger UI from :data:`SWAGGER_DIR`) and the static files it loads.

    Create ``app`` with ``docs_url=None, redoc_url=None`` (FastAPI's CDN pages).
    """
    app.mount(STATIC_URL, StaticFiles(directory=SWAGGER_DIR), name="swagger-ui")
    openapi_url = app.openapi_url or "/openapi.json"

    @app.get("/docs", include_in_schema=False)
    def docs(request: Request) -> HTMLResponse:
        """The interactive API documentation."""
        root = str(request.scope.get("root_path", "")).rstrip("/")
        return get_swagger_ui_html(
            openapi_url=f"{root}{openapi_url}", title=f"{app.title} - API",
            swagger_js_url=f"{root}{STATIC_URL}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{STATIC_URL}/swagger-ui.css",
            swagger_favicon_url=f"{root}{STATIC_URL}/favicon-32x32.png",
            swagger_ui_parameters={"validatorUrl": None})
