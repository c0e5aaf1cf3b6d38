import Foundation

/// Why a request breaks the contract: the status to answer with, the parameter, the reason.
struct ContractViolation: Error, Sendable, Hashable, CustomStringConvertible {
    /// The status to answer with: 400 for a bad parameter, 401 for a missing token.
    var status: Int
    /// The parameter at fault (`size`, `body.email`, `Idempotency-Key`), if one is.
    var parameter: String?
    /// Why, for people.
    var reason: String

    /// Creates a violation.
    init(status: Int = 400, parameter: String?, reason: String) {
        self.status = status
        self.parameter = parameter
        self.reason = reason
    }

    var description: String {
        if let parameter { return "\(parameter): \(reason)" }
        return reason
    }
}
