import Courier
import CourierContract
import CourierPrimitives
import Foundation

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

    /// Runs every case against `baseURL` through `transport` and reports what it found.
    ///
    /// Operations run in the order of `samples`, each operation's sample first: against a server
    /// with state, order the samples as a client would call them (sign up before signing in,
    /// upload before reading, read before deleting).
    public func run(against baseURL: URL, transport: any Transport) async -> VerificationReport {
        let runner = CaseRunner(allowUnsafe: allowUnsafe, transport: transport)
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
                        url: baseURL.absoluteString + operation.path,
                        expected: operation.successStatuses.sorted(),
                        violations: [
                            .init(rule: "request", path: "request", message: "cannot be built: \(error)")
                        ]))
                continue
            }
            for plan in planned {
                cases.append(
                    await runner.run(plan, operation: operation.id) { response, expected in
                        operation.responseViolations(
                            status: response.status, contentType: response.headers["Content-Type"],
                            body: response.body.data, expected: expected,
                            undeclared: reportsUndeclaredProperties
                        ).map { .init(rule: $0.rule, path: $0.path, message: $0.message) }
                    })
            }
        }
        return VerificationReport(cases: cases, declarationProblems: declarationProblems)
    }
}
