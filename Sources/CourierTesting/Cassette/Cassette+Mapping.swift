import Courier
import CourierPrimitives
import Foundation

/// One exchange as a WireMock mapping, with its secrets redacted.
extension Cassette {
    /// Response headers the mock server sets itself, or that no longer describe a decoded body.
    private static let droppedHeaders: Set<String> = [
        "content-length", "transfer-encoding", "connection", "content-encoding", "keep-alive", "date",
    ]

    static func mapping(
        method: String, url: URL, body: Data, status: Int, headers: [(name: String, value: String)],
        responseBody: Data, matching: Matching
    ) -> JSONValue {
        var request: [String: JSONValue] = [:]
        request["method"] = .string(matching.contains(.method) ? method : "ANY")
        if matching.contains(.url) {
            request["url"] = .string(redactedTarget(url))
        } else {
            request["urlPattern"] = .string(".*")
        }
        if matching.contains(.body) && !body.isEmpty {
            let text = redactedBody(body)
            if let json = try? JSONValue.parse(Data(text.utf8)) {  // allowed: else text
                request["bodyPatterns"] = .array([.object(["equalToJson": json])])
            } else {
                request["bodyPatterns"] = .array([.object(["equalTo": .string(text)])])
            }
        }
        var responseHeaders: [String: JSONValue] = [:]
        for (name, value) in headers where !droppedHeaders.contains(name.lowercased()) {
            let shown = Redaction.isSensitive(header: name) ? Redaction.placeholder : value
            switch responseHeaders[name] {
            case .string(let first)?: responseHeaders[name] = .array([.string(first), .string(shown)])
            case .array(let values)?: responseHeaders[name] = .array(values + [.string(shown)])
            default: responseHeaders[name] = .string(shown)
            }
        }
        var response: [String: JSONValue] = ["status": .int(Int64(status))]
        if !responseHeaders.isEmpty { response["headers"] = .object(responseHeaders) }
        if !responseBody.isEmpty {
            if String(data: responseBody, encoding: .utf8) != nil {
                response["body"] = .string(redactedBody(responseBody))
            } else {
                response["base64Body"] = .string(responseBody.base64EncodedString())
            }
        }
        return .object(["request": .object(request), "response": .object(response)])
    }

    /// The path and query as sent, with the values of sensitive query parameters replaced.
    static func redactedTarget(_ url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        var target = components?.percentEncodedPath ?? "/"
        if target.isEmpty { target = "/" }
        guard let query = components?.percentEncodedQuery else { return target }
        let pairs = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            guard parts.count == 2, Redaction.isSensitive(field: name) else { return String(pair) }
            return parts[0] + "=%3Credacted%3E"
        }
        return target + "?" + pairs.joined(separator: "&")
    }

    /// A body as text with the values of sensitive fields replaced (JSON at any depth, `key=value` pairs).
    static func redactedBody(_ body: Data) -> String {
        body.isEmpty ? "" : Redaction.redact(body: body)
    }
}
