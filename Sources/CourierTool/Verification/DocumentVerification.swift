import Courier
import CourierOpenAPI
import CourierPrimitives
import Foundation

/// Checks a live server against an OpenAPI document, as `ProviderVerification` does against
/// declarations: for every operation a sample made from the document (its examples first, else values
/// generated from its schemas), then each error status a request can provoke that the operation
/// declares (401 without credentials, 404 for an unknown id, 400 or 422 for a bad body or parameter),
/// and every way each answer breaks the document: status, content type, and the body against the
/// response schema, each with its JSON path.
///
/// ```swift
/// let document = try OpenAPIDocument.load(from: URL(fileURLWithPath: "openapi.yaml"))
/// let verification = DocumentVerification(document: document, token: "secret", allowUnsafe: true)
/// let report = await verification.run(against: baseURL, transport: transport)
/// let clean = report.isClean   // report.summary, report.junitXML() for CI
/// ```
///
/// The safety rules are those of `ProviderVerification`: POST, PUT, PATCH and DELETE are sent only
/// with `allowUnsafe`, and an unknown id answered from a mock's examples is skipped with the reason.
public struct DocumentVerification: Sendable {
    /// The document the server must keep to.
    public var document: OpenAPIDocument
    /// The credential sent where an operation's security asks for one: a bearer token, a basic
    /// credential (`user:password`, encoded as it is sent) or an API key.
    public var token: String?
    /// Whether POST, PUT, PATCH and DELETE operations are sent.
    public var allowUnsafe: Bool
    /// The seed of generated values: the same seed sends the same requests.
    public var seed: UInt64 = 0

    /// Verification against `document`.
    /// - Parameters:
    ///   - document: a loaded OpenAPI document.
    ///   - token: the credential for operations whose security needs one.
    ///   - allowUnsafe: whether to send POST, PUT, PATCH and DELETE.
    public init(document: OpenAPIDocument, token: String? = nil, allowUnsafe: Bool = false) {
        self.document = document
        self.token = token
        self.allowUnsafe = allowUnsafe
    }

    /// Runs every case against `baseURL` (the server's URL with any base path, such as
    /// `https://api.example.com/v1`) through `transport`, operations in the document's order.
    public func run(against baseURL: URL, transport: any Transport) async -> VerificationReport {
        let runner = CaseRunner(allowUnsafe: allowUnsafe, transport: transport)
        let check = DocumentResponseCheck(document: document)
        var cases: [VerificationReport.Case] = []
        for operation in document.operations {
            let id = operation.operationID ?? "\(operation.method) \(operation.path)"
            let plans = DocumentCases(document: document, operation: operation, seed: seed, token: token)
                .all(baseURL: baseURL)
            for plan in plans {
                if let problem = plan.problem {
                    cases.append(
                        VerificationReport.Case(
                            operation: id, name: plan.name, method: operation.method,
                            url: baseURL.absoluteString + operation.path, expected: [],
                            violations: [.init(rule: "request", path: "request", message: problem)]))
                    continue
                }
                guard let planned = plan.planned else { continue }
                cases.append(
                    await runner.run(planned, operation: id) { response, expected in
                        check.violations(
                            operation, status: response.status, contentType: response.headers["Content-Type"],
                            body: response.body.data, expected: expected)
                    })
            }
        }
        return VerificationReport(cases: cases, declarationProblems: [])
    }
}

/// Every way an answer breaks its operation in a document.
struct DocumentResponseCheck {
    let document: OpenAPIDocument
    let validator: SchemaValidator

    init(document: OpenAPIDocument) {
        self.document = document
        validator = SchemaValidator(document: document)
    }

    /// The response object for `status`: its own, its range's (`4XX`), or `default`.
    static func response(_ operation: OpenAPIOperation, _ status: Int) -> JSONValue? {
        operation.responses[String(status)] ?? operation.responses["\(status / 100)XX"]
            ?? operation.responses["default"]
    }

    func violations(
        _ operation: OpenAPIOperation, status: Int, contentType: String?, body: Data, expected: Set<Int>
    ) -> [VerificationReport.Violation] {
        var found: [VerificationReport.Violation] = []
        if !expected.contains(status) {
            let wanted = expected.sorted().map(String.init).joined(separator: " or ")
            let declared = operation.responses.keys.sorted().joined(separator: ", ")
            found.append(
                .init(
                    rule: "status", path: "status",
                    message: "\(status), expected \(wanted); the document declares \(declared)"))
        }
        guard let response = Self.response(operation, status),
            case .object(let content) = response["content"] ?? .null, !content.isEmpty
        else { return found }
        let mediaType = contentType.map(Self.essence) ?? ""
        guard let media = Self.media(for: mediaType, in: content) else {
            found.append(
                .init(
                    rule: "content-type", path: "Content-Type",
                    message:
                        "\(mediaType.isEmpty ? "none" : mediaType.debugDescription), expected "
                        + content.keys.sorted().joined(separator: " or ")))
            return found
        }
        guard mediaType == "application/json" || mediaType.hasSuffix("+json"), let schema = media["schema"]
        else { return found }
        guard let json = try? JSONValue.parse(body) else {
            found.append(.init(rule: "json", path: "response", message: "the body is not valid JSON"))
            return found
        }
        for violation in validator.validate(json, against: schema, direction: .response) {
            found.append(
                .init(
                    rule: violation.rule, path: "response" + violation.path.dropFirst(),
                    message: violation.message))
        }
        return found
    }

    /// The media type object that `mediaType` answers: its own, its range (`application/*`), or `*/*`.
    static func media(for mediaType: String, in content: [String: JSONValue]) -> JSONValue? {
        let range = (mediaType.split(separator: "/").first.map(String.init) ?? "") + "/*"
        for key in [mediaType, range, "*/*"] {
            if let media = content.first(where: { essence($0.key) == key })?.value { return media }
        }
        return nil
    }

    /// A media type without its parameters, lowercased.
    static func essence(_ contentType: String) -> String {
        String(contentType.prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces).lowercased()
    }
}
