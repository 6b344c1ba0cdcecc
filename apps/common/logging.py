"""Logging filters (config LOGGING)."""

from __future__ import annotations

import logging


class ClientErrorWithoutTraceback(logging.Filter):
    """A refused request (4xx) is logged as one line, without a traceback.

    Django logs a ``PermissionDenied`` (403) or a ``SuspiciousOperation`` (400) with the
    exception's full traceback, as if it were a fault: the log fills with stacks for
    every refusal and real errors drown. The record is kept, the traceback dropped;
    5xx records keep theirs.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if isinstance(status, int) and status < 500:
            record.exc_info = None
            record.exc_text = None
        return True


class OutageLoggedOnce(logging.Filter):
    """Django's line for each 503 is dropped: the outage behind them is logged once a minute
    by apps/common/outage.py, not once per refused request."""

    def filter(self, record: logging.LogRecord) -> bool:
        return getattr(record, "status_code", None) != 503
