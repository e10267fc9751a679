"""Dig It Up: treasure tiles, set and bundle bonuses, money in ₩."""
