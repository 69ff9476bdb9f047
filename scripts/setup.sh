#!/usr/bin/env bash
# Installs everything narrator needs on a Debian/Ubuntu machine: system packages, a virtual
# environment in .venv, and the package with the extras given ("dev" for tests). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-voice}"

DEB_PACKAGES=(libportaudio2 libespeak-ng1 espeak-ng-data espeak-ng sox libasound2-plugins alsa-utils tmux python3-venv)
# The tests (`dev`) drive Debian's headless Chromium through its driver as the players' phones, and
# read the QR codes with zbar (docs/phones.md); ip (iproute2) makes the acceptance tier's network.
case ",$extras," in *,dev,*) DEB_PACKAGES+=(chromium chromium-driver libzbar0 iproute2) ;; esac
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
[ -x .venv/bin/python ] || "$PY" -m venv .venv

# The package is installed again only when something changed: pyproject.toml (dependencies,
# entry points), or extras not installed yet. The stamp holds pyproject.toml's hash and the
# extras installed with it; NARRATOR_REINSTALL=1 installs anyway. The source is an editable
# install: a changed .py file needs nothing.
stamp=.venv/narrator-installed
want="$(sha256sum pyproject.toml | cut -d' ' -f1)"
have="" ; have_extras=""
if [ -f "$stamp" ]; then
  have="$(sed -n 1p "$stamp")"
  have_extras="$(sed -n 2p "$stamp")"
fi
# The extras asked for that the stamp does not list yet.
new=()
IFS=',' read -r -a asked <<< "$extras"
for e in "${asked[@]}"; do
  [ -z "$e" ] || [[ ",${have_extras}," == *",${e},"* ]] || new+=("$e")
done
if [ "$have" = "$want" ] && [ ${#new[@]} -eq 0 ] && [ "${NARRATOR_REINSTALL:-0}" != "1" ]; then
  exit 0
fi
all="${have_extras}"
for e in "${new[@]}"; do all="${all:+${all},}${e}"; done
if [ -z "$have" ]; then
  reason="first install"
elif [ "$have" != "$want" ]; then
  reason="pyproject.toml changed"
else
  reason="extras added: $(IFS=','; echo "${new[*]}")"
fi
[ "${NARRATOR_REINSTALL:-0}" = "1" ] && reason="NARRATOR_REINSTALL=1"
echo "narrator: installing the package (${reason}) ..."
log=.venv/narrator-install.log
: >"$log"
# The installers' own output (the editable-install warnings) goes to the log, shown only on failure.
# uv installs first (scripts/uv_install.py: it reads this machine's pip settings, chooses the versions pip
# would, in a fraction of pip's time, and compiles the installed files ahead on every core). Where it
# cannot, pip installs. The installed files are compiled ahead and once: where PYTHONDONTWRITEBYTECODE is
# set, Python never writes the bytecode it compiles, and every process (each game, each render worker)
# would compile what it imports again; where it is not, the processes that start together (the test
# workers, a game's render workers) would each compile the same modules.
if [ "${NARRATOR_INSTALLER:-uv}" != "pip" ] &&
   .venv/bin/python scripts/uv_install.py -q --compile-bytecode -e ".[${all}]" >>"$log" 2>&1; then
  .venv/bin/python -m compileall -q -j 0 narrator >>"$log" 2>&1 || true
else
  if [ "${NARRATOR_INSTALLER:-uv}" = "pip" ]; then
    echo "narrator: pip installs (NARRATOR_INSTALLER=pip)" >>"$log"
  else
    echo "narrator: uv did not install (above); pip installs" >>"$log"
  fi
  # --no-compile, then compileall on every core: pip compiles the ~5,000 files of the wheels one by one.
  # The venv's own pip is upgraded first: the one Python bundles takes half as long again.
  if ! { .venv/bin/python -m pip install -q --upgrade pip &&
         .venv/bin/python -m pip install -q --no-compile -e ".[${all}]"; } >>"$log" 2>&1; then
    cat "$log" >&2
    echo "narrator: the install failed (the log above is in $log)" >&2
    exit 1
  fi
  # A wheel's file that is not Python 3 (a template) is left as it is, and so are the libraries' own test
  # folders (a sixth of the code, never imported by narrator or its tests): a quarter of the compile's time.
  site="$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))' 2>>"$log")" || site=""
  [ -z "$site" ] || .venv/bin/python -m compileall -q -j 0 -x 'site-packages/.*/tests?/' "$site" narrator >>"$log" 2>&1 || true
fi
printf '%s\n%s\n' "$want" "$all" > "$stamp"
