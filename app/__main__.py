"""`python -m app` starts Glassbox (GUI by default; see `app.main`)."""

import sys

from app.main import main

# Guarded: the engine child process (multiprocessing's spawn) imports this module as
# `__mp_main__`, and must not start a second Glassbox.
if __name__ == "__main__":
    sys.exit(main())
