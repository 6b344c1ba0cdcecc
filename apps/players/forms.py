from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Profile


class NicknameForm(forms.Form):
    nickname = forms.CharField(label=_("Nickname"), max_length=40, strip=False,
                               help_text=_("3-16 characters: letters, digits and underscore, starting with a letter."))


class CardsForm(forms.Form):
    """The Italian deck a player sees (the profile's ``italian_deck``)."""

    italian_deck = forms.ChoiceField(label=_("Italian cards"), choices=Profile.ITALIAN_DECKS,
                                     widget=forms.RadioSelect)
