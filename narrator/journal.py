"""The journal, the adapters of the `Journal` port: one JSON object a line, appended and synced
before the game moves on (`FileJournal`), or kept in memory (`MemoryJournal`)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Mapping

from narrator.ports import JournalError

__all__ = ["FileJournal", "JournalError", "MemoryJournal", "read_journal"]


class MemoryJournal:
    """Records in a list: a game nobody needs to resume (the demo, tests)."""

    def __init__(self, records: list[dict[str, Any]] | None = None) -> None:
        self._records: list[dict[str, Any]] = [dict(r) for r in records or []]
        # Records appended since `records` last read them, as JSON: encoded at once (a record the
        # journal cannot hold fails where it is appended, and later changes to it are not kept),
        # decoded only when read. Most games in memory are never read back, and a game that is
        # decodes its records once, in one go.
        self._encoded: list[str] = []

    def append(self, record: Mapping[str, Any]) -> None:
        self._encoded.append(json.dumps(record))

    def records(self) -> list[dict[str, Any]]:
        if self._encoded:
            self._records.extend(json.loads("[" + ",".join(self._encoded) + "]"))
            self._encoded.clear()
        return [dict(r) for r in self._records]


class FileJournal:
    """Append-only JSON lines with fsync after every append; a crash loses at most a torn tail."""

    def __init__(self, path: Path, records: list[dict[str, Any]] | None = None) -> None:
        self.path = path
        self._records = list(records or [])
        self._file = open(path, "ab")

    @classmethod
    def create(cls, path: Path) -> FileJournal:
        if path.exists() and path.stat().st_size > 0:
            raise JournalError("journal {path} already exists; resume it with 'narrator resume {path}' or choose "
                               "another file", path=path)
        path.parent.mkdir(parents=True, exist_ok=True)
        journal = cls(path)
        # The new file's name lives in its folder: sync the folder too, or a power cut can lose
        # the whole journal even though every record in it was synced.
        journal._sync_folder()
        return journal

    def _sync(self, fd: int) -> None:
        """Make what was written to `fd` durable (a file's records, a folder's new name)."""
        os.fsync(fd)

    def _sync_folder(self) -> None:
        fd = os.open(self.path.parent, os.O_RDONLY)
        try:
            self._sync(fd)
        finally:
            os.close(fd)

    @classmethod
    def reopen(cls, path: Path) -> FileJournal:
        """Open an existing journal to continue it, dropping a torn last line left by a crash."""
        records, good_bytes = read_journal(path)
        if good_bytes < path.stat().st_size:
            # Only an unterminated last line is dropped: it was never synced as a whole record.
            with open(path, "r+b") as f:
                f.truncate(good_bytes)
                f.flush()
                os.fsync(f.fileno())
        return cls(path, records)

    def mark_resumed(self, stopped: float) -> None:
        """Note that the game goes on after a stop: when (now) and when the journal was last written
        before it (`stopped`, its modification time), so the history counts only the time played."""
        import time

        self.append({"kind": "resumed", "at": round(time.time(), 3), "stopped": round(stopped, 3)})

    def append(self, record: Mapping[str, Any]) -> None:
        line = json.dumps(record, separators=(",", ":"), sort_keys=True) + "\n"
        self._file.write(line.encode("utf-8"))
        self._file.flush()
        self._sync(self._file.fileno())
        self._records.append(json.loads(line))

    def records(self) -> list[dict[str, Any]]:
        return [dict(r) for r in self._records]

    def close(self) -> None:
        self._file.close()


def read_journal(path: Path) -> tuple[list[dict[str, Any]], int]:
    """The records of a journal and the byte length of its complete lines.

    A last line without its newline is a write cut off by a crash and is left out; any other
    line that is not a JSON object means the file is corrupt, and nothing is changed.
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise JournalError("journal {path} does not exist", path=path) from None
    except OSError as exc:
        raise JournalError("journal {path} cannot be read: {strerror}", path=path, strerror=exc.strerror) from None
    records: list[dict[str, Any]] = []
    offset = 0
    lines = data.split(b"\n")
    for number, raw in enumerate(lines, start=1):
        last = number == len(lines)
        if last:
            break  # after the final newline: empty, or a torn line that is dropped
        try:
            record = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise JournalError("journal {path} is corrupt at line {number}: {raw!r}; it was left as it is",
                               path=path, number=number, raw=raw[:60]) from None
        if not isinstance(record, dict) or "kind" not in record:
            raise JournalError("journal {path} is corrupt at line {number}: not a journal record; it was left as it is",
                               path=path, number=number)
        records.append(record)
        offset += len(raw) + 1
    if not records or records[0].get("kind") != "setup":
        raise JournalError("journal {path} does not begin with a game setup; it is not a narrator journal or it is "
                           "empty", path=path)
    return records, offset
