"""Stateful check of the chunk store against a plain-Python model (hypothesis)."""

from __future__ import annotations

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from ragspine_nb import Chunk, ChunkStore
from ragspine_nb.core import StoredChunk

DOCS = st.sampled_from(["a.md", "b.pptx", "c.pdf"])
TEXTS = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1,
                max_size=30).filter(lambda t: t.strip() != "" and "\x00" not in t)


class ChunkStoreModel(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.store = ChunkStore()
        # doc -> list of versions; each version is a list of chunk texts
        self.history: dict[str, list[list[str]]] = {}
        self.active: dict[str, int | None] = {}

    @rule(doc=DOCS, texts=st.lists(TEXTS, min_size=1, max_size=6),
          entity=st.sampled_from(["", "ACME_HK", "ACME_CN"]))
    def replace(self, doc: str, texts: list[str], entity: str) -> None:
        chunks = [Chunk(doc_id=doc, chunk_id=f"{doc}#{i}", seq=i, text=t, entity=entity,
                        source_locator=f"para={i + 1}") for i, t in enumerate(texts)]
        assert self.store.replace_doc_chunks(doc, chunks) == len(texts)
        self.history.setdefault(doc, []).append(texts)
        self.active[doc] = len(self.history[doc])

    @rule(doc=DOCS)
    def withdraw(self, doc: str) -> None:
        assert self.store.replace_doc_chunks(doc, []) == 0
        self.active[doc] = None

    @rule(doc=DOCS)
    def bad_replace_changes_nothing(self, doc: str) -> None:
        before = self.store.iter_chunks(include_inactive=True)
        bad = Chunk(doc_id="other", chunk_id="x", seq=0, text="t", source_locator="para=1")
        try:
            self.store.replace_doc_chunks(doc, [bad])
        except ValueError:
            pass
        else:
            raise AssertionError("a chunk of another document was accepted")
        assert self.store.iter_chunks(include_inactive=True) == before

    @invariant()
    def active_rows_match_the_model(self) -> None:
        for doc, version in self.active.items():
            rows: list[StoredChunk] = self.store.iter_chunks(doc_id=doc)
            if version is None:
                assert rows == []
                continue
            assert [r.text for r in rows] == self.history[doc][version - 1]
            assert {r.version for r in rows} == {version}
            assert all(r.source_locator and r.doc_id == doc for r in rows)

    @invariant()
    def old_versions_are_kept(self) -> None:
        total = sum(len(v) for versions in self.history.values() for v in versions)
        assert self.store.count(include_inactive=True) == total


ChunkStoreModel.TestCase.settings = settings(max_examples=60, stateful_step_count=25,
                                             deadline=None)
TestChunkStoreModel = ChunkStoreModel.TestCase
