"""Every page (not the admin) has the responsible-gaming footer (regulation.md §4.3)."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("url", ["/", "/accounts/login/", "/accounts/signup/", "/responsible-gaming/", "/tables/"])
def test_the_footer_names_18_plus_the_help_line_the_tools_and_the_concession(url, settings):
    settings.ADM_CONCESSION_CODE = "GAD 15999"
    html = Client().get(url).content.decode()
    assert 'data-testid="rg-footer"' in html and "18+" in html
    assert 'href="tel:800558822"' in html and "TVNGA 800 558822" in html
    for link in ("/accounts/limits/", "/accounts/self-exclusion/", "/responsible-gaming/"):
        assert f'href="{link}"' in html
    assert "GAD 15999" in html
    assert "vietato ai minori" in html  # Italian by default


def test_the_admin_has_no_footer(superuser):
    client = Client()
    client.force_login(superuser)
    assert 'data-testid="rg-footer"' not in client.get("/admin/").content.decode()
