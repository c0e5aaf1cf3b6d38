import Courier
import CourierCurl
import CourierTesting
import CourierTool
import Foundation
import MockServer
import TestSupport
import Testing

@testable import notes_tool

/// Provider verification finds every drift planted in a hand-written notes provider, each with its
/// rule, request and JSON path, and nothing in the faithful one.
@Suite(.timeLimit(.minutes(5)))
struct ProviderVerificationTests {
    /// Verifies the notes API against `provider`, with the token and unsafe methods allowed, and
    /// undeclared properties reported unless `strict` is false.
    static func verify(_ provider: DriftingProvider, strict: Bool = true) async throws -> VerificationReport {
        try await withMockServer(handlers: [provider]) { server in
            let transport = CurlTransport()
            var verification = ProviderVerification(
                apis: [NotesAPI.self], token: DriftingProvider.token, allowUnsafe: true)
            verification.reportsUndeclaredProperties = strict
            let report = await verification.run(against: server.baseURL, transport: transport)
            await transport.shutdown()
            return report
        }
    }

    @Test func theFaithfulProviderIsClean() async throws {
        let report = try await Self.verify(DriftingProvider())
        #expect(report.isClean, "\(report.summary)")
        #expect(report.cases.allSatisfy { $0.skipped == nil }, "\(report.summary)")
        let names = Set(report.cases.map(\.name))
        #expect(
            names.isSuperset(of: [
                "sample", "minimum values", "maximum values", "absent optionals", "no token", "unknown id",
                "bad body", "bad parameter",
            ]), "\(names)")
    }

    /// What each drift must produce: the case, the rule and the path of a violation.
    static let expectations:
        [(DriftingProvider.Drift, operation: String, case: String, rule: String, path: String)] =
            [
                (.removedField, "notes.note", "sample", "required", "response.text"),
                (.changedType, "notes.note", "sample", "type", "response.pinned"),
                (.wrongStatus, "notes.create", "sample", "status", "status"),
                (.missingAuthCheck, "notes.create", "no token", "status", "status"),
                (.enumOutside, "notes.note", "sample", "enum", "response.color"),
                (.wrongContentType, "notes.note", "sample", "content-type", "Content-Type"),
                (.nullInRequired, "notes.note", "sample", "type", "response.id"),
                (.brokenFormat, "notes.note", "sample", "format", "response.created"),
                (.undeclaredStatus, "notes.list", "bad parameter", "status", "status"),
                (.arrayItemWrongType, "notes.note", "sample", "type", "response.tags[0]"),
                (.missing404, "notes.note", "unknown id", "status", "status"),
                (.idBreaksPattern, "notes.note", "sample", "pattern", "response.id"),
                (.lengthBroken, "notes.note", "sample", "minLength", "response.text"),
                (.boundaryRefused, "notes.list", "maximum values", "status", "status"),
                (.optionalRequired, "notes.list", "absent optionals", "status", "status"),
                (.extraField, "notes.note", "sample", "additionalProperties", "response.archived"),
            ]

    /// An added property breaks no client that ignores it: only a strict verification reports it.
    @Test func anUndeclaredPropertyIsReportedOnlyWhenStrict() async throws {
        let lenient = try await Self.verify(DriftingProvider(drift: .extraField), strict: false)
        #expect(lenient.isClean, "\(lenient.summary)")
    }

    @Test func everyDriftHasAnExpectation() {
        #expect(Set(Self.expectations.map(\.0)) == Set(DriftingProvider.Drift.allCases))
    }

    @Test(arguments: expectations.indices)
    func eachPlantedDriftIsReported(index: Int) async throws {
        let (drift, operation, name, rule, path) = Self.expectations[index]
        let report = try await Self.verify(DriftingProvider(drift: drift))
        #expect(!report.isClean, "\(drift) went unseen")
        let found = report.violations.filter {
            $0.case.operation == operation && $0.case.name == name && $0.violation.rule == rule
                && $0.violation.path == path
        }
        #expect(
            !found.isEmpty, "\(drift): no \(rule) at \(path) in \(operation) [\(name)]:\n\(report.summary)")
        // Every request is named with its method and URL.
        for (item, _) in report.violations {
            #expect(item.request.hasPrefix(item.method + " http://127.0.0.1:"), "\(item.request)")
        }
    }

    /// Every violation of one answer is reported, not only the first.
    @Test func everyViolationOfAnAnswerIsReported() async throws {
        let body =
            #"{"id": null, "pinned": "yes", "color": "purple", "tags": [1, "a", 2], "created": "soon"}"#
        let provider = ClosureHandler { request in
            request.path == "/notes/n1" ? .json(Data(body.utf8)) : nil
        }
        let report = try await withMockServer(handlers: [provider]) { server in
            let transport = CurlTransport()
            let report = await ProviderVerification(apis: [NotesAPI.self])
                .run(against: server.baseURL, transport: transport)
            await transport.shutdown()
            return report
        }
        let sample = try #require(report.cases.first { $0.operation == "notes.note" && $0.name == "sample" })
        let paths = Set(sample.violations.map { "\($0.rule) \($0.path)" })
        #expect(
            paths == [
                "type response.id", "required response.text", "type response.pinned", "enum response.color",
                "type response.tags[0]", "type response.tags[2]", "format response.created",
            ], "\(sample.violations)")
    }

    @Test func unsafeMethodsAreSkippedWithoutTheFlag() async throws {
        let report = try await withMockServer(handlers: [DriftingProvider(drift: .wrongStatus)]) { server in
            let transport = CurlTransport()
            let report = await ProviderVerification(apis: [NotesAPI.self], token: DriftingProvider.token)
                .run(against: server.baseURL, transport: transport)
            await transport.shutdown()
            return report
        }
        #expect(report.isClean, "the drift is in POST, which was not sent: \(report.summary)")
        let unsafe = report.cases.filter { ["POST", "DELETE"].contains($0.method) }
        #expect(!unsafe.isEmpty && unsafe.allSatisfy { $0.skipped?.contains("--allow-unsafe") == true })
        #expect(report.summary.contains("skip  notes.create [sample] POST"), "\(report.summary)")
    }

    /// The contract mock answers every id from its examples: an `unknown id` case cannot hold against it,
    /// so it is skipped with the reason, not failed; every other case holds.
    @Test func anUnknownIDAgainstTheStatelessMockIsSkippedWithTheReason() async throws {
        let report = try await withMockServer(handlers: [ContractHandler(NotesAPI.self)]) { server in
            let transport = CurlTransport()
            let report = await ProviderVerification(apis: [NotesAPI.self], token: "t", allowUnsafe: true)
                .run(against: server.baseURL, transport: transport)
            await transport.shutdown()
            return report
        }
        #expect(report.isClean, "\(report.summary)")
        let unknown = report.cases.filter { $0.name == "unknown id" }
        #expect(unknown.count == 2, "\(report.summary)")
        for item in unknown {
            #expect(
                item.status == 200 || item.status == 204, "it ran: \(item.status.map(String.init) ?? "-")")
            #expect(item.skipped?.contains("answered from its examples") == true, "\(report.summary)")
        }
        let others = report.cases.filter { $0.name != "unknown id" }
        #expect(others.allSatisfy { $0.passed }, "\(report.summary)")
    }
}
