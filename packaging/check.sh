#!/usr/bin/env bash
# The packaging check: build, install the .deb on this machine, and use the installed program the
# way a person would, with no network and nothing of the build on the PATH.
#
#   packaging/check.sh                 build (packaging/build.sh), then check
#   packaging/check.sh --no-build      check the .deb already in packaging/dist/
#   packaging/check.sh --keep          leave Crosstalk installed at the end
#
# Needs root on Debian/Ubuntu (dpkg -i, a network namespace for "no network", dropping the page
# cache for a cold start); installs Xvfb, xdotool, ImageMagick, gnome-keyring, dbus and
# desktop-file-utils with apt-get if missing. Every run of the installed program gets a fresh
# HOME and CROSSTALK_HOME and `env -i PATH=/usr/bin:/bin`, inside `unshare --net` (a network
# namespace with no interfaces up: a download attempt fails at once).
# It checks, from /usr/bin/crosstalk:
#   - `crosstalk ask --new "hi"` answers with the bundled local model, and `list` shows it;
#   - each cloud SDK (openai, anthropic, google-genai) imports in the frozen build (a turn fails
#     with a connection error, never an ImportError);
#   - keys: the Secret Service backend stores and reads a key (gnome-keyring in a private D-Bus
#     session); with no Secret Service the fail backend says so and nothing is written;
#   - the window: launched bare under Xvfb, shown (xdotool search --name Crosstalk), one turn
#     with the local model typed into it, a screenshot (packaging/build/check-window.png);
#   - removal: dpkg --purge deletes /opt/crosstalk and the launcher, and leaves the user's data.
# It prints the bundle and .deb sizes and the installed app's start to first window (whole
# process, cold: page cache dropped first; then warm).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=yes keep=no
for arg in "$@"; do
  case "$arg" in
    --no-build) build=no ;;
    --keep) keep=yes ;;
    -h|--help) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "check.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done
[ "$(id -u)" = 0 ] || { echo "check.sh: run as root (dpkg -i, unshare --net)" >&2; exit 2; }

started=$(date +%s)
step() { echo "== $* ($(( $(date +%s) - started )) s)"; }
fail() { echo "check.sh: FAILED: $*" >&2; exit 1; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

tools=(xvfb xdotool x11-utils imagemagick gnome-keyring dbus dbus-x11 libsecret-tools desktop-file-utils
  util-linux fonts-dejavu-core)
missing=()
for pkg in "${tools[@]}"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
if [ ${#missing[@]} -gt 0 ]; then
  step "apt-get install ${missing[*]}"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ "$build" = yes ]; then
  step "build"
  "$here/build.sh"
fi
deb=$(ls -t "$here"/dist/crosstalk_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || fail "no .deb in $here/dist (run packaging/build.sh)"
bundle_size=$(du -sh "$here/dist/crosstalk" 2>/dev/null | cut -f1)
deb_size=$(du -h "$deb" | cut -f1)

step "install $(basename "$deb")"
dpkg --purge crosstalk >/dev/null 2>&1 || true
if ! dpkg -i "$deb" >/dev/null; then
  echo "dpkg -i left dependencies to install: apt-get -f install" >&2
  DEBIAN_FRONTEND=noninteractive apt-get -f install -y -qq >/dev/null
fi
dpkg -s crosstalk | grep -q '^Status: install ok installed' || fail "crosstalk is not installed"
for f in /opt/crosstalk/crosstalk /usr/bin/crosstalk /usr/share/applications/crosstalk.desktop \
    /usr/share/icons/hicolor/48x48/apps/crosstalk.png /usr/share/icons/hicolor/scalable/apps/crosstalk.svg; do
  [ -e "$f" ] || fail "$f was not installed"
done
desktop-file-validate /usr/share/applications/crosstalk.desktop || fail "the .desktop file is invalid"
installed_size=$(du -sh /opt/crosstalk | cut -f1)

scratch=$(mktemp -d)
xvfb_pid="" app_pid=""
descendants() { local p; for p in $(pgrep -P "$1" || true); do echo "$p"; descendants "$p"; done; }
cleanup() {  # only what this script started: the app launched last (if still up) and Xvfb
  if [ -n "$app_pid" ]; then
    for p in $(descendants "$app_pid") "$app_pid"; do kill "$p" 2>/dev/null || true; done
  fi
  [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null || true
  rm -rf "$scratch"
}
trap cleanup EXIT

# The installed program, as a user would start it: nothing but /usr/bin:/bin on the PATH, no
# network, its own empty home. Extra VAR=value arguments go into the environment.
run_home=""
installed() {
  local vars=()
  while [ $# -gt 0 ] && [[ "$1" == *=* ]]; do vars+=("$1"); shift; done
  unshare --net env -i PATH=/usr/bin:/bin HOME="$run_home" CROSSTALK_HOME="$run_home/data" \
    LANG=C.UTF-8 "${vars[@]}" "$@"
}
new_home() { run_home=$(mktemp -d -p "$scratch"); }

step "CLI: crosstalk ask --new \"hi\" (no network, no venv)"
new_home
[ "$(installed sh -c 'command -v crosstalk')" = /usr/bin/crosstalk ] || fail "crosstalk is not /usr/bin/crosstalk on PATH=/usr/bin:/bin"
t0=$(now_ms)
answer=$(installed crosstalk ask --new "hi" 2>&1) || fail "crosstalk ask failed: $answer"
t1=$(now_ms)
echo "$answer" | sed 's/^/    /'
grep -q "local:smollm2" <<<"$answer" || fail "the answer did not come from local:smollm2"
[ "$(installed crosstalk list 2>/dev/null | wc -l)" = 1 ] || fail "crosstalk list does not show the conversation"
installed crosstalk search hi | grep -q . || fail "crosstalk search finds nothing"
ask_ms=$((t1 - t0))

step "CLI: the data dir comes from platformdirs when CROSSTALK_HOME is not set"
new_home
user_home=$run_home
out=$(installed CROSSTALK_HOME= crosstalk ask --new "hello" 2>&1) || fail "crosstalk ask failed: $out"
user_data=$user_home/.local/share/crosstalk
ls "$user_data"/conversations/*.jsonl >/dev/null 2>&1 || fail "no conversation under $user_data"
echo "    $(find "$user_data" -type f | wc -l) files under ~/.local/share/crosstalk"

step "CLI: each cloud SDK is in the bundle"
for model in openai:gpt-4.1-mini anthropic:claude-haiku-5-5 gemini:gemini-2.5-flash; do
  provider=${model%%:*}
  out=$(installed OPENAI_API_KEY=sk-test ANTHROPIC_API_KEY=sk-test GEMINI_API_KEY=test \
    timeout 120 crosstalk ask --new -m "$model" "hi" 2>&1) && fail "$model answered with no network?"
  if grep -Eq "No module named|ModuleNotFoundError|ImportError|Traceback|Failed to execute" <<<"$out"; then
    fail "$model: $out"
  fi
  echo "    $model: $(tail -1 <<<"$out" | cut -c1-150)"
done

step "keys: Secret Service backend (gnome-keyring in a private D-Bus session)"
new_home
out=$(installed dbus-run-session -- sh -c '
  eval "$(printf "\n" | gnome-keyring-daemon --unlock --components=secrets)" >/dev/null
  echo sk-check-123 | crosstalk key set openai && crosstalk models | grep -A0 "^openai" &&
  secret-tool lookup service crosstalk username openai; echo; crosstalk key delete openai' 2>&1) ||
  fail "keyring round trip: $out"
echo "$out" | grep -v "fd limit" | sed 's/^/    /'
grep -q "stored the key for openai" <<<"$out" || fail "the key was not stored: $out"
grep -q "sk-check-123" <<<"$out" || fail "the Secret Service does not hold the key: $out"
grep -q "removed key for openai" <<<"$out" || fail "the key was not removed: $out"
step "keys: no Secret Service -> the fail backend, and nothing written"
new_home
out=$(echo sk-nowhere | installed crosstalk key set openai 2>&1) && fail "a key was 'stored' with no keyring: $out"
echo "    $out"
grep -qi "keyring" <<<"$out" || fail "no keyring message: $out"
! grep -rq "sk-nowhere" "$run_home" || fail "the key was written to a file under $run_home"

# The window. Xvfb outside the namespace; the app inside reaches it through its socket file.
display_number=$(for n in $(seq 91 140); do [ -e "/tmp/.X$n-lock" ] || { echo "$n"; break; }; done)
Xvfb ":$display_number" -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
xvfb_pid=$!
for _ in $(seq 100); do [ -S "/tmp/.X11-unix/X$display_number" ] && break; sleep 0.1; done
export DISPLAY=":$display_number"

# Launch bare; the time is from exec to the main window being mapped (whole process: the
# bootloader, Python, Qt, reading the data dir).
launch() {
  local t0 t1 wid=""
  t0=$(now_ms)
  installed DISPLAY="$DISPLAY" crosstalk >"$run_home/app.log" 2>&1 &
  app_pid=$!
  while [ -z "$wid" ]; do
    wid=$(xdotool search --onlyvisible --name '^Crosstalk$' 2>/dev/null | head -1 || true)
    [ -n "$wid" ] && break
    kill -0 "$app_pid" 2>/dev/null || { cat "$run_home/app.log" >&2; fail "the app exited before showing a window"; }
    [ $(( $(now_ms) - t0 )) -lt 60000 ] || fail "no window after 60 s"
    sleep 0.02
  done
  t1=$(now_ms)
  window=$wid
  launch_ms=$((t1 - t0))
}
quit_app() {
  xdotool windowfocus --sync "$window" && xdotool key ctrl+q || true
  for _ in $(seq 300); do kill -0 "$app_pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$app_pid" 2>/dev/null; then kill "$app_pid"; fail "the app did not quit on Ctrl+Q"; fi
  local status=0
  wait "$app_pid" || status=$?
  app_pid=""
  [ "$status" = 0 ] || fail "the app exited with $status: $(cat "$run_home/app.log")"
  ! grep -q Traceback "$run_home/app.log" || fail "the app printed a traceback: $(cat "$run_home/app.log")"
}

step "GUI: cold start to first window"
new_home
dropped=no
if sync && echo 3 > /proc/sys/vm/drop_caches 2>/dev/null; then dropped=yes; fi
launch
cold_ms=$launch_ms
echo "    window $window after $cold_ms ms (page cache dropped: $dropped)"
# The desktop entry's StartupWMClass must name the window's class, or docks show a second icon.
wm_class=$(xprop -id "$window" WM_CLASS | sed -n 's/.*= "[^"]*", "\([^"]*\)".*/\1/p')
desktop_class=$(sed -n 's/^StartupWMClass=//p' /usr/share/applications/crosstalk.desktop)
[ "$wm_class" = "$desktop_class" ] || fail "window class $wm_class, but the .desktop says $desktop_class"

step "GUI: one turn with the local model"
xdotool windowfocus --sync "$window"   # Xvfb has no window manager to activate it
xdotool key ctrl+l
xdotool type --delay 20 "Say hello in one short sentence."
xdotool key Return
replied=no
for _ in $(seq 900); do
  if grep -qsE '"kind": ?"model_output"' "$run_home"/data/conversations/*.jsonl &&
     grep -qsE '"kind": ?"title"' "$run_home"/data/conversations/*.jsonl; then replied=yes; break; fi
  sleep 0.1
done
[ "$replied" = yes ] || fail "no reply and title from the local model in the window after 90 s"
# Everything the running app has mapped (libraries, the model) comes from the package or the
# system, nothing from the build machine's Python, venv or checkout.
mapped=$(for p in $(descendants "$app_pid"); do
  [ "$(readlink "/proc/$p/exe")" = /opt/crosstalk/crosstalk ] || continue  # not unshare, env, ...
  awk '$6 ~ /^\// {print $6}' "/proc/$p/maps" 2>/dev/null
done | sort -u)
grep -q '^/opt/crosstalk/crosstalk$' <<<"$mapped" || fail "found no running /opt/crosstalk/crosstalk"
strays=$(grep -Ev "^(/opt/crosstalk/|/usr/lib/|/lib/|/lib64/|/usr/share/|/var/cache/|/dev/|/memfd:|$run_home/|/tmp/)" <<<"$mapped" || true)
[ -z "$strays" ] || fail "the app maps files from outside the package: $strays"
echo "    $(wc -l <<<"$mapped") mapped files, all from /opt/crosstalk or the system (model: $(grep '\.gguf$' <<<"$mapped" || echo 'not mmapped'))"
sleep 1  # the last paint
shot=$here/build/check-window.png
mkdir -p "$(dirname "$shot")"
import -window root "$shot"
echo "    reply saved; screenshot $shot"
quit_app

step "GUI: warm start to first window (3 launches)"
warm_all=()
for _ in 1 2 3; do
  launch
  warm_all+=("$launch_ms")
  quit_app
done
warm_ms=$(printf '%s\n' "${warm_all[@]}" | sort -n | sed -n 2p)
echo "    windows after ${warm_all[*]} ms (median $warm_ms ms)"

if [ "$keep" = yes ]; then
  step "left installed (--keep)"
else
  step "remove: dpkg --purge crosstalk keeps the user's data"
  data_before=$(find "$user_data" -type f -exec sha256sum {} + | sort)
  dpkg --purge crosstalk >/dev/null 2>"$scratch/purge.log" || { cat "$scratch/purge.log" >&2; fail "dpkg --purge"; }
  for f in /opt/crosstalk /usr/bin/crosstalk /usr/share/applications/crosstalk.desktop \
      /usr/share/icons/hicolor/scalable/apps/crosstalk.svg; do
    [ ! -e "$f" ] || fail "$f left behind after purge"
  done
  [ "$(find "$user_data" -type f -exec sha256sum {} + | sort)" = "$data_before" ] ||
    fail "purge touched the user's data"
  echo "    /opt/crosstalk and the launcher gone; ~/.local/share/crosstalk untouched ($(wc -l <<<"$data_before") files)"
fi

step "passed"
cat <<EOF
bundle (packaging/dist/crosstalk): $bundle_size   .deb: $deb_size   installed /opt/crosstalk: $installed_size
crosstalk ask --new "hi" (installed, offline, whole command): $ask_ms ms
start to first window, installed: cold $cold_ms ms (page cache dropped: $dropped), warm $warm_ms ms (median of ${warm_all[*]})
load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores (timings stretch under load)
EOF
