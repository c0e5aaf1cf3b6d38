import Courier
import Foundation

/// Why a request breaks the contract: the status to answer with, the parameter, the reason.
package struct ContractViolation: Error, Sendable, Hashable, CustomStringConvertible {
    /// The status to answer with: 400 for a bad parameter, 401 for a missing token.
    package var status: Int
    /// The parameter at fault (`size`, `body.email`, `Idempotency-Key`), if one is.
    package var parameter: String?
    /// Why, for people.
    package var reason: String

    /// Creates a violation.
    package init(status: Int = 400, parameter: String?, reason: String) {
        self.status = status
        self.parameter = parameter
        self.reason = reason
    }

    package var description: String {
        if let parameter { return "\(parameter): \(reason)" }
        return reason
    }
}

/// Finds the operation a method and path belong to.
package enum ContractRouter {
    /// The outcome of matching a request line against the contract.
    package enum Match: Sendable, Hashable {
        /// An operation matched; its path parameters, percent-decoded.
        case operation(APIOperation, pathParameters: [String: String])
        /// The path exists but not for this method; the methods it has.
        case methodNotAllowed(allowed: [String])
        /// No operation has this path.
        case noRoute
    }

    /// Matches `method` and a still percent-encoded `path` (no query) against `operations`.
    ///
    /// The path is found first, then the method: of the templates the path fits, the one with the
    /// fewest variables wins (`/pets/mine` over `/pets/{id}`), whatever the method, so a method that
    /// path lacks gets 405 rather than another path's operation, as an OpenAPI document routes.
    package static func match(
        method: String, path: String, in operations: [APIOperation]
    ) -> Match {
        var segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard segments.first == "" else { return .noRoute }
        segments.removeFirst()
        var fits: [(operation: APIOperation, parameters: [String: String], variables: Int)] = []
        for operation in operations {
            guard let (parameters, literals) = bind(operation.pathSegments, to: segments) else { continue }
            fits.append((operation, parameters, operation.pathSegments.count - literals))
        }
        guard let fewest = fits.map(\.variables).min(),
            let path = fits.first(where: { $0.variables == fewest })?.operation.path
        else { return .noRoute }
        let specific = fits.filter { $0.operation.path == path }
        let wanted = method.uppercased()
        if let hit = specific.first(where: { $0.operation.method.rawValue == wanted }) {
            return .operation(hit.operation, pathParameters: hit.parameters)
        }
        // HEAD is answered wherever GET is (RFC 9110 §9.3.2); the server sends no body.
        if wanted == "HEAD", let get = specific.first(where: { $0.operation.method == .get }) {
            return .operation(get.operation, pathParameters: get.parameters)
        }
        var allowed = specific.map(\.operation.method.rawValue)
        if allowed.contains("GET"), !allowed.contains("HEAD") { allowed.append("HEAD") }
        return .methodNotAllowed(allowed: allowed)
    }

    /// Binds a path template's `{name}` segments to `segments`: the percent-decoded values by
    /// name and how many literal segments matched, or nil when the path does not fit.
    package static func bind(_ template: [Substring], to segments: [String]) -> ([String: String], Int)? {
        guard template.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        var literals = 0
        for (pattern, segment) in zip(template, segments) {
            if pattern.hasPrefix("{") && pattern.hasSuffix("}") {
                guard let decoded = segment.removingPercentEncoding, !decoded.isEmpty else { return nil }
                parameters[String(pattern.dropFirst().dropLast())] = decoded
            } else {
                guard pattern == segment else { return nil }
                literals += 1
            }
        }
        return (parameters, literals)
    }
}
