# josefk: make run (one broker on 127.0.0.1:9092, data under ./data), make test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# The broker's own dependencies (make run: about 100 MB), and on top of them what lint, the
# tests, compat, bench, fuzz and the Spark demo need (the test and spark extras). A venv
# made by `make run` is upgraded in place by the first target that needs the extras.
RUN_DEPS := $(VENV)/.run-deps
DEV_DEPS := $(VENV)/.dev-deps

.PHONY: run test unit pytest test-envs browser-env console-screenshots compat compat-doc lint bench bench-broker bench-scaling \
	bench-transactions bench-transaction-producers bench-quotas chaos clean kafka-jars kafka28-jars fuzz wheel messages \
	message-specs kafka4-jars go-envs mypyc mypyc-clean
# Debian's Maven 3.8 still writes ANSI colour resets with -q -B; jansi.noreset (a JVM property) stops them.
export MAVEN_OPTS += -Djansi.noreset=true
KAFKA_LIB := compat/.envs/kafka/lib
KAFKA28_LIB := compat/.envs/kafka28/lib
KAFKA4_LIB := compat/.envs/kafka4/lib

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(RUN_DEPS): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(DEV_DEPS): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[test,spark]'
	touch $@ $(RUN_DEPS)

run: $(RUN_DEPS)
	$(BIN)/josefk broker config/server.properties --override log.dirs=data/kafka-logs

# A wheel in dist/ (josefk broker, the tools, config/server.properties as package data).
wheel: $(BIN)/python
	$(BIN)/pip wheel -q --no-deps --wheel-dir dist .

# Everything: lint, every test (unit, integration, cluster, spark; see tests/conftest.py), compat.
test: lint pytest compat

pytest: $(DEV_DEPS) $(KAFKA_LIB)/.stamp $(KAFKA28_LIB)/.stamp $(KAFKA4_LIB)/.stamp test-envs browser-env go-envs
	$(BIN)/pytest -q

# The fast part alone: lint and the unit tests (no network, no broker), about a minute.
unit: lint
	$(BIN)/pytest -q -m unit

# Apache Kafka 3.9's jars (the reference broker and its tools) from Maven Central, outside git.
kafka-jars: $(KAFKA_LIB)/.stamp
$(KAFKA_LIB)/.stamp: compat/kafka/pom.xml
	rm -rf $(KAFKA_LIB)
	mvn -q -B --no-transfer-progress -Dstyle.color=never -f compat/kafka/pom.xml dependency:copy-dependencies -DincludeScope=runtime \
		-DoutputDirectory=$(CURDIR)/$(KAFKA_LIB)
	touch $@

# josefk's message layer (protocol/messages, docs/architecture.md "Message layer"): `messages`
# regenerates protocol/messages/generated/ from the vendored specs, merged; `message-specs`
# replaces specs/<version>/ with the specs of kafka-clients <version> from Maven Central for each
# of $(MESSAGE_SPECS_VERSIONS), then regenerates.
MESSAGE_SPECS_VERSIONS := 3.9.2 4.4.0
messages: $(RUN_DEPS)
	$(BIN)/python -m josefk.protocol.messages.generator

message-specs: $(RUN_DEPS)
	rm -rf build/message-specs
	for version in $(MESSAGE_SPECS_VERSIONS); do \
		mvn -q -B --no-transfer-progress -Dstyle.color=never dependency:copy -Dartifact=org.apache.kafka:kafka-clients:$$version \
			-DoutputDirectory=$(CURDIR)/build/message-specs && \
		$(BIN)/python -m josefk.protocol.messages.generator --import-specs \
			build/message-specs/kafka-clients-$$version.jar || exit 1; \
	done
	$(BIN)/python -m josefk.protocol.messages.generator

# Kafka 2.8.2 for tests/test_old_ibp.py: josefk in a cluster of Kafka 2.8 brokers.
kafka28-jars: $(KAFKA28_LIB)/.stamp
$(KAFKA28_LIB)/.stamp: compat/kafka28/pom.xml
	rm -rf $(KAFKA28_LIB)
	mvn -q -B --no-transfer-progress -Dstyle.color=never -f compat/kafka28/pom.xml dependency:copy-dependencies -DincludeScope=runtime \
		-DoutputDirectory=$(CURDIR)/$(KAFKA28_LIB)
	touch $@

# Kafka 4.4.0 in KRaft combined mode, the second reference (harness/kafka.py KRaftBroker): the
# differential suite's Kafka 4.4 cases and compat/run.py's Kafka 4.4.0 column.
kafka4-jars: $(KAFKA4_LIB)/.stamp
$(KAFKA4_LIB)/.stamp: compat/kafka4/pom.xml
	rm -rf $(KAFKA4_LIB)
	mvn -q -B --no-transfer-progress -Dstyle.color=never -f compat/kafka4/pom.xml dependency:copy-dependencies -DincludeScope=runtime \
		-DoutputDirectory=$(CURDIR)/$(KAFKA4_LIB)
	touch $@

# What pytest needs besides the venv: the kafka-clients 3.9.2 jars, resolved from Maven Central by
# mvn through compat/java/pom-3.9.xml (tests/test_kafka_file_format.py, test_spark_connector_path.py),
# the 4.4.0 client jars from compat/java/pom-4.xml (the KIP-848, telemetry and message-layer tests'
# Java programs), and the Tansu binary (test_cli_tansu.py); quick when built. `compat` builds the
# rest (the Python client venvs).
test-envs: $(DEV_DEPS)
	$(BIN)/python compat/setup_envs.py --only java,java-4,tansu

# franz-go's consumer-group member (compat/go: KIP-848 and classic groups, tests/test_consumer_group_go.py),
# built outside git; the modules go.sum pins are cached in Go's module cache (GOMODCACHE). franz-go
# needs Go 1.26: the go on PATH, else /usr/local/go's (where this machine and CI have it).
GO ?= $(or $(shell command -v go 2>/dev/null),/usr/local/go/bin/go)
GO_MEMBER := compat/.envs/go/go-member
go-envs: $(GO_MEMBER)
$(GO_MEMBER): compat/go/go.mod compat/go/go.sum compat/go/main.go
	cd compat/go && $(GO) build -mod=readonly -trimpath -buildvcs=false -o $(CURDIR)/$@ .

# playwright-core (pinned in tests/browser/package-lock.json) for the console's browser tests; it
# drives Debian's chromium (apt-get install chromium, .ci/run) and never downloads a browser.
BROWSER_DIR := tests/browser
browser-env: $(BROWSER_DIR)/node_modules/.package-lock.json
$(BROWSER_DIR)/node_modules/.package-lock.json: $(BROWSER_DIR)/package-lock.json
	cd $(BROWSER_DIR) && npm ci --no-audit --no-fund
	touch $@

# docs/console/*.png: the console's pages on a broker with sample topics, records and a group.
console-screenshots: $(DEV_DEPS) browser-env
	$(BIN)/python -m tests.console_scene docs/console

# The report goes to compat/.logs/compatibility-josefk.md (untracked); compat-doc rewrites
# the tracked docs/compatibility.md from a fresh run.
compat: $(DEV_DEPS) $(KAFKA4_LIB)/.stamp
	$(BIN)/python compat/run.py

compat-doc: $(DEV_DEPS) $(KAFKA4_LIB)/.stamp
	$(BIN)/python compat/run.py --write-doc

lint: $(DEV_DEPS)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/mypy --config-file typecheck/bench.toml

# make bench [BENCH_ARGS=--quick|--full|--profile]: josefk vs Kafka and Tansu, writes docs/benchmarks.md
bench: $(DEV_DEPS)
	$(BIN)/pip install -q -e '.[test,bench]'
	$(BIN)/python bench/run.py $(BENCH_ARGS)

# make bench-transactions [BENCH_ARGS=--seconds 10]: transactional produce, 1/100/10,000 records per
# transaction, josefk vs Kafka 3.9.2; writes its section of docs/benchmarks.md (~1.5 min)
bench-transactions: $(DEV_DEPS) $(KAFKA_LIB)/.stamp
	$(BIN)/pip install -q -e '.[test,bench]'
	$(BIN)/python bench/transactions.py $(BENCH_ARGS)

# make bench-transaction-producers [BENCH_ARGS=--rounds 3 --baseline-python OTHER/.venv/bin/python]:
# 1 to 128 concurrent transactional producers, one record per transaction, josefk vs Kafka 3.9.2;
# writes its section of docs/benchmarks.md (~1.5 min a round)
bench-transaction-producers: $(DEV_DEPS) $(KAFKA_LIB)/.stamp
	$(BIN)/pip install -q -e '.[test,bench]'
	$(BIN)/python bench/transaction_producers.py $(BENCH_ARGS)

# make bench-quotas [BENCH_ARGS=--seconds 20]: client quotas, measured rate against the configured
# producer_byte_rate / consumer_byte_rate (one broker, confluent-kafka; ~6 min); figures in docs/security.md
bench-quotas: $(DEV_DEPS)
	$(BIN)/pip install -q -e '.[test,bench]'
	$(BIN)/python bench/quotas.py $(BENCH_ARGS)

# make bench-broker [BENCH_ARGS=--quick|--only SECTION,...]: broker-bound curves (request rate, partitions,
# connections, tail latency, acks=all on 3 brokers, replication, a profile), josefk vs Kafka and Tansu,
# writes docs/benchmarks-broker.md (~15 min on 2 cores)
bench-broker: $(DEV_DEPS) $(KAFKA_LIB)/.stamp
	$(BIN)/pip install -q -e '.[test,bench]'
	$(BIN)/python bench/broker_bound.py $(BENCH_ARGS)

# make bench-scaling: one josefk broker vs two on this host under one ZooKeeper (request rate,
# bulk produce); writes its table into docs/scaling.md (~2 min)
bench-scaling: $(DEV_DEPS)
	$(BIN)/pip install -q -e '.[test,bench]'
	$(BIN)/python bench/scaling.py $(BENCH_ARGS)

# make mypyc: OPTIONAL, compile the Produce request's hot path with mypyc (the broker is mypy-clean)
# for less CPU per request (docs/benchmarks-broker.md, "Compiled with mypyc"). The extension modules
# land beside their sources and shadow them on import: `make mypyc-clean` before editing those files
# again. The pure-Python broker (no .so files) is the default, and what the tests and CI run.
MYPYC_MODULES := protocol/headers.py protocol/framing.py protocol/produce_response.py utils/metrics.py \
	log/log_dir_failure.py log/segment.py log/validator.py log/log.py \
	server/network/request_channel.py server/network/socket_server.py \
	replication/partition.py replication/replica_manager.py
mypyc: $(DEV_DEPS)
	cd typecheck && ../$(BIN)/python -m mypyc $(addprefix josefk/,$(MYPYC_MODULES))
	cp typecheck/*__mypyc.cpython-*.so $$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/

mypyc-clean:
	rm -rf typecheck/build typecheck/*__mypyc.cpython-*.so \
		$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/*__mypyc.cpython-*.so
	rm -f $(foreach m,$(MYPYC_MODULES),$(m:.py=).cpython-*.so)

# make fuzz [FUZZ_RUNS=1000000] [FUZZ_REQUESTS=100000]: every coverage-guided target for
# FUZZ_RUNS inputs (corpora kept in fuzz/work/), then the network fuzzer; see docs/fuzzing.md
FUZZ_RUNS ?= 1000000
FUZZ_REQUESTS ?= 100000
fuzz: $(DEV_DEPS)
	$(BIN)/python -c "import atheris" 2>/dev/null || $(BIN)/pip install -q -e '.[fuzz]'
	for target in decoder validator legacy compression; do \
		$(BIN)/python -m fuzz.run $$target -runs=$(FUZZ_RUNS) -timeout=20 -print_final_stats=1 || exit 1; \
	done
	$(BIN)/python -m fuzz.network --requests $(FUZZ_REQUESTS) --connections 32

# make chaos [CHAOS_ARGS="--faults 100 --seed N"]: the long fault-injection run (root: network namespaces)
chaos: $(DEV_DEPS)
	$(BIN)/python -m tests.chaos $(CHAOS_ARGS)

clean:
	rm -rf $(VENV) data dist compat/.envs compat/java/build compat/java/build-4 bench/.cache fuzz/work \
		$(BROWSER_DIR)/node_modules

# make demo [DEMO_ARGS="--source josefk"]: the activity-stream example; official connector by default
.PHONY: demo
demo: $(DEV_DEPS)
	$(BIN)/python -c "import pyspark, pyarrow, matplotlib" 2>/dev/null || $(BIN)/pip install -q -e '.[spark]' matplotlib
	$(BIN)/python examples/activity_stream/demo.py --out demo-out $(DEMO_ARGS)
