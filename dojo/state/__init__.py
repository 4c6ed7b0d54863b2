"""Room 5: what the tool keeps. ``state.json`` (``state``), ``history.jsonl`` (``history``) and the
re-drill schedule worked out from it (``schedule``); formats in docs/state.md. Imports only the
rooms below it."""
