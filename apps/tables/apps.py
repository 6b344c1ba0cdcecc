from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_out
from django.utils.translation import gettext_lazy as _


class TablesConfig(AppConfig):
    name = "apps.tables"
    label = "tables"
    verbose_name = _("Tables")

    def ready(self) -> None:
        # the receivers import models (through compliance, chat and matches): only once the
        # registry is ready (Django's rule for AppConfig.ready)
        from apps.chat.services import chat_hidden, chat_posted
        from apps.compliance.signals import sanction_started
        from apps.conto.signals import conto_busy, conto_left_open
        from apps.matches.signals import match_changed, match_finished, match_seat_abandoned
        from apps.play.selectors import match_access_rule_register

        from . import receivers, tasks  # noqa: F401  (tasks: registered for enqueueing by name)
        from .selectors import match_access_at_table

        match_access_rule_register(match_access_at_table)  # the play floor asks tables how a match is read

        user_logged_out.connect(receivers.close_sockets_on_logout, dispatch_uid="mazziere_logout_sockets")
        sanction_started.connect(receivers.close_sockets_of_sanctioned, dispatch_uid="mazziere_sanction_sockets")
        chat_posted.connect(receivers.push_chat_line, dispatch_uid="mazziere_chat_push")
        chat_hidden.connect(receivers.push_chat_hidden, dispatch_uid="mazziere_chat_hidden")
        match_finished.connect(receivers.open_confirmations_after_match, dispatch_uid="mazziere_tables_match_end")
        match_seat_abandoned.connect(receivers.stand_up_abandoned_seat, dispatch_uid="mazziere_tables_abandon")
        match_changed.connect(receivers.advance_revision_on_match_change, dispatch_uid="mazziere_tables_revision")
        conto_left_open.connect(receivers.stand_up_when_conto_left_open, dispatch_uid="mazziere_tables_conto_left")
        conto_busy.connect(receivers.busy_when_seated, dispatch_uid="mazziere_tables_conto_busy")
