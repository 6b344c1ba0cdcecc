"""Create the staff groups operator, finance and compliance with their admin permissions."""

from django.db import migrations


def create_groups(apps, schema_editor):
    from django.apps import apps as global_apps
    from django.contrib.auth.management import create_permissions

    for config in global_apps.get_app_configs():
        config.models_module = True
        create_permissions(config, verbosity=0)
        config.models_module = None
    from apps.common.groups import ensure_staff_groups

    ensure_staff_groups(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


class Migration(migrations.Migration):
    dependencies = [
        ("common", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("players", "0002_append_only"),
        ("wallet", "0002_append_only"),
        ("audit", "0002_append_only"),
        ("compliance", "0001_initial"),
    ]
    operations = [migrations.RunPython(create_groups, migrations.RunPython.noop)]
