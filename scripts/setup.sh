#!/usr/bin/env bash
# Installs everything narrator needs on a Debian/Ubuntu machine: system packages, a virtual
# environment in .venv, and the package with the extras given ("dev" for tests). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-voice}"

DEB_PACKAGES=(libportaudio2 libespeak-ng1 espeak-ng-data espeak-ng sox libasound2-plugins alsa-utils tmux python3-venv)
# The phones' tests drive Debian's headless Chromium through its driver (docs/phones.md).
case ",$extras," in *,phones,*) DEB_PACKAGES+=(chromium chromium-driver) ;; esac
missing=()
for p in "${DEB_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "narrator: installing system packages: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip
fi
.venv/bin/python -m pip install -q -e ".[${extras}]"
