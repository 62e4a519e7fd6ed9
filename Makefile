# josefk: make run (one broker on 127.0.0.1:9092, data under ./data), make test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test unit compat lint bench clean

$(BIN)/josefk: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $@

run: $(BIN)/josefk
	$(BIN)/josefk broker config/server.properties

test: unit compat

unit: $(BIN)/josefk
	$(BIN)/ruff check .
	$(BIN)/pytest -q

compat: $(BIN)/josefk
	$(BIN)/python compat/run.py

lint: $(BIN)/josefk
	$(BIN)/ruff check .

bench: $(BIN)/josefk
	$(BIN)/python bench/produce_consume.py

clean:
	rm -rf $(VENV) data compat/.envs compat/java/build
