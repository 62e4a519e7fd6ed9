import sys

from josefk.main import main

sys.exit(main())
