import Courier
import CourierContract
import CourierPrimitives
import Foundation
import MockServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Checks a live server against declared APIs: for every operation, its sample call plus cases
/// made from the declaration (boundary values, absent optionals, and each error status a request
/// can provoke: 401 without the token, 404 for an unknown id, 400 or 422 for a bad body or
/// parameter), and every way each answer breaks the declaration.
///
/// ```swift
/// import CourierCurl
/// import CourierTool
///
/// let verification = ProviderVerification(apis: [NotesAPI.self], token: "secret", allowUnsafe: true)
/// let report = await verification.run(against: baseURL, transport: CurlTransport())
/// let clean = report.isClean   // report.summary, report.junitXML() for CI
/// ```
///
/// Unsafe methods (POST, PUT, PATCH, DELETE) are sent only when `allowUnsafe` is set; otherwise
/// their cases are reported as skipped, so that nothing is written to a server by accident.
public struct ProviderVerification: Sendable {
    /// One sample call of every operation, in order.
    public var samples: [any EndpointDescribing]
    /// The bearer token sent to operations declared with `auth: true`.
    public var token: String?
    /// Whether POST, PUT, PATCH and DELETE operations are sent.
    public var allowUnsafe: Bool
    /// Whether a response property the declaration does not list is a violation (rule
    /// `undeclared`). Off by default: an added field does not break a client that ignores it.
    public var reportsUndeclaredProperties = false
    /// Problems with the declarations, reported as failures: an operation declared but missing
    /// from `samples` (see `API.sampleProblems`; `init(apis:)` fills this in).
    public var declarationProblems: [String]

    /// Verification of `apis`.
    /// - Parameters:
    ///   - apis: the declared APIs.
    ///   - token: the bearer token for operations that need one.
    ///   - allowUnsafe: whether to send POST, PUT, PATCH and DELETE.
    public init(apis: [any API.Type], token: String? = nil, allowUnsafe: Bool = false) {
        self.init(samples: apis.flatMap { $0.samples }, token: token, allowUnsafe: allowUnsafe)
        declarationProblems = apis.flatMap { $0.sampleProblems }
    }

    /// Verification of these sample calls.
    public init(samples: [any EndpointDescribing], token: String? = nil, allowUnsafe: Bool = false) {
        self.samples = samples
        self.token = token
        self.allowUnsafe = allowUnsafe
        self.declarationProblems = []
    }

    /// Why a case that needs data is not held against a server that answered from its examples.
    static let exampleAnswerReason =
        "the server answered from its examples (\(ServerResponse.exampleAnswerHeader): example), "
        + "so it cannot know an id is unknown; run this case against a server with data"

    /// The methods that may change what a server holds.
    static let unsafeMethods: Set<String> = ["POST", "PUT", "PATCH", "DELETE"]

    /// Runs every case against `baseURL` through `transport` and reports what it found.
    ///
    /// Operations run in the order of `samples`, each operation's sample first: against a server
    /// with state, order the samples as a client would call them (sign up before signing in,
    /// upload before reading, read before deleting).
    public func run(against baseURL: URL, transport: any Transport) async -> VerificationReport {
        var cases: [VerificationReport.Case] = []
        for sample in samples {
            let operation = sample.operation
            let planned: [PlannedCase]
            do {
                planned = try PlannedCase.all(for: sample, baseURL: baseURL, token: token)
            } catch {
                cases.append(
                    VerificationReport.Case(
                        operation: operation.id, name: "sample", method: operation.method.rawValue,
                        url: baseURL.absoluteString + operation.path, expected: [operation.successStatus],
                        violations: [
                            .init(rule: "request", path: "request", message: "cannot be built: \(error)")
                        ]))
                continue
            }
            for plan in planned {
                var result = VerificationReport.Case(
                    operation: operation.id, name: plan.name, method: plan.request.method.rawValue,
                    url: plan.request.url.absoluteString, expected: plan.expected.sorted(), violations: [])
                if let reason = plan.skipped {
                    result.skipped = reason
                } else if !allowUnsafe, Self.unsafeMethods.contains(operation.method.rawValue) {
                    result.skipped =
                        "\(operation.method.rawValue) may change the server's data; --allow-unsafe sends it"
                } else {
                    do {
                        let response = try await transport.send(plan.request)
                        result.status = response.status
                        result.violations = operation.responseViolations(
                            status: response.status, contentType: response.headers["Content-Type"],
                            body: response.body.data, expected: plan.expected,
                            undeclared: reportsUndeclaredProperties
                        ).map { .init(rule: $0.rule, path: $0.path, message: $0.message) }
                        if plan.needsData, !plan.expected.contains(response.status),
                            response.headers[ServerResponse.exampleAnswerHeader] == "example"
                        {
                            result.violations = []
                            result.skipped = Self.exampleAnswerReason
                        }
                    } catch {
                        result.violations = [
                            .init(rule: "request", path: "request", message: "no response: \(error)")
                        ]
                    }
                }
                cases.append(result)
            }
        }
        return VerificationReport(cases: cases, declarationProblems: declarationProblems)
    }
}
