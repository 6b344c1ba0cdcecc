"""Keep the local stand-in of the national self-exclusion registry (regulation.md §3.4, §11.1)."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from apps.conto.codice_fiscale import is_valid, normalise
from apps.conto.models import RegistryEntry, SelfExclusion
from apps.conto.registry import registry_entry_add, registry_entry_remove

LOCAL = "apps.conto.registry.LocalRegistry"


class Command(BaseCommand):
    help = "add, remove or list entries of the local self-exclusion registry stand-in"

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        add = sub.add_parser("add")
        add.add_argument("codice_fiscale")
        period = add.add_mutually_exclusive_group()
        period.add_argument("--days", type=int)
        period.add_argument("--indefinite", action="store_true")
        add.add_argument("--scope", default="all", choices=SelfExclusion.SCOPES)
        remove = sub.add_parser("remove")
        remove.add_argument("codice_fiscale")
        sub.add_parser("list")

    def handle(self, *args, action: str, **options):
        if getattr(settings, "SELF_EXCLUSION_REGISTRY", LOCAL) != LOCAL:
            raise CommandError("The registry is an external provider: this command keeps only the local stand-in.")
        if action == "list":
            for entry in RegistryEntry.objects.filter(removed_at__isnull=True):
                until = entry.ends_at.isoformat() if entry.ends_at else "indefinite"
                self.stdout.write(f"{entry.codice_fiscale}\t{entry.scope}\t{entry.starts_at.isoformat()}\t{until}")
            return
        code = normalise(options["codice_fiscale"])
        if not is_valid(code):
            raise CommandError(f"{code} is not a valid codice fiscale.")
        if action == "add":
            days = options.get("days")
            if days is None and not options.get("indefinite"):
                raise CommandError("Say --days N or --indefinite.")
            if days is not None and days < 1:
                raise CommandError("--days must be at least 1.")
            entry = registry_entry_add(codice_fiscale=code, days=days, scope=options["scope"])
            self.stdout.write(f"added {entry.codice_fiscale} ({entry.scope})")
        else:
            self.stdout.write(f"removed {registry_entry_remove(codice_fiscale=code)} entries")
