import sys

from josefk.cli.main import main

sys.exit(main())
