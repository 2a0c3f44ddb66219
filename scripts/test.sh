#!/usr/bin/env bash
# THE test command (README): sets everything up on a fresh machine with Node 20 and npm, then runs every check:
# formatting, lint, build, types, unit and property tests, the API suite on SQLite and PostgreSQL, and the
# browser tests in Debian's Chromium. Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1 TURBO_NO_UPDATE_NOTIFIER=1 NEXT_TELEMETRY_DISABLED=1

bash scripts/bootstrap.sh
bash scripts/ensure-chromium.sh
if [ "${SKIP_POSTGRES:-}" != 1 ]; then
  TEST_DATABASE_URL=$(bash scripts/ci/postgres.sh)
  export TEST_DATABASE_URL
  echo "› PostgreSQL ready for the API suite: $TEST_DATABASE_URL" >&2
fi

mkdir -p artifacts/logs
rm -f artifacts/logs/*.log
step() { echo; echo "━━ $*"; }
step "format";     pnpm format:check
step "lint";       pnpm lint
step "build";      pnpm build --output-logs=errors-only
step "typecheck";  pnpm typecheck --output-logs=errors-only
step "bundle budget (login route ≤ 125 KB gzip)"; pnpm --filter @firm/portal bundle-budget
step "unit, property and API tests"; pnpm test --concurrency=1 2>&1 | tee artifacts/logs/unit.log
step "browser tests"; pnpm e2e 2>&1 | tee artifacts/logs/e2e.log
step "crash test (SIGKILL under load, then check every acknowledged write)"; pnpm --filter @firm/api crash-test
step "summary";    node scripts/test-summary.mjs artifacts/logs/unit.log artifacts/logs/e2e.log
