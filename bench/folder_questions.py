"""Plain analyst questions on a folder of real filings: answered, asked back, refused, wrong.

    .venv/bin/python bench/folder_questions.py WORKSPACE [--baseline OTHER_CHECKOUT
        [--baseline-workspace ITS_WORKSPACE]] [--json OUT]

The workspace is the 29 FinanceBench dev filings ingested as one folder, no metadata::

    ragspine-nb ingest $RAGSPINE_DATA/financebench/pdfs --workspace /tmp/ws29 --workers 2

Each question names one company and a line item, a ratio, a change or "each year" in the
words an analyst types; the figure it must state was read from the cited cell of that
company's filing (the expected string must appear in the answer; a question asking for
several figures lists them all). Scored per question: ``right`` (every expected string
stated), ``wrong`` (a figure stated, an expected string missing), ``ask back``
("Which …"), ``refused`` (anything else: not found, not computed). This is a regression
set of one folder, not an accuracy benchmark: the expected strings are the filings'
figures, the questions the kinds a user asked in the reviews. ``--baseline`` runs the same
questions with another checkout's code (a ``git worktree`` of the commit before) in a
fresh process and prints both.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from datetime import date
from pathlib import Path

REF = date(2024, 1, 1)
#: (question, the strings a right answer states)
QUESTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("What was Amcor's net sales in FY2023?", ("14,694",)),
    ("What was General Mills' operating cash flow in FY2022?", ("3,316.1",)),
    ("What were Foot Locker's total assets in 2022?", ("7,907",)),
    ("What was Netflix's revenue in 2017?", ("11,692,713",)),
    ("What was Adobe's diluted EPS in FY2016?", ("2.32",)),
    ("What was 3M's capital expenditure in 2022?", ("1,749",)),
    ("What was Best Buy's inventory at the end of fiscal 2023?", ("5,140",)),
    ("What was Best Buy's revenue in FY2022?", ("51,761",)),
    ("What was 3M's net income?", ("5,777",)),
    ("What was Best Buy's gross margin in FY2023?", ("21.41%",)),
    ("What is Nike's current ratio for FY2023?", ("2.72",)),
    ("What is 3M's debt to equity ratio in 2022?", ("2.15",)),
    ("What was the change in Adobe's total revenue between FY2016 and FY2017?", ("1,447,075",)),
    ("What was 3M's revenue growth in 2022?", ("-1,126",)),
    ("What was 3M's revenue growth rate in 2022?", ("-3.18%",)),
    ("What was the percentage change in Netflix's revenue from 2015 to 2017?", ("72.47%",)),
    ("What was Netflix's revenue CAGR from 2015 to 2017?", ("31.33%",)),
    ("What is Nike's 3-year revenue CAGR?", ("11.05%",)),
    ("What was Amcor's free cash flow in FY2023?", ("735",)),
    ("How much did Amcor pay in dividends in FY2023?", ("723",)),
    ("What was Adobe's subscription revenue in fiscal 2022?", ("16,388",)),
    ("What was Adobe's subscription revenue as a percentage of total revenue in fiscal 2022?",
     ("93.08%",)),
    ("What was Nike's revenue in FY2021, FY2022 and FY2023?", ("44,538", "46,710", "51,217")),
    ("What was Nike's revenue each fiscal year?", ("44,538", "46,710", "51,217")),
    ("What were Adobe's revenues in the last three fiscal years?",
     ("12,868", "15,785", "17,606")),
    ("What was Nike's net income in the past two years?", ("6,046", "5,070")),
    ("What was Foot Locker's net income in 2022 and 2021?", ("341", "892")),
    ("How much did Adobe spend on research and development in fiscal 2022?", ("2,987",)),
    ("What was General Mills' dividend per share in fiscal 2022?", ("2.04",)),
    ("What was General Mills' gross margin in fiscal 2019?", ("5,756.8",)),
    ("How many times did General Mills' revenue exceed $17 billion from fiscal 2019 to fiscal "
     "2022?", ("(of FY2022, FY2021, FY2020 and FY2019): 3",)),
    ("What was 3M's interest expense in 2018?", ("350",)),
    ("What was Amcor's interest expense in FY2022?", ("159",)),
    ("What was Nike's effective tax rate in FY2023?", ("18.2%",)),
    ("What was Best Buy's return on assets in FY2023?", ("8.98%",)),
    ("What was Adobe's operating margin?", ("34.64%",)),
    ("How much cash did Nike have at the end of FY2023?", ("7,441",)),
    ("What was 3M's current ratio at the end of 2022?", ("1.54",)),
    ("Compare 3M's net income in 2021 and 2022.", ("5,921", "5,777")),
    ("Compare Netflix's revenue in 2018 and 2019.", ("15,794,341", "20,156,447")),
    ("Nike 2023财年的营业收入是多少？", ("51,217",)),
    ("Best Buy 2023财年营业收入同比变化多少？", ("-5,463",)),
    ("Amcor 2023财年的净销售额是多少？", ("14,694",)),
    ("What was Amcor's property, plant and equipment in FY2023?", ("7,770",)),
    # quarters in the company's fiscal calendar (10-Q, release): not the calendar's
    ("What was Best Buy's revenue in Q2 FY2024?", ("9,583",)),
    ("What was Best Buy's revenue in the second quarter of fiscal 2024?", ("9,583",)),
    ("What were Amcor's net sales in Q2 FY2023?", ("3,642",)),
    ("What was Best Buy's cash and cash equivalents at the end of Q2 FY2024?", ("1,093",)),
    # a date, read in the company's fiscal calendar as its filings were
    ("What was Best Buy's cash and cash equivalents as of July 29, 2023?", ("1,093",)),
    ("What were Amcor's net sales for the three months ended December 31, 2022?", ("3,642",)),
    ("What was Best Buy's inventory as of January 28, 2023?", ("5,140",)),
    ("What was Nike's cash and equivalents as of May 31, 2022?", ("8,574",)),
    ("What was Adobe's total assets as of December 2, 2022?", ("27,165",)),
    ("Best Buy截至2023年7月29日的现金及现金等价物是多少？", ("1,093",)),
    ("What was Amcor's cash at 31 December 2022?", ("837",)),
    ("What was 3M's cash at December 31, 2022?", ("3,655",)),
    # a span ended in a month, no day: the period that ended then, never the year
    ("What were Amcor's net sales for the quarter ended December 2022?", ("3,642",)),
    ("What were Amcor's net sales for the six months ended December 2022?", ("7,354",)),
    ("What was Best Buy's revenue for the quarter ended July 2023?", ("9,583",)),
    ("What was Amcor's net income for the year ended June 2023?", ("1,058",)),
    ("What was Nike's revenue in the year to May 2023?", ("51,217",)),
    # a year named by its start ("Fiscal year 2022 … ended January 28, 2023"): its balances
    ("What were Foot Locker's cash and cash equivalents at the end of fiscal 2022?", ("536",)),
    ("What were Foot Locker's inventories at the end of fiscal 2022?", ("1,643",)),
    # one figure less another, written as an operator (17,606 - 2,165; 7,207 - 350; …)
    ("What was Adobe's revenue less cost of revenue in fiscal 2022?", ("15,441",)),
    ("What was 3M's operating income minus its interest expense in 2018?", ("6,857",)),
    ("How much higher was Nike's revenue than its cost of sales in fiscal 2023?", ("22,292",)),
    ("What was Best Buy's gross profit minus SG&A in fiscal 2023?", ("1,942",)),
    # "the change in net income": the change of the row, not rows named "Change in …"
    ("What was the change in Nike's net income from fiscal 2022 to fiscal 2023?", ("-976",)),
    ("What was the change in Amcor's net income from fiscal 2022 to fiscal 2023?", ("243",)),
    # "the average of revenue": the row's mean, not a row "Average monthly revenue per …"
    ("What was the average of Netflix's revenue in 2017, 2018 and 2019?", ("15,881,167",)),
    # a change of one year (the year before assumed) no column states: from the levels
    ("How much did Netflix's operating income change in 2015?", ("-96,822",)),
    ("3M公司2018年营业收入比2017年高多少？", ("1,108",)),
    # earnings per share stated as "Basic" / "Diluted" under "Earnings per common share"
    ("What was Nike's diluted EPS in fiscal 2023?", ("3.23",)),
    ("What was Nike's basic EPS in fiscal 2023?", ("3.27",)),
    ("What was 3M's diluted EPS in 2018?", ("8.89",)),
    ("What was Nike's revenue from Greater China in fiscal 2023?", ("7,248",)),
    ("What percentage of Nike's fiscal 2023 revenues came from Greater China?", ("14.15%",)),
    ("What proportion of Nike's revenue came from Greater China in fiscal 2022?",
     ("7,547 / 46,710 = 0.16",)),
    ("What drove the change in Nike's revenue in fiscal 2023?", ("(51,217 − 46,710) = 4,507",)),
    ("What drove operating margin change as of FY2022 for 3M?", ("(19.1 − 20.8) = -1.7",)),
    ("Why did Netflix's operating income change in 2015?", ("(305,826 − 402,648) = -96,822",)),
    ("What was Amcor's days payable outstanding in FY2023?", ("× 365 = 82.03",)),
    ("What was Foot Locker's inventory turnover in 2022?", ("= 3.62",)),
    ("What was Amcor's interest coverage ratio in FY2023?", ("= 5.2",)),
    ("What was Nike's asset turnover in fiscal 2023?", ("51,217 / 37,531 = 1.36",)),
    ("How much cash did Best Buy have at the end of Q2 FY2024?", ("2024Q2: 1,093",)),
    ("What percentage of Nike's revenue came from North America in fiscal 2023?",
     ("21,608 / 51,217 × 100 = 42.19%",)),
    # two periods compared: both levels and their difference, the row named only
    ("What were Nike's inventories at the end of fiscal 2023 compared with fiscal 2022?",
     ("FY2023: 8,454", "FY2022: 8,420", "(8,454 − 8,420) = 34")),
    # a scale asked: the stated figure restated in it, the conversion shown
    ("What were Foot Locker's total sales in 2022 in USD billions?",
     ("8,759 million", "8.759 billion = 8,759 million ÷ 1,000")),
    # a later filing's row with no figure for the year: the segment column that states it
    ("What was Adobe's Digital Media revenue in fiscal 2017?",
     ("5,010,579 thousand", "col=FY2017.C_DIGITAL_MEDIA")),
    # another filing's "Current liabilities" row with no figure of Nike's: its total
    ("What were Nike's current liabilities at the end of fiscal 2023?", ("FY2023: 9,256",)),
    ("What was Nike's ratio of current assets to current liabilities at the end of fiscal "
     "2023?", ("25,202 / 9,256 = 2.72",)),
)
KINDS = ("right", "wrong", "ask back", "refused")


def _kind(answer: str, figures: int, expected: tuple[str, ...]) -> str:
    if all(e in answer for e in expected):
        return "right"
    if answer.startswith(("Which ", "您")):
        return "ask back"
    return "wrong" if figures else "refused"


def run(workspace: str) -> dict[str, object]:
    """Every question asked of the workspace's agent: the kinds counted, each row."""
    from ragspine_nb import Agent

    agent = Agent.from_workspace(workspace)
    rows = []
    for question, expected in QUESTIONS:
        r = agent.ask(question, reference_date=REF)
        rows.append({"question": question, "kind": _kind(r.answer, len(r.figures), expected),
                     "answer": r.answer.splitlines()[0][:300]})
    counts = {k: sum(1 for row in rows if row["kind"] == k) for k in KINDS}
    return {"questions": len(rows), **counts, "rows": rows}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("workspace")
    ap.add_argument("--baseline", help="another checkout: its code on the same questions")
    ap.add_argument("--baseline-workspace",
                    help="the workspace the baseline answers from (default: the same one; "
                         "a folder that checkout ingested compares what each gives a user)")
    ap.add_argument("--json", help="write the report(s) here")
    ap.add_argument("--raw", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.raw:
        print(json.dumps(run(args.workspace)))
        return 0
    if args.baseline and not (Path(args.baseline) / "ragspine_nb").is_dir():
        # a path that is not there is left off the import path: this code would answer twice
        ap.error(f"--baseline {args.baseline!r} is no checkout (no ragspine_nb/ in it)")
    here = str(Path(__file__).resolve().parents[1])
    sides = [("this", here, args.workspace)] if not args.baseline else \
        [("baseline", str(Path(args.baseline).resolve()),
          args.baseline_workspace or args.workspace), ("this", here, args.workspace)]
    out = {}
    for name, root, workspace in sides:  # each in a fresh process, its code first on the path
        done = subprocess.run([sys.executable, __file__, workspace, "--raw"],
                              env={**os.environ, "PYTHONPATH": root}, capture_output=True,
                              text=True, check=True)
        out[name] = json.loads(done.stdout)
    for name, report in out.items():
        print(f"{name}: " + ", ".join(f"{k} {report[k]}" for k in KINDS)
              + f" of {report['questions']}")
    if args.baseline:
        for old, new in zip(out["baseline"]["rows"], out["this"]["rows"], strict=True):
            if old["kind"] != new["kind"]:
                print(f"  {old['kind']} -> {new['kind']}: {new['question']}")
    for row in out["this"]["rows"]:
        if row["kind"] != "right":
            print(f"  [{row['kind']}] {row['question']}\n      {row['answer']}")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1, ensure_ascii=False), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
