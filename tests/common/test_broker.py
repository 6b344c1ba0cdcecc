"""The embedded Celery broker writes messages atomically (no half-written file is read)."""

from __future__ import annotations

import os

from kombu import Connection

from apps.common.kombu_fs import register


def test_messages_round_trip_and_partial_files_are_never_read(tmp_path):
    register()
    folder = tmp_path / "queue"
    folder.mkdir()
    options = {"data_folder_in": str(folder), "data_folder_out": str(folder),
               "control_folder": str(tmp_path / "control"), "store_processed": False}
    with Connection("mazzierefs://localhost/", transport_options=options) as conn:
        queue = conn.SimpleQueue("jobs")
        # a file that a writer has not finished yet must be invisible to readers
        (folder / "1_x.jobs.msg.part").write_bytes(b"")
        queue.put({"n": 1})
        message = queue.get(timeout=2)
        assert message.payload == {"n": 1}
        message.ack()
        assert [p for p in os.listdir(folder) if p.endswith(".msg")] == []
        queue.close()
