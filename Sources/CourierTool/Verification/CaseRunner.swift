import Courier
import Foundation
import MockServer

/// Sends planned cases and reports each one: the half of verification that declarations and documents
/// share (the safety rules, the skips, a case that needs data against a server of examples).
struct CaseRunner {
    var allowUnsafe: Bool
    var transport: any Transport

    /// The methods that may change what a server holds.
    static let unsafeMethods: Set<String> = ["POST", "PUT", "PATCH", "DELETE"]

    /// Why a case that needs data is not held against a server that answered from its examples.
    static let exampleAnswerReason =
        "the server answered from its examples (\(ServerResponse.exampleAnswerHeader): example), "
        + "so it cannot know an id is unknown; run this case against a server with data"

    /// Sends `plan` (unless a safety rule skips it) and checks the answer with `check`.
    /// - Parameters:
    ///   - plan: the case.
    ///   - operation: the operation's id, for the report.
    ///   - check: every way an answer breaks the contract, given the statuses the case expects.
    func run(
        _ plan: PlannedCase, operation: String,
        check: (TransportResponse, Set<Int>) -> [VerificationReport.Violation]
    ) async -> VerificationReport.Case {
        var result = VerificationReport.Case(
            operation: operation, name: plan.name, method: plan.request.method.rawValue,
            url: plan.request.url.absoluteString, expected: plan.expected.sorted(), violations: [])
        if let reason = plan.skipped {
            result.skipped = reason
            return result
        }
        if !allowUnsafe, Self.unsafeMethods.contains(plan.request.method.rawValue) {
            result.skipped =
                "\(plan.request.method.rawValue) may change the server's data; --allow-unsafe sends it"
            return result
        }
        do {
            let response = try await transport.send(plan.request)
            result.status = response.status
            result.violations = check(response, plan.expected)
            if plan.needsData, !plan.expected.contains(response.status),
                response.headers[ServerResponse.exampleAnswerHeader] == "example"
            {
                result.violations = []
                result.skipped = Self.exampleAnswerReason
            }
        } catch {
            result.violations = [.init(rule: "request", path: "request", message: "no response: \(error)")]
        }
        return result
    }
}
