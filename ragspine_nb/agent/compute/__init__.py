"""Planning and computing over the fact store: the cells a question needs and the operation."""
