"""``python -m simcli``: the same as the ``simcli`` command."""

from simcli.cli.main import main

main()
