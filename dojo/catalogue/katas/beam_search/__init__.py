"""The kata beam_search: its catalogue entry, compare battery and demonstrations."""
