"""Identity documents and KYC review (regulation.md §1.3, §1.7, §12): parse, one domain call,
render."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiTypes, extend_schema
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.api import IsPlayerAccount, Pagination, role_permission
from apps.common.net import request_ip
from apps.common.roles import COMPLIANCE

from .documents import DocumentTooLarge, document_upload, max_bytes
from .kyc import kyc_approve, kyc_item, kyc_queue, kyc_reject, kyc_resubmit
from .presenters import document_as_dict
from .serving import kyc_document_serve

#: the multipart envelope around a file of the maximum size
ENVELOPE_BYTES = 64 * 1024


class MeDocumentsView(APIView):
    """``POST /api/me/documents/`` (multipart ``side``, ``file``)."""

    permission_classes = [IsPlayerAccount]
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(request={"multipart/form-data": OpenApiTypes.OBJECT}, responses={201: OpenApiTypes.OBJECT})
    def post(self, request):
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > max_bytes() + ENVELOPE_BYTES:  # refused before the body is read
            raise DocumentTooLarge()
        document = document_upload(user=request.user, side=request.data.get("side"), file=request.FILES.get("file"))
        return Response(document_as_dict(document), status=201)


class KycQueueView(APIView):
    permission_classes = [role_permission(COMPLIANCE)]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        paginator = Pagination()
        page = paginator.paginate_queryset(kyc_queue(), request, view=self)
        return paginator.get_paginated_response([kyc_item(conto) for conto in page])


class KycDecisionView(APIView):
    permission_classes = [role_permission(COMPLIANCE)]
    action = "approve"
    DECISIONS = {"approve": kyc_approve, "resubmit": kyc_resubmit, "reject": kyc_reject}

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    def post(self, request, player_id: int):
        data = request.data if isinstance(request.data, dict) else {}
        return Response(self.DECISIONS[self.action](actor=request.user, player_id=player_id,
                                                    reason=data.get("reason"), ip=request_ip(request)))


class KycDocumentView(APIView):
    """``GET /api/kyc/documents/{id}/``: the bytes, to compliance only, audited."""

    permission_classes = [role_permission(COMPLIANCE)]

    @extend_schema(responses={(200, "application/octet-stream"): OpenApiTypes.BINARY})
    def get(self, request, document_id: int) -> HttpResponse:
        return kyc_document_serve(actor=request.user, document_id=document_id, ip=request_ip(request))
