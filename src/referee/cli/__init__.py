"""The ``referee`` command line: click commands, Rich output, ``--json`` everywhere."""
