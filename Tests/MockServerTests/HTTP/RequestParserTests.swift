import Foundation
import Testing

@testable import MockServer

/// Runs the parser over `input` fed in pieces of `step` bytes; returns the requests or the error status.
private func parse(_ input: String, step: Int = Int.max, limits: HTTPRequestParser.Limits = .init())
    -> ParseOutcome
{
    var parser = HTTPRequestParser(limits: limits)
    var outcome = ParseOutcome()
    let bytes = Array(input.utf8)
    var offset = 0
    repeat {
        let end = min(bytes.count, offset + step)
        parser.append(bytes[offset..<end])
        offset = end
        do {
            while let event = try parser.next() {
                switch event {
                case .head(let head): outcome.heads.append(head)
                case .body(let body):
                    outcome.bodies[outcome.heads.count - 1, default: []].append(contentsOf: body)
                case .end(let trailers):
                    outcome.completed += 1
                    outcome.trailers.append(trailers)
                }
            }
        } catch {
            outcome.errorStatus = error.status
            outcome.errorMessage = error.message
            return outcome
        }
    } while offset < bytes.count
    outcome.leftover = parser.bufferedByteCount
    return outcome
}

private struct ParseOutcome {
    var heads: [RequestHead] = []
    var bodies: [Int: [UInt8]] = [:]
    var trailers: [ServerHeaders] = []
    var completed = 0
    var errorStatus: Int?
    var errorMessage = ""
    var leftover = 0

    func body(_ index: Int) -> String { String(decoding: bodies[index] ?? [], as: UTF8.self) }
}

struct RequestParserTests {
    struct Valid: CustomTestStringConvertible, Sendable {
        var name: String
        var raw: String
        var method: String
        var target: String
        var body: String
        var keepAlive: Bool
        var testDescription: String { name }
    }

    static let valid: [Valid] = [
        Valid(
            name: "simple GET", raw: "GET / HTTP/1.1\r\nHost: a\r\n\r\n", method: "GET", target: "/",
            body: "", keepAlive: true),
        Valid(
            name: "lowercase method is uppercased", raw: "get /x HTTP/1.1\r\nHost: a\r\n\r\n", method: "GET",
            target: "/x",
            body: "", keepAlive: true),
        Valid(
            name: "Content-Length body", raw: "POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello",
            method: "POST",
            target: "/p", body: "hello", keepAlive: true),
        Valid(
            name: "chunked body with extension",
            raw: "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\n\r\n", method: "POST", target: "/c",
            body: "hello world",
            keepAlive: true),
        Valid(
            name: "chunked body with quoted and bare extensions",
            raw: "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5 ; name = \"v \\\" ;x\" ; flag\r\nhello\r\n0;last\r\n\r\n", method: "POST", target: "/c",
            body: "hello",
            keepAlive: true),
        Valid(
            name: "HTTP/1.0 defaults to close", raw: "GET /old HTTP/1.0\r\n\r\n", method: "GET",
            target: "/old", body: "",
            keepAlive: false),
        Valid(
            name: "HTTP/1.0 keep-alive", raw: "GET /old HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
            method: "GET",
            target: "/old", body: "", keepAlive: true),
        Valid(
            name: "Connection close", raw: "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
            method: "GET", target: "/",
            body: "", keepAlive: false),
        Valid(
            name: "absolute-form target",
            raw: "GET http://example.com/a?b=1 HTTP/1.1\r\nHost: example.com\r\n\r\n",
            method: "GET", target: "/a?b=1", body: "", keepAlive: true),
        Valid(
            name: "leading empty line ignored", raw: "\r\nGET /z HTTP/1.1\r\nHost: a\r\n\r\n", method: "GET",
            target: "/z",
            body: "", keepAlive: true),
        Valid(
            name: "OWS around header value", raw: "GET / HTTP/1.1\r\nHost:   a  \r\nX-Y:\tz\t\r\n\r\n",
            method: "GET",
            target: "/", body: "", keepAlive: true),
        Valid(
            name: "Content-Length zero", raw: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n",
            method: "POST",
            target: "/", body: "", keepAlive: true),
    ]

    @Test(arguments: valid, [Int.max, 1, 7])
    func parsesValidRequests(_ example: Valid, step: Int) {
        let outcome = parse(example.raw, step: step)
        #expect(outcome.errorStatus == nil, "\(outcome.errorMessage)")
        #expect(outcome.completed == 1)
        #expect(outcome.heads.first?.method == example.method)
        #expect(outcome.heads.first?.target == example.target)
        #expect(outcome.heads.first?.keepAlive == example.keepAlive)
        #expect(outcome.body(0) == example.body)
        #expect(outcome.leftover == 0)
    }

    struct Malformed: CustomTestStringConvertible, Sendable {
        var name: String
        var raw: String
        var status: Int
        var testDescription: String { name }
    }

    static let malformed: [Malformed] = [
        Malformed(name: "garbage request line", raw: "HELLO\r\n\r\n", status: 400),
        Malformed(name: "four-part request line", raw: "GET / x HTTP/1.1\r\nHost: a\r\n\r\n", status: 400),
        Malformed(name: "bad version", raw: "GET / HTTQ/1.1\r\nHost: a\r\n\r\n", status: 400),
        Malformed(name: "HTTP/2.0 request line", raw: "GET / HTTP/2.0\r\nHost: a\r\n\r\n", status: 505),
        Malformed(name: "relative target", raw: "GET foo HTTP/1.1\r\nHost: a\r\n\r\n", status: 400),
        Malformed(name: "missing Host in 1.1", raw: "GET / HTTP/1.1\r\n\r\n", status: 400),
        Malformed(name: "duplicate Host", raw: "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", status: 400),
        Malformed(name: "space before colon", raw: "GET / HTTP/1.1\r\nHost : a\r\n\r\n", status: 400),
        Malformed(
            name: "header without colon", raw: "GET / HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n", status: 400),
        Malformed(name: "obs-fold", raw: "GET / HTTP/1.1\r\nHost: a\r\nX: a\r\n b\r\n\r\n", status: 400),
        Malformed(name: "bare LF", raw: "GET / HTTP/1.1\nHost: a\r\n\r\n", status: 400),
        Malformed(name: "bare CR in header", raw: "GET / HTTP/1.1\r\nHost: a\rX\r\n\r\n", status: 400),
        Malformed(name: "control char in value", raw: "GET / HTTP/1.1\r\nHost: a\u{1}\r\n\r\n", status: 400),
        Malformed(
            name: "duplicate Content-Length",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc",
            status: 400),
        Malformed(
            name: "conflicting Content-Length",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
            status: 400),
        Malformed(
            name: "Content-Length list", raw: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3, 3\r\n\r\nabc",
            status: 400),
        Malformed(
            name: "negative Content-Length", raw: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n",
            status: 400),
        Malformed(
            name: "CL and TE (smuggling)",
            raw:
                "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            status: 400),
        Malformed(
            name: "unsupported transfer coding",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
            status: 501),
        Malformed(
            name: "chunked twice",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, chunked\r\n\r\n", status: 400),
        Malformed(
            name: "TE in HTTP/1.0", raw: "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            status: 400),
        Malformed(
            name: "bad chunk size",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n",
            status: 400),
        Malformed(
            name: "chunk without CRLF",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n0\r\n\r\n",
            status: 400),
        Malformed(
            name: "bare LF in a chunk extension",
            raw:
                "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3;a=b\nc\r\nabc\r\n0\r\n\r\n",
            status: 400),
        Malformed(
            name: "bare CR in a chunk extension",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3;a\rb\r\nabc\r\n0\r\n\r\n",
            status: 400),
        Malformed(
            name: "control character in a chunk extension",
            raw:
                "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3;a=\u{1}\r\nabc\r\n0\r\n\r\n",
            status: 400),
        Malformed(
            name: "bare LF in the last chunk's extension",
            raw:
                "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0;x\nGET /smuggled HTTP/1.1\r\n\r\n",
            status: 400),
        Malformed(
            name: "chunk size overflow",
            raw: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n",
            status: 400),
        Malformed(
            name: "unknown expectation", raw: "POST / HTTP/1.1\r\nHost: a\r\nExpect: magic\r\n\r\n",
            status: 417),
    ]

    @Test(arguments: malformed)
    func rejectsMalformedRequests(_ example: Malformed) {
        let outcome = parse(example.raw)
        #expect(
            outcome.errorStatus == example.status,
            "got \(String(describing: outcome.errorStatus)): \(outcome.errorMessage)")
        #expect(!outcome.errorMessage.isEmpty)
    }

    @Test func headerBlockOverLimitIs431() {
        let limits = HTTPRequestParser.Limits(maxHeaderBytes: 256)
        let outcome = parse(
            "GET / HTTP/1.1\r\nHost: a\r\nX-Big: \(String(repeating: "x", count: 400))\r\n\r\n",
            limits: limits)
        #expect(outcome.errorStatus == 431)
        // Also when the block never ends: the parser must not buffer without bound.
        let endless = parse(
            "GET / HTTP/1.1\r\nHost: a\r\nX: \(String(repeating: "y", count: 1000))", limits: limits)
        #expect(endless.errorStatus == 431)
    }

    @Test func tooManyHeadersIs431() {
        let fields = (0..<20).map { "X-\($0): v\r\n" }.joined()
        let outcome = parse("GET / HTTP/1.1\r\nHost: a\r\n\(fields)\r\n", limits: .init(maxHeaderCount: 10))
        #expect(outcome.errorStatus == 431)
    }

    @Test func requestLineOverLimitIs414() {
        let outcome = parse(
            "GET /\(String(repeating: "a", count: 300)) HTTP/1.1\r\nHost: a\r\n\r\n",
            limits: .init(maxRequestLineBytes: 100))
        #expect(outcome.errorStatus == 414)
    }

    @Test func bodyOverLimitIs413ForBothFramings() {
        let limits = HTTPRequestParser.Limits(maxBodyBytes: 10)
        let fixed = parse("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n", limits: limits)
        #expect(fixed.errorStatus == 413)
        #expect(fixed.heads.isEmpty)
        let chunked = parse(
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n6\r\nghijkl\r\n0\r\n\r\n",
            limits: limits)
        #expect(chunked.errorStatus == 413)
    }

    @Test func chunkedTrailersAreReported() {
        let outcome = parse(
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-Checksum: 42\r\nX-Other: y\r\n\r\n",
            step: 3)
        #expect(outcome.body(0) == "abc")
        #expect(outcome.trailers.first?["x-checksum"] == "42")
        #expect(outcome.trailers.first?.count == 2)
    }

    @Test func pipelinedRequestsParseInOrder() {
        let raw =
            "GET /1 HTTP/1.1\r\nHost: a\r\n\r\nPOST /2 HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nhi"
            + "GET /3 HTTP/1.1\r\nHost: a\r\n\r\n"
        for step in [Int.max, 1, 5] {
            let outcome = parse(raw, step: step)
            #expect(outcome.heads.map(\.target) == ["/1", "/2", "/3"])
            #expect(outcome.completed == 3)
            #expect(outcome.body(1) == "hi")
        }
    }

    @Test func expectContinueIsReportedOnlyWithABody() {
        let withBody = parse(
            "PUT / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\nx")
        #expect(withBody.heads.first?.expectContinue == true)
        let withoutBody = parse("GET / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\n\r\n")
        #expect(withoutBody.heads.first?.expectContinue == false)
    }

    @Test func parserStaysFailedAfterAnError() {
        var parser = HTTPRequestParser()
        parser.append(Array("BROKEN\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
        #expect(throws: HTTPParseError.self) { try parser.next() }
        #expect(throws: HTTPParseError.self) { try parser.next() }
    }

    @Test func incompleteInputWaitsForMore() {
        let outcome = parse("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nabc")
        #expect(outcome.heads.count == 1)
        #expect(outcome.completed == 0)
        #expect(outcome.errorStatus == nil)
    }
}
