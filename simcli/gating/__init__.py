"""Statistical pass/fail gates: the SPRT of ``simcli gate`` and config assertions."""
