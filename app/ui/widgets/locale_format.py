"""Numbers and times in the reader's locale (QLocale follows the interface language)."""

from __future__ import annotations

from PySide6.QtCore import QDateTime, QLocale


def number(value: int) -> str:
    """A whole number with the locale's digit grouping ("12,345" in English)."""
    return QLocale().toString(value)


def date_time(epoch_s: float) -> str:
    """A moment as the locale writes it briefly: date and time of day."""
    moment = QDateTime.fromMSecsSinceEpoch(int(epoch_s * 1000))
    return QLocale().toString(moment, QLocale.FormatType.ShortFormat)


def time_of_day(epoch_s: float) -> str:
    """The time of day with seconds, on the 24-hour clock (a log's column: every row the same width)."""
    moment = QDateTime.fromMSecsSinceEpoch(int(epoch_s * 1000))
    return QLocale().toString(moment.time(), "HH:mm:ss")
