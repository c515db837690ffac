"""The narrative channel: passages retrieved, sentences extracted, prose grounded in the store."""
