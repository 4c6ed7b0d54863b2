"""Room 1, the bottom: words and the console. The message catalogues (``locale``, with their
TOML files), the language (``lang``), messages as data and their text (``messages``), terminal
cells of Chinese text (``cjk``), lines laid out (``layout``) and printed (``screen``), and the
stdlib-only file reader every room may use (``safe_read``). Imports nothing of the other rooms."""
