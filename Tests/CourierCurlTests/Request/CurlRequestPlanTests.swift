import Courier
import Foundation
import Testing

@testable import CourierCurl

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct CurlRequestPlanTests {
    private func plan(
        _ method: String = "GET", url: String = "http://127.0.0.1:8080/a?b=c",
        headers: [String: String] = [:],
        body: RequestBody = .empty,
        options: TransferOptions = TransferOptions(), configuration: CurlTransport.Configuration = .init()
    ) throws -> CurlRequestPlan {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return try CurlRequestPlan.make(
            for: TransportRequest(
                urlRequest: request, body: body, options: options),
            configuration: configuration)
    }

    /// Requests share connections and a queue by origin: scheme, host and port as the server sees
    /// them, whatever the spelling.
    @Test func theOriginIgnoresHowTheHostAndPortAreSpelled() throws {
        let origin = try plan(url: "http://example.test/a").origin
        #expect(try plan(url: "HTTP://EXAMPLE.test:80/b?c").origin == origin)
        #expect(try plan(url: "http://ex%41mple.test/c").origin == origin)
        #expect(try plan(url: "http://user:pw@example.test/d").origin == origin)
        #expect(try plan(url: "http://example.test:8080/a").origin != origin)
        #expect(try plan(url: "https://example.test/a").origin != origin)
        #expect(
            try plan(url: "https://example.test/a").origin
                == (try plan(url: "https://example.test:443/").origin))
        #expect(try plan(url: "http://[::1]:8080/a").origin == (try plan(url: "http://[::1]:8080/b").origin))
    }

    @Test func aPlainGetHasNoUploadAndTheSafeDefaults() throws {
        let plan = try plan()
        #expect(plan.url == "http://127.0.0.1:8080/a?b=c")
        #expect(plan.method == .get)
        #expect(plan.upload == .none)
        #expect(plan.headerLines.isEmpty)
        #expect(plan.acceptEncoding == "")
        #expect(plan.preferHTTP2)
        #expect(plan.caBundlePath == nil)
        #expect(plan.allowedProtocols == "http,https")
        #expect(plan.maxResponseBytes == 16 << 20)
        #expect(plan.connectTimeoutMilliseconds == 10_000)
        #expect(plan.totalTimeoutMilliseconds == 0, "no whole-transfer deadline by default")
        #expect(plan.idleTimeout == .seconds(60), "URLRequest's default timeoutInterval is the idle timeout")
    }

    @Test func aPostWithDataIsSizedAndSuppressesExpectAndTheDefaultContentType() throws {
        let plan = try plan("POST", body: .data(Data("hello".utf8)))
        #expect(plan.method == .post)
        #expect(plan.upload == .sized(5))
        #expect(plan.headerLines == ["Expect:", "Content-Type:"])
    }

    @Test func aPutWithAStreamOfUnknownLengthIsChunked() throws {
        let stream = BodyStream(length: nil) { throw CourierError(.invalidBody, "unused") }
        let plan = try plan(
            "PUT", headers: ["Content-Type": "application/octet-stream"], body: .stream(stream))
        #expect(plan.method == .custom("PUT"))
        #expect(plan.upload == .chunked)
        #expect(
            plan.headerLines == [
                "Content-Type: application/octet-stream", "Transfer-Encoding: chunked", "Expect:",
            ])
    }

    @Test func headIsNoBodyAndDeleteWithoutBodyUploadsNothing() throws {
        #expect(try plan("HEAD").method == .head)
        let delete = try plan("DELETE")
        #expect(delete.method == .custom("DELETE"))
        #expect(delete.upload == .none)
        #expect(try plan("PATCH").upload == .sized(0), "PATCH sends an empty body with Content-Length: 0")
    }

    @Test func userFramingHeadersAreDroppedAndEmptyValuesUseTheSemicolonForm() throws {
        let plan = try plan(
            "POST", headers: ["Content-Length": "999", "X-Empty": "", "Authorization": "Bearer t"],
            body: .data(Data([1, 2, 3])))
        #expect(plan.headerLines.contains("Authorization: Bearer t"))
        #expect(plan.headerLines.contains("X-Empty;"))
        #expect(!plan.headerLines.contains { $0.lowercased().hasPrefix("content-length") })
        #expect(plan.upload == .sized(3))
    }

    @Test func optionsAndConfigurationReachThePlan() throws {
        let ca = URL(fileURLWithPath: "/tmp/ca.pem")
        var options = TransferOptions(
            connectTimeout: .seconds(0.25), idleTimeout: .seconds(1.5), totalTimeout: .seconds(2.5),
            maxRedirects: 0)
        options.delivery = .streamed
        let plan = try plan(options: options, configuration: .init(caBundle: ca, preferHTTP2: false))
        #expect(plan.maxResponseBytes == nil, "no memory limit on a streamed body: its reader applies one")
        #expect(plan.connectTimeoutMilliseconds == 250)
        #expect(plan.totalTimeoutMilliseconds == 2500)
        #expect(plan.idleTimeout == .seconds(1.5))
        #expect(plan.caBundlePath == "/tmp/ca.pem")
        #expect(!plan.preferHTTP2)
    }

    @Test(arguments: ["ftp://127.0.0.1/x", "file:///etc/passwd", "/relative/path"])
    func nonHTTPURLsAreRefused(url: String) throws {
        #expect(throws: CourierError.self) { try self.plan(url: url) }
        do {
            _ = try self.plan(url: url)
        } catch let error as CourierError {
            #expect(error.code == .invalidURL)
        }
    }

    @Test(arguments: [
        ("X-Bad", "a\r\nInjected: yes"), ("X-Nul", "a\u{0}b"), ("Bad Name", "v"), ("X-LF", "a\nb"),
    ])
    func headersWithCRLFOrNULAreRefusedBeforeSending(name: String, value: String) throws {
        let error = try #require(throws: CourierError.self) {
            try CurlRequestPlan.headerLines(for: [("Accept", "*/*"), (name, value)], upload: .none)
        }
        #expect(error.code == .invalidHeader)
    }

    @Test func aMissingBodyFileIsAnInvalidBody() throws {
        let error = try #require(throws: CourierError.self) {
            try self.plan("POST", body: .file(URL(fileURLWithPath: "/nonexistent/courier-\(UUID())")))
        }
        #expect(error.code == .invalidBody)
    }

    @Test func aMethodThatIsNotATokenIsRefused() throws {
        let error = try #require(throws: CourierError.self) { try self.plan("GE T") }
        #expect(error.category == .invalidRequest)
    }

    @Test(arguments: [(0.0, 0), (-1.0, 0), (Double.infinity, 0), (0.0001, 1), (1.5, 1500)])
    func secondsBecomeWholeMilliseconds(seconds: Double, expected: Int) {
        #expect(CurlRequestPlan.milliseconds(seconds) == expected)
    }
}
