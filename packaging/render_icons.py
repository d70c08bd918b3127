"""Render the app icon from resources/icons/glassbox.svg into every size and format the installers use.

    python packaging/render_icons.py

writes resources/icons/glassbox-<N>.png (16 … 512), glassbox.ico (Windows: .exe and installer)
and glassbox.icns (macOS: the .app). Rendering uses Qt's own SVG renderer (QtSvg), so the result
is the same wherever the pinned PySide6 is installed. Run it after every change to the SVG;
tests/test_packaging.py fails when the committed PNGs no longer match the SVG.
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

ICONS_DIR = Path(__file__).resolve().parents[1] / "resources" / "icons"
SVG_NAME = "glassbox.svg"
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# (OSType, pixel size) for the PNG-encoded entries macOS reads; 1024 is the 512@2x Retina entry.
ICNS_TYPES = (
    (b"icp4", 16),
    (b"icp5", 32),
    (b"icp6", 64),
    (b"ic07", 128),
    (b"ic08", 256),
    (b"ic09", 512),
    (b"ic10", 1024),
    (b"ic11", 32),
    (b"ic12", 64),
    (b"ic13", 256),
    (b"ic14", 512),
)


def png_name(size: int) -> str:
    return f"glassbox-{size}.png"


def render(svg: Path, size: int) -> QImage:
    """The SVG drawn into a transparent size x size image, antialiased."""
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise ValueError(f"{svg} is not a valid SVG file")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    return image.convertToFormat(QImage.Format.Format_ARGB32)


def png_bytes(image: QImage) -> bytes:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise RuntimeError("Qt could not encode a PNG image")
    buffer.close()
    return bytes(data.data())


def ico_bytes(pngs: dict[int, bytes]) -> bytes:
    """A Windows .ico holding one PNG-compressed image per size (supported since Windows Vista)."""
    sizes = sorted(pngs)
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = len(header) + 16 * len(sizes)
    entries, payload = b"", b""
    for size in sizes:
        data = pngs[size]
        side = 0 if size >= 256 else size  # 0 means 256 in an ICONDIRENTRY
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(data), offset + len(payload))
        payload += data
    return header + entries + payload


def icns_bytes(pngs: dict[int, bytes]) -> bytes:
    """A macOS .icns with PNG entries: 'icns', total length, then (OSType, length, PNG) chunks."""
    chunks = b"".join(kind + struct.pack(">I", 8 + len(pngs[size])) + pngs[size] for kind, size in ICNS_TYPES)
    return b"icns" + struct.pack(">I", 8 + len(chunks)) + chunks


def render_all(icons_dir: Path = ICONS_DIR) -> list[Path]:
    """Write every PNG size, the .ico and the .icns next to the SVG; returns the written paths."""
    svg = icons_dir / SVG_NAME
    sizes = sorted(set(PNG_SIZES) | set(ICO_SIZES) | {size for _kind, size in ICNS_TYPES})
    pngs = {size: png_bytes(render(svg, size)) for size in sizes}
    written = []
    for size in PNG_SIZES:
        path = icons_dir / png_name(size)
        path.write_bytes(pngs[size])
        written.append(path)
    ico = icons_dir / "glassbox.ico"
    ico.write_bytes(ico_bytes({size: pngs[size] for size in ICO_SIZES}))
    icns = icons_dir / "glassbox.icns"
    icns.write_bytes(icns_bytes(pngs))
    return [*written, ico, icns]


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    _app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    for path in render_all():
        print(f"wrote {path.relative_to(ICONS_DIR.parents[1])} ({path.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
