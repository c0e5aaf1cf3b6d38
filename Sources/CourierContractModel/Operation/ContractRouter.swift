import Courier
import CourierPrimitives
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

    /// Matches `method` and a still percent-encoded `path` (no query) against `operations`, as
    /// `PathRouter` routes: the path first (a concrete path over a template, whatever the method),
    /// then the method.
    package static func match(
        method: String, path: String, in operations: [APIOperation]
    ) -> Match {
        match(method: method, path: path, with: router(operations))
    }

    /// The router over `operations`, to build once and match many requests with.
    package static func router(_ operations: [APIOperation]) -> PathRouter<APIOperation> {
        PathRouter(operations.map { (method: $0.method.rawValue, template: $0.path, value: $0) })
    }

    /// Matches `method` and a still percent-encoded `path` with a router made by `router(_:)`.
    package static func match(method: String, path: String, with router: PathRouter<APIOperation>) -> Match {
        switch router.match(method: method, path: path) {
        case .noRoute:
            return .noRoute
        case .methodNotAllowed(var allowed):
            if allowed.contains("GET"), !allowed.contains("HEAD") { allowed.append("HEAD") }
            return .methodNotAllowed(allowed: allowed)
        case .route(let operation, let raw):
            var parameters: [String: String] = [:]
            for (name, value) in raw {
                guard let decoded = value.removingPercentEncoding, !decoded.isEmpty else { return .noRoute }
                parameters[name] = decoded
            }
            return .operation(operation, pathParameters: parameters)
        }
    }
}
