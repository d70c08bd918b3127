"""Images attached to the message being written: a row of thumbnail chips above the composer.

An image comes from the paperclip button, a drop or a paste (the composer hands those on). Each is
read and prepared at once, off the GUI thread (image_preparing.py; app/core/chat/images.py: checked,
scaled down, kept as a PNG named by its hash), so a damaged or too big picture is refused in one line
under the chips, what was attached before, like the text typed, stays, and the window never waits
for a big picture. The tray owns the list until the window takes it with the message (`take`); a
file it prepared and that was never sent (taken off, or left when the window closed) is deleted.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QImage, QPixmap
from PySide6.QtWidgets import QFileDialog, QFrame, QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from app.core.chat.images import PreparedImage, discard_unsent
from app.core.support.formatting import fill
from app.core.types.errors import images_need_vision
from app.core.types.load import LoadReport
from app.ui import message
from app.ui.chat.image_preparing import ImagePreparer, ImageSource, Prepared
from app.ui.threads import WorkerThread
from app.ui.widgets.core_text import word
from app.ui.widgets.error_banner import NoticeAction
from app.ui.widgets.icons import set_icon

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".gif", ".bmp")
THUMBNAIL_SIDE = 48  # pixels of a chip's picture


def is_image_name(path: Path) -> bool:
    """Whether a file looks like an image a chat takes (its content is checked when it is attached)."""
    return path.suffix.lower() in IMAGE_SUFFIXES


def thumbnail(path: Path, side: int = THUMBNAIL_SIDE) -> QPixmap:
    """The picture at `path` fitted into a `side`-pixel square (an empty pixmap when it cannot be read)."""
    picture = QPixmap(str(path))
    if picture.isNull():
        return picture
    return picture.scaled(side, side, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation)


def images_refusal(report: LoadReport | None, seeing: Sequence[str] = ()) -> str | None:
    """Why the loaded model cannot take images, with the library's models that can (`seeing`), said before
    anything runs; None when it may.

    A local model sees through its projector; a model on a server is asked (the server answers)."""
    if report is None or report.server or report.config.mmproj is not None:
        return None
    return images_need_vision(seeing)


class ImageChip(QFrame):
    """One attached image: its thumbnail and a × that takes it off again."""

    removeRequested = Signal(object)  # Path

    def __init__(self, path: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.path = path
        self.setFrameShape(QFrame.Shape.StyledPanel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.setSpacing(2)
        self.picture = QLabel(self)
        self.picture.setPixmap(thumbnail(path))
        self.picture.setToolTip(path.name)
        self.remove_button = QToolButton(self)
        self.remove_button.setText("×")
        self.remove_button.setAutoRaise(True)
        self.remove_button.setToolTip(self.tr("Remove this image"))
        self.remove_button.setAccessibleName(self.tr("Remove image"))
        self.remove_button.clicked.connect(lambda: self.removeRequested.emit(self.path))
        layout.addWidget(self.picture)
        layout.addWidget(self.remove_button, 0, Qt.AlignmentFlag.AlignTop)


class AttachmentTray(QWidget):
    """The images attached to the next message, and the last refusal; hidden while it has neither and reads none."""

    changed = Signal()  # an image was attached or taken off
    settled = Signal()  # the images dropped, pasted or chosen were read: each attached or refused
    switchRequested = Signal(object)  # Path of a library model that can see, to load instead of one that cannot

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._images: list[PreparedImage] = []
        self._reading = 0  # batches of images the preparer has not answered yet
        self._preparer: WorkerThread | None = None  # started with the first image; see image_preparing.py
        self._seeing: list[tuple[str, Path]] = []  # (name, path) of the library's models that can see
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self._chips = QHBoxLayout()
        self._chips.setContentsMargins(0, 0, 0, 0)
        self._chips.addStretch(1)
        layout.addLayout(self._chips)
        self.refusal = QLabel(self)
        self.refusal.setWordWrap(True)
        self.refusal.hide()
        layout.addWidget(self.refusal)
        self.reading = QLabel(self.tr("Reading the image…"), self)
        self.reading.hide()
        layout.addWidget(self.reading)
        self.attach_button = QToolButton(parent)
        set_icon(self.attach_button, "attach")
        self.attach_button.setToolTip(self.tr("Attach images (PNG, JPEG, WebP, GIF, BMP)"))
        self.attach_button.setAccessibleName(self.tr("Attach images"))
        self.attach_button.clicked.connect(self.choose_files)
        self.hide()

    @property
    def images(self) -> tuple[Path, ...]:
        """The prepared images, in the order they were attached."""
        return tuple(image.path for image in self._images)

    @property
    def is_reading(self) -> bool:
        """Images dropped, pasted or chosen are still being read."""
        return self._reading > 0

    def sendable(self, report: LoadReport | None) -> bool:
        """Whether the images may go to the model `report` loaded; if not, says why (nothing is taken).

        An image whose prepared file is gone meanwhile (deleted with the last chat that showed it) is
        taken off and said, so the user can attach it again before sending."""
        if self.is_reading:
            self._show_refusal([self.tr("The images are still being read; send once they are attached.")])
            return False
        gone = [path for path in self.images if not path.exists()]
        for path in gone:
            self.remove(path)
        if gone:
            self._show_refusal([self.tr("An attached image was deleted meanwhile; attach it again.")] * len(gone))
            return False
        refusal = images_refusal(report, [name for name, _ in self._seeing]) if self._images else None
        if refusal:
            message.error(refusal, self._switch_action(report))  # the banner shows it in the reader's language
        return refusal is None

    def set_seeing_models(self, models: Sequence[tuple[str, Path]]) -> None:
        """The library's models that can see, (name, path) each: offered when the loaded model cannot."""
        self._seeing = list(models)

    def _switch_action(self, report: LoadReport | None) -> NoticeAction | None:
        """A button that loads the first model of the library that can see (the loaded one again, with its
        projector, when the library has paired one with it since it loaded)."""
        if not self._seeing:
            return None
        name, path = self._seeing[0]
        if report is not None and Path(report.config.model_path) == path:
            label = fill(self.tr("Load {name} again with its projector"), name=name)
        else:
            label = fill(self.tr("Switch to {name}"), name=name)
        return NoticeAction(label, lambda: self.switchRequested.emit(path))

    def take(self) -> tuple[Path, ...]:
        """The images, for the message being sent (their files are the message's now); the tray is empty again."""
        images = self.images
        self._images = [replace(image, created=False) for image in self._images]  # sent: the message shows them
        self.clear()
        return images

    def choose_files(self) -> None:
        names, _ = QFileDialog.getOpenFileNames(
            self,
            self.tr("Attach images"),
            "",
            fill(self.tr("Images ({patterns})"), patterns=" ".join(f"*{suffix}" for suffix in IMAGE_SUFFIXES)),
        )
        self.add_files(Path(name) for name in names)

    def add_files(self, paths: Iterable[Path]) -> None:
        """Attach image files (read off the GUI thread); the first refused one is said, the others are attached."""
        self._read([ImageSource(path.name, path=path) for path in paths])

    def add_picture(self, picture: QImage, name: str) -> None:
        """Attach a picture held in memory (pasted from the clipboard, or dropped from another program)."""
        self._read([ImageSource(name, picture=picture)])

    def remove(self, path: Path) -> None:
        """Take an image off the message; its file goes too when the tray wrote it (no message shows it)."""
        index = next((i for i, image in enumerate(self._images) if image.path == path), None)
        if index is None:
            return
        discard_unsent(self._images.pop(index))
        item = self._chips.takeAt(index)
        if item is not None and (chip := item.widget()) is not None:
            chip.deleteLater()
        self._show_refusal([])
        self.changed.emit()

    def clear(self) -> None:
        """Take every image off (files the tray wrote and never sent are deleted)."""
        for path in self.images:
            self.remove(path)

    # ---- the preparer's thread ---------------------------------------------------------

    def request_stop(self) -> None:
        """At exit: a batch being read ends after its image (never waits)."""
        if self._preparer is not None:
            self._preparer.request_stop()

    def threads(self) -> list[WorkerThread]:
        return [self._preparer] if self._preparer is not None else []

    def shutdown(self) -> None:
        """Once the thread has ended: what was attached and never sent leaves no file behind."""
        for thread in self.threads():
            thread.request_stop()
            thread.wait()
        self.clear()

    def _read(self, sources: list[ImageSource]) -> None:
        if not sources:
            return
        if self._preparer is None:
            worker = ImagePreparer()
            worker.prepared.connect(self._on_prepared)
            self._preparer = WorkerThread(worker, "attach-images", flags=(worker.closing,))
            self._preparer.start()
        self._reading += 1
        self.reading.show()
        self.show()
        preparer = self._preparer.worker
        assert isinstance(preparer, ImagePreparer)
        preparer.prepareRequested.emit(sources)

    @Slot(object)
    def _on_prepared(self, answers: list[Prepared]) -> None:
        self._reading -= 1
        self.reading.setVisible(self.is_reading)
        refusals = []
        for answer in answers:
            if isinstance(answer, PreparedImage):
                self._add(answer)
            else:
                refusals.append(word(answer))
        self._show_refusal(refusals)
        self.settled.emit()

    def _add(self, image: PreparedImage) -> None:
        if image.path in self.images:  # the same picture twice is one image
            return
        chip = ImageChip(image.path, self)
        chip.removeRequested.connect(self.remove)
        self._chips.insertWidget(len(self._images), chip)
        self._images.append(image)
        self.changed.emit()

    def _show_refusal(self, refusals: list[str]) -> None:
        """One line: the first refusal (and how many more), or nothing."""
        if len(refusals) > 1:
            text = fill(self.tr("{refusal} ({more} more images refused)"), refusal=refusals[0], more=len(refusals) - 1)
        else:
            text = refusals[0] if refusals else ""
        self.refusal.setText(text)
        self.refusal.setVisible(bool(text))
        self.setVisible(bool(text or self._images or self.is_reading))
