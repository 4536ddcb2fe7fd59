# Change first: this stands for the code every storage backend is called through; cite your own instead.
"""The error every storage backend raises, and the client callers hold."""


class CallError(Exception):
    """A failed call; `retryable` says whether the caller may repeat it."""

    def __init__(self, message, retryable=False, details=None):
        super().__init__(message)
        self.retryable = retryable
        self.details = details or {}


class Client:
    """What callers hold: one storage backend behind it."""

    def __init__(self, backend):
        self.backend = backend

    def call(self, request, timeout):
        return self.backend.call(request, timeout)
