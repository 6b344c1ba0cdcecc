"""The Celery app: tasks take ids, are queued on commit and can run twice."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("mazziere")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
