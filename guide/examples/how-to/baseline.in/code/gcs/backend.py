# Change first: this stands for the gcs storage backend's code; cite your own files in its claims.
from client import CallError


class Backend:
    # r[impl call.errors]
    def call(self, request, timeout):
        if request.get("fail"):
            raise CallError("the call failed", retryable=True)
        return {"ok": True}
