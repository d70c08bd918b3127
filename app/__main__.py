"""`python -m app` starts Glassbox (GUI by default; see `app.main`)."""

import sys

from app.main import main

sys.exit(main())
