"""Issue 15 item 4 (text half): answers to text questions contain the answer.

Offline, the narrative answer is extractive: the sentences that answer the question
(its terms weighted by rarity, and what it asks for — a cause, a definition, a list …),
whole and cited. Questions about a table's own labels (its periods, the rows under a
heading, its unit) are answered from the stored table, each label cited by its cell.
Everything runs on real files ingested with no profile, as a user's folder would be.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine_nb import Agent
from ragspine_nb.agent.narrative.extractive import extractive_answer, passage_sentences
from ragspine_nb.agent.narrative.figures import FigureReader
from ragspine_nb.agent.narrative.focus import question_focus
from ragspine_nb.agent.reading.intent import RuleIntentParser
from ragspine_nb.agent.write.footnotes import find_footnote, footnote_marker
from ragspine_nb.agent.write.table_answers import table_answer, table_question
from ragspine_nb.ingestion.workspace import ingest

REF = date(2020, 1, 1)
TABLE = """\
,As of December 31,
,2019,2018
,(Dollars in millions),
Deferred tax assets,,
Pension benefit costs(1),"$1,169","1,111"
Loss carryforwards,"3,167","3,445"
Other,577,553
Gross deferred tax assets,"4,913","5,109"
Deferred tax liabilities,,
"Property, plant and equipment","(3,489)","(3,011)"
Goodwill and other intangible assets,"(3,019)","(3,303)"
Other,—,(23)
Gross deferred tax liabilities,"(6,508)","(6,337)"
"""
NOTES = """\
The tax effects of temporary differences that gave rise to the deferred tax assets and \
liabilities were as follows:

Interest expense increased $5 million in 2019. The increase was primarily due to a higher \
average debt balance as we issued notes to finance the acquisition of Acme Inc. in March \
2019. Interest expense is presented in cost of financing.

Two of the products acquired with the business in 2017, Alpha and Beta, were sunset after \
March 31, 2018.

Officers are elected annually but are removable at the discretion of the Board.

(1) Include pension and post-retirement benefit costs of the U.S. plans.
"""


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    src = tmp_path_factory.mktemp("in")
    (src / "table.csv").write_text(TABLE, encoding="utf-8")
    (src / "notes.md").write_text(NOTES, encoding="utf-8")
    (src / "board_pack.csv").write_text(",2019\nProject Falcon price range,900\n",
                                        encoding="utf-8")
    ws = tmp_path_factory.mktemp("ws")
    report = ingest(src, workspace=ws, profile=None, progress=False,
                    metadata={"board_pack.csv": {"sensitivity": "RESTRICTED"}})
    assert report.count("failed") == 0, report.files
    return ws


@pytest.fixture(scope="module")
def agent(workspace: Path) -> Agent:
    return Agent.from_workspace(workspace)


# --------------------------------------------------------------- question focus
@pytest.mark.parametrize(("question", "focus"), [
    ("Why did interest expense increase in 2019?", "cause"),
    ("What caused the decrease in gross margin?", "cause"),
    ("What was the increase in revenue primarily due to?", "cause"),
    ("为什么银保渠道新单保费下降？", "cause"),
    ("How does the company estimate the fair value of its stock options?", "method"),
    ("How is the discount rate determined?", "method"),
    ("What does other income include?", "list"),
    ("What is included in service delivery costs?", "list"),
    ("公司收入包括哪些？", "list"),
    ("What does EBITDA represent?", "definition"),
    ("What is goodwill?", "definition"),
    ("Over what period will the unrecognized cost be recognized?", "duration"),
    ("How often are officers elected?", "frequency"),
    ("When was the plan adopted?", "time"),
    ("What does the table show?", "table"),
    ("What was the key agenda of the AMCOR's 8k filing dated 1st July 2022?", "event"),
    ("What is the main purpose of the company's 8-K filing?", "event"),
    ("What did the 8-K announce?", "event"),
    ("What industry does AMCOR primarily operate in?", "business"),
    ("What kind of company is Zeta?", "business"),
    ("What is General Mills' core business?", "business"),
    ("Foot Locker属于什么行业？", "business"),
    ("What was revenue in 2019?", "general"),
])
def test_the_focus_is_read_from_the_question_wording(question: str, focus: str) -> None:
    assert question_focus(question) == focus


# ------------------------------------------------------------------ sentences
def test_sentences_stay_whole() -> None:
    got = passage_sentences([(1, "Revenue rose 5.8% in the U.S. market. We bought Acme Inc. "
                                  "in May. ¶ Banks must match ¶ the filed terms. ¶ Outlook "
                                  "¶ Revenue rose 5.8% in the U.S. market.")])
    assert [s.text for s in got] == ["Revenue rose 5.8% in the U.S. market.",
                                     "We bought Acme Inc. in May.",
                                     "Banks must match the filed terms."]


def test_a_why_question_gets_the_cause_and_the_sentence_it_points_back_to() -> None:
    passages = [(1, "Interest expense is presented in cost of financing. Interest expense "
                    "increased $5 million in 2019. The increase was primarily due to a higher "
                    "average debt balance."),
                (2, "Revenue grew 3% to $1 billion.")]
    assert extractive_answer("Why did interest expense increase in 2019?", passages) == (
        "Interest expense increased $5 million in 2019. [1]\n"
        "The increase was primarily due to a higher average debt balance. [1]")


def test_a_cause_that_names_what_moved_does_not_pull_in_the_footnote_before_it() -> None:
    # Best Buy's FY2023 10-K, page 25 (bench/own_folder.py): the sentence before the cause
    # is a table's footnote; "The decrease in revenue …" names its own subject
    passages = [(1, "(1) Comparable online sales are included in the comparable sales "
                    "calculation. The decrease in revenue in fiscal 2023 was primarily driven "
                    "by comparable sales declines across most of our product categories.")]
    assert extractive_answer("Why did Best Buy's revenue decrease in FY2023?", passages) == (
        "The decrease in revenue in fiscal 2023 was primarily driven by comparable sales "
        "declines across most of our product categories. [1]")


def test_the_company_asked_about_is_whose_filing_not_what_the_answer_says() -> None:
    # a 10-K calls its filer "we": the company's name, rare among its own sentences,
    # weighed as much as "revenue" picked a goodwill sentence naming the company
    passages = [(1, "The decrease in revenue in fiscal 2023 was primarily driven by comparable "
                    "sales declines across most of our product categories."),
                (2, "The excess of fair value over book value in fiscal 2023 decreased in line "
                    "with the decline in Best Buy's market capitalization.")]
    question = "Why did Best Buy revenue decrease in fiscal 2023?"
    assert "Best Buy's market capitalization. [2]" in extractive_answer(question, passages)
    assert extractive_answer(question, passages, "Best Buy Co., Inc.") == (
        "The decrease in revenue in fiscal 2023 was primarily driven by comparable sales "
        "declines across most of our product categories. [1]")


def test_the_year_asked_about_is_the_sentences_subject_not_its_comparison() -> None:
    passages = [(1, "Net cash from operations increased $224 million for fiscal 2019 compared to "
                    "fiscal 2018. The increase was primarily due to customer advances."),
                (2, "Net cash from operations increased $242 million for fiscal 2018 compared to "
                    "fiscal 2017. The increase was primarily due to lower tax payments.")]
    assert extractive_answer("What caused the increase in net cash from operations in 2018?",
                             passages).startswith(
        "Net cash from operations increased $242 million for fiscal 2018 compared to fiscal "
        "2017. [2]\nThe increase was primarily due to lower tax payments. [2]")


def test_a_list_question_gets_the_sentence_that_lists() -> None:
    passages = [(1, "Services revenue for 2019 decreased by $4.9 million. Services revenue "
                    "consists primarily of fees for customer support. Software revenue is "
                    "comprised of fees for downloads.")]
    assert extractive_answer("What does services revenue comprise of?", passages).startswith(
        "Services revenue consists primarily of fees for customer support. [1]")


def test_a_frequency_question_gets_the_sentence_that_says_how_often() -> None:
    passages = [(1, "JOHN DOE, Chief Executive Officer of the Company since 2017; Chief "
                    "Financial Officer of the Company from 2013 to 2016; Vice President of "
                    "Finance from 2012 to 2013."),
                (2, "Officers are elected annually but are removable at the discretion of the "
                    "Board.")]
    assert extractive_answer("How often are the executive officers of the company elected?",
                             passages).startswith("Officers are elected annually")


# ------------------------------------------------------------- through the agent
def test_the_offline_answer_is_the_sentence_that_answers(agent: Agent) -> None:
    r = agent.ask("Why did interest expense increase in 2019?", REF)
    assert r.figures == ()            # interest expense is not in the table: nothing stated
    body = r.answer.split("\nSources:")[0].split("Attribution:\n")[-1]
    assert body == ("Interest expense increased $5 million in 2019. [1] The increase was "
                    "primarily due to a higher average debt balance as we issued notes to "
                    "finance the acquisition of Acme Inc. in March 2019. [1]")
    assert [s["doc"] for s in r.sources] == ["notes.md"]


def test_dates_and_years_in_prose_are_not_figures(agent: Agent) -> None:
    read = FigureReader(agent.profile)
    assert read.figures("Loss carryforwards acquired in 2017, Alpha and Beta, expired "
                        "after March 31, 2018.") == []
    assert read.figures("Loss carryforwards declined with tax adjustments in 2019 and "
                        "2018.") == []
    assert read.figures("Loss carryforwards decreased in 2019 primarily due to $36.1 "
                        "billion of repurchases.") == []
    assert read.figures("Loss carryforwards were reclassified under ASC 606.") == []
    assert read.figures("Loss carryforwards included $215 million for Alpha.") == []
    assert read.figures("Loss carryforwards increased $5 million primarily as a result of "
                        "loss carryforwards of $3 million acquired with Alpha.") == []
    for levels in ("Loss carryforwards were $999 million in 2019.",       # still read
                   "Loss carryforwards, driven by Alpha, were $999 million.",
                   "Because of Alpha, loss carryforwards were $999 million."):
        (level,) = read.figures(levels)
        assert (level.token, level.value) == ("999", 999.0)


# -------------------------------------------------------------- table questions
@pytest.mark.parametrize(("question", "expected"), [
    ("Which years does the table provide information for?",
     ("The table covers: FY2019 [1]; FY2018 [2].", ["cell=B5", "cell=C5"])),
    ("In which years was the gross deferred tax liabilities calculated?",
     ("The table gives Gross deferred tax liabilities for: FY2019 [1]; FY2018 [2].",
      ["cell=B13", "cell=C13"])),
    ("What are the items under deferred tax liabilities?",
     ("The rows under deferred tax liabilities are: Property, plant and equipment [1]; "
      "Goodwill and other intangible assets [2]; Other [3].",
      ["cell=B10", "cell=B11", "cell=B12"])),
    ("What are the components of gross deferred tax assets?",
     ("The rows under gross deferred tax assets are: Pension benefit costs [1]; "
      "Loss carryforwards [2]; Other [3].", ["cell=B5", "cell=B6", "cell=B7"])),
    ("What is the unit used for the data in the table?",
     ("The table's amounts are in millions [1].", ["cell=B5"])),
])
def test_a_table_question_is_answered_with_the_tables_labels(
        agent: Agent, question: str, expected: tuple[str, list[str]]) -> None:
    intent = RuleIntentParser(agent.profile).parse(question, REF)
    got = table_answer(question, intent, agent.profile, agent.store)
    assert got is not None
    assert (got.text, [s["locator"] for s in got.sources]) == expected
    assert {s["doc"] for s in got.sources} == {"table.csv"}


@pytest.mark.parametrize("question", [
    "In which years was other higher than 500?",       # a test on the values, not the table
    "Which year had the largest gross deferred tax assets?",
    "What was the gross deferred tax assets in 2019?",
    "Why did interest expense increase?",
])
def test_other_questions_are_not_table_questions(question: str) -> None:
    assert table_question(question) is None


def test_a_table_answer_reaches_the_user_cited_by_cells(agent: Agent) -> None:
    r = agent.ask("What are the items under deferred tax liabilities?", REF)
    assert r.figures == ()
    assert r.answer.startswith("The rows under deferred tax liabilities are: Property, plant "
                               "and equipment [1]; Goodwill and other intangible assets [2]; "
                               "Other [3].\nSources:\n[1] table.csv · cell=B10")
    # "Other" prints a dash for 2019: nil, cited at that cell
    assert [s["locator"] for s in r.sources] == ["cell=B10", "cell=B11", "cell=B12"]


def test_a_restricted_tables_labels_never_answer(agent: Agent) -> None:
    for q in ("What are the financial items listed in the table?",
              "Which years does the table provide information for?"):
        intent = RuleIntentParser(agent.profile).parse(q, REF)
        got = table_answer(q, intent, agent.profile, agent.store)
        assert got is not None and "Falcon" not in got.text and "900" not in got.text
        assert {s["doc"] for s in got.sources} == {"table.csv"}
        assert "Falcon" not in agent.ask(q, REF).answer


def test_what_a_row_includes_is_its_footnote(agent: Agent) -> None:
    r = agent.ask("What is included in pension benefit costs?", REF)
    assert r.figures == ()
    assert "Pension benefit costs: (1) Include pension and post-retirement benefit costs of " \
           "the U.S. plans. [1]\nSources:\n[1] notes.md · para=" in r.answer
    assert [s["doc"] for s in r.sources] == ["notes.md"]


def test_a_footnote_is_never_a_guess_between_two_notes() -> None:
    notes = [{"text": "(1) Include rent."}, {"text": "(1) Include fees."}]
    assert find_footnote("1", notes) is None
    assert footnote_marker("Pension benefit costs(1)") == "1"
    assert footnote_marker("Combustion of fuel (Scope 1)") is None


def test_a_heading_without_a_total_lists_its_rows_and_a_profile_row_below_joins_them(
        tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    (src / "table.csv").write_text(",2019,2018\nReported results,,\nOperating revenue,10,9\n"
                                   "Net profit after tax,4,3\nEarnings per share,0.5,0.4\n"
                                   "Underlying results,,\nUnderlying margin,0.2,0.1\n",
                                   encoding="utf-8")
    ingest(src, workspace=tmp_path / "ws", progress=False)
    agent = Agent.from_workspace(tmp_path / "ws")
    q = "What are the components of reported results?"
    got = table_answer(q, RuleIntentParser(agent.profile).parse(q, REF), agent.profile,
                       agent.store)
    assert got is not None and got.text == (   # a row as the table prints it
        "The rows under reported results are: Operating revenue [1]; Net profit after tax [2]; "
        "Earnings per share [3].")
    assert table_question("What are the contract types?") is None   # no table, no heading


@pytest.mark.parametrize("intro", ["Accrued expenses consisted of the following:",
                                   "The following table presents accrued expenses.",
                                   "Accrued expenses were as follows:"])
def test_what_the_table_shows_is_the_sentence_that_introduces_it(tmp_path: Path,
                                                                 intro: str) -> None:
    src = tmp_path / "in"
    src.mkdir()
    (src / "table.csv").write_text(",2019,2018\nAccrued payroll,5,4\nAccrued taxes,3,2\n",
                                   encoding="utf-8")
    (src / "notes.md").write_text(f"9. Accrued Expenses\n\n{intro}\n\nPayroll is paid monthly "
                                  "in arrears.\n", encoding="utf-8")
    ingest(src, workspace=tmp_path / "ws", progress=False)
    r = Agent.from_workspace(tmp_path / "ws").ask("What financial information does the "
                                                  "table show?", REF)
    assert r.answer.startswith(f"{intro} [1]\nSources:\n[1] notes.md · para=")


_EIGHT_K = """UNITED STATES SECURITIES AND EXCHANGE COMMISSION

FORM 8-K

CURRENT REPORT Pursuant to Section 13 or 15(d) of the Securities Exchange Act of 1934

Date of Report (Date of earliest event reported): July 1, 2022 (June 30, 2022)

ZETA PLC (Exact name of registrant as specified in its charter)

Check the appropriate box below if the Form 8-K filing is intended to simultaneously satisfy \
the filing obligation of the registrant under any of the following provisions:

Item 8.01 Other Events.

On June 30, 2022, Zeta Finance Inc. and Zeta Flexibles Inc. entered into supplemental \
indentures relating to the 2026 Notes and the 2028 Notes, substituting Zeta Flexibles Inc. as \
issuer.

The foregoing description of the supplemental indentures does not purport to be complete.

Item 9.01 Financial Statements and Exhibits.

4.1 Indenture, dated as of April 28, 2016, among Zeta Finance Inc. and the trustee.

SIGNATURE

Pursuant to the requirements of the Securities Exchange Act of 1934, the registrant has duly \
caused this report to be signed on its behalf by the undersigned hereunto duly authorized.

ZETA PLC By: /s/ Dana Clay Name: Dana Clay Title: Company Secretary Dated: July 1, 2022.
"""


def _ask_folder(tmp_path: Path, files: dict[str, str], question: str) -> str:
    """``files`` (name: text) ingested as a user's folder, ``question`` asked: the answer."""
    src = tmp_path / "in"
    src.mkdir()
    for name, text in files.items():
        (src / name).write_text(text, encoding="utf-8")
    ingest(src, workspace=tmp_path / "ws", progress=False)
    return Agent.from_workspace(tmp_path / "ws").ask(question, REF).answer


_AGENDA = "What was the key agenda of Zeta's 8-K filing dated 1st July 2022?"
_ZETA_EVENT = ("On June 30, 2022, Zeta Finance Inc. and Zeta Flexibles Inc. entered into "
               "supplemental indentures")


def test_what_an_8k_is_about_is_the_event_it_reports_not_its_cover_or_signature(
        tmp_path: Path) -> None:
    """The question's company and date are the cover page's and the signature's words;
    the event the filing reports is written in others ("On June 30, 2022, … entered into")."""
    answer = _ask_folder(tmp_path, {"zeta_8k.md": _EIGHT_K}, _AGENDA)
    assert answer.startswith(_ZETA_EVENT), answer


def test_the_event_is_read_from_the_filing_asked_about_in_a_folder_of_many(
        tmp_path: Path) -> None:
    """In a user's folder the 8-K sits among other companies' long filings: what it
    reports is read from its own passages (the folder's first 500 passages held none)."""
    cover = ("UNITED STATES SECURITIES AND EXCHANGE COMMISSION\n\nFORM 10-K\n\n"
             "ACME CORP (Exact name of registrant as specified in its charter)\n\n")
    body = "\n\n".join(f"## Note {k}\n\nAcme's segment {k} sold widgets in region {k} during "
                       f"the year, and its backlog {k} grew with orders from customers." * 4
                       for k in range(700))
    answer = _ask_folder(tmp_path, {"acme_annual_report.md": cover + body,
                                    "zeta_8k.md": _EIGHT_K}, _AGENDA)
    assert answer.startswith(_ZETA_EVENT), answer


_TEN_K = """UNITED STATES SECURITIES AND EXCHANGE COMMISSION

FORM 10-K

ZETA PLC (Exact name of registrant as specified in its charter)

Indicate by check mark whether the registrant is a shell company (as defined in Rule 12b-2).

PART I

Item 1. Business

Zeta plc is a public limited company incorporated under the laws of Jersey. Today, we are a \
global leader in developing and producing responsible packaging for food and beverage \
products.

Competition

We face significant competition in the industries and regions in which we operate.

Sustainability

Zeta has been a leader in the industry in promoting sustainability.
"""


def test_what_industry_a_company_is_in_is_how_its_filing_describes_it(tmp_path: Path) -> None:
    """The answer shares no word with the question ("industry", "operate"): the sentences
    that do ("competition in the industries in which we operate") answered it instead."""
    answer = _ask_folder(tmp_path, {"zeta_10k.md": _TEN_K},
                         "What industry does Zeta primarily operate in?")
    assert answer.startswith("Today, we are a global leader in developing and producing "
                             "responsible packaging for food and beverage products. [1]"), answer
    assert "shell company" not in answer and "incorporated" not in answer


def test_a_word_of_degree_is_no_term_a_sentence_answers_with() -> None:
    """"major acquisitions … has done": a sentence with "a major effect" or "anything …
    done" answered instead of the one about the acquisitions (Amcor's 10-K)."""
    answer = extractive_answer(
        "What are major acquisitions that Zeta has done in FY2023, FY2022 and FY2021?", [
            (1, "The disposal did not represent a strategic shift that had a major effect on "
                "the Company's operations."),
            (2, "Generally, a company gives a preference to a person if it does anything to "
                "be done which has the effect of putting a creditor in a better position."),
            (3, "The fair value estimates for all three acquisitions were based on income, "
                "market, and cost valuation methods.")], company="Zeta")
    assert answer.startswith("The fair value estimates for all three acquisitions"), answer
