"""Installs into the virtual environment with uv, reading this machine's pip settings.

    .venv/bin/python scripts/uv_install.py ARGS...   runs `uv pip install ARGS...` into this Python

pip spends most of an install choosing versions: it reads every release of every dependency from the
indexes, in Python, on one core (about 20 s of the first install's 30 s, then 10 s of compiling on top).
uv chooses the same versions in a fraction of that and compiles on every core. uv does not read pip's
configuration, though, and a machine's pip settings matter (a local wheel folder, a mirror, a
constraints file, a certificate bundle). So this script reads them with `pip config list` and passes
each one on in uv's terms; uv also takes the best version across all the indexes, as pip does.

Exit 3, with the reason on standard error, when uv cannot do the install exactly as pip would: a pip
setting that has no counterpart here (or a line of `pip config list` it cannot read), or uv itself could
not be installed. Any other non-zero exit is uv's own failure (its output says why). Either way
scripts/setup.sh then installs with pip.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

FALL_BACK = 3
UV = "uv>=0.9,<1"

# pip settings with nothing to pass on: how pip talks, not what it installs (and where pip found its
# configuration files, which `pip config list` has already read).
IGNORED = frozenset({
    "config-file",
    "disable-pip-version-check", "no-input", "progress-bar", "quiet", "verbose", "no-color", "log",
    "no-warn-script-location", "root-user-action", "retries", "cache-dir", "no-cache-dir",
    "require-virtualenv", "break-system-packages", "no-python-version-warning",
})
# pip settings that take several values, separated by white space.
MANY = {"extra-index-url": "--extra-index-url", "find-links": "--find-links", "constraint": "--constraint",
        "trusted-host": "--allow-insecure-host"}
TRUE = frozenset({"1", "true", "yes", "on", "y", "t"})
FALSE = frozenset({"0", "false", "no", "off", "n", "f"})
# pip's sections, least to most binding: the [global] section, then the [install] section (the command),
# then the PIP_... environment variables. `pip config list` names each setting `SECTION.KEY`.
RANK = {"global": 0, "install": 1, ":env:": 2}


def settings(listing: str) -> dict[str, str]:
    """The settings `pip install` would use, from `pip config list`'s lines (`SECTION.KEY='VALUE'`).
    Sections of other commands (`[download]`, `[freeze]`) do not apply to an install."""
    chosen: dict[str, tuple[int, str]] = {}
    for line in listing.splitlines():
        name, sep, quoted = line.partition("=")
        section, dot, key = name.rpartition(".")
        if not sep or not dot or section not in RANK:
            continue
        try:
            value = ast.literal_eval(quoted)
        except (ValueError, SyntaxError):
            raise ValueError(f"{name}={quoted} (not read)") from None
        if not isinstance(value, str):
            raise ValueError(f"{name}={quoted} (not read)")
        rank = RANK[section]
        if key not in chosen or chosen[key][0] <= rank:
            chosen[key] = (rank, value)
    return {key: value for key, (_, value) in chosen.items()}


def uv_terms(pip: dict[str, str]) -> tuple[list[str], dict[str, str]]:
    """uv's arguments and environment for pip's settings. Raises ValueError naming a setting that uv
    cannot honour as pip would."""
    args = ["--index-strategy", "unsafe-best-match"]  # pip's rule: the best version across every index
    env: dict[str, str] = {}
    for key, value in sorted(pip.items()):
        if key in IGNORED:
            continue
        if key in MANY:
            for one in value.split():
                args += [MANY[key], one]
        elif key == "index-url":
            args += ["--index-url", value]
        elif key == "no-index":
            if value.lower() in TRUE:
                args.append("--no-index")
            elif value.lower() not in FALSE:
                raise ValueError(f"no-index={value!r}")
        elif key == "cert":
            env["SSL_CERT_FILE"] = value
        elif key in ("timeout", "default-timeout"):
            env["UV_HTTP_TIMEOUT"] = value
        elif key == "proxy":
            env["HTTP_PROXY"] = env["HTTPS_PROXY"] = value
        else:
            raise ValueError(f"{key}={value!r}")
    return args, env


def main(argv: list[str]) -> int:
    venv_bin = Path(sys.executable).parent
    pip = [sys.executable, "-m", "pip"]
    listing = subprocess.run([*pip, "config", "list"], capture_output=True, text=True)
    if listing.returncode != 0:
        print(f"uv_install: `pip config list` failed: {listing.stderr.strip()}", file=sys.stderr)
        return FALL_BACK
    try:
        args, env = uv_terms(settings(listing.stdout))
    except ValueError as setting:  # a setting, or a line, uv cannot be given
        print(f"uv_install: pip's setting {setting} has no uv counterpart here: pip installs", file=sys.stderr)
        return FALL_BACK
    uv = venv_bin / "uv"
    if not uv.exists() and subprocess.run([*pip, "install", "-q", UV]).returncode != 0:
        print(f"uv_install: could not install {UV}: pip installs", file=sys.stderr)
        return FALL_BACK
    command = [str(uv), "pip", "install", "--python", sys.executable, *args, *argv]
    return subprocess.run(command, env={**os.environ, **env}).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
