"""Room 6: a verdict and a comparison as people (and exercism) read them. Terminal lines
(``render``), attention maps (``heatmap``, ``figure``) and ``dojo test --json`` (``results``).
Imports only the rooms below it."""
