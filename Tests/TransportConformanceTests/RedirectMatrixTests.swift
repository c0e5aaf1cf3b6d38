import Courier
import CourierTesting
import Foundation
import MockServer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every method across every followed redirect code, with every kind of body, to the same
/// origin and to another one: what arrives (method, body bytes, headers) follows the Fetch
/// rules on every transport.
@Suite struct RedirectMatrixTests {
    enum BodyKind: String, CaseIterable, Sendable {
        case none, data, file, stream
    }

    static let methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]
    static let secrets = [
        "Authorization": "Bearer secret-token", "X-Api-Key": "key-123", "Cookie": "session=abc",
    ]

    @Test(arguments: TransportUnderTest.all, [301, 302, 303, 307, 308])
    func methodBodyAndHeadersAfterARedirect(transport: TransportUnderTest, status: Int) async throws {
        let directory = try TemporaryDirectory()
        let fileBytes = Pattern.bytes(offset: 0, count: 70_000)
        let file = try Pattern.writeFile(length: 70_000, in: directory.url)
        let dataBytes = Data("{\"title\":\"redirected\"}".utf8)
        let streamBytes = Pattern.bytes(offset: 7, count: 20_000)
        try await withConformanceServer { server in
            try await transport.with { sut in
                for method in Self.methods {
                    for kind in BodyKind.allCases {
                        for otherHost in [false, true] {
                            let cell =
                                "\(method) \(status) body=\(kind.rawValue) \(otherHost ? "other" : "same") host"
                            let body: RequestBody
                            let sent: Data
                            switch kind {
                            case .none: (body, sent) = (.empty, Data())
                            case .data: (body, sent) = (.data(dataBytes), dataBytes)
                            case .file: (body, sent) = (.file(file), fileBytes)
                            case .stream:
                                (body, sent) = (.stream(Self.stream(streamBytes)), streamBytes)
                            }
                            let host = otherHost ? "localhost" : "127.0.0.1"
                            let target = "http://\(host):\(server.port)/echo/after"
                            var headers = Self.secrets
                            headers["X-Trace"] = "kept"
                            if kind != .none { headers["Content-Type"] = "application/octet-stream" }
                            let request = try server.request(
                                "/redirect-to?url=\(target)&status=\(status)", method: method,
                                headers: headers)
                            let refused =
                                kind != .none
                                && (method == "HEAD" || (method == "GET" && transport.kind == .urlsession))
                            if refused {
                                // HEAD never carries a body; FoundationNetworking refuses a GET with one.
                                let error = await expectCourierError(
                                    sut, TransportRequest(urlRequest: request, body: body))
                                #expect(error?.code == .invalidBody, "\(cell)")
                                continue
                            }
                            let response: TransportResponse
                            do {
                                response = try await sut.sendThroughManager(
                                    TransportRequest(urlRequest: request, body: body))
                            } catch {
                                Issue.record("\(cell): \(error)")
                                continue
                            }
                            let becomesGet =
                                (status == 303 && method != "HEAD")
                                || ((status == 301 || status == 302) && method == "POST")
                            let expectedBody = becomesGet ? Data() : sent
                            #expect(response.status == 200, "\(cell)")
                            #expect(response.url?.path == "/echo/after", "\(cell)")
                            #expect(
                                response.headers["X-Echo-Method"] == (becomesGet ? "GET" : method), "\(cell)")
                            #expect(
                                response.headers["X-Echo-Body-Length"] == String(expectedBody.count),
                                "\(cell)")
                            #expect(
                                response.headers["X-Echo-Body-Digest"] == Pattern.fnv1a(expectedBody),
                                "\(cell)")
                            let names = Set(
                                (response.headers["X-Echo-Header-Names"] ?? "").split(separator: ",").map(
                                    String.init))
                            #expect(names.contains("x-trace"), "\(cell)")
                            for secret in Self.secrets.keys {
                                #expect(
                                    names.contains(secret.lowercased()) == !otherHost,
                                    "\(cell): \(secret) \(otherHost ? "leaked to another host" : "was dropped")"
                                )
                            }
                            #expect(
                                names.contains("content-type") == (kind != .none && !becomesGet),
                                "\(cell): Content-Type")
                        }
                    }
                }
            }
        }
    }

    /// A body that cannot be sent twice is not silently dropped: a redirect that must re-send
    /// it fails with `.invalidBody`; one that turns the request into a GET goes on without it.
    @Test(arguments: TransportUnderTest.all)
    func aStreamThatCannotReplayFailsInsteadOfSendingNothing(transport: TransportUnderTest) async throws {
        let bytes = Pattern.bytes(offset: 0, count: 5_000)
        try await withConformanceServer { server in
            try await transport.with { sut in
                for status in [301, 302, 307, 308] {
                    let request = try server.request(
                        "/redirect-to?url=/echo/after&status=\(status)", method: "PUT")
                    let error = await expectCourierError(
                        sut,
                        TransportRequest(
                            urlRequest: request, body: .stream(Self.stream(bytes, replayable: false))))
                    #expect(error?.code == .invalidBody, "PUT \(status)")
                    #expect(
                        error?.message.contains("replayed") == true, "PUT \(status): \(error?.message ?? "")")
                }
                let request = try server.request("/redirect-to?url=/echo/after&status=303", method: "PUT")
                let response = try await sut.sendThroughManager(
                    TransportRequest(
                        urlRequest: request, body: .stream(Self.stream(bytes, replayable: false))))
                #expect(response.headers["X-Echo-Method"] == "GET")
            }
        }
    }

    /// Each hop counts against one limit, whatever the kind of body and code.
    @Test(arguments: TransportUnderTest.all, [301, 307, 308])
    func everyHopCountsAgainstTheLimit(transport: TransportUnderTest, status: Int) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                // Three hops: limit 3 succeeds, limit 2 fails.
                let third = "/redirect-to%3Furl%3D/echo/end%26status%3D\(status)"
                let second =
                    "/redirect-to%3Furl%3D\(third.replacingOccurrences(of: "%", with: "%25"))%26status%3D\(status)"
                let path = "/redirect-to?url=\(second)&status=\(status)"
                for (limit, succeeds) in [(3, true), (2, false)] {
                    let request = TransportRequest(
                        urlRequest: try server.request(path, method: "POST"), body: .data(Data("abc".utf8)),
                        options: TransferOptions(maxRedirects: limit))
                    if succeeds {
                        let response = try await sut.sendThroughManager(request)
                        #expect(response.url?.path == "/echo/end", "limit \(limit)")
                    } else {
                        let error = await expectCourierError(sut, request)
                        #expect(error?.code == .tooManyRedirects, "limit \(limit)")
                    }
                }
            }
        }
    }

    /// A redirect to a scheme other than http or https is refused as an unsupported protocol,
    /// which no retry policy retries.
    @Test(arguments: TransportUnderTest.all)
    func aRedirectToAnotherSchemeIsRefused(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let request = try server.request("/redirect-to?url=ftp://127.0.0.1/file&status=302")
                let error = await expectCourierError(sut, TransportRequest(urlRequest: request))
                #expect(error?.code == .unsupportedProtocol)
                #expect(error?.status == 302)
            }
        }
    }

    /// The headers dropped on the way to another origin can be chosen.
    @Test(arguments: TransportUnderTest.all)
    func theCrossOriginHeaderPolicyIsConfigurable(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let target = "http://localhost:\(server.port)/echo/after"
                let request = try server.request(
                    "/redirect-to?url=\(target)&status=307",
                    headers: ["X-Api-Key": "k", "X-Tenant-Signature": "sig", "X-Trace": "kept"])
                let custom = TransferOptions(
                    crossOriginHeaderPolicy: .sensitive.adding(["X-Tenant-Signature"]))
                let echo = try await sut.sendThroughManager(
                    TransportRequest(urlRequest: request, options: custom)
                ).echo()
                #expect(echo.header("X-Api-Key") == nil)
                #expect(echo.header("X-Tenant-Signature") == nil)
                #expect(echo.header("X-Trace") == "kept")
                let only = TransferOptions(crossOriginHeaderPolicy: .only(["X-Trace"]))
                let second = try await sut.sendThroughManager(
                    TransportRequest(urlRequest: request, options: only)
                ).echo()
                #expect(second.header("X-Api-Key") == "k", "only the named headers are dropped")
                #expect(second.header("X-Trace") == nil)
            }
        }
    }

    static func stream(_ bytes: Data, replayable: Bool = true) -> BodyStream {
        BodyStream(length: nil, isReplayable: replayable) { PieceReader(bytes, piece: 4096) }
    }
}
