"""`narrator voices new LANG`: a new pack copied from the English one, every text marked untranslated.

The copy keeps the English file's layout, order and comments line for line, so a translator works
down the file beside the English one, and keys added to English later go in at the same place.
Each text gets the mark `packs.UNTRANSLATED` in front; the loader strips it (the pack plays, in
English, while the work goes on) and `narrator voices check` lists every line still marked.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from narrator.errors import UsageError
from narrator.messages import fill_catalogue
from narrator.packs import LANGUAGE_SECTIONS, REFERENCE_LANGUAGE, TEXT_SECTIONS, UNTRANSLATED, packs_root

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

# A language tag as the packs' folders use it: "de", "pt", "zh", or with a region "pt-br".
LANG_TAG = re.compile(r"[a-z]{2,3}(-[a-z0-9]{2,8})?")
_SECTION = re.compile(r"\s*\[([A-Za-z0-9_.-]+)\]\s*(#.*)?$")
_ENTRY = re.compile(r'(\s*(?:"[^"]*"|[A-Za-z0-9_.-]+)\s*=\s*)(.+)$')


def _toml_string(text: str) -> str:
    # A JSON string is a valid TOML basic string (same escapes), kept readable with ensure_ascii off.
    return json.dumps(text, ensure_ascii=False)


def _marked(value: Any) -> str:
    if isinstance(value, str):
        return _toml_string(UNTRANSLATED + value)
    if isinstance(value, list) and all(isinstance(x, str) for x in value):
        return "[" + ", ".join(_toml_string(UNTRANSLATED + x) for x in value) + "]"
    raise UsageError("the {reference_language} pack has a value that is not a text: {value!r}",
                     reference_language=REFERENCE_LANGUAGE, value=value)


def new_pack_text(reference: str, lang: str) -> str:
    """The text of a new pack for `lang`, from the English pack's text `reference`."""
    out: list[str] = [
        f"# {lang} voice pack, made by 'narrator voices new {lang}' from the {REFERENCE_LANGUAGE} pack.",
        f"# Translate every text and remove its {UNTRANSLATED.strip()} mark; 'narrator voices check' lists what is left.",
        "# See docs/languages.md. The English comments below still apply.",
    ]
    section = ""
    for line in reference.splitlines():
        head = _SECTION.match(line)
        if head:
            section = head.group(1)
            if section.split(".")[0] not in LANGUAGE_SECTIONS:
                out.append(line)
            continue
        if section.split(".")[0] in LANGUAGE_SECTIONS:
            continue  # English's own plural forms and readings: the new language writes its own
        entry = _ENTRY.match(line)
        if entry is None or line.lstrip().startswith("#"):
            out.append(line)
            continue
        if section == "pack":
            key = entry.group(1).split("=")[0].strip()
            if key == "language":
                out.append(f"{entry.group(1)}{_toml_string(lang)}")
            elif key == "name":
                out.append(f"{entry.group(1)}{_toml_string(lang)}       # the language's own name, e.g. Deutsch")
            elif key == "voice":
                out.append(f"{entry.group(1)}{_toml_string(lang)}       # espeak-ng voice id: pick one from 'espeak-ng --voices'")
            else:
                out.append(line)
            continue
        if section not in TEXT_SECTIONS:
            out.append(line)
            continue
        value = tomllib.loads(f"v = {entry.group(2)}")["v"]
        out.append(f"{entry.group(1)}{_marked(value)}")
    return "\n".join(out) + "\n"


def create_pack(lang: str, root: Path | None = None) -> Path:
    """Write `root/lang/pack.toml` (root: where the packs are); refuse a bad tag or an existing pack."""
    if not LANG_TAG.fullmatch(lang):
        raise UsageError("language {lang!r} is not a language tag: give two or three lower-case letters (ISO 639-1 "
                         "where there is one), optionally with a region, e.g. de, nl, pt-br", lang=lang)
    base = root or packs_root()
    reference = base / REFERENCE_LANGUAGE / "pack.toml"
    if not reference.is_file():
        raise UsageError("no {reference_language} pack at {reference} to copy from; set NARRATOR_VOICES to the voices "
                         "folder", reference_language=REFERENCE_LANGUAGE, reference=reference)
    target = base / lang / "pack.toml"
    if target.exists():
        raise UsageError("a {lang} pack already exists at {target}; edit it, or remove it first to start again",
                         lang=lang, target=target)
    text = new_pack_text(reference.read_text(encoding="utf-8"), lang)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        fill_catalogue(lang, base)  # the printed words too: messages.toml, every message marked untranslated
    except OSError as exc:
        raise UsageError("cannot write {target}: {reason}; set NARRATOR_VOICES to a folder you can write (holding a "
                         "copy of the en pack)", target=target, reason=exc.strerror or exc) from None
    return target


def _key_of(line: str) -> str | None:
    entry = _ENTRY.match(line)
    if entry is None or line.lstrip().startswith("#"):
        return None
    raw = entry.group(1).split("=")[0].strip()
    return raw[1:-1] if raw.startswith('"') and raw.endswith('"') else raw


def fill_missing_text(text: str, reference: str) -> tuple[str, int]:
    """`text` (a pack) with every key of `reference` (the English pack) that it lacks added, marked
    untranslated, after the key that precedes it in English (or under the section's header); and how many."""
    ref = tomllib.loads(reference)
    have = tomllib.loads(text)
    lines = text.splitlines()
    added = 0
    for section in TEXT_SECTIONS:
        ref_table = ref.get(section)
        if not isinstance(ref_table, dict):
            continue
        table = have.get(section, {})
        missing = [k for k in ref_table if k not in table]
        if not missing:
            continue
        header = next((i for i, line in enumerate(lines) if (m := _SECTION.match(line)) and m.group(1) == section), None)
        if header is None:
            lines += ["", f"[{section}]"]
            header = len(lines) - 1
        order = list(ref_table)
        for key in missing:
            # The section's extent, and where each of its keys sits, looked up afresh after each insertion.
            end = next((i for i in range(header + 1, len(lines)) if _SECTION.match(lines[i])), len(lines))
            where = {k: i for i in range(header + 1, end) if (k := _key_of(lines[i])) is not None}
            before = [where[k] for k in order[:order.index(key)] if k in where]
            at = max(before) + 1 if before else header + 1
            quoted = key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _toml_string(key)
            lines.insert(at, f"{quoted} = {_marked(ref_table[key])}")
            added += 1
    return "\n".join(lines) + "\n", added


def fill_pack(lang: str, root: Path | None = None) -> tuple[Path, int]:
    """Add to `root/lang/pack.toml` every key the English pack has and it lacks, marked untranslated."""
    base = root or packs_root()
    path = base / lang / "pack.toml"
    reference = base / REFERENCE_LANGUAGE / "pack.toml"
    if not path.is_file():
        raise UsageError("no {lang} pack at {path}; start one with 'narrator voices new {lang}'", lang=lang, path=path)
    if lang == REFERENCE_LANGUAGE:
        raise UsageError("the {reference_language} pack is the reference: add keys to it by hand",
                         reference_language=REFERENCE_LANGUAGE)
    try:
        text, added = fill_missing_text(path.read_text(encoding="utf-8"), reference.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise UsageError("{path} or {reference} is not valid TOML: {exc}", path=path, reference=reference, exc=exc) from None
    if added:
        path.write_text(text, encoding="utf-8")
    _, messages = fill_catalogue(lang, base)
    return path, added + messages
