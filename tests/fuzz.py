"""How many examples the generated tests (hypothesis' properties, schemathesis against the OpenAPI
document) try. `make test` tries the counts each test names; `make fuzz` tries DIGSITE_FUZZ_SCALE
times as many (ten), a run of its own beside make test's ten minutes."""

import os

text = os.environ.get("DIGSITE_FUZZ_SCALE", "").strip() or "1"
if not (text.isascii() and text.isdigit()) or int(text) < 1:
    raise ValueError(f"DIGSITE_FUZZ_SCALE is how many times make test's examples to try, a "
                     f"whole number above 0, not {text!r}")
SCALE = int(text)


def examples(count: int) -> int:
    """`count` examples as make test tries them, scaled for a fuzzing run."""
    return count * SCALE
