from django.conf import settings


def regulation(request) -> dict:
    """What every page's footer shows (regulation.md §4.3): the ADM concession code."""
    return {"adm_concession_code": getattr(settings, "ADM_CONCESSION_CODE", "")}
