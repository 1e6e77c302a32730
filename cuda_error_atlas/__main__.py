"""python3 -m cuda_error_atlas: the same as the cuda-atlas command."""
import sys

from .cli import main

sys.exit(main())
