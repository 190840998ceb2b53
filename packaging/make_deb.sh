#!/usr/bin/env bash
# Wrap the PyInstaller bundle into a .deb (build.sh calls this; it can also be run alone).
#
#   packaging/make_deb.sh BUNDLE_DIR ICON_DIR VERSION OUT_DIR
#
# The package installs
#   /opt/crosstalk/                                   the bundle (crosstalk + _internal/)
#   /usr/bin/crosstalk -> /opt/crosstalk/crosstalk    on the PATH
#   /usr/share/applications/crosstalk.desktop         the desktop menu entry
#   /usr/share/icons/hicolor/<size>/apps/crosstalk.png and scalable/apps/crosstalk.svg
# Removing it (dpkg -r / --purge, apt remove / purge) deletes exactly those files. The user's
# data dir (~/.local/share/crosstalk, or CROSSTALK_HOME) and keys in the OS keyring belong to
# the user: no maintainer script touches them.
# Depends: is computed from the libraries the bundle does not carry (the C library, OpenGL/EGL,
# libxcb), read off the bundle with ldd.
set -euo pipefail
[ $# = 4 ] || { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
bundle=$(cd "$1" && pwd)
icons=$(cd "$2" && pwd)
version=$3
out=$(mkdir -p "$4" && cd "$4" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
resources=$(dirname "$here")/resources
arch=$(dpkg --print-architecture)
maintainer=${CROSSTALK_MAINTAINER:-Crosstalk maintainers <crosstalk@example.org>}

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage/root
mkdir -p "$root/opt" "$root/usr/bin" "$root/usr/share/applications" "$root/DEBIAN" \
  "$root/usr/share/doc/crosstalk"
cp -a "$bundle" "$root/opt/crosstalk"
ln -s /opt/crosstalk/crosstalk "$root/usr/bin/crosstalk"
install -m 0644 "$resources/crosstalk.desktop" "$root/usr/share/applications/crosstalk.desktop"
for png in "$icons"/crosstalk-*.png; do
  size=$(basename "$png" .png); size=${size#crosstalk-}
  install -D -m 0644 "$png" "$root/usr/share/icons/hicolor/${size}x${size}/apps/crosstalk.png"
done
install -D -m 0644 "$resources/crosstalk.svg" "$root/usr/share/icons/hicolor/scalable/apps/crosstalk.svg"
cat > "$root/usr/share/doc/crosstalk/copyright" <<'EOF'
Crosstalk is distributed under the MIT license. The bundle under /opt/crosstalk/_internal also
carries third-party software under its own licenses: CPython (PSF), Qt 6 and PySide6 (LGPLv3),
llama.cpp (MIT), the SmolLM2-135M-Instruct model (Apache-2.0), and the Python packages listed
by the *.dist-info folders there.
EOF
# Files are root's, readable by everyone; programs and libraries executable.
chmod -R u+rwX,go+rX,go-w "$root/opt/crosstalk"

# --- Depends: whatever the bundle links but does not carry -----------------------------------
# Each ELF file is resolved with ldd the way the bundle runs (its bootloader puts _internal/ on
# LD_LIBRARY_PATH); every library found outside the bundle names its Debian package. (Not
# dpkg-shlibdeps: it falls back to the system's copy of libraries the bundle carries itself and
# so lists dozens of packages the program never loads.) libc6 gets the newest GLIBC_ symbol
# version the bundle asks for: a bundle built on Debian 12 needs glibc 2.36 or newer.
elves=()
while IFS= read -r -d '' f; do
  [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] && elves+=("$f")
done < <(find "$root/opt/crosstalk" -type f -print0)
bundle_path=$(find "$root/opt/crosstalk" -name '*.so*' -printf '%h\n' | sort -u | paste -sd:)
external=$(for f in "${elves[@]}"; do LD_LIBRARY_PATH=$bundle_path ldd "$f" 2>/dev/null || true; done |
  awk '$2 == "=>" && $3 ~ /^\// {print $3} $2 == "=>" && $3 == "not" {print "MISSING:" $1}' |
  grep -v "^$root/" | sort -u)
if grep -q '^MISSING:' <<<"$external"; then
  echo "make_deb.sh: libraries neither bundled nor on this system: $(grep '^MISSING:' <<<"$external" | sort -u | tr '\n' ' ')" >&2
fi
packages=()
for lib in $(grep -v '^MISSING:' <<<"$external"); do
  pkg=""
  for candidate in "$lib" "$(readlink -f "$lib")" "${lib/#\/usr\/lib\//\/lib\/}" "${lib/#\/lib\//\/usr\/lib\/}"; do
    pkg=$(dpkg -S "$candidate" 2>/dev/null | head -1 | cut -d: -f1) && [ -n "$pkg" ] && break
  done
  if [ -n "$pkg" ]; then packages+=("$pkg"); else echo "make_deb.sh: no package owns $lib" >&2; fi
done
glibc=$(for f in "${elves[@]}"; do objdump -T "$f" 2>/dev/null; done |
  grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -1)
depends=""
for pkg in $(printf '%s\n' "${packages[@]}" | sort -u); do
  [ "$pkg" = libc6 ] && [ -n "$glibc" ] && pkg="libc6 (>= $glibc)"
  depends+="${depends:+, }$pkg"
done
# The bundled fontconfig reads the system's configuration and fonts: fontconfig-config brings
# both (it depends on a font package).
depends+="${depends:+, }fontconfig-config"
# Not linked, but used at run time: a Secret Service to keep API keys in (any provider of it
# works: GNOME Keyring, KWallet, KeePassXC); xkb-data and libx11-data for keyboard layouts and
# the compose key; Noto CJK for the Japanese and Chinese translations and messages in those
# scripts (the bundle carries no fonts: docs/i18n.md).
recommends="gnome-keyring | kwalletmanager | keepassxc, xkb-data, libx11-data, fonts-noto-cjk"

installed_size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<EOF
Package: crosstalk
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $depends
Recommends: $recommends
Section: net
Priority: optional
Description: desktop chat client for large language models
 Crosstalk keeps one typed history per conversation and lets any model answer
 any turn: a built-in local model (SmolLM2, offline, no key), OpenAI, Anthropic,
 Gemini or any OpenAI-compatible server. Conversations are plain files on your
 disk; API keys live in the OS keyring.
 .
 This package is a self-contained build (Python, Qt and the model included)
 installed under /opt/crosstalk, with \`crosstalk\` on the PATH and an entry in
 the desktop menu. Removing it never deletes your conversations.
EOF
cat > "$root/DEBIAN/postinst" <<'EOF'
#!/bin/sh
set -e
# Refresh the desktop menu and icon caches where the tools exist (not on a minimal system).
if [ "$1" = configure ]; then
  command -v update-desktop-database >/dev/null && update-desktop-database -q /usr/share/applications || true
  command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t /usr/share/icons/hicolor || true
fi
exit 0
EOF
cat > "$root/DEBIAN/postrm" <<'EOF'
#!/bin/sh
set -e
# Only caches are refreshed. The user's conversations, settings and keyring entries are theirs:
# not even `purge` touches them (they live in each user's home, under ~/.local/share/crosstalk).
case "$1" in
  remove|purge)
    command -v update-desktop-database >/dev/null && update-desktop-database -q /usr/share/applications || true
    command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t /usr/share/icons/hicolor || true
    ;;
esac
exit 0
EOF
chmod 0755 "$root/DEBIAN/postinst" "$root/DEBIAN/postrm"

deb=$out/crosstalk_${version}_${arch}.deb
# zstd -9 by default: seconds instead of about three minutes for xz -6, for a .deb about 13% larger
# (measured: 211 MB against 186 MB). Every dpkg that can run this bundle reads zstd (dpkg 1.21.18+:
# Debian 12, Ubuntu 22.04; the bundle needs glibc >= 2.35/2.36 anyway). CROSSTALK_DEB_COMPRESS=xz
# for the smallest file (a release).
case "${CROSSTALK_DEB_COMPRESS:-zstd}" in
  xz) compress=(-Zxz -z6) ;;
  zstd) compress=(-Zzstd -z9) ;;
  *) echo "make_deb.sh: CROSSTALK_DEB_COMPRESS is zstd or xz" >&2; exit 2 ;;
esac
dpkg-deb --root-owner-group "${compress[@]}" --threads-max="$(nproc)" --build "$root" "$deb" >/dev/null
echo "make_deb.sh: $deb ($(du -h "$deb" | cut -f1); installs $(( installed_size / 1024 )) MB)"
echo "make_deb.sh: Depends: $depends"
