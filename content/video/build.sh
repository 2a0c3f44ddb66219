#!/usr/bin/env bash
# Renders the dashboard welcome video of each client from slide.html:
#   content/<client>/media/welcome.webm      ~25 s, 1280x720, VP9, no audio
#   content/<client>/media/welcome-poster.png first slide, used as the <video> poster
#   content/<client>/media/welcome.en.vtt    English captions, one cue per slide
# Usage: bash content/video/build.sh [client ...]   (default: demo northbank)
# Needs: /usr/bin/chromium, ffmpeg with libvpx-vp9 (apt-get install -y ffmpeg), node.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
content="$(dirname "$here")"
chromium="${CHROMIUM:-/usr/bin/chromium}"
command -v ffmpeg >/dev/null || { echo "ffmpeg not found: apt-get install -y ffmpeg" >&2; exit 1; }
[ -x "$chromium" ] || { echo "chromium not found at $chromium (set CHROMIUM)" >&2; exit 1; }

# Slide texts: title|subtitle. The captions are built from the same lines, so they always match.
slides=(
  "Welcome to your advisory hub|Insurance guidance for every stage of your development, in one place."
  "Explore the information hub|Plain-English guides to warranties, contract works, liability and more."
  "Get an indicative quote|Building warranty, build-to-rent and contractors all risks calculators."
  "Check your insurance framework|See which of the 15 development insurances your scheme needs, and at what level."
  "Request due diligence|A professional-indemnity-backed review of your scheme's insurance programme."
)
seconds=5      # each slide is on screen alone for this long, then...
fade=0.6       # ...cross-fades into the next one over this long
n=${#slides[@]}

# Reads one scalar from client.yml: `name: Text`, `primary: '#RRGGBB'` (optionally quoted, trailing comment allowed).
yml() { sed -n -E "s/^ *$2: *['\"]?([^'\"]*[^'\" ])['\"]?( +#.*)?$/\1/p" "$1" | head -1; }
enc() { node -e 'process.stdout.write(encodeURIComponent(process.argv[1]))' "$1"; }
ts() { node -e 'const t=Number(process.argv[1]);const m=Math.floor(t/60);process.stdout.write(`00:${String(m).padStart(2,"0")}:${(t-m*60).toFixed(3).padStart(6,"0")}`)' "$1"; }

clients=("$@")
[ ${#clients[@]} -gt 0 ] || clients=(demo northbank)

for client in "${clients[@]}"; do
  yml_file="$content/$client/client.yml"
  [ -f "$yml_file" ] || { echo "no $yml_file" >&2; exit 1; }
  name="$(yml "$yml_file" name)"
  primary="$(yml "$yml_file" primary)"
  accent="$(yml "$yml_file" accent)"
  media="$content/$client/media"
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  echo "$client: $name $primary $accent"

  inputs=()
  vtt="WEBVTT"$'\n'$'\n'
  for i in $(seq 0 $((n - 1))); do
    title="${slides[$i]%%|*}"
    sub="${slides[$i]#*|}"
    url="file://$here/slide.html?i=$i&n=$n&name=$(enc "$name")&primary=$(enc "$primary")&accent=$(enc "$accent")&title=$(enc "$title")&sub=$(enc "$sub")"
    "$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
      --disable-component-update --disable-sync --no-first-run --hide-scrollbars \
      --window-size=1280,720 --screenshot="$work/slide-$i.png" "$url" >/dev/null 2>&1
    [ -s "$work/slide-$i.png" ] || { echo "screenshot of slide $i failed" >&2; exit 1; }
    inputs+=(-loop 1 -framerate 25 -t "$(node -e "console.log($seconds+$fade)")" -i "$work/slide-$i.png")
    start=$(node -e "console.log($i*$seconds)")
    end=$(node -e "console.log($i===$n-1 ? $n*$seconds+$fade : ($i+1)*$seconds)")
    vtt+="slide-$((i + 1))"$'\n'"$(ts "$start") --> $(ts "$end")"$'\n'"$title"$'\n'"$sub"$'\n'$'\n'
  done

  # Chain of cross-fades: [0][1] -> v1, [v1][2] -> v2, ...
  filter=""
  prev="0:v"
  for i in $(seq 1 $((n - 1))); do
    out="v$i"
    filter+="[$prev][$i:v]xfade=transition=fade:duration=$fade:offset=$(node -e "console.log($i*$seconds)")[$out];"
    prev="$out"
  done
  filter+="[$prev]format=yuv420p[out]"

  mkdir -p "$media"
  ffmpeg -hide_banner -loglevel error -y "${inputs[@]}" -filter_complex "$filter" -map "[out]" \
    -c:v libvpx-vp9 -b:v 0 -crf 42 -row-mt 1 -deadline good -cpu-used 4 -g 125 -an \
    "$media/welcome.webm"
  cp "$work/slide-0.png" "$media/welcome-poster.png"
  printf '%s' "$vtt" > "$media/welcome.en.vtt"
  rm -rf "$work"
  trap - EXIT
  echo "  $(du -k "$media/welcome.webm" | cut -f1) KB webm, $(du -k "$media/welcome-poster.png" | cut -f1) KB poster"
done
