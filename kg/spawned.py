"""``python -m kg.spawned``: the process :class:`kg.child.Spawned` starts. It reads the pickled step and
arguments on its standard input and writes the pickled outcome on its standard output; what the step
prints goes to standard error, so that nothing it prints mixes with the answer."""

import os
import sys

from kg.child import answer_spawned

if __name__ == "__main__":
    answer = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    with answer:
        answer_spawned(sys.stdin.buffer, answer)
