from __future__ import annotations

import pytest

from ragspine_nb import DomainProfile
from ragspine_nb.sensitivity import classify_sensitivity


@pytest.mark.parametrize("filename, text, explicit, expected", [
    ("report.pdf", "quarterly results", None, "INTERNAL"),
    ("Board_Minutes_2025.pdf", "", None, "RESTRICTED"),
    ("archive/BOARD_MINUTES/jan.md", "", None, "RESTRICTED"),
    ("notes.md", "see the EXEC_COMP appendix", None, "RESTRICTED"),
    ("notes.md", "This is Strictly Confidential.", None, "RESTRICTED"),
    ("board_minutes.md", "", "public", "PUBLIC"),          # explicit label wins
    ("report.pdf", "", "restricted", "RESTRICTED"),
    ("report.pdf", "", " Restricted\u200b", "RESTRICTED"),
    ("report.pdf", "", "  ", "INTERNAL"),                  # blank label = no label
])
def test_classifier(profile: DomainProfile, filename: str, text: str, explicit: str | None,
                    expected: str) -> None:
    assert classify_sensitivity(profile, filename, text, explicit) == expected
