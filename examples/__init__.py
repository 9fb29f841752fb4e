"""Examples of boardrules in use (not part of the installed package)."""
