import Courier
import CourierContract
import CourierContractModel
import CourierPrimitives
import CourierTesting
import CourierURLSession
import Foundation
import Testing

/// A cassette checked against the declaration, as WireMock stubs are: `ContractCheck` sends every
/// sample through a `CassetteTransport` that only replays, and judges each recorded answer.
@Suite struct CassetteContractTests {
    /// Records the declaration's samples against its own contract handler.
    static func recordSamples(in directory: URL) async throws {
        try await withMockServer(handlers: [ContractHandler(GreetingAPI.self)]) { server in
            let transport = URLSessionTransport()
            let cassette = try Cassette("contract", in: directory, mode: .once)
            let failures = await ContractCheck.run(
                GreetingAPI.self, transport: CassetteTransport(cassette, recordingThrough: transport),
                baseURL: server.baseURL)
            #expect(failures.isEmpty, "\(failures)")
            try cassette.save()
            await transport.shutdown()
        }
    }

    static func check(_ directory: URL) async throws -> [ContractCheck.Failure] {
        let cassette = try Cassette("contract", in: directory, mode: .none)
        return await ContractCheck.run(
            GreetingAPI.self,
            transport: CassetteTransport(cassette, recordingThrough: CassetteTests.Unreachable()),
            baseURL: try #require(URL(string: "https://greetings.example")))
    }

    @Test func aRecordedCassetteHoldsTheDeclaration() async throws {
        let directory = try TemporaryDirectory()
        try await Self.recordSamples(in: directory.url)
        let failures = try await Self.check(directory.url)
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test func aCassetteThatDriftedFromTheDeclarationFailsTheCheck() async throws {
        let directory = try TemporaryDirectory()
        try await Self.recordSamples(in: directory.url)
        let file = directory.url.appendingPathComponent("contract/mappings/cassette.json")
        guard case .array(var mappings)? = try JSONValue.parse(Data(contentsOf: file))["mappings"],
            case .object(var first) = mappings[0], case .object(var response)? = first["response"]
        else {
            Issue.record("the cassette holds no mappings")
            return
        }
        response["body"] = .string(#"{"text": 42}"#)  // the declaration says text is a string
        first["response"] = .object(response)
        mappings[0] = .object(first)
        try JSONValue.object(["mappings": .array(mappings)]).serialized().write(to: file)
        let failures = try await Self.check(directory.url)
        #expect(!failures.isEmpty)
        #expect(failures.contains { $0.problem.contains("text") }, "\(failures)")
    }
}
