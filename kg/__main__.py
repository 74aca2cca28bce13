"""``python -m kg`` is the ``kg`` command."""

from kg.cli import main

main()
