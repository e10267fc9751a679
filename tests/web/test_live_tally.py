"""A live shared tally on the page (README "A live shared tally"): one phone enters and shares,
another follows from the link, read-only, and sees the server's totals as the counts change; the
QR code of the link is drawn by the server."""

import re

import pytest

FOLLOW_URL = "http://192.168.1.20:8000/follow/0123456789abcdef0123456789abcdef"


def test_the_qr_code_of_a_link_is_an_svg_kept_a_day(client):
    response = client.get("/qr.svg", query_string={"text": FOLLOW_URL})
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    assert response.headers["Cache-Control"] in ("public, max-age=86400", "max-age=86400, public")
    svg = response.get_data(as_text=True)
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert re.search(r'viewBox="0 0 (\d+) \1"', svg), "square, and scaled to its box"
    assert "follow" not in svg, "the text is drawn, never written into the document"


@pytest.mark.parametrize("query", [{}, {"text": ""}, {"text": "x" * 513}])
def test_a_qr_code_of_no_text_or_too_long_a_text_is_refused(client, query):
    response = client.get("/qr.svg", query_string=query)
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"
    assert "text" in response.get_json()["errors"]


def test_a_follow_link_opens_the_page(client):
    response = client.get("/follow/0123456789abcdef0123456789abcdef")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    assert response.get_data(as_text=True) == client.get("/").get_data(as_text=True)
