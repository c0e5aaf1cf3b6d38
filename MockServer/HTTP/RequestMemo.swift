import CourierPrimitives
import Foundation

/// Why a request's body is not a JSON value.
package enum BodyJSONFailure: Error, Sendable, CustomStringConvertible {
    /// The body, spilled to disk, could not be read back.
    case unreadable(String)
    /// The body is not JSON (RFC 8259), with the line, column and reason of the first fault.
    case syntax(JSONSyntaxError)
    /// The body is well-formed but holds a value no Swift type holds (a number beyond any float).
    case unrepresentable(String)

    package var description: String {
        switch self {
        case .unreadable(let reason): "the body could not be read: \(reason)"
        case .syntax(let error): error.description
        case .unrepresentable(let reason): "the JSON body cannot be read: \(reason)"
        }
    }
}

/// What the copies of one request share, made once for all of them: the body read as JSON, which
/// handlers' gates and answers, document checks and stub patterns all ask for.
final class RequestMemo: Sendable {
    private let state = Locked<(json: Result<JSONValue, BodyJSONFailure>?, parses: Int)>((nil, 0))

    /// The body as JSON, parsed by `parse` the first time any copy of the request asks.
    func json(_ parse: () -> Result<JSONValue, BodyJSONFailure>) -> Result<JSONValue, BodyJSONFailure> {
        if let done = state.withLock({ $0.json }) { return done }
        let result = parse()
        return state.withLock { state in
            if let done = state.json { return done }
            state.json = result
            state.parses += 1
            return result
        }
    }

    /// How many times the body was parsed as JSON (for tests: once, or not at all).
    var parses: Int { state.withLock { $0.parses } }

    /// A memo for a request with a body; nil without one.
    static func forBody(_ body: Data, _ file: URL?) -> RequestMemo? {
        body.isEmpty && file == nil ? nil : RequestMemo()
    }
}

extension ServerRequest {
    /// The body as JSON, parsed strictly (RFC 8259) once for every handler, check and stub pattern that
    /// asks: the copies of a request share it, and a copy whose body is replaced parses again.
    package var bodyJSON: Result<JSONValue, BodyJSONFailure> {
        guard let memo else { return Self.readJSON(self) }
        return memo.json { Self.readJSON(self) }
    }

    /// Reads and parses the body.
    private static func readJSON(_ request: ServerRequest) -> Result<JSONValue, BodyJSONFailure> {
        let data: Data
        do {
            data = try request.bodyData()
        } catch {
            return .failure(.unreadable(error.localizedDescription))
        }
        do throws(JSONSyntaxError) {
            try JSONSyntax.check(data)
        } catch {
            return .failure(.syntax(error))
        }
        do {
            return .success(try JSONValue.parse(data))
        } catch DecodingError.dataCorrupted(let context) {
            return .failure(.unrepresentable(context.debugDescription))
        } catch {
            return .failure(.unrepresentable("\(error)"))
        }
    }

    /// How many times this request's body was parsed as JSON.
    package var bodyJSONParses: Int { memo?.parses ?? 0 }

}
