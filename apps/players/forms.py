from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.utils.translation import gettext_lazy as _

from .account_state import refusal_error
from .models import Profile


class NicknameForm(forms.Form):
    nickname = forms.CharField(label=_("Nickname"), max_length=40, strip=False,
                               help_text=_("3-16 characters: letters, digits and underscore, starting with a letter."))


class CardsForm(forms.Form):
    """The Italian deck a player sees (the profile's ``italian_deck``)."""

    italian_deck = forms.ChoiceField(label=_("Italian cards"), choices=Profile.ITALIAN_DECKS,
                                     widget=forms.RadioSelect)


class PlayerLoginForm(AuthenticationForm):
    """The login page: a blocked, closed or dormant conto is told why (regulation.md §1.5)."""

    def confirm_login_allowed(self, user) -> None:
        super().confirm_login_allowed(user)
        error = refusal_error(user)
        if error is not None:
            raise forms.ValidationError(error.detail, code="account_not_open")
