"""The dual-channel agent as one object, built from its stores or from a workspace folder.

The guarantees of every answer are those of :func:`~ragspine_nb.agent.pipeline.answer_question`
(the loop): numbers only from the fact store, rebuilt from the stored cells; a miss is an
honest refusal; a conflict is never one number; an operation is computed over cited cells
or refused; narrative sentences are grounded and cited.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any

from ragspine_nb.agent.compute.query_tools import TOOL_NAME
from ragspine_nb.agent.conversation import Conversation
from ragspine_nb.agent.faq import FaqCache
from ragspine_nb.agent.narrative.channel import NarrativeRetriever
from ragspine_nb.agent.pipeline import MAX_TOOL_ITERATIONS, answer_question
from ragspine_nb.agent.providers import LLMProvider, MockProvider
from ragspine_nb.agent.reading.intent import RuleIntentParser
from ragspine_nb.agent.result import AgentResult
from ragspine_nb.agent.scope.fiscal_dates import Calendars, calendars_of
from ragspine_nb.agent.scope.follow_up import Carried
from ragspine_nb.agent.write.render import EXCERPT_CHARS
from ragspine_nb.display.mixin import CardReprMixin
from ragspine_nb.display.views import make_view
from ragspine_nb.errors import DatabaseNotFoundError, ProfileError
from ragspine_nb.profile import DomainProfile, find_profile
from ragspine_nb.retrieval.planning import RuleQueryPlanner
from ragspine_nb.stores.conversations import ConversationStore
from ragspine_nb.stores.facts import FactStore
from ragspine_nb.vocabulary import effective_profile

__all__ = ["Agent", "AgentResult", "answer_question", "NarrativeRetriever",
           "MAX_TOOL_ITERATIONS", "EXCERPT_CHARS"]

# ------------------------------------------------------------------------ Agent
#: The files of a workspace folder (as :mod:`ragspine_nb.ingestion.workspace` writes them).
FACTS_DB, CHUNKS_DB = "facts.db", "chunks.db"


def _workspace_profile(folder: Path, store: FactStore,
                       profile: DomainProfile | str | Path | None) -> DomainProfile:
    """The workspace's effective profile (:func:`~ragspine_nb.vocabulary.effective_profile`).

    The profile given, else the one stored in the folder, else the built-in financial
    profile; with every document's derived vocabulary merged under it (the profile wins
    where it speaks). On the built-in profile, the one company every document names is
    the home entity.
    """
    if not isinstance(profile, DomainProfile):
        path = Path(profile) if profile is not None else find_profile(folder)
        profile = DomainProfile.from_file(path) if path is not None else DomainProfile.builtin()
    documents = [d["doc_id"] for d in store.source_documents() if d["facts"]]
    return effective_profile(profile, store.vocabularies(), documents)


class Agent(CardReprMixin):
    """The dual-channel agent as one object.

    Parameters
    ----------
    store : FactStore or path
        The fact store (numbers only ever come from here).
    index : NarrativeIndex, optional
        The narrative channel (its retriever drops RESTRICTED chunks).
    provider : LLMProvider, optional
        ``None`` means :class:`MockProvider` (offline).
    profile : DomainProfile or path, optional
        Defaults to the profile stored beside a file store (its workspace).
    faq : FaqCache, optional
        Curated answers for recurring narrative questions.
    """

    def __init__(self, store: FactStore | str | Path, index: Any = None,
                 provider: LLMProvider | None = None,
                 profile: DomainProfile | str | Path | None = None,
                 faq: FaqCache | None = None) -> None:
        self.store = store if isinstance(store, FactStore) else FactStore(store, create=False)
        if isinstance(profile, DomainProfile):
            self.profile = profile
        else:
            path = Path(profile) if profile is not None else self._workspace_profile()
            self.profile = DomainProfile.from_file(path)
        self.index = index
        self.provider = provider or MockProvider()
        self.faq = faq
        # metrics with no stored figure never compete with named ones that have some; a
        # column's rows with figures tell its name apart from a row's of the same words
        pairs = self.store.metric_channels()
        held: dict[str, set[str]] = {}
        for metric, channel in pairs:
            held.setdefault(channel, set()).add(metric)
        self.parser = RuleIntentParser(
            self.profile, live_metrics={m for m, _ in pairs},
            held={c: frozenset(ms) for c, ms in held.items()},
            corpus=getattr(index, "knows_word", None),  # the reports' words: no typos
            corpus_words=getattr(index, "long_words", None))  # and what a long one may be
        # a real model also paraphrases the question for retrieval (semantic variants)
        self.planner = RuleQueryPlanner(
            self.profile, provider=None if isinstance(self.provider, MockProvider)
            else self.provider)
        self._retriever: Any = None
        self._retriever_of: tuple[int, int] | None = None
        self._calendars: Calendars | None = None

    @classmethod
    def from_workspace(cls, path: str | Path, *, provider: LLMProvider | None = None,
                       embedding_backend: Any = None,
                       profile: DomainProfile | str | Path | None = None,
                       faq: FaqCache | None = None, narrative: bool = True,
                       **index_options: Any) -> Agent:
        """The agent of a workspace folder: its facts, its narrative chunks, its profile.

        The one way the CLI, the service, the notebooks and the benchmarks build an agent
        from a folder that ``ingest`` wrote (``facts.db``, ``chunks.db``, the profile).

        Parameters
        ----------
        path : str or Path
            The workspace folder; its ``facts.db`` must exist (nothing is created).
        provider : LLMProvider, optional
            ``None`` means :class:`MockProvider` (offline).
        embedding_backend : EmbeddingBackend or str, optional
            The narrative index's vectors (``None``: BM25 only).
        profile : DomainProfile or path, optional
            Overrides the workspace's own profile (its file, else the built-in financial
            profile). Either way the documents' derived vocabulary is merged under it,
            as ``Workspace.effective_profile()`` does.
        faq : FaqCache, optional
            Curated answers for recurring narrative questions.
        narrative : bool, default True
            Open ``chunks.db`` as the narrative channel (when the folder has one).
        **index_options
            Passed to :class:`~ragspine_nb.retrieval.index.NarrativeIndex`; e.g.
            ``judge=default_judge()`` (:func:`~ragspine_nb.retrieval.rerank.default_judge`,
            the offline cross-encoder when the ``rerank`` extra is installed) reranks English
            questions' passages. Off by default: on FinanceBench and TAT-QA it has not yet
            shown a gain.

        Raises
        ------
        DatabaseNotFoundError
            The folder holds no ``facts.db``.
        """
        from ragspine_nb.retrieval.index import NarrativeIndex
        from ragspine_nb.stores.chunks import ChunkStore

        folder = Path(path)
        if not (folder / FACTS_DB).is_file():
            raise DatabaseNotFoundError(
                f"no store at {folder / FACTS_DB}. Build it first with `ragspine-nb ingest` "
                "or `ragspine-nb demo`; nothing was created.")
        store = FactStore(folder / FACTS_DB, create=False)
        prof = _workspace_profile(folder, store, profile)
        index = None
        if narrative and (folder / CHUNKS_DB).is_file():
            index = NarrativeIndex(ChunkStore(folder / CHUNKS_DB, create=False), profile=prof,
                                   embedding_backend=embedding_backend, **index_options)
        return cls(store, index, provider, prof, faq)

    def _workspace_profile(self) -> Path:
        found = find_profile(Path(self.store.path).parent) if self.store.path != ":memory:" \
            else None
        if found is None:
            raise ProfileError("Agent needs profile= (no profile.* beside the fact store)")
        return found

    @property
    def retriever(self) -> Any:
        """The narrative channel's retriever (``None`` without an index).

        Built once, on first use, and again only when ``index`` or ``planner`` is
        replaced; every question of this agent goes through it.
        """
        if self.index is None:
            return None
        of = (id(self.index), id(self.planner))
        if self._retriever is None or self._retriever_of != of:
            self._retriever = self.index.retriever(planner=self.planner)
            self._retriever_of = of
        return self._retriever

    @property
    def calendars(self) -> Calendars:
        """The companies' fiscal calendars, read from the store once, on first use.

        As the parser's stored metrics are read once: an agent answers the workspace it
        was opened on.
        """
        if self._calendars is None:
            self._calendars = calendars_of(self.store)
        return self._calendars

    def ask(self, question: str, reference_date: date | None = None,
            history: Sequence[tuple[str, str]] | None = None,
            follow_up: Carried | None = None) -> AgentResult:
        """Answer one question (see :func:`answer_question`)."""
        return answer_question(question, self.store, self.provider,
                               reference_date=reference_date, follow_up=follow_up,
                               narrative_retriever=self.retriever,
                               intent_parser=self.parser, profile=self.profile,
                               history=history, faq=self.faq, calendars=self.calendars)

    def close(self) -> None:
        """Close the fact store and the narrative index's chunk store (if any)."""
        self.store.close()
        store = getattr(self.index, "store", None)
        if store is not None:
            store.close()

    def widget(self, reference_date: date | None = None) -> Any:
        """An :class:`~ragspine_nb.widgets.AskWidget` bound to this agent."""
        return make_view("ask", self, reference_date)

    def chat(self, store: Any = None, conversation_id: str | None = None) -> Any:
        """A :class:`~ragspine_nb.agent.conversation.Conversation` with this agent.

        ``store`` is a :class:`~ragspine_nb.stores.conversations.ConversationStore` (or
        its path); in memory by default.
        """
        if store is not None and not isinstance(store, ConversationStore):
            store = ConversationStore(store)
        return Conversation(self, store, conversation_id)

    def topology(self) -> Any:
        """Router → fact channel | narrative pipeline, from the real configuration."""
        from ragspine_nb.retrieval.topology import Node, PipelineGraph

        nodes = [Node("q", "question"),
                 Node("gate", "security gate", (("refuses", "competitors"),)),
                 Node("intent", "intent + clarification"),
                 Node("facts", "fact channel", (("tool", TOOL_NAME),))]
        edges = [("q", "gate"), ("gate", "intent"), ("intent", "facts")]
        if self.index is not None:
            nodes.append(Node("narr", "narrative channel", (("pipeline", repr(
                self.index.topology())),)))
            edges.append(("intent", "narr"))
        nodes.append(Node("answer", "cited answer",
                          (("provider", getattr(self.provider, "name",
                                                type(self.provider).__name__)),)))
        edges += [("facts", "answer")] + ([("narr", "answer")] if self.index is not None else [])
        return PipelineGraph(tuple(nodes), tuple(edges), title="Agent")

    def __repr__(self) -> str:
        return (f"Agent(store={self.store.path!r}, narrative={'yes' if self.index else 'no'}, "
                f"provider={getattr(self.provider, 'name', type(self.provider).__name__)!r})")

    def _display_html(self) -> str:
        return str(self.topology()._display_html())
