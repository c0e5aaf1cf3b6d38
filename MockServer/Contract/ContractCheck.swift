import Courier
import CourierContract
import CourierPrimitives
import Foundation
import MockServer

/// A contract test for any declared API: sends one sample of every operation through a
/// transport and checks each answer against the declaration: its status, its content type and
/// every way its body breaks the response schema, each with its JSON path. An operation listed
/// in `API.declaredOperations` without a sample is a failure too (see `API.sampleProblems`).
///
/// ```swift
/// import CourierCurl
///
/// try await withMockServer(handlers: [ContractHandler(NotesAPI.self)]) { server in
///     let failures = await ContractCheck.run(NotesAPI.self, transport: CurlTransport(), baseURL: server.baseURL)
///     #expect(failures.isEmpty, "\(failures)")
/// }
/// ```
public enum ContractCheck {
    /// One operation whose answer broke its declaration.
    public struct Failure: Sendable, CustomStringConvertible {
        /// The operation id.
        public var operation: String
        /// What was wrong.
        public var problem: String

        public var description: String { "\(operation): \(problem)" }
    }

    /// Sends every sample of `api` and returns every way an answer broke the declaration, one
    /// failure per violation (empty when all held).
    /// - Parameters:
    ///   - api: the declared API.
    ///   - transport: the transport to send through.
    ///   - baseURL: the server to send to.
    ///   - headers: header fields added to every request (a bearer token, say).
    public static func run<A: API>(
        _ api: A.Type, transport: any Transport, baseURL: URL, headers: HTTPHeaders = HTTPHeaders()
    ) async -> [Failure] {
        // Any status is an answer to check here, not an error.
        let manager = NetworkManager(
            transport: transport, baseURL: baseURL, validation: Validation(acceptableStatusCodes: 100..<600),
            defaultHeaders: headers)
        var failures = A.sampleProblems.map { Failure(operation: A.group, problem: $0) }
        for sample in A.samples {
            let operation = sample.operation
            do {
                let response = try await manager.sendRaw(sample)
                for violation in operation.responseViolations(
                    status: response.status, contentType: response.headers["Content-Type"],
                    body: response.value)
                {
                    let problem =
                        violation.rule == "status"
                        ? "status \(response.status), declared \(operation.successStatus)"
                        : "\(violation.path) \(violation.message)"
                    failures.append(Failure(operation: operation.id, problem: problem))
                }
            } catch {
                failures.append(Failure(operation: operation.id, problem: "\(error)"))
            }
        }
        return failures
    }
}
