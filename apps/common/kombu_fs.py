"""The embedded Celery broker: kombu's filesystem transport, with atomic writes.

kombu's writer creates the message file and then fills it, while the reader takes any
file it sees without the writer's lock: a worker can read an empty file and die
("Unrecoverable error: JSONDecodeError", celery/kombu#1551). Here a message is written to
a temporary name that no queue matches and renamed into place, so readers only ever see
whole messages.
"""

from __future__ import annotations

import os
import uuid
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import TRANSPORT_ALIASES, filesystem
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        name = f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = final + ".part"  # "<id>.<queue>.msg.part" matches no queue
        try:
            with open(partial, "wb") as handle:
                handle.write(dumps(payload).encode())
            os.replace(partial, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel


def register() -> None:
    TRANSPORT_ALIASES.setdefault("mazzierefs", "apps.common.kombu_fs:Transport")
