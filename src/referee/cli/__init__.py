"""The ``referee`` command line: click commands, plain-text tables, ``--json`` everywhere."""
