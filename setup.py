"""Build hook: a wheel carries templates/ and static/ inside the package.

In a checkout they sit beside the package (the app factory finds them there).
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


class BuildWithAssets(build_py):
    """Copy the templates and static files into the built package."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        for folder in ("templates", "static"):
            target = Path(self.build_lib) / "scorekeeper" / folder
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(HERE / folder, target)


setup(cmdclass={"build_py": BuildWithAssets})
