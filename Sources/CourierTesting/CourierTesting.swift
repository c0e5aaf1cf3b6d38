// Testing helpers for Courier users: the scoped mock server (`withMockServer`, from
// MockServer, re-exported so one import gives it, with the handlers that serve a declared API
// and an OpenAPI document, `OpenAPIHandler`), Courier itself (re-exported, so that a test that
// drives a `NetworkManager` over a `StubTransport` needs no second import), a mock server answering the
// conformance routes (`withConformanceServer`), the transport conformance suite
// (`TransportConformance.run`), and small helpers (`TransportUnderTest`, `LoopbackPort`,
// `TemporaryDirectory`). Nothing here depends on a test framework; use it from Swift
// Testing or XCTest alike.
@_exported import Courier
@_exported import MockServer
@_exported import MockServerContract
@_exported import MockServerOpenAPI
