# Development entry points. Needs only Python 3.11+ and make.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PLUGINS := $(sort $(wildcard plugins/tautrait-*))

.PHONY: demo test install lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The steer plugin's [local] extra needs torch; torch==2.13.0 is the CPU build on disk here
# (any other spec would download a multi-GB CUDA build), so it is installed first.
STEER := plugins/tautrait-steer-user
TORCH ?= torch==2.13.0

# core + every plugin, editable, with the test tools
install: $(BIN)/python
	$(BIN)/python -m pip install --quiet '$(TORCH)'
	$(BIN)/python -m pip install --quiet -e '.[test,ray,gym,retrieval,a2a]' \
		$(addprefix -e ,$(filter-out $(STEER),$(PLUGINS))) -e '$(STEER)[local]'

# an offline evaluation on built-in defaults: oracle agent, scripted user, telehealth tasks
demo: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e . -e plugins/tautrait-telehealth
	$(BIN)/tautrait run --domain telehealth --agent oracle --num-trials 2

test: install
	$(BIN)/python -m pytest

lint: install
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .

# environment cost per episode, end-to-end throughput and start-up time (figures printed,
# nothing asserted)
bench: install
	$(BIN)/python bench/env_cost.py
	$(BIN)/python bench/throughput.py
	$(BIN)/python bench/startup.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
