"""Admin for tables and matches, with a step-through replay of any match (staff only).

The matches' screens are registered here, above both apps, because the replay draws the
table's cards (``render``); the models are ``apps.matches``'.

While a match is in play staff see what a spectator sees and nothing more: no state,
seed, deck, action or event of it, not even through a changelist filter (platform.md
§8.2). Once it is over, everything is open for review.
"""

from __future__ import annotations

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models.constants import LOOKUP_SEP
from django.shortcuts import get_object_or_404, render
from django.urls import path, reverse
from django.utils.html import format_html

from apps.common.admin import ReadOnlyAdmin
from apps.common.roles import COMPLIANCE, OPERATOR, has_role
from apps.matches.models import Match, MatchAction, MatchSeat
from apps.matches.selectors import match_review
from apps.play.render import face_for, view_facts

from .models import Table
from .selectors import match_table


class MatchSeatInline(admin.TabularInline):
    model = MatchSeat
    fields = ("number", "player", "nickname", "robot", "ip", "stake_paid", "robot_playing", "abandoned")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ("id", "game", "players", "official", "stake", "currency", "leader", "status", "created")
    list_filter = ("game", "official", "status", "currency")
    list_select_related = ("leader",)
    date_hierarchy = "created"


#: what a match keeps that reveals hidden cards while it is in play
SECRET_MATCH_FIELDS = ("state", "seed", "deck")


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = ("id", "game", "table", "status", "version", "official", "flagged_same_ip", "started_at",
                    "replay_link")
    list_filter = ("game", "status", "official", "flagged_same_ip")
    list_select_related = ("table_link",)
    date_hierarchy = "started_at"

    @admin.display(description="table")
    def table(self, obj):
        link = getattr(obj, "table_link", None)
        return link.table_id if link is not None else "—"
    inlines = [MatchSeatInline]

    def get_exclude(self, request, obj=None):
        """The secret fields are shown only on a match that is over."""
        if obj is None or obj.status == Match.PLAYING:
            return SECRET_MATCH_FIELDS
        return ()

    def lookup_allowed(self, lookup, value, request=None) -> bool:
        """No changelist filter on the state, seed or deck: ``?seed__startswith=`` or
        ``?state__hands__0__contains=`` would read a live match's cards one bit at a time."""
        if lookup.split(LOOKUP_SEP)[0] in SECRET_MATCH_FIELDS:
            return False
        return super().lookup_allowed(lookup, value, request)

    @admin.display(description="replay")
    def replay_link(self, obj):
        return format_html('<a href="{}">replay</a>', reverse("admin:matches_match_replay", args=[obj.pk]))

    def get_urls(self):
        return [path("<int:match_id>/replay/", self.admin_site.admin_view(self.replay_view),
                     name="matches_match_replay"), *super().get_urls()]

    def replay_view(self, request, match_id: int):
        if not has_role(request.user, OPERATOR, COMPLIANCE):
            raise PermissionDenied
        match = get_object_or_404(Match.objects.prefetch_related("match_seats"), pk=match_id)
        seat_param = request.GET.get("seat", "")
        seat = int(seat_param) if seat_param.isdigit() and int(seat_param) < match.players else None
        log, steps = match_review(match=match, seat=seat)
        live = log is None
        if live:
            seat = None
        try:
            index = max(0, min(int(request.GET.get("step", 0)), len(steps) - 1))
        except ValueError:
            index = 0
        context = {**self.admin_site.each_context(request), "match": match, "log": log, "steps": steps,
                   "step": steps[index], "index": index, "last": len(steps) - 1, "seat": seat, "live": live,
                   "view": steps[index]["view"], "face": face_for(match_table(match), match.game),
                   "version": steps[index]["seq"],
                   "seats": range(match.players), "title": f"Replay of match {match.pk}",
                   "nicknames": [m.nickname or ("Robot" if m.robot else "—") for m in match.match_seats.all()]}
        context["facts"], context["card_facts"] = view_facts(steps[index]["view"], match.players)
        return render(request, "admin/tables/replay.html", context)


@admin.register(MatchAction)
class MatchActionAdmin(ReadOnlyAdmin):
    list_display = ("match", "seq", "seat", "by", "version", "at")
    list_filter = ("by",)
    list_select_related = ("match",)
    date_hierarchy = "at"

    def get_queryset(self, request):
        """Actions and their events appear when their match is over (a draw event names
        the drawn card; some actions, like passed cards, are hidden themselves)."""
        return super().get_queryset(request).exclude(match__status=Match.PLAYING)
