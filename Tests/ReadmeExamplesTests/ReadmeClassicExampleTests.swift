import CourierContract
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The README's classic `APIConfigurable` example is ReadmeClassicExample.swift, verbatim: this test
/// checks the request it declares and fails when the README and the file drift apart.
@Suite("README classic enum example")
struct ReadmeClassicExampleTests {
    @Test func readmeShowsTheCompiledExampleVerbatim() throws {
        #expect(try ReadmeText.showsVerbatim("ReadmeClassicExample.swift"))
    }

    @Test func theEnumSendsWhatItDeclares() throws {
        let request = try #require(loginRequest())
        #expect(request.httpMethod == "POST")
        #expect(request.url?.absoluteString == "https://www.myserver.com/login")
        #expect(request.value(forHTTPHeaderField: "Authorization") == "<token>")
        let body = try JSONSerialization.jsonObject(with: request.httpBody ?? Data()) as? [String: String]
        #expect(body == ["Email": "ayush", "Password": "123456"])
    }
}
