"""The back office's links for the admin index, by role (a page a role cannot open is not shown)."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.translation import gettext as _

from apps.common.roles import COMPLIANCE, FINANCE, OPERATOR, has_role

register = template.Library()


@register.simple_tag(takes_context=True)
def backoffice_links(context) -> list[tuple[str, str]]:
    user = context["request"].user
    links = []
    if has_role(user, OPERATOR, FINANCE):
        links.append((reverse("backoffice:dashboard"), _("Dashboard")))
    if has_role(user, OPERATOR):
        links.append((reverse("backoffice:tables"), _("Live tables")))
    if has_role(user, FINANCE):
        links.append((reverse("backoffice:reconciliation"), _("Daily reconciliation")))
    if has_role(user, FINANCE, COMPLIANCE):
        links.append((reverse("backoffice:ledger"), _("Ledger")))
    if has_role(user, FINANCE):
        links.append((reverse("backoffice:exports"), _("Exports")))
    if has_role(user, FINANCE, COMPLIANCE):
        links.append((reverse("backoffice:withdrawals"), _("Withdrawals")))
    if has_role(user, COMPLIANCE):
        links.append((reverse("backoffice:aml"), _("Anti-money-laundering")))
    if has_role(user, OPERATOR, FINANCE, COMPLIANCE):
        links.append((reverse("backoffice:adm"), _("ADM central system")))
    return links
