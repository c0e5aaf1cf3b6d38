// libFuzzer target for the mock server's HTTP/1.1 request parser (MockServer/HTTP/HTTPRequestParser.swift).
//
// Not a package target: scripts/fuzz.sh compiles this file together with the parser's own sources, so the
// internal parser is reachable without changing its access level.
//
// Oracles, beyond "no crash, no sanitizer report":
// - every parse error names a status the server can answer (400, 408, 413, 414, 417, 431, 501, 505);
// - the parse is the same whether the bytes arrive at once or in small pieces (differential check);
// - a body never exceeds its declared length or the body limit;
// - decoding the target into path and query never fails.
import Foundation

/// Limits small enough that the fuzzer reaches every limit check.
private let fuzzLimits = HTTPRequestParser.Limits(
    maxRequestLineBytes: 256, maxHeaderBytes: 1024, maxHeaderCount: 16, maxBodyBytes: 2048)

private let answerableStatuses: Set<Int> = [400, 408, 413, 414, 417, 431, 501, 505]

/// What the parser made of an input, independent of how the bytes were split.
private struct Summary: Equatable {
    struct Request: Equatable {
        var method: String
        var target: String
        var headerCount: Int
        var body: [UInt8]
        var ended: Bool
    }

    var requests: [Request] = []
    var failed = false
}

/// Pulls events until the parser needs more bytes or fails; checks the per-event invariants.
private func drain(_ parser: inout HTTPRequestParser, into summary: inout Summary) {
    // Each event consumes input or finishes a request, so this bound is never reached by a correct parser.
    for _ in 0..<100_000 {
        let event: HTTPRequestParser.Event?
        do {
            event = try parser.next()
        } catch {
            guard answerableStatuses.contains(error.status) else {
                fatalError("parse error with status \(error.status): \(error.message)")
            }
            summary.failed = true
            return
        }
        guard let event else { return }
        switch event {
        case .head(let head):
            let request = ServerRequest(method: head.method, target: head.target, headers: head.headers)
            if head.method.isEmpty || head.target.isEmpty { fatalError("empty method or target accepted") }
            if !request.path.hasPrefix("/") && request.path != "*" {
                fatalError("path \(request.path) accepted")
            }
            _ = request.decodedPath
            summary.requests.append(
                .init(
                    method: head.method, target: head.target, headerCount: head.headers.count, body: [],
                    ended: false))
        case .body(let bytes):
            guard !summary.requests.isEmpty else { fatalError("body before head") }
            summary.requests[summary.requests.count - 1].body += bytes
            if summary.requests[summary.requests.count - 1].body.count > Int(fuzzLimits.maxBodyBytes) {
                fatalError("body beyond the limit")
            }
        case .end:
            guard !summary.requests.isEmpty else { fatalError("end before head") }
            summary.requests[summary.requests.count - 1].ended = true
        }
    }
    fatalError("the parser produced 100000 events without needing input")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func httpParserFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))

    var whole = HTTPRequestParser(limits: fuzzLimits)
    var wholeSummary = Summary()
    whole.append(bytes)
    drain(&whole, into: &wholeSummary)

    // The same bytes in pieces of 1...8 bytes (the size taken from the first byte).
    let step = Int((bytes.first ?? 0) % 8) + 1
    var pieces = HTTPRequestParser(limits: fuzzLimits)
    var piecesSummary = Summary()
    var offset = 0
    while offset < bytes.count, !piecesSummary.failed {
        let end = min(bytes.count, offset + step)
        pieces.append(bytes[offset..<end])
        drain(&pieces, into: &piecesSummary)
        offset = end
    }
    // The requests both completed must be the same. A failure may be detected earlier in pieces (a limit hit
    // before the head is complete: regressions/oracle-long-method-414-detected-early), so pieces may fail
    // while the whole parse still waits for the end of that head; the reverse must never happen.
    let wholeDone = wholeSummary.requests.filter(\.ended)
    let piecesDone = piecesSummary.requests.filter(\.ended)
    if wholeDone != piecesDone {
        fatalError(
            "whole and piecewise parses completed different requests:\n\(wholeSummary)\n\(piecesSummary)")
    }
    if wholeSummary.failed && !piecesSummary.failed {
        fatalError("only the whole parse failed:\n\(wholeSummary)\n\(piecesSummary)")
    }
    if piecesSummary.failed && !wholeSummary.failed && !whole.isInsideRequest {
        fatalError("only the piecewise parse failed, on input the whole parse accepted completely")
    }
    return 0
}
