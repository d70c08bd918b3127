"""Entry point of the frozen app (PyInstaller runs this file as `__main__`)."""

import multiprocessing
import sys

# The engine runs in a child process started with multiprocessing's spawn: in the bundle
# that child is this executable again, and freeze_support() turns it into the engine host
# (it returns at once in the window's own process).
multiprocessing.freeze_support()

if sys.platform == "win32":
    # llama.cpp's DLLs must be loaded before Qt's on Windows, or loading a model can fail with
    # "access violation reading 0x0000000000000000" (abetlen/llama-cpp-python#1903, #2029).
    import llama_cpp  # noqa: F401

from app.main import main  # noqa: E402  (after freeze_support, as its documentation asks)

sys.exit(main())
