"""Registry providers for tests (regulation.md §3.4)."""

from apps.conto.registry import RegistryUnavailable


class Unreachable:
    def check(self, codice_fiscale: str) -> dict:
        raise RegistryUnavailable()

    def notify(self, exclusion) -> None:
        raise RegistryUnavailable()


class Broken:
    def check(self, codice_fiscale: str) -> dict:
        raise OSError("connection reset")

    def notify(self, exclusion) -> None:
        raise OSError("connection reset")
