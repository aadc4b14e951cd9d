#!/usr/bin/env bash
# Builds the site — the server binary, the wasm bundle and the static files — into a folder of
# its own and then points target/site at it with one rename. A build never writes into the site
# a server was started from or another build is writing: two `make run`s in one clone, or a
# build beside a running server, cannot break each other. (The server reads the site's files
# into memory when it starts.) Usage: scripts/build-site.sh (from `make build`).
set -euo pipefail
cd "$(dirname "$0")/.."

site="${LEPTOS_SITE_ROOT:-$PWD/target/site}"
site="${site%/}"
builds="$(dirname "$site")/site-builds"
mkdir -p "$builds"
stage="$(mktemp -d "$builds/build-XXXXXX")"
trap 'rm -rf "$stage"' EXIT

# VONK_BUILD=quick (what `make run` builds): the server in the `quick` profile and the wasm in
# `wasm-quick`, no wasm-opt: a first start in minutes, larger and slower pages. Anything else:
# `release` and `wasm-release` with wasm-opt -Oz, what the tests, the benchmarks and a
# production site run.
if [[ "${VONK_BUILD:-release}" == quick ]]; then
  profile=quick wasm_profile=wasm-quick wasm_opt=false erase="--cfg erase_components"
else
  profile=release wasm_profile=wasm-release wasm_opt=true erase=""
fi

# The server and the browser module compile side by side (their own target folders, so
# neither invalidates the other's cache); both see LEPTOS_OUTPUT_NAME, which Leptos reads at
# compile time. The wasm is linked with --emit-relocs so vonk-site can split it.
export LEPTOS_OUTPUT_NAME=vonk
target="${CARGO_TARGET_DIR:-$PWD/target}"
front="$target/front"
# The server and tools/site (the wasm step) in one invocation, so they share dependencies
# and the cores.
env ${erase:+"RUSTFLAGS=$erase"} cargo build --profile "$profile" -p app -p vonk-site --bin vonk --bin vonk-site \
  --no-default-features --features app/ssr &
server_build=$!
RUSTFLAGS="-Clink-args=--emit-relocs${erase:+ $erase}" cargo build --profile "$wasm_profile" -p app --lib \
  --target wasm32-unknown-unknown --no-default-features --features hydrate --target-dir "$front" &
wasm_build=$!
status=0
wait "$server_build" || status=$?
wait "$wasm_build" || status=$?
[[ $status -eq 0 ]] || { echo "site build failed" >&2; exit "$status"; }
echo "==> server and wasm compiled (${SECONDS}s)"

# Split per lazy island and wasm-bindgen, then wasm-opt every module, two at a time (its
# warnings about the name section are noise; its output is shown when it fails).
"$target/$profile/vonk-site" "$front/wasm32-unknown-unknown/$wasm_profile/app.wasm" "$stage/pkg" vonk \
  >"$stage/wasm-files"
# A module wasm-opt has seen before (the same bytes, the same wasm-opt and flags) is taken from
# the cache beside cargo's (`$CARGO_TARGET_DIR/wasm-opt-cache`): the output is a function of
# those, and a build whose Rust code did not change, or changed only some islands, then
# optimises only the modules that differ. Entries not used for 30 days go.
if $wasm_opt; then
  flags="-Oz --enable-bulk-memory --enable-nontrapping-float-to-int"
  cache="$target/wasm-opt-cache"
  mkdir -p "$cache"
  find "$cache" -type f -mtime +30 -delete 2>/dev/null || true
  salt="$( (wasm-opt --version; echo "$flags") | sha256sum | cut -c1-16)"
  export flags cache salt
  xargs -P 2 -I {} sh -c 'f="$1"
    key="$salt-$(sha256sum "$f" | cut -c1-64)"
    if [ -f "$cache/$key" ]; then cp "$cache/$key" "$f" && touch "$cache/$key"; exit 0; fi
    wasm-opt $flags "$f" -o "$f.opt" 2>"$f.log" || { cat "$f.log" >&2; exit 255; }
    rm "$f.log"
    cp "$f.opt" "$cache/$key.$$" && mv "$cache/$key.$$" "$cache/$key"
    mv "$f.opt" "$f"' _ {} <"$stage/wasm-files"
fi
echo "==> modules split and optimised (${SECONDS}s)"
node scripts/site-assets.mjs "$stage" vonk
rm "$stage/wasm-files"
cp -a public/. "$stage/"
# `make dev` (VONK_DEV=1) serves the files as they are: compressing them would only slow the loop.
[[ "${VONK_DEV:-}" == 1 ]] || node scripts/precompress.mjs "$stage"
touch "$stage/.complete"
echo "==> styles, files and precompression done (${SECONDS}s)"

# target/site becomes a symbolic link to this build, swapped in one rename.
if [[ -d "$site" && ! -L "$site" ]]; then
  mv "$site" "$builds/old-$(date +%s)-$$"
fi
ln -sfn "site-builds/$(basename "$stage")" "$site.next-$$"
mv -T "$site.next-$$" "$site"
trap - EXIT

# Earlier finished builds go (a build still under way has no .complete yet).
current="$(readlink "$site")"
for dir in "$builds"/*; do
  [[ "site-builds/$(basename "$dir")" == "$current" ]] && continue
  if [[ -f "$dir/.complete" || "$(basename "$dir")" == old-* ]]; then
    rm -rf "$dir"
  fi
done
echo "==> site built into $site -> $current"
