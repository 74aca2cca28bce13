"""``python -m kg`` is the ``kg`` command."""

from kg.cli.main import main

main()
