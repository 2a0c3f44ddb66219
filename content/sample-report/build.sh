#!/usr/bin/env bash
# Renders report.html (the fictional sample due diligence report) to apps/portal/public/sample-report.pdf.
# Usage: bash content/sample-report/build.sh [output.pdf]
# Needs /usr/bin/chromium (override with CHROMIUM=...). Check the result with
#   pdfinfo apps/portal/public/sample-report.pdf && pdftoppm -png -r 50 -f 1 -l 2 apps/portal/public/sample-report.pdf /tmp/page
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="${1:-$repo/apps/portal/public/sample-report.pdf}"
chromium="${CHROMIUM:-/usr/bin/chromium}"
[ -x "$chromium" ] || { echo "chromium not found at $chromium (set CHROMIUM)" >&2; exit 1; }

mkdir -p "$(dirname "$out")"
tmp="$(mktemp --suffix=.pdf)"
trap 'rm -f "$tmp"' EXIT

"$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-component-update --disable-sync --no-first-run --no-pdf-header-footer \
  --print-to-pdf="$tmp" "file://$here/report.html" >/dev/null 2>&1

# Chromium can exit 0 without writing a file: check it is a PDF before replacing the old one.
head -c 5 "$tmp" | grep -q '%PDF-' || { echo "chromium did not produce a PDF" >&2; exit 1; }
size=$(wc -c <"$tmp")
[ "$size" -le 512000 ] || { echo "PDF is $size bytes, over the 500 KB budget" >&2; exit 1; }
mv "$tmp" "$out"
trap - EXIT
echo "wrote $out ($((size / 1024)) KB)"
