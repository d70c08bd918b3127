#!/bin/sh
# Wrap Glassbox.app in a compressed disk image with a link to /Applications (drag to install).
#
#   sh packaging/macos/make_dmg.sh dist/Glassbox.app dist/Glassbox-<version>-macos-arm64.dmg
#
# `python packaging/build.py --dmg` runs it after PyInstaller. macOS only (hdiutil).
# Sign and notarize the .app BEFORE this step (packaging/README.md), or Gatekeeper blocks it.
set -eu

app=${1:?usage: make_dmg.sh APP DMG}
dmg=${2:?usage: make_dmg.sh APP DMG}
[ -d "$app/Contents/MacOS" ] || { echo "make_dmg.sh: $app is not an application bundle" >&2; exit 1; }

staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT
# ditto keeps the bundle's symbolic links, extended attributes and code signature intact.
ditto "$app" "$staging/$(basename "$app")"
ln -s /Applications "$staging/Applications"
rm -f "$dmg"
hdiutil create -volname Glassbox -srcfolder "$staging" -fs HFS+ -format UDZO -ov "$dmg"
echo "make_dmg.sh: wrote $dmg"
