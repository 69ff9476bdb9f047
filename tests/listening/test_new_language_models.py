"""Each new language's official small Vosk model and Piper voice, fetched from a real HTTP server
on 127.0.0.1 (no internet here) exactly as from the published sites."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from narrator.cli import main
from narrator.listening import models
from narrator.packs import available_languages
from narrator.speech import piper
from tests.http_files import serving
from tests.listening.test_models import model_zip, store  # noqa: F401 - store is a fixture

NEW = ("de", "pt", "ru", "zh", "ja", "nl", "pl")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    routes = {f"/m/{models.CATALOG[lang].name}.zip": model_zip(models.CATALOG[lang].name) for lang in NEW}
    with serving(routes, content_type="application/zip") as url:
        yield url


@pytest.mark.parametrize("lang", NEW)
def test_models_fetch_installs_the_official_small_model(lang: str, server: str, store: Path,
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("NARRATOR_MODELS_URL", f"{server}/m")
    assert main(["models", "fetch", lang]) == 0, capsys.readouterr().err
    assert (store / lang / "am" / "final.mdl").is_file()
    assert models.find_model(lang) == store / lang
    assert list(models.read_pins()) == [models.CATALOG[lang].name]
    assert models.CATALOG[lang].name.startswith("vosk-model-small-")


def test_every_pack_has_a_speech_model() -> None:
    assert [lang for lang in available_languages() if lang not in models.CATALOG] == []


@pytest.mark.parametrize("lang, where", [
    ("de", "de/de_DE/thorsten/medium/de_DE-thorsten-medium"),
    ("pt", "pt/pt_BR/faber/medium/pt_BR-faber-medium"),
    ("ru", "ru/ru_RU/irina/medium/ru_RU-irina-medium"),
    ("zh", "zh/zh_CN/huayan/medium/zh_CN-huayan-medium"),
    ("nl", "nl/nl_NL/mls/medium/nl_NL-mls-medium"),
    ("pl", "pl/pl_PL/gosia/medium/pl_PL-gosia-medium"),
])
def test_piper_voices_sit_where_the_voices_site_has_them(lang: str, where: str) -> None:
    assert piper.info(lang).urls("http://h") == [f"http://h/{where}.onnx", f"http://h/{where}.onnx.json"]


def test_piper_has_no_japanese_voice() -> None:
    with pytest.raises(piper.VoiceStoreError, match="no Piper voice known for language 'ja'"):
        piper.info("ja")
