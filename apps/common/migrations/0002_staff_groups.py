"""Create the staff groups operator, finance and compliance with their admin permissions."""

from django.db import migrations


def create_groups(apps, schema_editor):
    from django.apps import apps as global_apps
    from django.contrib.auth.management import create_permissions

    for config in global_apps.get_app_configs():
        # create_permissions skips an app whose models module is not set yet; whatever it was
        # is put back (None left on every app stopped post_migrate for the rest of the process:
        # a flush after an in-process migrate, as SQLite's test database, lost the staff groups)
        models_module = config.models_module
        config.models_module = models_module or True
        create_permissions(config, verbosity=0)
        config.models_module = models_module
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
