"""The application layer: what a command does, as functions a program can call.

:func:`simcli.run`, :func:`simcli.gate`, :func:`simcli.play` and :func:`simcli.balance` are
these functions; the ``simcli`` commands parse their arguments, call them and print."""
