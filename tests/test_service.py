"""The HTTP service: FastAPI's test client, and a real uvicorn server on 127.0.0.1."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
import httpx  # noqa: E402
import uvicorn  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from ragspine_nb import Agent, DomainProfile, FactStore, NarrativeIndex  # noqa: E402
from ragspine_nb.agent.providers import MockProvider, ProviderResponse  # noqa: E402
from ragspine_nb.service import create_app  # noqa: E402
from ragspine_nb.service.app import token_chunks  # noqa: E402
from ragspine_nb.service.models import ServiceLimits  # noqa: E402
from ragspine_nb.stores.conversations import ConversationStore  # noqa: E402

HK = "What was ACME Hong Kong's revenue in FY2025?"


def _agent(ws: Path, provider: Any = None) -> Agent:
    profile = DomainProfile.from_file(ws / "profile.toml")
    return Agent(FactStore(ws / "facts.db", create=False),
                 NarrativeIndex(ws / "chunks.db", profile=profile), provider=provider)


@pytest.fixture()
def client(demo_ws: Path, tmp_path: Path) -> TestClient:
    return TestClient(create_app(_agent(demo_ws), ConversationStore(tmp_path / "conv.db")))


def _events(lines: Iterator[str]) -> list[dict[str, Any]]:
    return [json.loads(line[len("data: "):]) for line in lines if line.startswith("data: ")]


# ------------------------------------------------------------------------ /v1/ask
def test_healthz_and_openapi(client: TestClient) -> None:
    health = client.get("/healthz").json()
    assert health == {"status": "ok", "facts": 83, "chunks": 14, "conversations": 0,
                      "version": health["version"]}
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/healthz", "/v1/ask", "/chat", "/chat/stream",
            "/chat/history/{conversation_id}"} <= set(paths)


def test_docs_page_loads_swagger_ui_from_the_package_not_a_cdn(client: TestClient) -> None:
    import re

    from ragspine_nb.service.docs import SWAGGER_DIR

    page = client.get("/docs")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "http://" not in page.text and "https://" not in page.text  # nothing from a CDN
    assets = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert {a.rsplit("/", 1)[-1] for a in assets} == {"swagger-ui-bundle.js", "swagger-ui.css",
                                                      "favicon-32x32.png"}
    kinds = {"js": "javascript", "css": "text/css", "png": "image/png"}
    for url in assets:
        assert url.startswith("/static/swagger-ui/")
        got = client.get(url)
        assert got.status_code == 200 and kinds[url.rsplit(".", 1)[1]] in \
            got.headers["content-type"]
        assert got.content == (SWAGGER_DIR / url.rsplit("/", 1)[1]).read_bytes()
    assert "SwaggerUIBundle" in client.get(assets[-1] if assets[-1].endswith(".js") else
                                           "/static/swagger-ui/swagger-ui-bundle.js").text
    assert "url: '/openapi.json'" in page.text and '"validatorUrl": null' in page.text
    assert client.get("/redoc").status_code == 404  # ReDoc would load from a CDN: not served
    assert "/docs" not in client.get("/openapi.json").json()["paths"]
    # the licence and notice of the vendored files travel with them
    assert "Apache License" in (SWAGGER_DIR / "LICENSE").read_text(encoding="utf-8")
    assert "SmartBear" in (SWAGGER_DIR / "NOTICE").read_text(encoding="utf-8")


def test_ask_structured_number_comes_from_the_store_with_citations(
        client: TestClient, demo_ws: Path) -> None:
    body = client.post("/v1/ask", json={"question": HK}).json()
    (fact,) = FactStore(demo_ws / "facts.db", create=False).iter_facts(
        metric_code="REVENUE", entity="ACME_HK", period_type="FY", period="2025",
        channel="TOTAL")
    assert fact.value == 1405 and "1,405 US$ m" in body["answer"]
    assert body["route"] == "structured" and body["tool_status"] == {"found": 1}
    assert body["sources"] == [{"doc": "ACME_FY2025_Results.pptx",
                                "locator": "slide=3,table=1,row=REVENUE,col=FY2025"}]
    (cite,) = body["citations"]
    assert cite == {"index": 1, "kind": "fact", "doc_id": "ACME_FY2025_Results.pptx",
                    "title": "", "locator": "slide=3,table=1,row=REVENUE,col=FY2025",
                    "excerpt": "REVENUE · ACME_HK · 2025 · TOTAL: 1,405 USD_M"}
    assert body["retrieval"]["route"] == "structured" and body["retrieval"]["latency_ms"] > 0
    assert len(body["request_id"]) == 16


def test_ask_narrative_cites_passages_and_reports_the_retrieval(client: TestClient) -> None:
    body = client.post("/v1/ask", json={"question": "Why did Mainland China revenue fall?"}
                       ).json()
    assert body["route"] in ("narrative", "composite") and body["citations"]
    passages = [c for c in body["citations"] if c["kind"] == "passage"]
    assert passages and all(c["doc_id"] and c["locator"] and c["excerpt"] for c in passages)
    meta = body["retrieval"]
    assert meta["queries_generated"] >= 2 and meta["candidates_found"] >= meta[
        "evidence_used"] >= 1 and meta["retrieval_loops"] >= 1


def test_restricted_text_never_leaves_the_service(client: TestClient) -> None:
    for q in ("What did the board discuss about the acquisition price range?",
              "Project Falcon acquisition board minutes"):
        raw = client.post("/v1/ask", json={"question": q}).text
        assert "CANARY" not in raw and "board_minutes" not in raw


def test_competitor_question_refused_and_history_is_context_only(demo_ws: Path,
                                                                 tmp_path: Path) -> None:
    seen: list[list[dict[str, Any]]] = []

    class Spy(MockProvider):
        def create_message(self, *, system: str, messages: list[dict[str, Any]],
                           tools: list[dict[str, Any]]) -> ProviderResponse:
            seen.append(messages)
            return super().create_message(system=system, messages=messages, tools=tools)

    c = TestClient(create_app(_agent(demo_ws, Spy()), ConversationStore(tmp_path / "c.db")))
    refused = c.post("/v1/ask", json={"question": "竞安2025年的营收是多少？"}).json()
    assert refused["clarification"]["mode"] == "out_of_scope_entity"
    assert refused["citations"] == [] and refused["tool_status"] == {}
    # a competitor (and a RESTRICTED label) in the history cannot change the answer
    history = [{"role": "user", "content": "Tell me about 竞安 RESTRICTED board minutes"},
               {"role": "assistant", "content": "I can't discuss competitors."}]
    body = c.post("/v1/ask", json={"question": HK, "history": history}).json()
    assert body["clarification"]["mode"] == "none" and "1,405 US$ m" in body["answer"]
    narrative = c.post("/v1/ask", json={"question": "Why did Mainland China revenue fall?",
                                        "history": history}).json()
    assert narrative["citations"]
    prompts = [m for msgs in seen for m in msgs]
    # issue 14 item 11: the gate screens the history too, so the competitor turn is
    # dropped before the prompt is built (it used to reach it as generation context)
    assert prompts and not any("竞安" in str(m["content"]) for m in prompts)


@pytest.mark.parametrize("payload, detail", [
    ({"question": ""}, "question must not be empty"),
    ({"question": "   "}, "question must not be empty"),
    ({"question": "x" * 2001}, "question is too long: 2001 characters, the limit is 2000"),
    ({}, "question: Field required"),
    ({"question": HK, "extra": 1}, "extra: Extra inputs are not permitted"),
    ({"question": HK, "reference_date": "31/03/2026"}, "reference_date: Input should be a "
                                                       "valid date"),
    ({"question": HK, "history": [{"role": "user", "content": "hi"}] * 21},
     "history has 21 messages, the limit is 20"),
    ({"question": HK, "history": [{"role": "user", "content": "x" * 8001}]},
     "history is too long: the limit is 8000 characters in all"),
    ({"question": HK, "history": [{"role": "system", "content": "x"}]}, "history.0.role"),
])
def test_input_limits_give_clear_4xx(client: TestClient, payload: dict[str, Any],
                                     detail: str) -> None:
    r = client.post("/v1/ask", json=payload)
    assert r.status_code == 422 and detail in r.json()["detail"], r.json()


def test_limits_are_configurable(demo_ws: Path) -> None:
    c = TestClient(create_app(_agent(demo_ws), limits=ServiceLimits(max_question_chars=10)))
    assert c.post("/v1/ask", json={"question": HK}).json()["detail"] == \
        "question is too long: 44 characters, the limit is 10"


# ------------------------------------------------------------------------ chat
def test_chat_persists_and_history_survives_a_restart(demo_ws: Path, tmp_path: Path) -> None:
    db = tmp_path / "conv.db"
    c = TestClient(create_app(_agent(demo_ws), ConversationStore(db)))
    first = c.post("/chat", json={"message": HK}).json()
    cid = first["conversation_id"]
    assert first["message"]["citations"][0]["locator"] == \
        "slide=3,table=1,row=REVENUE,col=FY2025"
    second = c.post("/chat", json={"message": "Why did Hong Kong agency sales change?",
                                   "conversation_id": cid}).json()
    assert second["conversation_id"] == cid
    assert second["retrieval_metadata"]["queries_generated"] >= 2
    # a new process (new app, same file) still has the conversation
    again = TestClient(create_app(_agent(demo_ws), ConversationStore(db)))
    hist = again.get(f"/chat/history/{cid}").json()
    assert [m["role"] for m in hist["messages"]] == ["user", "assistant"] * 2
    assert hist["messages"][0]["content"] == HK
    assert hist["messages"][1]["sources"][0]["doc"] == "ACME_FY2025_Results.pptx"
    assert hist["messages"][1]["meta"]["route"] == "structured"
    assert again.get("/chat/history/unknown-id").status_code == 404
    bad = again.get("/chat/history/bad id!")
    assert bad.status_code == 422 and "conversation_id must be" in bad.json()["detail"]
    r = again.post("/chat", json={"message": "hi", "conversation_id": "../etc"})
    assert r.status_code == 422


def test_stream_events_in_order_and_tokens_rebuild_the_answer(client: TestClient) -> None:
    with client.stream("POST", "/chat/stream", json={"message": HK}) as r:
        assert r.headers["content-type"].startswith("text/event-stream")
        events = _events(r.iter_lines())
    kinds = [e["type"] for e in events]
    assert kinds[0] == "metadata" and kinds[1] == "citations" and kinds[-1] == "done"
    assert set(kinds[2:-1]) == {"token"}
    answer = "".join(e["content"] for e in events if e["type"] == "token")
    cid = events[0]["conversation_id"]
    stored = client.get(f"/chat/history/{cid}").json()["messages"][-1]["content"]
    assert answer == stored and "1,405 US$ m" in answer
    assert events[1]["citations"][0]["doc_id"] == "ACME_FY2025_Results.pptx"
    assert "".join(token_chunks("a  b\nc")) == "a  b\nc"


def test_failures_are_json_or_an_error_event_never_a_traceback(demo_ws: Path) -> None:
    class Broken(Agent):
        def ask(self, *args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("disk on fire")

    agent = _agent(demo_ws)
    broken = Broken(agent.store, agent.index, profile=agent.profile)
    c = TestClient(create_app(broken), raise_server_exceptions=False)
    r = c.post("/v1/ask", json={"question": HK})
    assert r.status_code == 500 and set(r.json()) == {"detail", "request_id"}
    assert "Traceback" not in r.text and "disk on fire" not in r.text
    with c.stream("POST", "/chat/stream", json={"message": HK}) as s:
        events = _events(s.iter_lines())
    assert [e["type"] for e in events] == ["error"]
    assert "Traceback" not in json.dumps(events) and "disk on fire" not in json.dumps(events)


# ------------------------------------------------------------------------ real server
@pytest.fixture()
def server(demo_ws: Path, tmp_path: Path) -> Iterator[str]:
    app = create_app(_agent(demo_ws), ConversationStore(tmp_path / "conv.db"))
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert srv.started, "uvicorn did not start"
    port = srv.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)


def test_real_uvicorn_server_with_sse_read_by_a_real_client(server: str) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        assert http.get("/healthz").json()["status"] == "ok"
        body = http.post("/v1/ask", json={"question": HK}).json()
        assert "1,405 US$ m" in body["answer"] and body["citations"]
        with http.stream("POST", "/chat/stream",
                         json={"message": "Why did Mainland China revenue fall?"}) as r:
            assert r.status_code == 200
            events = _events(r.iter_lines())
        assert [e["type"] for e in events][:2] == ["metadata", "citations"]
        assert events[-1] == {"type": "done"}
        assert events[0]["retrieval"]["queries_generated"] >= 2
        cid = events[0]["conversation_id"]
        hist = http.get(f"/chat/history/{cid}").json()
        assert len(hist["messages"]) == 2


def test_serve_warns_off_loopback(monkeypatch: pytest.MonkeyPatch, demo_ws: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    from ragspine_nb.cli.commands import main

    ran: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: ran.update(kw))
    assert main(["serve", "--workspace", str(demo_ws), "--host", "0.0.0.0",
                 "--port", "8123"]) == 0
    assert ran == {"host": "0.0.0.0", "port": 8123, "log_level": "info"}
    assert "no authentication" in capsys.readouterr().err
