#!/usr/bin/env bash
# Installs what Vonk needs to build and test, and skips what is already there.
# Everything comes from the package registries (crates.io, npm, Debian); nothing downloads
# binaries from elsewhere. Usage: scripts/install-tools.sh [--test]
set -euo pipefail
cd "$(dirname "$0")/.."

want_test=false
[[ "${1:-}" == "--test" ]] && want_test=true

need_cmd() { command -v "$1" >/dev/null 2>&1; }
as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }
apt_updated=false
apt_install() {
  if ! $apt_updated; then as_root apt-get update -qq; apt_updated=true; fi
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "$@" >/dev/null
}

need_cmd cargo || { echo "Rust (cargo) is required: https://rustup.rs" >&2; exit 1; }
need_cmd npm || { echo "Node.js 20 with npm is required" >&2; exit 1; }

if ! rustup target list --installed | grep -q '^wasm32-unknown-unknown$'; then
  echo "==> adding the wasm32 target"
  rustup target add wasm32-unknown-unknown
fi

# npm packages (React, Vite, Storybook, vitest, Playwright, binaryen's wasm-opt).
stamp=node_modules/.package-lock.stamp
if [[ ! -f $stamp || package-lock.json -nt $stamp ]]; then
  echo "==> installing npm packages"
  npm ci --no-audit --no-fund --loglevel=error
  touch "$stamp"
fi

# The video landers' looping clip is made from the demo portraits with ffmpeg when the demo
# members are seeded (without it those landers cross-fade the portraits instead).
if ! command -v ffmpeg >/dev/null; then
  echo "==> installing ffmpeg from Debian"
  apt_install --no-install-recommends ffmpeg
fi

if $want_test; then
  if [[ ! -x /usr/bin/chromium ]]; then
    echo "==> installing Chromium from Debian"
    apt_install chromium chromium-driver
  fi
  # The load-balancer test runs its own nginx on a loopback port; the system service the
  # package may start is stopped again.
  if [[ ! -x /usr/sbin/nginx ]]; then
    echo "==> installing nginx from Debian"
    apt_install nginx
    as_root systemctl disable --now nginx >/dev/null 2>&1 || as_root service nginx stop >/dev/null 2>&1 || true
  fi
  # A local S3-compatible server for the photo-storage tests, from PyPI in a venv of its own.
  moto_dir="$HOME/.cache/vonk/moto"
  if [[ ! -x $moto_dir/bin/moto_server ]] && ! need_cmd moto_server; then
    echo "==> installing moto (a local S3 server) from PyPI"
    need_cmd python3 || apt_install python3 python3-venv
    python3 -m venv "$moto_dir" 2>/dev/null || { apt_install python3-venv; python3 -m venv "$moto_dir"; }
    "$moto_dir/bin/pip" install -q --disable-pip-version-check 'moto[server]==5.2.1'
  fi
  # The receipt PDF test reads the PDF's text back with poppler's pdftotext.
  if ! need_cmd pdftotext; then
    echo "==> installing poppler-utils from Debian"
    apt_install poppler-utils
  fi
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    echo "==> installing the PostgreSQL server from Debian"
    apt_install postgresql
  fi
fi
