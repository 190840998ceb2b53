"""What every window package draws with: the theme's palette and colours, the language, icons,
and numbers, money, sizes and times as the user's locale writes them.

Imports nothing else from ``ui``; every other package may import it.
"""
