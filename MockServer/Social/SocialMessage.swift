import Courier
import CourierContract
import CourierContractModel
import Endpoints
import Foundation
import MockServer

/// A request as the social backend sees it, independent of the HTTP layer's types.
struct SocialRequest: Sendable {
    var method: String
    /// The path without the query, still percent-encoded.
    var path: String
    var query: [(name: String, value: String)]
    var headers: [(name: String, value: String)]
    /// The body when it is in memory.
    var body: Data
    /// The body's file when the server streamed it to disk instead.
    var bodyFile: URL?

    /// The first value of a header, compared case-insensitively.
    func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name.lowercased() == lowered }?.value
    }

    /// Whether a body was sent, in memory or on disk.
    var hasBody: Bool { bodyFile != nil || !body.isEmpty }

    /// The scheme and authority that download URLs should use: `http://` plus the Host header.
    var origin: String {
        let host = header("Host").flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
        return "http://" + host
    }
}

/// A response from the social backend.
struct SocialResponse: Sendable {
    enum Body: Sendable {
        case empty
        case data(Data)
        case file(URL)
    }

    var status: Int
    var headers: [(name: String, value: String)] = []
    var body: Body = .empty

    /// A JSON response from an `Encodable` value, in Courier's encoding (ISO 8601 dates).
    static func json(_ value: some Encodable, status: Int = 200) -> SocialResponse {
        do {
            let data = try JSONEncoder.courier.encode(value)
            return SocialResponse(
                status: status, headers: [("Content-Type", "application/json")], body: .data(data))
        } catch {
            return .error(500, "internal", "could not encode the response: \(error)")
        }
    }

    /// An error response with an `APIErrorBody`.
    static func error(_ status: Int, _ code: String, _ message: String, parameter: String? = nil)
        -> SocialResponse
    {
        let body = APIErrorBody(error: code, message: message, parameter: parameter)
        let data =
            (try? JSONEncoder.courier.encode(body)) ?? Data("{\"error\":\"internal\",\"message\":\"\"}".utf8)
        return SocialResponse(
            status: status, headers: [("Content-Type", "application/json")], body: .data(data))
    }

    /// The 400 (or 401) for a contract violation, naming the parameter.
    static func violation(_ violation: ContractViolation) -> SocialResponse {
        let code = violation.status == 401 ? "unauthorized" : "bad_request"
        return .error(violation.status, code, violation.description, parameter: violation.parameter)
    }
}

/// A failure inside an operation, answered as an error response.
struct SocialFailure: Error {
    var response: SocialResponse

    static func notFound(_ message: String) -> SocialFailure {
        SocialFailure(response: .error(404, "not_found", message))
    }

    static func status(_ status: Int, _ code: String, _ message: String) -> SocialFailure {
        SocialFailure(response: .error(status, code, message))
    }
}
