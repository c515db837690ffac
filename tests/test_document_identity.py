"""Issue 36 item 1-2: a folder of filings as it comes — each company and year kept apart.

Each document names its filer and period (a 10-K's cover page, a PDF title, a file name
with a document type); its figures and passages are filed under that company, with no
metadata. Two companies are never one entity; a question naming none of several asks
back; a question naming one is answered and cited from that company's documents only;
the scale of a table is never read from another company's prose.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine_nb import DomainProfile, FactStore, ingest
from ragspine_nb.agent import Agent
from ragspine_nb.extract.beir import data_root
from ragspine_nb.extract.identity import read_identity
from tests.filings import filing as _filing
from tests.filings import with_orvale_row as _with_orvale_row

REF = date(2024, 3, 1)


@pytest.fixture(scope="module")
def two_companies(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("filings")
    folder = base / "reports"
    folder.mkdir()
    _filing(folder / "zentra_report.pdf", "ZENTRA CORPORATION", 2023,
            [("Net sales", "1,200", "1,000"), ("Net income", "150", "120")],
            ["Net sales grew because demand for widgets rose in every region."],
            registrant="1-4101")
    _filing(folder / "orvale_report.pdf", "ORVALE INC.", 2023,
            [("Net sales", "5,300", "5,900"), ("Net income", "410", "480")],
            ["Net sales fell because store traffic declined after price increases."],
            registrant="1-4102")
    report = ingest(folder, workspace=base / "ws", progress=False)
    assert report.count("ingested") == 2
    return base / "ws"


def test_each_company_is_its_own_entity_and_the_report_says_who_filed(
        two_companies: Path) -> None:
    store = FactStore(two_companies / "facts.db", create=False)
    values = {(f.entity, f.metric_code, f.period): f.value for f in store.iter_facts()}
    assert values[("ZENTRA", "REVENUE", "2023")] == 1200.0
    assert values[("ORVALE", "REVENUE", "2023")] == 5300.0
    assert {e for e, _, _ in values} == {"ZENTRA", "ORVALE"}  # never one "the company"
    who = store.document_identities()
    assert who["zentra_report.pdf"] == {
        "company": "Zentra Corporation", "entity": "ZENTRA", "period": "FY2023",
        "fiscal_year_end": "2023-12-31", "doc_type": "10-K", "registrant": "1-4101",
        "sources": "company=cover page; period=cover page; doc_type=cover page; "
                   "registrant=cover page; calendar=document text"}  # its year end, read


def test_a_question_naming_a_company_is_answered_and_cited_from_its_filing_only(
        two_companies: Path) -> None:
    agent = Agent.from_workspace(two_companies)
    number = agent.ask("What were Orvale's net sales in 2023?", REF)
    assert "Orvale Inc. Revenue, FY2023: 5,300 million" in number.answer
    why = agent.ask("Why did Orvale's net sales fall in 2023?", REF)
    assert "store traffic declined" in why.answer
    assert {s["doc"] for s in why.sources} == {"orvale_report.pdf"}
    other = agent.ask("Why did Zentra's net sales change in 2023?", REF)
    assert {s["doc"] for s in other.sources} == {"zentra_report.pdf"}
    # the model is told whose filings the passages are (the name is who, not what)
    from ragspine_nb.agent.providers import COMPANY_LINE, RecordingProvider

    spy = RecordingProvider()
    Agent.from_workspace(two_companies, provider=spy).ask("Why did Orvale's net sales fall?",
                                                          REF)
    assert f"{COMPANY_LINE} Orvale Inc.\\nQuestion: Why did Orvale" in spy.prompts[-1]


def test_a_search_in_the_companys_own_filings_leaves_its_name_out(
        two_companies: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # among its own filings the name says whose, not what: a passage naming a segment
    # "Orvale Health" would outrank the one stating the cause on the name alone
    agent = Agent.from_workspace(two_companies)
    retriever = agent.retriever
    asked: list[str] = []
    search = retriever.retrieve

    def spy(query, **kw):  # type: ignore[no-untyped-def]
        asked.append(query)
        return search(query, **kw)

    monkeypatch.setattr(retriever, "retrieve", spy)
    why = agent.ask("Why did Orvale's net sales fall in 2023?", REF)
    assert "store traffic declined" in why.answer
    assert asked and all("orvale" not in q.lower() for q in asked)
    assert "Why did 's net sales fall in 2023?" in asked


@pytest.mark.parametrize(("question", "expected"), [
    ("What were net sales in 2023?",
     "Which company do you mean? This workspace holds documents of Orvale Inc. and Zentra "
     "Corporation."),
    ("Why did net sales grow?",
     "Which company do you mean? This workspace holds documents of Orvale Inc. and Zentra "
     "Corporation."),
    # a name the folder does not know, away from the metric: the folder's companies listed
    ("In which year did Quillon have the highest net sales?",
     "Which company do you mean? This workspace holds documents of Orvale Inc. and Zentra "
     "Corporation."),
    ("2023年净利润是多少？",
     "您问的是哪家公司？本工作区包含以下公司的文件：Orvale Inc.、Zentra Corporation。"),
])
def test_a_question_naming_none_of_several_companies_asks_back(
        two_companies: Path, question: str, expected: str) -> None:
    r = Agent.from_workspace(two_companies).ask(question, REF)
    assert r.answer == expected
    assert not r.figures and not r.sources


def test_one_company_in_the_workspace_is_assumed_and_said(tmp_path: Path) -> None:
    folder = tmp_path / "one"
    folder.mkdir()
    _filing(folder / "zentra_report.pdf", "ZENTRA CORPORATION", 2023,
            [("Net sales", "1,200", "1,000")], ["Net sales grew."])
    ingest(folder, workspace=tmp_path / "ws", progress=False)
    r = Agent.from_workspace(tmp_path / "ws").ask("What were net sales in 2023?", REF)
    assert "Zentra Corporation Revenue, FY2023: 1,200 million" in r.answer


def test_a_tables_scale_is_never_read_from_another_companys_prose(tmp_path: Path) -> None:
    folder = tmp_path / "mixed"
    folder.mkdir()
    _filing(folder / "zentra_report.pdf", "ZENTRA CORPORATION", 2023,
            [("Net sales", "1,200", "1,000")], ["Net sales grew."], unit="")
    _filing(folder / "orvale_report.pdf", "ORVALE INC.", 2023,
            [("Net sales", "5,300", "5,900")],
            ["All amounts in this report are in millions of US dollars."], unit="")
    report = ingest(folder, workspace=tmp_path / "ws", progress=False)
    line = next(f for f in report.files if f.doc_id == "zentra_report.pdf")
    assert "orvale_report.pdf" not in line.reason
    assert "no prose in their folder tells it; they are kept as written" in line.reason
    store = FactStore(tmp_path / "ws" / "facts.db", create=False)
    units = {f.entity: f.unit for f in store.iter_facts()}
    assert units == {"ORVALE": "M", "ZENTRA": "NUMBER"}  # Zentra's not read from Orvale's


def test_a_sheet_naming_nothing_reads_the_scale_of_its_notes_that_name_a_year(
        tmp_path: Path) -> None:
    # the notes name a fiscal year, the sheet names none: nothing differs, so the same
    # document set (a table and its notes, as a user saves them)
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "table.csv").write_text("Item,2019,2018\nAccrued expenses,\"81,731\",\"81,912\"\n")
    (folder / "notes.md").write_text(
        "Accrued liabilities are summarized below (in thousands). The increase for the "
        "fiscal year ended August 31, 2019 reflects higher payroll accruals.\n")
    ingest(folder, workspace=tmp_path / "ws", progress=False)
    store = FactStore(tmp_path / "ws" / "facts.db", create=False)
    assert {(f.period, f.unit) for f in store.iter_facts()} == {("2019", "K"), ("2018", "K")}


def test_a_sheet_naming_nothing_beside_two_companies_reads_neither(
        tmp_path: Path) -> None:
    folder = tmp_path / "mixed"
    folder.mkdir()
    _filing(folder / "zentra_report.pdf", "ZENTRA CORPORATION", 2023,
            [("Net sales", "1,200", "1,000")], ["Amounts are in thousands."], unit="")
    _filing(folder / "orvale_report.pdf", "ORVALE INC.", 2023,
            [("Net sales", "5,300", "5,900")], ["Amounts are in millions."], unit="")
    (folder / "table.csv").write_text("Item,2023,2022\nHeadcount,\"1,300\",\"1,250\"\n")
    report = ingest(folder, workspace=tmp_path / "ws", progress=False)
    line = next(f for f in report.files if f.doc_id == "table.csv")
    assert "zentra_report.pdf" not in line.reason and "orvale_report.pdf" not in line.reason


def test_a_document_naming_no_company_warns_once(tmp_path: Path) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    _filing(folder / "review.pdf", "", 2023, [("Net sales", "1,200", "1,000")],
            ["Net sales grew."], cover=False)
    report = ingest(folder, workspace=tmp_path / "ws", progress=False)
    assert report.files[0].reason.count("company not named in the document") == 1


@pytest.mark.parametrize(("filename", "title", "text", "described"), [
    ("x.pdf", "", "FORM 10-K\nFor the fiscal year ended January 28, 2023\nCommission file "
     "number 1-9595\n____ BEST BUY CO., INC.\n(Exact name of registrant as specified in its "
     "charter)", "company Best Buy Co., Inc. (cover page), FY2023 (year ended 2023-01-28), 10-K"),
    ("x.pdf", "", "FORM 10-K\nFor the fiscal year ended December 31, 2018\nCommission file "
     "number 1-3285\n3M COMPANY\nState of Incorporation: Delaware",
     "company 3M Company (cover page), FY2018 (year ended 2018-12-31), 10-K"),
    ("x.pdf", "Form 10-K for Foot Locker INC filed 03/27/2023", "FORM 10-K\nFor the fiscal "
     "year ended January 28, 2023\n(Exact name of registrant as specified in its charter)",
     "company Foot Locker INC (title), FY2023 (year ended 2023-01-28), 10-K"),
    ("AMCOR_2023Q4_EARNINGS.pdf", "", "Amcor reports fiscal 2023 results",
     "company Amcor (file name), earnings release"),
    ("NIKE_2019_10K.pdf", "", "", "company Nike (file name), FY2019, 10-K"),
    # a 10-Q is of its quarter, never of a fiscal year its text names (Amcor's was FY2022):
    # that year end sets the fiscal calendar (December 31, 2022 is Q2 of fiscal 2023)
    ("x.pdf", "", "FORM 10-Q\nFor the Quarterly Period Ended December 31, 2022\nAMCOR PLC\n"
     "(Exact name of Registrant as specified in its charter)\nOur Annual Report on Form 10-K "
     "for the fiscal year ended June 30, 2022",
     "company Amcor PLC (cover page), 2023Q2 (of the year after 2022-06-30), 10-Q"),
    ("x.pdf", "", "FORM 10-Q\nFor the quarterly period ended September 30, 2019\nACME CORP\n"
     "(Exact name of registrant as specified in its charter)",
     "company Acme Corp (cover page), 2019Q3, 10-Q"),
    ("ACME_FY2025_Results.pptx", "", "", ""),  # no document type: the name is not read
    ("QBR_2025Q1_经营回顾.md", "", "", ""),
    ("notes.md", "", "Commission file number 1-1234\nRevenue grew in 2023.", ""),
])
def test_identity_is_read_from_cover_title_and_file_name(filename: str, title: str, text: str,
                                                          described: str) -> None:
    assert read_identity(filename, title, text).describe() == described


def test_every_dev_filing_names_its_company_and_year() -> None:
    pdfs = data_root() / "financebench" / "pdfs"
    if not pdfs.is_dir():
        pytest.skip(f"{pdfs} not found (set RAGSPINE_DATA)")
    import pypdfium2 as pdfium

    found = {}
    for name in ("3M_2018_10K.pdf", "BESTBUY_2023_10K.pdf", "FOOTLOCKER_2023_10K.pdf"):
        doc = pdfium.PdfDocument(str(pdfs / name))
        text = "\n".join(doc[i].get_textpage().get_text_range() for i in range(3))
        found[name] = read_identity(name, doc.get_metadata_dict().get("Title", ""), text)
    assert [(w.company, w.period, w.doc_type) for w in found.values()] == [
        ("3M Company", ("FY", "2018"), "10-K"), ("Best Buy Co., Inc.", ("FY", "2023"), "10-K"),
        ("Foot Locker INC", ("FY", "2023"), "10-K")]


def test_the_workspace_shows_each_company_and_year_it_holds(two_companies: Path) -> None:
    from ragspine_nb import Workspace

    ws = Workspace(two_companies)
    try:
        assert ws.companies() == {"Orvale Inc.": ["FY2023"], "Zentra Corporation": ["FY2023"]}
        assert repr(ws).endswith(
            "companies=['Orvale Inc. (FY2023)', 'Zentra Corporation (FY2023)'])")
        html = ws._repr_html_()
        assert "Documents: who filed them, for which period" in html
        assert "zentra_report.pdf" in html and "Orvale Inc." in html
        assert "company=cover page" in html and "<script" not in html
    finally:
        ws.close()


def test_a_row_of_another_companys_table_is_no_reading_of_the_question(
        tmp_path: Path) -> None:
    # Orvale's table has a row "Year end"; a question about Zentra's year-end inventories
    # is not asked back with it: Zentra has no such fact
    agent = _with_orvale_row(tmp_path, "Year end")
    zentra = agent.ask("What is the year end FY2023 total amount of inventories for Zentra?", REF)
    assert zentra.answer.startswith("Zentra Corporation Inventories, FY2023: 410 million")
    orvale = agent.ask("What is the year end FY2023 total amount of inventories for Orvale?",
                       REF)  # Orvale has a "Year end" row and no inventories: not guessed
    assert "410" not in orvale.answer and not any(f.value == 410 for f in orvale.figures)


def test_another_companys_row_that_names_more_of_the_question_is_asked_back(
        tmp_path: Path) -> None:
    # Orvale's table has a row "Outstanding"; "Zentra's sales outstanding" names it beside
    # net sales: dropping it (Zentra has no such fact) answered Zentra's net sales as if
    # they were what was asked (a days-sales-outstanding question on the 29 dev filings)
    r = _with_orvale_row(tmp_path, "Outstanding").ask(
        "What was Zentra's sales outstanding in FY2023?", REF)
    assert not r.figures and "1,200" not in r.answer
    assert r.answer.startswith("Which of these do you mean") and "Outstanding" in r.answer


def test_a_profile_line_item_the_store_lacks_is_never_dropped_for_one_it_holds(
        tmp_path: Path) -> None:
    # "income before income tax" is the profile's own line item: that only "income tax
    # expense" is stored never makes it the answer (a wrong line is the worst outcome)
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "table.csv").write_text(
        "Item,2019,2018\nIncome tax expense,\"-7,125\",\"-6,010\"\nNet income,\"21,300\","
        "\"19,800\"\n")
    ingest(folder, workspace=tmp_path / "ws", progress=False)
    r = Agent.from_workspace(tmp_path / "ws").ask(
        "How much was the company's income before income tax expense in 2019?", REF)
    assert "7,125" not in r.answer and not r.figures


def test_a_miss_never_points_to_another_companys_filing(tmp_path: Path) -> None:
    folder = tmp_path / "reports"
    folder.mkdir()
    _filing(folder / "zentra_report.pdf", "ZENTRA CORPORATION", 2023,
            [("Net sales", "1,200", "1,000")], ["Net sales grew because demand rose."])
    _filing(folder / "orvale_report.pdf", "ORVALE INC.", 2023,
            [("Net sales", "5,300", "5,900")],
            ["Gross profit in 2023 fell because freight costs rose."])
    ingest(folder, workspace=tmp_path / "ws", progress=False)
    r = Agent.from_workspace(tmp_path / "ws").ask("What was Zentra's gross profit in 2023?", REF)
    assert r.answer.startswith("Not found: Zentra Corporation Gross profit, FY2023")
    assert "orvale_report.pdf" not in r.answer
    assert all(s["doc"] != "orvale_report.pdf" for s in r.sources)


def test_a_company_renamed_is_one_filer_by_its_registrant_number(tmp_path: Path) -> None:
    # Adobe's 10-Ks say "Adobe Systems Incorporated" until 2017 and "Adobe Inc." after,
    # each with "Commission File Number: 0-15175": one filer, one entity
    folder = tmp_path / "reports"
    folder.mkdir()
    _filing(folder / "zentra_2015.pdf", "ZENTRA SYSTEMS INCORPORATED", 2015,
            [("Net sales", "4,796", "4,147")], ["Net sales grew."], registrant="0-15175")
    _filing(folder / "zentra_2022.pdf", "ZENTRA INC.", 2022,
            [("Net sales", "17,606", "15,785")], ["Net sales grew."], registrant="0-15175")
    _filing(folder / "orvale_2022.pdf", "ORVALE INC.", 2022,
            [("Net sales", "5,300", "5,900")], ["Net sales fell."], registrant="1-4102")
    report = ingest(folder, workspace=tmp_path / "ws", progress=False)
    renamed = next(f for f in report.files if f.doc_id == "zentra_2022.pdf")
    assert "registrant 0-15175 is Zentra Systems Incorporated of another document: filed " \
           "under ZENTRA_SYSTEMS" in renamed.reason
    store = FactStore(tmp_path / "ws" / "facts.db", create=False)
    who = store.document_identities()
    assert {d: (w["entity"], w["registrant"]) for d, w in who.items()} == {
        "orvale_2022.pdf": ("ORVALE", "1-4102"), "zentra_2015.pdf": ("ZENTRA_SYSTEMS", "0-15175"),
        "zentra_2022.pdf": ("ZENTRA_SYSTEMS", "0-15175")}
    agent = Agent.from_workspace(tmp_path / "ws")
    for question, figure in (("What were Zentra's net sales in 2015?", "FY2015: 4,796 million"),
                             ("What were Zentra's net sales in 2022?", "FY2022: 17,606 million"),
                             ("What were Zentra Inc.'s net sales in 2015?",
                              "FY2015: 4,796 million")):
        answer = agent.ask(question, REF).answer
        assert f"Zentra Systems Incorporated Revenue, {figure}" in answer, (question, answer)
    # the other company keeps its own entity; a document deleted takes its number along
    store.delete_by_source_doc("zentra_2015.pdf")
    assert "zentra_2015.pdf" not in store.document_identities()
    assert store.document_identities()["zentra_2022.pdf"]["registrant"] == "0-15175"


def test_a_workspace_made_before_registrant_numbers_reads_and_gains_them(
        tmp_path: Path) -> None:
    import sqlite3

    from ragspine_nb.stores.registrants import read_registrants

    path = tmp_path / "facts.db"
    FactStore(path).replace_source_doc("a.pdf", [], identity={"company": "Zentra Inc.",
                                                              "entity": "ZENTRA"})
    with sqlite3.connect(path) as conn:  # as a release before the table left it
        conn.execute("DROP TABLE document_registrant")

    class ReadOnly:  # a file that cannot be written gets no new table: nothing is read
        def fetchall(self, sql: str, params: tuple[str, ...] = ()) -> list[sqlite3.Row]:
            with sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True) as conn:
                return conn.execute(sql, params).fetchall()

    assert read_registrants(ReadOnly()) == {}
    # opened for writing, it gains the table
    store = FactStore(path)
    assert store.document_identities()["a.pdf"]["registrant"] == ""
    store.replace_source_doc("a.pdf", [], identity={"company": "Zentra Inc.",
                                                    "registrant": "0-1"})
    assert store.document_identities()["a.pdf"]["registrant"] == "0-1"


def test_another_companys_line_item_never_takes_the_profiles_name_for_a_company(
        tmp_path: Path) -> None:
    """Orvale's statement has a dollar "Gross margin" line (a code its filing brought);
    Zentra's states gross profit and sales. "Zentra's gross margin" is the profile's
    gross margin (%), computed from Zentra's own lines — it was 'not in the fact store'
    (the 29 dev filings in one folder: Amcor's gross margin, because Best Buy's and
    Nike's statements have such a line). Orvale's own line still answers for Orvale."""
    folder = tmp_path / "reports"
    folder.mkdir()
    _filing(folder / "zentra_report.pdf", "ZENTRA CORPORATION", 2023,
            [("Gross profit", "300", "240"), ("Net sales", "1,200", "1,000")], ["Sales grew."])
    _filing(folder / "orvale_report.pdf", "ORVALE INC.", 2023,
            [("Net sales", "5,300", "5,900"), ("Gross margin", "2,120", "2,300")],
            ["Sales fell."])
    ingest(folder, workspace=tmp_path / "ws", progress=False)
    agent = Agent.from_workspace(tmp_path / "ws")
    zentra = agent.ask("What was Zentra's gross margin in FY2023?", REF)
    assert "Gross profit / Revenue × 100: 300 / 1,200 × 100 = 25%" in zentra.answer, \
        zentra.answer
    orvale = agent.ask("What was Orvale's gross margin in FY2023?", REF)
    assert orvale.answer.startswith("Orvale Inc. Gross margin, FY2023: 2,120 million"), \
        orvale.answer


def test_a_ratios_side_is_read_for_the_company_the_question_names(tmp_path: Path) -> None:
    """Orvale's "Research and development expense" is a line item of its own (a code its
    table brought); a ratio's side "Zentra's research and development expenses" named it
    beside the profile's and the ratio was refused ("could not be identified": the 29 dev
    filings in one folder, Adobe's R&D to revenue)."""
    folder = tmp_path / "reports"
    folder.mkdir()
    (folder / "zentra.csv").write_text(
        "USD millions,2023,2022\nNet sales,1200,1000\nResearch and development expenses,300,240\n",
        "utf-8")
    (folder / "orvale.csv").write_text(
        "USD millions,2023,2022\nNet sales,5300,5900\nOperating data,,\n"
        "Research and development expense,410,380\n", "utf-8")
    meta = {"zentra.csv": {"company": "Zentra Corporation"},
            "orvale.csv": {"company": "Orvale Inc."}}
    ingest(folder, workspace=tmp_path / "ws", metadata=meta, progress=False)
    agent = Agent.from_workspace(tmp_path / "ws")
    r = agent.ask("What was the ratio of Zentra's research and development expenses to "
                  "net sales in FY2023?", REF)
    assert "Derivation: 300 / 1,200 = 0.25" in r.answer, r.answer


def test_a_row_named_by_end_alone_is_no_reading_of_a_question_naming_no_row(
        tmp_path: Path) -> None:
    """Orvale's table has a row "Year end" (its words: "end"); "What is Zentra?" names no
    row and was read as that row's closing balance ("Assuming the balance is the closing
    one, year end": the 29 dev filings in one folder, "What kind of company is Nike?")."""
    folder = tmp_path / "reports"
    folder.mkdir()
    (folder / "zentra.csv").write_text("USD millions,2023,2022\nNet sales,1200,1000\n", "utf-8")
    (folder / "orvale.csv").write_text(
        "USD millions,2023,2022\nNet sales,5300,5900\nYear end,52,50\n", "utf-8")
    meta = {"zentra.csv": {"company": "Zentra Corporation"},
            "orvale.csv": {"company": "Orvale Inc."}}
    ingest(folder, workspace=tmp_path / "ws", metadata=meta, progress=False)
    r = Agent.from_workspace(tmp_path / "ws").ask("What is Zentra?", REF)
    assert r.route == "narrative" and not r.figures, r.answer
    assert "year end" not in r.answer.lower()


def test_the_closing_balance_reading_needs_a_word_of_the_row_from_the_question() -> None:
    """"Goodwill in 2019" is the row "Goodwill, end of the year"; a row whose only word is
    its point ("Year end": "year" is no content word) is the closing balance of nothing the
    question names — it was, for every question naming no row ("What is Nike?")."""
    from ragspine_nb.agent.reading.intent_rows import RowReader

    profile = DomainProfile.from_dict({
        "home": {"company_name": "A", "entity_code": "A"},
        "metrics": {"YEAR_END": {"unit": "", "synonyms": ["year end"]},
                    "GOODWILL_END": {"unit": "", "synonyms": ["goodwill, end of the year"]}}})
    rows = RowReader(profile)
    assert rows.closing_balance(frozenset()) is None
    assert rows.closing_balance(frozenset({"kind"})) is None
    assert rows.closing_balance(frozenset({"goodwill"})) == "GOODWILL_END"


def test_a_company_named_beside_the_word_company_is_the_entity(tmp_path: Path) -> None:
    """"What kind of company is Nike?" in a folder of several companies read "company" (the
    built-in placeholder's word) as the entity and answered from another company's text."""
    folder = tmp_path / "reports"
    folder.mkdir()
    (folder / "zentra.csv").write_text("USD millions,2023,2022\nNet sales,1200,1000\n", "utf-8")
    (folder / "orvale.csv").write_text("USD millions,2023,2022\nNet sales,5300,5900\n", "utf-8")
    meta = {"zentra.csv": {"company": "Zentra Corporation"},
            "orvale.csv": {"company": "Orvale Inc."}}
    ingest(folder, workspace=tmp_path / "ws", metadata=meta, progress=False)
    parser = Agent.from_workspace(tmp_path / "ws").parser
    assert parser.parse("What kind of company is Zentra?", REF).entities == ("ZENTRA",)
    assert parser.parse("What was the company's net sales in 2023?", REF).entities == \
        ("COMPANY",)  # no company named: the placeholder, asked back which


def test_a_figure_two_filings_agree_on_cites_the_years_own_filing(tmp_path: Path) -> None:
    """FY2022 net sales are stated by the 2022 10-K and, as a comparative, by the 2023 one:
    the answer cites the filing of that year (it cited the first file name; Amcor's gross
    profit cited its earnings release rather than its 10-K). The value is the same."""
    folder = tmp_path / "reports"
    folder.mkdir()
    _filing(folder / "a_zentra_annual.pdf", "ZENTRA CORPORATION", 2023,
            [("Net sales", "1,200", "1,000"), ("Net income", "150", "120")], ["Sales grew."],
            registrant="1-4101")
    _filing(folder / "b_zentra_annual.pdf", "ZENTRA CORPORATION", 2022,
            [("Net sales", "1,000", "900"), ("Net income", "120", "100")], ["Sales grew."],
            registrant="1-4101")
    ingest(folder, workspace=tmp_path / "ws", progress=False)
    agent = Agent.from_workspace(tmp_path / "ws")
    r = agent.ask("What were Zentra's net sales in FY2022?", REF)
    assert [(f.value, f.operands[0].source_doc_id) for f in r.figures] == \
        [(1000.0, "b_zentra_annual.pdf")]
    r = agent.ask("What were Zentra's net sales in FY2023?", REF)  # stated once
    assert [(f.value, f.operands[0].source_doc_id) for f in r.figures] == \
        [(1200.0, "a_zentra_annual.pdf")]
