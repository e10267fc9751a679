"""marshmallow schemas: what the API accepts and returns, and the OpenAPI document with it."""
