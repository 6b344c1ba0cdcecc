from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_save


class TablesConfig(AppConfig):
    name = "apps.tables"
    label = "tables"
    verbose_name = "Tables and matches"

    def ready(self) -> None:
        # the receivers import models (through compliance and chat): only once the registry is ready
        from apps.chat.services import chat_hidden, chat_posted

        from . import receivers

        user_logged_out.connect(receivers.close_sockets_on_logout, dispatch_uid="mazziere_logout_sockets")
        post_save.connect(receivers.close_sockets_of_sanctioned, sender="compliance.Sanction",
                          dispatch_uid="mazziere_sanction_sockets")
        chat_posted.connect(receivers.push_chat_line, dispatch_uid="mazziere_chat_push")
        chat_hidden.connect(receivers.push_chat_hidden, dispatch_uid="mazziere_chat_hidden")
