from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


def word_list_defaults(sender, app_config=None, **kwargs) -> None:
    """An empty word list gets its defaults back after a migrate or a flush (like the staff
    groups): a platform never runs without one."""
    if getattr(app_config, "label", None) != "chat":
        return
    from .wordlist import word_list_seed  # the models are ready only once post_migrate runs

    word_list_seed()


class ChatConfig(AppConfig):
    name = "apps.chat"
    label = "chat"
    verbose_name = _("Chat")

    def ready(self) -> None:
        from apps.compliance.signals import sanction_started

        # the receivers import models (through compliance): only once the registry is ready
        from . import receivers
        from .services import chat_hidden, chat_posted

        chat_posted.connect(receivers.push_lobby_line, dispatch_uid="mazziere_lobby_chat_push")
        chat_hidden.connect(receivers.push_lobby_hidden, dispatch_uid="mazziere_lobby_chat_hidden")
        post_migrate.connect(word_list_defaults, dispatch_uid="mazziere_word_list_defaults")
        sanction_started.connect(receivers.close_lobby_sockets_of_sanctioned, dispatch_uid="mazziere_sanction_lobby_sockets")
