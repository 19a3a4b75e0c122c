"""`python -m ascasm.cli` (as `python -m ascasm`)."""
import sys

from . import main

sys.exit(main())
