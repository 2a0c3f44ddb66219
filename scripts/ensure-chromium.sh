#!/usr/bin/env bash
# Browser tests drive Debian's Chromium (never a browser downloaded by a test tool). Installs it when missing.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" != 0 ]; then
  echo "Chromium is missing: install Debian's 'chromium' package (apt-get install -y chromium) and run again." >&2
  exit 1
fi
echo "› installing Debian's chromium" >&2
export DEBIAN_FRONTEND=noninteractive
{ apt-get update -qq && apt-get install -y -qq chromium fonts-dejavu-core; } >/dev/null
