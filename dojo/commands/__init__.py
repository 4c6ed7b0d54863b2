"""Room 7, the top: the commands. ``cli`` (the parser, ``dojo test``/``watch``/``show``...),
``interview``, ``compare``, ``notebook``, ``drill``, ``clean`` and ``docs`` (``python -m
dojo.commands.docs``). Imports any room below; nothing imports it but ``dojo`` itself."""
