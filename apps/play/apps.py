from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayConfig(AppConfig):
    """The presentation of a match to one reader, whoever owns the match (a table, a
    tournament): the presenters of each game family, the words of a move, the cards drawn."""

    name = "apps.play"
    label = "play"
    verbose_name = _("Play")
