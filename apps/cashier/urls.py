"""The player's cashier under /accounts/cashier/ (regulation.md §4.3)."""

from django.urls import path

from . import views

app_name = "cashier"

urlpatterns = [
    path("", views.cashier, name="cashier"),
    path("instruments/", views.instrument, name="instrument"),
    path("deposits/", views.deposit, name="deposit"),
    path("withdrawals/", views.withdraw, name="withdraw"),
    path("withdrawals/<int:withdrawal_id>/cancel/", views.withdrawal_cancel, name="withdrawal_cancel"),
]
