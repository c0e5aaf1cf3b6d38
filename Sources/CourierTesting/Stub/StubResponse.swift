import Courier
import Foundation

/// A canned answer for `StubTransport`: a response, or an error, optionally after a delay.
public struct StubResponse: Sendable {
    /// Where a stub's body comes from.
    public enum Body: Sendable {
        /// Bytes in memory.
        case data(Data)
        /// A fixture file: an absolute path, or a path relative to the transport's
        /// `fixturesDirectory`. Read when the stub answers.
        case fixture(String)
    }

    /// The status code.
    public var status: Int
    /// The response header fields.
    public var headers: HTTPHeaders
    /// The body.
    public var body: Body
    /// How long to wait before answering (or failing).
    public var delay: Duration
    /// When set, the transport throws this instead of answering.
    public var error: CourierError?

    /// Creates a stub answer.
    public init(
        status: Int = 200, headers: HTTPHeaders = HTTPHeaders(), body: Body = .data(Data()),
        delay: Duration = .zero, error: CourierError? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
        self.error = error
    }

    /// A response with a body of raw bytes.
    public static func data(_ data: Data, status: Int = 200, headers: HTTPHeaders = HTTPHeaders())
        -> StubResponse
    {
        StubResponse(status: status, headers: headers, body: .data(data))
    }

    /// A JSON response from JSON text.
    public static func json(_ text: String, status: Int = 200, headers: HTTPHeaders = HTTPHeaders())
        -> StubResponse
    {
        var headers = headers
        if headers["Content-Type"] == nil { headers["Content-Type"] = "application/json" }
        return StubResponse(status: status, headers: headers, body: .data(Data(text.utf8)))
    }

    /// A JSON response from a model, encoded with `JSONEncoder.courier`. A model that
    /// cannot be encoded makes the stub fail with `.invalidParameters`.
    public static func json(
        encoding value: some Encodable, status: Int = 200, headers: HTTPHeaders = HTTPHeaders()
    ) -> StubResponse {
        do {
            let data = try JSONEncoder.courier.encode(value)
            return json(String(decoding: data, as: UTF8.self), status: status, headers: headers)
        } catch {
            return failure(
                CourierError(.invalidParameters, "stub cannot encode \(type(of: value)): \(error)"))
        }
    }

    /// A plain-text response.
    public static func text(_ text: String, status: Int = 200, headers: HTTPHeaders = HTTPHeaders())
        -> StubResponse
    {
        var headers = headers
        if headers["Content-Type"] == nil { headers["Content-Type"] = "text/plain; charset=utf-8" }
        return StubResponse(status: status, headers: headers, body: .data(Data(text.utf8)))
    }

    /// A response with no body, such as `204 No Content`.
    public static func status(_ status: Int, headers: HTTPHeaders = HTTPHeaders()) -> StubResponse {
        StubResponse(status: status, headers: headers)
    }

    /// A response whose body is a fixture file; `Content-Type` is guessed from its
    /// extension unless given.
    public static func fixture(_ path: String, status: Int = 200, headers: HTTPHeaders = HTTPHeaders())
        -> StubResponse
    {
        StubResponse(status: status, headers: headers, body: .fixture(path))
    }

    /// A failure: the transport throws `error`.
    public static func failure(_ error: CourierError) -> StubResponse {
        StubResponse(status: 0, error: error)
    }

    /// A failure with a code and a generic message.
    public static func failure(_ code: CourierError.Code) -> StubResponse {
        failure(CourierError(code, "stubbed \(code.name) failure"))
    }

    /// The same answer after `delay`.
    public func delayed(by delay: Duration) -> StubResponse {
        var copy = self
        copy.delay = delay
        return copy
    }
}
