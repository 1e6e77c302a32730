"""The wheel carries the compiled dataset: building the package compiles it
from this tree's evidence (data/, expected/, cases/) into the package, so an
installed cuda-atlas answers with no checkout. Everything else is in
pyproject.toml."""
import os
import sys

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


class build_py_with_dataset(build_py):
    def run(self):
        super().run()
        sys.path.insert(0, HERE)
        from cuda_error_atlas import dataset
        if not dataset.in_checkout(HERE):
            raise SystemExit("cuda-error-atlas: building the package needs the evidence (cases/, expected/, data/) "
                             "beside it: build from a checkout")
        out = os.path.join(self.build_lib, "cuda_error_atlas", "atlas.sqlite")
        dataset.build(HERE, out)


setup(cmdclass={"build_py": build_py_with_dataset})
