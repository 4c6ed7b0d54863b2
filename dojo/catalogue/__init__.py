"""Room 2: what there is to practise and where it lives. The katas (``registry``, from each
kata's folder, ``katas/<module>/``), their stubs (``stubs``), the named tolerances (``tolerances``), ``dojo
compare``'s inputs (``batteries``), the live demonstrations (``demos``) and the ``Env`` that
finds the checkout, its files and the terminal (``env``). Imports only ``dojo.text``."""
