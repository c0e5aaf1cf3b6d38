/// Why a request could not be read, with the status the server answers and a human-readable reason.
struct HTTPParseError: Error, Equatable, Sendable {
    /// The response status: 400, 408, 413, 414, 417, 431, 501 or 505.
    var status: Int
    /// What was wrong, sent as the response body.
    var message: String

    static func malformed(_ message: String) -> HTTPParseError {
        HTTPParseError(status: 400, message: message)
    }
}

/// How a request's body is delimited.
enum BodyFraming: Equatable, Sendable {
    case none
    case length(Int64)
    case chunked
}

/// The parsed request line and header block.
struct RequestHead: Sendable {
    var method: String
    var target: String
    var version: String
    var headers: ServerHeaders
    var framing: BodyFraming
    var keepAlive: Bool
    var expectContinue: Bool
}
