"""Who and when a question is about: ask back, assume and say so, or refuse."""
