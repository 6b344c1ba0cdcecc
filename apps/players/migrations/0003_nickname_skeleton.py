"""The nickname's unique index moves to its look-alike skeleton (platform.md §2).

Existing nicknames that clash under the new rule (``GiuIia`` next to ``Giulia``) do not
stop the migration: the older nickname keeps the skeleton, the newer one is left without
(NULL never clashes) and is reported, so compliance can rename it.
"""

import logging

from django.db import migrations, models

log = logging.getLogger("apps.players.migrations")
_CONFUSABLE = str.maketrans({"1": "l", "i": "l", "0": "o"})


def skeleton(nickname: str) -> str:
    """apps.players.rules.skeleton as it was when this migration was written."""
    return nickname.lower().translate(_CONFUSABLE)


def fill_skeletons(apps, schema_editor):
    Profile = apps.get_model("players", "Profile")
    owners: dict[str, str] = {}
    clashes: list[str] = []
    rows = Profile.objects.exclude(nickname__isnull=True).exclude(nickname="")
    for profile in rows.order_by("nickname_set_at", "user_id").iterator():
        form = skeleton(profile.nickname)
        if form in owners:
            clashes.append(f"user {profile.user_id} '{profile.nickname}' looks like '{owners[form]}'")
            continue
        owners[form] = profile.nickname
        Profile.objects.filter(pk=profile.pk).update(nickname_skeleton=form)
    if clashes:
        report = ("Look-alike nicknames found (rename them: they are not protected by the unique index): "
                  + "; ".join(clashes))
        log.warning(report)
        print(f"\n  {report}")


class Migration(migrations.Migration):
    dependencies = [("players", "0002_append_only")]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="nickname_skeleton",
            field=models.CharField(blank=True, editable=False, max_length=16, null=True),
        ),
        migrations.RunPython(fill_skeletons, migrations.RunPython.noop),
        migrations.RemoveConstraint(model_name="profile", name="profile_nickname_ci_unique"),
        migrations.AddConstraint(
            model_name="profile",
            constraint=models.UniqueConstraint(fields=("nickname_skeleton",), name="profile_nickname_skeleton_unique"),
        ),
    ]
