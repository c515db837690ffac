"""Contracts of the rerank judges: :class:`ListwiseJudge` and :class:`ScoringJudge`.

A listwise judge returns a permutation of the candidates' indexes, most relevant first;
a scoring judge returns one finite score per candidate, higher = more relevant. Both
return nothing for no candidates. :func:`~ragspine_nb.retrieval.rerank.listwise_rerank`
treats anything else as a judge failure and keeps the fused order, so a judge that
breaks these rules silently does nothing.
"""

from __future__ import annotations

import math

import pytest

from ragspine_nb.retrieval.rerank import ListwiseJudge, ScoringJudge

__all__ = ["ListwiseJudgeContract", "ScoringJudgeContract", "RELEVANCE_CASES"]

#: (query, candidates, index of the one relevant candidate) — never at index 0, so an
#: identity order is wrong; the others share no content word with the query.
RELEVANCE_CASES: tuple[tuple[str, tuple[str, ...], int], ...] = (
    ("Hong Kong agency new sales",
     ("The staff canteen opens at eight in the morning.",
      "Hong Kong agency new sales grew 12% as mainland visitors returned.",
      "The board approved the final dividend."), 1),
    ("Why did mainland China revenue fall?",
     ("The staff canteen opens at eight in the morning.",
      "The board approved the final dividend.",
      "Parking permits are renewed every January.",
      "Mainland China revenue fell because bancassurance commissions were capped."), 3),
)
#: Candidates for the shape checks (no relevance asked).
CANDIDATES = ("Hong Kong agency new sales grew.", "Revenue fell in mainland China.",
              "The canteen opens at eight.", "Dividends were approved.",
              "Agency headcount rose six percent.")


class ListwiseJudgeContract:
    """The behavioural contract of :class:`~ragspine_nb.retrieval.rerank.ListwiseJudge`.

    Notes
    -----
    The inheriting class defines the fixture ``listwise_judge``: the judge under test.
    The contract asks it about at most five short English passages per call.
    """

    def test_judge_returns_a_permutation(self, listwise_judge: ListwiseJudge) -> None:
        """Every index exactly once, as ints, for one candidate or several."""
        for n in (1, 2, len(CANDIDATES)):
            order = listwise_judge.judge("agency new sales", list(CANDIDATES[:n]))
            assert all(isinstance(i, int) for i in order)
            assert sorted(order) == list(range(n))

    def test_judge_of_no_candidates_is_empty(self, listwise_judge: ListwiseJudge) -> None:
        """No candidates, no indexes."""
        assert list(listwise_judge.judge("agency new sales", [])) == []

    @pytest.mark.parametrize(("query", "candidates", "relevant"), RELEVANCE_CASES)
    def test_judge_puts_the_relevant_passage_first(
            self, listwise_judge: ListwiseJudge, query: str, candidates: tuple[str, ...],
            relevant: int) -> None:
        """The one passage that answers the query is ranked first."""
        order = listwise_judge.judge(query, list(candidates))
        assert order[0] == relevant
        assert sorted(order) == list(range(len(candidates)))

    def test_judge_leaves_the_candidates_unchanged(
            self, listwise_judge: ListwiseJudge) -> None:
        """The caller's list is read, not reordered in place."""
        candidates = list(CANDIDATES)
        listwise_judge.judge("agency new sales", candidates)
        assert candidates == list(CANDIDATES)


class ScoringJudgeContract:
    """The behavioural contract of :class:`~ragspine_nb.retrieval.rerank.ScoringJudge`.

    Notes
    -----
    The inheriting class defines the fixture ``scoring_judge``: the judge under test.
    When it also has a ``judge`` method, that order must follow its scores (highest
    first, ties by index), as every shipped scoring judge does.
    """

    def test_score_gives_one_finite_float_per_candidate(
            self, scoring_judge: ScoringJudge) -> None:
        """As many scores as candidates, each a finite real number."""
        for n in (1, len(CANDIDATES)):
            scores = scoring_judge.score("agency new sales", list(CANDIDATES[:n]))
            assert len(scores) == n
            assert all(isinstance(s, int | float) and math.isfinite(s) for s in scores)

    def test_score_of_no_candidates_is_empty(self, scoring_judge: ScoringJudge) -> None:
        """No candidates, no scores."""
        assert list(scoring_judge.score("agency new sales", [])) == []

    @pytest.mark.parametrize(("query", "candidates", "relevant"), RELEVANCE_CASES)
    def test_score_is_highest_for_the_relevant_passage(
            self, scoring_judge: ScoringJudge, query: str, candidates: tuple[str, ...],
            relevant: int) -> None:
        """The passage that answers the query scores strictly above every other."""
        scores = scoring_judge.score(query, list(candidates))
        others = [s for i, s in enumerate(scores) if i != relevant]
        assert scores[relevant] > max(others)

    def test_score_is_deterministic(self, scoring_judge: ScoringJudge) -> None:
        """The same query and candidates give the same scores."""
        first = scoring_judge.score("agency new sales", list(CANDIDATES))
        again = scoring_judge.score("agency new sales", list(CANDIDATES))
        assert again == pytest.approx(first, rel=1e-5, abs=1e-6)

    def test_judge_order_follows_the_scores(self, scoring_judge: ScoringJudge) -> None:
        """A scoring judge's ``judge`` (when it has one) sorts by score, ties by index."""
        judge = getattr(scoring_judge, "judge", None)
        if not callable(judge):
            pytest.skip("this scoring judge has no judge method")
        query, candidates, _ = RELEVANCE_CASES[1]
        scores = scoring_judge.score(query, list(candidates))
        expected = sorted(range(len(candidates)), key=lambda k: (-scores[k], k))
        assert list(judge(query, list(candidates))) == expected
