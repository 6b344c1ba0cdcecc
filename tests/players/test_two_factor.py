"""Staff two-factor authentication (regulation.md §10): enrolment, verification (each code
once, wrong codes, throttling), recovery codes, reset, audit, and enforcement on the staff
pages, staff API endpoints and the back office socket."""

from __future__ import annotations

from base64 import b32decode

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django_otp.oath import totp
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from apps.audit.models import AuditLog
from config.asgi import application

from ..conftest import make_user
from ..tables.test_consumer import next_output, session_cookie

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def otp_required(settings):
    settings.STAFF_OTP_REQUIRED = True


def code_for(secret: str, offset: int = 0) -> str:
    """The RFC 6238 code of ``secret`` for the 30 s step ``offset`` steps from now."""
    return f"{totp(b32decode(secret), step=30, t0=0, digits=6, drift=offset):06d}"


def unthrottle(user) -> None:
    """django-otp's delay after a failure is 1 s, doubling: the tests skip the wait."""
    for model in (TOTPDevice, StaticDevice):
        model.objects.filter(user=user).update(throttling_failure_timestamp=None, throttling_failure_count=0)


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def enrol(client: Client) -> tuple[str, list[str]]:
    device = client.post("/api/me/2fa/devices/").json()
    answer = client.post("/api/me/2fa/confirm/", {"code": code_for(device["secret"])}, content_type="application/json")
    assert answer.status_code == 200, answer.json()
    return device["secret"], answer.json()["recovery_codes"]


def actions(user) -> list[str]:
    return list(AuditLog.objects.filter(target_id=str(user.pk), target_type="user").order_by("pk")
                .values_list("action", flat=True))


def test_enrolment_shape_confirm_and_recovery_codes():
    operator = make_user(group="operator")
    client = client_for(operator)
    assert client.get("/api/players/").json() == {
        "detail": client.get("/api/players/").json()["detail"], "code": "otp_required", "enrolled": False}
    device = client.post("/api/me/2fa/devices/")
    assert device.status_code == 201
    body = device.json()
    assert set(body) == {"id", "secret", "otpauth_url", "digits", "period", "algorithm", "confirmed"}
    assert (body["digits"], body["period"], body["algorithm"], body["confirmed"]) == (6, 30, "SHA1", False)
    assert len(b32decode(body["secret"])) == 20 and body["otpauth_url"].startswith("otpauth://totp/")
    again = client.post("/api/me/2fa/devices/").json()  # replaces the unconfirmed one
    assert again["secret"] != body["secret"]
    wrong = client.post("/api/me/2fa/confirm/", {"code": code_for(body["secret"])}, content_type="application/json")
    assert wrong.status_code == 400 and wrong.json()["code"] == "otp_invalid"
    unthrottle(operator)
    confirmed = client.post("/api/me/2fa/confirm/", {"code": code_for(again["secret"])},
                            content_type="application/json").json()
    assert confirmed["confirmed"] is True
    codes = confirmed["recovery_codes"]
    assert len(codes) == 10 and len(set(codes)) == 10
    assert all(len(c) == 10 and c.isalnum() and c == c.lower() for c in codes)
    assert client.get("/api/players/").status_code == 200  # the session is verified
    # enrolled but not verified in a new session: devices refused, API says enrolled
    other = client_for(operator)
    refused = other.get("/api/players/").json()
    assert refused["code"] == "otp_required" and refused["enrolled"] is True
    assert other.post("/api/me/2fa/devices/").json()["code"] == "otp_required"
    assert actions(operator) == ["otp_device_created", "otp_device_created", "otp_failed", "otp_device_confirmed"]


def test_verify_each_code_once_wrong_and_throttled():
    compliance = make_user(group="compliance")
    secret, _codes = enrol(client_for(compliance))
    client = client_for(compliance)
    wrong = client.post("/api/auth/2fa/verify/", {"code": "000000" if code_for(secret) != "000000" else "111111"},
                        content_type="application/json")
    assert wrong.status_code == 400 and wrong.json()["code"] == "otp_invalid"
    throttled = client.post("/api/auth/2fa/verify/", {"code": code_for(secret, 1)}, content_type="application/json")
    assert throttled.status_code == 429 and throttled.json()["code"] == "throttled"
    unthrottle(compliance)
    used = code_for(secret)
    # the code confirming enrolment was this step's: it is not accepted twice
    replay = client.post("/api/auth/2fa/verify/", {"code": used}, content_type="application/json")
    assert replay.status_code == 400 and replay.json()["code"] == "otp_invalid"
    unthrottle(compliance)
    older = client.post("/api/auth/2fa/verify/", {"code": code_for(secret, -1)}, content_type="application/json")
    assert older.status_code == 400  # a step before the last accepted one: refused
    unthrottle(compliance)
    ok = client.post("/api/auth/2fa/verify/", {"code": code_for(secret, 1)}, content_type="application/json")
    assert ok.status_code == 200, ok.json()
    assert ok.json() == {"verified": True, "method": "totp", "recovery_codes_left": 10}
    assert client.get("/api/players/").status_code == 200
    assert "otp_verified" in actions(compliance) and actions(compliance).count("otp_failed") == 3


def test_recovery_codes_single_use_and_regenerated():
    operator = make_user(group="operator")
    _secret, codes = enrol(client_for(operator))
    client = client_for(operator)
    assert client.post("/api/me/2fa/recovery-codes/").json()["code"] == "otp_required"
    used = client.post("/api/auth/2fa/verify/", {"code": codes[0]}, content_type="application/json").json()
    assert used == {"verified": True, "method": "recovery", "recovery_codes_left": 9}
    again = client_for(operator).post("/api/auth/2fa/verify/", {"code": codes[0]}, content_type="application/json")
    assert again.status_code == 400 and again.json()["code"] == "otp_invalid"
    unthrottle(operator)
    fresh = client.post("/api/me/2fa/recovery-codes/").json()["recovery_codes"]
    assert len(fresh) == 10 and not set(fresh) & set(codes)
    stale = client_for(operator).post("/api/auth/2fa/verify/", {"code": codes[1]}, content_type="application/json")
    assert stale.status_code == 400
    unthrottle(operator)
    ok = client_for(operator).post("/api/auth/2fa/verify/", {"code": fresh[0]}, content_type="application/json")
    assert ok.json()["recovery_codes_left"] == 9
    assert {"otp_recovery_used", "otp_recovery_regenerated"} <= set(actions(operator))


def test_reset_by_a_superuser_only_with_a_reason():
    operator = make_user(group="operator")
    enrol(client_for(operator))
    boss = make_user(superuser=True)
    boss_client = client_for(boss)
    _s, boss_codes = enrol(boss_client)
    url = f"/api/staff/{operator.pk}/2fa/reset/"
    assert client_for(make_user(group="compliance")).post(url, {"reason": "x"}).status_code == 403
    assert boss_client.post(url, {}, content_type="application/json").json()["code"] == "validation_error"
    assert boss_client.post(url, {"reason": "lost phone"}, content_type="application/json").json() == {"reset": True}
    assert client_for(operator).get("/api/players/").json()["enrolled"] is False
    row = AuditLog.objects.get(action="otp_reset")
    assert (row.actor_id, row.reason) == (boss.pk, "lost phone")


@pytest.mark.parametrize("path", ["/admin/", "/backoffice/", "/compliance/"])
def test_staff_pages_redirect_until_verified(path):
    superuser = make_user(superuser=True)
    client = client_for(superuser)
    answer = client.get(path)
    assert answer.status_code == 302 and answer["Location"] == f"/accounts/2fa/?next={path}"
    enrol(client)
    assert client.get(path).status_code in (200, 302) and not client.get(path).get("Location", "").startswith(
        "/accounts/2fa/")


def test_outside_the_requirement_and_setting_off(settings):
    player = make_user()
    assert client_for(player).get("/api/me/").status_code == 200
    operator = make_user(group="operator")
    assert client_for(operator).get("/api/me/").status_code == 200
    assert Client().get("/admin/login/").status_code == 200
    settings.STAFF_OTP_REQUIRED = False  # read at each use
    assert client_for(operator).get("/api/players/").status_code == 200
    assert client_for(operator).get("/backoffice/").status_code == 200


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(60)
async def test_backoffice_socket_closes_4403_until_verified():
    operator = await sync_to_async(make_user)(group="operator")

    async def socket(cookie: str) -> int | None:
        headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", f"sessionid={cookie}".encode())]
        comm = WebsocketCommunicator(application, "/ws/backoffice/online/?period=today", headers=headers)
        connected, _ = await comm.connect(timeout=5)
        assert connected
        output = await next_output(comm)
        await comm.disconnect()
        return output["code"] if output and output["type"] == "websocket.close" else None

    assert await socket(await sync_to_async(session_cookie)(operator)) == 4403

    def verified_cookie() -> str:
        client = client_for(operator)
        enrol(client)
        return client.cookies["sessionid"].value

    assert await socket(await sync_to_async(verified_cookie)()) != 4403


def test_page_enrols_shows_codes_once_then_verifies():
    operator = make_user(group="operator")
    client = client_for(operator)
    first = client.get("/backoffice/?period=7d")
    page = client.get(first["Location"])
    assert page.status_code == 200
    secret = page.context["device"]["secret"]
    assert secret in page.content.decode() and "otpauth://totp/" in page.content.decode()
    assert client.get(first["Location"]).context["device"]["secret"] == secret  # a reload keeps the key
    wrong = client.post("/accounts/2fa/", {"code": "12345", "next": "/backoffice/?period=7d"})
    assert wrong.status_code == 400 and 'data-code="otp_invalid"' in wrong.content.decode()
    unthrottle(operator)
    done = client.post("/accounts/2fa/", {"code": code_for(secret), "next": "/backoffice/?period=7d"})
    codes = done.context["recovery_codes"]
    assert len(codes) == 10 and all(code in done.content.decode() for code in codes)
    assert client.get("/backoffice/").status_code == 200
    assert "recovery_codes" not in client.get("/accounts/2fa/").context  # shown once
    other = client_for(operator)
    form = other.get("/accounts/2fa/?next=/backoffice/")
    assert form.context["enrolled"] and "device" not in form.context
    assert other.post("/accounts/2fa/", {"code": codes[3], "next": "/backoffice/"})["Location"] == "/backoffice/"
    assert other.get("/backoffice/").status_code == 200


def test_page_in_italian_and_not_for_players():
    operator = make_user(group="operator")
    client = client_for(operator)
    page = client.get("/accounts/2fa/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Autenticazione a due fattori" in page and "Chiave segreta" in page
    assert client_for(make_user(nickname="Tizio2fa")).get("/accounts/2fa/")["Location"] == "/"


def test_staff_token_needs_otp_and_only_such_a_token_is_verified(settings):
    operator = make_user("tokenop", group="operator")
    body = {"username": "tokenop", "password": "pw-Mazziere-1"}
    settings.STAFF_OTP_REQUIRED = False
    old_key = Client().post("/api/auth/token/", body, content_type="application/json").json()["token"]
    settings.STAFF_OTP_REQUIRED = True
    assert Client().get("/api/players/", HTTP_AUTHORIZATION=f"Token {old_key}").json()["code"] == "otp_required"
    not_enrolled = Client().post("/api/auth/token/", body, content_type="application/json")
    assert not_enrolled.status_code == 400 and not_enrolled.json()["code"] == "otp_required"
    secret, _codes = enrol(client_for(operator))
    unthrottle(operator)
    wrong = Client().post("/api/auth/token/", {**body, "otp": "123"}, content_type="application/json")
    assert wrong.status_code == 400 and wrong.json()["code"] == "otp_invalid"
    unthrottle(operator)
    key = Client().post("/api/auth/token/", {**body, "otp": code_for(secret, 1)},
                        content_type="application/json").json()["token"]
    assert Client().get("/api/players/", HTTP_AUTHORIZATION=f"Token {key}").status_code == 200
    player = make_user("tokenplayer", nickname="TokenPlayer")
    assert player and Client().post("/api/auth/token/", {"username": "tokenplayer", "password": "pw-Mazziere-1"},
                                    content_type="application/json").status_code == 200
