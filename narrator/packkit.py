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
from narrator.packs import REFERENCE_LANGUAGE, TEXT_SECTIONS, UNTRANSLATED, packs_root

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
    raise UsageError(f"the {REFERENCE_LANGUAGE} pack has a value that is not a text: {value!r}")


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
            out.append(line)
            continue
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
        raise UsageError(f"language {lang!r} is not a language tag: give two or three lower-case letters "
                         "(ISO 639-1 where there is one), optionally with a region, e.g. de, nl, pt-br")
    base = root or packs_root()
    reference = base / REFERENCE_LANGUAGE / "pack.toml"
    if not reference.is_file():
        raise UsageError(f"no {REFERENCE_LANGUAGE} pack at {reference} to copy from; set NARRATOR_VOICES to the voices folder")
    target = base / lang / "pack.toml"
    if target.exists():
        raise UsageError(f"a {lang} pack already exists at {target}; edit it, or remove it first to start again")
    text = new_pack_text(reference.read_text(encoding="utf-8"), lang)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {target}: {exc.strerror or exc}; set NARRATOR_VOICES to a folder you can write "
                         "(holding a copy of the en pack)") from None
    return target
