#!/usr/bin/env bash
# `make bench`: Lighthouse's mobile audit of the pages a member and a visitor load most, against
# the release build (the binary `make build` made, with its stylesheet and scripts from
# LEPTOS_SITE_ROOT), three runs a page, the median printed with the machine's BenchmarkIndex.
#
# It starts the server on a free loopback port with a fresh database of 2,000 demo members,
# signs a member up (basics done, three messages in one conversation), measures the member
# pages with that member's session and the visitor pages without, then stops the server.
# Each page must reach performance 95, accessibility 95, CLS ≤ 0.05 and total blocking time
# within `main_thread_ms` of scripts/bundle-pages.json (scripts/lighthouse.mjs checks them);
# the script exits non-zero when one does not.
#
#   scripts/lighthouse-table.sh [--runs N]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=3
[[ ${1:-} == --runs ]] && runs=$2
bin=${SERVER_BIN:-${CARGO_TARGET_DIR:-$HOME/.cache/vonk/target}/release/vonk}
site=${LEPTOS_SITE_ROOT:-$PWD/target/site}
[[ -x $bin ]] || { echo "lighthouse-table: no server binary at $bin (make build)" >&2; exit 1; }
[[ -f $site/pkg/vonk.wasm ]] || { echo "lighthouse-table: no site in $site (make build)" >&2; exit 1; }

data=$(mktemp -d /tmp/vonk-lighthouse-XXXXXX)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base=http://127.0.0.1:$port
LEPTOS_SITE_ROOT=$site VONK_ADDR=127.0.0.1:$port DATA_DIR=$data VONK_DEMO_MEMBERS=2000 VONK_PAYMENTS=test "$bin" >"$data/server.log" 2>&1 &
server=$!
stop() {
  kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  rm -rf "$data"
}
trap stop EXIT
for _ in $(seq 1 600); do
  curl -sf -o /dev/null "$base/" && break
  kill -0 "$server" 2>/dev/null || { echo "lighthouse-table: the server stopped:" >&2; tail -20 "$data/server.log" >&2; exit 1; }
  sleep 0.2
done
curl -sf -o /dev/null "$base/" || { echo "lighthouse-table: the server did not answer" >&2; exit 1; }

# A member as a visitor becomes one: signed up, basics saved, three messages to a profile.
headers=(-H "origin: $base" -H "referer: $base/signup" -H 'accept: text/html')
cookie=$(curl -s -i -X POST "$base/api/fn/signup" "${headers[@]}" \
  --data "email=lighthouse@example.nl&name=Tess&password=zoeken+naar+de+vonk&date_of_birth=1987-06-21" |
  sed -n 's/^[Ss]et-[Cc]ookie: auth\.session=\([^;]*\).*/\1/p' | head -1)
[[ -n $cookie ]] || { echo "lighthouse-table: the signup gave no session" >&2; exit 1; }
member=(-H "cookie: auth.session=$cookie")
curl -sf -o /dev/null -X POST "$base/api/fn/save_basics" "${headers[@]}" "${member[@]}" \
  --data "gender=male&sexuality=hetero&country=NL&region=NL-NH&city=Haarlem" || true
profile=$(curl -s "$base/members" "${member[@]}" | grep -o 'href="/members/[0-9]*"' | head -1 | grep -o '[0-9]*')
for n in 1 2 3; do
  curl -s -o /dev/null -X POST "$base/api/fn/send_message" "${headers[@]}" "${member[@]}" \
    --data "member=$profile&client_id=lighthouse-send-$n&text=Hoi+nummer+$n"
done
conversation=$(curl -s "$base/chats" "${member[@]}" | grep -o 'href="/chats/[0-9]*"' | head -1 | grep -o '[0-9]*')
[[ -n $profile && -n $conversation ]] || { echo "lighthouse-table: the member has no conversation" >&2; exit 1; }

status=0
echo "Member pages (signed in; a conversation with three messages):"
node scripts/lighthouse.mjs --url "$base" --cookie "auth.session=$cookie" --runs "$runs" \
  /swipe-game "/chats/$conversation" /likes /profile /credits /members || status=1
echo
echo "Visitor pages:"
node scripts/lighthouse.mjs --url "$base" --runs "$runs" \
  / /members "/members/$profile" "/members/$profile/landing2" /signup \
  /landers/tinderswipe /landers/maplanding /landers/video /landers/gallery /landers/alonetonight || status=1
exit $status
