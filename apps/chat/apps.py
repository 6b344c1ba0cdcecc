from django.apps import AppConfig
from django.db.models.signals import post_save


class ChatConfig(AppConfig):
    name = "apps.chat"
    label = "chat"
    verbose_name = "Chat"

    def ready(self) -> None:
        # the receivers import models (through compliance): only once the registry is ready
        from . import receivers
        from .services import chat_hidden, chat_posted

        chat_posted.connect(receivers.push_lobby_line, dispatch_uid="mazziere_lobby_chat_push")
        chat_hidden.connect(receivers.push_lobby_hidden, dispatch_uid="mazziere_lobby_chat_hidden")
        post_save.connect(receivers.close_lobby_sockets_of_sanctioned, sender="compliance.Sanction",
                          dispatch_uid="mazziere_sanction_lobby_sockets")
