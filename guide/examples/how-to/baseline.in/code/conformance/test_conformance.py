# Change first: your own tests, each citing the rule it verifies in a comment above it.
"""What every storage backend must pass, one case per storage backend (run with `pytest code`)."""

import importlib.util
import pathlib
import sys

import pytest

CODE = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(CODE / "shared"))
from client import CallError, Client  # noqa: E402

IMPLEMENTATIONS = ["s3", "gcs"]


def client_of(name):
    spec = importlib.util.spec_from_file_location(name, CODE / name / "backend.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return Client(module.Backend())


# r[verify call.errors]
@pytest.mark.parametrize("name", IMPLEMENTATIONS)
def test_a_failed_call_raises_call_error(name):
    with pytest.raises(CallError):
        client_of(name).call({"fail": True}, timeout=1.0)


# r[verify call.timeout]
@pytest.mark.parametrize("name", IMPLEMENTATIONS)
def test_a_call_returns_within_its_timeout(name):
    assert client_of(name).call({}, timeout=1.0) is not None
