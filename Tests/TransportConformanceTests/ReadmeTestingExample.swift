import Courier
import CourierCurl
import CourierTesting
import Foundation
import Testing

/// Your own transport: here, one that adds a header and hands the request to libcurl.
struct TracingTransport: Transport {
    let inner = CurlTransport()

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        var request = request
        request.headers["X-Request-Source"] = "readme"
        return try await inner.send(request)
    }

    func shutdown() async { await inner.shutdown() }
}

@Test func tracingTransportConforms() async {
    let report = await TransportConformance.run { TracingTransport() }
    #expect(report.passed, "\(report)")
}

@Test func talksToAScopedMockServer() async throws {
    try await withMockServer { server in
        let url = server.baseURL.appendingPathComponent("__admin/mappings")
        let response = try await TracingTransport().send(TransportRequest(url: url))
        #expect(response.status == 200)
    }
}
