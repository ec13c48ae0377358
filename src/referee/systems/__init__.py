"""The four games' rules, one subpackage each, behind the protocol in :mod:`.base`."""

SYSTEMS: dict[str, str] = {
    "mnemonic": "referee.systems.mnemonic",
    "mongrel": "referee.systems.mongrel",
    "mneme": "referee.systems.mneme",
    "arm": "referee.systems.arm",
}
"""Game name -> the package that implements it (imported on first use). Kept here, not in
:mod:`.base`, so the command line can name the games without importing the contract."""
