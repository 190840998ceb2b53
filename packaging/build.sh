#!/usr/bin/env bash
# Build Crosstalk as a standalone program: one command, from a clean clone.
#
#   packaging/build.sh            bundle + .deb (the .deb only where dpkg-deb exists)
#   packaging/build.sh --no-deb   bundle only
#   packaging/build.sh --native   llama.cpp tuned to this machine's CPU (quick local checks only:
#                                 the result may not run on other computers)
#
# Produces
#   packaging/dist/crosstalk/                     the PyInstaller one-folder bundle; run
#                                                 packaging/dist/crosstalk/crosstalk
#   packaging/dist/crosstalk_<version>_<arch>.deb installs under /opt/crosstalk
#
# It makes its own build venv (packaging/build/venv) with the project's runtime dependencies
# from pyproject.toml and PyInstaller, so nothing from the dev tools gets into the bundle and the
# project's .venv is left alone. llama-cpp-python only comes as source, and pip builds it with
# -march=native (AVX-512 here, "Illegal instruction" on most laptops): by default this script
# compiles it once more with GGML_NATIVE=OFF (an AVX2/FMA/F16C baseline, x86-64 CPUs since 2013)
# and keeps that wheel in ~/.cache/crosstalk-packaging (about 9 minutes on 2 cores, once per
# machine). After that a build takes about a minute and a half.
# Environment: PYTHON (default python3, 3.11+), BUILD_VENV (default packaging/build/venv),
# CROSSTALK_WHEEL_CACHE (default ~/.cache/crosstalk-packaging).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
cd "$root"

make_deb=auto llama=portable
for arg in "$@"; do
  case "$arg" in
    --no-deb) make_deb=no ;;
    --native) llama=native ;;
    -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "build.sh: unknown argument $arg (try --help)" >&2; exit 2 ;;
  esac
done

python=${PYTHON:-python3}
venv=${BUILD_VENV:-$here/build/venv}
work=$here/build
dist=$here/dist
started=$(date +%s)
step() { echo "== $* ($(( $(date +%s) - started )) s)"; }

mkdir -p "$work" "$dist"
step "build venv: $venv"
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
pip=("$venv/bin/python" -m pip --disable-pip-version-check --quiet)
# The runtime dependencies exactly as pyproject.toml states them (markers included).
"$venv/bin/python" - "$root/pyproject.toml" > "$work/requirements.txt" <<'EOF'
import sys, tomllib
with open(sys.argv[1], "rb") as f:
    print("\n".join(tomllib.load(f)["project"]["dependencies"]))
EOF
llama_wheel=()
if [ "$llama" = portable ] && [ "$(uname -m)" = x86_64 ]; then
  # one wheel per requirement string: a changed pin in pyproject.toml builds a new one
  requirement=$(grep -i '^llama[-_]cpp[-_]python' "$work/requirements.txt" | head -1)
  key=$(printf '%s' "$requirement" | sha256sum | cut -c1-12)
  wheels=${CROSSTALK_WHEEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/crosstalk-packaging}/llama-portable-$key
  wheel=$(ls -t "$wheels"/llama_cpp_python-*.whl 2>/dev/null | head -1 || true)
  if [ -z "$wheel" ]; then
    step "llama-cpp-python without -march=native (once per machine; about 7-9 minutes on 2 cores)"
    mkdir -p "$wheels"
    if ! CMAKE_ARGS="-DGGML_NATIVE=OFF" "${pip[@]}" wheel --no-deps --no-cache-dir \
        --no-binary llama-cpp-python -w "$wheels" "$requirement" >"$work/llama-wheel.log" 2>&1; then
      cat "$work/llama-wheel.log" >&2
      echo "build.sh: building llama-cpp-python failed (log: $work/llama-wheel.log)" >&2
      exit 1
    fi
    wheel=$(ls -t "$wheels"/llama_cpp_python-*.whl | head -1)
  fi
  llama_wheel=("$wheel")
fi
if ! "${pip[@]}" install -r "$work/requirements.txt" "${llama_wheel[@]}" "pyinstaller>=6.10,<7" \
    >"$work/pip.log" 2>&1; then
  cat "$work/pip.log" >&2
  echo "build.sh: pip install failed (log: $work/pip.log)" >&2
  exit 1
fi
# pip keeps an installed llama-cpp-python of the same version: make sure the venv holds the one
# this build asked for (the portable wheel, or PyPI's source built natively).
want=${llama_wheel[0]:-native}
if [ "$(cat "$venv/.crosstalk-llama" 2>/dev/null)" != "$want" ]; then
  if [ "$want" = native ]; then
    "${pip[@]}" install --force-reinstall --no-deps "$(grep -i '^llama[-_]cpp[-_]python' "$work/requirements.txt" | head -1)" >>"$work/pip.log" 2>&1
  else
    "${pip[@]}" install --force-reinstall --no-deps "$want" >>"$work/pip.log" 2>&1
  fi
  echo "$want" > "$venv/.crosstalk-llama"
fi
version=$("$venv/bin/python" -c "import tomllib; print(tomllib.load(open('pyproject.toml','rb'))['project']['version'])")

step "icons from resources/crosstalk.svg"
"$venv/bin/python" "$here/make_icons.py" "$work/icons" >/dev/null

step "PyInstaller (one folder)"
rm -rf "$dist/crosstalk"
if ! CROSSTALK_ICON_DIR="$work/icons" CROSSTALK_VERSION="$version" \
  "$venv/bin/pyinstaller" --noconfirm --log-level WARN \
  --distpath "$dist" --workpath "$work/pyinstaller" "$here/crosstalk.spec" >"$work/pyinstaller.log" 2>&1
then
  cat "$work/pyinstaller.log" >&2
  echo "build.sh: PyInstaller failed (log: $work/pyinstaller.log)" >&2
  exit 1
fi
# (the Windows/macOS libraries llama_cpp probes for with ctypes are expected to be missing here)
grep -v "required via ctypes not found" "$work/pyinstaller.log" || true
bundle=$dist/crosstalk
[ -x "$bundle/crosstalk" ] || { echo "build.sh: PyInstaller made no $bundle/crosstalk" >&2; exit 1; }

# llama-cpp-python's wheel carries each library three times (libX.so, .so.0, .so.0.N, as
# copies): keep one file, make the other names symlinks (about 8 MB less).
for lib in "$bundle"/_internal/llama_cpp/lib/*.so; do
  [ -f "$lib" ] && [ ! -L "$lib" ] || continue
  for versioned in "$lib".*; do
    if [ -f "$versioned" ] && [ ! -L "$versioned" ] && cmp -s "$lib" "$versioned"; then
      rm "$lib" && ln -s "$(basename "$versioned")" "$lib"
      break
    fi
  done
done

# Python itself (libpython, lib-dynload) comes with its symbols from pyenv-style builds: strip
# those, about 17 MB. Not everything: stripping a library that auditwheel/patchelf rewrote
# (numpy's OpenBLAS) breaks it ("ELF load command address/offset not page-aligned").
if [ "$(uname -s)" = Linux ] && command -v strip >/dev/null; then
  find "$bundle/_internal" -maxdepth 1 -name 'libpython3*.so*' -type f -print0 |
    xargs -0 -r strip --strip-unneeded
  find "$bundle/_internal" -path '*/lib-dynload/*.so' -type f -print0 | xargs -0 -r strip --strip-unneeded
fi

# A portable build must not need AVX-512 (this machine has it; most laptops do not).
if [ "$llama" = portable ] && [ "$(uname -m)" = x86_64 ] && command -v objdump >/dev/null; then
  for lib in "$bundle"/_internal/llama_cpp/lib/libggml-cpu.so*; do
    [ -L "$lib" ] && continue
    if objdump -d "$lib" | grep -q '%zmm'; then
      echo "build.sh: $lib uses AVX-512: llama-cpp-python was built for this CPU only" >&2
      exit 1
    fi
  done
fi

# The bundle must never carry test data or the project's tests.
if find "$bundle" \( -path '*/tests/*' -o -name 'conftest.py' -o -name '*.pytest_cache*' \) | grep -q .; then
  echo "build.sh: test files ended up in the bundle:" >&2
  find "$bundle" \( -path '*/tests/*' -o -name 'conftest.py' \) | head >&2
  exit 1
fi

size=$(du -sh "$bundle" | cut -f1)
step "bundle: $bundle ($size)"

if [ "$make_deb" = auto ]; then
  command -v dpkg-deb >/dev/null && make_deb=yes || make_deb=no
fi
if [ "$make_deb" = yes ]; then
  step ".deb"
  "$here/make_deb.sh" "$bundle" "$work/icons" "$version" "$dist"
fi
step "done"
