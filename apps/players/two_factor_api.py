"""The two-factor endpoints of regulation.md §10: they are outside the OTP requirement
themselves (a staff member reaches them to enrol or verify)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import exceptions, permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.errors import Forbidden
from apps.common.net import request_ip
from apps.common.otp import otp_check, otp_enrolled
from apps.common.roles import is_staff_member

from . import two_factor


class IsStaffMember(permissions.BasePermission):
    def has_permission(self, request, view) -> bool:
        if not request.user or not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        return is_staff_member(request.user)


class IsSuperuser(permissions.BasePermission):
    def has_permission(self, request, view) -> bool:
        if not request.user or not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        if not request.user.is_superuser:
            return False
        otp_check(request.user)
        return True


class CodeBody(serializers.Serializer):
    code = serializers.CharField()


def _body(request) -> dict:
    return request.data if isinstance(request.data, dict) else {}


class DeviceCreateView(APIView):
    """``POST /api/me/2fa/devices/``: a new TOTP device (unverified only before enrolment)."""

    permission_classes = [IsStaffMember]

    @extend_schema(request=None, responses={201: inline_serializer("OtpDevice", {
        "id": serializers.IntegerField(), "secret": serializers.CharField(), "otpauth_url": serializers.CharField(),
        "digits": serializers.IntegerField(), "period": serializers.IntegerField(),
        "algorithm": serializers.CharField(), "confirmed": serializers.BooleanField()})})
    def post(self, request):
        if otp_enrolled(request.user):
            otp_check(request.user)
        device = two_factor.otp_device_create(user=request.user, ip=request_ip(request))
        return Response(two_factor.otp_device_as_dict(device), status=201)


class ConfirmView(APIView):
    """``POST /api/me/2fa/confirm/``: confirm with a TOTP code; the 10 recovery codes, once."""

    permission_classes = [IsStaffMember]

    @extend_schema(request=CodeBody, responses={200: inline_serializer("OtpConfirmed", {
        "confirmed": serializers.BooleanField(), "recovery_codes": serializers.ListField(child=serializers.CharField())})})
    def post(self, request):
        codes = two_factor.otp_device_confirm(request=request._request, code=_body(request).get("code"),
                                              ip=request_ip(request))
        return Response({"confirmed": True, "recovery_codes": codes})


class VerifyView(APIView):
    """``POST /api/auth/2fa/verify/``: verify the session with a TOTP or recovery code."""

    permission_classes = [IsStaffMember]

    @extend_schema(request=CodeBody, responses={200: inline_serializer("OtpVerified", {
        "verified": serializers.BooleanField(), "method": serializers.CharField(),
        "recovery_codes_left": serializers.IntegerField()})})
    def post(self, request):
        return Response(two_factor.otp_verify(request=request._request, code=_body(request).get("code"),
                                              ip=request_ip(request)))


class RecoveryCodesView(APIView):
    """``POST /api/me/2fa/recovery-codes/`` (verified): a new set, the old one void."""

    permission_classes = [IsStaffMember]

    @extend_schema(request=None, responses={200: inline_serializer("OtpRecoveryCodes", {
        "recovery_codes": serializers.ListField(child=serializers.CharField())})})
    def post(self, request):
        otp_check(request.user)
        if not otp_enrolled(request.user):
            raise Forbidden(code="otp_required", enrolled=False)
        return Response({"recovery_codes": two_factor.otp_recovery_regenerate(user=request.user,
                                                                               ip=request_ip(request))})


class StaffResetView(APIView):
    """``POST /api/staff/{id}/2fa/reset/`` (superuser, with a reason)."""

    permission_classes = [IsSuperuser]

    @extend_schema(request=inline_serializer("OtpResetBody", {"reason": serializers.CharField()}),
                   responses={200: inline_serializer("OtpReset", {"reset": serializers.BooleanField()})})
    def post(self, request, user_id: int):
        member = get_object_or_404(get_user_model(), pk=user_id)
        two_factor.otp_reset(actor=request.user, member=member, reason=_body(request).get("reason"),
                             ip=request_ip(request))
        return Response({"reset": True})
