"""josefk's fuzzers: coverage-guided targets (atheris) over the wire codecs and the log's
validator, and a network fuzzer against a live broker. See docs/fuzzing.md."""
