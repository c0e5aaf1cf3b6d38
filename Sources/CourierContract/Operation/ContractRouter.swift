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
    package static func match(
        method: String, path: String, in operations: [APIOperation]
    ) -> Match {
        var segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard segments.first == "" else { return .noRoute }
        segments.removeFirst()
        var allowed: [String] = []
        var best: (operation: APIOperation, parameters: [String: String], literals: Int)?
        for operation in operations {
            guard let (parameters, literals) = bind(operation.pathSegments, to: segments) else { continue }
            guard operation.method.rawValue == method.uppercased() else {
                allowed.append(operation.method.rawValue)
                continue
            }
            if best == nil || literals > best!.literals {  // allowed: checked non-nil just before
                best = (operation, parameters, literals)
            }
        }
        if let best { return .operation(best.operation, pathParameters: best.parameters) }
        // HEAD is answered wherever GET is (RFC 9110 §9.3.2); the server sends no body.
        if method.uppercased() == "HEAD", allowed.contains("GET") {
            return match(method: "GET", path: path, in: operations)
        }
        if allowed.contains("GET"), !allowed.contains("HEAD") { allowed.append("HEAD") }
        return allowed.isEmpty ? .noRoute : .methodNotAllowed(allowed: allowed)
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
