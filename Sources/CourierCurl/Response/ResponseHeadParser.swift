import Courier

/// Collects the response head from libcurl's header callback, one line at a time.
///
/// libcurl reports the head of every response it reads, including 1xx interim ones and
/// redirects it follows; a new status line starts over, so the last head wins.
struct ResponseHeadParser: Sendable, Equatable {
    /// What one line was.
    enum Line: Equatable {
        case statusLine
        case field
        /// The blank line that ends a head.
        case end
        case ignored
    }

    private(set) var status: Int?
    private(set) var httpVersion: String?
    private(set) var headers = HTTPHeaders()
    /// Whether the blank line of the current head was seen.
    private(set) var isComplete = false

    /// Consumes one header line as libcurl delivers it (with its CRLF).
    mutating func consume(_ raw: String) -> Line {
        var line = Substring(raw)
        while let last = line.last, last.isNewline { line.removeLast() }
        if line.isEmpty {
            isComplete = true
            return .end
        }
        if line.hasPrefix("HTTP/") {
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            guard parts.count >= 2, let code = Int(parts[1]) else { return .ignored }
            status = code
            httpVersion = String(parts[0])
            headers = HTTPHeaders()
            isComplete = false
            return .statusLine
        }
        if let first = line.first, first == " " || first == "\t" {
            // Obsolete line folding: continue the previous value.
            guard let previous = headers.reversed().first else { return .ignored }
            var fields = Array(headers)
            fields[fields.count - 1].value = previous.value + " " + line.trimmingOWS()
            headers = HTTPHeaders(fields)
            return .field
        }
        guard let colon = line.firstIndex(of: ":") else { return .ignored }
        let name = String(line[..<colon])
        let value = line[line.index(after: colon)...].trimmingOWS()
        headers.add(name: name, value: value)
        return .field
    }

    /// The status is one libcurl will follow rather than deliver.
    func isRedirectToFollow(followRedirects: Bool) -> Bool {
        guard followRedirects, let status else { return false }
        return [301, 302, 303, 307, 308].contains(status) && headers["Location"] != nil
    }

    /// The declared `Content-Length`, if any and valid.
    var contentLength: Int64? { headers["Content-Length"].flatMap { Int64($0) } }
}

extension Substring {
    fileprivate func trimmingOWS() -> String {
        var value = self
        while let first = value.first, first == " " || first == "\t" { value.removeFirst() }
        while let last = value.last, last == " " || last == "\t" { value.removeLast() }
        return String(value)
    }
}
