"""Every colour of the interface, light and dark, and the one place that switches between them.

A `Colours` set holds Qt's palette roles and the app's own colours (message bubbles, code
blocks, token probabilities, plots, the context meter, the GPU slider's zones and memory
bars, notices, the prompt inspector). `Colours.pairs()` lists each text/background and
graphic/background pair, so the contrast test can check every one against WCAG.

Widgets never hold a colour: they read `colours()` when they paint or render, or style
themselves through `keep_styled` / `set_tone`, which restyle them when the theme changes.
`apply_theme` installs a theme on the application; SYSTEM follows the OS's light or dark
scheme (`QStyleHints.colorScheme()`) and switches live on `colorSchemeChanged`.

Text sizes are relative to the user's font (`relative_font`), never fixed pixels.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from enum import StrEnum

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QColor, QFont, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QWidget

from app.core.settings import Theme
from app.ui.widgets.check_style import OutlinedChecks

SMALL_TEXT = 0.88  # notes and footers, relative to the user's font
SYNTAX_KINDS = ("keyword", "string", "comment", "number", "name")  # the order of Colours.code_syntax
# One spacing scale for margins and gaps (pixels, as Qt's layouts count them): every layout uses these.
SPACING_SCALE = (0, 2, 4, 8, 12, 16, 24)


@dataclass(frozen=True)
class NoticeColours:
    background: str
    border: str
    text: str


@dataclass(frozen=True)
class Colours:
    """One theme's colours, as #rrggbb names."""

    dark: bool
    # Qt palette roles
    window: str
    window_text: str
    base: str
    alternate_base: str
    text: str
    button: str
    button_text: str
    highlight: str
    highlighted_text: str
    link: str
    placeholder: str
    tooltip_base: str
    tooltip_text: str
    disabled_text: str
    focus_ring: str  # around the focused scrolling view
    # secondary text
    muted: str
    error_text: str
    warning_text: str
    # chat
    user_bubble: str
    assistant_bubble: str
    bubble_border: str
    system_bubble: str
    outside_bubble: str
    outside_border: str
    code_background: str
    # syntax colours in code blocks, on code_background: keyword, string, comment, number, name (functions, classes)
    code_syntax: tuple[str, str, str, str, str]
    # token probabilities (backgrounds under the text colour) and the alternatives' bars
    token_unsure: str
    token_low: str
    probability_bar: str
    # notices
    error_notice: NoticeColours
    warning_notice: NoticeColours
    info_notice: NoticeColours
    # context meter segments
    meter_frame: str
    meter_conversation: str
    meter_reasoning: str  # earlier replies' reasoning the template sends, inside the conversation
    meter_tools: str  # the definitions of the tools offered (also their tokens' text in the prompt inspector)
    meter_tool_results: str  # the tools' results the model reads, inside the conversation
    meter_reserve: str
    meter_free: str
    meter_error: str
    # GPU panel: slider zones, memory bars
    zone_fits: str
    zone_tight: str
    zone_wont_fit: str
    memory_app: str
    memory_others: str
    memory_free: str
    memory_outline: str
    # model fit hints (text in tables)
    fit_gpu: str
    fit_partial: str
    fit_ram: str
    fit_none: str
    # prompt inspector: alternating token backgrounds, special tokens
    prompt_token_a: str
    prompt_token_b: str
    special_background: str
    special_text: str
    # plots: one colour per series
    series: tuple[str, ...]

    def qcolor(self, name: str) -> QColor:
        value = getattr(self, name)
        if not isinstance(value, str):
            raise TypeError(f"{name} is not a single colour")
        return QColor(value)

    def notice(self, severity: str) -> NoticeColours:
        """The colours of a notice of severity "error", "warning" or "info"."""
        return {"error": self.error_notice, "warning": self.warning_notice}.get(severity, self.info_notice)

    def palette(self) -> QPalette:
        palette = QPalette()
        roles = QPalette.ColorRole
        for role, name in (
            (roles.Window, self.window),
            (roles.WindowText, self.window_text),
            (roles.Base, self.base),
            (roles.AlternateBase, self.alternate_base),
            (roles.Text, self.text),
            (roles.Button, self.button),
            (roles.ButtonText, self.button_text),
            (roles.BrightText, self.error_text),
            (roles.Highlight, self.highlight),
            (roles.HighlightedText, self.highlighted_text),
            (roles.Link, self.link),
            (roles.LinkVisited, self.link),
            (roles.PlaceholderText, self.placeholder),
            (roles.ToolTipBase, self.tooltip_base),
            (roles.ToolTipText, self.tooltip_text),
        ):
            palette.setColor(role, QColor(name))
        for role in (roles.WindowText, roles.Text, roles.ButtonText):
            palette.setColor(QPalette.ColorGroup.Disabled, role, QColor(self.disabled_text))
        # Fusion draws frames and bevels from these
        palette.setColor(roles.Light, QColor(self.button).lighter(130))
        palette.setColor(roles.Midlight, QColor(self.button).lighter(115))
        palette.setColor(roles.Mid, QColor(self.bubble_border))
        palette.setColor(roles.Dark, QColor(self.button).darker(160))
        palette.setColor(roles.Shadow, QColor("#000000"))
        return palette

    def pairs(self) -> list[ContrastPair]:
        """Every foreground this theme puts on a background, with the contrast it needs (WCAG 2.1)."""
        text, graphic = 4.5, 3.0
        pairs = [
            ContrastPair("window text", self.window_text, self.window, text),
            ContrastPair("text", self.text, self.base, text),
            ContrastPair("text on alternate rows", self.text, self.alternate_base, text),
            ContrastPair("button text", self.button_text, self.button, text),
            ContrastPair("selected text", self.highlighted_text, self.highlight, text),
            ContrastPair("link", self.link, self.base, text),
            ContrastPair("placeholder", self.placeholder, self.base, text),
            ContrastPair("tooltip", self.tooltip_text, self.tooltip_base, text),
            ContrastPair("code", self.text, self.code_background, text),
            *(
                ContrastPair(f"code {kind}", colour, self.code_background, text)
                for kind, colour in zip(SYNTAX_KINDS, self.code_syntax, strict=True)
            ),
            ContrastPair("token unsure", self.text, self.token_unsure, text),
            ContrastPair("token low", self.text, self.token_low, text),
            ContrastPair("probability bar", self.probability_bar, self.tooltip_base, graphic),
            ContrastPair("prompt token a", self.text, self.prompt_token_a, text),
            ContrastPair("prompt token b", self.text, self.prompt_token_b, text),
            ContrastPair("special token", self.special_text, self.special_background, text),
            ContrastPair("tool definition token a", self.meter_tools, self.prompt_token_a, text),
            ContrastPair("tool definition token b", self.meter_tools, self.prompt_token_b, text),
            ContrastPair("memory bar outline", self.memory_outline, self.window, graphic),
            ContrastPair("focus ring on the window", self.focus_ring, self.window, graphic),
            ContrastPair("focus ring on a view", self.focus_ring, self.base, graphic),
        ]
        for surface_name, surface in (("window", self.window), ("base", self.base)):
            pairs += [
                ContrastPair(f"muted on {surface_name}", self.muted, surface, text),
                ContrastPair(f"error text on {surface_name}", self.error_text, surface, text),
                ContrastPair(f"warning text on {surface_name}", self.warning_text, surface, text),
            ]
        for bubble_name in ("user_bubble", "assistant_bubble", "system_bubble", "outside_bubble"):
            bubble = getattr(self, bubble_name)
            pairs += [
                ContrastPair(f"text on {bubble_name}", self.text, bubble, text),
                ContrastPair(f"muted on {bubble_name}", self.muted, bubble, text),
                ContrastPair(f"link on {bubble_name}", self.link, bubble, text),
            ]
        pairs.append(ContrastPair("outside-the-window border", self.outside_border, self.outside_bubble, graphic))
        for severity in ("error", "warning", "info"):
            notice = self.notice(severity)
            pairs.append(ContrastPair(f"{severity} notice", notice.text, notice.background, text))
        for name in ("fit_gpu", "fit_partial", "fit_ram", "fit_none"):
            pairs.append(ContrastPair(name, getattr(self, name), self.base, text))
        for name in (
            "meter_frame",
            "meter_conversation",
            "meter_reasoning",
            "meter_tools",
            "meter_tool_results",
            "meter_reserve",
            "meter_error",
        ):
            pairs.append(ContrastPair(f"{name} against the free part", getattr(self, name), self.meter_free, graphic))
        for name in ("zone_fits", "zone_tight", "zone_wont_fit"):
            pairs.append(ContrastPair(name, getattr(self, name), self.window, graphic))
        for name in ("memory_app", "memory_others"):
            pairs.append(ContrastPair(f"{name} against the free part", getattr(self, name), self.memory_free, graphic))
        for index, colour in enumerate(self.series):
            pairs.append(ContrastPair(f"plot series {index + 1}", colour, self.base, graphic))
        return pairs


@dataclass(frozen=True)
class ContrastPair:
    name: str
    foreground: str
    background: str
    minimum: float  # 4.5 for text, 3 for large text and graphics


LIGHT = Colours(
    dark=False,
    window="#f3f4f6",
    window_text="#1f2328",
    base="#ffffff",
    alternate_base="#f6f8fa",
    text="#1f2328",
    button="#e9ecef",
    button_text="#1f2328",
    highlight="#2458c6",
    highlighted_text="#ffffff",
    focus_ring="#2458c6",
    link="#0b57d0",
    placeholder="#646b73",
    tooltip_base="#fdfdf3",
    tooltip_text="#1f2328",
    disabled_text="#8c959f",
    muted="#595f66",
    error_text="#b3261e",
    warning_text="#7f5300",
    user_bubble="#e6efff",
    assistant_bubble="#ffffff",
    bubble_border="#d0d7de",
    system_bubble="#fff8e1",
    outside_bubble="#f0f0f0",
    outside_border="#808080",
    code_background="#eef1f4",
    code_syntax=("#7a2fb5", "#0b6b2f", "#5c6670", "#9a4a00", "#1f5fa8"),
    token_unsure="#fff1c2",
    token_low="#ffd0cc",
    probability_bar="#3b6ea8",
    error_notice=NoticeColours("#fdecea", "#e8a8a4", "#8a1c14"),
    warning_notice=NoticeColours("#fff4e0", "#e8c07a", "#6f4500"),
    info_notice=NoticeColours("#e8f1fd", "#9fc0ee", "#19457a"),
    meter_frame="#6a45b0",
    meter_conversation="#1565c0",
    meter_reasoning="#00796b",
    meter_tools="#8a4b00",
    meter_tool_results="#33691e",
    meter_reserve="#4d86c6",
    meter_free="#e6e9ec",
    meter_error="#c62828",
    zone_fits="#2e7d4f",
    zone_tight="#a35f00",
    zone_wont_fit="#c62828",
    memory_app="#3b6fc4",
    memory_others="#6e6e6e",
    memory_free="#e6e6e6",
    memory_outline="#707070",
    fit_gpu="#1b7f3b",
    fit_partial="#7f5300",
    fit_ram="#1f5fa8",
    fit_none="#b42318",
    prompt_token_a="#e8f0fe",
    prompt_token_b="#fef7e0",
    special_background="#fde2e1",
    special_text="#a3221b",
    series=("#4e79a7", "#c9650c", "#3d8a3d", "#c8453a", "#2b7f7a", "#8a6d00", "#8e5b93", "#b84a70", "#80624e"),
)

DARK = Colours(
    dark=True,
    window="#1e1f22",
    window_text="#e3e5e8",
    base="#17181a",
    alternate_base="#222327",
    text="#e3e5e8",
    button="#2e3035",
    button_text="#e3e5e8",
    highlight="#2f5fd0",
    highlighted_text="#ffffff",
    focus_ring="#5b8def",
    link="#8ab4f8",
    placeholder="#979ca3",
    tooltip_base="#2b2d31",
    tooltip_text="#e3e5e8",
    disabled_text="#6b7078",
    muted="#a3a8ae",
    error_text="#ff8a80",
    warning_text="#f0b54a",
    user_bubble="#1f3152",
    assistant_bubble="#232428",
    bubble_border="#3a3d42",
    system_bubble="#352d1b",
    outside_bubble="#1b1c1e",
    outside_border="#7d8289",
    code_background="#2a2c31",
    code_syntax=("#d7a6ff", "#9fe0a8", "#a3acb6", "#ffc27a", "#8cc4ff"),
    token_unsure="#5a4a10",
    token_low="#6a2a26",
    probability_bar="#7aa7e0",
    error_notice=NoticeColours("#3d1f1d", "#8a3a34", "#ffb4ab"),
    warning_notice=NoticeColours("#3a2e14", "#8a6a2a", "#f5c77e"),
    info_notice=NoticeColours("#18283f", "#3d5f8f", "#a8c8fa"),
    meter_frame="#b39ddb",
    meter_conversation="#64b5f6",
    meter_reasoning="#4db6ac",
    meter_tools="#ffb74d",
    meter_tool_results="#aed581",
    meter_reserve="#4f88b8",
    meter_free="#2c2e33",
    meter_error="#ef5350",
    zone_fits="#5cc08a",
    zone_tight="#f0b54a",
    zone_wont_fit="#ff6f61",
    memory_app="#6f9be8",
    memory_others="#9a9a9a",
    memory_free="#33363b",
    memory_outline="#8a8f96",
    fit_gpu="#6fcf8f",
    fit_partial="#f0b54a",
    fit_ram="#8ab4f8",
    fit_none="#ff8a80",
    prompt_token_a="#1f3152",
    prompt_token_b="#352d1b",
    special_background="#4a1f1d",
    special_text="#ffb4ab",
    series=("#6f9be8", "#f28e2b", "#6fbf5f", "#e8716b", "#76b7b2", "#edc948", "#c08fc0", "#ff9da7", "#b8957c"),
)

COLOUR_FIELDS = tuple(f.name for f in fields(Colours) if f.name != "dark")


class ThemeNotifier(QObject):
    """Tells the widgets that style themselves that the colours changed."""

    changed = Signal()


_notifier: ThemeNotifier | None = None
_active: Colours | None = None
_chosen: Theme = Theme.SYSTEM
_following_system = False


def notifier() -> ThemeNotifier:
    global _notifier
    if _notifier is None:
        _notifier = ThemeNotifier()
    return _notifier


def colours() -> Colours:
    """The colours in use: the applied theme's, or before one is applied the set matching the palette."""
    if _active is not None:
        return _active
    app = QGuiApplication.instance()
    if isinstance(app, QGuiApplication) and QGuiApplication.palette().window().color().lightness() < 128:
        return DARK
    return LIGHT


def colours_for(theme: Theme) -> Colours:
    """LIGHT or DARK; SYSTEM resolved from the OS colour scheme (light when the OS does not say)."""
    if theme is Theme.SYSTEM:
        app = QGuiApplication.instance()
        scheme = QGuiApplication.styleHints().colorScheme() if app is not None else Qt.ColorScheme.Unknown
        return DARK if scheme == Qt.ColorScheme.Dark else LIGHT
    return DARK if theme is Theme.DARK else LIGHT


def apply_theme(app: QApplication, theme: Theme) -> Colours:
    """Install `theme` on the application (palette and the app's own colours); SYSTEM then follows the OS live."""
    global _active, _chosen, _following_system
    follow = theme is Theme.SYSTEM
    if follow != _following_system:
        if follow:
            app.styleHints().colorSchemeChanged.connect(_follow_system)
        else:
            app.styleHints().colorSchemeChanged.disconnect(_follow_system)
        _following_system = follow
    _chosen = theme
    _active = colours_for(theme)
    if not isinstance(app.style(), OutlinedChecks):  # Fusion: the native styles ignore a custom palette in places
        app.setStyle(OutlinedChecks(lambda: QColor(colours().muted)))  # (Windows' most of all)
    app.setPalette(_active.palette())
    app.setStyleSheet(focus_ring_style(_active))
    notifier().changed.emit()
    return _active


FOCUS_RING_PX = 2
# Fusion marks focus on line edits, combo and spin boxes, buttons, check boxes, sliders and tabs, but not
# on the scrolling views (text views, lists, trees, tables, the chat): those get a ring of their own.
FOCUS_RING_WIDGETS = ("QPlainTextEdit", "QTextEdit", "QAbstractItemView", "ChatView")


def focus_ring_style(c: Colours) -> str:
    """A highlight-coloured ring on the focused scrolling view; the same width in the frame's colour otherwise."""
    quiet = ", ".join(FOCUS_RING_WIDGETS)
    focused = ", ".join(f"{name}:focus" for name in FOCUS_RING_WIDGETS)
    return (
        f"{quiet} {{ border: 1px solid {c.bubble_border}; padding: {FOCUS_RING_PX - 1}px; }}"
        f"{focused} {{ border: {FOCUS_RING_PX}px solid {c.focus_ring}; padding: 0px; }}"
        f"ChatView {{ border-color: transparent; }}"
        f"ChatView:focus {{ border-color: {c.focus_ring}; }}"
        # a message's text inside its card: selectable with the mouse, never a Tab stop, no frame of its own
        f"InertTextView, InertTextView:focus {{ border: none; padding: 0px; }}"
    )


def _follow_system(_scheme: Qt.ColorScheme) -> None:
    app = QApplication.instance()
    if isinstance(app, QApplication) and _chosen is Theme.SYSTEM:
        apply_theme(app, Theme.SYSTEM)


class _StyleKeeper(QObject):
    """A child of the styled widget: it restyles the widget on each theme change and dies with it."""

    def __init__(self, widget: QWidget, build: Callable[[Colours], str]) -> None:
        super().__init__(widget)
        self.setObjectName("theme-style-keeper")
        self._widget = widget
        self._build = build
        notifier().changed.connect(self.restyle)
        self.restyle()

    def restyle(self) -> None:
        self._widget.setStyleSheet(self._build(colours()))


def keep_styled(widget: QWidget, build: Callable[[Colours], str]) -> None:
    """Give `widget` the style sheet `build(colours())`, now and after every theme change."""
    for keeper in widget.findChildren(_StyleKeeper, "theme-style-keeper", Qt.FindChildOption.FindDirectChildrenOnly):
        notifier().changed.disconnect(keeper.restyle)
        keeper.setParent(None)
        keeper.deleteLater()
    _StyleKeeper(widget, build)


class Tone(StrEnum):
    """How a secondary line of text reads: a note, an error or a warning (small), or a bubble's header."""

    NOTE = "muted"
    ERROR = "error_text"
    WARNING = "warning_text"
    HEADER = "header"


def set_tone(label: QWidget, tone: Tone, small: bool = True) -> None:
    """Colour `label` for its tone (following the theme) and size it relative to the user's font."""
    if tone is Tone.HEADER:
        keep_styled(label, lambda c: f"color: {c.muted}; font-weight: 600;")
        return
    keep_styled(label, lambda c: f"color: {getattr(c, tone.value)};")
    if small:  # from the application's font for this kind of widget, so restyling never shrinks it twice
        label.setFont(relative_font(QApplication.font(label), SMALL_TEXT))


def relative_font(font: QFont, factor: float) -> QFont:
    """`font` scaled by `factor`, whether its size is in points or pixels."""
    scaled = QFont(font)
    if font.pointSizeF() > 0:
        scaled.setPointSizeF(font.pointSizeF() * factor)
    elif font.pixelSize() > 0:
        scaled.setPixelSize(max(1, round(font.pixelSize() * factor)))
    return scaled
