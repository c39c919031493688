"""Build script for the parts ``pyproject.toml`` cannot declare: the compiled encoders and
search cores.

Every ``envs/<game>/_cencode.c`` becomes the extension module ``envs.<game>._cencode`` (the
observation encoder) and every ``agents/<game>/_csearch.c`` the module
``agents.<game>._csearch`` (the playouts and endgame solver of the game's PIMC). They are
optional: where no C compiler is found, the install goes on and the Python code (the reference,
with the same results) is used.
"""

from pathlib import Path

from setuptools import Extension, setup

HEADER = "envs/common/cencode.h"
SEARCH_HEADER = "agents/csearch.h"

setup(
    ext_modules=[
        *(
            Extension(
                f"envs.{source.parent.name}._cencode",
                [source.as_posix()],
                depends=[HEADER],
                optional=True,
            )
            for source in sorted(Path("envs").glob("*/_cencode.c"))
        ),
        *(
            Extension(
                f"agents.{source.parent.name}._csearch",
                [source.as_posix()],
                depends=[SEARCH_HEADER],
                optional=True,
            )
            for source in sorted(Path("agents").glob("*/_csearch.c"))
        ),
    ]
)
