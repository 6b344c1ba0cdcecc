from django.apps import AppConfig


def _close_sockets_on_logout(sender, request, user, **kwargs):
    """A logged-out user's sockets are closed (platform.md §10.1, issue: real time)."""
    if user is not None:
        from .broadcast import user_sockets_close

        user_sockets_close(user_id=user.pk, code=4401)


def _close_sockets_of_sanctioned(sender, instance, created, **kwargs):
    """A sanction that keeps a player out of the lobby closes their open sockets (4403).

    The tables own the sockets, so they listen to compliance (which never calls up here)."""
    from apps.compliance.selectors import LOBBY_BLOCKING

    from .broadcast import user_sockets_close

    if created and instance.kind in LOBBY_BLOCKING:
        user_sockets_close(user_id=instance.player_id, code=4403)


def _push_chat_line(sender, message, **kwargs):
    """A stored table chat line is announced to the table's sockets by id (platform.md §7.1)."""
    from .broadcast import chat_message

    if message.table_id is not None:
        chat_message(table_id=message.table_id, message_id=message.pk)


class TablesConfig(AppConfig):
    name = "apps.tables"
    label = "tables"
    verbose_name = "Tables and matches"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out
        from django.db.models.signals import post_save

        from apps.chat.services import chat_posted

        user_logged_out.connect(_close_sockets_on_logout, dispatch_uid="mazziere_logout_sockets")
        post_save.connect(_close_sockets_of_sanctioned, sender="compliance.Sanction",
                          dispatch_uid="mazziere_sanction_sockets")
        chat_posted.connect(_push_chat_line, dispatch_uid="mazziere_chat_push")
