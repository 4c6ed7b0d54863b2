"""A kata's own tool test uses the tool tests' fixtures (sandbox, box, wrong, solution, English)."""

from tests.tool.conftest import box, in_english, sandbox, solution, wrong  # noqa: F401
