"""Error pages: JSON in the contract's format under /api/, HTML elsewhere."""

from __future__ import annotations

from django.shortcuts import render

from .api import json_error


def api_not_found(request, *args, **kwargs):
    return json_error("Not found.", "not_found", 404)


def handler404(request, exception=None):
    if request.path.startswith("/api/"):
        return json_error("Not found.", "not_found", 404)
    return render(request, "errors/404.html", status=404)


def handler500(request):
    if request.path.startswith("/api/"):
        return json_error("Internal error: the request was not completed.", "server_error", 500)
    return render(request, "errors/500.html", status=500)


def handler403(request, exception=None):
    if request.path.startswith("/api/"):
        return json_error("You do not have permission to do this.", "permission_denied", 403)
    return render(request, "errors/403.html", status=403)


def csrf_failure(request, reason=""):
    if request.path.startswith("/api/"):
        return json_error(f"CSRF check failed: {reason}", "not_authenticated", 403)
    return render(request, "errors/403.html", {"reason": reason}, status=403)
