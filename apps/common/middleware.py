"""Request-wide middleware: the API's language, and bad input refused before any view.

The REST API speaks English whatever the browser prefers: its sentences are part of a
contract that integrations and tests read. Pages follow the player's language."""

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _

from .errors import ServiceUnavailable
from .input import BadInput, check_pairs, json_loads_checked, text_problem
from .outage import RETRY_AFTER, is_outage, outage_log


class ApiLanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path.startswith("/api/"):
            translation.activate("en")
            request.LANGUAGE_CODE = "en"
        return self.get_response(request)


class BadInputMiddleware:
    """Refuse what no view can store or parse (platform.md §12), before any view runs.

    A NUL byte or a lone surrogate in the path, a query parameter (the admin's ``?q=``
    too), a header or an API form field; a JSON body nested deeper than 32 levels, with
    such text in it or an integer beyond 2**53. The API answers 400 ``validation_error``
    naming the field; pages get a 400 page that names it. Form fields of pages are left
    to their forms, which already refuse NUL with a form error.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            self._check(request)
        except BadInput as exc:
            return self._refuse(request, exc)
        return self.get_response(request)

    @staticmethod
    def _check(request) -> None:
        problem = text_problem(request.path_info)
        if problem:
            raise BadInput("path", problem)
        check_pairs(((k, v) for k, values in request.GET.lists() for v in values))
        check_pairs(((k, v) for k, v in request.META.items() if k.startswith("HTTP_") and isinstance(v, str)),
                    where="header ")
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return
        content_type = request.content_type or ""
        if content_type == "application/json" or content_type.endswith("+json"):
            try:
                body = request.body
            except RequestDataTooBig:
                raise BadInput("body", _("The request body is too large.")) from None
            if body.strip():
                try:
                    text = body.decode(request.encoding or "utf-8")
                except (UnicodeDecodeError, LookupError):
                    raise BadInput("body", _("The body is not valid UTF-8.")) from None
                json_loads_checked(text)
        elif request.path.startswith("/api/") and content_type in (
                "application/x-www-form-urlencoded", "multipart/form-data") and not _large(request):
            check_pairs(((k, v) for k, values in request.POST.lists() for v in values))

    @staticmethod
    def _refuse(request, exc: BadInput):
        fields = {exc.field: [exc.message]}
        if request.path.startswith("/api/"):
            return JsonResponse({"detail": f"Invalid input ({exc.field}: {exc.message})",
                                 "code": "validation_error", "fields": fields}, status=400)
        return render(request, "errors/400.html", {"field": _field_words(exc.field), "message": exc.message},
                      status=400)


def _large(request) -> bool:
    """A body over Django's in-memory size (an upload) is left unread here: the view that takes
    uploads refuses an oversized one by its length before reading it (regulation.md §1.3)."""
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    except ValueError:
        return False


def _field_words(field: str) -> str:
    """Where the bad input was, as a page's reader says it: the API's field keys ("path",
    "header HTTP_X") are part of its contract, a page names the place in its own language;
    a query parameter keeps its own name (it is what the reader typed)."""
    if field == "path":
        return _("the page address")
    if field == "body":
        return _("the request body")
    if field == "parameter name":
        return _("a parameter name")
    if field == "header parameter name":
        return _("a header name")
    if field.startswith("header "):
        name = field.removeprefix("header ").removeprefix("HTTP_").replace("_", "-").title()
        return _("the header %(name)s") % {"name": name}
    return _("the parameter %(name)s") % {"name": field}


class ServiceOutageMiddleware:
    """Redis or the broker unreachable under a view: 503 ``service_unavailable`` (the contract's
    JSON under /api/, a page that says so elsewhere) instead of a 500 with a traceback, and
    one log line a minute while it lasts (apps/common/outage.py)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not is_outage(exception):
            return None
        outage_log(exception, where=request.path)
        error = ServiceUnavailable()
        if request.path.startswith("/api/"):
            response = JsonResponse(error.as_dict(), status=error.status)
        else:
            response = render(request, "errors/503.html", status=error.status)
        response["Retry-After"] = str(RETRY_AFTER)
        return response
