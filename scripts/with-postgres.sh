#!/usr/bin/env bash
# Runs a command with DATABASE_URL set to a private, throwaway PostgreSQL cluster (Debian's
# server binaries, `scripts/install-tools.sh --test`), stopped and removed when it ends.
# Usage: scripts/with-postgres.sh <command> [args...]
set -euo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[[ -x "$bin/initdb" ]] || { echo "PostgreSQL server binaries not found (scripts/install-tools.sh --test)" >&2; exit 1; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/vonk-pg-XXXXXX")
# PostgreSQL refuses to run as root: then it runs as the 'postgres' system user.
as_pg() { if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[[ $(id -u) -eq 0 ]] && chown postgres:postgres "$dir"
cleanup() {
  as_pg "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
as_pg "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --no-locale --no-sync >/dev/null
as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/pg.log" -w -t 30 \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off" start >/dev/null
export DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
"$@"
