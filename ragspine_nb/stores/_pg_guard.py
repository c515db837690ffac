"""The text check of a user's PostgreSQL read: one statement, allowed functions only.

PostgreSQL has no authorizer hook, so :func:`checked_read_sql` reads the statement the
way PostgreSQL's lexer does (comments nest, ``--`` ends at a newline or carriage return,
``'...'`` strings take no backslash escapes under ``standard_conforming_strings``, ``E'...'``
strings do, ``$tag$`` quoting, ``"quoted"`` identifiers, ``$`` inside a name) and refuses:

* anything but one ``SELECT`` / ``WITH`` / ``VALUES`` / ``TABLE`` / ``EXPLAIN`` statement;
* any call of a function outside :data:`ALLOWED_PG_FUNCTIONS` (files, programs, large
  objects, SQL text run by ``query_to_xml``, settings, sleeps, signals are all outside),
  unquoted, quoted or schema-qualified;
* any mention of a name in :data:`DENIED_PG_NAMES` (attribute notation ``t.pg_read_file``
  calls a function without parentheses; ``pg_authid`` holds password hashes);
* ``U&"..."`` escaped identifiers and strings (they can spell any name).

It is one of three fences: the statement also runs alone through the extended protocol
(which refuses several statements) on a session that is ``default_transaction_read_only``
with a ``statement_timeout``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ragspine_nb.errors import ReadOnlyQueryError

__all__ = ["ALLOWED_PG_FUNCTIONS", "DENIED_PG_NAMES", "Token", "tokens", "checked_read_sql"]

#: Functions a user's read may call (aggregates, window, math, string, date, JSON, arrays).
#: Not ``repeat``, ``lpad``, ``rpad`` or ``format``: each builds a value of up to 1 GB
#: from a few bytes of SQL (``repeat('x', 5e8)``).
ALLOWED_PG_FUNCTIONS: frozenset[str] = frozenset("""
count sum avg min max string_agg array_agg bool_and bool_or every stddev stddev_pop
stddev_samp variance var_pop var_samp percentile_cont percentile_disc mode json_agg
jsonb_agg json_object_agg jsonb_object_agg corr covar_pop covar_samp regr_slope
row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value
nth_value
coalesce nullif greatest least
abs round trunc ceil ceiling floor sign sqrt cbrt power pow exp ln log log10 mod div pi
degrees radians width_bucket random sin cos tan asin acos atan atan2 gcd lcm factorial
length char_length character_length octet_length bit_length lower upper initcap trim btrim
ltrim rtrim substr substring position strpos replace translate left right
concat concat_ws split_part reverse starts_with regexp_replace regexp_match
regexp_matches regexp_split_to_array regexp_split_to_table regexp_like regexp_count
regexp_substr regexp_instr md5 to_char to_number to_date to_timestamp ascii chr encode
decode overlay normalize string_to_array array_to_string unistr
now current_date current_time current_timestamp localtime localtimestamp clock_timestamp
statement_timestamp transaction_timestamp date_trunc date_part date_bin extract age
make_date make_time make_timestamp make_timestamptz make_interval justify_days
justify_hours justify_interval isfinite
unnest array_length array_lower array_upper cardinality array_position array_positions
array_remove array_replace array_append array_prepend array_cat generate_series
generate_subscripts
to_json to_jsonb row_to_json array_to_json json_build_object jsonb_build_object
json_build_array jsonb_build_array json_object jsonb_object json_array_length
jsonb_array_length json_extract_path jsonb_extract_path json_extract_path_text
jsonb_extract_path_text json_array_elements jsonb_array_elements json_array_elements_text
jsonb_array_elements_text json_each jsonb_each json_each_text jsonb_each_text
json_object_keys jsonb_object_keys json_typeof jsonb_typeof jsonb_pretty jsonb_strip_nulls
json_strip_nulls
cosine_distance l2_distance l1_distance inner_product vector_dims vector_norm l2_normalize
""".split())
#: Keywords and type names that may stand before ``(`` without being a function call.
_NOT_CALLS = frozenset("""
select from where in exists any all some values as and or not on using over filter within
group partition by order having union intersect except distinct join lateral case when then
else between like ilike similar is limit offset fetch with recursive materialized row array
cast explain rollup cube sets grouping returning for escape collate at zone to symmetric
first next only
numeric decimal varchar char character varying bit timestamp time interval float vector
halfvec date text int int2 int4 int8 integer bigint smallint float4 float8 boolean bool
""".split())
#: Names refused wherever they appear (attribute notation calls without parentheses).
DENIED_PG_NAMES: frozenset[str] = frozenset("""
pg_read_file pg_read_binary_file pg_ls_dir pg_stat_file pg_ls_logdir pg_ls_waldir
pg_ls_tmpdir pg_ls_archive_statusdir pg_ls_logicalsnapdir pg_ls_logicalmapdir
pg_ls_replslotdir lo_import lo_export lo_get lo_put lo_from_bytea lo_create lo_unlink
query_to_xml query_to_xmlschema query_to_xml_and_xmlschema cursor_to_xml
table_to_xml schema_to_xml database_to_xml set_config current_setting dblink dblink_exec
pg_sleep pg_sleep_for pg_sleep_until pg_terminate_backend pg_cancel_backend
pg_reload_conf pg_rotate_logfile pg_promote pg_authid pg_shadow pg_user_mapping
pg_user_mappings pg_hba_file_rules pg_ident_file_mappings pg_file_settings pg_largeobject
pg_stat_activity
""".split())
_STARTERS = frozenset({"select", "with", "values", "table", "explain"})
_MAIN_STATEMENT = frozenset({"select", "values", "table", "insert", "update", "delete", "merge"})
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_IDENT_START = re.compile(r"[A-Za-z_\u0080-\U0010ffff]")
_IDENT = re.compile(r"[A-Za-z_\u0080-\U0010ffff][A-Za-z0-9_$\u0080-\U0010ffff]*")
_NUMBER = re.compile(r"(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d+)?[A-Za-z0-9_]*")
_DOLLAR_TAG = re.compile(r"\$(?:[A-Za-z_\u0080-\U0010ffff][A-Za-z0-9_\u0080-\U0010ffff]*)?\$")
_OPERATOR_CHARS = set("+-*/<>=~!@#%^&|`?")


@dataclass(frozen=True)
class Token:
    """One lexical token: ``kind`` is word, qident, string, number, param, op or punct."""

    kind: str
    text: str
    start: int


def _refuse(why: str) -> ReadOnlyQueryError:
    return ReadOnlyQueryError(f"execute_read refused this statement: {why}")


def _skip_block_comment(sql: str, i: int) -> int:
    depth, i = 1, i + 2
    while depth:
        if i >= len(sql):
            raise _refuse("an unterminated /* comment")
        if sql.startswith("/*", i):
            depth, i = depth + 1, i + 2
        elif sql.startswith("*/", i):
            depth, i = depth - 1, i + 2
        else:
            i += 1
    return i


def _string_end(sql: str, i: int, backslashes: bool) -> int:
    """Index after the string whose opening quote is at ``i``."""
    i += 1
    while i < len(sql):
        ch = sql[i]
        if backslashes and ch == "\\":
            i += 2
        elif ch == "'":
            if sql.startswith("''", i):
                i += 2
            else:
                return i + 1
        else:
            i += 1
    raise _refuse("an unterminated string")


def _quoted_end(sql: str, i: int) -> int:
    i += 1
    while True:
        j = sql.find('"', i)
        if j < 0:
            raise _refuse("an unterminated quoted name")
        if sql.startswith('""', j):
            i = j + 2
            continue
        return j + 1


def _word(sql: str, i: int) -> tuple[Token, int]:
    """A name, or a prefixed string (``E'..'``, ``B'..'``, ``X'..'``, ``N'..'``)."""
    m = _IDENT.match(sql, i)
    assert m is not None  # only called at an identifier start
    text, end = m.group(), m.end()
    if end < len(sql) and sql[end] == "'" and text.lower() in ("e", "b", "x", "n"):
        return Token("string", "", i), _string_end(sql, end, text.lower() == "e")
    if text.lower() == "u" and sql.startswith("&", end):
        raise _refuse('U& escaped names and strings are not allowed (use plain "names")')
    return Token("word", text.translate(_ASCII_LOWER), i), end  # as PostgreSQL folds


def _operator(sql: str, i: int) -> int:
    j = i
    while j < len(sql) and sql[j] in _OPERATOR_CHARS and not sql.startswith(("--", "/*"), j):
        j += 1
    return max(j, i + 1)


def _next(sql: str, i: int) -> tuple[Token | None, int]:
    """The token at ``i`` (None for whitespace and comments) and where the next starts."""
    ch = sql[i]
    if ch.isspace():
        return None, i + 1
    if sql.startswith("--", i):
        ends = [j for j in (sql.find("\n", i), sql.find("\r", i)) if j >= 0]
        return None, min(ends) + 1 if ends else len(sql)
    if sql.startswith("/*", i):
        return None, _skip_block_comment(sql, i)
    if ch == "'":
        return Token("string", "", i), _string_end(sql, i, False)
    if ch == '"':
        end = _quoted_end(sql, i)
        return Token("qident", sql[i + 1:end - 1].replace('""', '"'), i), end
    if ch == "$":
        if m := re.compile(r"\$\d+").match(sql, i):
            return Token("param", m.group(), i), m.end()
        if m := _DOLLAR_TAG.match(sql, i):
            close = sql.find(m.group(), m.end())
            if close < 0:
                raise _refuse("an unterminated $-quoted string")
            return Token("string", "", i), close + len(m.group())
        raise _refuse("a stray '$'")
    if _IDENT_START.match(ch):
        return _word(sql, i)
    if m := _NUMBER.match(sql, i):
        return Token("number", m.group(), i), m.end()
    if sql.startswith("::", i):
        return Token("punct", "::", i), i + 2
    if ch in "(),;.[]:":
        return Token("punct", ch, i), i + 1
    end = _operator(sql, i)
    return Token("op", sql[i:end], i), end


def tokens(sql: str) -> list[Token]:
    """PostgreSQL tokens of ``sql`` (comments and whitespace dropped).

    Examples
    --------
    >>> [t.text for t in tokens('SELECT $a$ x $a$, "Pg"(1) -- c')]
    ['select', '', ',', 'Pg', '(', '1', ')']
    """
    out: list[Token] = []
    i = 0
    while i < len(sql):
        token, i = _next(sql, i)
        if token is not None:
            out.append(token)
    return out


def _one_statement(toks: list[Token]) -> list[Token]:
    while toks and toks[-1].text == ";" and toks[-1].kind == "punct":
        toks = toks[:-1]
    if any(t.kind == "punct" and t.text == ";" for t in toks):
        raise ReadOnlyQueryError("execute_read runs exactly one statement; this text holds "
                                 "several (a ';' before the end)")
    first = next((t for t in toks if t.text != "("), None)
    if first is None or first.kind != "word" or first.text not in _STARTERS:
        raise ReadOnlyQueryError("execute_read only runs read-only statements (SELECT / "
                                 "WITH ... SELECT / VALUES / TABLE / EXPLAIN); this one was "
                                 "refused")
    return toks


def _is_name(t: Token) -> bool:
    return t.kind in ("word", "qident")


def _closing(toks: list[Token], k: int) -> int:
    """Index of the ``)`` matching the ``(`` at ``k`` (``len(toks)`` when unbalanced)."""
    depth = 0
    for j in range(k, len(toks)):
        if toks[j].kind == "punct" and toks[j].text in "()":
            depth += 1 if toks[j].text == "(" else -1
            if depth == 0:
                return j
    return len(toks)


def _cte_names(toks: list[Token]) -> set[int]:
    """Positions of CTE names with a column list (``WITH r(n) AS (``): not calls.

    Only right after ``WITH``, ``RECURSIVE`` or a ``,`` of the WITH list (before its
    main statement at that depth), and only when ``AS`` follows the column list.
    """
    out: set[int] = set()
    depth, in_list = 0, dict[int, bool]()  # depth -> in a WITH list, before its statement
    for k, t in enumerate(toks):
        if t.kind == "punct" and t.text == "(":
            depth += 1
        elif t.kind == "punct" and t.text == ")":
            in_list.pop(depth, None)
            depth -= 1
        elif t.kind == "word" and t.text == "with":
            in_list[depth] = True
        elif t.kind == "word" and t.text in _MAIN_STATEMENT:
            in_list[depth] = False
        elif (in_list.get(depth) and _is_name(t) and k >= 1 and k + 1 < len(toks)
              and toks[k - 1].text in ("with", "recursive", ",") and toks[k + 1].text == "("):
            end = _closing(toks, k + 1)
            if end + 1 < len(toks) and toks[end + 1].text == "as":
                out.add(k)
    return out


def _check_calls(toks: list[Token]) -> None:
    ctes = _cte_names(toks)
    for k, t in enumerate(toks):
        if not _is_name(t):
            continue
        if t.text in DENIED_PG_NAMES:
            raise _refuse(f"{t.text!r} reads files, runs programs or SQL text, changes "
                          "settings or holds secrets")
        if k + 1 >= len(toks) or toks[k + 1].text != "(" or k in ctes:
            continue
        before = toks[k - 1] if k else None
        schema = None
        if before is not None and before.text == "." and k >= 2 and _is_name(toks[k - 2]):
            schema = toks[k - 2].text
            before = toks[k - 3] if k >= 3 else None
        if before is not None and (before.text == "::" or before.text == "as"):
            continue  # a type modifier or an alias with a column list
        if schema is None and t.kind == "word" and t.text in _NOT_CALLS:
            continue
        if schema not in (None, "pg_catalog") or t.text not in ALLOWED_PG_FUNCTIONS:
            name = f"{schema}.{t.text}" if schema else t.text
            raise _refuse(f"the function {name!r} is not allowed; allowed functions: "
                          f"{', '.join(sorted(ALLOWED_PG_FUNCTIONS))}")


def checked_read_sql(sql: str) -> str:
    """``sql`` checked (see the module docstring), with ``?`` placeholders as ``%s``.

    Raises
    ------
    ReadOnlyQueryError
        Several statements, not a read, a function outside the allowlist, a denied name.

    Examples
    --------
    >>> checked_read_sql("SELECT value FROM fact_metric WHERE entity = ? AND unit LIKE 'U%'")
    "SELECT value FROM fact_metric WHERE entity = %s AND unit LIKE 'U%%'"
    >>> checked_read_sql("SELECT 1; DELETE FROM fact_metric")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ragspine_nb.errors.ReadOnlyQueryError: execute_read runs exactly one statement; ...
    """
    toks = tokens(sql)
    _check_calls(_one_statement(toks))
    return _placeholders(sql, toks)


def _placeholders(sql: str, toks: list[Token]) -> str:
    """``?`` outside strings and comments → ``%s``; every ``%`` → ``%%`` (for psycopg)."""
    marks = {t.start + j for t in toks if t.kind == "op"
             for j, ch in enumerate(t.text) if ch == "?"}
    return "".join("%s" if i in marks else "%%" if ch == "%" else ch
                   for i, ch in enumerate(sql))
