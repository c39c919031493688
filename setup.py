"""Build script for the parts ``pyproject.toml`` cannot declare: the compiled encoders and
search cores.

Every ``envs/<game>/_cencode.c`` becomes the extension module ``mazzo.envs.<game>._cencode``
(the observation encoder) and every ``agents/<game>/_csearch.c`` the module
``mazzo.agents.<game>._csearch`` (the playouts and endgame solver of the game's PIMC);
``agents/_csample.c`` becomes ``mazzo.agents._csample`` (the world sampler's draws). The
repository's ``envs/``, ``agents/`` and ``training/`` are the ``mazzo`` package's subpackages
(``mazzo/envs`` and the others are links to them; docs/architecture.md, "One namespace"). The
extensions are optional: where no C compiler is found, the install goes on and the Python code
(the reference, with the same results) is used.
"""

from pathlib import Path

from setuptools import Extension, setup

HEADER = "envs/common/cencode.h"
SEARCH_HEADER = "agents/csearch.h"

# (folder, module name, the header its sources include)
COMPILED = (("envs", "_cencode", HEADER), ("agents", "_csearch", SEARCH_HEADER))

setup(
    ext_modules=[
        Extension(
            f"mazzo.{folder}.{source.parent.name}.{module}",
            [source.as_posix()],
            depends=[header],
            optional=True,
        )
        for folder, module, header in COMPILED
        for source in sorted(Path(folder).glob(f"*/{module}.c"))
    ]
    + [Extension("mazzo.agents._csample", ["agents/_csample.c"], optional=True)]
)
