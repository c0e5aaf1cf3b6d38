// Testing helpers for Courier users: the scoped mock server (`withMockServer`, from
// MockServer, re-exported so one import gives it, with the handlers that serve a declared API
// and an OpenAPI document, `OpenAPIHandler`), a mock server answering the
// conformance routes (`withConformanceServer`), the transport conformance suite
// (`TransportConformance.run`), and small helpers (`TransportUnderTest`, `LoopbackPort`,
// `TemporaryDirectory`). Nothing here depends on a test framework; use it from Swift
// Testing or XCTest alike.
@_exported import MockServer
@_exported import MockServerContract
@_exported import MockServerOpenAPI
