"""A table of the joint ventures' own figures states none of the filer's.

General Mills' 10-K summarises its joint ventures "on a 100 percent basis": "Gross margin
744.4", "Earnings before income taxes 155.4" are the joint ventures'. Filed under the
company they answered "General Mills' gross margin" and "pretax income". The table is
skipped, said with the reason; the filer's own amounts beside it ("Dividends received",
a table of its own) are kept. Each test fails on the code before the rule.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

from ragspine_nb import FactStore
from ragspine_nb.agent import Agent
from tests.filings import dev_filing_workspace

REF = date(2020, 1, 1)


def test_the_joint_ventures_figures_answer_nothing_of_the_company(tmp_path: Path) -> None:
    ws = dev_filing_workspace(tmp_path, "GENERALMILLS_2019_10K.pdf")
    facts = FactStore(ws / "facts.db", create=False)
    stated = {(f.metric_code, f.value) for f in facts.iter_facts(period="2019")}
    assert ("GROSS_MARGIN_2", 744.4) not in stated and ("PRETAX_INCOME", 155.4) not in stated
    agent = Agent.from_workspace(ws)
    for asked, theirs in (("What was General Mills' gross margin in fiscal 2019?", 744.4),
                          ("What was General Mills' pretax income in fiscal 2019?", 155.4)):
        result = agent.ask(asked, reference_date=REF)
        assert theirs not in [f.value for f in result.figures], asked


def test_the_filers_own_amounts_beside_them_are_kept(tmp_path: Path) -> None:
    ws = dev_filing_workspace(tmp_path, "GENERALMILLS_2019_10K.pdf")
    stated = FactStore(ws / "facts.db", create=False).iter_statements()
    page = {(f.metric_code, f.period, f.value) for f in stated
            if f.source_locator.startswith("page=67,")}
    assert ("SALES_TO_JOINT_VENTURES", "2019", 4.2) in page  # the company's sales to them
    assert ("CUMULATIVE_INVESTMENTS", "2019", 452.9) in page  # its investment in them
    assert not any(code == "GROSS_MARGIN_2" for code, _, _ in page)
