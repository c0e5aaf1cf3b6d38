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

/// A request that passed its operation's checks, with its parameters ready to read.
package struct ValidatedRequest: Sendable {
    /// The operation it belongs to.
    package var operation: APIOperation
    /// Path, query and header parameter values by name, as text.
    package var values: [String: String]
    /// The JSON body, when the operation takes one.
    package var json: JSONValue?

    /// A parameter's value as text.
    package func string(_ name: String) -> String? { values[name] }

    /// A parameter's value as an integer (already checked to parse).
    package func int(_ name: String) -> Int? { values[name].flatMap { Int($0) } }
}

extension APIOperation {
    /// Checks a request's parameters and body against this operation.
    ///
    /// Authentication is not checked here: the backend does it first, to answer 401.
    /// - Parameters:
    ///   - pathParameters: the decoded path parameters (from a `PathRouter` over the operations).
    ///   - query: the decoded query items, in order; the first of a repeated name wins.
    ///   - header: looks up a header value, case-insensitively.
    ///   - body: the body when it is in memory and the operation takes JSON; otherwise `nil`.
    ///   - hasBody: whether any body was sent (it may be in a file).
    ///   - parsedBody: the body as JSON when the caller has parsed it already (nil when it is not
    ///     JSON); `body` is parsed when this is not given.
    /// - Throws: `ContractViolation` naming the parameter and why: 400 for a parameter, 415 for
    ///   a body of another media type, the declared 422 (else 400) for a body that breaks its schema.
    package func validate(
        pathParameters: [String: String], query: [(name: String, value: String)],
        header: (String) -> String?, body: Data?, hasBody: Bool, parsedBody: (() -> JSONValue?)? = nil
    ) throws(ContractViolation) -> ValidatedRequest {
        var values: [String: String] = [:]
        for parameter in parameters {
            let raw: String?
            switch parameter.location {
            case .path: raw = pathParameters[parameter.name]
            case .query: raw = query.first { $0.name == parameter.name }?.value
            case .header: raw = header(parameter.name)
            }
            guard let raw else {
                if parameter.required {
                    throw ContractViolation(parameter: parameter.name, reason: "is required")
                }
                continue
            }
            if parameter.contentType != nil {
                // A value written as JSON text is read as JSON and checked as a body would be.
                guard let value = try? JSONValue.parse(Data(raw.utf8)) else {  // allowed: refused below
                    throw ContractViolation(parameter: parameter.name, reason: "is not valid JSON")
                }
                if let violation = parameter.schema.violation(of: value, at: parameter.name) {
                    throw ContractViolation(parameter: violation.path, reason: violation.message)
                }
            } else if let reason = parameter.schema.violation(ofText: raw) {
                throw ContractViolation(parameter: parameter.name, reason: reason)
            }
            values[parameter.name] = raw
        }
        var json: JSONValue?
        if let requestBody = self.body {
            let contentType = header("Content-Type").map(Self.mediaType) ?? ""
            // An empty binary upload is a valid (empty) file; other bodies must be present.
            if case .binary = requestBody {
            } else if !hasBody {
                throw ContractViolation(parameter: "body", reason: "is required")
            }
            guard requestBody.contentTypes.contains(contentType) else {
                throw ContractViolation(
                    status: 415, parameter: "Content-Type",
                    reason:
                        "must be \(requestBody.contentTypes.joined(separator: " or ")), not \(contentType.debugDescription)"
                )
            }
            if case .json(let schema) = requestBody {
                let parsed = parsedBody.map { $0() } ?? body.flatMap { try? JSONValue.parse($0) }
                guard let value = parsed else {
                    throw ContractViolation(
                        status: syntaxRefusalStatus, parameter: "body", reason: "is not valid JSON")
                }
                if let violation = schema.violation(of: value, at: "body") {
                    throw ContractViolation(
                        status: schemaRefusalStatus, parameter: violation.path, reason: violation.message)
                }
                json = value
            }
        }
        return ValidatedRequest(operation: self, values: values, json: json)
    }

    /// The status a body that breaks its schema gets: 422 (the content is understood but wrong) when
    /// the operation declares it, else 400.
    package var schemaRefusalStatus: Int {
        errors.contains { $0.status == 422 } ? 422 : 400
    }

    /// The status a body that is not JSON gets: 400 (it cannot be read) when the operation declares
    /// it, else its 422.
    package var syntaxRefusalStatus: Int {
        let declared = Set(errors.map(\.status))
        return declared.contains(400) || !declared.contains(422) ? 400 : 422
    }

    /// The media type of a `Content-Type` value, lowercased, without parameters.
    package static func mediaType(_ contentType: String) -> String {
        String(contentType.prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces).lowercased()
    }
}
