"""Collection settings for the whole tree (the tests' own configuration is in
``tests/conftest.py``).

The learning environments need their optional extras: without them their modules
do not import, so the doctest run (``--doctest-modules`` over ``byzantium/``) leaves
them out rather than report an import error.
"""

from __future__ import annotations

import importlib.util

collect_ignore: list[str] = []
if importlib.util.find_spec("pettingzoo") is None:
    collect_ignore.append("byzantium/envs/pettingzoo_env.py")
if importlib.util.find_spec("gymnasium") is None:
    collect_ignore += ["byzantium/envs/gymnasium_env.py", "examples/masked_random.py"]
if importlib.util.find_spec("starlette") is None:  # the server extra
    collect_ignore += ["byzantium/server/app.py", "tests/server"]
