"""Packaging hook (the metadata is in pyproject.toml): a built wheel carries the top-level
firmware/ and rp2040-image/ (and docs/rules/, which `knockboard rules` reads) as package data, knockboard/_data/<folder>, where
knockboard.resources finds them. The folders stay at the top of the repository, where the
firmware and the image are made; an editable install reads them there instead."""

import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

# the folders, and what in them is not part of the program
DATA_FOLDERS = ("firmware", "rp2040-image", "docs/rules")
NOT_DATA = shutil.ignore_patterns("__pycache__", "*.pyc")


class BuildWithData(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return              # knockboard.resources reads the checkout's own folders
        for name in DATA_FOLDERS:
            target = os.path.join(self.build_lib, "knockboard", "_data", name)
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(name, target, ignore=NOT_DATA)


setup(cmdclass={"build_py": BuildWithData})
