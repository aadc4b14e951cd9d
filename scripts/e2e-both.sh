#!/usr/bin/env bash
# The Playwright flows on SQLite and, beside them, on PostgreSQL (two servers on two ports, each
# with its own data folder, database and results folder). The flows spend most of their time
# waiting on pages, not on the two cores, so side by side they take about as long as the SQLite
# run alone. Each run's output is kept whole and printed when both are done; the status is the
# first failure's.
set -uo pipefail
cd "$(dirname "$0")/.."
logs=$(mktemp -d "${TMPDIR:-/tmp}/vonk-e2e-logs-XXXXXX")
trap 'rm -rf "$logs"' EXIT
start=$SECONDS
npx playwright test -c end2end/playwright.config.ts "$@" >"$logs/sqlite" 2>&1 &
sqlite=$!
E2E_PORT=3108 scripts/with-postgres.sh npx playwright test -c end2end/playwright.config.ts "$@" >"$logs/postgres" 2>&1 &
postgres=$!
wait "$sqlite"
sqlite_status=$?
sqlite_time=$((SECONDS - start))
wait "$postgres"
postgres_status=$?
postgres_time=$((SECONDS - start))
echo "==> on SQLite (${sqlite_time}s)"
cat "$logs/sqlite"
echo "==> on PostgreSQL (${postgres_time}s)"
cat "$logs/postgres"
[[ $sqlite_status -eq 0 ]] || exit "$sqlite_status"
exit "$postgres_status"
