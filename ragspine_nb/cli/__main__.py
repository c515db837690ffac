"""``python -m ragspine_nb.cli``: the ``ragspine-nb`` command."""

import sys

from ragspine_nb.cli.commands import main

sys.exit(main())
