"""The ``referee`` command line: Typer commands, Rich output, ``--json`` everywhere."""
