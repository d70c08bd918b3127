"""`glassbox` / `glassbox gui`: the desktop window."""

from __future__ import annotations

import argparse
from pathlib import Path

from app.cli.common import fail
from app.core.models.validation import ModelFileError, check_model_file


def configure(parser: argparse.ArgumentParser) -> None:
    """The command's options and its handler, on the parser app.main made for it."""
    parser.add_argument(
        "--model",
        help="open with this .gguf file loaded (one not in the library is added to it in place, as Open file… does)",
    )
    parser.add_argument("--screenshot", help="save a screenshot of the window to this PNG file, then quit")
    parser.add_argument("--prompt", help="send this message when the model has loaded (for demos and smoke tests)")
    parser.add_argument("--quit-after-reply", action="store_true", help="close the window after the first reply")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.model:
        try:  # a file that cannot be a model is refused here, before any window: never another model instead
            check_model_file(Path(args.model))
        except ModelFileError as error:
            return fail(str(error))
    from app.ui.shell.application import run_gui

    return run_gui(args)
