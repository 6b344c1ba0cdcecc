"""The REST API speaks English whatever the browser prefers: its sentences are part of a
contract that integrations and tests read. Pages follow the player's language."""

from django.utils import translation


class ApiLanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path.startswith("/api/"):
            translation.activate("en")
            request.LANGUAGE_CODE = "en"
        return self.get_response(request)
