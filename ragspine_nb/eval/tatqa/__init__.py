"""TAT-QA through the product's own path: contexts written as files, ingested, asked, scored."""
