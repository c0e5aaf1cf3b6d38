import Courier
import CourierCookies
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One `Set-Cookie` field that itself holds ", " and then `name=value`: a documented difference.
/// CurlTransport hands the field over as it came, and the jar reads it by RFC 6265 as one cookie
/// (the comma belongs to a value). FoundationNetworking joins repeated fields with ", " and gives
/// no other access to the lines, so over URLSessionTransport the field cannot be told from two
/// fields and is read as two, as the README's transport table says.
@Suite struct SetCookieCommaTests {
    /// A field, the `Cookie` header it leaves over libcurl, and the one it leaves when read as
    /// two fields.
    static let cases: [(field: String, asOneField: String, asTwoFields: String)] = [
        // A comma in the cookie's value.
        ("lang=en, region=eu", "lang=en, region=eu", "lang=en; region=eu"),
        // A comma in an attribute the jar does not know: the attribute is ignored.
        ("sid=7; note=plain, tone=dark", "sid=7", "sid=7; tone=dark"),
        // A comma in Max-Age's value makes it no number: the attribute is ignored.
        ("sid=7;Max-Age=60, tone=dark;Path=/", "sid=7", "sid=7; tone=dark"),
    ]

    @Test(arguments: TransportUnderTest.all, cases.indices)
    func aCommaInsideOneField(transport: TransportUnderTest, index: Int) async throws {
        let (field, asOneField, asTwoFields) = Self.cases[index]
        try await withConformanceServer { server in
            try await transport.with { sut in
                let jar = CookieJar()
                let manager = NetworkManager(transport: sut, baseURL: server.baseURL, cookieJar: jar)
                let query = field.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? field
                _ = try await manager.sendRaw(URLRequest(url: URL(string: "/set-cookie?cookie=\(query)")!))
                let expected = transport.kind == .urlsession ? asTwoFields : asOneField
                #expect(jar.cookieHeader(for: server.baseURL) == expected, "after Set-Cookie: \(field)")
            }
        }
    }
}
