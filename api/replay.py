"""A finished match's past versions over HTTP (README "Replaying a finished match", an
operation API.md does not list yet): the view as it was at any version, for a replay drawn move
by move; the match service rebuilds it (service/replay.py)."""

from flask.views import MethodView

from service import match_service as service
from service.errors import GONE, MATCH_NOT_OVER, NOT_FOUND, UNAUTHORIZED
from service.replay import past_view

from .blueprint import Blueprint
from .headers import OPTIONAL_TOKEN, VIEW_HEADERS, bearer_token
from .match_examples import EXAMPLES
from .schemas.matches import ViewSchema

blp = Blueprint("replay", __name__, url_prefix="/api/v1",
                description="A finished match as it was at each of its versions")

# A past version never changes: a browser keeps it for the replay's steps back and forth, for the
# caller alone (a seat's view holds its secrets).
KEPT = {"Vary": "Authorization", "Cache-Control": "private, max-age=86400"}


@blp.route("/matches/<string:match_id>/views/<int:version>")
class PastView(MethodView):
    init_every_request = False

    @blp.doc(operationId="getPastView", security=OPTIONAL_TOKEN)
    @blp.refuses(UNAUTHORIZED, NOT_FOUND, MATCH_NOT_OVER, GONE)
    @blp.response(200, ViewSchema, examples=EXAMPLES["view"],
                  headers={"Vary": VIEW_HEADERS["Vary"]})
    def get(self, match_id, version):
        """A finished match as it was at a version (with a seat's token, as that seat saw it)

        The view of the match at `version` (1 up to the last), rebuilt from its seed and its
        log: the spectator's without a token, a seat's with its token, holding what that view
        held then. Nothing can be done in it: `legal_actions` is empty and `clock` null. 409
        while the match is still being played, 404 for a version it never had."""
        return past_view(service(), match_id, bearer_token(), version), KEPT
