"""marshmallow schemas: what the API accepts and returns, and the OpenAPI document with it.

Each game has a module named after its package under scoring/, exporting the same names:
ScoreRequestSchema, ResultSchema, EXAMPLES (the calculator), GameSchema (its catalogue entry),
StateSchema (a view's `state`) and EVENTS (each event type's schema)."""
