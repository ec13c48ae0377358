"""The four games' rules, one subpackage each, behind the protocol in :mod:`.base`."""
