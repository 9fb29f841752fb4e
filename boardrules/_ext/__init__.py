"""Compiled cores (built from src_ext/boardrules/_ext)."""
