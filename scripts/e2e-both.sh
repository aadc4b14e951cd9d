#!/usr/bin/env bash
# The Playwright flows on SQLite and, beside them, on PostgreSQL (two servers on two ports, each
# with its own data folder, database and results folder). The flows spend most of their time
# waiting on pages, not on the two cores, so side by side they take about as long as the SQLite
# run alone. Each run's output is kept whole and printed when both are done, a failed run last,
# and the failed flows are listed again at the very end (where a log's tail shows them); the
# status is the first failure's.
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
show() { echo "==> on $1 ($2s, exit $3)"; cat "$logs/$4"; }
if [[ $sqlite_status -ne 0 && $postgres_status -eq 0 ]]; then
  show PostgreSQL "$postgres_time" "$postgres_status" postgres
  show SQLite "$sqlite_time" "$sqlite_status" sqlite
else
  show SQLite "$sqlite_time" "$sqlite_status" sqlite
  show PostgreSQL "$postgres_time" "$postgres_status" postgres
fi
# Playwright's summary names each failed or flaky flow on a line with its file and line.
for run in sqlite postgres; do
  if grep -qE '^\s+[0-9]+ (failed|flaky)' "$logs/$run"; then
    echo "==> failed or flaky on $run:"
    sed -n '/^ *[0-9]\+ \(failed\|flaky\)$/,/^ *[0-9]\+ passed/p' "$logs/$run"
  fi
done
[[ $sqlite_status -eq 0 ]] || exit "$sqlite_status"
exit "$postgres_status"
