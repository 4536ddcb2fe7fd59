# Change first: this stands for the gcs storage backend's code; cite your own files in its claims.
from client import CallError


class Backend:
    # r[impl call.errors]
    def call(self, request, timeout):
        # Broken on purpose: a failed call is answered as if it succeeded.
        return {"ok": not request.get("fail")}
