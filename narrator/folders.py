"""Fetching files and installing a folder in one step: shared by the speech-model store, the Piper
voice store and recorded packs."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path
from typing import Callable

from narrator.errors import NarratorError

# Called as a download goes: bytes so far, and the total when the server gave it.
Progress = Callable[[int, "int | None"], None]


def move_into_place(folder: Path, final: Path) -> None:
    """Put `folder` at `final` by renames only; an existing `final` is replaced, and put back if
    the last rename fails, so a failure never leaves `final` missing."""
    if final.exists():
        old = final.with_name(f".old-{final.name}-{os.getpid()}")
        os.replace(final, old)
        try:
            os.replace(folder, final)
        except OSError:
            os.replace(old, final)
            raise
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(folder, final)


def sha256_file(path: Path) -> str:
    """The SHA-256 of a file, read a block at a time."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def download(url: str, target: Path, error: type[NarratorError], hint: str, progress: Progress | None = None,
             timeout: float = 30.0) -> str:
    """Download `url` into `target` and return its SHA-256. Every failure raises `error` with one
    line; where the server cannot be reached or refuses, `hint` says how to do it by hand."""
    import http.client
    import urllib.error
    import urllib.request

    h = hashlib.sha256()
    got = 0
    total: int | None = None
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp, open(target, "wb") as out:
            length = resp.headers.get("Content-Length")
            total = int(length) if length and length.isdigit() else None
            while True:
                block = resp.read(1 << 16)
                if not block:
                    break
                out.write(block)
                h.update(block)
                got += len(block)
                if progress is not None:
                    progress(got, total)
    except urllib.error.HTTPError as exc:
        raise error(f"cannot download {url}: HTTP {exc.code} {exc.reason}; {hint}") from None
    except urllib.error.URLError as exc:
        raise error(f"cannot download {url} ({_reason(exc.reason)}); {hint}") from None
    except http.client.IncompleteRead as exc:
        raise error(f"the download of {url} broke off after {len(exc.partial) + got} bytes; "
                    "nothing was installed, run the fetch again") from None
    except (OSError, http.client.HTTPException) as exc:
        raise error(f"the download of {url} failed after {got} bytes ({_reason(exc)}); "
                    "nothing was installed, run the fetch again") from None
    if total is not None and got != total:
        raise error(f"the download of {url} broke off after {got} of {total} bytes; "
                    "nothing was installed, run the fetch again")
    return h.hexdigest()


def _reason(reason: object) -> str:
    if isinstance(reason, OSError) and reason.strerror:
        return reason.strerror.lower()
    return str(reason) or type(reason).__name__
