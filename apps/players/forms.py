from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _


class SignupForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        fields = ("username",)


class NicknameForm(forms.Form):
    nickname = forms.CharField(label=_("Nickname"), max_length=40, strip=False,
                               help_text=_("3-16 characters: letters, digits and underscore, starting with a letter."))
