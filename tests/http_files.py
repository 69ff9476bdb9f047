"""A real HTTP server on 127.0.0.1 for the fetch tests: serves bytes by path, some cut short."""

from __future__ import annotations

import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator, Mapping


@contextmanager
def serving(routes: Mapping[str, bytes], cut: Mapping[str, int] | None = None,
            content_type: str | None = None) -> Iterator[str]:
    """Serve `routes` (path -> body) until the block ends; yields the base URL. A path in `cut`
    announces its whole length but sends only that many bytes, then closes (a broken download)."""
    short = dict(cut or {})

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            body = routes.get(self.path)
            if body is None:
                self.send_error(404)
                return
            self.send_response(200)
            if content_type is not None:
                self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.path in short:
                self.wfile.write(body[: short[self.path]])
                self.wfile.flush()
                self.close_connection = True
                return
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
