"""What every error answer must look like (API.md "Errors", RFC 9457), and rulebook scoresheets
shared by the HTTP tests."""

from typing import Any

from service.errors import KINDS

PROBLEM_JSON = "application/problem+json"
BOWLS = ["green", "yellow", "purple", "blue", "red"]

JOSEPH = {"name": "Joseph",
          "tiles": {"gold": 3, "incense_burner": 1, "statue": 2, "knife": 1, "scroll": 1,
                    "crystal": 1, "ruby": 1, "diamond": 0, "stone": 3},
          "tokens": 8, "mission": {"id": "jack_of_all_trades", "achieved": True},
          "cards": {"pink_diamond": 1}}
ANN = {"name": "Ann", "dropped": {"green": 2, "yellow": 1, "purple": 3, "blue": 2, "red": 2}}


def score_url(game: str) -> str:
    return f"/api/v1/games/{game}/score"


def assert_problem(response, status: int, field: str | None = None,
                   kind: str | None = None) -> dict[str, Any]:
    """The response is a problem document with `status`, its `type` a kind of that status
    (`kind`, its slug, when given); for 422, `field` is named in `errors`."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == PROBLEM_JSON
    body = response.get_json(force=True)
    assert {"type", "title", "status", "detail"} <= set(body)
    assert body["status"] == status
    slug = body["type"].removeprefix("/problems/")
    assert body["type"] == f"/problems/{slug}" and slug in KINDS, body
    assert KINDS[slug].status == status, body
    assert kind is None or slug == kind, body
    assert isinstance(body["title"], str) and body["title"]
    assert isinstance(body["detail"], str) and body["detail"]
    if field is not None:
        assert field in body.get("errors", {}), body
        assert all(isinstance(m, str) and m for m in body["errors"][field])
    return body
