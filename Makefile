# Courier's two everyday commands live here; each installs what it needs first.
SWIFT ?= swift
SWIFTFLAGS ?= -Xswiftc -warnings-as-errors

.PHONY: demo test build lint deps-build deps-test contract bench clean

## Run the demo: the whole social flow against the embedded mock server, over both transports.
demo: deps-build
	$(SWIFT) build $(SWIFTFLAGS) --product courier
	$(SWIFT) run --skip-build courier demo --transport both

## Run every test: unit, transport conformance, mock server, endpoints and CLI, then the contract check.
test: deps-test
	$(SWIFT) build --build-tests $(SWIFTFLAGS)
	$(SWIFT) test --skip-build --parallel --num-workers 2
	scripts/contract-check.sh

build: deps-build
	$(SWIFT) build $(SWIFTFLAGS)

lint:
	$(SWIFT) format lint --strict -r Package.swift Sources Endpoints MockServer Tests

deps-build:
	@scripts/install-deps.sh build

deps-test:
	@scripts/install-deps.sh test

contract: deps-test
	scripts/contract-check.sh

bench: deps-test
	scripts/bench.sh

clean:
	rm -rf .build .bench
