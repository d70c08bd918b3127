#!/bin/sh
# Install Glassbox for the current user, from the unpacked bundle this script sits in.
#
#   ./install.sh              copy the app to ~/.local/opt/glassbox, add it to the applications menu
#                             (~/.local/share/applications/glassbox.desktop + icons) and link ~/.local/bin/glassbox
#   ./install.sh --uninstall  remove exactly that again (your models, chats and settings stay)
#
# Where things go can be changed with GLASSBOX_INSTALL_DIR, GLASSBOX_BIN_DIR and XDG_DATA_HOME.
# No root rights needed; nothing outside those folders is touched.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
data_home=${XDG_DATA_HOME:-$HOME/.local/share}
app_dir=${GLASSBOX_INSTALL_DIR:-$HOME/.local/opt/glassbox}
bin_dir=${GLASSBOX_BIN_DIR:-$HOME/.local/bin}
desktop_file=$data_home/applications/glassbox.desktop
icon_theme=$data_home/icons/hicolor
icon_sizes="16 24 32 48 64 128 256 512"

say() { printf 'install.sh: %s\n' "$*"; }
fail() { printf 'install.sh: error: %s\n' "$*" >&2; exit 1; }

usage() {
    sed -n '2,10s/^# \{0,1\}//p' "$0"
}

is_glassbox_dir() {
    [ -x "$1/Glassbox" ] && [ -d "$1/_internal" ]
}

# A path in a desktop entry's Exec key: double-quoted, with ", `, $ and \ escaped (Desktop Entry spec 1.5).
exec_quote() {
    printf '"%s"' "$(printf '%s' "$1" | sed 's/[\\"`$]/\\&/g')"
}

refresh_caches() {
    if command -v update-desktop-database >/dev/null 2>&1; then
        update-desktop-database -q "$data_home/applications" 2>/dev/null || true
    fi
    if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f "$icon_theme/index.theme" ]; then
        gtk-update-icon-cache -q -t "$icon_theme" 2>/dev/null || true
    fi
    # Without index.theme gtk-update-icon-cache refuses; desktops still find the icons by scanning.
}

uninstall() {
    rm -f "$desktop_file"
    for size in $icon_sizes; do
        rm -f "$icon_theme/${size}x${size}/apps/glassbox.png"
    done
    rm -f "$icon_theme/scalable/apps/glassbox.svg"
    if [ -L "$bin_dir/glassbox" ] && [ "$(readlink "$bin_dir/glassbox")" = "$app_dir/Glassbox" ]; then
        rm -f "$bin_dir/glassbox"
    fi
    if [ -e "$app_dir" ]; then
        is_glassbox_dir "$app_dir" || fail "$app_dir is not a Glassbox installation; not removing it"
        rm -rf "$app_dir"
    fi
    refresh_caches
    say "Glassbox removed. Your models, chats and settings were kept (Glassbox's data, config and cache folders)."
}

install_app() {
    is_glassbox_dir "$here" || fail "run me from the unpacked Glassbox folder (Glassbox and _internal/ beside me)"
    if [ "$here" != "$app_dir" ]; then
        if [ -e "$app_dir" ] && ! is_glassbox_dir "$app_dir"; then
            fail "$app_dir exists and is not a Glassbox installation; move it away or set GLASSBOX_INSTALL_DIR"
        fi
        mkdir -p "$(dirname "$app_dir")"
        rm -rf "$app_dir.partial"
        cp -R -P "$here" "$app_dir.partial"   # -P keeps the bundle's symbolic links as links
        rm -rf "$app_dir"
        mv "$app_dir.partial" "$app_dir"
    fi

    icons=$app_dir/_internal/resources/icons
    for size in $icon_sizes; do
        mkdir -p "$icon_theme/${size}x${size}/apps"
        cp "$icons/glassbox-$size.png" "$icon_theme/${size}x${size}/apps/glassbox.png"
    done
    mkdir -p "$icon_theme/scalable/apps"
    cp "$icons/glassbox.svg" "$icon_theme/scalable/apps/glassbox.svg"

    mkdir -p "$data_home/applications"
    exec_line="Exec=$(exec_quote "$app_dir/Glassbox")"
    # Escape sed's replacement specials (\ & |) in the paths.
    exec_sed=$(printf '%s' "$exec_line" | sed 's/[\\&|]/\\&/g')
    try_sed=$(printf '%s' "TryExec=$app_dir/Glassbox" | sed 's/[\\&|]/\\&/g')
    sed -e "s|^Exec=.*|$exec_sed|" -e "s|^TryExec=.*|$try_sed|" \
        "$app_dir/_internal/resources/glassbox.desktop" > "$desktop_file.partial"
    chmod 644 "$desktop_file.partial"
    mv "$desktop_file.partial" "$desktop_file"

    mkdir -p "$bin_dir"
    ln -sf "$app_dir/Glassbox" "$bin_dir/glassbox"
    refresh_caches

    say "Glassbox installed in $app_dir"
    say "start it from your applications menu, or run: $bin_dir/glassbox"
    case ":${PATH:-}:" in
        *":$bin_dir:"*) ;;
        *) say "note: $bin_dir is not on your PATH, so a plain \`glassbox\` command will not be found" ;;
    esac
}

case "${1:-}" in
    "") install_app ;;
    --uninstall) uninstall ;;
    -h | --help) usage ;;
    *) usage >&2; exit 2 ;;
esac
