from __future__ import annotations

import pytest

from ragspine_nb import DomainProfile
from ragspine_nb.core import is_restricted
from ragspine_nb.errors import ProfileError
from ragspine_nb.sensitivity import (
    ScreenText,
    classify_sensitivity,
    decide_sensitivity,
)
from ragspine_nb.sensitivity_policy import (
    SensitivityPolicy,
    fold_path,
    fold_text,
    policy_from_table,
)


@pytest.mark.parametrize("filename, text, explicit, expected", [
    ("report.pdf", "quarterly results", None, "INTERNAL"),
    ("Board_Minutes_2025.pdf", "", None, "RESTRICTED"),
    ("archive/BOARD_MINUTES/jan.md", "", None, "RESTRICTED"),
    ("notes.md", "see the EXEC_COMP appendix", None, "RESTRICTED"),
    ("notes.md", "This is Strictly Confidential.", None, "RESTRICTED"),
    ("board_minutes.md", "", "public", "RESTRICTED"),      # a label never lowers a pattern
    ("report.pdf", "", "public", "PUBLIC"),                # a known level, canonical spelling
    ("report.pdf", "", " Confidential\u200b", "CONFIDENTIAL"),
    ("report.pdf", "", "restricted", "RESTRICTED"),
    ("report.pdf", "", " Restricted\u200b", "RESTRICTED"),
    ("report.pdf", "", "  ", "INTERNAL"),                  # blank label = no label
    ("report.pdf", "", "Restricted - Board only", "RESTRICTED"),
    ("report.pdf", "", "Board confidential", "RESTRICTED"),
    ("report.pdf", "", "Confidential \u2013 Board", "RESTRICTED"),
    ("report.pdf", "", "Internal use", "RESTRICTED"),      # unknown: fail closed
    ("report.pdf", "", "UNRESTRICTED", "RESTRICTED"),
])
def test_classifier(profile: DomainProfile, filename: str, text: str, explicit: str | None,
                    expected: str) -> None:
    assert classify_sensitivity(profile, filename, text, explicit) == expected


@pytest.mark.parametrize("filename", [
    "Board Minutes Jan 2026.md", "board\u2010minutes.md", "board\u2011minutes.md",
    "board\u2014minutes.md", "board\u2212minutes.md", "BOARD-MINUTES.md", "boardminutes.md",
    "Board.Minutes.md", "\uff22\uff4f\uff41\uff52\uff44\u3000\uff2d\uff49\uff4e\uff55\uff54\uff45"
    "\uff53.md", "board\u200bminutes.md", "2026/Exec Comp review.xlsx", "Board  Paper\u00a0Q1.pdf",
])
def test_filename_patterns_ignore_case_separators_and_lookalike_hyphens(
        profile: DomainProfile, filename: str) -> None:
    assert classify_sensitivity(profile, filename) == "RESTRICTED"


@pytest.mark.parametrize("filename", [
    "board/minutes.md",            # folding never joins two path components
    "boards_minutes.md", "minutes_board.md", "paper.md",
])
def test_filename_patterns_do_not_match_across_components_or_words(
        profile: DomainProfile, filename: str) -> None:
    assert classify_sensitivity(profile, filename) == "INTERNAL"


def test_path_fold_keeps_components_apart() -> None:
    assert fold_path("a b/Board Minutes.md") == "ab/boardminutesmd"
    assert fold_path("board/minutes") == "board/minutes"


@pytest.mark.parametrize("text", [
    "strictly\nconfidential", "STRICTLY\u00a0CONFIDENTIAL", "strictly\u200bconfidential",
    "Strictly \r\n  confidential", "strictly-confidential",
    "ｓｔｒｉｃｔｌｙ　ｃｏｎｆｉｄｅｎｔｉａｌ",
])
def test_keywords_fold_whitespace_and_case(profile: DomainProfile, text: str) -> None:
    assert classify_sensitivity(profile, "note.md", f"This paper is {text}.") == "RESTRICTED"


def test_a_keyword_does_not_match_across_a_sentence_end(profile: DomainProfile) -> None:
    text = "We act strictly. Confidential advice was taken."
    assert fold_text(text) == "weactstrictly.confidentialadvicewastaken."
    assert classify_sensitivity(profile, "note.md", text) == "INTERNAL"


@pytest.mark.parametrize("where, text, markings", [
    ("header", "STRICTLY CONFIDENTIAL", True),
    ("footer", "Restricted \u2013 Board only", True),
    ("table 1", "Strictly confidential", False),
    ("notes", "Board only", True),
    ("document properties", "Classification: Restricted", True),
])
def test_screen_text_is_searched(profile: DomainProfile, where: str, text: str,
                                 markings: bool) -> None:
    decision = decide_sensitivity(profile, "note.docx", "plain body", "public",
                                  (ScreenText(where, text, markings),))
    assert decision.label == "RESTRICTED" and where in decision.notes()[-1]


@pytest.mark.parametrize("body", [
    "RESTRICTED \u2014 BOARD ONLY\n\nThe plan.", "For board use only\nThe plan.",
    "Classification: Restricted - Board only\nThe plan.", "The plan.\n\u673a\u5bc6",
    "Sensitivity: TLP:RED\nThe plan.",
])
def test_a_marking_in_the_body_beats_a_lower_label(profile: DomainProfile, body: str) -> None:
    assert classify_sensitivity(profile, "memo.md", body, "public") == "RESTRICTED"


@pytest.mark.parametrize("body", [
    "The board of directors approved the dividend.",
    "Board of Directors\nThe board met four times.",
    "Restricted cash rose to US$12m.",
    "Board\nRestricted cash\nUnrestricted reserves",
    "Industry classification: insurance",
    "Not for distribution",
])
def test_normal_words_keep_the_label(profile: DomainProfile, body: str) -> None:
    assert classify_sensitivity(profile, "results.md", body, "PUBLIC") == "PUBLIC"


def test_a_restricted_cell_is_not_a_label(profile: DomainProfile) -> None:
    cells = ScreenText("table 1", "Cash\nRestricted\nUnrestricted", markings=False)
    assert decide_sensitivity(profile, "b.xlsx", "", "public", (cells,)).label == "PUBLIC"


def test_a_confidential_body_marking_raises_but_only_to_its_level(profile: DomainProfile
                                                                   ) -> None:
    decision = decide_sensitivity(profile, "memo.md", "Confidential\n\nText.", "public")
    assert decision.label == "CONFIDENTIAL"
    assert decision.notes() == ("sensitivity CONFIDENTIAL: label stated in the body "
                                "'Confidential'",)


def test_an_unknown_label_is_restricted_with_a_warning(profile: DomainProfile) -> None:
    decision = decide_sensitivity(profile, "memo.md", "", "TLP:AMBER")
    assert decision.label == "RESTRICTED"
    assert decision.warnings == (
        "unknown sensitivity label 'TLP:AMBER' treated as RESTRICTED (fail closed); valid "
        "levels: ['PUBLIC', 'INTERNAL', 'CONFIDENTIAL', 'RESTRICTED']",)


def test_levels_are_configurable_and_ordered() -> None:
    policy = policy_from_table({"levels": ["open", "team", "confidential", "restricted"],
                                "default": "team"})
    assert policy.levels == ("OPEN", "TEAM", "CONFIDENTIAL", "RESTRICTED")
    assert policy.default == "TEAM"
    assert classify_sensitivity(policy, "a.md", "Confidential\n", "open") == "CONFIDENTIAL"
    assert classify_sensitivity(policy, "a.md", "", "public") == "RESTRICTED"   # unknown here


@pytest.mark.parametrize("table, message", [
    ({"levels": "PUBLIC"}, "sensitivity.levels must be a non-empty list"),
    ({"levels": []}, "sensitivity.levels must be a non-empty list"),
    ({"levels": ["PUBLIC", "INTERNAL"]}, "must end with 'RESTRICTED'"),
    ({"levels": ["PUBLIC", "public", "RESTRICTED"]}, "must be distinct"),
    ({"levels": ["PUBLIC", "BOARD_INTERNAL", "RESTRICTED"]}, "['BOARD_INTERNAL'] are below"),
    ({"default": "SECRETISH"}, "sensitivity.default 'SECRETISH' is not a level; valid levels: "
                               "['PUBLIC', 'INTERNAL', 'CONFIDENTIAL', 'RESTRICTED']"),
    ({"restricted_keywords": [" - "]}, "fold to nothing"),
    ({"restricted_filename_patterns": "board"}, "must be a list of non-empty strings"),
    ({"labels": []}, "unknown key(s) ['labels']; valid keys: ['default', 'levels', "),
])
def test_a_bad_policy_is_refused_with_the_valid_options(table: dict[str, object],
                                                        message: str) -> None:
    with pytest.raises(ProfileError) as err:
        policy_from_table(table)
    assert message in str(err.value)


def test_the_profile_round_trips_its_levels(profile: DomainProfile) -> None:
    data = profile.to_dict()
    assert data["sensitivity"]["levels"] == ["PUBLIC", "INTERNAL", "CONFIDENTIAL", "RESTRICTED"]
    assert DomainProfile.from_dict(data).sensitivity == profile.sensitivity


LABELS = ["RESTRICTED", " restricted\u200b", "Restricted - Board only", "BOARD CONFIDENTIAL",
          "Strictly confidential", "UNRESTRICTED", "CONFIDENTIAL", "Confidential.", "internal",
          "PUBLIC", "TLP:AMBER", "Top secret", "\u673a\u5bc6", "Internal \u2013 Board"]


@pytest.mark.parametrize("label", LABELS)
def test_the_final_guard_is_never_looser_than_the_classifier(profile: DomainProfile,
                                                             label: str) -> None:
    """Whatever label a chunk carries, is_restricted agrees with ingestion on RESTRICTED."""
    decided = classify_sensitivity(profile, "x.md", "", label)
    if is_restricted(label):
        assert decided == "RESTRICTED"
    assert is_restricted(decided) == (decided == "RESTRICTED")


def test_every_level_is_consistent_with_the_guard() -> None:
    policy = SensitivityPolicy()
    assert [is_restricted(level) for level in policy.levels] == [False, False, False, True]


def test_the_folds_drop_every_separator_and_invisible_character() -> None:
    import unicodedata

    from ragspine_nb.sensitivity_policy import _SEPARATOR_CATEGORIES, _drop_table

    every = {cp for cp in range(0x110000)
             if unicodedata.category(chr(cp)) in _SEPARATOR_CATEGORIES}
    assert every <= set(_drop_table(True)) and every <= set(_drop_table(False))


def test_streamed_rows_are_searched_even_when_the_reader_stops_early(
        profile: DomainProfile) -> None:
    from ragspine_nb.extract.screen import RowScreen

    screen = RowScreen(profile, "cells")
    rows = screen.tap([["Revenue", 1.0]] * 10 + [["strictly", None], ["confidential"]] +
                      [["x"]] * 1000)
    for n, _row in enumerate(rows):
        if n == 11:
            break
    rows.close()  # type: ignore[attr-defined]
    (found,) = screen.found
    assert found.where == "cells rows 1-12" and "strictlyconfidential" in found.text


def test_the_policy_fingerprint_changes_with_the_policy() -> None:
    from ragspine_nb.sensitivity import policy_fingerprint

    base = SensitivityPolicy(restricted_filename_patterns=("board_minutes",))
    more = SensitivityPolicy(restricted_filename_patterns=("board_minutes", "strategy_pack"))
    assert policy_fingerprint(base) == policy_fingerprint(SensitivityPolicy(
        restricted_filename_patterns=("board_minutes",)))
    assert policy_fingerprint(base) != policy_fingerprint(more)
    assert policy_fingerprint(base).startswith("sensitivity@3:")
