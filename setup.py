"""Build script for the parts ``pyproject.toml`` cannot declare: the games' compiled encoders.

Every ``envs/<game>/_cencode.c`` becomes the extension module ``envs.<game>._cencode``. They are
optional: where no C compiler is found, the install goes on and the Python encoders (the
reference, with the same results) are used.
"""

from pathlib import Path

from setuptools import Extension, setup

HEADER = "envs/common/cencode.h"

setup(
    ext_modules=[
        Extension(
            f"envs.{source.parent.name}._cencode",
            [source.as_posix()],
            depends=[HEADER],
            optional=True,
        )
        for source in sorted(Path("envs").glob("*/_cencode.c"))
    ]
)
