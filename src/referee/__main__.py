"""``python -m referee``: the ``referee`` command (the same entry point as the script)."""

from referee.cli.dice import main

if __name__ == "__main__":
    main()
