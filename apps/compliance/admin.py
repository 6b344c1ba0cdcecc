"""Sanctions in the admin: compliance staff (and superusers) may issue one here too; it goes
through the same service as the API and the review pages (validated, audited, freezes
written). Lifting is on the review pages (/compliance/sanctions/), with its reason and decision."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from apps.common.admin import ReadOnlyAdmin
from apps.common.errors import DomainError
from apps.common.net import request_ip
from apps.common.roles import COMPLIANCE, has_role

from .models import DURATION_CHOICES, KIND_CHOICES, Sanction
from .services import sanction_issue


class SanctionIssueForm(forms.ModelForm):
    player = forms.ModelChoiceField(queryset=get_user_model().objects.filter(is_staff=False, is_superuser=False)
                                    .order_by("username"))
    kind = forms.ChoiceField(choices=KIND_CHOICES)
    duration = forms.ChoiceField(choices=DURATION_CHOICES)
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}))
    message_ids = forms.CharField(required=False, label="Messages",
                                  help_text="ids of the chat lines that justify it, separated by spaces or commas")

    class Meta:
        model = Sanction
        fields = ["player", "kind", "duration", "reason", "message_ids"]

    def clean_message_ids(self) -> list[int]:
        raw = (self.cleaned_data.get("message_ids") or "").replace(",", " ").split()
        if not all(part.isdigit() for part in raw):
            raise forms.ValidationError(_("Message ids are integers."))
        return [int(part) for part in raw]

    def issue(self, *, actor, ip: str | None) -> Sanction | None:
        """Issue through the service; a refusal becomes a form error (nothing is written)."""
        data = self.cleaned_data
        try:
            return sanction_issue(actor=actor, player=data["player"].pk, kind=data["kind"],
                                  duration=data["duration"], reason=data["reason"],
                                  messages=data["message_ids"], ip=ip)
        except DomainError as exc:
            for name, errors in (exc.extra.get("fields") or {}).items():
                self.add_error(name if name in self.fields else None, errors)
            if not exc.extra.get("fields"):
                self.add_error(None, exc.detail)
            return None


@admin.register(Sanction)
class SanctionAdmin(ReadOnlyAdmin):
    list_display = ("player", "kind", "duration", "starts_at", "ends_at", "lifted_at", "created_by")
    list_select_related = ("player", "created_by")  # created_by is nullable
    list_filter = ("kind", "duration", "starts_at")
    date_hierarchy = "starts_at"
    search_fields = ("player__username", "player__profile__nickname", "reason")
    form = SanctionIssueForm

    def has_add_permission(self, request, obj=None) -> bool:
        return has_role(request.user, COMPLIANCE)

    def get_form(self, request, obj=None, change=False, **kwargs):
        if obj is not None:  # a sanction is never edited: the change page shows it read-only
            kwargs["form"] = forms.ModelForm
            return super().get_form(request, obj, change=change, **kwargs)
        form = super().get_form(request, obj, change=change, **kwargs)
        actor, ip = request.user, request_ip(request)

        class IssuingForm(form):
            def _post_clean(self) -> None:
                """Instead of the model's own checks: the service's (it also writes the sanction)."""
                self.issued = self.issue(actor=actor, ip=ip) if not self.errors else None

        return IssuingForm

    def save_form(self, request, form, change):
        return form.issued

    def save_model(self, request, obj, form, change) -> None:
        """Already issued by the service (with its audit row) while the form was checked."""

    def save_related(self, request, form, formsets, change) -> None:
        """No relations to save."""
