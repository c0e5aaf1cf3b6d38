import Courier
import Foundation

/// What a call's outcome carries besides its value, as one line for a log.
func logLine(for outcome: Result<Response<String>, CourierError>) -> String {
    switch outcome {
    case .success(let response):
        // `request` is the `TransportRequest` as sent; `body` is a `ResponseBody` (`.data` when in memory).
        return "\(response.request.method) \(response.request.url.path): \(response.status), "
            + "\(response.body.data.count) bytes"
    case .failure(let error):
        // A response that arrived is in the error itself: `status`, `headers`, `body` (nil when none did).
        let body = error.body.map { String(decoding: $0, as: UTF8.self) } ?? "no body"
        return "\(error.request?.method.rawValue ?? "-") failed: \(error.status ?? 0), \(body)"
    }
}
