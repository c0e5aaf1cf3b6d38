/// An incremental HTTP/1.1 request parser: a pure state machine over bytes, with no I/O.
///
/// Feed bytes with ``append(_:)`` and pull events with ``next()`` until it returns nil (more bytes needed).
/// Every malformed or over-limit input throws an ``HTTPParseError`` naming the status to answer; after that
/// the parser stays failed.
struct HTTPRequestParser: Sendable {
    /// Size limits the parser enforces.
    struct Limits: Sendable {
        var maxRequestLineBytes = 8192
        var maxHeaderBytes = 16384
        var maxHeaderCount = 100
        var maxBodyBytes: Int64 = 64 * 1024 * 1024
    }

    /// What the parser found.
    enum Event: Sendable {
        case head(RequestHead)
        case body([UInt8])
        case end(trailers: ServerHeaders)
    }

    private enum State: Sendable {
        case head
        case fixedBody(remaining: Int64)
        case chunkSize
        case chunkData(remaining: Int64)
        case chunkDataEnd
        case trailers
        case endPending
        case failed(HTTPParseError)
    }

    let limits: Limits
    private var buffer: [UInt8] = []
    private var index = 0
    private var scanFrom = 0
    private var state = State.head
    private var bodyReceived: Int64 = 0
    private var trailerFields = ServerHeaders()
    private var trailerBytes = 0

    init(limits: Limits = Limits()) {
        self.limits = limits
        buffer.reserveCapacity(4096)
    }

    /// Bytes received but not yet consumed by events.
    var bufferedByteCount: Int { buffer.count - index }

    /// Whether the parser is between requests with nothing buffered.
    var isIdle: Bool {
        if case .head = state { return index == buffer.count }
        return false
    }

    /// Whether the parser is in the middle of a request (some of it received, not all).
    var isInsideRequest: Bool {
        switch state {
        case .head: return index != buffer.count
        case .failed: return false
        default: return true
        }
    }

    /// Adds received bytes.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Adds received bytes.
    mutating func append(_ bytes: some Sequence<UInt8>) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    private mutating func compact() {
        if index == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            scanFrom = 0
            index = 0
        } else if index > 65536 {
            buffer.removeFirst(index)
            scanFrom = max(0, scanFrom - index)
            index = 0
        }
    }

    /// The next event, or nil when more bytes are needed.
    /// - Throws: ``HTTPParseError`` when the input is malformed or over a limit.
    mutating func next() throws(HTTPParseError) -> Event? {
        do {
            return try step()
        } catch {
            state = .failed(error)
            throw error
        }
    }

    private mutating func step() throws(HTTPParseError) -> Event? {
        switch state {
        case .failed(let error):
            throw error
        case .head:
            return try parseHead()
        case .endPending:
            state = .head
            let trailers = trailerFields
            trailerFields = ServerHeaders()
            return .end(trailers: trailers)
        case .fixedBody(let remaining):
            let available = buffer.count - index
            guard available > 0 else { return nil }
            let count = Int(min(Int64(available), remaining))
            let bytes = Array(buffer[index..<index + count])
            index += count
            state = remaining == Int64(count) ? .endPending : .fixedBody(remaining: remaining - Int64(count))
            return .body(bytes)
        case .chunkSize:
            guard let lineEnd = findCRLF(from: index) else {
                if buffer.count - index > 4096 { throw .malformed("chunk size line too long") }
                return nil
            }
            let size = try parseChunkSize(index..<lineEnd)
            index = lineEnd + 2
            if size == 0 {
                state = .trailers
            } else {
                if bodyReceived + size > limits.maxBodyBytes {
                    throw HTTPParseError(
                        status: 413, message: "request body exceeds the limit of \(limits.maxBodyBytes) bytes"
                    )
                }
                bodyReceived += size
                state = .chunkData(remaining: size)
            }
            return try step()
        case .chunkData(let remaining):
            let available = buffer.count - index
            guard available > 0 else { return nil }
            let count = Int(min(Int64(available), remaining))
            let bytes = Array(buffer[index..<index + count])
            index += count
            state =
                remaining == Int64(count) ? .chunkDataEnd : .chunkData(remaining: remaining - Int64(count))
            return .body(bytes)
        case .chunkDataEnd:
            guard buffer.count - index >= 2 else { return nil }
            guard buffer[index] == 13, buffer[index + 1] == 10 else {
                throw .malformed("chunk data is not followed by CRLF")
            }
            index += 2
            state = .chunkSize
            return try step()
        case .trailers:
            guard let lineEnd = findCRLF(from: index) else {
                if buffer.count - index + trailerBytes > limits.maxHeaderBytes {
                    throw HTTPParseError(status: 431, message: "trailer section too large")
                }
                return nil
            }
            if lineEnd == index {
                index += 2
                state = .endPending
                return try step()
            }
            trailerBytes += lineEnd - index + 2
            if trailerBytes > limits.maxHeaderBytes {
                throw HTTPParseError(status: 431, message: "trailer section too large")
            }
            let field = try parseField(index..<lineEnd)
            trailerFields.add(name: field.name, value: field.value)
            index = lineEnd + 2
            return try step()
        }
    }

    // MARK: - Head

    private mutating func parseHead() throws(HTTPParseError) -> Event? {
        // Ignore empty lines before a request line (RFC 9112 §2.2).
        while buffer.count - index >= 2, buffer[index] == 13, buffer[index + 1] == 10 { index += 2 }
        if buffer.count - index == 1, buffer[index] == 13 { return nil }
        guard index < buffer.count else { return nil }
        guard let end = findHeadEnd() else {
            let pending = buffer.count - index
            // A trailing CR may be the first half of the line's CRLF: it is not part of the line.
            let lineSoFar = buffer[buffer.count - 1] == 13 ? pending - 1 : pending
            if findCRLF(from: index) == nil, lineSoFar > limits.maxRequestLineBytes {
                throw HTTPParseError(
                    status: 414, message: "request line longer than \(limits.maxRequestLineBytes) bytes")
            }
            if pending > limits.maxHeaderBytes {
                throw HTTPParseError(
                    status: 431, message: "request header block larger than \(limits.maxHeaderBytes) bytes")
            }
            return nil
        }
        if end + 4 - index > limits.maxHeaderBytes {
            throw HTTPParseError(
                status: 431, message: "request header block larger than \(limits.maxHeaderBytes) bytes")
        }
        let head = try parseHeadBlock(index..<end)
        index = end + 4
        scanFrom = index
        bodyReceived = 0
        trailerBytes = 0
        switch head.framing {
        case .none: state = .endPending
        case .length(let length): state = length == 0 ? .endPending : .fixedBody(remaining: length)
        case .chunked: state = .chunkSize
        }
        return .head(head)
    }

    /// The index of the CRLFCRLF ending the head block, scanning only new bytes.
    private mutating func findHeadEnd() -> Int? {
        let start = max(index, scanFrom)
        let found: Int? = buffer.withUnsafeBufferPointer { bytes in
            var cursor = start
            while cursor + 3 < bytes.count {
                if bytes[cursor + 3] != 10 {
                    cursor += bytes[cursor + 3] == 13 ? 1 : 4
                    continue
                }
                if bytes[cursor] == 13, bytes[cursor + 1] == 10, bytes[cursor + 2] == 13 { return cursor }
                cursor += 1
            }
            return nil
        }
        if found == nil { scanFrom = max(index, buffer.count - 3) }
        return found
    }

    private func findCRLF(from start: Int) -> Int? {
        buffer.withUnsafeBufferPointer { bytes in
            var cursor = start
            while cursor + 1 < bytes.count {
                if bytes[cursor] == 13 && bytes[cursor + 1] == 10 { return cursor }
                cursor += 1
            }
            return nil
        }
    }

    private func parseHeadBlock(_ range: Range<Int>) throws(HTTPParseError) -> RequestHead {
        // Split into CRLF lines; a bare CR or LF anywhere is malformed (a smuggling vector). Only the
        // first `maxHeaderCount + 1` field lines are kept: more is refused below anyway.
        let keep = limits.maxHeaderCount + 1
        var fieldLines: [Range<Int>] = []
        var fieldCount = 0
        var requestLine = range
        let bare: HTTPParseError? = buffer.withUnsafeBufferPointer { bytes in
            var lineStart = range.lowerBound
            var cursor = range.lowerBound
            var first = true
            func end(_ line: Range<Int>) {
                if first {
                    requestLine = line
                    first = false
                } else {
                    fieldCount += 1
                    if fieldLines.count < keep { fieldLines.append(line) }
                }
            }
            while cursor < range.upperBound {
                let byte = bytes[cursor]
                if byte == 13 {
                    guard cursor + 1 < range.upperBound, bytes[cursor + 1] == 10 else {
                        return .malformed("bare CR in request head")
                    }
                    end(lineStart..<cursor)
                    cursor += 2
                    lineStart = cursor
                    continue
                }
                if byte == 10 { return .malformed("bare LF in request head") }
                cursor += 1
            }
            end(lineStart..<range.upperBound)
            return nil
        }
        if let bare { throw bare }
        if requestLine.count > limits.maxRequestLineBytes {
            throw HTTPParseError(
                status: 414, message: "request line longer than \(limits.maxRequestLineBytes) bytes")
        }
        if fieldCount > limits.maxHeaderCount {
            throw HTTPParseError(status: 431, message: "more than \(limits.maxHeaderCount) header fields")
        }
        var (method, target, version) = try parseRequestLine(requestLine)
        var headers = ServerHeaders()
        headers.reserveCapacity(fieldLines.count)
        for line in fieldLines {
            let field = try parseField(line)
            headers.add(name: field.name, value: field.value)
        }
        return try interpret(method: &method, target: &target, version: version, headers: headers)
    }

    private func parseRequestLine(_ line: Range<Int>) throws(HTTPParseError) -> (String, String, String) {
        var first = -1
        var second = -1
        for position in line where buffer[position] == 32 {
            if first < 0 {
                first = position
            } else if second < 0 {
                second = position
            } else {
                throw .malformed("request line has more than three parts")
            }
        }
        guard second >= 0 else { throw .malformed("request line is not 'METHOD target HTTP/1.1'") }
        let methodRange = line.lowerBound..<first
        let targetRange = first + 1..<second
        let versionRange = second + 1..<line.upperBound
        guard !methodRange.isEmpty, methodRange.allSatisfy({ Self.isTokenByte(buffer[$0]) }) else {
            throw .malformed("invalid method")
        }
        guard !targetRange.isEmpty, targetRange.allSatisfy({ buffer[$0] > 32 && buffer[$0] < 127 }) else {
            throw .malformed("invalid request target")
        }
        var method: String
        if bytes(methodRange, equal: Self.get) {
            method = "GET"
        } else {
            method = String(decoding: buffer[methodRange], as: UTF8.self)
            if methodRange.contains(where: { (97...122).contains(buffer[$0]) }) {
                method = method.uppercased()
            }
        }
        let target = String(decoding: buffer[targetRange], as: UTF8.self)
        let version =
            bytes(versionRange, equal: Self.http11)
            ? "HTTP/1.1" : String(decoding: buffer[versionRange], as: UTF8.self)
        return (method, target, version)
    }

    /// Whether the buffer's bytes in `range` are `literal`'s.
    private func bytes(_ range: Range<Int>, equal literal: [UInt8]) -> Bool {
        guard range.count == literal.count else { return false }
        for (offset, byte) in literal.enumerated() where buffer[range.lowerBound + offset] != byte {
            return false
        }
        return true
    }

    private static let http11: [UInt8] = Array("HTTP/1.1".utf8)
    private static let get: [UInt8] = Array("GET".utf8)

    private func parseField(_ line: Range<Int>) throws(HTTPParseError) -> (name: String, value: String) {
        guard let first = line.first else { throw .malformed("empty header line") }
        if buffer[first] == 32 || buffer[first] == 9 { throw .malformed("obsolete header line folding") }
        guard let colon = line.first(where: { buffer[$0] == 58 }) else {
            throw .malformed("header line without a colon")
        }
        let nameRange = line.lowerBound..<colon
        guard !nameRange.isEmpty, nameRange.allSatisfy({ Self.isTokenByte(buffer[$0]) }) else {
            throw .malformed("invalid header name")
        }
        var valueStart = colon + 1
        var valueEnd = line.upperBound
        while valueStart < valueEnd, buffer[valueStart] == 32 || buffer[valueStart] == 9 { valueStart += 1 }
        while valueEnd > valueStart, buffer[valueEnd - 1] == 32 || buffer[valueEnd - 1] == 9 { valueEnd -= 1 }
        for position in valueStart..<valueEnd {
            let byte = buffer[position]
            if (byte < 32 && byte != 9) || byte == 127 {
                throw .malformed("control character in header value")
            }
        }
        return (
            String(decoding: buffer[nameRange], as: UTF8.self),
            String(decoding: buffer[valueStart..<valueEnd], as: UTF8.self)
        )
    }

    private func parseChunkSize(_ line: Range<Int>) throws(HTTPParseError) -> Int64 {
        var size: Int64 = 0
        var digits = 0
        var cursor = line.lowerBound
        while cursor < line.upperBound, let value = TargetDecoding.hexValue(buffer[cursor]) {
            digits += 1
            if digits > 15 { throw .malformed("chunk size too large") }
            size = size << 4 | Int64(value)
            cursor += 1
        }
        guard digits > 0 else { throw .malformed("invalid chunk size") }
        guard Self.isValidChunkExtensionList(buffer[cursor..<line.upperBound]) else {
            throw .malformed(
                "invalid chunk size line (a chunk extension is malformed or holds a control character)")
        }
        return size
    }

    // MARK: - Semantics

    private func interpret(
        method: inout String, target: inout String, version: String, headers: ServerHeaders
    ) throws(HTTPParseError) -> RequestHead {
        let isHTTP11: Bool
        switch version {
        case "HTTP/1.1": isHTTP11 = true
        case "HTTP/1.0": isHTTP11 = false
        default:
            let utf8 = Array(version.utf8)
            if utf8.count == 8, version.hasPrefix("HTTP/"), utf8[6] == UInt8(ascii: "."),
                (48...57).contains(utf8[5]), (48...57).contains(utf8[7])
            {
                throw HTTPParseError(status: 505, message: "HTTP version \(version) is not supported")
            }
            throw .malformed("invalid HTTP version")
        }
        target = try normalizedTarget(target, method: method)

        var contentLength: Int64?
        var transferCodings: [String] = []
        var hostCount = 0
        var keepAlive = isHTTP11
        var expectContinue = false
        for field in headers {
            switch Self.interestingHeader(field.name) {
            case "content-length":
                guard contentLength == nil else { throw .malformed("duplicate Content-Length") }
                let utf8 = field.value.utf8
                guard !utf8.isEmpty, utf8.count <= 18, utf8.allSatisfy({ (48...57).contains($0) }),
                    let length = Int64(field.value)
                else { throw .malformed("invalid Content-Length '\(field.value)'") }
                contentLength = length
            case "transfer-encoding":
                for coding in field.value.split(separator: ",") {
                    let token = coding.trimmingWhitespace().lowercased()
                    if !token.isEmpty { transferCodings.append(token) }
                }
            case "host":
                hostCount += 1
            case "connection":
                for option in field.value.split(separator: ",") {
                    switch option.trimmingWhitespace().lowercased() {
                    case "close": keepAlive = false
                    case "keep-alive": if !isHTTP11 { keepAlive = true }
                    default: break
                    }
                }
            case "expect":
                guard field.value.lowercased() == "100-continue" else {
                    throw HTTPParseError(status: 417, message: "unsupported expectation '\(field.value)'")
                }
                expectContinue = isHTTP11
            default:
                break
            }
        }
        if isHTTP11 && hostCount == 0 { throw .malformed("missing Host header") }
        if hostCount > 1 { throw .malformed("duplicate Host header") }

        let framing: BodyFraming
        if !transferCodings.isEmpty {
            guard contentLength == nil else {
                throw .malformed("both Content-Length and Transfer-Encoding are present")
            }
            guard isHTTP11 else { throw .malformed("Transfer-Encoding in an HTTP/1.0 request") }
            if let unsupported = transferCodings.first(where: { $0 != "chunked" }) {
                throw HTTPParseError(status: 501, message: "unsupported transfer coding '\(unsupported)'")
            }
            guard transferCodings.count == 1 else { throw .malformed("chunked applied more than once") }
            framing = .chunked
        } else if let contentLength, contentLength > 0 {
            if contentLength > limits.maxBodyBytes {
                throw HTTPParseError(
                    status: 413, message: "request body exceeds the limit of \(limits.maxBodyBytes) bytes")
            }
            framing = .length(contentLength)
        } else {
            framing = .none
        }
        if framing == .none { expectContinue = false }
        return RequestHead(
            method: method, target: target, version: version, headers: headers, framing: framing,
            keepAlive: keepAlive, expectContinue: expectContinue)
    }

    /// Accepts origin-form, `*` (OPTIONS) and absolute-form (reduced to its path and query).
    private func normalizedTarget(_ target: String, method: String) throws(HTTPParseError) -> String {
        if target.hasPrefix("/") { return target }
        if target == "*" && method == "OPTIONS" { return target }
        for scheme in ["http://", "https://"] where target.lowercased().hasPrefix(scheme) {
            let rest = target.dropFirst(scheme.count)
            guard let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
            let path = String(rest[slash...])
            return path.hasPrefix("?") ? "/" + path : path
        }
        throw .malformed("request target must be a path such as /items")
    }

    /// The lowercase name of a header the parser interprets, or nil; allocation-free for other headers.
    static func interestingHeader(_ name: String) -> String? {
        let candidate: String
        switch name.utf8.count {
        case 4: candidate = "host"
        case 6: candidate = "expect"
        case 10: candidate = "connection"
        case 14: candidate = "content-length"
        case 17: candidate = "transfer-encoding"
        default: return nil
        }
        return ServerHeaders.namesEqual(candidate, name) ? candidate : nil
    }

    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}

extension Substring {
    /// The substring without leading and trailing spaces and tabs.
    func trimmingWhitespace() -> Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
