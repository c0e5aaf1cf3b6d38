import Courier
import Testing

@testable import CourierCurl

@Suite struct ResponseHeadParserTests {
    @Test func parsesAHeadAndKeepsOrderAndDuplicates() {
        var parser = ResponseHeadParser()
        let lines = [
            "HTTP/1.1 200 OK\r\n", "Content-Type: text/plain\r\n", "Set-Cookie: a=1\r\n",
            "Set-Cookie: b=2\r\n",
            "Content-Length:  12 \r\n", "\r\n",
        ]
        let kinds = lines.map { parser.consume($0) }
        #expect(kinds == [.statusLine, .field, .field, .field, .field, .end])
        #expect(parser.status == 200)
        #expect(parser.httpVersion == "HTTP/1.1")
        #expect(parser.headers.values(for: "set-cookie") == ["a=1", "b=2"])
        #expect(parser.contentLength == 12)
        #expect(parser.isComplete)
    }

    /// What the transfer asks of every head is read as the fields arrive: the first valid
    /// `Content-Length` in any case, and whether a coding is named; a new head starts over.
    @Test func theContentLengthAndTheCodingsAreReadAsFieldsArrive() {
        var parser = ResponseHeadParser()
        for line in [
            "HTTP/1.1 200 OK\r\n", "content-length: 7\r\n", "Content-Length: 9\r\n",
            "Content-Type: application/json\r\n", "\r\n",
        ] {
            _ = parser.consume(line)
        }
        #expect(parser.contentLength == 7, "the first field wins, as a lookup by name finds it")
        #expect(!parser.hasCodings)
        #expect(parser.headers["Content-Type"] == "application/json")
        for line in [
            "HTTP/1.1 200 OK\r\n", "Content-Length: x\r\n", "TRANSFER-ENCODING: chunked\r\n", "\r\n",
        ] {
            _ = parser.consume(line)
        }
        #expect(parser.contentLength == nil)
        #expect(parser.hasCodings)
        for line in ["HTTP/1.1 200 OK\r\n", "Content-Encoding: gzip\r\n", "Content-Length: 1\r\n", " 2\r\n"] {
            _ = parser.consume(line)
        }
        #expect(parser.hasCodings)
        #expect(parser.contentLength == nil, "a folded \"1 2\" is no length")
        _ = parser.consume("HTTP/1.1 204 No Content\r\n")
        #expect(parser.contentLength == nil && !parser.hasCodings)
        _ = parser.consume("Content\rLength: 5\r\n")
        #expect(parser.contentLength == nil, "only letters differ by case")
    }

    @Test func aNewStatusLineStartsOverSoTheLastResponseWins() {
        var parser = ResponseHeadParser()
        for line in [
            "HTTP/1.1 100 Continue\r\n", "\r\n", "HTTP/1.1 302 Found\r\n", "Location: /next\r\n", "\r\n",
            "HTTP/2 201\r\n", "x-final: yes\r\n", "\r\n",
        ] {
            _ = parser.consume(line)
        }
        #expect(parser.status == 201)
        #expect(parser.httpVersion == "HTTP/2")
        #expect(parser.headers["Location"] == nil)
        #expect(parser.headers["X-Final"] == "yes")
    }

    @Test func foldedLinesContinueTheValueAndJunkIsIgnored() {
        var parser = ResponseHeadParser()
        _ = parser.consume("HTTP/1.1 200 OK\r\n")
        _ = parser.consume("X-Long: one\r\n")
        #expect(parser.consume("\ttwo\r\n") == .field)
        #expect(parser.consume("no colon here\r\n") == .ignored)
        #expect(parser.consume("HTTP/1.1 abc\r\n") == .ignored)
        #expect(parser.headers["x-long"] == "one two")
        #expect(parser.headers.count == 1)
    }

    /// Fields after the blank line that ended the head are a chunked body's trailer: kept
    /// apart, never merged into the headers.
    @Test func trailersAreKeptOutOfTheHeaders() {
        var parser = ResponseHeadParser()
        let lines = [
            "HTTP/1.1 200 OK\r\n", "Transfer-Encoding: chunked\r\n", "Trailer: X-Checksum\r\n", "\r\n",
            "X-Checksum: abc\r\n", " def\r\n", "Server-Timing: db;dur=53\r\n", "\r\n",
        ]
        let kinds = lines.map { parser.consume($0) }
        #expect(kinds == [.statusLine, .field, .field, .end, .trailer, .trailer, .trailer, .endOfTrailers])
        #expect(parser.headers["X-Checksum"] == nil)
        #expect(parser.headers["Server-Timing"] == nil)
        #expect(parser.headers["Trailer"] == "X-Checksum")
        #expect(parser.trailers["X-Checksum"] == "abc def")
        #expect(parser.trailers["Server-Timing"] == "db;dur=53")

        // A later response (a redirect followed) starts with no trailers.
        _ = parser.consume("HTTP/1.1 204 No Content\r\n")
        #expect(parser.trailers.isEmpty)
    }

    /// Each continuation line copied the fields: thousands made the loop thread quadratic. Past
    /// `maxFoldedLines` they are ignored; the field keeps what was joined so far.
    @Test func continuationLinesAreBounded() {
        var parser = ResponseHeadParser()
        _ = parser.consume("HTTP/1.1 200 OK\r\n")
        _ = parser.consume("X-Long: a\r\n")
        let kinds = (0..<5_000).map { _ in parser.consume(" b\r\n") }
        #expect(kinds.prefix(ResponseHeadParser.maxFoldedLines).allSatisfy { $0 == .field })
        #expect(kinds.dropFirst(ResponseHeadParser.maxFoldedLines).allSatisfy { $0 == .ignored })
        #expect(
            parser.headers["X-Long"] == "a"
                + String(repeating: " b", count: ResponseHeadParser.maxFoldedLines))
        #expect(parser.consume("\r\n") == .end)
    }
}
