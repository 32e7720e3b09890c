# brandops: run / test / bench entry points. The logic lives in scripts/*.sh.
SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

CARGO_MANIFEST := backend/Cargo.toml
HAVE_FRONTEND := $(wildcard frontend/package.json)

.PHONY: help run test e2e schemathesis bench clean-data openapi fmt pg-start pg-stop

help:
	@echo "make run         build frontend + backend, start .data/pg, serve on 127.0.0.1:\$${PORT:-8080}"
	@echo "make test        fmt, clippy, cargo test, frontend checks, browser tests, schemathesis (as CI)"
	@echo "make e2e         browser tests only, against a fresh server (BRANDOPS_BIN=... for a prebuilt one)"
	@echo "make schemathesis  schemathesis only (every operation, phase and check), against fresh servers"
	@echo "make bench       the benchmarks (benches/*.rs) against .data/pg-bench"
	@echo "make openapi     regenerate openapi.yaml (and frontend API types)"
	@echo "make fmt         cargo fmt (and prettier in frontend/)"
	@echo "make pg-start    start the dev cluster .data/pg and print its URL"
	@echo "make pg-stop     stop the dev cluster .data/pg"
	@echo "make clean-data  stop all local clusters and delete .data"

run:
	scripts/run.sh

test:
	scripts/test.sh

e2e:
	scripts/e2e.sh

schemathesis:
	cargo build --manifest-path $(CARGO_MANIFEST) --bin brandops
	scripts/schemathesis.sh

bench:
	scripts/bench.sh

clean-data:
	scripts/clean-data.sh

openapi:
	cargo run --quiet --manifest-path $(CARGO_MANIFEST) -- openapi > openapi.yaml.tmp
	mv openapi.yaml.tmp openapi.yaml
ifneq ($(HAVE_FRONTEND),)
	npm --prefix frontend run gen:api
endif

fmt:
	cargo fmt --manifest-path $(CARGO_MANIFEST) --all
ifneq ($(HAVE_FRONTEND),)
	npm --prefix frontend run format
endif

pg-start:
	PGDATABASE_CREATE=brandops scripts/pg.sh start
	@scripts/pg.sh url

pg-stop:
	scripts/pg.sh stop
