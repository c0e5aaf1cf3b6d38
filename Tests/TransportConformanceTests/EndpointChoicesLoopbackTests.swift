import Courier
import CourierContract
import CourierJSON
import CourierTesting
import Foundation
import MockServer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An endpoint's own statuses and decoder, over each transport against a loopback server.
@Suite struct EndpointChoicesLoopbackTests {
    struct Problem: Codable, Sendable, Equatable {
        var errorCode: Int
        var seenAt: Date
    }

    enum ProblemAPI: API {
        static func problem() -> Endpoint<Problem> {
            endpoint(.get, "/problem", "A problem, answered with 404", errors: [404]) {}
                .validated(
                    by: Validation(acceptableStatusCodes: [404], acceptableContentTypes: ["application/json"])
                )
                .decoded(
                    with: {
                        var decoder = CourierJSONDecoder()
                        decoder.keyDecodingStrategy = .convertFromSnakeCase
                        decoder.dateDecodingStrategy = .millisecondsSince1970
                        return decoder
                    }())
        }

        static var samples: [any EndpointDescribing] { [problem()] }
    }

    @Test(arguments: TransportUnderTest.all)
    func aNotFoundAnswerDecodesWithTheEndpointsChoices(transport: TransportUnderTest) async throws {
        let handler = ClosureHandler { request in
            guard request.path == "/problem" else { return nil }
            return .json(Data(#"{"error_code":7,"seen_at":1500}"#.utf8), status: 404)
        }
        let response = try await withMockServer(handlers: [handler]) { server in
            try await transport.with { sut in
                try await NetworkManager(transport: sut, baseURL: server.baseURL).send(ProblemAPI.problem())
            }
        }
        #expect(response.status == 404)
        #expect(response.value == Problem(errorCode: 7, seenAt: Date(timeIntervalSince1970: 1.5)))
    }
}
