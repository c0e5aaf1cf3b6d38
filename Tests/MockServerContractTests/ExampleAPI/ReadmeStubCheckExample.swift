import CourierCurl
import Foundation
import MockServer
import MockServerContract

// Your WireMock stubs (a mappings folder), checked against the declaration: the stubs answer, the
// declaration judges every answer.
func checkStubs(in mappings: URL) async throws -> [ContractCheck.Failure] {
    var configuration = MockServerConfiguration()
    configuration.mappingsDirectory = mappings
    return try await withMockServer(configuration: configuration, handlers: [ContractHandler(NotesAPI.self)])
    {
        server in
        await ContractCheck.run(
            NotesAPI.self, transport: CurlTransport(), baseURL: server.baseURL,
            headers: ["Authorization": "Bearer test"])
    }
}
