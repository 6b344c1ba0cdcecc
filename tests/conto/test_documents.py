"""Identity documents (regulation.md §1.3): the type from the bytes, the cap, the states that
accept uploads, both sides making the submission pending, and who may read them."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.audit.models import AuditLog
from apps.conto.models import Conto, KycDocument, KycEvent
from tests.conftest import api_client

from .kyc_helpers import JPEG, PDF, png, signed_up

pytestmark = pytest.mark.django_db


def upload(client, side, data, name="doc.png", content_type="image/png"):
    return client.post("/api/me/documents/", {"side": side, "file": SimpleUploadedFile(name, data, content_type)},
                       format="multipart")


def test_front_and_back_make_the_submission_pending(player, settings):
    conto = signed_up(player)
    client = api_client(player)
    front = upload(client, "front", png())
    assert front.status_code == 201, front.json()
    assert front.json()["content_type"] == "image/png" and front.json()["size"] == len(png())
    conto.refresh_from_db()
    assert conto.kyc_status == "documents_required"
    back = upload(client, "back", PDF, name="back.pdf", content_type="application/pdf")
    assert back.json()["content_type"] == "application/pdf"
    conto.refresh_from_db()
    assert conto.kyc_status == "pending" and conto.submitted_at is not None
    assert KycEvent.objects.filter(conto=conto, action="submitted").count() == 1
    # replacing a side keeps the older file; the account shows the newest of each side
    again = upload(client, "front", JPEG, name="front.jpg", content_type="image/jpeg")
    assert again.status_code == 201 and KycDocument.objects.filter(conto=conto).count() == 3
    shown = client.get("/api/me/account/").json()["documents"]
    assert [(d["side"], d["content_type"]) for d in shown] == [("front", "image/jpeg"), ("back", "application/pdf")]
    # stored outside every served path, by a random name
    stored = KycDocument.objects.get(pk=again.json()["id"])
    path = Path(settings.KYC_DOCUMENTS_DIR) / stored.stored_name
    assert path.read_bytes() == JPEG and "front" not in stored.stored_name
    assert not str(path).startswith(str(settings.STATIC_ROOT or "/nonexistent"))


@pytest.mark.parametrize(("data", "name", "content_type"), [
    (b"<html><script>alert(1)</script></html>", "photo.png", "image/png"),
    (b"GIF89a......", "photo.gif", "image/gif"),
    (b"", "empty.jpg", "image/jpeg"),
    (b"MZ\x90\x00", "photo.jpg", "image/jpeg"),
    (b"\x89PNG\r\n", "short.png", "image/png"),
])
def test_forged_or_empty_files_are_refused_and_nothing_is_stored(player, data, name, content_type):
    conto = signed_up(player)
    response = upload(api_client(player), "front", data, name=name, content_type=content_type)
    assert (response.status_code, response.json()["code"]) == (400, "document_invalid"), response.json()
    assert not KycDocument.objects.filter(conto=conto).exists()


def test_a_file_over_the_cap_is_too_large(player, settings):
    signed_up(player)
    settings.KYC_DOCUMENT_MAX_BYTES = 1000
    response = upload(api_client(player), "front", png() + b"\x00" * 1000)
    assert (response.status_code, response.json()["code"]) == (400, "document_too_large")
    settings.KYC_DOCUMENT_MAX_BYTES = 5 * 1024 * 1024
    huge = b"\x89PNG\r\n\x1a\n" + b"\x00" * (5 * 1024 * 1024 + 1)
    response = upload(api_client(player), "front", huge)
    assert (response.status_code, response.json()["code"]) == (400, "document_too_large")
    assert not KycDocument.objects.exists()


def test_a_huge_body_is_refused_by_its_length_before_it_is_read(player):
    signed_up(player)
    response = api_client(player).generic("POST", "/api/me/documents/", b"x" * 10,
                                          content_type="multipart/form-data; boundary=zz",
                                          CONTENT_LENGTH=str(50 * 1024 * 1024))
    assert (response.status_code, response.json()["code"]) == (400, "document_too_large")


@pytest.mark.parametrize(("side", "field"), [("middle", "side"), ("", "side")])
def test_a_bad_side_is_named(player, side, field):
    signed_up(player)
    response = upload(api_client(player), side, png())
    assert response.status_code == 400 and field in response.json()["fields"]


def test_uploads_only_while_documents_are_requested(player):
    signed_up(player, kyc="approved", state="aperto")
    response = upload(api_client(player), "front", png())
    assert (response.status_code, response.json()["code"]) == (409, "documents_not_requested")


def test_only_compliance_reads_a_document_with_safe_headers_and_each_view_is_audited(player, compliance, operator,
                                                                                      finance, superuser):
    signed_up(player)
    document_id = upload(api_client(player), "front", png()).json()["id"]
    url = f"/api/kyc/documents/{document_id}/"
    for reader in (player, operator, finance):
        response = api_client(reader).get(url)
        assert (response.status_code, response.json()["code"]) == (403, "permission_denied")
    assert api_client().get(url).status_code in (401, 403)
    for reader in (compliance, superuser):
        response = api_client(reader).get(url)
        assert response.status_code == 200 and response.content == png()
        assert response["Content-Type"] == "image/png"
        assert response["X-Content-Type-Options"] == "nosniff" and response["Cache-Control"] == "no-store"
    views = AuditLog.objects.filter(action="kyc_document_view", target_type="player", target_id=str(player.pk))
    assert views.count() == 2
    assert api_client(compliance).get("/api/kyc/documents/999999/").status_code == 404


def test_staff_have_no_documents_to_upload(operator):
    response = upload(api_client(operator), "front", png())
    assert response.status_code == 403 and not Conto.objects.exists()
