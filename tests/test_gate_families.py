"""Issue 35 part 4: the gate's easy misses, family by family, each with benign look-alikes.

Demo profile: Rivalis / Rivalis Holdings, 竞安, 竞安证券 (declared: Jingan Securities,
Jing'an Securities, jingan zhengquan). Each family lists spellings that must be refused
and questions that look like them but name no competitor, which must pass.
"""

from __future__ import annotations

import time

import pytest

from ragspine_nb import DomainProfile
from ragspine_nb.agent import SecurityGate
from ragspine_nb.agent.gate.transliterate import han_units, phonetic_key

FAMILIES: dict[str, tuple[list[str], list[str]]] = {
    # capital I and small l, |, 1, Ⅰ, Greek Ι: one vertical stroke for an i or an l
    "vertical_strokes": (
        ["What was RivaIis revenue in FY2025?", "What was RIVALlS revenue?", "RlVALIS revenue",
         "RivaIis HoIdings ROE", "What was Riva\u2160is revenue?", "Riva|is revenue",
         "Riva\uffe8is revenue", "R\u0399VAL\u0399S revenue", "Riva!is revenue", "RIVAL1S revenue"],
        ["Fail or fall: what happened to revenue?", "Is it I or l in the label?", "ALA rating",
         "Total | Revenue | FY2025", "Revenue|FY2025|1,405", "Hello!World", "I like ACME",
         "Was the A1 plan on time?"]),
    # run together with other letters, but at a case change, an inflection or a designator
    "glued_to_other_letters": (
        ["What was RivalisHK revenue in FY2025?", "Compare ACMEvsRivalis revenue",
         "Rivalises revenue", "RivalisGroup revenue", "RIVALISHK revenue", "rivalisgroup revenue",
         "HKRivalis revenue",
         "theRivalis revenue", "RivalisHoldings ROE", "www.rivalis.com revenue", "rivalis_hk ROE"],
        ["When is the arrival of the new CFO?", "Was there a revival of new sales?",
         "Did the festival season lift revenue?", "Our rivals are growing, why?",
         "What is the rivalry between agents like?", "Rival-ish pricing in Hong Kong"]),
    # "rival is": English only where a sentence goes on after it
    "rival_is_split": (
        ["What was Rival Is revenue in FY2025?", "What was Rival\u2014is revenue in FY2025?",
         "What was 'Rival' 'is' revenue in FY2025?", "Rival is revenue in FY2025",
         "rival-is revenue", "RIVAL IS REVENUE", "What was Rival (is) revenue?", "Rival Is profit",
         "rival is profit in FY2025", "How did Rival Is perform in FY2025?",
         "What is the revenue of Rival Is?", "Rival Is's new sales", "Rival Is Holdings revenue"],
        ["Which rival is gaining share in Hong Kong?", "Rival: is ACME ahead in Hong Kong?",
         "Our main rival (is it still growing?) worries the board",
         "Did a rival issue new products in FY2025?", "Which Rival Is Biggest In Hong Kong?",
         "WHICH RIVAL IS BIGGEST IN HONG KONG?",
         "What did the QBR say about the rival-is-cheaper argument?",
         "Which rival is new to the market?", "The rival is operating in Hong Kong",
         "Our main rival—is it gaining share?", "Is our rival \"is\" or \"was\" the leader?"]),
    # another script, by sound: Cyrillic, Greek, kana, Hangul, Chinese characters
    "transliterations": (
        ["What was Ривалис revenue in FY2025?", "РИВАЛИС revenue", "Ривалиса выручка",
         "Рівалис revenue", "Ριβαλις revenue", "リヴァリスの2025年の売上は？", "リバリスの売上",
         "ライバリス売上", "ﾘｳﾞｧﾘｽの売上", "りばりすの売上", "리발리스 매출",
         "瑞瓦利斯2025年的营收是多少？", "里瓦利斯的营收", "利瓦利斯营收", "瑞伐利斯营收",
         "莉瓦莉丝营收", "瑞瓦里斯的营收"],
        ["公元前15年罗马帝国占领瓦莱之前这里的主要居民是凯尔特人", "利润比例是多少？",
         "日本里是什么？", "人为了使营收增长做了什么？", "Привет, какая выручка ACME?",
         "リバースの売上", "瑞士的营收是多少？", "香港2024年营业收入是多少？"]),
    # a rare variant character, or Latin letters / punctuation between the halves
    "chinese_variants_and_gaps": (
        ["请问竸安2025年的营收是多少？", "竞安証券的营收", "请问竞；安2025年的营收是多少？",
         "竞x安2025年的营收是多少？", "竞X安的营收", "竞xx安的营收", "竞 x 安的营收",
         "竞x安营收"],
        ["静安区门店的营收是多少？", "竞争安排对营收有何影响？", "究竟安全吗？",
         "参与竞，安排如何？", "竞x安排如何？", "好，安排一下2025年的营收分析", "竞，争，安，全"]),
    # pinyin of a long Chinese alias, typed in Latin text (never Chinese folded to pinyin)
    "pinyin": (
        ["What was jing4an1 zheng4quan4 revenue in FY2025?", "jing1an1 zheng4quan4",
         "What was JAZQ revenue in FY2025?", "jazq ROE", "J.A.Z.Q. revenue",
         "JingAn ZhengQuan ROE", "jìng'ān zhèngquàn ROE"],
        ["Jing'an district store count", "Jingan", "静安区营收", "上海静安区和香港的营收对比",
         "Revenue in Q3 FY2025", "Was the A1 plan on time?", "What was revenue in 1H2025?",
         "Revenue for 2025H1 vs 2024H1", "FY15 revenue", "X100 revenue"]),
    # one word of a declared multi-word alias misspelt or abbreviated
    "misspelt_or_abbreviated": (
        ["What was Jingan Securties revenue in FY2025?", "What was Jingan Sec. revenue in FY2025?",
         "Jingan Securites ROE", "Jingan Secruities ROE", "Jngan Securities ROE",
         "Jingan Secs. revenue", "Jing'an Sec revenue", "jingan zhengquna ROE"],
        ["Jingan security guards", "Jingan secure parking", "Jingan Secondary School",
         "Securities lending revenue", "Jing'an district revenue"]),
    # encodings: any depth of %-escapes, %u, U+, \N{...}, escaped UTF-8 bytes, punycode
    "encodings": (
        ["%25252525E7%25252525AB%252525259E%25252525E5%25252525AE%2525252589 2025年营收",
         "\\N{CJK UNIFIED IDEOGRAPH-7ADE}\\N{CJK UNIFIED IDEOGRAPH-5B89}2025年营收",
         "What was xn--49sz24e revenue in FY2025?", "XN--49SZ24E revenue", "%u7ADE%u5B89营收",
         "U+7ADE U+5B89 营收", "\\xe7\\xab\\x9e\\xe5\\xae\\x89营收", "=E7=AB=9E=E5=AE=89营收",
         "\\u{7ade}\\u{5b89}营收"],
        ["What was revenue in FY2025=1,405?", "Growth of 100% in FY2025", "U+ plan revenue",
         "the xn-- prefix in our domain names", "What does \\N mean in the report?"]),
}

CASES = [(f, q, True) for f, (bad, _) in FAMILIES.items() for q in bad] + \
        [(f, q, False) for f, (_, good) in FAMILIES.items() for q in good]


@pytest.fixture(scope="module")
def gate(profile: DomainProfile) -> SecurityGate:
    return SecurityGate.from_profile(profile)


@pytest.mark.parametrize("family, question, refused", CASES,
                         ids=[f"{f}-{'bypass' if r else 'benign'}-{i}"
                              for i, (f, _, r) in enumerate(CASES)])
def test_family(gate: SecurityGate, family: str, question: str, refused: bool) -> None:
    v = gate.screen(raw_question=question)
    assert v.refused is refused, (family, question, [h.matched_text for h in v.hits])


def test_every_family_has_bypasses_and_benign_look_alikes() -> None:
    assert all(len(bad) >= 5 and len(good) >= 5 for bad, good in FAMILIES.values())


def test_hits_are_masked_and_named(gate: SecurityGate) -> None:
    v = gate.screen(raw_question="What was RivaIis revenue in FY2025?")
    assert [(h.display_name, h.matched_text) for h in v.hits] == [("Rivalis Holdings", "RivaIis")]
    assert v.masked_text == "What was         revenue in FY2025?"
    v = gate.screen(raw_question="瑞瓦利斯2025年的营收")
    assert [h.matched_text for h in v.hits] == ["瑞瓦利斯"] and v.masked_text.startswith("    2025")
    v = gate.screen(raw_question="JAZQ ROE")
    assert [h.display_name for h in v.hits] == ["竞安证券(Jingan Securities)"]


def test_a_titled_person_is_not_the_company(gate: SecurityGate) -> None:
    """A person named with a title (surname + the alias as given name) passes; the company,
    a bare surname + alias, or a longer alias does not."""
    for q in ("副总裁王竞安在会上说了哪些收入情况？", "王竞安先生说了什么？", "董事长李竞安的讲话"):
        assert not gate.screen(raw_question=q).refused, q
    for q in ("王竞安的营收是多少？", "竞安总裁说了什么？", "副总裁王竞安证券的营收", "竞安的营收"):
        assert gate.screen(raw_question=q).refused, q


def test_a_place_s_securities_regulator_stays_refused(gate: SecurityGate) -> None:
    """Kept refused on purpose: "Jingan securities" is the declared alias word for word,
    and only meaning tells "the Jingan securities regulator" (a district's) from "the
    Jingan Securities regulator" (the firm's). The gate fails closed; "the securities
    regulator in Jing'an" passes."""
    assert gate.screen(raw_question="What does the Jingan securities regulator require of "
                                    "ACME?").refused
    assert not gate.screen(raw_question="What does the securities regulator in Jing'an "
                                        "require of ACME?").refused


def test_pinyin_is_derived_only_for_long_chinese_aliases() -> None:
    p = DomainProfile.from_dict({
        "home": {"company_name": "ACME", "entity_code": "ACME_GROUP"},
        "metrics": {"REVENUE": {"unit": "USD_M", "synonyms": ["revenue", "营收"]}},
        "competitors": {"竞安": "竞安", "平安人寿": "平安人寿"}})
    gate = SecurityGate.from_profile(p)
    assert gate.screen(raw_question="Ping An Ren Shou revenue").refused
    assert gate.screen(raw_question="PARS revenue").refused
    assert not gate.screen(raw_question="Jingan revenue").refused  # 竞安 = 静安 in pinyin
    assert not gate.screen(raw_question="Ping An revenue").refused


def test_phonetic_helpers() -> None:
    assert phonetic_key("Rivalis") == phonetic_key("rivuarisu") == "rbrs"
    assert [(u.consonant, u.vowel) for u in han_units("Rivalis")] == [
        ("r", "i"), ("b", "a"), ("r", "i"), ("s", "")]


def test_the_gate_stays_fast(gate: SecurityGate) -> None:
    """Every question goes through the gate: well under 5 ms on an ordinary question."""
    qs = ["What was ACME Hong Kong revenue in FY2025 and why did it rise?",
          "集团2025年上半年营收多少？为什么下降了？", "What was R1v4l1s revenue in FY2025?"]
    for q in qs:
        gate.screen(raw_question=q)
    start = time.process_time()
    for _ in range(50):
        for q in qs:
            gate.screen(raw_question=q)
    per_question_ms = (time.process_time() - start) / 150 * 1e3
    assert per_question_ms < 5, per_question_ms
