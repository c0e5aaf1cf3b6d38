import Courier
import CourierCurl
import CourierTesting
import Foundation
import Testing

/// Your own transport: here, one that adds a header and hands the request to libcurl.
struct TracingTransport: Transport {
    let inner = CurlTransport()

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        try await inner.send(traced(request))
    }

    func shutdown() async { await inner.shutdown() }

    private func traced(_ request: TransportRequest) -> TransportRequest {
        var request = request
        request.headers["X-Request-Source"] = "readme"
        return request
    }
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
