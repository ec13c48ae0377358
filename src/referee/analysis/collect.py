"""The cyclic garbage collector held off while an exact chain is built and solved.

Exploring a chain makes hundreds of thousands of small tuples (state keys, edges,
fractions) that all live until the answer is given, and none of them in a cycle:
reference counting frees what dies. The collector would still walk every one of them
again and again as they pile up (about a tenth of a chain's CPU, measured in
``bench/NOTES.md``), so :func:`paused` turns it off for the block and back on after,
if it was on. Nested blocks, and blocks in other threads, leave it as the outermost
one found it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """Run the block with the cyclic collector off (back on after, if it was on)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
