# josefk: make run (one broker on 127.0.0.1:9092, data under ./data), make test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test unit pytest test-envs compat lint bench bench-broker chaos clean kafka-jars fuzz
KAFKA_LIB := compat/.envs/kafka/lib

$(BIN)/josefk: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test,spark]'
	touch $@

run: $(BIN)/josefk
	$(BIN)/josefk broker config/server.properties

# Everything: lint, every test (unit, integration, cluster, spark; see tests/conftest.py), compat.
test: lint pytest compat

pytest: $(BIN)/josefk $(KAFKA_LIB)/.stamp test-envs
	$(BIN)/pytest -q

# The fast part alone: lint and the unit tests (no network, no broker), about a minute.
unit: lint
	$(BIN)/pytest -q -m unit

# Apache Kafka 3.9's jars (the reference broker and its tools) from Maven Central, outside git.
kafka-jars: $(KAFKA_LIB)/.stamp
$(KAFKA_LIB)/.stamp: compat/kafka/pom.xml
	rm -rf $(KAFKA_LIB)
	mvn -q -B -f compat/kafka/pom.xml dependency:copy-dependencies -DincludeScope=runtime \
		-DoutputDirectory=$(CURDIR)/$(KAFKA_LIB)
	touch $@

# What pytest needs besides the venv: the kafka-clients 3.9.2 jars, resolved from Maven Central by
# mvn through compat/java/pom-3.9.xml (tests/test_kafka_file_format.py, test_spark_connector_path.py),
# and the Tansu binary (test_cli_tansu.py); quick when built. `compat` builds the rest (java-4's
# kafka-clients and kafka-streams 4.4.0 from compat/java/pom-4.xml, the Python client venvs).
test-envs: $(BIN)/josefk
	$(BIN)/python compat/setup_envs.py --only java,tansu

compat: $(BIN)/josefk
	$(BIN)/python compat/run.py

lint: $(BIN)/josefk
	$(BIN)/ruff check .
	$(BIN)/mypy

# make bench [BENCH_ARGS=--quick|--full|--profile]: josefk vs Kafka and Tansu, writes docs/benchmarks.md
bench: $(BIN)/josefk
	$(BIN)/pip install -q -e '.[test,bench]'
	$(BIN)/python bench/run.py $(BENCH_ARGS)

# make bench-broker [BENCH_ARGS=--quick]: broker-bound curves (request rate vs producers, partitions),
# josefk vs Kafka and Tansu, writes docs/benchmarks-broker.md (~5-8 min on 2 cores)
bench-broker: $(BIN)/josefk $(KAFKA_LIB)/.stamp
	$(BIN)/pip install -q -e '.[test,bench]'
	$(BIN)/python bench/broker_bound.py $(BENCH_ARGS)

# make fuzz [FUZZ_RUNS=1000000] [FUZZ_REQUESTS=100000]: every coverage-guided target for
# FUZZ_RUNS inputs (corpora kept in fuzz/work/), then the network fuzzer; see docs/fuzzing.md
FUZZ_RUNS ?= 1000000
FUZZ_REQUESTS ?= 100000
fuzz: $(BIN)/josefk
	$(BIN)/python -c "import atheris" 2>/dev/null || $(BIN)/pip install -q -e '.[fuzz]'
	for target in decoder validator legacy compression; do \
		$(BIN)/python -m fuzz.run $$target -runs=$(FUZZ_RUNS) -timeout=20 -print_final_stats=1 || exit 1; \
	done
	$(BIN)/python -m fuzz.network --requests $(FUZZ_REQUESTS) --connections 32

# make chaos [CHAOS_ARGS="--faults 100 --seed N"]: the long fault-injection run (root: network namespaces)
chaos: $(BIN)/josefk
	$(BIN)/python -m tests.chaos $(CHAOS_ARGS)

clean:
	rm -rf $(VENV) data compat/.envs compat/java/build compat/java/build-4 bench/.cache fuzz/work

# make demo [DEMO_ARGS="--source josefk"]: the activity-stream example; official connector by default
.PHONY: demo
demo: $(BIN)/josefk
	$(BIN)/python -c "import pyspark, pyarrow, matplotlib" 2>/dev/null || $(BIN)/pip install -q -e '.[spark]' matplotlib
	$(BIN)/python examples/activity_stream/demo.py --out demo-out $(DEMO_ARGS)
