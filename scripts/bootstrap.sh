#!/usr/bin/env bash
# Set-up shared by the run and test commands: on a machine with only Node 20 and npm, installs the pinned pnpm
# and the workspace's dependencies from the lockfile (frozen). Idempotent and quick when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

want=$(node -p "require('./package.json').packageManager.split('@')[1]")
have=$(pnpm --version 2>/dev/null || true)
if [ "$have" != "$want" ]; then
  echo "› installing pnpm $want" >&2
  if ! npm install -g "pnpm@$want" >/dev/null 2>&1; then
    # No permission for a global install: put it in a local prefix instead.
    npm install --prefix "$HOME/.local" -g "pnpm@$want" >/dev/null
    export PATH="$HOME/.local/bin:$PATH"
  fi
fi
echo "› pnpm $(pnpm --version): installing dependencies from the lockfile" >&2
pnpm install --frozen-lockfile --reporter=silent
