import TestSupport
import Testing

/// The README's three ways to test (StubTransport, CourierURLProtocol, the socket mock with a cassette)
/// are ReadmeThreeWaysExample.swift, verbatim; its tests run with this target.
@Suite("README three ways to test")
struct ReadmeThreeWaysExampleTests {
    @Test func readmeShowsTheCompiledExampleVerbatim() throws {
        #expect(try ReadmeText.showsVerbatim("ReadmeThreeWaysExample.swift"))
    }
}
