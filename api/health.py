"""GET /healthz for load balancers and the container's health check."""

import marshmallow as ma
from flask.views import MethodView

from .blueprint import Blueprint

blp = Blueprint("health", __name__, description="Liveness for load balancers")


class HealthSchema(ma.Schema):
    status = ma.fields.String(metadata={"example": "ok"})


@blp.route("/healthz")
class Health(MethodView):
    @blp.response(200, HealthSchema)
    def get(self):
        """The app can serve"""
        return {"status": "ok"}
