#!/usr/bin/env bash
# Browser tests drive Debian's Chromium (never a browser downloaded by a test tool). Installs it when missing.
# CHROMIUM=/path names another Chromium-based browser already on the machine (GitHub's Ubuntu runners have Google
# Chrome at /usr/bin/google-chrome, and their apt "chromium" is only a stub for a snap); nothing is installed then.
set -euo pipefail
if [ -n "${CHROMIUM:-}" ]; then
  if [ -x "$CHROMIUM" ]; then exit 0; fi
  echo "CHROMIUM names $CHROMIUM, which is not an executable file: point it at a Chromium or Chrome binary, or unset it to use Debian's /usr/bin/chromium." >&2
  exit 1
fi
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" != 0 ]; then
  echo "Chromium is missing: install Debian's 'chromium' package (apt-get install -y chromium) and run again." >&2
  exit 1
fi
echo "› installing Debian's chromium" >&2
export DEBIAN_FRONTEND=noninteractive
{ apt-get update -qq && apt-get install -y -qq chromium fonts-dejavu-core; } >/dev/null
