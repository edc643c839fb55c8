"""No 500 from bad input: schemathesis drives every endpoint of the app's OpenAPI spec with generated requests."""

from __future__ import annotations

import tempfile

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from coliseo.web.app import create_app

app = create_app(f"sqlite:///{tempfile.mkdtemp(prefix='coliseo-schema-')}/web.db")
schema = schemathesis.openapi.from_asgi("/openapi.json", app)


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_request_makes_the_server_fail(case):
    response = case.call()
    case.validate_response(response, checks=[not_a_server_error])
    assert response.status_code < 500
