"""Reading a question's words: the rows, columns, periods and operation it names (no store)."""
