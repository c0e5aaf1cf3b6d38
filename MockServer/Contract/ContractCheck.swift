import Courier
import CourierContract
import CourierPrimitives
import Foundation
import MockServer

/// A contract test for any declared API: sends one sample of every operation through a
/// transport and checks each answer against the declaration (status and response schema).
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

    /// Sends every sample of `api` and returns what broke the declarations (empty when all held).
    /// - Parameters:
    ///   - api: the declared API.
    ///   - transport: the transport to send through.
    ///   - baseURL: the server to send to.
    ///   - headers: header fields added to every request (a bearer token, say).
    public static func run<A: API>(
        _ api: A.Type, transport: any Transport, baseURL: URL, headers: HTTPHeaders = HTTPHeaders()
    ) async -> [Failure] {
        let manager = NetworkManager(transport: transport, baseURL: baseURL, defaultHeaders: headers)
        var failures: [Failure] = []
        for sample in A.samples {
            let operation = sample.operation
            do {
                let response = try await manager.sendRaw(sample)
                if response.status != operation.successStatus {
                    failures.append(
                        Failure(
                            operation: operation.id,
                            problem: "status \(response.status), declared \(operation.successStatus)"))
                }
                guard let schema = operation.success.schema else { continue }
                let json = try JSONValue.parse(response.value)
                if let (path, reason) = schema.violation(of: json, at: "response") {
                    failures.append(Failure(operation: operation.id, problem: "\(path) \(reason)"))
                }
            } catch {
                failures.append(Failure(operation: operation.id, problem: "\(error)"))
            }
        }
        return failures
    }
}
