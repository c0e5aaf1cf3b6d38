import Courier
import CourierInterceptors
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `NetworkManager.stream` runs the one pipeline every call runs; a transport that hands its body
/// over whole streams it from memory.
@Suite struct NetworkManagerStreamTests {
    /// A transport that only ever collects its body: a stream of it still works.
    struct CollectingTransport: Transport {
        func send(_ request: TransportRequest) async throws -> TransportResponse {
            TransportResponse(status: 200, body: .data(Data("ok".utf8)))
        }
    }

    @Test func aTransportThatOnlyCollectsIsStreamedFromMemory() async throws {
        let manager = NetworkManager(transport: CollectingTransport())
        let response = try await manager.stream(URLRequest(url: URL(string: "http://example.invalid/x")!))
        #expect(response.status == 200)
        #expect(try await response.value.collect(upTo: 16) == Data("ok".utf8))
    }

    @Test func interceptorsAdaptTheStreamedRequest() async throws {
        let stub = StubTransport(fallback: { request in
            .text("token \(request.urlRequest.value(forHTTPHeaderField: "Authorization") ?? "none")")
        })
        let adapter = RequestAdapter { request in
            request.headers["Authorization"] = "Bearer abc"
        }
        let manager = NetworkManager(
            transport: stub, baseURL: URL(string: "http://api.test"), interceptors: [adapter])
        let response = try await manager.stream(URLRequest(url: URL(string: "/feed")!))
        #expect(response.status == 200)
        #expect(response.request.headers["Authorization"] == "Bearer abc")
        #expect(
            String(decoding: try await response.value.collect(upTo: 1024), as: UTF8.self)
                == "token Bearer abc")
    }

    @Test func anUnacceptableStatusFailsWithTheStartOfTheBody() async throws {
        let stub = StubTransport(fallback: { _ in .text("no such feed", status: 404) })
        let manager = NetworkManager(transport: stub, baseURL: URL(string: "http://api.test"))
        let error = await #expect(throws: CourierError.self) {
            _ = try await manager.stream(URLRequest(url: URL(string: "/feed")!))
        }
        #expect(error?.code == .unacceptableStatus)
        #expect(error?.status == 404)
        #expect(error?.body == Data("no such feed".utf8))
    }

    @Test func anUnacceptableContentTypeIsCheckedOnTheHead() async throws {
        let stub = StubTransport(fallback: { _ in .text("plain") })
        let manager = NetworkManager(
            transport: stub, baseURL: URL(string: "http://api.test"),
            validation: Validation(acceptableContentTypes: ["application/octet-stream"]))
        let error = await #expect(throws: CourierError.self) {
            _ = try await manager.stream(URLRequest(url: URL(string: "/feed")!))
        }
        #expect(error?.code == .unacceptableContentType)
    }
}
