"""What a zip-based document (DOCX) may inflate to, checked before any part of it is parsed.

The size limit on the file looks only at its packed bytes: a 3 MB DOCX can hold a
document.xml that inflates to gigabytes, and the parser reads each part whole. So every
member's inflated size (as the zip's directory declares it; Python's zipfile never inflates
a member past that and fails its checksum instead) is held to `MAX_PART_BYTES`, the members
together to `MAX_INFLATED_BYTES`, and a large member may not inflate more than `MAX_RATIO`
times its packed size: text and XML pack five to twenty times, a zip bomb a thousand.
Before that, the members are counted: the zip's directory is read whole into objects
several times the size of its entries, so a file of millions of empty members would take
gigabytes. Every directory entry begins with the same four bytes, so counting those is a
bound on the members no directory can dodge.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from app.core.documents.read_problems import DocumentError, ReadProblem
from app.core.support.formatting import fill, format_bytes
from app.core.support.user_text import N_

MAX_PART_BYTES = 32 * 1024 * 1024  # one part, inflated: the XML parser's tree for it takes several times this
MAX_INFLATED_BYTES = 256 * 1024 * 1024  # all parts together, inflated (the parser holds them all)
MAX_RATIO = 100
RATIO_FROM_BYTES = 4 * 1024 * 1024  # smaller members are not judged by their ratio: they cannot do harm
MAX_MEMBERS = 10_000  # a long report with many images has a few hundred
_DIRECTORY_ENTRY = b"PK\x01\x02"  # the signature each entry of the zip's central directory begins with


def check_zip_limits(path: Path, data: bytes) -> None:
    """Raises DocumentError when the zip in `data` has too many members, or they would inflate past the limits.

    Raises zipfile.BadZipFile when `data` is not a zip.
    """
    members = data.count(_DIRECTORY_ENTRY)
    if members > MAX_MEMBERS:
        raise DocumentError(
            path,
            ReadProblem.TOO_LARGE,
            fill(
                N_("The file holds {count} parts; Glassbox reads documents of up to {limit} parts."),
                count=members,
                limit=MAX_MEMBERS,
            ),
        )
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        _check_inflated_sizes(path, archive)


def _check_inflated_sizes(path: Path, archive: zipfile.ZipFile) -> None:
    total = 0
    for member in archive.infolist():
        size = member.file_size
        if size > RATIO_FROM_BYTES and size > MAX_RATIO * max(member.compress_size, 1):
            raise DocumentError(
                path,
                ReadProblem.DAMAGED,
                fill(
                    N_(
                        "The part {part} would inflate from {packed} to {size}, {ratio} times over; a real "
                        "document is never packed that tightly (a zip bomb is), so the file is not opened."
                    ),
                    part=member.filename,
                    packed=format_bytes(member.compress_size),
                    size=format_bytes(size),
                    ratio=size // max(member.compress_size, 1),
                ),
            )
        if size > MAX_PART_BYTES:
            raise DocumentError(
                path,
                ReadProblem.TOO_LARGE,
                fill(
                    N_("The part {part} inflates to {size}; Glassbox reads parts of up to {limit}."),
                    part=member.filename,
                    size=format_bytes(size),
                    limit=format_bytes(MAX_PART_BYTES),
                ),
            )
        total += size
    if total > MAX_INFLATED_BYTES:
        raise DocumentError(
            path,
            ReadProblem.TOO_LARGE,
            fill(
                N_("The file inflates to {size}; Glassbox reads documents that inflate to at most {limit}."),
                size=format_bytes(total),
                limit=format_bytes(MAX_INFLATED_BYTES),
            ),
        )
