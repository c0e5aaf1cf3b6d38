import Courier
import CourierPrimitives
import Foundation

/// One way a response breaks its operation's declaration.
package struct ResponseViolation: Sendable, Hashable, CustomStringConvertible {
    /// The kind of rule broken: `status`, `content-type`, `json`, or the JSON Schema keyword broken
    /// (`required`, `type`, `enum`, `format`, `maxLength`, `minimum`, `pattern`, `additionalProperties`…).
    package var rule: String
    /// Where: `status`, `Content-Type`, or the JSON path in the body (`response.items[2].id`).
    package var path: String
    /// Why, for people.
    package var message: String

    package init(rule: String, path: String, message: String) {
        self.rule = rule
        self.path = path
        self.message = message
    }

    package var description: String { "\(path): \(message) [\(rule)]" }
}

extension APIOperation {
    /// The declared response for `status`, if the operation declares one.
    package func response(for status: Int) -> ResponseSpec? {
        responses.first { $0.status == status }
    }

    /// Every way a response breaks this operation's declaration.
    ///
    /// - Parameters:
    ///   - status: the status that arrived.
    ///   - contentType: its `Content-Type`, if any.
    ///   - body: its body.
    ///   - expected: the statuses this request should get; default the success statuses.
    ///   - undeclared: whether a body member the schema does not list is a violation.
    /// - Returns: a status violation when `status` is not expected (or not declared at all); then,
    ///   when the status is declared with a body schema, a content-type violation, an invalid-JSON
    ///   violation, or every schema violation of the body, each with its JSON path.
    package func responseViolations(
        status: Int, contentType: String?, body: Data, expected: Set<Int>? = nil, undeclared: Bool = false
    ) -> [ResponseViolation] {
        let expected = expected ?? successStatuses
        var found: [ResponseViolation] = []
        let declared = responses.map(\.status)
        if !expected.contains(status) {
            let wanted = expected.sorted().map(String.init).joined(separator: " or ")
            let note =
                declared.contains(status)
                ? "" : "; the declaration lists only \(declared.map(String.init).joined(separator: ", "))"
            found.append(
                ResponseViolation(
                    rule: "status", path: "status", message: "\(status), expected \(wanted)\(note)"))
        }
        guard let spec = response(for: status), let schema = spec.schema else { return found }
        let mediaType = contentType.map(Self.mediaType) ?? ""
        let declaredJSON = OpenAPIWriter.isJSON(spec.contentType)
        guard declaredJSON ? OpenAPIWriter.isJSON(mediaType) : mediaType == Self.mediaType(spec.contentType)
        else {
            found.append(
                ResponseViolation(
                    rule: "content-type", path: "Content-Type",
                    message:
                        "\(mediaType.isEmpty ? "none" : mediaType.debugDescription), expected \(spec.contentType)"
                ))
            return found
        }
        // A body that is not JSON is checked by its media type alone.
        guard declaredJSON else { return found }
        guard let json = try? JSONValue.parse(body) else {
            found.append(
                ResponseViolation(rule: "json", path: "response", message: "the body is not valid JSON"))
            return found
        }
        for violation in schema.violations(of: json, at: "response", undeclared: undeclared) {
            found.append(
                ResponseViolation(
                    rule: violation.rule, path: violation.path, message: violation.message))
        }
        return found
    }
}
