#!/usr/bin/env bash
# THE run command (README): on a fresh machine with Node 20 and npm, installs everything, builds the packages,
# the API and the portal, and starts the product on http://127.0.0.1:3000 with its embedded defaults
# (SQLite in ./data, mail written to ./data/outbox, the seeded demo clients). Ctrl-C stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1 TURBO_NO_UPDATE_NOTIFIER=1
bash scripts/bootstrap.sh
pnpm build --output-logs=errors-only
port=${PORT:-3000}
echo
echo "  Portal: http://${HOST:-127.0.0.1}:$port/demo/login        (demo client, open login)"
echo "          http://${HOST:-127.0.0.1}:$port/northbank/login   (magic-link login: the link is printed below and"
echo "                                                        written to ./data/outbox as an .eml file)"
echo
exec pnpm start
