"""scripts/uv_install.py: the setup installs with uv, reading this machine's pip settings, or leaves the
install to pip when a setting has no uv counterpart."""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

from tests.conftest import REPO

SCRIPT = REPO / "scripts" / "uv_install.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("uv_install", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


uv_install = _script()

# `pip config list` on a machine with a local wheel folder (from the environment), two extra indexes,
# a constraints file and a certificate bundle (from two configuration files).
MACHINE = """\
:env:.default-timeout='180'
:env:.disable-pip-version-check='1'
:env:.find-links='/opt/wheels'
global.cert='/etc/ssl/certs/ca-certificates.crt'
global.constraint='/etc/xdg/pip/constraints.txt'
global.extra-index-url='file:///opt/pypi/simple file:///opt/pypi-more/simple'
global.find-links='/srv/overridden'
"""


def test_every_setting_of_a_machine_is_passed_on_in_uv_terms() -> None:
    args, env = uv_install.uv_terms(uv_install.settings(MACHINE))
    assert args == ["--index-strategy", "unsafe-best-match",
                    "--constraint", "/etc/xdg/pip/constraints.txt",
                    "--extra-index-url", "file:///opt/pypi/simple", "--extra-index-url", "file:///opt/pypi-more/simple",
                    "--find-links", "/opt/wheels"]
    assert env == {"SSL_CERT_FILE": "/etc/ssl/certs/ca-certificates.crt", "UV_HTTP_TIMEOUT": "180"}


def test_the_environment_binds_over_the_install_section_over_the_global_one() -> None:
    listing = "global.index-url='https://a/simple'\ninstall.index-url='https://b/simple'\ndownload.no-index='1'\n"
    assert uv_install.settings(listing) == {"index-url": "https://b/simple"}, "[download] is not an install's"
    assert uv_install.settings(listing + ":env:.index-url='https://c/simple'\n") == {"index-url": "https://c/simple"}
    assert uv_install.settings("install.no-index='1'\nglobal.no-index='0'\n") == {"no-index": "1"}


@pytest.mark.parametrize("listing, refused", [
    ("global.require-hashes='1'\n", "require-hashes='1'"),
    ("install.pre='true'\n", "pre='true'"),
    (":env:.no-index='sometimes'\n", "no-index='sometimes'"),
])
def test_a_setting_uv_cannot_honour_as_pip_would_is_named(listing: str, refused: str) -> None:
    with pytest.raises(ValueError, match=refused):
        uv_install.uv_terms(uv_install.settings(listing))


def test_a_line_that_cannot_be_read_is_named() -> None:
    with pytest.raises(ValueError, match="global.index-url=https://a/simple"):
        uv_install.settings("global.index-url=https://a/simple\n")


def test_no_index_false_is_no_setting() -> None:
    args, _ = uv_install.uv_terms({"no-index": "off"})
    assert "--no-index" not in args


def _wheel(folder: Path, name: str, version: str) -> None:
    """A minimal pure-Python wheel: one module, its metadata and its record."""
    dist = f"{name}-{version}.dist-info"
    files = {f"{name}.py": f"VERSION = {version!r}\n",
             f"{dist}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
             f"{dist}/WHEEL": "Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    record = []
    for path, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(text.encode())}")
    record.append(f"{dist}/RECORD,,")
    with zipfile.ZipFile(folder / f"{name}-{version}-py3-none-any.whl", "w") as wheel:
        for path, text in files.items():
            wheel.writestr(path, text)
        wheel.writestr(f"{dist}/RECORD", "\n".join(record) + "\n")


@pytest.mark.slow  # starts pip and uv
def test_uv_resolves_from_the_wheel_folder_and_constraints_pip_is_given(tmp_path: Path) -> None:
    """A real uv, offline, told only through pip's settings where the wheels are, that there is no index,
    and which version is allowed: it chooses the constrained version from the folder."""
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    for version in ("1.0", "2.0"):
        _wheel(wheels, "tinypkg", version)
    constraints = tmp_path / "constraints.txt"
    constraints.write_text("tinypkg==1.0\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "UV_"))}
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_FIND_LINKS=str(wheels), PIP_NO_INDEX="1",
               PIP_CONSTRAINT=str(constraints), UV_OFFLINE="1", UV_CACHE_DIR=str(tmp_path / "cache"))
    run = subprocess.run([sys.executable, str(SCRIPT), "--dry-run", "tinypkg"], capture_output=True, text=True,
                         env=env, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "tinypkg==1.0" in run.stderr + run.stdout, run.stderr

    env["PIP_REQUIRE_HASHES"] = "1"
    refused = subprocess.run([sys.executable, str(SCRIPT), "--dry-run", "tinypkg"], capture_output=True, text=True,
                             env=env, timeout=300)
    assert refused.returncode == uv_install.FALL_BACK
    assert refused.stderr.splitlines() == [
        "uv_install: pip's setting require-hashes='1' has no uv counterpart here: pip installs"]
