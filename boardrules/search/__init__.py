"""Bots and move suggestions (the Python front of the search core)."""

from boardrules.search.bots import Bot, GreedyBot, RandomBot

__all__ = ["Bot", "GreedyBot", "RandomBot"]
